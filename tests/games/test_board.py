"""Board games (gr.cram, gr.node_kayles, gr.arc_kayles, gr.chomp): values of the pruned search against a
plain memoised mex over whole positions written here (no components, no symmetry, no pruning), against
published values (Node Kayles on a path is Dawson's chess 0.137), and the play protocol of Position."""

from __future__ import annotations

import random
import subprocess
import sys
from functools import cache

import numpy as np
import pytest

import grundy as gr
from grundy import _core

MIB = 1 << 20

# -- the reference: options of positions as bitmasks, written cell by cell -------------------------


def brute_values(start, options):
    """G of every position reachable from ``start`` (an int bitmask), by plain memoised mex."""
    memo = {}
    stack = [start]
    while stack:
        pos = stack[-1]
        if pos in memo:
            stack.pop()
            continue
        opts = options(pos)
        todo = [o for o in opts if o not in memo]
        if todo:
            stack.extend(todo)
            continue
        stack.pop()
        seen = {memo[o] for o in opts}
        memo[pos] = next(v for v in range(len(seen) + 1) if v not in seen)
    return memo


def grid_edges(rows, cols):
    """The edges of the grid graph on cells r * cols + c."""
    out = []
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                out.append((r * cols + c, r * cols + c + 1))
            if r + 1 < rows:
                out.append((r * cols + c, (r + 1) * cols + c))
    return out


def arc_options(edges):
    """Cram (Arc Kayles on the graph of the board): remove both ends of an edge whose ends are free."""

    def options(pos):
        return [pos & ~(1 << a | 1 << b) for a, b in edges if pos >> a & 1 and pos >> b & 1]

    return options


def node_options(n, edges):
    """Node Kayles: remove a vertex and its neighbours."""
    closed = [1 << v for v in range(n)]
    for a, b in edges:
        closed[a] |= 1 << b
        closed[b] |= 1 << a

    def options(pos):
        return [pos & ~closed[v] for v in range(n) if pos >> v & 1]

    return options


def chomp_options(rows, cols):
    """Chomp: eat square (r, c), not the poisoned (0, 0), with everything below and right of it."""

    def options(pos):
        out = []
        for r in range(rows):
            for c in range(cols):
                if (r, c) != (0, 0) and pos >> (r * cols + c) & 1:
                    eaten = sum(1 << (r2 * cols + c2) for r2 in range(r, rows) for c2 in range(c, cols))
                    out.append(pos & ~eaten)
        return out

    return options


def sizes(max_cells=20, max_side=5):
    return [(r, c) for r in range(1, max_side + 1) for c in range(1, max_side + 1) if r * c <= max_cells]


def sample(values, k, rng):
    """``k`` positions of a brute-force table (all of them when there are fewer)."""
    keys = sorted(values)
    return keys if len(keys) <= k else rng.sample(keys, k)


@cache
def dawson(n):
    return gr.TakeAndBreak("0.137").values(n + 1).tolist()


# -- values against the brute force ----------------------------------------------------------------


@pytest.mark.parametrize("rows, cols", sizes())
def test_cram_matches_brute_force_on_every_board_up_to_4x5(rows, cols):
    rng = random.Random(rows * 100 + cols)
    game = gr.cram(rows, cols, memory=MIB)
    full = (1 << rows * cols) - 1
    want = brute_values(full, arc_options(grid_edges(rows, cols)))
    assert game.value() == want[full]
    for pos in sample(want, 150, rng):
        state = gr.BoardState(game, pos)
        assert game.value(state.blocked) == want[pos], (rows, cols, str(state))


