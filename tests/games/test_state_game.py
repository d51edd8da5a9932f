"""StateGame: games over hashable states, checked against a naive recursion kept here and
against published values (Node Kayles on paths is Dawson's chess 0.137)."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy as gr

# -- a naive oracle: plain recursion over whole states, no Sprague-Grundy sums --------------------


def mex(values):
    s = set(values)
    return next(i for i in range(len(s) + 1) if i not in s)


def naive_value(options, state, memo=None):
    memo = {} if memo is None else memo
    if state not in memo:
        memo[state] = mex(naive_value(options, o, memo) for o in options(state))
    return memo[state]


def naive_misere_p(options, state, memo=None):
    """True when the player to move loses in misère play (no move: they win)."""
    memo = {} if memo is None else memo
    if state not in memo:
        opts = list(options(state))
        memo[state] = bool(opts) and all(not naive_misere_p(options, o, memo) for o in opts)
    return memo[state]


# -- Node Kayles on graphs: a graph is (frozenset of vertices, frozenset of edges) ----------------


def graph(vertices, edges):
    return (frozenset(vertices), frozenset(frozenset(e) for e in edges))


def path(n):
    return graph(range(n), [(i, i + 1) for i in range(n - 1)])


def node_kayles_options(g):
    vs, es = g
    out = []
    for v in vs:
        gone = {v} | {w for e in es if v in e for w in e}
        out.append(graph(vs - gone, [e for e in es if not e & gone]))
    return out


def connected_components(g):
    vs, es = g
    seen, parts = set(), []
    for v in sorted(vs):
        if v in seen:
            continue
        comp, stack = {v}, [v]
        while stack:
            u = stack.pop()
            for e in es:
                if u in e:
                    for w in e - {u}:
                        if w not in comp:
                            comp.add(w)
                            stack.append(w)
        seen |= comp
        parts.append(graph(comp, [e for e in es if e <= comp]))
    return parts


def relabel(g):
    """A canonical representative: a path (the only component a path splits into) becomes
    path(n); any other graph keeps its shape with vertices renumbered in sorted order (a correct
    if incomplete canonical form)."""
    vs, es = g
    degrees = [sum(v in e for e in es) for v in vs]
    if len(es) == len(vs) - 1 and all(d <= 2 for d in degrees):
        return path(len(vs))
    order = {v: i for i, v in enumerate(sorted(vs))}
    return graph(order.values(), [tuple(order[w] for w in e) for e in es])


def test_node_kayles_on_paths_is_dawsons_chess():
    game = gr.StateGame(node_kayles_options, components=connected_components, key=relabel)
    want = gr.TakeAndBreak("0.137").values(41)
    got = game.values([path(n) for n in range(41)])
    assert got.tolist() == want.tolist()
    # One canonical state per path length.
    assert game.num_states <= 41


def test_node_kayles_small_graphs_against_the_oracle():
    def plain_options(g):
        return node_kayles_options(g)

    game = gr.StateGame(node_kayles_options, components=connected_components, key=relabel)
    plain = gr.StateGame(plain_options)
    star = graph(range(5), [(0, i) for i in range(1, 5)])
    cycle = graph(range(6), [(i, (i + 1) % 6) for i in range(6)])
    two = graph(range(7), [(0, 1), (1, 2), (3, 4), (4, 5), (5, 6), (6, 3)])
    for g in (star, cycle, two, path(7)):
        want = naive_value(node_kayles_options, g)
        assert game.value(g) == plain.value(g) == want


# -- random games: sums of "atoms", against the naive recursion -----------------------------------


@st.composite
def atom_games(draw):
    """Atoms 0..n-1; atom i's options are multisets (sorted tuples) of smaller atoms."""
    n = draw(st.integers(1, 9))
    table = []
    for i in range(n):
        if i == 0:
            table.append([])
            continue
        opts = draw(st.lists(st.lists(st.integers(0, i - 1), max_size=3), max_size=4))
        table.append([tuple(sorted(o)) for o in opts])
    roots = draw(st.lists(st.lists(st.integers(0, n - 1), max_size=3).map(lambda x: tuple(sorted(x))),
                          min_size=1, max_size=4))
    return table, roots


def sum_options(table):
    """Moves of a sum (a sorted tuple of atoms): replace one atom by one of its options."""

    def options(s):
        out = []
        for k, a in enumerate(s):
            for o in table[a]:
                out.append(tuple(sorted(s[:k] + s[k + 1 :] + o)))
        return out

    return options


