"""Bad input gets a clear Python exception, never a crash, a hang or a wrong value."""

import pytest

import grundy as gr


@pytest.mark.parametrize(
    "code, where",
    [("0.7x", "position 3"), ("", "empty"), ("0..7", "position 2"), ("0.[37", "position 2"),
     ("0.[]", "position 3"), ("1.0", "before the point"), ("0.{5}", "position 3"), ("0.[3]7", "position 5"),
     ("077", "position 1"), ("0.7 ", "position 3")],
)
def test_malformed_codes(code, where):
    with pytest.raises(ValueError, match=where.replace("[", r"\[")):
        gr.TakeAndBreak(code)


def test_malformed_code_names_the_character():
    with pytest.raises(ValueError, match="'x'"):
        gr.TakeAndBreak("0.7x")


def test_code_must_be_a_string():
    with pytest.raises(TypeError):
        gr.TakeAndBreak(0.77)


@pytest.mark.parametrize("n, exc", [(-1, ValueError), (2.5, TypeError), ("10", TypeError), (None, TypeError),
                                    (True, TypeError)])
def test_bad_counts(n, exc):
    with pytest.raises(exc):
        gr.kayles().values(n)
    with pytest.raises(exc):
        gr.kayles().value(n)


def test_huge_requests_fail_at_once():
    for n in (10**15, 2**63, 2**70):
        with pytest.raises(MemoryError):
            gr.kayles().values(n)
    with pytest.raises((MemoryError, ValueError)):
        gr.Subtraction.proper_divisors().values(10**15)


def test_bad_subtraction_sets():
    with pytest.raises(ValueError, match="0"):
        gr.Subtraction([0])
    with pytest.raises(ValueError, match="negative"):
        gr.Subtraction([1, -2])
    with pytest.raises(TypeError):
        gr.Subtraction([1, 1.5])
    with pytest.raises(TypeError):
        gr.Subtraction("123")
    with pytest.raises(TypeError):
        gr.Subtraction()
    with pytest.raises(TypeError):
        gr.Subtraction([1], allowed=lambda n, k: True)
    with pytest.raises(TypeError):
        gr.Subtraction(allowed=3)
    with pytest.raises(ValueError):
        gr.Subtraction.all_but([0])


def test_callable_exception_propagates_unchanged():
    class Boom(Exception):
        pass

    def rule(n, k):
        if n == 7:
            raise Boom("seven")
        return k == 1

    g = gr.Subtraction(allowed=rule)
    with pytest.raises(Boom, match="seven"):
        g.values(20)
    # What was computed before the error is kept and correct.
    assert g.values(7).tolist() == [0, 1, 0, 1, 0, 1, 0]


def test_callable_with_wrong_signature_raises_typeerror():
    g = gr.Subtraction(allowed=lambda n: True)
    with pytest.raises(TypeError):
        g.values(5)


def test_a_huge_bad_code_gives_a_short_message():
    # Issue 32, fault 9: a 100,000-character bad code gave a 150 KB message; .code stays whole.
    code = "0." + "x" * 100_000
    with pytest.raises(gr.CodeError) as info:
        gr.TakeAndBreak(code)
    assert len(str(info.value)) < 300
    assert "(100002 characters)" in str(info.value)
    assert info.value.code == code and info.value.position == 2
    # A short code is still quoted whole.
    with pytest.raises(gr.CodeError, match='"0.7x"'):
        gr.TakeAndBreak("0.7x")


@pytest.mark.parametrize(
    "call",
    [
        lambda: gr.TakeAndBreak("0.77", name=5),
        lambda: gr.HeapGame(lambda n: [], name=5),
        lambda: gr.TwoHeapGame([(1, 0)], name=5),
    ],
)
def test_names_must_be_strings(call):
    with pytest.raises(gr.ArgumentTypeError, match="name must be a string"):
        call()
