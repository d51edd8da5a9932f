"""Heap games written in Python: options of heap n as tuples of heap sizes, XOR and mex in Rust."""

import doctest

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy as gr
import grundy.games.heap.python_rules

import oracle


def kayles_options(n):
    """Knock down 1 or 2 adjacent pins of a row of n: the rest is a row of a and one of n - k - a."""
    return [(a, n - k - a) for k in (1, 2) if k <= n for a in range((n - k) // 2 + 1)]


def test_kayles_written_in_python():
    g = gr.HeapGame(kayles_options)
    assert g.values(300).tolist() == gr.kayles().values(300).tolist()
    assert g.value(299) == gr.kayles().value(299)


def test_kayles_without_empty_heaps():
    def options(n):
        out = []
        for k in (1, 2):
            for a in range(n - k + 1):
                out.append(tuple(p for p in (a, n - k - a) if p > 0))
        return out

    assert gr.HeapGame(options).values(120).tolist() == gr.kayles().values(120).tolist()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from("0123456789ABCDEF"), min_size=1, max_size=4))
def test_hexadecimal_codes_written_as_options(digits):
    """Up to three heaps per option: the XOR of three parts must be right too."""
    code = "0." + "".join(digits)

    def options(n):
        out = []
        for j, ch in enumerate(digits, start=1):
            d = int(ch, 16)
            if j > n:
                break
            for k in range(4):
                if d >> k & 1:
                    out.extend(oracle.splits(n - j, k))
        return out

    assert gr.HeapGame(options).values(60).tolist() == oracle.take_and_break(code, 60)


def test_called_once_per_heap_size():
    calls = []

    def options(n):
        calls.append(n)
        return kayles_options(n)

    g = gr.HeapGame(options)
    g.values(50)
    g.values(80)
    g.value(30)
    g.value(99)
    assert calls == list(range(100))


def test_options_are_checked():
    g = gr.HeapGame(lambda n: [(n - 1,), (1, n - 3)] if n >= 3 else [])
    assert g.options(5) == [(4,), (1, 2)]
    with pytest.raises(ValueError, match=r"heap 2: option \(1, -1\) has a negative part"):
        gr.HeapGame(lambda n: [(1, n - 3)] if n >= 1 else []).options(2)


@pytest.mark.parametrize(
    "rule, exc, match",
    [
        (lambda n: [(n,)], ValueError, r"heap 0: option \(0,\) has a part 0 that is not smaller than 0"),
        (lambda n: [(n - 1,)] if 0 < n < 5 else [(2, n + 1)] if n else [], ValueError, r"heap 5: option \(2, 6\)"),
        (lambda n: [(n - 1,)], ValueError, r"heap 0: option \(-1,\) has a negative part -1"),
        (lambda n: [(2**70,)], ValueError, r"heap 0: option \(1180591620717411303424,\) has a part"),
        (lambda n: [(n - 1,), (1, n - 3)], ValueError, "negative"),
        (lambda n: [(0.5,)], TypeError, r"heap 0: option \(0.5,\): a heap size must be an integer, not float"),
        (lambda n: [(True,)], TypeError, "not bool"),
        (lambda n: [("1",)], TypeError, "not str"),
        (lambda n: 3, TypeError, "options of heap 0 must be an iterable"),
        (lambda n: [n - 1] if n else [], TypeError, r"heap 1: option 0 must be a tuple of heap sizes, like \(0,\)"),
        (lambda n, k: [], TypeError, "argument"),
    ],
)
def test_bad_rules(rule, exc, match):
    with pytest.raises(exc, match=match):
        gr.HeapGame(rule).values(10)


def test_exceptions_propagate_unchanged():
    class Boom(Exception):
        pass

    raised = []

    def options(n):
        if n == 7:
            raised.append(Boom("no options at 7"))
            raise raised[-1]
        return kayles_options(n)

    g = gr.HeapGame(options)
    with pytest.raises(Boom) as info:
        g.values(20)
    assert info.value is raised[0]
    assert g.computed == 7  # the values before the failing heap are kept
    with pytest.raises(Boom):
        g.value(7)


def test_a_rule_that_recovers_continues_where_it_stopped():
    failed = []

    def options(n):
        if n == 5 and not failed:
            failed.append(n)
            raise RuntimeError("transient")
        return kayles_options(n)

    g = gr.HeapGame(options)
    with pytest.raises(RuntimeError, match="transient"):
        g.values(10)
    assert g.values(10).tolist() == gr.kayles().values(10).tolist()


def test_other_iterables_and_numpy_parts():
    g = gr.HeapGame(lambda n: ((np.int64(a), np.uint8(1)) for a in range(n - 1)) if n >= 2 else iter(()))
    ref = []
    for n in range(30):
        seen = {ref[a] ^ ref[1] for a in range(n - 1)} if n >= 2 else set()
        ref.append(next(x for x in range(len(seen) + 1) if x not in seen))
    assert g.values(30).tolist() == ref


def test_empty_option_takes_everything():
    # From any heap, remove it all or take one token: G = mex{0, G(n - 1)}.
    g = gr.HeapGame(lambda n: [()] + ([(n - 1,)] if n else []))
    assert g.values(6).tolist() == [1, 2, 1, 2, 1, 2]


def test_values_api_matches_builtin_games():
    g = gr.HeapGame(lambda n: [(n - k,) for k in (1, 2, 3) if k <= n], name="subtract 1-3")
    v = g.values(40)
    assert v.dtype == np.uint8
    assert v.tolist() == gr.Subtraction([1, 2, 3]).values(40).tolist()
    with pytest.raises(ValueError):
        g.values(-1)
    with pytest.raises(TypeError):
        g.value(2.5)
    assert "subtract 1-3" in repr(g)
    assert isinstance(g, gr.Game)


def test_rule_must_be_callable():
    with pytest.raises(TypeError, match="callable"):
        gr.HeapGame([(1,)])


def test_docstring_examples():
    assert doctest.testmod(grundy.games.heap.python_rules).failed == 0
