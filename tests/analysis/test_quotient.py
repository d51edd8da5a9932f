"""Misère quotients, checked against the exhaustive misère search and published structure."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy as gr

GAMES = ["0.77", "0.07", "0.75", "0.137"]


@pytest.mark.parametrize("code", GAMES)
def test_outcomes_match_the_search_on_every_small_multiset(code: str) -> None:
    game = gr.TakeAndBreak(code)
    q = gr.misere_quotient(game, 12)
    fresh = gr.TakeAndBreak(code)
    from grundy import _core
    from grundy.play.misere import search

    # Every multiset of up to three heaps here; the core's unit tests cover four heaps in Rust.
    for k in range(0, 4 if code == "0.77" else 3):
        for heaps in itertools.combinations_with_replacement(range(1, 13), k):
            runs = gr.Position(fresh, list(heaps))._runs
            truth, _ = search(runs, 10**6, want_moves=False)
            assert (q.outcome(heaps) == "P") == truth, heaps
    assert isinstance(q._core, _core.MisereQuotient)


@pytest.mark.parametrize("code", GAMES)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_random_larger_sums_and_winning_moves(code: str, data: st.DataObject) -> None:
    from grundy.play.misere import search

    q = gr.misere_quotient(gr.TakeAndBreak(code), 12)
    heaps = data.draw(st.lists(st.integers(0, 12), min_size=0, max_size=5))
    fresh = gr.TakeAndBreak(code)
    runs = gr.Position(fresh, heaps)._runs if heaps else []
    try:
        truth = search(runs, 10**6, want_moves=False)[0] if heaps else False
    except gr.SearchLimitError:
        return  # past the oracle's reach: nothing to compare with
    assert (q.outcome(heaps) == "P") == truth
    moves = q.winning_moves(heaps)
    # A sum with no move at all is N in misère play, yet has no move to make.
    has_move = any(q._core.options(h) for h in heaps)
    assert bool(moves) == (not truth and has_move)
    for m in moves:
        after = list(heaps)
        assert after[m.component] == m.before
        after[m.component : m.component + 1] = list(m.after)
        after = [h for h in after if h]
        rest = gr.Position(fresh, after)._runs if after else []
        assert search(rest, 10**6, want_moves=False)[0] if after else False


def test_structure_laws() -> None:
    for code in GAMES:
        q = gr.misere_quotient(gr.TakeAndBreak(code), 14)
        t = q.table.astype(np.int64)
        m = q.order
        assert m % 2 == 0
        assert (t[0] == np.arange(m)).all()  # the identity is the empty sum
        assert (t == t.T).all()
        for x in range(m):
            assert (t[t[x]] == t[x][t]).all()  # (xy)z == x(yz): row x·y of t equals t[x] applied to t[y]
        assert q.pretending[0] == 0
        assert q.element([]) == 0 and q.outcome([]) == "N"


def test_associativity_directly() -> None:
    q = gr.misere_quotient(gr.dawsons_kayles(), 12)
    t = q.table
    m = q.order
    for a in range(m):
        for b in range(m):
            assert (t[t[a, b]] == t[a][t[b]]).all()


def test_tame_quotient_t2_and_misere_nim() -> None:
    q = gr.misere_quotient(gr.TakeAndBreak("0.33"), 2)
    assert q.order == 6
    assert q.presentation() == "<a, b | a^2 = 1, b^3 = b>"
    assert [q.elements[x] for x in q.p_portion] == ["a", "b^2"]
    assert gr.misere_quotient(gr.TakeAndBreak("0.3"), 1).order == 2
    # Misère Nim with heaps up to 3 is tame too: the same quotient T2 (heap 3 pretends to be ab).
    q3 = gr.misere_quotient(gr.nim(), 3)
    assert q3.order == 6 and q3.elements[q3.pretending[3]] == "ab"


def test_published_orders() -> None:
    kayles = gr.misere_quotient(gr.kayles(), 26)
    assert [m for _, m in kayles.growth] == [2, 6, 12, 18, 24, 32]
    assert gr.misere_quotient(gr.TakeAndBreak("0.75"), 12).growth[-1] == (5, 8)
    dk = gr.misere_quotient(gr.dawsons_kayles(), 12)
    assert dict(dk.growth)[10] == 12


def test_dawsons_kayles_refines_refuted_guesses_to_the_published_order() -> None:
    # Order 144 at heap 25 (Plambeck and Siegel); the first guesses there are refuted by the
    # proof and refined, never handed to the exhaustive search.
    dk = gr.misere_quotient(gr.dawsons_kayles(), 25, progress=False)
    assert dk.growth[-2:] == [(14, 24), (25, 144)]
    assert dk.stats["refinements"] >= 1
    assert dk.stats["guesses_wrong"] == 0
    assert dk.stats["guessed"] >= 1


def test_normal_values_match_grundy_values() -> None:
    game = gr.kayles()
    q = gr.misere_quotient(game, 16)
    nv = q.normal_values
    assert nv is not None
    g = game.values(17)
    for h in range(17):
        assert nv[q.pretending[h]] == g[h]


def test_period_is_reported_and_proven_for_a_subtraction_game() -> None:
    q = gr.misere_quotient(gr.Subtraction([1, 2, 3]), 12)
    p = q.period
    assert p is not None and p.period == 4 and p.proven
    # A proven period answers heaps past max_heap; the search agrees.
    assert q.outcome([1000, 7]) == gr.Position(gr.Subtraction([1, 2, 3]), [1000 % 4 or 4, 7]).outcome(misere=True)
    observed = gr.misere_quotient(gr.kayles(), 12).period
    assert observed is None or not observed.proven


def test_position_uses_the_quotient_for_many_heaps() -> None:
    game = gr.kayles()
    gr.misere_quotient(game, 16)
    heaps = np.random.default_rng(3).integers(1, 17, size=100_000)
    pos = gr.Position(game, heaps)
    out = pos.outcome(misere=True)
    assert out in "PN"
    if out == "N":
        m = pos.winning_move(misere=True)
        assert pos.play(m).outcome(misere=True) == "P"


def test_outcomes_in_parallel() -> None:
    q = gr.misere_quotient(gr.kayles(), 10)
    rows = np.random.default_rng(5).integers(0, 11, size=(200, 6))
    got = q.outcomes(rows)
    for r, o in zip(rows.tolist(), got.tolist(), strict=True):
        assert o == (q.outcome([h for h in r if h]) == "P")


def test_display() -> None:
    q = gr.misere_quotient(gr.TakeAndBreak("0.33"), 2)
    html = q._repr_html_()
    assert "&lt;a, b | a^2 = 1, b^3 = b&gt;" in html and "<table" in html
    assert "order 6" in repr(q)


def test_bad_input() -> None:
    with pytest.raises(TypeError):
        gr.misere_quotient("0.77", 5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        gr.misere_quotient(gr.kayles(), -1)
    q = gr.misere_quotient(gr.kayles(), 5)
    with pytest.raises(ValueError, match="max_heap"):
        q.outcome([9])
    with pytest.raises(ValueError, match="max_heap"):
        q.winning_moves([9])
    with pytest.raises(ValueError):
        q.outcomes([1, 2])


def test_python_rule() -> None:
    game = gr.Subtraction(allowed=lambda n, k: k in (1, 2))
    q = gr.misere_quotient(game, 8)
    ref = gr.misere_quotient(gr.Subtraction([1, 2]), 8)
    assert q.order == ref.order
    for h in itertools.product(range(9), repeat=2):
        assert q.outcome(h) == ref.outcome(h)


def test_max_order_stops_a_build_and_keeps_the_quotient_proven_before() -> None:
    # Dawson's Kayles has 24 elements for heaps up to 24 and 144 from heap 25: bounded at 100, a
    # build to heap 30 stops at heap 25, keeping (and caching) the quotient of heaps up to 24.
    game = gr.dawsons_kayles()
    with pytest.raises(gr.SearchLimitError, match="heaps up to 25") as info:
        gr.misere_quotient(game, 30, max_order=100)
    e = info.value
    assert isinstance(e, ValueError) and e.limit == 100
    kept = e.quotient
    assert isinstance(kept, gr.MisereQuotient) and (kept.max_heap, kept.order) == (24, 24)
    assert game._core_values().quotient is kept._core  # kept by the game's core
    direct = gr.misere_quotient(gr.dawsons_kayles(), 24)
    assert np.array_equal(kept.table, direct.table)
    assert np.array_equal(kept.pretending, direct.pretending)
    # What is kept plays: checked against the exhaustive search.
    from grundy.play.misere import search

    for heaps in [(24, 24, 3), (20, 17), (10, 12, 14, 2)]:
        runs = gr.Position(gr.dawsons_kayles(), list(heaps))._runs
        truth, _ = search(runs, 10**6, want_moves=False)
        assert (kept.outcome(heaps) == "P") == truth, heaps
    # A bound the build stays within changes nothing.
    same = gr.misere_quotient(gr.dawsons_kayles(), 24, max_order=24)
    assert np.array_equal(same.table, direct.table)


def test_max_order_says_when_the_bound_is_proven() -> None:
    # Heap 1 is learned exactly (nothing smaller to guess from): 2 elements prove it larger than 1.
    with pytest.raises(gr.SearchLimitError, match="heaps up to 1 has more than max_order = 1") as i:
        gr.misere_quotient(gr.kayles(), 8, max_order=1)
    assert i.value.quotient.max_heap == 0 and i.value.quotient.order == 1
    # Later heaps are guessed first, and the message says so.
    with pytest.raises(gr.SearchLimitError, match="a guess") as i:
        gr.misere_quotient(gr.kayles(), 8, max_order=10)
    assert i.value.quotient.order == 6


def test_an_interrupted_build_keeps_what_it_proved() -> None:
    import sys

    build = sys.modules["grundy.analysis.quotient_build"]._build

    class Stop(KeyboardInterrupt):
        pass

    # The core reports the option lists first (heaps 0..max_heap), then each heap it places.
    seen: list[int] = []

    def interrupt(done: int, total: int) -> None:
        seen.append(done)
        if len(seen) > total and done == 20:
            raise Stop

    game = gr.kayles()
    with pytest.raises(Stop) as info:
        build(game, 40, interrupt)
    kept = info.value.quotient
    assert kept.max_heap == 19 and game._core_values().quotient is kept._core
    assert np.array_equal(kept.table, gr.misere_quotient(gr.kayles(), 19).table)


def test_bad_max_order() -> None:
    with pytest.raises(ValueError, match="max_order"):
        gr.misere_quotient(gr.kayles(), 5, max_order=0)
    with pytest.raises(TypeError, match="max_order"):
        gr.misere_quotient(gr.kayles(), 5, max_order=2.5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="max_order"):
        gr.misere_quotient(gr.kayles(), 5, max_order=True)


def _elements_per_count(q: gr.MisereQuotient, t: int, copies: int) -> list[int]:
    """The elements x·φ(t)^c of a full quotient, x in the submonoid of the heaps below t."""
    table, phi = q.table, q.pretending
    sub, frontier = {0}, [0]
    while frontier:
        x = frontier.pop()
        for h in range(1, t):
            y = int(table[x, phi[h]])
            if y not in sub:
                sub.add(y)
                frontier.append(y)
    out, tc = [], 0
    for _ in range(copies + 1):
        out.append(len({int(table[x, tc]) for x in sub}))
        tc = int(table[tc, phi[t]])
    return out


@pytest.mark.parametrize(("code", "t", "copies"), [("0.07", 25, 3), ("0.77", 27, 2), ("0.137", 13, 3)])
def test_quotient_bounds_reach_the_full_quotient_where_it_is_known(code: str, t: int, copies: int) -> None:
    b = gr.misere_quotient_bounds(gr.TakeAndBreak(code), t, copies=copies)
    full = gr.misere_quotient(gr.TakeAndBreak(code), t)
    assert b.below == gr.misere_quotient(gr.TakeAndBreak(code), t - 1).order
    expected = _elements_per_count(full, t, copies)
    # With c copies, sums are told apart by sums of up to copies - c more: the last count may
    # fall short of the full quotient's, the others reach it.
    assert list(b.classes[:-1]) == expected[:-1]
    assert b.classes[-1] <= expected[-1]
    assert b.lower_bound <= full.order and (b.heap, b.copies) == (t, copies)


def test_quotient_bounds_for_a_python_rule_and_bad_input() -> None:
    rule = gr.Subtraction(allowed=lambda n, k: k in (1, 2, 4))
    assert gr.misere_quotient_bounds(rule, 9, 2) == gr.misere_quotient_bounds(gr.Subtraction([1, 2, 4]), 9, 2)
    with pytest.raises(TypeError):
        gr.misere_quotient_bounds("0.07", 25, 2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="copies"):
        gr.misere_quotient_bounds(gr.kayles(), 5, 1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="copies"):
        gr.misere_quotient_bounds(gr.kayles(), 5, -1)
    with pytest.raises(ValueError, match="at most 253"):
        gr.misere_quotient_bounds(gr.kayles(), 5, 300)
    with pytest.raises(ValueError, match="no move"):
        gr.misere_quotient_bounds(gr.kayles(), 0, 1)


@pytest.mark.parametrize(
    ("call", "cls"),
    [
        # Issue 32, fault 7: each raised a plain builtin (or nothing) on main.
        (lambda: gr.misere_quotient(5, 2), gr.ArgumentTypeError),
        (lambda: gr.misere_quotient(gr.nim(), 2**70), gr.TooLargeError),
        (lambda: gr.misere_quotient(gr.nim(), 2, max_order=0), gr.ArgumentError),
        (lambda: gr.misere_quotient(gr.nim(), 2, progress=-1), gr.ArgumentTypeError),
        (lambda: gr.misere_quotient_bounds(5, 2, 1), gr.ArgumentTypeError),
        (lambda: gr.misere_quotient_bounds(gr.nim(), 2**70, 1), gr.TooLargeError),
        (lambda: gr.misere_quotient_bounds(gr.nim(), 2, 2**70), gr.TooLargeError),
        (lambda: gr.misere_quotient_bounds(gr.nim(), 2, 10**15), gr.TooLargeError),
        (lambda: gr.misere_quotient(gr.kayles(), 5).element([1, 10**15]), gr.ArgumentError),
        (lambda: gr.misere_quotient(gr.kayles(), 5).outcome([9]), gr.ArgumentError),
        (lambda: gr.misere_quotient(gr.kayles(), 5).outcomes([1, 2]), gr.ArgumentError),
        (lambda: gr.misere_quotient(gr.kayles(), 5).outcomes([[1, 10**15]]), gr.ArgumentError),
        (lambda: gr.misere_quotient(gr.kayles(), 5).winning_moves([9]), gr.ArgumentError),
        (lambda: gr.misere_quotient(gr.kayles(), 5).winning_move([9]), gr.ArgumentError),
    ],
)
def test_bad_arguments_are_grundy_errors(call, cls) -> None:
    with pytest.raises(cls):
        call()


def test_a_huge_max_order_is_only_a_bound() -> None:
    # Issue 32, fault 7: max_order=2**70 raised a raw OverflowError on main.
    q = gr.misere_quotient(gr.kayles(), 6, max_order=2**70)
    assert q.order == gr.misere_quotient(gr.TakeAndBreak("0.77"), 6).order


def test_the_core_refuses_heaps_past_max_heap_with_an_argument_error() -> None:
    # The binding's own check (the Python layer checks first): was a plain ValueError.
    q = gr.misere_quotient(gr.kayles(), 5)
    with pytest.raises(gr.ArgumentError, match="max_heap = 5"):
        q._core.element(np.array([9], dtype=np.uint64))


def test_the_quotient_is_kept_by_the_games_core_and_python_rules_are_listed_there():
    g = gr.TakeAndBreak("0.07")
    assert g._core_values().quotient is None
    q = gr.misere_quotient(g, 10)
    assert g._core_values().quotient is q._core
    small = gr.misere_quotient(g, 6)  # a smaller one is built, the larger one stays kept
    assert small.max_heap == 6 and g._core_values().quotient is q._core
    # A rule written in Python gives the quotient of the same rule built in: the core asks it heap by heap.
    dawson = gr.HeapGame(lambda n: [(a, n - 2 - a) for a in range(n - 1)] if n >= 2 else [])
    assert gr.misere_quotient(dawson, 10).order == q.order

    def broken(n):
        if n == 5:
            raise ZeroDivisionError("heap 5")
        return [(n - 1,)] if n else []

    with pytest.raises(ZeroDivisionError, match="heap 5"):
        gr.misere_quotient(gr.HeapGame(broken), 8)
