"""Misère play: Nim's exact rule and the exhaustive search, against a brute-force misère search
written here (moves from the rules, no sharing with the library)."""

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy as gr

import oracle


def kayles_options(n):
    """Knock down 1 or 2 adjacent pins of a row of n: a pins on the left, the rest on the right."""
    return {tuple(sorted(x for x in (a, n - k - a) if x)) for k in (1, 2) if k <= n for a in range(n - k + 1)}


def nim_options(n):
    return {(h,) if h else () for h in range(n)}


def grundy_options(n):
    return set(oracle.splits(n, 2, unequal=True))


def sub_options(n, s=(1, 3, 4)):
    return {(n - k,) for k in s if k <= n}


GRAPH = {"a": ["b", "c"], "b": ["d"], "c": ["d", "e"], "d": [], "e": ["d"], "f": ["a", "e"]}


def graph_options(v):
    return {(o,) for o in GRAPH[v]}


def misere_p(comps, options):
    """Brute-force misère outcome of a sum: comps is a tuple of (game name, heap); P iff there
    is a move and every move leads to an N-position."""

    @functools.cache
    def p(state):
        moved = False
        for i, (g, h) in enumerate(state):
            for after in options[g](h):
                moved = True
                child = tuple(sorted(state[:i] + state[i + 1 :] + tuple((g, x) for x in after)))
                if p(child):
                    return False
        return moved

    return p(tuple(sorted(comps)))


OPTIONS = {"nim": nim_options, "kayles": kayles_options, "grundy": grundy_options, "sub": sub_options,
           "graph": graph_options}
GAMES = {"nim": gr.nim(), "kayles": gr.kayles(), "grundy": gr.grundys_game(), "sub": gr.Subtraction([1, 3, 4]),
         "graph": gr.GameGraph(GRAPH)}


def position(comps):
    return sum((gr.Position(GAMES[g], [h]) for g, h in comps), gr.Position(gr.nim(), []))


def brute_winning(comps):
    out = set()
    for i, (g, h) in enumerate(comps):
        for after in OPTIONS[g](h):
            child = comps[:i] + comps[i + 1 :] + [(g, x) for x in after]
            if misere_p(child, OPTIONS):
                out.add((i, h, tuple(sorted(after))))
    return out


def as_set(moves):
    return {(m.component, m.before, tuple(sorted(m.after))) for m in moves}


def test_kayles_options_model():
    assert kayles_options(3) == {(2,), (1,), (1, 1)}
    assert kayles_options(1) == {()}


# -- misère Nim ---------------------------------------------------------------------------------


def test_misere_nim_small_heaps_rule():
    # Heaps all <= 1: P iff the number of 1-heaps is odd.
    for ones in range(7):
        for zeros in range(3):
            pos = gr.Position(gr.nim(), [1] * ones + [0] * zeros)
            assert pos.outcome(misere=True) == ("P" if ones % 2 == 1 else "N")
            assert pos.outcome() == ("P" if ones % 2 == 0 else "N")
    assert gr.Position(gr.nim(), [2, 2]).outcome(misere=True) == "P"
    assert gr.Position(gr.nim(), [2]).winning_moves(misere=True) == [gr.Move(0, 2, (1,))]
    assert gr.Position(gr.nim(), [3, 1]).winning_moves(misere=True) == [gr.Move(0, 3, ())]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 7), min_size=0, max_size=5))
def test_misere_nim_against_brute_force(heaps):
    comps = [("nim", h) for h in heaps]
    want = misere_p(comps, OPTIONS)
    pos = gr.Position(gr.nim(), heaps)
    assert pos.outcome(misere=True) == ("P" if want else "N")
    wins = pos.winning_moves(misere=True)
    assert len(wins) == len(set(wins))
    assert as_set(wins) == brute_winning(comps)
    # The exhaustive search (Nim written as the subtraction game all_but([]) plus a dead graph
    # vertex, so that the Nim rule does not apply) agrees.
    d = gr.GameGraph({"x": []})
    other = gr.Position(gr.Subtraction.all_but([]), heaps) + gr.Position(d, ["x"])
    assert other.outcome(misere=True) == pos.outcome(misere=True)


def test_misere_nim_rule_matches_exhaustive_search_on_larger_heaps():
    rng = np.random.default_rng(3)
    for _ in range(30):
        heaps = rng.integers(0, 12, size=rng.integers(1, 4)).tolist()
        pos = gr.Position(gr.nim(), heaps)
        searched = gr.Position(gr.nim(), heaps) + gr.Position(gr.GameGraph({"x": []}), ["x"])
        assert pos.outcome(misere=True) == searched.outcome(misere=True)
        a = {(m.component, m.before, m.after) for m in pos.winning_moves(misere=True)}
        b = {(m.component, m.before, m.after) for m in searched.winning_moves(misere=True)}
        assert a == b


