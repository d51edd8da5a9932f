"""Heaps of one heap game as components of a :class:`~grundy.Position` (the play protocol).

The core lists a heap's options as families (``src/position/family.rs``), which it expands a slice
at a time: a heap of 10**18 has half that many splits, and the first winning one costs no more
than the first slice.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Protocol

import numpy as np

from ... import _core
from ...analysis.quotient_build import cached_quotient
from ...exceptions import ArgumentError
from ...play.components import Components, Work, indices, misere_nim_is_p
from ...play.move import Move, check_parts
from ...play.nimsum import heap_array

#: Options taken from the core per call (a slice of a family).
_TAKE = 4096

__all__ = ["HeapComponents", "HeapRuleGame"]


class HeapRuleGame(Protocol):
    """What heap components ask of their game (all of it is on :class:`~grundy.Game`)."""

    @property
    def is_nim(self) -> bool:
        """Whether the game is Nim."""
        ...

    def _is_option(self, n: int, parts: list[int]) -> bool: ...

    def _nim_after(self, h: int) -> tuple[int, ...]: ...

    def _core_values(self) -> _core.HeapCore: ...

    def _cover(self, top: int) -> None: ...

    def _heap_values(self, heaps: np.ndarray) -> np.ndarray: ...

    def _label(self) -> str: ...

    def _misere_rule(self, top: int, limit: int) -> Any: ...


class HeapComponents:
    """Heaps of one heap game, as a read-only ``uint64`` array (see :class:`~grundy.play.components.Components`).

    Parameters
    ----------
    game : Game
        The heap game.
    heaps : numpy.ndarray
        The heap sizes, a read-only ``uint64`` array.

    Examples
    --------
    >>> import grundy as gr
    >>> b = gr.kayles()._components([4, 5])
    >>> b.values().tolist()
    [1, 4]
    """

    __slots__ = ("game", "heaps", "_values")

    def __init__(self, game: HeapRuleGame, heaps: np.ndarray) -> None:
        self.game = game
        self.heaps = heaps
        self._values: np.ndarray | None = None

    @classmethod
    def of(cls, game: HeapRuleGame, heaps: Any) -> HeapComponents:
        """Validate heap sizes (an iterable, an integer array or one int) into a run."""
        if isinstance(heaps, (int, np.integer)) and not isinstance(heaps, (bool, np.bool_)):
            heaps = [heaps]
        arr = np.array(heap_array(heaps), dtype=np.uint64)  # a private copy
        arr.flags.writeable = False
        return cls(game, arr)

    def __len__(self) -> int:
        """Return the number of heaps."""
        return int(self.heaps.size)

    def item(self, i: int) -> int:
        """Return heap ``i``."""
        return int(self.heaps[i])

    def items(self) -> list[Any]:
        """Return the heaps as a list of ints."""
        return list(self.heaps.tolist())

    def values(self) -> np.ndarray:
        """Return G of every heap, ``uint64``."""
        if self._values is None:
            if self.game.is_nim or not self.heaps.size:
                self._values = self.heaps
            else:
                self._values = self.game._heap_values(self.heaps)
        return self._values

    def same_game(self, other: Components) -> bool:
        """Whether ``other`` holds heaps of an equal game."""
        return isinstance(other, HeapComponents) and other.game == self.game

    def generalized(self) -> list[Any] | None:
        """Return None: heap games have ordinary values."""
        return None

    def merge(self, other: Components) -> HeapComponents:
        """Return this run's heaps followed by ``other``'s."""
        assert isinstance(other, HeapComponents)
        arr = np.concatenate([self.heaps, other.heaps])
        arr.flags.writeable = False
        return HeapComponents(self.game, arr)

    def _options(self, n: int, target: int | None, work: Work) -> Iterator[tuple[int, ...]]:
        """Yield the options of heap ``n`` (those worth ``target`` when given), found by the game's core."""
        core = self.game._core_values()
        cursor: tuple[int, int] | None = (0, 0)
        while cursor is not None:
            fams, cursor, done = core.search(n, target, cursor, work.slice())
            work.spend(done)
            for fam in fams:  # expanded in the core (src/position/family.rs), a slice at a time
                while chunk := fam.take(_TAKE):
                    yield from chunk

    def moves(self, start: int, work: Work) -> Iterator[Move]:
        """Yield every move, heap by heap."""
        for i, h in enumerate(self.heaps.tolist()):
            for after in self._options(h, None, work):
                yield Move(start + i, h, after)

    def winning(self, start: int, x: int, work: Work) -> Iterator[Move]:
        """Yield the moves of heaps ``h`` to options worth ``G(h) ^ x``."""
        heaps = self.heaps
        if self.game.is_nim:
            # Classic Nim: the heaps h with h ^ x < h (those with x's top bit) move to h ^ x.
            target = heaps ^ np.uint64(x)
            for i in indices(target < heaps):
                yield Move(start + i, int(heaps[i]), self.nim_after(int(target[i])))
            return
        targets = self.values() ^ np.uint64(x)  # also makes every smaller heap's value known
        # Which heaps have a winning option at all: in parallel in the core, once per heap size.
        uniq, inverse = np.unique(heaps, return_inverse=True)
        first = np.zeros(uniq.size, dtype=np.intp)
        first[inverse[::-1]] = np.arange(heaps.size)[::-1]
        has = self.game._core_values().has_option(uniq, np.ascontiguousarray(targets[first]))
        for i in indices(has[inverse]):
            h = int(heaps[i])
            for after in self._options(h, int(targets[i]), work):
                yield Move(start + i, h, after)

    def play(self, i: int, move: Move) -> HeapComponents:
        """Return the run with heap ``i`` replaced by the heaps ``move.after``."""
        before = self.item(i)
        if move.before != before or isinstance(move.before, bool):
            raise ArgumentError(f"{move!r} does not belong to this position: component {move.component} is {before!r}")
        parts = check_parts(move.after, move)
        if not self.game._is_option(before, parts):
            raise ArgumentError(
                f"{move!r} does not belong to this position: {move.after!r} is not an option of a heap of "
                f"{before} in {self.label()}"
            )
        arr = np.concatenate([self.heaps[:i], np.asarray(parts, dtype=np.uint64), self.heaps[i + 1 :]])
        arr.flags.writeable = False
        return HeapComponents(self.game, arr)

    def nim_heaps(self) -> np.ndarray | None:
        """Return the heaps when the game is Nim, else None."""
        return self.heaps if self.game.is_nim else None

    def nim_after(self, h: int) -> tuple[Any, ...]:
        """Return what a Nim move to a heap of ``h`` leaves."""
        return self.game._nim_after(h)

    def misere_p(self, limit: int) -> bool | None:
        """Return the misère outcome through the game's misère quotient when one is cached or cheap, else None."""
        q = self._quotient()
        return None if q is None else q.outcome(self.heaps) == "P"

    def misere_winning(self, start: int) -> Iterator[Move] | None:
        """Return the misère winning moves through the game's misère quotient, or None without one."""
        q = self._quotient()
        if q is None:
            return None
        # The quotient finds the winning options once per heap size; every heap of that size has them.
        by_size: dict[int, list[tuple[int, ...]]] = {}
        for m in q.winning_moves(self.heaps):
            by_size.setdefault(int(m.before), []).append(m.after)
        heaps = self.heaps
        return (
            Move(start + i, int(heaps[i]), after)
            for i in indices(np.isin(heaps, np.fromiter(by_size, np.uint64, len(by_size))))
            for after in by_size[int(heaps[i])]
        )

    def _quotient(self) -> Any:
        if self.game.is_nim or not self.heaps.size:
            return None
        top = int(self.heaps.max())
        q = cached_quotient(self.game, top)
        return q if q is not None and q.max_heap >= top else None

    def misere_root(self, limit: int) -> tuple[Any, list[int]]:
        """Return the rule for the misère search (the core tabulates a Python rule's options) and the heaps."""
        top = int(self.heaps.max()) if self.heaps.size else 0
        return self.game._misere_rule(top, limit), list(self.heaps.tolist())

    def misere_after(self, i: int, after: Sequence[int]) -> tuple[Any, ...]:
        """Return the heaps a misère-search move leaves."""
        return tuple(after)

    def row_outcomes(self, rows: np.ndarray, misere: bool, limit: int) -> np.ndarray:
        """Return whether each row of heaps is a P-position (in parallel in the core)."""
        if misere:
            if self.game.is_nim:
                return misere_nim_is_p(rows)
            rule, _ = HeapComponents(self.game, rows.ravel()).misere_root(limit)
            return _core.misere_outcomes([rule], rows, limit)
        if not self.game.is_nim:
            self.game._cover(int(rows.max()))
        return self.game._core_values().outcomes(rows)

    def misere_hint(self) -> str | None:
        """Say how a misère quotient plays sums of these heaps at once (the search's limit was passed)."""
        top = int(self.heaps.max()) if self.heaps.size else 0
        return (
            f"Sums of heaps of {self.game._label()} are played through its misère quotient: "
            f"gr.misere_quotient(game, {top}) computes it (often in well under a second, where the "
            "quotient is small), and Position then uses it for sums of any number of heaps up to that size"
        )

    def label(self) -> str:
        """Return the game's name and code (or constructor)."""
        return self.game._label()
