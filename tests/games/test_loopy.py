"""Loopy games: generalized Sprague-Grundy values, checked against an independent brute force.

The reference is a win/loss/draw retrograde analysis of the explicit product graph of a sum
(written here, knowing nothing of values): a position is lost (P) when every option is won, won
(N) when some option is lost, and drawn (D) when neither is ever established. The sum rules of
``grundy.games.graph.loopy`` must give the same outcome for every sum of two and three small random graphs,
with and without cycles and self-loops, and the same winning and drawing moves.
"""

import itertools
import pickle
from functools import reduce
from operator import xor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy as gr
from grundy import _core

# -- the independent reference ------------------------------------------------------------------


def retrograde(positions, options):
    """{position: 'P' | 'N' | 'D'} by repeated propagation from the terminal positions."""
    positions = list(positions)
    opts = {p: list(options(p)) for p in positions}
    preds = {p: [] for p in positions}
    for p in positions:
        for q in opts[p]:
            preds[q].append(p)
    left = {p: len(opts[p]) for p in positions}  # options not yet known to be won
    out = {}
    todo = [p for p in positions if left[p] == 0]
    for p in todo:
        out[p] = "P"
    while todo:
        q = todo.pop()
        for p in preds[q]:
            if p in out:
                continue
            if out[q] == "P":
                out[p] = "N"
                todo.append(p)
            else:
                left[p] -= 1
                if left[p] == 0:
                    out[p] = "P"
                    todo.append(p)
    return {p: out.get(p, "D") for p in positions}


def product(components):
    """Positions and options of the sum of components, each (vertices, options function)."""
    positions = list(itertools.product(*(c[0] for c in components)))

    def options(pos):
        for i, (_, opts) in enumerate(components):
            for o in opts(pos[i]):
                yield pos[:i] + (o,) + pos[i + 1 :]

    return positions, options


def graph_component(n, edges):
    adj = {u: [] for u in range(n)}
    for u, v in edges:
        adj[u].append(v)
    return list(range(n)), lambda u: adj[u]


@st.composite
def small_graphs(draw, max_n=5, acyclic=False):
    n = draw(st.integers(1, max_n))
    pairs = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))
    edges = draw(st.lists(pairs, max_size=3 * n))
    if acyclic:
        edges = [(max(u, v), min(u, v)) for u, v in edges if u != v]
    return n, edges


def gvalues(n, edges):
    return gr.GameGraph(edges, num_vertices=n).generalized_values()


# -- hand-worked examples (from the definition; also in grundy.games.graph.loopy's docstring) ----------------

HAND = {"t": [], "s": ["s"], "u": ["u", "t"], "a": ["b"], "b": ["a", "t"]}


def test_hand_worked_values_and_sums():
    gv = gr.GameGraph(HAND).generalized_values()
    assert gv.value("t") == 0 and gv.outcome("t") == "P"
    assert gv.value("s") == gr.Infinity() and gv.outcome("s") == "D"
    assert gv.value("u") == gr.Infinity({0}) and gv.outcome("u") == "N"
    assert (gv.value("a"), gv.value("b")) == (0, 1)
    assert (gv.outcome("a"), gv.outcome("b")) == ("P", "N")
    assert gr.sum_value([gv.value("u"), gv.value("a")]) == gr.Infinity({0})
    assert gr.sum_outcome([gv.value("u"), gv.value("a")]) == "N"
    assert gr.sum_value([gv.value("u"), gv.value("b")]) == gr.Infinity({1})
    assert gr.sum_outcome([gv.value("u"), gv.value("b")]) == "D"
    assert gr.sum_value([gv.value("u"), gv.value("u")]) is None
    assert gr.sum_outcome([gv.value("u"), gv.value("u")]) == "D"
    # The brute force agrees on these sums.
    comp = (list(HAND), lambda x: HAND[x])
    ref = retrograde(*product([comp, comp]))
    assert (ref[("u", "a")], ref[("u", "b")], ref[("u", "u")]) == ("N", "D", "D")


def test_single_graph_outcomes_match_retrograde():
    gv = gr.GameGraph(HAND).generalized_values()
    ref = retrograde(list(HAND), lambda x: HAND[x])
    assert {x: gv.outcome(x) for x in HAND} == ref
    assert gv.outcomes().tolist() == [ref[x] for x in gv.graph.labels]


