"""Periods found, proven and used; sparse space. Published periods from Winning Ways ch. 4,
Guy and Smith 1956, Kenyon 1967, Austin 1976, Gangolli and Plambeck 1989 (OEIS A002186/A002187)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy as gr

import oracle

# code, preperiod, period
PUBLISHED = [
    ("0.77", 71, 12),
    ("0.137", 52, 34),
    ("0.07", 53, 34),
    ("0.7777", 142, 24),
    ("0.45", 498, 20),
    ("0.156", 3479, 349),
    ("0.356", 7315, 142),
    ("0.644", 3256, 442),
    ("0.165", 5181, 1550),
]


@pytest.mark.parametrize("code, preperiod, period", PUBLISHED)
def test_published_periods_are_proven(code, preperiod, period):
    p = gr.TakeAndBreak(code).periodicity()
    assert (p.preperiod, p.period, p.saltus, p.proven) == (preperiod, period, 0, True)
    assert "Guy and Smith" in p.certificate and f"{preperiod} <= n <" in p.certificate
    assert p.checked_to >= 2 * preperiod + 2 * period


def test_0_16_gangolli_plambeck():
    # Preperiod 105351, period 149459, largest value 23: half a million values to prove.
    g = gr.TakeAndBreak("0.16")
    p = g.periodicity(max_n=2**20)
    assert (p.preperiod, p.period, p.saltus, p.proven) == (105351, 149459, 0, True)
    # The period shows at 2**18 values; the search then goes to exactly what the proof needs,
    # 2*105351 + 149459 + 2 + 149459 values, rather than doubling to 2**19.
    assert p.checked_to == 2 * 105351 + 2 * 149459 + 2 == g.computed
    assert int(g.values(p.checked_to).max()) == 23


def test_period_values_agree_with_direct_computation():
    g = gr.TakeAndBreak("0.156")
    p = g.periodicity()
    direct = gr.TakeAndBreak("0.156").values(20_000)
    for h in range(p.preperiod, 20_000, 7):
        assert p.value(h) == direct[h]


def test_value_far_out_through_the_period():
    k = gr.kayles()
    p = k.periodicity()
    h = 10**18
    same_place = p.preperiod + (h - p.preperiod) % p.period
    assert k.value(h) == k.value(same_place)
    assert k.value(2**63 - 1) == k.value(p.preperiod + (2**63 - 1 - p.preperiod) % p.period)
    assert k.value(2**64 - 1) == k.value(p.preperiod + (2**64 - 1 - p.preperiod) % p.period)


def test_value_finds_the_period_on_demand():
    g = gr.TakeAndBreak("0.137")
    assert g.value(10**15) == g.value(52 + (10**15 - 52) % 34)


def test_value_without_proven_period_says_what_to_do():
    g = gr.Subtraction.all_but([1])
    with pytest.raises(ValueError, match=r"periodicity\(max_n="):
        g.value(10**12)
    # Below the direct limit it is simply computed.
    assert g.value(1000) == 500


def test_no_period_for_grundys_game_up_to_2_16():
    p = gr.grundys_game().periodicity()
    assert p.period is None and not p.proven and p.checked_to == 2**16
    assert "no period" in p.certificate
    assert "period=None" in repr(p)


def test_nim_is_arithmetic_periodic_and_proven():
    p = gr.nim().periodicity()
    assert (p.preperiod, p.period, p.saltus, p.proven) == (0, 1, 1, True)
    assert gr.nim().value(10**18) == 10**18
    assert gr.Subtraction.all_but([]).value(2**63 - 1) == 2**63 - 1


@pytest.mark.parametrize("excluded, period, saltus", [([1], 2, 1), ([2], 4, 2), ([1, 2], 3, 1)])
def test_all_but_sets_are_arithmetic_periodic(excluded, period, saltus):
    p = gr.Subtraction.all_but(excluded).periodicity()
    assert (p.period, p.saltus, p.proven) == (period, saltus, False)
    want = oracle.subtraction(lambda n, k: k not in excluded, 300)
    assert all(want[n + p.period] == want[n] + p.saltus for n in range(p.preperiod, 300 - p.period))


def test_all_but_larger_set_against_oracle():
    excl = [2, 3, 7]
    p = gr.Subtraction.all_but(excl).periodicity()
    want = oracle.subtraction(lambda n, k: k not in excl, 400)
    assert p.period is not None and p.saltus > 0
    assert all(want[n + p.period] == want[n] + p.saltus for n in range(p.preperiod, 400 - p.period))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 12), min_size=1, max_size=4, unique=True))
def test_finite_subtraction_sets_against_oracle(s):
    p = gr.Subtraction(s).periodicity()
    assert p.proven and p.saltus == 0
    n0, per = p.preperiod, p.period
    n = 2 * (n0 + per) + 60
    g = oracle.subtraction(lambda h, k: k in s, n)
    assert all(g[i + per] == g[i] for i in range(n0, n - per))
    if n0 > 0:
        assert g[n0 - 1 + per] != g[n0 - 1]
    for q in range(1, per):
        assert any(g[i + q] != g[i] for i in range(n0, n - q)), f"period {q} < {per} also works"


def test_observed_only_for_rules_without_theorem():
    p = gr.Subtraction(allowed=lambda n, k: k in (1, 4)).periodicity()
    assert (p.period, p.proven) == (5, False)
    assert "observed only" in p.certificate
    p = gr.TakeAndBreak("0.[12]").periodicity()
    assert p.period is not None and not p.proven and "repeated group" in p.certificate
    # Codes whose every digit leaves 0 or 1 heap are Nim in disguise, and proven so.
    p = gr.TakeAndBreak("0.[37]").periodicity()
    assert (p.period, p.saltus, p.proven) == (1, 1, True)


def test_certificate_and_repr():
    p = gr.kayles().periodicity()
    assert repr(p) == "Periodicity(preperiod=71, period=12, saltus=0, proven=True, checked_to=1024)"
    assert "71 <= n < 156" in str(p)


def test_base_is_one_period_as_a_read_only_array():
    g = gr.kayles()
    p = g.periodicity()
    assert isinstance(p.base, np.ndarray) and p.base.dtype == np.uint8 and not p.base.flags.writeable
    assert p.base.tolist() == g.values(p.preperiod + p.period)[p.preperiod :].tolist()
    with pytest.raises(ValueError):
        p.base[0] = 5
    # value() gives Python ints, with no overflow of the small dtype: Nim's period is [0], saltus 1.
    q = gr.nim().periodicity()
    assert q.base.tolist() == [0] and q.value(10**30) == 10**30 and type(q.value(300)) is int
    # A sequence given by hand becomes such an array; the caller's own array is not frozen.
    mine = np.array([1, 2, 3], dtype=np.int64)
    r = gr.Periodicity(0, 3, 0, False, "by hand", 3, mine)
    assert r.base.dtype == np.uint8 and mine.flags.writeable and r.value(4) == 2
    assert gr.Periodicity(0, 2, 0, False, "by hand", 2, (4, 5)).base.tolist() == [4, 5]
    # A view is copied, so that the larger array it came from is not kept alive.
    big = np.arange(10, dtype=np.uint16)
    v = gr.Periodicity(0, 3, 0, False, "by hand", 3, big[2:5]).base
    assert v.tolist() == [2, 3, 4] and v.base is None and big.flags.writeable
    assert gr.Periodicity(None, None, 0, False, "none", 8).base.size == 0
    with pytest.raises(ValueError, match="negative"):
        gr.Periodicity(0, 1, 0, False, "by hand", 1, [-1])
    with pytest.raises(TypeError, match="base"):
        gr.Periodicity(0, 1, 0, False, "by hand", 1, [[1]])


def test_max_n_is_respected_and_checked():
    p = gr.TakeAndBreak("0.156").periodicity(max_n=1000)
    assert p.checked_to <= 1000 and not p.proven
    with pytest.raises(ValueError):
        gr.kayles().periodicity(max_n=-1)


def test_sparse_space_of_grundys_game():
    s = gr.grundys_game().sparse_space(2**15)
    assert s.mask == 0b11111110  # every bit but the lowest, for values below 256
    assert not s.parity_dependent
    assert s.rare_positions[:16].tolist() == [0, 1, 2, 3, 4, 6, 7, 9, 10, 12, 15, 20, 23, 26, 28, 31]
    assert s.rare_count + s.common_count == 2**15
    assert s.last_rare == int(s.rare_positions[-1])
    v = gr.grundys_game().values(2**15)
    assert all(s.is_rare(int(v[n]), n) == (n in set(s.rare_positions.tolist())) for n in range(0, 2**15, 97))
    assert "mask=0b11111110" in repr(s)


def test_sparse_space_bad_input():
    with pytest.raises(ValueError):
        gr.nim().sparse_space(2**23 + 10)
    with pytest.raises(ValueError):
        gr.kayles().sparse_space(-5)


# -- values filled from a proven period ---------------------------------------------------------
@pytest.mark.parametrize(
    "make, n",
    [
        (lambda: gr.kayles(), 300_000),
        (lambda: gr.TakeAndBreak("0.156"), 200_000),  # preperiod 3479, period 349
        (lambda: gr.Subtraction([2, 5, 7]), 200_000),
        (lambda: gr.Subtraction(range(1, 51)), 150_000),
    ],
)
def test_values_filled_from_a_period_equal_computed_values(make, n):
    filled = make()
    v = filled.values(n)
    assert filled.periodicity().proven  # found on the way, at 2**16 values
    computed = make()
    assert np.array_equal(v, computed.values(n, from_period=False))
    assert computed.computed == n


def test_values_beyond_a_proven_period_are_filled_from_it():
    g = gr.TakeAndBreak("0.165")
    p = g.periodicity()
    assert p.proven and p.checked_to < 2**16
    v = g.values(100_000, from_period=False)  # a proven period is used either way
    want = gr.TakeAndBreak("0.165").values(100_000, from_period=False)
    assert np.array_equal(v, want)
    assert [p.value(h) for h in range(90_000, 90_050)] == v[90_000:90_050].tolist()


def test_nim_filled_from_its_arithmetic_period_widens():
    g = gr.Subtraction.all_but([])  # Nim
    assert g.periodicity().proven
    v = g.values(70_000)
    assert v.dtype == np.uint32 and np.array_equal(v, np.arange(70_000))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=1, max_size=8, unique=True))
def test_random_subtraction_sets_filled_equal_computed(members):
    n = 2**16 + 5000
    assert np.array_equal(gr.Subtraction(members).values(n), gr.Subtraction(members).values(n, from_period=False))


def test_from_period_must_be_a_bool():
    with pytest.raises(TypeError, match="from_period"):
        gr.kayles().values(10, from_period="yes")


def test_values_and_periodicity_share_the_cores_schedule_and_proof():
    # values() proves Kayles's period on the way (at 1024 values, the first size of the one schedule);
    # the proof is the core's, so value() reads a huge heap off it without a search of its own.
    g = gr.kayles()
    g.values(5000)
    assert g._core_values().proven == (71, 12, 0)
    assert g.value(10**18) == 1 and g.known_periodicity is None
    p = g.periodicity()
    assert (p.preperiod, p.period, p.proven, p.checked_to) == (71, 12, True, 5000)
    # A fresh game searches from 1024 values, doubling: 0.156 shows and is proven at 8192.
    q = gr.TakeAndBreak("0.156").periodicity()
    assert (q.preperiod, q.period, q.proven, q.checked_to) == (3479, 349, True, 8192)
