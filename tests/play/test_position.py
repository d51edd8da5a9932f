"""Positions under normal play: sums, outcomes, every move and every winning move, checked
against moves enumerated here from the rules and values from the naive oracle."""

import functools
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy as gr
from grundy.__main__ import main

import oracle

# -- an independent model: options from the rules, values from the oracle ----------------------


def digit_fn(code):
    digits, cycle = oracle.parse_digits(code)

    def digit(j):
        if j < len(digits):
            return digits[j]
        if cycle:
            return cycle[(j - len(digits)) % len(cycle)]
        return (0, False)

    return digit


def splits(s, k, unequal):
    """Ascending k-tuples of positive heaps adding up to s (strictly ascending if unequal)."""
    u = int(unequal)
    if k == 3:  # loops, much faster than the oracle's recursive generator for big heaps
        return [(a, b, s - a - b) for a in range(1, s // 3 + 1) for b in range(a + u, (s - a - u) // 2 + 1)]
    return list(oracle.splits(s, k, unequal=unequal))


@functools.cache
def tb_options(code, n):
    """Every option of heap n of a take-and-break code, straight from the digits."""
    digit = digit_fn(code)
    out = set()
    for j in range(n + 1):
        d, unequal = digit(j)
        for k in range(4):
            if d >> k & 1 and (j > 0 or k >= 2):  # removing nothing must split
                out.update(splits(n - j, k, unequal))
    out.discard((n,))
    return frozenset(out)


@functools.cache
def tb_values(code, n):
    return tuple(oracle.take_and_break(code, n))


SUB_SETS = {"S134": (1, 3, 4), "S123": (1, 2, 3)}


class Model:
    """A game as the tests see it: its options and oracle values, and the library's game."""

    def __init__(self, name, game, options, values):
        self.name, self.game, self.options, self.values = name, game, options, values

    def __repr__(self):
        return self.name


def tb_model(code, game, size=64):
    return Model(code, game, lambda n: tb_options(code, n), tb_values(code, size))


def sub_model(s, size=64):
    vals = tuple(oracle.subtraction(lambda n, k: k in s, size))
    return Model(f"S{s}", gr.Subtraction(list(s)), lambda n: frozenset((n - k,) for k in s if k <= n), vals)


MODELS = {
    "kayles": tb_model("0.77", gr.kayles()),
    "grundy": tb_model("4!.0", gr.grundys_game()),
    "nim": tb_model("0.[3]", gr.nim()),
    "dawson": tb_model("0.137", gr.TakeAndBreak("0.137")),
    "hex": tb_model("0.4F", gr.TakeAndBreak("0.4F"), 40),
    "sub": sub_model((1, 3, 4)),
}


def brute_moves(models, heaps):
    """Every (component, before, after) of a sum given as per-component models."""
    out = set()
    for c, (m, h) in enumerate(zip(models, heaps, strict=True)):
        for after in m.options(h):
            out.add((c, h, tuple(sorted(after))))
    return out


def brute_value(models, heaps):
    x = 0
    for m, h in zip(models, heaps, strict=True):
        x ^= m.values[h]
    return x


def brute_winning(models, heaps):
    out = set()
    for c, h, after in brute_moves(models, heaps):
        rest_m = models[:c] + [models[c]] * len(after) + models[c + 1 :]
        rest_h = list(heaps[:c]) + list(after) + list(heaps[c + 1 :])
        if brute_value(rest_m, rest_h) == 0:
            out.add((c, h, after))
    return out


def position_of(models, heaps):
    return sum((gr.Position(m.game, [h]) for m, h in zip(models, heaps, strict=True)), gr.Position(gr.nim(), []))


def as_set(moves):
    return {(m.component, m.before, tuple(sorted(m.after))) for m in moves}


# -- worked examples ----------------------------------------------------------------------------


def test_nim_10_12_5():
    pos = gr.Position(gr.nim(), [10, 12, 5])
    assert pos.grundy == 3 and gr.nim_sum([10, 12, 5]) == 3
    assert pos.outcome() == "N"
    assert pos.winning_moves() == [gr.Move(0, 10, (9,))]
    after = pos.play(pos.winning_move())
    assert after.heaps == [9, 12, 5]
    assert after.outcome() == "P" and after.winning_moves() == [] and after.winning_move() is None


def test_subtract_a_square():
    sq = gr.Subtraction.squares()
    pos = gr.Position(sq, [1, 2, 3, 4, 6])
    assert pos.grundy == 3 and pos.outcome() == "N"
    vals = oracle.subtraction(lambda n, k: int(k**0.5) ** 2 == k, 7)
    assert vals == [0, 1, 0, 1, 2, 0, 1]
    wins = pos.winning_moves()
    assert wins
    for m in wins:
        assert pos.play(m).grundy == 0
    # Every move is listed, and the winning ones are exactly those to P-positions.
    assert {m for m in pos.moves() if pos.play(m).grundy == 0} == set(wins)


def test_mixed_sum_keeps_each_game():
    pos = gr.Position(gr.kayles(), [5]) + gr.Position(gr.nim(), [3]) + gr.Position(gr.grundys_game(), [7])
    assert len(pos) == 3 and pos.heaps == [5, 3, 7]
    assert [g for g, _ in pos.components] == [gr.kayles(), gr.nim(), gr.grundys_game()]
    assert pos.grundy == oracle.take_and_break("0.77", 6)[5] ^ 3 ^ oracle.take_and_break("4!.0", 8)[7]
    models = [MODELS["kayles"], MODELS["nim"], MODELS["grundy"]]
    assert as_set(pos.moves()) == brute_moves(models, [5, 3, 7])
    assert as_set(pos.winning_moves()) == brute_winning(models, [5, 3, 7])
    # Playing in the Grundy's-game heap leaves Grundy's-game heaps.
    m = gr.Move(2, 7, (1, 6))
    after = pos.play(m)
    assert after.components[2:] == [(gr.grundys_game(), 1), (gr.grundys_game(), 6)]
    assert repr(pos) == "Position(Kayles 0.77: [5] + Nim 0.[3]: [3] + Grundy's game 4!.0: [7])"


# -- property tests against the model -----------------------------------------------------------

SMALL = st.lists(
    st.tuples(st.sampled_from(["kayles", "grundy", "sub", "nim", "dawson"]), st.integers(0, 30)),
    min_size=0,
    max_size=4,
)


@settings(max_examples=150, deadline=None)
@given(SMALL)
def test_winning_moves_are_exactly_the_moves_to_p_positions(spec):
    models = [MODELS[k] for k, _ in spec]
    heaps = [h for _, h in spec]
    pos = position_of(models, heaps)
    assert pos.grundy == brute_value(models, heaps)
    assert pos.outcome() == ("P" if brute_value(models, heaps) == 0 else "N")
    moves = pos.moves()
    assert len(moves) == len(set(moves))
    assert as_set(moves) == brute_moves(models, heaps)
    wins = pos.winning_moves()
    assert len(wins) == len(set(wins))
    assert as_set(wins) == brute_winning(models, heaps)
    w = pos.winning_move()
    assert (w is None) == (not wins)
    if w is not None:
        assert pos.play(w).grundy == 0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 39), min_size=1, max_size=3))
