"""Loopy StateGames (``StateGame(..., loopy=True)``): generalized values of cyclic state spaces.

The references are independent of the engine: the win/loss/draw retrograde analysis of the state
graph and of product graphs of sums (``test_loopy.retrograde``), and Smith's definition checked
directly on the values. States are explored in random order, one question at a time, so that the
explorer solves its graph in many small steps (each new part on top of the solved old part).
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_loopy import capped_heap, graph_component, product, reached, retrograde, small_graphs

import grundy as gr


def state_game(n, edges, **kw):
    """A loopy StateGame over the states ("v", u), moves from a dict (repeated edges kept)."""
    adj = {("v", u): [] for u in range(n)}
    for u, v in edges:
        adj[("v", u)].append(("v", v))
    return gr.StateGame(adj.__getitem__, loopy=True, **kw), adj


def check_smith(adj, val):
    """Smith's conditions for the generalized values ``val`` of the graph ``adj`` (a dict of options)."""
    for u, opts in adj.items():
        fin = {val[v] for v in opts if isinstance(val[v], int)}
        if isinstance(val[u], gr.Infinity):
            assert val[u].K == fin, u
            continue
        m = val[u]
        assert m not in fin and set(range(m)) <= fin, u
        for v in opts:  # every larger or infinite option can be answered by a move to m
            if isinstance(val[v], gr.Infinity) or val[v] > m:
                assert m in {val[w] for w in adj[v] if isinstance(val[w], int)}, (u, v)


# -- one state game against the retrograde analysis ---------------------------------------------


@settings(max_examples=200, deadline=None)
@given(small_graphs(max_n=8), st.randoms(use_true_random=False))
def test_random_cyclic_state_spaces_explored_in_steps(graph, rnd):
    n, edges = graph
    g, adj = state_game(n, edges)
    order = list(adj)
    rnd.shuffle(order)
    val = {s: g.value(s) for s in order}  # each question may explore and solve a few more states
    check_smith(adj, val)
    ref = retrograde(list(adj), adj.__getitem__)
    assert {s: g.outcome(s) for s in adj} == ref
    assert g.num_states == n
    # One whole solve of the same graph agrees (the explorer solved it in steps).
    whole = gr.GameGraph(edges, num_vertices=n).generalized_values()
    assert [val[("v", u)] for u in range(n)] == [whole.value(u) for u in range(n)]
    # The lone game's winning and drawing options are the moves to P and to D.
    for s in adj:
        assert g.winning_options(s) == [o for o in adj[s] if ref[o] == "P"]
        want = [o for o in adj[s] if ref[o] == "D"] if ref[s] == "D" else []
        assert g.drawing_options(s) == want


@settings(max_examples=100, deadline=None)
@given(small_graphs(max_n=8, acyclic=True), st.randoms(use_true_random=False))
def test_acyclic_state_games_give_the_same_values_with_loopy(graph, rnd):
    n, edges = graph
    loopy, adj = state_game(n, edges)
    plain = gr.StateGame(adj.__getitem__)
    order = list(adj)
    rnd.shuffle(order)
    assert [loopy.value(s) for s in order] == [plain.value(s) for s in order]
    assert loopy.values(order).tolist() == plain.values(order).tolist()
    assert loopy.generalized_values().is_finite.all()


def test_acyclic_games_with_large_values_agree():
    # Nim heaps as states, and a subtraction game: values far above the stand-in heaps' sizes.
    for options in (lambda h: range(h), lambda h: [h - s for s in (1, 3, 4) if s <= h]):
        loopy, plain = gr.StateGame(options, loopy=True), gr.StateGame(options)
        for h in (5, 40, 17, 90, 3, 120):
            assert loopy.value(h) == plain.value(h)
        assert loopy.values(range(130)).tolist() == plain.values(range(130)).tolist()


# -- the hand-worked example ----------------------------------------------------------------------


def capped(cap):
    """Remove 1 or 2 tokens, or add 1 token to a non-empty heap below the cap, as a StateGame."""
    return gr.StateGame(lambda h: [h - k for k in (1, 2) if k <= h] + ([h + 1] if 1 <= h < cap else []), loopy=True)


