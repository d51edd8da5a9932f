"""TwoHeapGame: the Rust grid against published Wythoff results and against a StateGame / naive
recursion written here for the same rule."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy as gr


def rule_options(moves, unbounded):
    """The same rule as TwoHeapGame(moves, unbounded), written in Python."""

    def options(s):
        a, b = s
        out = []
        for dx, dy in moves:
            k = 1
            while dx * k <= a and dy * k <= b:
                out.append((a - dx * k, b - dy * k))
                if not unbounded:
                    break
                k += 1
        return out

    return options


def naive_grid(moves, unbounded, rows, cols):
    options = rule_options(moves, unbounded)
    g = np.zeros((rows, cols), dtype=np.int64)
    for s in range(rows + cols - 1):
        for a in range(max(0, s - cols + 1), min(s, rows - 1) + 1):
            seen = {g[x, y] for x, y in options((a, s - a))}
            g[a, s - a] = next(v for v in range(len(seen) + 1) if v not in seen)
    return g


def test_wythoff_p_positions_500():
    n = 500
    g = gr.wythoff().grid(n, n)
    phi = (1 + math.sqrt(5)) / 2
    want = np.zeros((n, n), dtype=bool)
    for k in range(n):
        a, b = math.floor(k * phi), math.floor(k * phi * phi)
        for x, y in ((a, b), (b, a)):
            if x < n and y < n:
                want[x, y] = True
    assert ((g == 0) == want).all()


def test_wythoff_published_start():
    # OEIS A004481, the table read by anti-diagonals.
    head = [0, 1, 1, 2, 2, 2, 3, 0, 0, 3, 4, 4, 1, 4, 4, 5, 5, 5, 5, 5, 5, 6, 3, 3, 6, 3, 3, 6]
    g = gr.wythoff().grid(7, 7)
    got = [int(g[a, s - a]) for s in range(7) for a in range(s + 1)]
    assert got == head


def test_wythoff_rows_are_additively_periodic():
    w = gr.wythoff()
    # Row 1 (OEIS A004482): G(1, b) = 3*floor(b/3) + ((b + 1) mod 3).
    assert w.row(1).values(60).tolist() == [3 * (b // 3) + (b + 1) % 3 for b in range(60)]
    p = w.row(1).periodicity(600)
    assert (p.period, p.saltus, p.proven) == (3, 3, False)
    assert p.certificate.startswith("observed only")
    p0 = w.row(0).periodicity(100)
    assert (p0.preperiod, p0.period, p0.saltus) == (0, 1, 1)
    p2 = w.row(2).periodicity(2000)
    assert p2.found and p2.saltus == p2.period and not p2.proven
    # What the period says holds on the values examined.
    v = w.row(2).values(2000)
    for b in range(p2.preperiod, 2000 - p2.period):
        assert v[b + p2.period] == v[b] + p2.saltus


moves_st = st.lists(
    st.tuples(st.integers(0, 3), st.integers(0, 3)).filter(lambda m: m != (0, 0)), min_size=0, max_size=4
)


@settings(max_examples=40, deadline=None)
@given(moves_st, st.booleans(), st.integers(0, 25), st.integers(0, 25))
def test_rust_grid_equals_a_python_state_game(moves, unbounded, rows, cols):
    rust = gr.TwoHeapGame(moves, unbounded=unbounded).grid(rows, cols)
    python = gr.StateGame(rule_options(moves, unbounded)).grid(rows, cols)
    assert rust.shape == python.shape == (rows, cols)
    assert (rust == python).all()
    assert (rust == naive_grid(moves, unbounded, rows, cols)).all()


def test_big_parallel_grid_against_the_naive_one():
    # Anti-diagonals long enough for the parallel path (the 500 x 500 Wythoff grid above takes it
    # with unbounded moves; the Rust unit tests take it on small grids); one and two threads agree.
    moves = [(1, 0), (0, 2), (3, 1)]
    game = gr.TwoHeapGame(moves, threads=2)
    assert (game.grid(300, 280) == naive_grid(moves, False, 300, 280)).all()
    w1 = gr.TwoHeapGame([(1, 2), (2, 1), (1, 1)], unbounded=True, threads=1).grid(700, 650)
    w2 = gr.TwoHeapGame([(1, 2), (2, 1), (1, 1)], unbounded=True, threads=2).grid(700, 650)
    assert (w1 == w2).all()


def plain_misere_p(opts):
    """Whether a position is a misère P-position, by plain recursion over ``opts``: it has an option,
    and every option is N."""
    memo: dict = {}

    def misere_p(s):
        if s not in memo:
            o = opts(s)
            memo[s] = bool(o) and all(not misere_p(x) for x in o)
        return memo[s]

    return misere_p


def test_values_outcomes_and_moves():
    w = gr.wythoff()
    assert w.value((3, 5)) == 0 and w.outcome((5, 3)) == "P" and w.outcome((2, 2)) == "N"
    assert w.values([(1, 2), (2, 2)]).tolist() == [0, 1]
    assert set(w.options((1, 2))) == set(rule_options(w.moves, True)((1, 2)))
    assert w._moves((1, 1)) == [(o, (o,)) for o in w.options((1, 1))]
    for target in range(5):
        want = [o for o in w.options((6, 4)) if w.value(o) == target]
        assert w.winning_options((6, 4), target) == want
    # Misère: against plain recursion.
    misere_p = plain_misere_p(rule_options([(1, 0), (0, 1), (1, 1)], True))
    for a in range(6):
        for b in range(6):
            assert w.outcome((a, b), misere=True) == ("P" if misere_p((a, b)) else "N")


def test_misere_outcomes_of_bounded_rules_and_far_positions():
    # A bounded rule against plain recursion, over a grid that takes the core's parallel path.
    moves = [(1, 2), (2, 0), (0, 3), (1, 1)]
    g, misere_p = gr.TwoHeapGame(moves), plain_misere_p(rule_options(moves, False))
    for a in range(0, 40, 3):
        for b in range(0, 40, 5):
            assert g.outcome((a, b), misere=True) == ("P" if misere_p((a, b)) else "N"), (a, b)
    # Misère Wythoff's P-positions are normal play's once a heap reaches 3 (the grid of a
    # million cells below (999, 999) is the default limit).
    w = gr.wythoff()
    for s in [(999, 999), (618, 1000 - 1), (3, 5), (5, 3), (2, 2), (1, 2), (0, 1)]:
        want = {(2, 2): "P", (0, 1): "P", (1, 2): "N"}.get(s) or w.outcome(s)
        assert w.outcome(s, misere=True) == want, s


def test_bad_input():
    with pytest.raises(ValueError, match=r"\(0, 0\)"):
        gr.TwoHeapGame([(0, 0)])
    with pytest.raises(ValueError, match="non-negative"):
        gr.TwoHeapGame([(-1, 1)])
    with pytest.raises(TypeError):
        gr.TwoHeapGame(5)
    with pytest.raises(ValueError, match="non-negative"):
        gr.wythoff().grid(-1, 5)
    with pytest.raises(ValueError, match="non-negative"):
        gr.wythoff().grid(5, -2)
    with pytest.raises(ValueError, match="pair"):
        gr.wythoff().value((1, 2, 3))
    with pytest.raises(TypeError):
        gr.wythoff().value(5)
    with pytest.raises(TypeError, match="unbounded"):
        gr.TwoHeapGame([(1, 0)], unbounded=1)


def test_display_and_plot():
    import matplotlib

    matplotlib.use("Agg")
    w = gr.wythoff()
    html = w._repr_html_()
    assert "Wythoff" in html and "(1, 1)" in html
    assert "TwoHeapGame" in repr(w)
    ax = w.plot_grid(30, 20)
    assert ax.images[0].get_array().shape == (30, 20)
    # The P-positions marked are the zeros of the grid.
    pts = ax.collections[0].get_offsets()
    g = w.grid(30, 20)
    assert len(pts) == int((g == 0).sum())


@pytest.mark.parametrize(
    "call",
    [
        lambda w: w.row(10**6).values(5),
        lambda w: w.row(10**6).periodicity(),
        lambda w: w.value((10**6, 5)),
        lambda w: w.grid(10**6, 10**6),
        lambda w: w.grid(2**64 - 1, 2),
        lambda w: w.values([(2**64 - 1, 1)]),
        lambda w: w.options((10**15, 1)),
    ],
)
def test_huge_two_heap_requests_are_refused_with_the_estimate(call):
    # Issue 32, fault 9: Wythoff.row(10**6) asked for 238 GB with a plain MemoryError; (10**15, 1)
    # listed 10**15 options until the memory ran out. Refused before allocating, with the estimate.
    w = gr.wythoff()
    with pytest.raises(gr.MemoryLimitError) as info:
        call(w)
    assert isinstance(info.value, MemoryError)
    assert info.value.needed is not None and info.value.needed > 0


def test_a_huge_misere_outcome_is_refused_at_once():
    with pytest.raises(gr.SearchLimitError, match="max_positions"):
        gr.wythoff().outcome((10**5, 10**5), misere=True)
    assert gr.wythoff().outcome((3, 5), misere=True, max_positions=100) in ("P", "N")
    with pytest.raises(gr.ArgumentTypeError, match="misere"):
        gr.wythoff().outcome((3, 5), misere=None)


def test_the_option_count_bounds_the_options():
    for game in (gr.wythoff(), gr.TwoHeapGame([(1, 2), (3, 0)], unbounded=True), gr.TwoHeapGame([(1, 1), (0, 2)])):
        for a in range(7):
            for b in range(7):
                assert len(game.options((a, b))) <= game._option_count(a, b)