# -- the definition, checked directly -----------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(small_graphs(max_n=7))
def test_values_satisfy_smiths_definition(graph):
    n, edges = graph
    gv = gvalues(n, edges)
    opts = {u: [v for a, v in edges if a == u] for u in range(n)}
    val = {u: gv.value(u) for u in range(n)}
    for u in range(n):
        ov = [val[v] for v in opts[u]]
        fin = {x for x in ov if isinstance(x, int)}
        if isinstance(val[u], gr.Infinity):
            assert val[u].K == fin
            continue
        m = val[u]
        assert m not in fin and set(range(m)) <= fin
        for v in opts[u]:  # every larger or infinite option can be answered by a move to m
            if isinstance(val[v], gr.Infinity) or val[v] > m:
                assert m in {val[w] for w in opts[v] if isinstance(val[w], int)}
    assert gv.is_finite.tolist() == [isinstance(val[u], int) for u in range(n)]
    assert gv.finite.tolist() == [val[u] if isinstance(val[u], int) else -1 for u in range(n)]


@settings(max_examples=150, deadline=None)
@given(small_graphs(max_n=9, acyclic=True))
def test_acyclic_graphs_give_exactly_values(graph):
    n, edges = graph
    g = gr.GameGraph(edges, num_vertices=n)
    gv = g.generalized_values()
    assert gv.is_finite.all()
    assert gv.finite.tolist() == g.values().tolist()
    assert [gv.value(u) for u in range(n)] == g.values().tolist()


# -- sums against the brute force of the product graph ------------------------------------------


def check_sum(comps, values):
    """Outcomes, winning moves and drawing moves of every position of the sum, against the brute force."""
    positions, options = product(comps)
    ref = retrograde(positions, options)
    for pos in positions:
        vals = [values[i](x) for i, x in enumerate(pos)]
        assert gr.sum_outcome(vals) == ref[pos], (pos, vals)
        for i, (_, opts) in enumerate(comps):
            ol = list(opts(pos[i]))
            ovals = [values[i](o) for o in ol]
            win = gr.winning_options(vals, i, ovals)
            assert sorted(win) == [j for j, o in enumerate(ol) if ref[pos[:i] + (o,) + pos[i + 1 :]] == "P"]
            draw = gr.drawing_options(vals, i, ovals)
            want = [j for j, o in enumerate(ol) if ref[pos[:i] + (o,) + pos[i + 1 :]] == "D"] if ref[pos] == "D" else []
            assert sorted(draw) == want


@settings(max_examples=120, deadline=None)
@given(small_graphs(), small_graphs())
def test_sums_of_two_match_the_product_graph(g1, g2):
    gvs = [gvalues(*g) for g in (g1, g2)]
    check_sum([graph_component(*g) for g in (g1, g2)], [gv.value for gv in gvs])


@settings(max_examples=60, deadline=None)
@given(small_graphs(max_n=4), small_graphs(max_n=4), small_graphs(max_n=4))
def test_sums_of_three_match_the_product_graph(g1, g2, g3):
    gvs = [gvalues(*g) for g in (g1, g2, g3)]
    check_sum([graph_component(*g) for g in (g1, g2, g3)], [gv.value for gv in gvs])


@settings(max_examples=60, deadline=None)
@given(small_graphs(), st.sampled_from([[1, 2], [1, 3], [2, 3], [1, 2, 3]]))
def test_sums_with_finite_heap_games(graph, subtraction):
    game = gr.Subtraction(subtraction)
    heaps = (list(range(8)), lambda h: [h - s for s in subtraction if s <= h])
    gv = gvalues(*graph)
    check_sum([graph_component(*graph), heaps], [gv.value, game.value])


def capped_heap(cap):
    """Remove 1 or 2 tokens, or add 1 token to a non-empty heap below the cap: a loopy heap game."""
    return {h: [h - k for k in (1, 2) if k <= h] + ([h + 1] if 1 <= h < cap else []) for h in range(cap + 1)}


@pytest.mark.parametrize("cap", [1, 2, 3, 4, 6])
def test_loopy_heap_game_and_its_sums_with_nim(cap):
    d = capped_heap(cap)
    gv = gr.GameGraph(d).generalized_values()
    assert {h: gv.outcome(h) for h in d} == retrograde(list(d), lambda h: d[h])
    nim = (list(range(5)), lambda h: list(range(h)))
    check_sum([(list(d), lambda h: d[h]), nim], [gv.value, lambda h: h])
    check_sum([(list(d), lambda h: d[h])] * 2, [gv.value] * 2)


def test_local_conditions_alone_do_not_define_the_values():
    # Cap 2: heaps 0 <- 1 <-> 2 -> 0. The assignment 0, 1, 2 meets the local conditions (mex, and
    # every larger option answered by a move back), but the answer 2 -> 1 can repeat forever:
    # Smith's function needs the answers to make progress (a counter function), so 1 and 2 are
    # Infinity({0}). The brute force agrees: two heaps of 1 are a draw, not a P-position.
    d = capped_heap(2)
    gv = gr.GameGraph(d).generalized_values()
    assert [gv.value(h) for h in d] == [0, gr.Infinity({0}), gr.Infinity({0})]
    comp = (list(d), lambda h: d[h])
    assert retrograde(*product([comp, comp]))[(1, 1)] == "D"


