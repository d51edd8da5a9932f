"""Argument checks shared by the public API: every bad input becomes a clear Python exception.

Each check raises a :class:`~grundy.GrundyError` that is also the builtin a caller catches:
:class:`~grundy.ArgumentTypeError` (TypeError), :class:`~grundy.ArgumentError` (ValueError) and
:class:`~grundy.TooLargeError` (ValueError and OverflowError).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from .exceptions import ArgumentError, ArgumentTypeError, TooLargeError

#: Heap sizes and counts are unsigned 64-bit in the core.
MAX_U64 = 2**64 - 1


def as_count(n: Any, name: str = "n") -> int:
    """``n`` as a non-negative int: ArgumentTypeError for non-integers, ArgumentError for negatives.

    >>> as_count(5)
    5
    """
    if isinstance(n, bool):
        raise ArgumentTypeError(f"{name} must be an integer, not bool")
    try:
        k: int = operator.index(n)
    except TypeError:
        raise ArgumentTypeError(f"{name} must be an integer, not {type(n).__name__} ({_short(n)})") from None
    if k < 0:
        raise ArgumentError(f"{name} must be non-negative, got {_short(k)}")
    return k


def as_heap(h: Any, name: str = "heap") -> int:
    """A heap size: a non-negative integer below 2**64 (TooLargeError above)."""
    k = as_count(h, name)
    if k > MAX_U64:
        raise TooLargeError(f"{name} must be below 2**64, got {_short(k)}")
    return k


def _short(x: Any, limit: int = 80) -> str:
    """``repr(x)``, cut to ``limit`` characters (a message must stay readable)."""
    try:
        r = repr(x)
    except Exception:  # noqa: BLE001 - a broken __repr__ must not hide the real error
        r = f"<{type(x).__name__}>"
    return r if len(r) <= limit else f"{r[: limit - 3]}..."


def as_limit(n: Any, name: str) -> int:
    """A limit (``max_positions``, ``limit``): a non-negative integer, capped at 2**64 - 1.

    No search reaches 2**64 positions, so a larger limit means the same as that one.

    >>> as_limit(2**70, "max_positions") == MAX_U64
    True
    """
    return min(as_count(n, name), MAX_U64)


def as_flag(x: Any, name: str) -> bool:
    """A bool argument (``misere``, ``unbounded``): True or False, not 0, 1 or None.

    >>> as_flag(True, "misere")
    True
    """
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    raise ArgumentTypeError(f"{name} must be True or False, not {_short(x)}")


def as_name(name: Any) -> str | None:
    """A display name: a str or None.

    >>> as_name("Kayles")
    'Kayles'
    """
    if name is not None and not isinstance(name, str):
        raise ArgumentTypeError(f"name must be a string, not {type(name).__name__}")
    return name
