"""Nim-sums: the Grundy value of a sum of games is the XOR of its components' values."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from . import _core
from ._validate import as_heap


def heap_array(heaps: Iterable[int] | np.ndarray) -> np.ndarray:
    """Validates heap sizes and returns them as a contiguous 1-d ``uint64`` array.

    >>> heap_array([10, 12, 5]).dtype
    dtype('uint64')
    """
    arr: Any
    if isinstance(heaps, np.ndarray) and heaps.dtype.kind in "iu":
        arr = heaps.ravel()
    else:
        if isinstance(heaps, (str, bytes)) or not isinstance(heaps, Iterable):
            raise TypeError(f"heaps must be an iterable of integers, not {type(heaps).__name__}")
        items = heaps.ravel().tolist() if isinstance(heaps, np.ndarray) else list(heaps)
        try:
            arr = np.asarray(items)
        except (OverflowError, ValueError):
            arr = np.asarray(items, dtype=object)
        if arr.dtype.kind not in "iu" or arr.dtype == np.bool_:
            # Mixed, huge or non-integer entries: check one by one for a precise message.
            for i, h in enumerate(items):
                as_heap(h, f"heap at index {i}")
            arr = np.asarray([int(h) for h in items], dtype=np.uint64)
        arr = arr.ravel()
    if arr.dtype.kind == "i" and arr.size and arr.min() < 0:
        i = int(np.argmax(arr < 0))
        raise ValueError(f"heap sizes must be non-negative: heap at index {i} is {int(arr[i])}")
    return np.ascontiguousarray(arr, dtype=np.uint64)


def nim_sum(heaps: Iterable[int] | np.ndarray) -> int:
    """XOR of heap sizes (or of Grundy values): the value of their sum, 0 exactly for P-positions.

    Parameters
    ----------
    heaps : iterable of int or numpy.ndarray
        Non-negative integers below 2**64, or a numpy array of any integer dtype (of any shape).

    Returns
    -------
    int
        The nim-sum.

    Raises
    ------
    TypeError
        When ``heaps`` is not an iterable, or an entry is not an integer.
    ValueError
        When an entry is negative or not below 2**64.

    Examples
    --------
    >>> import grundy as gr
    >>> gr.nim_sum([10, 12, 5])
    3
    >>> import numpy as np
    >>> gr.nim_sum(np.array([1, 2, 3], dtype=np.int8))
    0
    """
    return int(_core.nim_sum(heap_array(heaps)))


__all__ = ["heap_array", "nim_sum"]