def test_a_draw_and_a_win_through_an_infinite_component():
    gv = gr.GameGraph(capped_heap(4)).generalized_values()
    assert gv.value(3) == gr.Infinity() and gv.value(1) == gr.Infinity({0})
    assert gr.sum_outcome([gv.value(3), 5]) == "D"  # nothing to win with: a draw
    assert gr.sum_outcome([gv.value(1), 2, 2]) == "N"  # 2 ^ 2 = 0 is in K: win by 1 -> 0
    assert gr.winning_options([gv.value(1), 2, 2], 0, [gv.value(o) for o in capped_heap(4)[1]]) == [0]
    assert gr.sum_outcome([gv.value(1), 3]) == "D"
    assert gr.sum_outcome([gv.value(1), gv.value(2)]) == "D"
    # A K with more than 0: v -> v, v -> t (0), v -> b (1) gives Infinity({0, 1}).
    g = gr.GameGraph({"v": ["v", "t", "b"], "t": [], "b": ["t"]}).generalized_values()
    assert g.value("v") == gr.Infinity({0, 1})
    assert gr.sum_outcome([g.value("v"), 1]) == "N" and gr.sum_outcome([g.value("v"), 2]) == "D"


# -- the engine -------------------------------------------------------------------------------


def test_threads_agree_on_a_large_random_graph():
    rng = np.random.default_rng(1)
    n = 60_000
    src, dst = rng.integers(0, n, 4 * n), rng.integers(0, n, 4 * n)
    g = gr.GameGraph.from_arrays(src, dst, num_vertices=n)
    one, two = g.generalized_values(threads=1), g.generalized_values(threads=2, progress=False)
    assert (one.finite == two.finite).all() and (one.outcomes() == two.outcomes()).all()
    assert one.counts()["infinite"] > 0 and one.counts()["finite"] > 0


def test_csr_entry_point_matches_the_graph():
    g = gr.GameGraph(HAND)
    off, tgt = g._core.csr()
    v1, o1 = _core.generalized_values(g._core)
    v2, o2 = _core.generalized_values_csr(off, tgt)
    assert (v1 == v2).all() and (o1 == o2).all()
    with pytest.raises(ValueError, match="not a vertex"):
        _core.generalized_values_csr(np.array([0, 1], dtype=np.uint64), np.array([5], dtype=np.uint32))
    with pytest.raises(ValueError, match="offsets"):
        _core.generalized_values_csr(np.array([0, 2], dtype=np.uint64), np.array([0], dtype=np.uint32))


def test_progress_callback_and_interrupt():
    calls = []

    def progress(done, total):
        calls.append((done, total))
        raise KeyboardInterrupt

    g = gr.GameGraph([(0, 0)])
    with pytest.raises(KeyboardInterrupt):
        _core.generalized_values(g._core, None, progress)
    assert calls == [(0, 1)]


# -- display, values, errors --------------------------------------------------------------------


def test_repr_and_html_name_the_counts():
    gv = gr.GameGraph(HAND).generalized_values()
    assert repr(gv) == "GeneralizedValues(num_vertices=5, finite=3, infinite=2, P=2, N=2, D=1)"
    html = gv._repr_html_()
    assert "infinite" in html and "∞(0)" in html and "<table>" in html
    big = gr.GameGraph([(i, i + 1) for i in range(30)]).generalized_values()
    assert "more vertices" in big._repr_html_()


def test_infinity_value_semantics():
    x = gr.Infinity({2, 0})
    assert x == gr.Infinity([0, 2]) and hash(x) == hash(gr.Infinity((2, 0))) and x != 0
    assert pickle.loads(pickle.dumps(x)) == x
    assert x ^ 2 == gr.Infinity({0, 2}) and 3 ^ x == gr.Infinity({3, 1})
    assert eval(repr(x), {"Infinity": gr.Infinity}) == x
    with pytest.raises(AttributeError):
        x.K = frozenset()
    with pytest.raises(ValueError, match="non-negative"):
        gr.Infinity({-1})
    with pytest.raises(TypeError):
        gr.Infinity(3)
    with pytest.raises(TypeError, match="draw"):
        x ^ x


