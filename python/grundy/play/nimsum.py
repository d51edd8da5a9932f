"""Nim-sums: the Grundy value of a sum of games is the XOR of its components' values."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from .. import _core
from .._validate import _short, as_heap
from ..exceptions import ArgumentError, ArgumentTypeError


def heap_array(heaps: Iterable[int] | np.ndarray, any_shape: bool = False) -> np.ndarray:
    """Validates heap sizes and returns them as a contiguous 1-d ``uint64`` array.

    A nested list (``[[1, 2]]``) is refused, not flattened: its entries are not heap sizes. With
    ``any_shape``, a numpy array of any shape is read in order (``nim_sum`` of a table).

    >>> heap_array([10, 12, 5]).dtype
    dtype('uint64')
    """
    arr: Any
    if isinstance(heaps, np.ndarray) and heaps.ndim != 1 and not any_shape:
        raise ArgumentError(f"heaps must be a 1-d array of heap sizes, got shape {heaps.shape}")
    if isinstance(heaps, np.ndarray) and heaps.dtype.kind in "iu":
        arr = heaps.ravel()
    else:
        if isinstance(heaps, (str, bytes)) or not isinstance(heaps, Iterable):
            raise ArgumentTypeError(f"heaps must be an iterable of integers, not {type(heaps).__name__}")
        items = heaps.ravel().tolist() if isinstance(heaps, np.ndarray) else list(heaps)
        try:
            arr = np.asarray(items)
        except (OverflowError, ValueError):
            arr = np.asarray(items, dtype=object)
        if arr.ndim != 1 and not isinstance(heaps, np.ndarray):
            # [[1, 2]] would become a 2-d array: its entries are lists, not heap sizes.
            i, bad = next(((i, h) for i, h in enumerate(items) if not isinstance(h, int)), (0, items[0]))
            raise ArgumentTypeError(
                f"heap at index {i} must be an integer, not {type(bad).__name__} ({_short(bad)}): "
                "give the heaps as a flat list, such as [1, 2]"
            )
        if arr.dtype.kind not in "iu" or arr.dtype == np.bool_:
            # Mixed, huge or non-integer entries: check one by one for a precise message.
            for i, h in enumerate(items):
                as_heap(h, f"heap at index {i}")
            arr = np.asarray([int(h) for h in items], dtype=np.uint64)
        arr = arr.ravel()
    if arr.dtype.kind == "i" and arr.size and arr.min() < 0:
        i = int(np.argmax(arr < 0))
        raise ArgumentError(f"heap sizes must be non-negative: heap at index {i} is {int(arr[i])}")
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
    return int(_core.nim_sum(heap_array(heaps, any_shape=True)))


__all__ = ["heap_array", "nim_sum"]
