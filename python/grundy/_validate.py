"""Argument checks shared by the public API: every bad input becomes a clear Python exception."""

from __future__ import annotations

import operator
from typing import Any

#: Heap sizes and counts are unsigned 64-bit in the core.
MAX_U64 = 2**64 - 1


def as_count(n: Any, name: str = "n") -> int:
    """``n`` as a non-negative int: TypeError for non-integers, ValueError for negatives.

    >>> as_count(5)
    5
    """
    if isinstance(n, bool):
        raise TypeError(f"{name} must be an integer, not bool")
    try:
        k: int = operator.index(n)
    except TypeError:
        raise TypeError(f"{name} must be an integer, not {type(n).__name__} ({n!r})") from None
    if k < 0:
        raise ValueError(f"{name} must be non-negative, got {k}")
    return k


def as_heap(h: Any, name: str = "heap") -> int:
    """A heap size: a non-negative integer below 2**64."""
    k = as_count(h, name)
    if k > MAX_U64:
        raise ValueError(f"{name} must be below 2**64, got {k}")
    return k