@settings(max_examples=60, deadline=None)
@given(atom_games())
def test_values_with_and_without_components_match_the_oracle(case):
    table, roots = case
    options = sum_options(table)
    whole = gr.StateGame(options)
    split = gr.StateGame(options, components=lambda s: [(a,) for a in s])
    memo: dict = {}
    want = [naive_value(options, r, memo) for r in roots]
    assert whole.values(roots).tolist() == want
    assert split.values(roots).tolist() == want
    assert [split.value(r) for r in roots] == want
    # A sum explored as one state is the XOR of its parts.
    for r in roots:
        x = 0
        for a in r:
            x ^= whole.value((a,))
        assert whole.value(r) == x
    # Misère outcomes by the split search equal plain recursion over whole states.
    mmemo: dict = {}
    for r in roots:
        want_p = naive_misere_p(options, r, mmemo)
        assert split.outcome(r, misere=True) == ("P" if want_p else "N")
        assert whole.outcome(r, misere=True) == ("P" if want_p else "N")
        assert split.outcome(r) == ("P" if naive_value(options, r, memo) == 0 else "N")


@settings(max_examples=30, deadline=None)
@given(atom_games())
def test_position_primitives(case):
    table, roots = case
    options = sum_options(table)
    game = gr.StateGame(options, components=lambda s: [(a,) for a in s])
    memo: dict = {}
    for r in roots:
        moves = game.moves(r)
        assert [o for o, _ in moves] == options(r)
        for o, parts in moves:
            assert parts == tuple((a,) for a in o)
        assert game.options(r) == list(dict.fromkeys(options(r)))
        for target in range(4):
            want = [o for o in options(r) if naive_value(options, o, memo) == target]
            assert game.winning_options(r, target) == want


def test_key_merges_equivalent_states_and_cache_is_reused():
    calls = []

    def options(n):
        calls.append(n)
        return [n - 1, -(n - 2)] if abs(n) >= 2 else ([0] if abs(n) == 1 else [])

    game = gr.StateGame(lambda n: options(abs(n)), key=abs)
    want = naive_value(lambda n: [abs(m) for m in options(abs(n))], 30)
    calls.clear()
    assert game.value(-30) == want
    assert sorted(calls) == list(range(31))  # once per canonical state
    want = naive_value(lambda n: [abs(m) for m in options(abs(n))], 25)
    calls.clear()
    assert game.value(25) == want
    assert calls == []  # cached
    assert game.num_states == 31


def test_long_chain_has_no_recursion_limit():
    n = 10**6
    game = gr.StateGame(lambda k: (k - 1,) if k else ())
    assert n > sys.getrecursionlimit()
    assert game.value(n) == n % 2
    assert game.num_states == n + 1


def test_grid_of_a_state_game():
    # Subtract 1 or 2 from either of two heaps: G(i, j) = (i mod 3) XOR (j mod 3).
    def opts(s):
        i, j = s
        return [(i - k, j) for k in (1, 2) if i >= k] + [(i, j - k) for k in (1, 2) if j >= k]

    game = gr.StateGame(opts)
    g = game.grid(7, 5)
    want = np.array([[(i % 3) ^ (j % 3) for j in range(5)] for i in range(7)])
    assert g.shape == (7, 5) and (g == want).all()
    split = gr.StateGame(lambda n: [n - k for k in (1, 2) if n >= k])
    g2 = split.grid(3, 4, state=lambda i, j: 3 * i + j)
    assert g2.tolist() == [[(3 * i + j) % 3 for j in range(4)] for i in range(3)]
    assert game.grid(0, 3).shape == (0, 3)


# -- errors ---------------------------------------------------------------------------------------


def test_unhashable_states():
    game = gr.StateGame(lambda s: [[1, 2]])
    with pytest.raises(TypeError, match="not hashable"):
        game.value(())
    with pytest.raises(TypeError, match="not hashable"):
        gr.StateGame(lambda s: []).value([1])
    assert game.num_states == 0  # nothing kept from the failed exploration


def test_options_not_iterable():
    with pytest.raises(TypeError, match=r"options\(3\) returned 5, which is not iterable"):
        gr.StateGame(lambda s: 5).value(3)
    with pytest.raises(TypeError, match="components"):
        gr.StateGame(lambda s: [], components=lambda s: 7).value(3)


def test_key_not_hashable():
    with pytest.raises(TypeError, match=r"key\(3\) returned \[3\], which is not hashable"):
        gr.StateGame(lambda s: [], key=lambda s: [s]).value(3)