@pytest.mark.parametrize("rows, cols", sizes())
def test_node_kayles_matches_brute_force_on_every_grid_up_to_4x5(rows, cols):
    rng = random.Random(rows * 10 + cols)
    game = gr.node_kayles(grid=(rows, cols), memory=MIB)
    n = rows * cols
    want = brute_values((1 << n) - 1, node_options(n, grid_edges(rows, cols)))
    assert game.value() == want[(1 << n) - 1]
    for pos in sample(want, 150, rng):
        removed = [(i // cols, i % cols) for i in range(n) if not pos >> i & 1]
        assert game.value(removed) == want[pos]


def test_random_mid_game_positions_of_larger_boards():
    """Random blocked cells on boards past 4 x 5 (a brute force over what is left)."""
    rng = random.Random(7)
    for rows, cols in [(5, 5), (4, 7), (3, 9), (6, 6)]:
        cram = gr.cram(rows, cols, memory=4 * MIB)
        kayles = gr.node_kayles(grid=(rows, cols), memory=4 * MIB)
        edges = grid_edges(rows, cols)
        for _ in range(4):
            mask = np.array([rng.random() < 0.5 for _ in range(rows * cols)]).reshape(rows, cols)
            free = sum(1 << i for i, b in enumerate(mask.ravel()) if not b)
            assert cram.value(mask) == brute_values(free, arc_options(edges))[free]
            assert kayles.value(mask) == brute_values(free, node_options(rows * cols, edges))[free]


def test_graph_games_match_brute_force_on_random_graphs():
    rng = random.Random(3)
    for _ in range(12):
        n = rng.randrange(4, 13)
        edges = [(u, v) for u in range(n) for v in range(u + 1, n) if rng.random() < 0.3]
        labels = [f"v{i}" for i in range(n)]
        adjacency = {labels[v]: [labels[b] for a, b in edges if a == v] for v in range(n)}  # isolated ones too
        full = (1 << n) - 1
        nk = brute_values(full, node_options(n, edges))
        ak = brute_values(full, arc_options(edges))
        node, arc = gr.node_kayles(adjacency, memory=MIB), gr.arc_kayles(adjacency, memory=MIB)
        assert node.value() == nk[full] and arc.value() == ak[full]
        for pos in sample(nk, 20, rng):
            assert node.value([labels[i] for i in range(n) if not pos >> i & 1]) == nk[pos]
        for pos in sample(ak, 20, rng):
            assert arc.value([labels[i] for i in range(n) if not pos >> i & 1]) == ak[pos]


def test_arc_kayles_on_complete_graphs_alternates():
    # Every move of K_n leaves K_(n-2), so G(K_n) = mex{G(K_(n-2))}: 1, 1, 0, 0, 1, 1, ... = (n // 2) % 2,
    # checked for small n against the brute force; up to 128 it takes the isomorphism keys (vertex sets
    # made K_28 take seconds and K_128 more than minutes).
    for n in (2, 3, 4, 5, 6, 7, 9, 17, 30, 33, 64, 101, 127, 128):
        adjacency = {v: [u for u in range(n) if u != v] for v in range(n)}
        value = gr.arc_kayles(adjacency, memory=4 * MIB).value()
        if n <= 9:
            full = (1 << n) - 1
            assert value == brute_values(full, arc_options([(u, v) for u in range(n) for v in range(u + 1, n)]))[full]
        assert value == (n // 2) % 2, n


def test_kayles_on_hypercubes_match_brute_force():
    # Vertex-transitive: every first move is the same up to isomorphism, and refinement leaves ties.
    rng = random.Random(7)
    for d in (3, 4):
        n = 1 << d
        edges = [(u, u ^ 1 << b) for u in range(n) for b in range(d) if u < u ^ 1 << b]
        adjacency = {v: [b for a, b in edges if a == v] for v in range(n)}
        full = (1 << n) - 1
        nk, ak = brute_values(full, node_options(n, edges)), brute_values(full, arc_options(edges))
        node, arc = gr.node_kayles(adjacency, memory=MIB), gr.arc_kayles(adjacency, memory=MIB)
        assert node.value() == nk[full] and arc.value() == ak[full]
        for pos in sample(nk, 30, rng):
            assert node.value([i for i in range(n) if not pos >> i & 1]) == nk[pos]
        for pos in sample(ak, 30, rng):
            assert arc.value([i for i in range(n) if not pos >> i & 1]) == ak[pos]


def test_arc_kayles_on_a_grid_is_cram():
    for rows, cols in [(2, 5), (3, 4), (4, 4)]:
        assert gr.arc_kayles(grid=(rows, cols), memory=MIB).value() == gr.cram(rows, cols, memory=MIB).value()


@pytest.mark.parametrize("rows, cols", sizes(12, 4))
def test_chomp_matches_brute_force(rows, cols):
    game = gr.chomp(rows, cols, memory=MIB)
    full = (1 << rows * cols) - 1
    want = brute_values(full, chomp_options(rows, cols))
    assert game.value() == want[full]
    for pos, v in want.items():
        assert game.value(gr.BoardState(game, pos).blocked) == v


@pytest.mark.parametrize("rows, cols", sizes(36, 6))
def test_every_chomp_bar_but_1x1_is_a_first_player_win(rows, cols):
    # The strategy-stealing argument: eating the bottom right square cannot be better than some other move.
    assert gr.chomp(rows, cols, memory=MIB).outcome() == ("P" if rows * cols == 1 else "N")


# -- published values ------------------------------------------------------------------------------


def test_node_kayles_paths_are_dawsons_chess():
    want = dawson(70)
    assert [gr.node_kayles(path=n, memory=MIB).value() for n in range(1, 71)] == want[1:]
    # The same path as an edge list with shuffled labels (found to be a path), and with an isolated
    # vertex beside it (a general graph, searched without the path's symmetry: G = G(P_n) ^ G(P_1)).
    rng = random.Random(1)
    for n in (2, 9, 23, 40):
        names = rng.sample(range(1000), n)
        path = [(names[i], names[i + 1]) for i in range(n - 1)]
        rng.shuffle(path)
        assert gr.node_kayles(path, memory=MIB).value() == want[n]
        assert (
            gr.node_kayles({**dict.fromkeys(names, []), "x": [], **{a: [b] for a, b in path}}, memory=MIB).value()
            == want[n] ^ 1
        )


def test_node_kayles_cycles_are_one_move_from_paths():
    # Every vertex of C_n is alike: each move leaves P_{n-3}, so G(C_n) = mex{G(P_{n-3})}.
    want = dawson(60)
    for n in range(3, 61):
        assert gr.node_kayles(cycle=n, memory=MIB).value() == (1 if want[n - 3] == 0 else 0), n


# -- positions and moves ---------------------------------------------------------------------------


def random_positions(game, k, rng):
    """``k`` positions reached by random moves from the start."""
    out = []
    for _ in range(k):
        s = game.start
        for _ in range(rng.randrange(0, game.num_cells // 3 + 1)):
            opts = s.options()
            if not opts:
                break
            s = rng.choice(opts)
        out.append(s)
    return out


GAMES = [
    lambda: gr.cram(4, 5, memory=MIB),
    lambda: gr.cram(3, 7, memory=MIB),
    lambda: gr.node_kayles(grid=(4, 4), memory=MIB),
    lambda: gr.node_kayles(cycle=11, memory=MIB),
    lambda: gr.arc_kayles([(0, 1), (1, 2), (2, 3), (3, 0), (0, 2), (3, 4), (4, 5), (5, 6), (6, 4)], memory=MIB),
    lambda: gr.chomp(4, 5, memory=MIB),
]


@pytest.mark.parametrize("make", GAMES)
def test_winning_moves_lead_to_p_positions(make):
    game = make()
    rng = random.Random(game.num_cells)
    for s in random_positions(game, 8, rng):
        pos = game.position(s)
        moves = pos.winning_moves()
        zeros = [o for o in s.options() if o.value() == 0]
        assert [m.after[0] for m in moves] == zeros  # exactly the options worth 0, in order
        assert all(pos.play(m).grundy == 0 and m.before == s for m in moves)
        assert bool(moves) == (s.value() != 0) == (pos.outcome() == "N") == (game.outcome(s) == "N")
    # In a sum, a winning move takes one board to an option worth G(board) ^ nim-sum.
    a, b = random_positions(game, 2, rng)
    total = gr.Position(game, [a, b]) + gr.Position(gr.nim(), [3])
    for m in total.winning_moves():
        assert total.play(m).grundy == 0
    assert bool(total.winning_moves()) == (total.grundy != 0)


def test_options_components_and_states():
    g = gr.cram(2, 3, memory=MIB)
    assert [str(o) for o in g.options()] == [
        "##.\n...",
        ".##\n...",
        "...\n##.",
        "...\n.##",
        "#..\n#..",
        ".#.\n.#.",
        "..#\n..#",
    ]
    s = g.state([[0, 1, 0], [0, 1, 0]])
    assert [c.value() for c in g.components(s)] == [1, 1] and s.value() == 0
    assert s.removed == [(0, 1), (1, 1)] and s == g.state(np.array([[False, True, False], [False, True, False]]))
    assert g.state(s) is s and hash(s) == hash(g.state(s.blocked))
    assert gr.cram(2, 3) == g and hash(gr.cram(2, 3)) == hash(g) and gr.cram(3, 2) != g
    assert str(gr.node_kayles(path=4).state([1])) == "{0, 2, 3}"
    # A grid graph given as networkx would give it (cells (r, c)) is searched as a grid; a mask works there too.
    grid = {(r, c): [(r + 1, c)] * (r < 2) + [(r, c + 1)] * (c < 2) for r in range(3) for c in range(3)}
    k = gr.node_kayles(grid, memory=MIB)
    assert k.shape == (3, 3) and k.value() == gr.node_kayles(grid=(3, 3)).value()
    centre = np.zeros((3, 3), dtype=bool)
    centre[1, 1] = True
    assert k.value([(1, 1)]) == k.value(centre) == 0  # a ring of 8 vertices: C_8, whose G(P_5) = 3


def brute_misere_p(state, options):
    """Misère play over whole sums (a tuple of bitmask boards and a Nim heap): no move means the mover wins."""
    memo = {}

    def p(s):
        if s not in memo:
            opts = options(s)
            memo[s] = bool(opts) and all(not p(o) for o in opts)
        return memo[s]

    return p(state)


def test_misere_play_matches_brute_force_and_mixes_with_heaps():
    # A strip of 3: one move leaves a lone cell: the mover loses in misère play, wins in normal play.
    g = gr.cram(1, 3, memory=MIB)
    assert g.position().outcome() == "N" and g.position().outcome(misere=True) == "P"
    rng = random.Random(5)
    for rows, cols in [(2, 3), (3, 3), (2, 4)]:
        game = gr.cram(rows, cols, memory=MIB)
        moves = arc_options(grid_edges(rows, cols))

        def options(s, moves=moves):
            *boards, heap = s
            out = [
                tuple(sorted(boards[:k] + [o] + boards[k + 1 :])) + (heap,)
                for k, b in enumerate(boards)
                for o in moves(b)
            ]
            return out + [tuple(boards) + (h,) for h in range(heap)]

        for _ in range(4):
            a, b = random_positions(game, 2, rng)
            heap = rng.randrange(3)
            pos = gr.Position(game, [a, b]) + gr.Position(gr.nim(), [heap])
            want = brute_misere_p(tuple(sorted([a.free, b.free])) + (heap,), options)
            assert pos.outcome(misere=True) == ("P" if want else "N")
            for m in pos.winning_moves(misere=True):
                assert pos.play(m).outcome(misere=True) == "P"
                if m.component < 2:
                    assert m.after[0] in m.before.options()


def test_misere_tables_one_entry_per_shape_and_refuse_past_the_limit():
    # Translates, turns and mirror images are one entry: a 3 x 4 board with a winning move in misère play
    # still names real options; past max_positions the error says which boards are out of reach.
    game = gr.cram(3, 4, memory=MIB)
    pos = game.position()
    for m in pos.winning_moves(misere=True):
        assert m.after[0] in game.start.options() and pos.play(m).outcome(misere=True) == "P"
    with pytest.raises(gr.SearchLimitError, match="12 free cells of cram.3, 4. are past reach"):
        pos.outcome(misere=True, max_positions=20)
    # Cram 5 x 7's table (about 3 million shapes) is refused from the sizes of its first levels, long
    # before a million entries are listed.
    with pytest.raises(gr.SearchLimitError, match=r"about 9\.\d million by the sizes of its first 5 levels"):
        gr.cram(5, 7, memory=MIB).position().outcome(misere=True)
    # Node Kayles on the 4-cube, isomorphic regions merged: against the brute force over whole positions.
    edges = [(u, u ^ 1 << b) for u in range(16) for b in range(4) if u < u ^ 1 << b]
    cube = gr.node_kayles({v: [b for a, b in edges if a == v] for v in range(16)}, memory=MIB)
    full = (1 << 16) - 1
    moves = node_options(16, edges)
    assert cube.position().outcome(misere=True) == ("P" if brute_misere_p(full, moves) else "N")


def test_memory_budget_and_stats():
    g = gr.cram(5, 5, memory=MIB)
    assert g.memory == MIB
    g.value()
    st = g.stats()
    assert st["nodes"] > 0 and 0 < st["table_entries"] <= st["table_capacity"] and st["table_bytes"] <= MIB
    default = gr.cram(2, 2).memory
    total = __import__("os").sysconf("SC_PAGE_SIZE") * __import__("os").sysconf("SC_PHYS_PAGES")
    assert default <= total // 4 and default >= min(total // 4, _core.memory_available() or 0) - (1 << 20)


def test_progress_bar_and_interrupts():
    assert gr.cram(3, 3, progress=True, memory=MIB).value() == 0
    core = _core.BoardGame("cram", 16 * MIB, rows=5, cols=9)

    class Stop(Exception):
        pass

    def stop(done, total):
        raise Stop(done)

    with pytest.raises(Stop):
        core.value(core.start, stop)

    def again(done, total):
        core.value(core.start)

    with pytest.raises(gr.ReentrancyError):
        core.value(core.start, again)
    assert core.value((1 << 4) - 1) == 2  # usable after both: a strip of 4 is 0.07 at 4


def test_networkx_graphs_are_accepted_without_importing_networkx():
    code = "import sys, grundy; assert 'networkx' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)
    nx = pytest.importorskip("networkx")
    assert gr.node_kayles(nx.grid_2d_graph(3, 4)).shape == (3, 4)
    assert gr.node_kayles(nx.grid_2d_graph(3, 4)).value() == gr.node_kayles(grid=(3, 4)).value()
    p = nx.petersen_graph()
    want = brute_values((1 << 10) - 1, node_options(10, list(p.edges())))
    assert gr.node_kayles(p).value() == want[(1 << 10) - 1]
    assert gr.arc_kayles(nx.path_graph(9)).value() == gr.cram(1, 9).value()
    with pytest.raises(gr.ArgumentError, match="undirected"):
        gr.node_kayles(nx.DiGraph([(0, 1)]))


# -- bad input -------------------------------------------------------------------------------------


def test_bad_input_errors():
    g = gr.cram(2, 3, memory=MIB)
    with pytest.raises(gr.TooLargeError):
        gr.cram(12, 11)
    with pytest.raises(gr.TooLargeError):
        gr.node_kayles(path=129)
    with pytest.raises(gr.ArgumentError):
        gr.cram(0, 3)
    with pytest.raises(gr.ArgumentTypeError):
        gr.cram(2.5, 3)
    with pytest.raises(gr.ArgumentError, match="shape"):
        g.value([[0, 0], [0, 0]])
    with pytest.raises(gr.ArgumentError, match="rectangle"):
        g.value([[0, 0, 0], [0, 0]])
    with pytest.raises(gr.ArgumentError, match="0 and 1"):
        g.value([[0, 2, 0], [0, 0, 0]])
    with pytest.raises(gr.ArgumentTypeError):
        g.value([[0.5, 0, 0], [0, 0, 0]])
    with pytest.raises(gr.ArgumentTypeError):
        g.value("##.")
    with pytest.raises(gr.ArgumentError, match="position of"):
        g.value(gr.cram(3, 2).start)
    with pytest.raises(gr.ArgumentError, match="staircase|poisoned"):
        gr.chomp(2, 2).value([[0, 1], [0, 0]])
    with pytest.raises(gr.ArgumentError, match="poisoned"):
        gr.chomp(2, 2).value([[1, 1], [1, 1]])
    with pytest.raises(gr.ArgumentError, match="not a vertex"):
        gr.node_kayles(path=3).value([5])
    with pytest.raises(gr.ArgumentError, match="loop"):
        gr.node_kayles([(0, 0)])
    with pytest.raises(gr.ArgumentTypeError, match="pair"):
        gr.node_kayles([(0, 1, 2)])
    with pytest.raises(gr.ArgumentTypeError, match="one of"):
        gr.node_kayles([(0, 1)], path=3)
    with pytest.raises(gr.ArgumentTypeError):
        gr.node_kayles(5)
    with pytest.raises(gr.ArgumentError):
        gr.node_kayles(cycle=2)
    with pytest.raises(gr.ArgumentError, match="budget"):
        gr.cram(2, 2, memory=10)
    with pytest.raises(gr.ArgumentError):
        gr.cram(2, 2, memory=-1)
    with pytest.raises(gr.MemoryLimitError):
        gr.cram(2, 2, memory=1 << 60)
    with pytest.raises(gr.ArgumentTypeError):
        gr.cram(2, 2, progress="yes")
    pos = g.position()
    with pytest.raises(gr.ArgumentError, match="does not belong"):
        pos.play(gr.Move(0, g.start, (g.start,)))
    with pytest.raises(gr.ArgumentTypeError):
        gr.outcomes(g, [[1, 2]])
