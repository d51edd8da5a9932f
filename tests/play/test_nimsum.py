import numpy as np
import pytest

import grundy as gr


def test_worked_example():
    assert gr.nim_sum([10, 12, 5]) == 3
    assert gr.nim_sum([9, 12, 5]) == 0
    assert gr.nim_sum([]) == 0


def test_subtract_a_square_position():
    sq = gr.Subtraction.squares()
    assert gr.nim_sum(sq.value(h) for h in [1, 2, 3, 4, 6]) == 3


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64])
def test_numpy_dtypes(dtype):
    a = np.array([1, 2, 4, 7, 100], dtype=dtype)
    assert gr.nim_sum(a) == 1 ^ 2 ^ 4 ^ 7 ^ 100


def test_large_heaps_and_many_of_them():
    rng = np.random.default_rng(1)
    a = rng.integers(0, 10**18, size=200_000, dtype=np.uint64)
    want = int(np.bitwise_xor.reduce(a))
    assert gr.nim_sum(a) == want
    assert gr.nim_sum(a.tolist()) == want
    assert gr.nim_sum([2**64 - 1, 1]) == 2**64 - 2


def test_bad_heaps():
    with pytest.raises(ValueError, match="index 1"):
        gr.nim_sum([1, -2])
    with pytest.raises(ValueError, match="index 2"):
        gr.nim_sum(np.array([1, 2, -3]))
    with pytest.raises(TypeError):
        gr.nim_sum([1, 2.5])
    with pytest.raises(TypeError):
        gr.nim_sum(np.array([1.0, 2.0]))
    with pytest.raises(ValueError):
        gr.nim_sum([2**64])
    with pytest.raises(TypeError):
        gr.nim_sum(5)
