"""A move in one component of a sum of games."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..exceptions import ArgumentError, ArgumentTypeError

__all__ = ["Move"]


@dataclass(frozen=True)
class Move:
    """A move in one component of a sum.

    Parameters
    ----------
    component : int
        The index of the component in the sum.
    before : hashable
        The heap (or graph vertex label, or state) the component holds.
    after : tuple
        What the move leaves there: the tuple of heaps (``()`` when the whole heap is taken), or a
        1-tuple with the new vertex for a graph component. Moves compare and hash by value.

    Examples
    --------
    >>> import grundy as gr
    >>> m = gr.Move(0, 10, (9,))
    >>> m, str(m)
    (Move(component=0, before=10, after=(9,)), 'component 0: 10 -> 9')
    >>> m == gr.Position(gr.nim(), [10, 12, 5]).winning_move()
    True
    """

    component: int
    before: Hashable
    after: tuple[Any, ...]

    def __repr__(self) -> str:
        """Show the move as its constructor call."""
        return f"Move(component={self.component}, before={self.before!r}, after={self.after!r})"

    def __str__(self) -> str:
        """Show the move as ``component c: before -> after``."""
        left = " + ".join(repr(x) for x in self.after) or "nothing"
        return f"component {self.component}: {self.before!r} -> {left}"


def check_parts(after: tuple[Any, ...], move: Move) -> list[int]:
    parts = []
    for p in after:
        if isinstance(p, bool) or not isinstance(p, (int, np.integer)):
            raise ArgumentTypeError(f"{move!r}: the heaps a move leaves must be integers, not {type(p).__name__}")
        if not 0 <= p < 2**64:
            raise ArgumentError(f"{move!r} does not belong to this position: {p} is not a heap size")
        parts.append(int(p))
    return parts
