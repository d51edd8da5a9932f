"""Outcomes of many sums at once, and equivalence of positions."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..exceptions import ArgumentError, ArgumentTypeError
from .components import components_of
from .position import Position, _play_args
from .values import sum_value

__all__ = ["equivalent", "outcomes"]


def equivalent(a: Position, b: Position) -> bool:
    """Say whether two positions are equivalent (interchangeable in any sum).

    That holds exactly when their sum is a P-position (equal Grundy values).

    Parameters
    ----------
    a, b : Position
        The positions.

    Returns
    -------
    bool
        True when equivalent.

    Raises
    ------
    TypeError
        When ``a`` or ``b`` is not a :class:`Position`.
    ValueError
        When a component has an infinite generalized value (equivalence is defined here for finite
        values only).

    Examples
    --------
    >>> import grundy as gr
    >>> gr.equivalent(gr.Position(gr.kayles(), [4]), gr.Position(gr.nim(), [1]))
    True
    """
    if not isinstance(a, Position) or not isinstance(b, Position):
        raise ArgumentTypeError(
            f"equivalent() compares two Positions, not {type(a).__name__} and {type(b).__name__}"
        )
    loopy = (a + b)._loopy()
    if loopy is not None:
        if sum_value(loopy) is None or any(not isinstance(v, int) for v in loopy):
            raise ArgumentError("equivalence is defined here for finite values only: a component has an infinite value")
        return sum_value(loopy) == 0
    return (a + b).grundy == 0


def outcomes(
    game: Any, heaps: Any, misere: bool = False, *, max_positions: int | None = None
) -> np.ndarray:
    """Say whether each row of a 2-d integer array, a sum of heaps of ``game``, is a P-position.

    Rows are evaluated in parallel in the core; heaps beyond the computed values go through the game's
    proven period. Pad rows of different lengths with 0 (a heap of 0 has no move).

    Parameters
    ----------
    game : Game or GameGraph
        The game of every heap (for a GameGraph the entries are vertex ids).
    heaps : array_like
        A 2-d array of non-negative integers below 2**64, one sum per row.
    misere : bool, default False
        Misère play: Nim by its exact rule, other games by exhaustive search (see
        :meth:`Position.outcome`).
    max_positions : int, optional
        For the misère search: the most distinct positions examined per row.

    Returns
    -------
    numpy.ndarray
        One ``bool`` per row, True for P (the player to move loses) and False for N;
        ``np.where(r, "P", "N")`` gives letters.

    Raises
    ------
    TypeError
        When ``game`` cannot be a component or the entries are not integers.
    ValueError
        When ``heaps`` is not 2-d, or an entry is negative or not below 2**64.
    NoPeriodError
        For a heap too large to compute directly in a game with no proven period (a ValueError).
    SearchLimitError
        When the misère search meets more than ``max_positions`` positions (a ValueError).

    Examples
    --------
    >>> import numpy as np, grundy as gr
    >>> gr.outcomes(gr.nim(), np.array([[10, 12, 5], [9, 12, 5]]))
    array([False,  True])
    >>> gr.outcomes(gr.kayles(), [[10**18, 1], [4, 1]])
    array([ True,  True])
    """
    misere, top = _play_args(misere, max_positions)
    arr = _rows(heaps)
    rows, width = arr.shape
    if width == 0 or rows == 0:  # empty sums: no move, so P (normal) or N (misère)
        return np.full(rows, not misere)
    run = components_of(game, [])
    return run.row_outcomes(arr, misere, top)


def _rows(heaps: Any) -> np.ndarray:
    """A C-contiguous 2-d uint64 array of heap sizes, with clear errors for anything else."""
    arr = heaps if isinstance(heaps, np.ndarray) else np.asarray(heaps)
    if arr.ndim != 2:
        raise ArgumentError(
            f"heaps must be a 2-d array with one sum of heaps per row, got {arr.ndim} dimension(s) "
            "(use arr.reshape(1, -1) for a single sum)"
        )
    if arr.dtype == np.bool_ or arr.dtype.kind not in "iu":
        if arr.dtype == object:
            flat = arr.ravel().tolist()
            missing = object()
            bad = next((x for x in flat if isinstance(x, bool) or not isinstance(x, int)), missing)
            if bad is missing:
                bad = next(x for x in flat if not 0 <= x < 2**64)
                raise ArgumentError(f"heap sizes must be non-negative and below 2**64, got {bad}")
            raise ArgumentTypeError(f"heap sizes must be integers, not {type(bad).__name__} ({bad!r})")
        raise ArgumentTypeError(f"heap sizes must be integers, not {arr.dtype}")
    if arr.dtype.kind == "i" and arr.size and int(arr.min()) < 0:
        r, c = np.argwhere(arr < 0)[0]
        raise ArgumentError(f"heap sizes must be non-negative: row {r}, column {c} is {int(arr[r, c])}")
    return np.ascontiguousarray(arr, dtype=np.uint64)