def test_hand_worked_capped_heap():
    # Cap 4. Heap 0 has no move: 0 (P). Heaps 1 and 2 move to 0 and win: N. From 3 (options 2,
    # 1, 4) and 4 (options 3, 2) every move to 1 or 2 hands the opponent a win, and 3 <-> 4 can
    # go on forever: draws. Values: 1 has options 0 and 2; it cannot be 1, since the answer to
    # 1 -> 2 would be 2 -> 1, a return that does not make progress; so 1 = Infinity({0}), and so
    # is 2 (options 1, 0, 3). 3 and 4 have only infinite options: Infinity() each.
    g = capped(4)
    assert [g.value(h) for h in range(5)] == [0, gr.Infinity({0}), gr.Infinity({0}), gr.Infinity(), gr.Infinity()]
    assert [g.outcome(h) for h in range(5)] == ["P", "N", "N", "D", "D"]
    assert g.moves(1) == [(0, (0,)), (2, (2,))] and g.options(3) == [2, 1, 4]
    assert g.winning_options(2) == [0] and g.drawing_options(3) == [4] and g.drawing_options(1) == []
    nim = gr.nim()
    # 1 + a heap of 0: win by 1 -> 0. 1 + a heap of 1: Infinity({1}), a draw (1 -> 2 -> 1 ...).
    pos = gr.Position(g, [1]) + gr.Position(nim, [0])
    assert pos.outcome() == "N" and pos.winning_moves() == [gr.Move(0, 1, (0,))]
    pos = gr.Position(g, [1]) + gr.Position(nim, [1])
    assert pos.outcome() == "D" and pos.winning_moves() == []
    assert pos.drawing_moves() == [gr.Move(0, 1, (2,))]
    assert (gr.Position(g, [3]) + gr.Position(nim, [2])).outcome() == "D"
    assert gr.Position(g, [1, 1]).outcome() == "D"  # two infinite components
    # The same as an explicit graph (tests/games/test_loopy.py's capped_heap).
    gv = gr.GameGraph(capped_heap(4)).generalized_values()
    assert [g.value(h) for h in range(5)] == [gv.value(h) for h in range(5)]


@pytest.mark.parametrize("cap", [1, 2, 3, 5, 8])
def test_capped_heaps_against_retrograde(cap):
    g = capped(cap)
    d = capped_heap(cap)
    assert {h: g.outcome(h) for h in d} == retrograde(list(d), d.__getitem__)
    check_smith(d, {h: g.value(h) for h in d})


# -- sums through gr.Position against the product graph -------------------------------------------


@settings(max_examples=60, deadline=None)
@given(small_graphs(max_n=4), small_graphs(max_n=4), st.sampled_from([[1, 2], [1, 3]]))
def test_positions_with_a_heap_game_and_a_graph_match_the_product_graph(g1, g2, subtraction):
    """Outcome, winning and drawing moves of state + graph vertex + heap, against the brute force."""
    sg, adj = state_game(*g1)
    graph = gr.GameGraph(g2[1], num_vertices=g2[0])
    game = gr.Subtraction(subtraction)
    heaps = (list(range(5)), lambda h: [h - s for s in subtraction if s <= h])
    comps = [graph_component(*g1), graph_component(*g2), heaps]
    positions, options = product(comps)
    ref = retrograde(positions, options)

    def as_ids(pos, move):
        """The product position a move leads to (states ("v", u) back to u)."""
        if move.component == 0:
            return (move.after[0][1],) + pos[1:]
        return reached(pos, move)

    for pos in positions:
        p = gr.Position(sg, [("v", pos[0])]) + gr.Position(graph, [pos[1]]) + gr.Position(game, [pos[2]])
        assert p.outcome() == ref[pos], pos
        moves = p.moves()
        assert {as_ids(pos, m) for m in p.winning_moves()} == {
            as_ids(pos, m) for m in moves if ref[as_ids(pos, m)] == "P"
        }
        want = {as_ids(pos, m) for m in moves if ref[as_ids(pos, m)] == "D"} if ref[pos] == "D" else set()
        assert {as_ids(pos, m) for m in p.drawing_moves()} == want


@settings(max_examples=40, deadline=None)
@given(small_graphs(max_n=5), small_graphs(max_n=5))
def test_sums_of_two_state_games_match_the_product_graph(g1, g2):
    sg1, _ = state_game(*g1)
    sg2, _ = state_game(*g2)
    positions, options = product([graph_component(*g1), graph_component(*g2)])
    ref = retrograde(positions, options)
    for a, b in positions:
        p = gr.Position(sg1, [("v", a)]) + gr.Position(sg2, [("v", b)])
        assert p.outcome() == ref[(a, b)]
        got = {(m.component, m.after[0][1]) for m in p.winning_moves()}
        want = {(0, o) for o in graph_component(*g1)[1](a) if ref[(o, b)] == "P"}
        want |= {(1, o) for o in graph_component(*g2)[1](b) if ref[(a, o)] == "P"}
        assert got == want