def test_sum_rules_against_nim_sum_for_finite_values():
    for vals in itertools.product(range(5), repeat=3):
        x = reduce(xor, vals)
        assert gr.sum_value(vals) == x
        assert gr.sum_outcome(vals) == ("P" if x == 0 else "N")


def test_self_loop_error_points_to_generalized_values():
    g = gr.GameGraph([("x", "x"), ("x", "y")])
    with pytest.raises(gr.CycleError, match="self-loop") as info:
        g.values()
    assert info.value.cycle == ["x"] and "generalized_values()" in str(info.value)
    assert g.generalized_values().value("x") == gr.Infinity({0})
    with pytest.raises(gr.CycleError, match="generalized_values"):
        gr.GameGraph([(0, 1), (1, 0)]).values()


def test_bad_input():
    with pytest.raises(TypeError, match="hashable"):
        gr.GameGraph([([1], 2)])
    gv = gr.GameGraph(HAND).generalized_values()
    with pytest.raises(ValueError, match="misère"):
        gv.outcome("s", misere=True)
    with pytest.raises(ValueError, match="misère"):
        gr.sum_outcome([gr.Infinity()], misere=True)
    with pytest.raises(ValueError, match="misère"):
        gr.winning_options([1], 0, [0], misere=True)
    with pytest.raises(ValueError, match="misère"):
        gr.value_outcome(0, misere=True)
    with pytest.raises(TypeError, match="generalized value"):
        gr.sum_value([1, "a"])
    with pytest.raises(TypeError, match="generalized value"):
        gr.sum_value([-1])
    with pytest.raises(IndexError):
        gr.winning_options([1], 1, [0])
    with pytest.raises(KeyError):
        gv.value("nope")
    with pytest.raises(ValueError, match="threads"):
        gr.GameGraph(HAND).generalized_values(threads=0)
    with pytest.raises(TypeError, match="progress"):
        gr.GameGraph(HAND).generalized_values(progress="yes")


def test_progress_bar_reaches_the_end(capsys):
    gr.GameGraph(HAND).generalized_values(progress=True)
    err = capsys.readouterr().err
    assert "generalized values" in err and "100%" in err
    gr.GameGraph(HAND).generalized_values(progress=False)
    assert capsys.readouterr().err == ""


# -- positions: sums with loopy components, through gr.Position ------------------------------------


@settings(max_examples=60, deadline=None)
@given(small_graphs(max_n=4), small_graphs(max_n=4), st.sampled_from([[1, 2], [1, 3]]))
def test_positions_match_the_product_graph(g1, g2, subtraction):
    """Position.outcome, winning_moves and drawing_moves of graph + graph + heap against the brute force."""
    graphs = [gr.GameGraph(edges, num_vertices=n) for n, edges in (g1, g2)]
    game = gr.Subtraction(subtraction)
    heaps = (list(range(5)), lambda h: [h - s for s in subtraction if s <= h])
    comps = [graph_component(*g1), graph_component(*g2), heaps]
    positions, options = product(comps)
    ref = retrograde(positions, options)
    for pos in positions:
        p = gr.Position(graphs[0], [pos[0]]) + gr.Position(graphs[1], [pos[1]]) + gr.Position(game, [pos[2]])
        assert p.outcome() == ref[pos], pos
        moves = p.moves()
        assert {reached(pos, m) for m in p.winning_moves()} == {
            reached(pos, m) for m in moves if ref[reached(pos, m)] == "P"
        }
        want_draw = {reached(pos, m) for m in moves if ref[reached(pos, m)] == "D"} if ref[pos] == "D" else set()
        assert {reached(pos, m) for m in p.drawing_moves()} == want_draw


def reached(pos, move):
    """The product-graph position a move of a Position of one vertex, one vertex and one heap leads to."""
    new = list(pos)
    new[move.component] = move.after[0] if move.after else 0
    return tuple(new)


def test_loopy_positions_refuse_what_is_undefined():
    g = gr.GameGraph(HAND)
    with pytest.raises(ValueError, match="misère play of loopy games"):
        gr.Position(g, ["u"]).outcome(misere=True)
    with pytest.raises(ValueError, match="misère play of loopy games"):
        gr.Position(g, ["u", "a"]).winning_moves(misere=True)
    with pytest.raises(ValueError, match="generalized values"):
        _ = gr.Position(g, ["u"]).grundy
    with pytest.raises(ValueError, match="finite values only"):
        gr.equivalent(gr.Position(g, ["u"]), gr.Position(gr.nim(), [1]))
    assert gr.equivalent(gr.Position(g, ["b"]), gr.Position(gr.nim(), [1]))
    assert gr.Position(g, ["u", "b"]).outcome() == "D" and gr.Position(g, ["b"]).drawing_moves() == []