def test_bad_arguments():
    with pytest.raises(TypeError, match="options must be a function"):
        gr.StateGame(5)
    with pytest.raises(TypeError, match="key must be a function"):
        gr.StateGame(lambda s: [], key="abs")
    with pytest.raises(ValueError, match="non-negative"):
        gr.StateGame(lambda s: []).grid(-1, 3)
    with pytest.raises(ValueError, match="at least 1"):
        gr.StateGame(lambda s: [], max_states=0)
    with pytest.raises(TypeError, match="iterable of states"):
        gr.StateGame(lambda s: []).values(5)


def test_user_exceptions_propagate_with_a_note():
    class Boom(Exception):
        pass

    def options(n):
        if n == 3:
            raise Boom("no")
        return [n - 1] if n else []

    game = gr.StateGame(options)
    with pytest.raises(Boom, match="no") as e:
        game.value(6)
    assert any("state 3" in note for note in e.value.__notes__)
    assert game.num_states == 0
    assert game.value(2) == 0  # the game still works after the failure


def test_cycles_name_states():
    game = gr.StateGame(lambda s: {"a": ["b"], "b": ["c", "z"], "c": ["a"], "z": []}[s])
    with pytest.raises(gr.CycleError) as e:
        game.value("a")
    assert sorted(e.value.cycle) == ["a", "b", "c"]
    assert isinstance(e.value, ValueError)
    assert game.value("z") == 0


def test_max_states():
    game = gr.StateGame(lambda n: [n - 1] if n else [], max_states=100)
    assert game.value(99) == 1
    with pytest.raises(gr.SearchLimitError, match="max_states = 100"):
        game.value(100)
    assert game.num_states == 100


def test_display():
    game = gr.StateGame(lambda n: range(n), name="nim")
    game.value(4)
    assert "num_states=5" in repr(game)
    html = game._repr_html_()
    assert "nim" in html and "states explored" in html


def _path(n):
    return [n - 1] if isinstance(n, int) and n > 0 else []


@pytest.mark.parametrize(
    ("call", "cls"),
    [
        # Issue 32, fault 7: each raised a plain builtin (or nothing) on main.
        (lambda: gr.StateGame(5), gr.ArgumentTypeError),
        (lambda: gr.StateGame(_path, key="abs"), gr.ArgumentTypeError),
        (lambda: gr.StateGame(_path, components=3), gr.ArgumentTypeError),
        (lambda: gr.StateGame(_path, loopy=1), gr.ArgumentTypeError),
        (lambda: gr.StateGame(_path, name=5), gr.ArgumentTypeError),
        (lambda: gr.StateGame(_path, max_states=0), gr.ArgumentError),
        (lambda: gr.StateGame(_path, loopy=True, components=lambda s: [s]), gr.ArgumentError),
        (lambda: gr.StateGame(_path).values(-1), gr.ArgumentTypeError),
        (lambda: gr.StateGame(_path).generalized_values(), gr.ArgumentError),
        (lambda: gr.StateGame(lambda s: 5).value(0), gr.ArgumentTypeError),
        (lambda: gr.StateGame(lambda s: 5).moves(0), gr.ArgumentTypeError),
        (lambda: gr.StateGame(lambda s: [[1]]).value(0), gr.ArgumentTypeError),
        (lambda: gr.StateGame(lambda s: [], key=lambda s: [s]).value(3), gr.ArgumentTypeError),
        (lambda: gr.StateGame(_path).outcome(3, misere=-1), gr.ArgumentTypeError),
        (lambda: gr.StateGame(_path).outcome(3, True, max_positions="x"), gr.ArgumentTypeError),
        (lambda: gr.StateGame(_path).winning_options(3, target=-1), gr.ArgumentError),
        (lambda: gr.StateGame(_path).winning_options(3, target=None), gr.ArgumentTypeError),
    ],
)
def test_bad_arguments_are_grundy_errors(call, cls):
    with pytest.raises(cls):
        call()


def test_a_huge_max_states_is_only_a_bound():
    # Issue 32, fault 7: max_states=2**70 raised a raw OverflowError on main.
    game = gr.StateGame(_path, max_states=2**70)
    assert game.value(3) == 1 and game.num_states == 4


def test_max_states_passed_is_a_search_limit_error_with_its_limit():
    with pytest.raises(gr.SearchLimitError) as e:
        gr.StateGame(_path, max_states=3).value(5)
    assert e.value.limit == 3
