"""Misère play of StateGames: the core's one exhaustive misère search, against brute force.

The references here know nothing of the core: a tiny recursive misère solver over the game's own rule
(sorted tuples of heaps, or whole graphs with no decomposition into components at all).
"""

from __future__ import annotations

import itertools
import random
from functools import cache

import pytest

import grundy as gr
from grundy import _core
from grundy.play import misere

# -- Kayles written as a StateGame on strings of pins ("I") and gaps (".") -----------------------


def pin_options(row: str) -> list[str]:
    """Knock down one pin, or two adjacent pins."""
    out = [row[:i] + "." + row[i + 1 :] for i in range(len(row)) if row[i] == "I"]
    out += [row[:i] + ".." + row[i + 2 :] for i in range(len(row) - 1) if row[i : i + 2] == "II"]
    return out


def pin_rows(row: str) -> list[str]:
    return [p for p in row.split(".") if p]


@cache
def kayles_brute_p(heaps: tuple[int, ...]) -> bool:
    """Misère P: some move exists and every move leads to an N-position (heaps as a sorted tuple)."""
    children = []
    for i, n in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1 :]
        for k in (1, 2):
            for a in range(n - k + 1):
                parts = tuple(x for x in (a, n - k - a) if x)
                children.append(tuple(sorted(rest + parts)))
    return bool(children) and not any(kayles_brute_p(c) for c in children)


KAYLES_SUMS = [list(c) for k in (1, 2, 3) for c in itertools.combinations_with_replacement(range(0, 9), k)]


@pytest.fixture(scope="module")
def pins() -> gr.StateGame:
    return gr.StateGame(pin_options, components=pin_rows, progress=False)


def test_kayles_on_strings_matches_brute_force_and_the_heap_path(pins):
    p_seen = 0
    for heaps in KAYLES_SUMS:
        want = "P" if kayles_brute_p(tuple(sorted(h for h in heaps if h))) else "N"
        p_seen += want == "P"
        row = ".".join("I" * h for h in heaps)
        assert pins.outcome(row, misere=True) == want, heaps
        assert gr.Position(gr.kayles(), heaps).outcome(misere=True) == want, heaps
        # The same sum as a Position of StateGame components (one row per heap).
        assert gr.Position(pins, ["I" * h for h in heaps]).outcome(misere=True) == want, heaps
    assert 10 < p_seen < len(KAYLES_SUMS) - 10  # both outcomes are tested


def test_kayles_winning_moves_of_state_positions_match_brute_force(pins):
    for heaps in ([1, 2, 3], [2, 4, 4], [3, 5], [1, 1, 6], [7]):
        pos = gr.Position(pins, ["I" * h for h in heaps])
        want = set()
        for i, h in enumerate(heaps):
            rest = heaps[:i] + heaps[i + 1 :]
            for o in pin_options("I" * h):
                after = pin_rows(o)
                if kayles_brute_p(tuple(sorted(rest + [len(p) for p in after]))):
                    want.add((i, tuple(sorted(after))))
        got = {(m.component, tuple(sorted(m.after))) for m in pos.winning_moves(misere=True)}
        assert got == want, heaps
        assert pos.outcome(misere=True) == ("N" if want else "P")


# -- Node Kayles on small graphs: a state splits into its connected components ------------------

Graph = tuple[tuple[int, ...], tuple[tuple[int, int], ...]]


def make(vertices, edges) -> Graph:
    vs = frozenset(vertices)
    return tuple(sorted(vs)), tuple(sorted((a, b) for a, b in edges if a in vs and b in vs))


def node_kayles(g: Graph) -> list[Graph]:
    """Pick a vertex: it and its neighbours go."""
    vs, es = g
    out = []
    for v in vs:
        gone = {v} | {b for a, b in es if a == v} | {a for a, b in es if b == v}
        out.append(make(set(vs) - gone, es))
    return out


def connected(g: Graph) -> list[Graph]:
    vs, es = g
    left, parts = set(vs), []
    while left:
        seen, todo = set(), [min(left)]
        while todo:
            v = todo.pop()
            if v not in seen:
                seen.add(v)
                todo += [b for a, b in es if a == v] + [a for a, b in es if b == v]
        parts.append(make(seen, es))
        left -= seen
    return parts