def test_two_states_of_one_game_in_a_position():
    g = capped(4)
    comp = (list(range(5)), capped_heap(4).__getitem__)
    ref = retrograde(*product([comp, comp]))
    for a in range(5):
        for b in range(5):
            assert gr.Position(g, [a, b]).outcome() == ref[(a, b)], (a, b)


# -- the rest of the API ----------------------------------------------------------------------------


def test_generalized_values_object():
    g = capped(4)
    gv = g.generalized_values([2])
    assert isinstance(gv, gr.GeneralizedValues)
    assert repr(gv) == "GeneralizedValues(num_vertices=5, finite=1, infinite=4, P=1, N=2, D=2)"
    labels = gv.graph.labels
    assert sorted(labels) == [0, 1, 2, 3, 4]
    assert gv.values_by_label() == {h: g.value(h) for h in labels}
    assert gv.outcomes().tolist() == [g.outcome(h) for h in labels]
    assert gv.is_finite.tolist() == [h == 0 for h in labels]
    assert gv.finite.tolist() == [0 if h == 0 else -1 for h in labels]
    assert gv.winning_options(1) == [0] and gv.drawing_options(4) == [3]
    assert "∞(0)" in gv._repr_html_()
    # A snapshot: states explored later are not in it.
    g2 = gr.StateGame(lambda n: [n + 1, n] if n < 3 else [], loopy=True)
    snap = g2.generalized_values([2])
    g2.value(0)
    assert len(snap) == 2 and len(g2.generalized_values()) == 4
    with pytest.raises(KeyError, match="not among the 2 states"):
        snap.value(0)
    assert 0 not in snap.graph and 2 in snap.graph


def test_values_array_and_key():
    g = capped(4)
    out = g.values([0, 1, 3])
    assert out.dtype == object and out.tolist() == [0, gr.Infinity({0}), gr.Infinity()]
    # key=: the states -h and h are the same heap; options of canonical states only.
    signed = gr.StateGame(
        lambda h: [h - k for k in (1, 2) if k <= h] + ([-(h + 1)] if 1 <= h < 4 else []), key=abs, loopy=True
    )
    assert [signed.value(-h) for h in range(5)] == [g.value(h) for h in range(5)]
    assert signed.options(3) == [2, 1, 4] and signed.num_states == 5


