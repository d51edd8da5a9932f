"""The component protocol of :class:`~grundy.Position`: what a kind of game implements to be played.

A :class:`~grundy.Position` is a sequence of *component runs* (:class:`Components`), each a run of
components of one game (heaps of a heap game, vertices of a graph, states, ...). Every game that can
be a component implements one method, ``game._components(items) -> Components``, and returns an
object that implements :class:`Components`. The position knows nothing else about its games: a new
kind of game plugs in by writing one such class beside it (see ``grundy/games/``).
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Hashable, Iterator, Sequence
from typing import Any, Protocol

import numpy as np

from ..exceptions import ArgumentTypeError, SearchLimitError
from .move import Move

__all__ = ["Components", "Work", "components_of", "indices", "listed", "misere_nim_is_p"]

#: Candidates examined per call into the core while iterating (keeps Ctrl-C responsive).
_SLICE = 1 << 20

#: A Python-level candidate counts this many times toward a :class:`Work` limit.
PY_WEIGHT = 100


class Work:
    """Candidates a search may still examine; ValueError once they run out.

    Parameters
    ----------
    limit : float
        How many candidates may be examined (``float("inf")`` for no limit).
    what : str
        What is being listed, for the error message (``"moves"``, ``"winning moves"``).

    Examples
    --------
    >>> w = Work(10, "moves"); w.spend(4); w.left
    6
    """

    def __init__(self, limit: float, what: str) -> None:
        self.left = limit
        self.limit = limit
        self.what = what

    def spend(self, n: float) -> None:
        """Count ``n`` candidates; raise SearchLimitError (a ValueError) once the limit is passed."""
        self.left -= n
        if self.left < 0:
            raise SearchLimitError(
                f"listing {self.what} examined more than MAX_SEARCH_WORK = {self.limit:.0e} candidate options "
                f"and stopped; iterate lazily with iter_{self.what.replace(' ', '_')}() or take one winning "
                "move with winning_move()",
                limit=int(self.limit),
            )

    def slice(self) -> int:
        """How many candidates the next call into the core may examine."""
        return int(min(_SLICE, max(self.left, 1)))


class Components(Protocol):
    """The contract of a run of components of one game inside a :class:`~grundy.Position`.

    ``game._components(items)`` builds one from the items a user gave (heap sizes, vertex labels,
    states), validating them. A run is immutable. ``start`` below is the index of the run's first
    component in the whole sum, so that moves name their component by its index there.
    """

    game: Any

    def __len__(self) -> int:
        """The number of components."""
        ...

    def item(self, i: int) -> Hashable:
        """The ``i``-th component as the user sees it (a heap size, a vertex label, ...)."""
        ...

    def items(self) -> list[Any]:
        """Every component, in order."""
        ...

    def values(self) -> np.ndarray:
        """The components' Grundy values, a ``uint64`` array."""
        ...

    def same_game(self, other: Components) -> bool:
        """Whether ``other`` holds components of the same game (so the two can merge)."""
        ...

    def generalized(self) -> list[Any] | None:
        """The components' generalized values (ints or ``Infinity``) when the game is loopy, else None."""
        ...

    def merge(self, other: Components) -> Components:
        """Return this run followed by ``other`` (of the same game)."""
        ...

    def moves(self, start: int, work: Work) -> Iterator[Move]:
        """Every move of every component, component by component."""
        ...

    def winning(self, start: int, x: int, work: Work) -> Iterator[Move]:
        """The moves of components ``c`` to options worth ``G(c) ^ x`` (x is the sum's nim-sum)."""
        ...

    def play(self, i: int, move: Move) -> Components:
        """The run with component ``i`` replaced as ``move`` says; ValueError if it is no option."""
        ...

    def nim_heaps(self) -> np.ndarray | None:
        """The heaps as a ``uint64`` array when the game is Nim (misère Nim has an exact rule), else None."""
        ...

    def nim_after(self, h: int) -> tuple[Any, ...]:
        """What a Nim move to a heap of ``h`` leaves (only called when :meth:`nim_heaps` is not None)."""
        ...

    def misere_p(self, limit: int) -> bool | None:
        """Whether this run alone is a misère P-position, when the game decides that itself; else None."""
        ...

    def misere_winning(self, start: int) -> Iterator[Move] | None:
        """Return the misère winning moves when the run is the whole sum and plays misère itself, else None."""
        ...

    def misere_root(self, limit: int) -> tuple[Any, list[int]]:
        """The core's view of the game for the exhaustive misère search and the components' ids there."""
        ...

    def misere_after(self, i: int, after: Sequence[int]) -> tuple[Any, ...]:
        """A move found by the misère search (ids in the core's view), as :attr:`Move.after`."""
        ...

    def row_outcomes(self, rows: np.ndarray, misere: bool, limit: int) -> np.ndarray:
        """Whether each row of a 2-d ``uint64`` array, a sum of this game's items, is a P-position."""
        ...

    def misere_hint(self) -> str | None:
        """A faster way to misère play of a sum of these components alone, when the search gives up."""
        ...

    def label(self) -> str:
        """The game's name in a position's repr."""
        ...


def indices(mask: np.ndarray) -> Iterator[int]:
    """Yield the indices where ``mask`` is True, converted a chunk at a time.

    Taking the first costs no more than one chunk.

    Examples
    --------
    >>> list(indices(np.array([False, True, True])))
    [1, 2]
    """
    idx = np.flatnonzero(mask)
    for k in range(0, idx.size, 4096):
        yield from idx[k : k + 4096].tolist()


def misere_nim_is_p(rows: np.ndarray) -> np.ndarray:
    """Misère Nim: whether each row of heaps is a P-position (one rule for sums and for rows).

    A row is P when all its heaps are at most 1 and the number of 1-heaps is odd, or when some heap
    is larger than 1 and the nim-sum is 0.

    Examples
    --------
    >>> misere_nim_is_p(np.array([[1, 1, 1], [1, 1, 0], [2, 2, 0]], dtype=np.uint64)).tolist()
    [True, False, True]
    """
    big = np.any(rows > 1, axis=1)
    odd_ones = np.count_nonzero(rows == 1, axis=1) % 2 == 1
    out: np.ndarray = np.where(big, np.bitwise_xor.reduce(rows, axis=1) == 0, odd_ones)
    return out


def components_of(game: Any, items: Any) -> Components:
    """The components a game makes of ``items`` (its one method of the protocol); TypeError for a non-game."""
    make = getattr(game, "_components", None)
    if make is None:
        raise ArgumentTypeError(
            f"a position is made of a heap game (TakeAndBreak, Subtraction, HeapGame) or a GameGraph, "
            f"not {type(game).__name__}"
        )
    run: Components = make(items)
    return run


def listed(found: Iterator[Move], limit: int, what: str) -> list[Move]:
    """At most ``limit`` moves from ``found`` as a list; SearchLimitError when there are more."""
    out = list(itertools.islice(found, min(limit, sys.maxsize - 1) + 1))
    if len(out) > limit:
        raise SearchLimitError(
            f"this position has more than limit={limit} {what}; iterate over them with "
            f"iter_{what.replace(' ', '_')}() or take one with winning_move()",
            limit=limit,
        )
    return out
