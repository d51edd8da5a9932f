"""Take-and-break codes: notation, published sequences, and the engine against the oracle."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy as gr

import oracle

# Published sequences (Winning Ways ch. 4; OEIS A002186, A002188, A071074).
KAYLES = [int(x) for x in """0,1,2,3,1,4,3,2,1,4,2,6,4,1,2,7,1,4,3,2,1,4,6,7,4,1,2,8,5,4,7,2,1,8,6,7,4,1,2,3,
1,4,7,2,1,8,2,7,4,1,2,8,1,4,7,2,1,4,2,7,4,1,2,8,1,4,7,2,1,8,6,7,4,1,2,8,1,4,7,2,1,8,2,7,4,1,2,8,1,4,7,
2,1,8,2,7,4,1,2,8,1,4,7,2,1""".replace("\n", "").split(",")]
GRUNDY = [int(x) for x in """0,0,0,1,0,2,1,0,2,1,0,2,1,3,2,1,3,2,4,3,0,4,3,0,4,3,0,4,1,2,3,1,2,4,1,2,4,1,2,
4,1,5,4,1,5,4,1,5,4,1,0,2,1,0,2,1,5,2,1,3,2,1,3,2,4,3,2,4,3,2,4,3,2,4,3,2,4,3,2,4,5,2,4,5,2,4,3,7,4,3,7,
4,3,7,4,3,5,2,3,5,2,3,5,2,3""".replace("\n", "").split(",")]
DOUBLE_KAYLES = [int(x) for x in """0,1,2,3,4,5,6,7,3,2,8,9,7,6,5,4,3,2,8,9,4,5,12,13,9,8,2,3,4,5,15,14,3,2,8,
9,7,6,5,4,3,2,8,9,13,12,15,14,9,8,2,3,4,5,16,17,10,11,8,9,14,15,5,4,3,2,16,17,13,12,15,14,9,8,2,3,4,5,6,
7,3,2,8,9,14,15,5,4,3,2""".replace("\n", "").split(",")]


def test_published_sequences():
    assert len(KAYLES) == 105 and len(GRUNDY) == 105 and len(DOUBLE_KAYLES) == 90
    assert gr.kayles().values(105).tolist() == KAYLES
    assert gr.grundys_game().values(105).tolist() == GRUNDY
    assert gr.TakeAndBreak("0.7777").values(90).tolist() == DOUBLE_KAYLES


def test_grundys_game_worked_example():
    assert gr.grundys_game().values(9)[1:].tolist() == [0, 0, 1, 0, 2, 1, 0, 2]


def test_kayles_period_12_holds_far_out():
    v = gr.kayles().values(5000)
    assert all(v[n] == v[n + 12] for n in range(71, 5000 - 12))
    assert v[70] != v[82]


def test_dawsons_kayles_is_dawsons_chess_shifted():
    a = gr.dawsons_kayles().values(400)
    b = gr.TakeAndBreak("0.137").values(399)
    assert a[1:].tolist() == b.tolist()


def test_nim_and_repeated_codes():
    assert gr.nim().values(1000).tolist() == list(range(1000))
    assert str(gr.nim()) == "0.[3]"
    assert gr.TakeAndBreak("0.[37]").values(60).tolist() == oracle.take_and_break("0.[37]", 60)


def test_nim_values_beyond_16_bits():
    v = gr.nim().values(70_000)
    assert v.dtype == np.uint32
    assert v[-1] == 69_999


@pytest.mark.parametrize(
    "code, canonical",
    [
        (".77", "0.77"),
        ("0.770", "0.77"),
        ("0.4f", "0.4F"),
        ("4.0", "4.0"),
        ("4!.0", "4!.0"),
        ("0.[3]", "0.[3]"),
        ("0.3[33]", "0.[3]"),
        ("0.[37]", "0.[37]"),
        ("0.{1,2}", "0.6"),
    ],
)
def test_canonical_code(code, canonical):
    assert str(gr.TakeAndBreak(code)) == canonical
    assert gr.TakeAndBreak(code) == gr.TakeAndBreak(canonical)


def test_properties():
    assert gr.kayles().is_octal and gr.kayles().max_heaps == 2 and gr.kayles().is_finite
    assert not gr.TakeAndBreak("0.4F").is_octal
    assert not gr.nim().is_finite


def test_dtype_is_smallest_that_holds_values():
    assert gr.kayles().values(100).dtype == np.uint8
    assert gr.nim().values(300).dtype == np.uint16
    assert gr.nim().values(0).shape == (0,)


def test_values_are_cached_and_extended():
    g = gr.TakeAndBreak("0.137")
    a = g.values(100)
    assert g.computed == 100
    b = g.values(300)
    assert g.computed == 300
    assert b[:100].tolist() == a.tolist()
    assert g.values(50).tolist() == a[:50].tolist()
    assert g.value(299) == b[299]


def test_hexadecimal_three_heaps():
    for code in ["0.F", "0.8", "0.4F", "0.C!", "8.0", "C!.0", "0.F!F"]:
        assert gr.TakeAndBreak(code).values(40).tolist() == oracle.take_and_break(code, 40), code


HEXDIGIT = st.integers(0, 15)


@st.composite
def codes(draw, octal: bool):
    top = 7 if octal else 15
    digits = draw(st.lists(st.integers(0, top), min_size=1, max_size=4))
    bangs = draw(st.lists(st.booleans(), min_size=len(digits), max_size=len(digits)))
    d0 = draw(st.sampled_from([0, 4] if octal else [0, 4, 8, 12]))
    body = "".join(f"{d:X}" + ("!" if b else "") for d, b in zip(digits, bangs, strict=True))
    if draw(st.booleans()) and draw(st.booleans()):
        body = body[:1] + "[" + body[1:] + "]" if len(body) > 1 and body[1] != "!" else f"[{body}]"
    return f"{d0:X}.{body}"


@settings(max_examples=60, deadline=None)
@given(codes(octal=True))
def test_octal_codes_match_oracle(code):
    n = 45
    assert gr.TakeAndBreak(code).values(n).tolist() == oracle.take_and_break(code, n), code


@settings(max_examples=40, deadline=None)
@given(codes(octal=False))
def test_hexadecimal_codes_match_oracle(code):
    n = 30
    assert gr.TakeAndBreak(code).values(n).tolist() == oracle.take_and_break(code, n), code


@settings(max_examples=30, deadline=None)
@given(codes(octal=True), st.lists(st.integers(1, 60), min_size=1, max_size=5))
def test_extension_in_steps_matches_one_go(code, steps):
    g = gr.TakeAndBreak(code)
    for n in sorted(steps):
        g.values(n)
    m = max(steps)
    assert g.values(m).tolist() == gr.TakeAndBreak(code).values(m).tolist()


def test_nim_prefix_unions_stay_cheap():
    # 2^21 values of Nim: linear with the full-word floor, hours without it.
    v = gr.nim().values(2**21)
    assert v[-1] == 2**21 - 1 and (v[1:] - v[:-1] == 1).all()