def test_hexadecimal_three_heap_moves(heaps):
    models = [MODELS["hex"]] * len(heaps)
    pos = gr.Position(MODELS["hex"].game, heaps)
    assert as_set(pos.moves()) == brute_moves(models, heaps)
    assert as_set(pos.winning_moves()) == brute_winning(models, heaps)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 2**64 - 1), min_size=1, max_size=6))
def test_nim_winning_moves_any_size(heaps):
    pos = gr.Position(gr.nim(), heaps)
    x = gr.nim_sum(heaps)
    wins = pos.winning_moves()
    assert [m.component for m in wins] == [i for i, h in enumerate(heaps) if h ^ x < h]
    for m in wins:
        assert pos.play(m).grundy == 0


def test_python_rules_match_builtin_rules():
    kayles_py = gr.HeapGame(lambda n: [(a, n - k - a) for k in (1, 2) if k <= n for a in range((n - k) // 2 + 1)])
    odd = gr.Subtraction(allowed=lambda n, k: k in (1, 3, 4))
    for heaps in ([5, 7], [3, 9, 12], [1, 1, 2], [13]):
        a = gr.Position(kayles_py, heaps)
        b = gr.Position(gr.kayles(), heaps)
        strip = {(m.component, m.before, tuple(x for x in m.after if x)) for m in a.winning_moves()}
        assert strip == as_set(b.winning_moves())
        c = gr.Position(odd, heaps)
        assert as_set(c.winning_moves()) == brute_winning([MODELS["sub"]] * len(heaps), heaps)
        assert as_set(c.moves()) == brute_moves([MODELS["sub"]] * len(heaps), heaps)


# -- heaps far beyond the computed values -------------------------------------------------------


@pytest.mark.parametrize("code", ["0.77", "0.137", "0.07", "0.B7C"])
def test_huge_heap_winning_move_through_the_period(code):
    game = gr.TakeAndBreak(code)
    assert game.periodicity().proven
    for n in (10**18, 10**18 + 7, 2**64 - 1):
        pos = gr.Position(game, [n, 5, 6])
        x = game.value(n) ^ game.value(5) ^ game.value(6)
        assert pos.grundy == x
        m = pos.winning_move()
        if x == 0:
            assert m is None
            continue
        assert m is not None
        left = [game.value(p) for p in m.after] + [game.value(h) for i, h in enumerate([n, 5, 6]) if i != m.component]
        assert functools.reduce(lambda a, b: a ^ b, left, 0) == 0
        # The first few hundred winning moves are all real moves to P-positions.
        for w in itertools.islice(pos.iter_winning_moves(), 300):
            assert sum(w.after) >= w.before - 3 and len(w.after) <= 3
            after = pos.play(w)
            assert after.grundy == 0


def test_structured_three_heap_search_lists_every_winning_move():
    # 0.B7C leaves up to three heaps (period 62 from 122). From a heap of 1300 the core finds the
    # three-heap splits through residues (families of step 62), which are expanded here in full.
    game = gr.TakeAndBreak("0.B7C")
    assert game.periodicity().proven
    heaps = [1300, 7]
    v = game.values(1301).astype(int).tolist()
    x = v[1300] ^ v[7]
    want = set()
    for c, h in enumerate(heaps):
        for after in tb_options("0.B7C", h):
            if functools.reduce(lambda a, p: a ^ v[p], after, 0) == v[h] ^ x:
                want.add((c, h, tuple(sorted(after))))
    got = gr.Position(game, heaps).winning_moves()
    assert sum(len(a) == 3 for _, _, a in want) > 10_000
    assert as_set(got) == want and len(got) == len(want)


def test_huge_heaps_of_subtraction_and_nim_like_codes():
    s = gr.Subtraction([1, 3, 4])
    heaps = [10**18, 7, 2**64 - 2]
    x = functools.reduce(lambda a, h: a ^ s.value(h), heaps, 0)
    want = {(c, h, (h - k,)) for c, h in enumerate(heaps) for k in (1, 3, 4) if s.value(h - k) == s.value(h) ^ x}
    assert as_set(gr.Position(s, heaps).winning_moves()) == want
    # 0.[7]: remove any number of tokens, leave up to two heaps; G(h) = h. The single-heap move
    # comes first, then splits (a, b) with a ^ b = 5 found by XOR algebra.
    g = gr.TakeAndBreak("0.[7]")
    pos = gr.Position(g, [10**18, 5])
    assert pos.winning_move() == gr.Move(0, 10**18, (5,))
    for m in itertools.islice(pos.iter_winning_moves(), 200):
        assert pos.play(m).grundy == 0
    assert gr.Position(g, [10**18, 10**18 + 5]).winning_move() == gr.Move(1, 10**18 + 5, (10**18,))


def test_kayles_row_of_10_18_plus_a_nim_heap():
    pos = gr.Position(gr.kayles(), [10**18]) + gr.Position(gr.nim(), [3])
    kayles = gr.kayles()
    m = pos.winning_move()
    assert m is not None
    if m.component == 0:  # the values left: the Kayles parts' and the Nim heap's
        left = [kayles.value(p) for p in m.after] + [3]
    else:
        left = [kayles.value(10**18), *m.after]
    assert functools.reduce(lambda a, b: a ^ b, left) == 0
    assert pos.play(m).outcome() == "P"
    # ~10^17 winning moves: the list is refused, the iterator streams them.
    with pytest.raises(ValueError, match="iter_winning_moves"):
        pos.winning_moves(limit=1000)
    assert len(list(itertools.islice(pos.iter_winning_moves(), 2000))) == 2000


def test_nim_with_two_hundred_thousand_huge_heaps():
    rng = np.random.default_rng(7)
    heaps = rng.integers(0, 10**18, 200_000, dtype=np.uint64)
    pos = gr.Position(gr.nim(), heaps)
    x = int(np.bitwise_xor.reduce(heaps))
    assert pos.grundy == x
    m = pos.winning_move()
    assert m.before ^ x == m.after[0] < m.before
    assert pos.play(m).grundy == 0
    heaps[0] ^= 1  # the position keeps its own copy
    assert pos.grundy == x


def test_no_period_means_a_clear_error():
    pos = gr.Position(gr.grundys_game(), [10**18, 3])
    with pytest.raises(ValueError, match="period"):
        _ = pos.grundy
    with pytest.raises(ValueError, match="period"):
        pos.winning_move()
    # Listing the moves needs no values.
    assert len(list(itertools.islice(pos.iter_moves(), 5))) == 5


# -- graphs -------------------------------------------------------------------------------------

GRAPH = {"a": ["b", "c", "e"], "b": ["c", "d"], "c": ["d"], "d": [], "e": ["d"], "f": ["a", "d"]}


def graph_model(g):
    vals = g.values_by_label()
    return Model("graph", g, lambda v: frozenset((o,) for o in g.options(v)), vals)


def test_graph_positions_and_mixed_sums():
    g = gr.GameGraph(GRAPH)
    gm = graph_model(g)
    for labels in (["a"], ["a", "b"], ["f", "c", "e"]):
        pos = gr.Position(g, labels)
        x = functools.reduce(lambda a, v: a ^ g.value(v), labels, 0)
        assert pos.grundy == x
        assert as_set(pos.moves()) == {(i, v, (o,)) for i, v in enumerate(labels) for o in g.options(v)}
        wins = as_set(pos.winning_moves())
        assert wins == {(i, v, (o,)) for i, v, (o,) in as_set(pos.moves()) if g.value(o) == g.value(v) ^ x}
    mixed = gr.Position(g, ["a", "f"]) + gr.Position(gr.kayles(), [6, 9]) + gr.Position(g, ["b"])
    models = [gm, gm, MODELS["kayles"], MODELS["kayles"], gm]
    heaps = ["a", "f", 6, 9, "b"]
    assert mixed.heaps == heaps
    assert mixed.grundy == brute_value(models, heaps)
    assert as_set(mixed.winning_moves()) == brute_winning(models, heaps)
    m = next(m for m in mixed.moves() if m.component == 0)
    assert m.after[0] in g.options("a")
    assert mixed.play(m).heaps[0] == m.after[0]
    assert str(gr.Move(0, "a", ("b",))) == "component 0: 'a' -> 'b'"


def test_equivalent():
    assert gr.equivalent(gr.Position(gr.kayles(), [4]), gr.Position(gr.nim(), [1]))
    assert not gr.equivalent(gr.Position(gr.kayles(), [4]), gr.Position(gr.nim(), [2]))
    assert gr.equivalent(gr.Position(gr.kayles(), [3, 5]), gr.Position(gr.nim(), [3 ^ 4]))
    g = gr.GameGraph(GRAPH)
    for v in GRAPH:
        assert gr.equivalent(gr.Position(g, [v]), gr.Position(gr.nim(), [g.value(v)]))
        assert gr.equivalent(gr.Position(gr.nim(), [g.value(v)]), gr.Position(g, [v]))
    assert gr.equivalent(gr.Position(gr.kayles(), [10**18]), gr.Position(gr.nim(), [gr.kayles().value(10**18)]))
    with pytest.raises(TypeError):
        gr.equivalent(gr.Position(gr.nim(), [1]), 1)


# -- moves and positions as values --------------------------------------------------------------


def test_moves_compare_by_value_and_print():
    a, b = gr.Move(1, 7, (2, 3)), gr.Move(1, 7, (2, 3))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != gr.Move(0, 7, (2, 3))
    assert repr(a) == "Move(component=1, before=7, after=(2, 3))"
    assert str(a) == "component 1: 7 -> 2 + 3"
    assert str(gr.Move(0, 2, ())) == "component 0: 2 -> nothing"


def test_positions_compare_and_add():
    a = gr.Position(gr.nim(), [1, 2]) + gr.Position(gr.nim(), [3])
    assert a == gr.Position(gr.nim(), [1, 2, 3]) and hash(a) == hash(gr.Position(gr.nim(), [1, 2, 3]))
    assert a != gr.Position(gr.kayles(), [1, 2, 3])
    assert gr.Position(gr.kayles(), 5).heaps == [5]
    empty = gr.Position(gr.kayles(), [])
    assert len(empty) == 0 and empty.grundy == 0 and empty.outcome() == "P" and empty.moves() == []
    assert sum([gr.Position(gr.nim(), [1]), gr.Position(gr.nim(), [1])]).outcome() == "P"
    long = gr.Position(gr.nim(), range(20))
    assert repr(long).endswith("... (20 in all)])")


def test_moves_list_limit():
    pos = gr.Position(gr.nim(), [10**6])
    with pytest.raises(ValueError, match="iter_moves"):
        pos.moves(limit=1000)
    assert len(list(itertools.islice(pos.iter_moves(), 10))) == 10


# -- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize("heaps, exc", [([-1], ValueError), ([3, -2], ValueError), ([2.5], TypeError),
                                        (["3"], TypeError), ([None], TypeError), ([True], TypeError),
                                        ([2**64], ValueError), (np.array([1, -1]), ValueError),
                                        (np.array([1.0]), TypeError), ("12", TypeError), (None, TypeError)])
def test_bad_heaps(heaps, exc):
    with pytest.raises(exc):
        gr.Position(gr.kayles(), heaps)


def test_bad_games_and_labels():
    with pytest.raises(TypeError):
        gr.Position("0.77", [1])
    g = gr.GameGraph(GRAPH)
    with pytest.raises(ValueError, match="not a vertex"):
        gr.Position(g, ["zzz"])
    with pytest.raises(TypeError):
        gr.Position(g, "a")


def test_foreign_moves():
    pos = gr.Position(gr.nim(), [10, 12, 5])
    for bad in (gr.Move(0, 11, (9,)), gr.Move(0, 10, (10,)), gr.Move(0, 10, (11,)), gr.Move(1, 10, (9,)),
                gr.Move(3, 10, (9,)), gr.Move(-1, 5, (4,)), gr.Move(0, 10, (4, 5)), gr.Move(0, 10, (-1,))):
        with pytest.raises(ValueError):
            pos.play(bad)
    with pytest.raises(ValueError, match="out of range"):
        pos.play(gr.Move(3, 5, (4,)))
    with pytest.raises(TypeError):
        pos.play((0, 10, (9,)))
    with pytest.raises(TypeError):
        pos.play(gr.Move(0, 10, (9.0,)))
    kayles = gr.Position(gr.kayles(), [7])
    with pytest.raises(ValueError):
        kayles.play(gr.Move(0, 7, (1, 2)))  # removes 4 pins
    kayles.play(gr.Move(0, 7, (3, 2)))  # any order of the parts
    graph = gr.Position(gr.GameGraph(GRAPH), ["a"])
    with pytest.raises(ValueError):
        graph.play(gr.Move(0, "a", ("f",)))
    with pytest.raises(ValueError):
        graph.play(gr.Move(0, "a", ("nowhere",)))


# -- outcomes of many positions -----------------------------------------------------------------


def test_outcomes_agree_with_nim_sums_of_values():
    rng = np.random.default_rng(1)
    kayles = gr.kayles()
    rows = rng.integers(0, 200, size=(200_000, 4))
    got = gr.outcomes(kayles, rows)
    v = kayles.values(200).astype(np.int64)
    assert got.dtype == np.bool_ and got.shape == (200_000,)
    assert np.array_equal(got, np.bitwise_xor.reduce(v[rows], axis=1) == 0)
    assert got.any() and not got.all()
    # Heaps up to 10^18 through the period.
    big = rng.integers(0, 10**18, size=(2_000, 3), dtype=np.uint64)
    big[::2, 2] = 0
    p = kayles.periodicity()
    want = [functools.reduce(lambda a, h: a ^ (p.value(h) if h >= 71 else kayles.value(h)), map(int, r), 0) == 0
            for r in big]
    assert gr.outcomes(kayles, big).tolist() == want
    # Nim, the hexadecimal code and a graph.
    nim_rows = rng.integers(0, 2**63, size=(1000, 3), dtype=np.uint64)
    nim_rows[:, 2] = nim_rows[:, 0] ^ nim_rows[:, 1]
    nim_rows[::3, 2] += np.uint64(1)
    assert gr.outcomes(gr.nim(), nim_rows).tolist() == [i % 3 != 0 for i in range(1000)]
    g = gr.GameGraph([(1, 0), (2, 1), (2, 0), (3, 2)])
    assert gr.outcomes(g, [[0, 3], [1, 2], [3, 3]]).tolist() == [True, False, True]
    assert gr.outcomes(gr.kayles(), np.zeros((3, 0), dtype=int)).tolist() == [True] * 3


@pytest.mark.parametrize("rows, exc", [([1, 2, 3], ValueError), ([[1.5, 2]], TypeError), ([[1, -2]], ValueError),
                                       ([[True, False]], TypeError), ([["1"]], TypeError), ([[2**64]], ValueError)])
def test_outcomes_bad_input(rows, exc):
    with pytest.raises(exc):
        gr.outcomes(gr.kayles(), rows)


def test_outcomes_without_a_period():
    with pytest.raises(ValueError, match="period"):
        gr.outcomes(gr.grundys_game(), [[10**18]])
    with pytest.raises(TypeError):
        gr.outcomes("0.77", [[1]])


# -- command line -------------------------------------------------------------------------------


def test_cli_moves(capsys):
    assert main(["moves", "0.[3]", "10", "12", "5"]) == 0
    assert capsys.readouterr().out == "component 0: 10 -> 9\n"
    assert main(["moves", "0.[3]", "9", "12", "5"]) == 0
    assert "P-position" in capsys.readouterr().out
    assert main(["moves", "0.[3]", "1", "1", "1", "--misere"]) == 0
    assert "P-position" in capsys.readouterr().out
    assert main(["moves", "0.[3]", "2", "--misere"]) == 0
    assert capsys.readouterr().out == "component 0: 2 -> 1\n"
    assert main(["moves", "0.77", str(10**18), "--limit", "2"]) == 0
    out = capsys.readouterr()
    assert len(out.out.splitlines()) == 2 and "more winning moves" in out.err
    assert main(["moves", "S1,2,3", "5"]) == 0
    assert capsys.readouterr().out == "component 0: 5 -> 4\n"
    assert main(["moves", "0.77", "-3"]) == 2
    assert "non-negative" in capsys.readouterr().err
    assert main(["moves", "0.7x", "3"]) == 2
    assert "error" in capsys.readouterr().err


def test_position_html_shows_components_nim_sum_outcome_and_a_winning_move():
    pos = gr.Position(gr.nim(), [10, 12, 5]) + gr.Position(gr.kayles(), [4])
    html = pos._repr_html_()
    # nim-sum 10 ^ 12 ^ 5 ^ G_kayles(4) = 3 ^ 1 = 2
    assert "Nim 0.[3]" in html and "Kayles 0.77" in html and "[10, 12, 5]" in html
    assert ">2<" in html and "N: the player to move wins" in html
    assert escape_move(pos.winning_move()) in html
    lost = gr.Position(gr.nim(), [1, 1])._repr_html_()
    assert "P: the player to move loses" in lost and "winning move" not in lost


def escape_move(move):
    from html import escape

    return escape(str(move))


#: The hand-worked loopy graph of grundy/loopy.py's docstring, values from Smith's definition:
#: t = 0, s = Infinity() (s -> s), u = Infinity({0}) (u -> u, u -> t), a = 0, b = 1 (a <-> b, b -> t).
LOOPY_HAND = {"t": [], "s": ["s"], "u": ["u", "t"], "a": ["b"], "b": ["a", "t"]}


def html_rows(pos):
    """The (label, text) rows of a position's notebook card, with HTML entities decoded."""
    import html
    import re

    cells = re.findall(r"<th[^>]*>([^<]*)</th><td[^>]*>([^<]*)</td>", pos._repr_html_())
    return {html.unescape(k): html.unescape(v) for k, v in cells}


@pytest.mark.parametrize("kind", ["graph", "state game"])
@pytest.mark.parametrize(
    ("components", "value", "outcome"),
    [
        (["u", "a"], "∞(0)", "N"),  # Infinity({0}) + 0: move u -> t
        (["u", "b"], "∞(1)", "D"),  # Infinity({0}) + 1 = Infinity({1}): no move to 0
        (["u", "u"], None, "D"),  # two infinite components: a draw, no value
        (["s"], "∞()", "D"),
        (["b", "b"], "0", "P"),  # finite values of a loopy game still add by XOR
        (["b", "t"], "1", "N"),
    ],
)
def test_position_html_of_a_loopy_sum_shows_its_generalized_value_not_an_error(kind, components, value, outcome):
    game = gr.GameGraph(LOOPY_HAND) if kind == "graph" else gr.StateGame(LOOPY_HAND.__getitem__, loopy=True)
    pos = gr.Position(game, components)
    rows = html_rows(pos)
    assert rows["nim-sum"] == "no nim-sum (loopy component)"
    assert "Grundy value" not in pos._repr_html_()  # not the error text of Position.grundy
    if value is None:
        assert rows["generalized value"] == "none: two or more infinite components"
    else:
        assert rows["generalized value"] == value
    assert rows["outcome"][0] == outcome == pos.outcome()
    if outcome == "N":
        assert rows["winning move"] == str(pos.winning_move())
        assert pos.play(pos.winning_move()).outcome() == "P"
    else:
        assert "winning move" not in rows


def test_nested_heap_lists_are_refused_not_flattened():
    # Issue 32, fault 9: Position(kayles, [[1, 2]]) was the sum of heaps 1 and 2.
    with pytest.raises(gr.ArgumentTypeError, match="heap at index 0 must be an integer, not list"):
        gr.Position(gr.kayles(), [[1, 2]])
    with pytest.raises(gr.ArgumentTypeError):
        gr.Position(gr.kayles(), [(1,), (2,)])
    with pytest.raises(gr.ArgumentError, match="1-d"):
        gr.Position(gr.kayles(), np.array([[1, 2]]))
    # nim_sum still reads an array of any shape, as documented.
    assert gr.nim_sum(np.array([[1, 2], [4, 8]])) == 15


def test_bad_play_arguments_are_refused_at_the_call():
    pos = gr.Position(gr.kayles(), [3, 4])
    with pytest.raises(gr.ArgumentTypeError, match="misere must be True or False"):
        pos.outcome(misere=None)
    with pytest.raises(gr.ArgumentTypeError, match="misere"):
        pos.iter_winning_moves(misere=1)  # at the call, before the first next()
    with pytest.raises(gr.ArgumentTypeError):
        gr.outcomes(gr.kayles(), [[1, None]])
    # Huge limits are only bounds (they used to reach islice or the core as OverflowError).
    assert len(pos.moves(limit=2**70)) == len(pos.moves())
    assert pos.outcome(misere=True, max_positions=2**70) in ("P", "N")
    assert gr.outcomes(gr.kayles(), [[1, 2]], misere=True, max_positions=2**70).shape == (1,)


def test_the_core_expands_a_family_of_options_a_slice_at_a_time():
    # A heap of 10**18 of Grundy's game has 5 * 10**17 splits: they come from the core in slices,
    # each the next options in order, and the first winning move costs one slice.
    core = gr.grundys_game()._core
    families, _, _ = core.search(10**18, None, (0, 0), 1000)
    first, second = families[0].take(3), families[0].take(2)
    assert first + second == [(1, 10**18 - 1), (2, 10**18 - 2), (3, 10**18 - 3), (4, 10**18 - 4), (5, 10**18 - 5)]
    one = core.search(7, None, (0, 0), 1000)[0]
    assert [o for f in one for o in f.take(100)] == [(1, 6), (2, 5), (3, 4)]
    assert all(f.take(100) == [] for f in one)  # taken: nothing is given twice
