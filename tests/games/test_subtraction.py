"""Subtraction games: built-in rules, Python rules and the oracle."""

from hypothesis import given, settings
from hypothesis import strategies as st

import grundy as gr

import oracle


def test_subtract_1_2_3_p_positions_are_multiples_of_4():
    v = gr.Subtraction([1, 2, 3]).values(400)
    assert [n for n in range(400) if v[n] == 0] == list(range(0, 400, 4))


def test_squares_worked_example():
    assert gr.Subtraction.squares().values(7).tolist() == [0, 1, 0, 1, 2, 0, 1]
    sq = lambda n, k: int(k**0.5) ** 2 == k  # noqa: E731
    assert gr.Subtraction.squares().values(300).tolist() == oracle.subtraction(sq, 300)


def test_proper_divisors_is_exponent_of_two():
    v = gr.Subtraction.proper_divisors().values(5000)
    assert all(v[n] == (n & -n).bit_length() - 1 for n in range(1, 5000))


def test_at_most_half():
    want = oracle.subtraction(lambda n, k: k <= n // 2, 400)
    assert gr.Subtraction.at_most_half().values(400).tolist() == want
    # G(2n) = n and G(2n + 1) = G(n).
    v = gr.Subtraction.at_most_half().values(10_000)
    assert all(v[2 * n] == n for n in range(1, 5000))
    assert all(v[2 * n + 1] == v[n] for n in range(1, 4999))


def test_all_but():
    for excl in ([1], [2, 3], [1, 4, 9]):
        want = oracle.subtraction(lambda n, k, e=excl: k not in e, 200)
        assert gr.Subtraction.all_but(excl).values(200).tolist() == want


def test_python_rule_equals_builtin():
    odd = gr.Subtraction(allowed=lambda n, k: k % 2 == 1)
    assert odd.values(50).tolist() == oracle.subtraction(lambda n, k: k % 2 == 1, 50)
    half = gr.Subtraction(allowed=lambda n, k: k <= n // 2)
    assert half.values(200).tolist() == gr.Subtraction.at_most_half().values(200).tolist()


def test_python_rule_is_asked_about_each_removal_once():
    calls = []
    g = gr.Subtraction(allowed=lambda n, k: calls.append((n, k)) or k == 1)
    g.values(5)
    g.values(5)
    assert sorted(calls) == [(n, k) for n in range(1, 5) for k in range(1, n + 1)]


def test_repr_and_equality():
    assert repr(gr.Subtraction([3, 1, 2, 2])) == "Subtraction([1, 2, 3])"
    assert gr.Subtraction([1, 2]) == gr.Subtraction([2, 1])
    assert gr.Subtraction([1, 2]) != gr.Subtraction([1, 3])
    assert repr(gr.Subtraction.squares()) == "Subtraction.squares()"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=1, max_size=8))
def test_finite_sets_match_oracle(s):
    want = oracle.subtraction(lambda n, k: k in s, 150)
    assert gr.Subtraction(s).values(150).tolist() == want


def _mex_oracle(members: list[int], n: int) -> list[int]:
    """G(0..n) by mex over sets of the members: oracle.subtraction asks a callable about every removal."""
    g: list[int] = []
    for h in range(n):
        seen = {g[h - k] for k in members if k <= h}
        v = 0
        while v in seen:
            v += 1
        g.append(v)
    return g


@settings(max_examples=15, deadline=None)
@given(
    st.lists(st.integers(1, 600), min_size=1, max_size=250, unique=True),
    st.sampled_from([1, 2, 3, 4]),
)
def test_large_finite_sets_match_a_direct_evaluation_for_any_thread_count(s, threads):
    # Large sets go through the ring, gather and block-parallel kernels (the last with threads > 1).
    n = 2500
    got = gr.Subtraction(s).values(n, threads=threads, from_period=False).tolist()
    assert got == _mex_oracle(sorted(s), n)


def test_block_parallel_kernel_equals_one_thread():
    s = list(range(3, 3001, 3)) + [3001, 4999]
    one = gr.Subtraction(s).values(40_000, threads=1, from_period=False)
    for threads in (2, 3, 4):
        assert (gr.Subtraction(s).values(40_000, threads=threads, from_period=False) == one).all()