def test_misere_nim_many_huge_heaps():
    rng = np.random.default_rng(5)
    heaps = rng.integers(0, 10**18, 200_000, dtype=np.uint64)
    pos = gr.Position(gr.nim(), heaps)
    assert pos.outcome(misere=True) == pos.outcome()  # some heap > 1: as in normal play
    m = pos.winning_move(misere=True)
    assert pos.play(m).outcome(misere=True) == "P"
    tail = gr.Position(gr.nim(), [1, 1, 5])  # the last big heap: leave an odd number of 1s
    assert tail.winning_moves(misere=True) == [gr.Move(2, 5, (1,))]


# -- exhaustive search --------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 11), min_size=1, max_size=3))
def test_misere_kayles_against_brute_force(heaps):
    comps = [("kayles", h) for h in heaps]
    pos = gr.Position(gr.kayles(), heaps)
    want = misere_p(comps, OPTIONS)
    assert pos.outcome(misere=True) == ("P" if want else "N")
    assert as_set(pos.winning_moves(misere=True)) == brute_winning(comps)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["nim", "kayles", "grundy", "sub", "graph"]), st.integers(0, 9)),
                min_size=1, max_size=3))
def test_misere_mixed_sums_against_brute_force(spec):
    comps = [(g, "abcdef"[h % 6] if g == "graph" else h) for g, h in spec]
    pos = position(comps)
    want = misere_p(comps, OPTIONS)
    assert pos.outcome(misere=True) == ("P" if want else "N")
    assert as_set(pos.winning_moves(misere=True)) == brute_winning(comps)
    m = pos.winning_move(misere=True)
    if m is not None:
        assert pos.play(m).outcome(misere=True) == "P"


def test_misere_python_rules():
    kayles_py = gr.HeapGame(lambda n: [tuple(x for x in (a, n - k - a) if x) for k in (1, 2) if k <= n
                                       for a in range((n - k) // 2 + 1)])
    for heaps in ([4, 5], [2, 3, 7], [9]):
        a = gr.Position(kayles_py, heaps)
        b = gr.Position(gr.kayles(), heaps)
        assert a.outcome(misere=True) == b.outcome(misere=True)
        assert as_set(a.winning_moves(misere=True)) == as_set(b.winning_moves(misere=True))


def test_misere_kayles_table():
    # Misère Kayles differs from normal play: a single pin is a misère P-position.
    assert gr.Position(gr.kayles(), [1]).outcome(misere=True) == "P"
    assert gr.Position(gr.kayles(), [1]).outcome() == "N"
    got = [gr.Position(gr.kayles(), [n]).outcome(misere=True) for n in range(15)]
    assert got == ["P" if misere_p([("kayles", n)], OPTIONS) else "N" for n in range(15)]


def test_misere_outcomes_of_many_rows():
    rng = np.random.default_rng(2)
    rows = rng.integers(0, 9, size=(300, 3))
    got = gr.outcomes(gr.kayles(), rows, misere=True)
    assert got.tolist() == [misere_p([("kayles", int(h)) for h in r], OPTIONS) for r in rows]
    nim_rows = rng.integers(0, 4, size=(500, 4))
    got = gr.outcomes(gr.nim(), nim_rows, misere=True)
    assert got.tolist() == [misere_p([("nim", int(h)) for h in r], OPTIONS) for r in nim_rows]
    assert gr.outcomes(gr.nim(), np.zeros((2, 0), dtype=int), misere=True).tolist() == [False, False]


# -- limits -------------------------------------------------------------------------------------


def test_misere_search_limit_is_a_clear_error():
    pos = gr.Position(gr.kayles(), [10**18])
    with pytest.raises(ValueError, match="max_positions"):
        pos.outcome(misere=True)
    with pytest.raises(ValueError, match="max_positions = 100"):
        gr.Position(gr.kayles(), [30]).outcome(misere=True, max_positions=100)
    with pytest.raises(ValueError, match="max_positions"):
        gr.Position(gr.kayles(), [30]).winning_moves(misere=True, max_positions=100)
    with pytest.raises(ValueError, match="max_positions"):
        gr.outcomes(gr.kayles(), [[40, 40]], misere=True, max_positions=1000)
    # A rule written in Python is tabulated up to its largest heap first.
    game = gr.HeapGame(lambda n: [(n - 1,)] if n else [])
    with pytest.raises(ValueError, match="max_positions"):
        gr.Position(game, [10**6]).outcome(misere=True, max_positions=1000)
    assert gr.Position(game, [999]).outcome(misere=True, max_positions=1000) == "P"
    with pytest.raises(ValueError):
        gr.Position(gr.kayles(), [5]).outcome(misere=True, max_positions=-1)


def test_empty_and_terminal_positions():
    # No move at all: the player to move wins under misère play.
    assert gr.Position(gr.kayles(), []).outcome(misere=True) == "N"
    assert gr.Position(gr.kayles(), [0, 0]).outcome(misere=True) == "N"
    assert gr.Position(gr.GameGraph(GRAPH), ["d"]).outcome(misere=True) == "N"
    # N, yet there is no move to make: no winning move either.
    assert gr.Position(gr.kayles(), [0]).winning_moves(misere=True) == []