@cache
def node_kayles_brute_p(g: Graph) -> bool:
    """Misère P of the whole graph, by its rule alone (no components, no sums)."""
    opts = node_kayles(g)
    return bool(opts) and not any(node_kayles_brute_p(o) for o in opts)


def random_graph(rng: random.Random, n: int, first: int) -> Graph:
    vs = range(first, first + n)
    es = [(a, b) for a in vs for b in vs if a < b and rng.random() < 0.35]
    return make(vs, es)


@pytest.fixture(scope="module")
def node_game() -> gr.StateGame:
    return gr.StateGame(node_kayles, components=connected, progress=False)


def test_node_kayles_sums_match_the_whole_graph_brute_force(node_game):
    rng = random.Random(31)
    whole = gr.StateGame(node_kayles, progress=False)  # no components: one vertex per whole graph
    outcomes = set()
    for _ in range(40):
        g = random_graph(rng, rng.randrange(1, 10), 0)
        want = "P" if node_kayles_brute_p(g) else "N"
        outcomes.add(want)
        assert node_game.outcome(g, misere=True) == want, g
        assert whole.outcome(g, misere=True) == want, g
    assert outcomes == {"P", "N"}


def test_positions_of_node_kayles_graphs_match_brute_force(node_game):
    rng = random.Random(7)
    outcomes = set()
    for _ in range(25):
        sizes = [rng.randrange(1, 5) for _ in range(rng.randrange(1, 4))]
        graphs = []
        for n in sizes:
            graphs.append(random_graph(rng, n, sum(len(g[0]) for g in graphs)))
        union = make([v for g in graphs for v in g[0]], [e for g in graphs for e in g[1]])
        pos = gr.Position(node_game, graphs)
        want_p = node_kayles_brute_p(union)
        outcomes.add(want_p)
        assert pos.outcome(misere=True) == ("P" if want_p else "N"), graphs
        want = set()
        for i, g in enumerate(graphs):
            others = [h for j, h in enumerate(graphs) if j != i]
            for o in node_kayles(g):
                child = make([v for h in [*others, o] for v in h[0]], [e for h in [*others, o] for e in h[1]])
                if node_kayles_brute_p(child):
                    want.add((i, tuple(sorted(connected(o)))))
        got = {(m.component, tuple(sorted(m.after))) for m in pos.winning_moves(misere=True)}
        assert got == want, graphs
    assert outcomes == {True, False}


# -- the limit, its one default, and what the core refuses ---------------------------------------


def test_one_default_limit():
    assert misere.MISERE_MAX_POSITIONS == _core.MISERE_MAX_POSITIONS == 10**6
    assert misere.limit(None) == _core.MISERE_MAX_POSITIONS


def test_search_limit_is_a_search_limit_error_and_the_game_stays_usable(pins):
    row = "IIIIIIIII.IIIIIIIIII.IIIIIIIIIII"
    with pytest.raises(gr.SearchLimitError, match="max_positions = 50") as info:
        pins.outcome(row, misere=True, max_positions=50)
    assert info.value.limit == 50 and isinstance(info.value, ValueError)
    with pytest.raises(gr.SearchLimitError):
        gr.Position(pins, ["I" * 9, "I" * 10]).outcome(misere=True, max_positions=50)
    assert pins.outcome("III.III", misere=True) == ("P" if kayles_brute_p((3, 3)) else "N")


def test_core_search_of_explored_states():
    nim = gr.StateGame(lambda n: range(n), progress=False)
    nim.value(3)
    ids = [nim._core.lookup(n) for n in (1, 1, 1)]
    is_p, moves, seen = nim._core.misere_search(ids, 100, True)
    assert (is_p, moves) == (True, [])
    assert 1 <= seen <= 100
    ids = [nim._core.lookup(n) for n in (3, 1)]
    is_p, moves, _ = nim._core.misere_search(ids, 100, True)
    assert not is_p and [(i, [nim._core.state(p) for p in after]) for i, after in moves] == [(0, [0])]
    with pytest.raises(IndexError, match="not explored"):
        nim._core.misere_search([99], 100)
    loopy = gr.StateGame(lambda n: [n], loopy=True, progress=False)
    loopy.value(0)
    with pytest.raises(ValueError, match="misère play of loopy games"):
        loopy._core.misere_search([0], 100)