def test_a_larger_random_state_space_in_chunks_and_threads():
    rng = np.random.default_rng(7)
    n = 3000
    src, dst = rng.integers(0, n, 3 * n), rng.integers(0, n, 3 * n)
    # Keep only edges to smaller ids or within a block of 50: cycles inside blocks, and later
    # questions reach back into what is already solved.
    keep = (dst < src) | (dst // 50 == src // 50)
    src, dst = src[keep], dst[keep]
    adj = {u: [] for u in range(n)}
    for u, v in zip(src.tolist(), dst.tolist(), strict=True):
        adj[u].append(v)
    whole = gr.GameGraph.from_arrays(src, dst, num_vertices=n).generalized_values()
    for threads in (1, 2):
        g = gr.StateGame(adj.__getitem__, loopy=True, threads=threads, progress=False)
        got = []
        for lo in range(0, n, 250):  # solved in 12 steps
            got.extend(g.values(range(lo, lo + 250)).tolist())
        assert got == [whole.value(u) for u in range(n)]
    assert whole.counts()["infinite"] > 0 and whole.counts()["finite"] > 0


def test_progress_bar_and_interrupt(capsys):
    g = gr.StateGame(lambda n: [n + 1, n] if n < 50 else [n], loopy=True, progress=True)
    assert g.value(0) == gr.Infinity()
    assert "states" in capsys.readouterr().err

    def stop(n):
        raise KeyboardInterrupt

    g = gr.StateGame(stop, loopy=True)
    with pytest.raises(KeyboardInterrupt):
        g.value(0)
    assert g.num_states == 0


# -- errors ---------------------------------------------------------------------------------------


def test_a_cycle_without_loopy_points_to_loopy_and_keeps_nothing():
    g = gr.StateGame(capped_heap(4).__getitem__)
    assert g.value(0) == 0
    with pytest.raises(gr.CycleError, match="loopy=True") as info:
        g.value(3)
    assert set(info.value.cycle) <= {1, 2, 3, 4} and len(info.value.cycle) >= 2
    assert g.num_states == 1
    with pytest.raises(ValueError, match="loopy=True"):
        g.generalized_values()
    assert g.drawing_options(0) == []


def test_bad_input():
    with pytest.raises(ValueError, match="components"):
        gr.StateGame(lambda s: [], components=lambda s: [s], loopy=True)
    with pytest.raises(TypeError, match="loopy"):
        gr.StateGame(lambda s: [], loopy="yes")
    g = capped(4)
    with pytest.raises(ValueError, match="misère play of loopy games"):
        g.outcome(3, misere=True)
    with pytest.raises(ValueError, match="misère play of loopy games"):
        gr.Position(g, [3]).outcome(misere=True)
    with pytest.raises(ValueError, match="misère play of loopy games"):
        gr.Position(g, [1]).winning_moves(misere=True)
    with pytest.raises(ValueError, match="misère play of loopy games"):
        g._misere_sum_p([1], 10)
    with pytest.raises(ValueError, match="generalized values"):
        _ = gr.Position(g, [1]).grundy
    with pytest.raises(ValueError, match="infinite generalized value"):
        g._components([1]).values()
    assert gr.equivalent(gr.Position(g, [0]), gr.Position(gr.nim(), [0]))
    with pytest.raises(ValueError, match="finite values only"):
        gr.equivalent(gr.Position(g, [1]), gr.Position(gr.nim(), [1]))
    with pytest.raises(TypeError, match="hashable"):
        gr.StateGame(lambda s: [[1]], loopy=True).value(0)
    with pytest.raises(TypeError, match="hashable"):
        g.value([1])
    with pytest.raises(TypeError, match="iterable"):
        gr.StateGame(lambda s: 5, loopy=True).value(0)
    with pytest.raises(gr.SearchLimitError):
        gr.StateGame(lambda n: [n + 1, 0], loopy=True, max_states=100).value(0)
    with pytest.raises(KeyError):
        g.generalized_values().value(99)


def test_a_failing_options_function_keeps_the_game_usable():
    calls = {"n": 0}

    def flaky(n):
        calls["n"] += 1
        if n == 3 and calls["n"] < 10:
            raise RuntimeError("not yet")
        return [n - k for k in (1, 2) if k <= n] + ([n + 1] if 1 <= n < 4 else [])

    g = gr.StateGame(flaky, loopy=True)
    assert g.value(0) == 0
    with pytest.raises(RuntimeError, match="not yet"):
        g.value(2)
    assert g.num_states == 1
    calls["n"] = 10
    assert [g.value(h) for h in range(5)] == [capped(4).value(h) for h in range(5)]


def test_repr_and_card():
    g = capped(4)
    g.value(0)
    assert repr(g).endswith("loopy=True, num_states=1)")
    assert "generalized values" in g._repr_html_()
    assert g.loopy and not gr.StateGame(lambda n: []).loopy


def test_grid_and_plot_of_a_loopy_game():
    import matplotlib

    matplotlib.use("Agg")

    def moves(p):  # two capped heaps side by side, moved one at a time: a sum in one state
        i, j = p
        return [(o, j) for o in capped_heap(4)[i]] + [(i, o) for o in capped_heap(4)[j]]

    g = gr.StateGame(moves, loopy=True, name="two capped heaps")
    grid = g.grid(5, 5)
    assert grid.dtype == object and grid.tolist() == [[g.value((i, j)) for j in range(5)] for i in range(5)]
    assert grid[0, 0] == 0 and isinstance(grid[3, 4], gr.Infinity)
    comp = (list(range(5)), capped_heap(4).__getitem__)
    ref = retrograde(*product([comp, comp]))
    assert {(i, j): g.outcome((i, j)) for i in range(5) for j in range(5)} == ref
    ax = g.plot_grid(5, 5)
    assert ax.get_title() == "two capped heaps: G(i, j), P-positions and draws marked"
    marks = {c.get_label(): len(c.get_offsets()) for c in ax.collections}
    flat = [ref[(i, j)] for i in range(5) for j in range(5)]
    assert marks == {"P-positions": flat.count("P"), "draws": flat.count("D")}
