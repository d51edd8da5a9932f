"""States of a StateGame or TwoHeapGame as components of a :class:`~grundy.Position` (the play protocol)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from ...exceptions import ArgumentError, ArgumentTypeError
from ...play.components import PY_WEIGHT, Components, Work
from ...play.move import Move

__all__ = ["StateComponents"]


class StateComponents:
    """States of a game whose positions are arbitrary hashable states (see :class:`~grundy.play.components.Components`).

    The game (a :class:`~grundy.StateGame` or a :class:`~grundy.TwoHeapGame`) provides ``value(state)``,
    ``_moves(state)`` (pairs ``(option, parts)``: what ``options`` returned and the canonical
    components it splits into), ``_misere_sum_p(states, limit)`` and ``_name()``. A move's ``after``
    is the tuple of parts, which replace the state in the sum.

    Parameters
    ----------
    game : StateGame or TwoHeapGame
        The game.
    states : list
        The states, one per component.

    Examples
    --------
    >>> import grundy as gr
    >>> nim = gr.StateGame(lambda n: range(n))
    >>> nim._components([3, 5]).values().tolist()
    [3, 5]
    """

    __slots__ = ("game", "states")

    def __init__(self, game: Any, states: list[Hashable]) -> None:
        self.game = game
        self.states = states

    @classmethod
    def of(cls, game: Any, states: Any) -> StateComponents:
        """Validate states (an iterable of hashable values) into a run."""
        if isinstance(states, (str, bytes)) or not isinstance(states, Iterable):
            raise ArgumentTypeError(
                "the states of a position must be an iterable of "
                f"states, not {type(states).__name__}"
            )
        out = list(states)
        for s in out:
            try:
                hash(s)
            except TypeError:
                raise ArgumentTypeError(f"a state must be hashable, not {type(s).__name__} ({s!r})") from None
        return cls(game, out)

    def __len__(self) -> int:
        """Return the number of states."""
        return len(self.states)

    def item(self, i: int) -> Hashable:
        """Return state ``i``."""
        return self.states[i]

    def items(self) -> list[Any]:
        """Return the states."""
        return list(self.states)

    def values(self) -> np.ndarray:
        """Return the states' Grundy values, ``uint64`` (ValueError for an infinite generalized value)."""
        values = [self.game.value(s) for s in self.states]
        for s, v in zip(self.states, values, strict=True):
            if not isinstance(v, (int, np.integer)):
                raise ArgumentError(f"state {s!r} of {self.label()} has the infinite generalized value {v!r}")
        return np.array(values, dtype=np.uint64)

    def same_game(self, other: Components) -> bool:
        """Whether ``other`` holds states of this very game."""
        return isinstance(other, StateComponents) and other.game is self.game

    def generalized(self) -> list[Any] | None:
        """Return the states' generalized values for a loopy game (``loopy=True``), else None."""
        if not getattr(self.game, "loopy", False):
            return None
        return list(self.game.values(self.states).tolist())

    def merge(self, other: Components) -> StateComponents:
        """Return this run's states followed by ``other``'s."""
        assert isinstance(other, StateComponents)
        return StateComponents(self.game, self.states + other.states)

    def _parts_value(self, parts: tuple[Any, ...]) -> int:
        v = 0
        for p in parts:
            v ^= int(self.game.value(p))
        return v

    def _afters(self, s: Hashable) -> list[tuple[Any, ...]]:
        """The distinct sums of parts the options of ``s`` leave (as multisets), in the order options gives them."""
        seen: dict[frozenset[tuple[Any, int]], tuple[Any, ...]] = {}
        for _, parts in self.game._moves(s):
            seen.setdefault(frozenset(Counter(parts).items()), tuple(parts))
        return list(seen.values())

    def moves(self, start: int, work: Work) -> Iterator[Move]:
        """Yield every move, state by state (options leaving the same parts count once)."""
        for i, s in enumerate(self.states):
            for after in self._afters(s):
                yield Move(start + i, s, after)
            work.spend(PY_WEIGHT)

    def winning(self, start: int, x: int, work: Work) -> Iterator[Move]:
        """Yield the moves of states ``s`` to options worth ``G(s) ^ x``."""
        for i, s in enumerate(self.states):
            target = int(self.game.value(s)) ^ x
            for after in self._afters(s):
                if self._parts_value(after) == target:
                    yield Move(start + i, s, after)
            work.spend(PY_WEIGHT)

    def play(self, i: int, move: Move) -> StateComponents:
        """Return the run with state ``i`` replaced by the parts ``move.after``."""
        before = self.item(i)
        if move.before != before:
            raise ArgumentError(f"{move!r} does not belong to this position: component {move.component} is {before!r}")
        if not any(tuple(parts) == move.after for _, parts in self.game._moves(before)):
            raise ArgumentError(
                f"{move!r} does not belong to this position: {move.after!r} is not an option of {before!r}"
            )
        return StateComponents(self.game, self.states[:i] + list(move.after) + self.states[i + 1 :])

    def nim_heaps(self) -> np.ndarray | None:
        """Return None: a state game is not Nim."""
        return None

    def nim_after(self, h: int) -> tuple[Any, ...]:  # pragma: no cover - never Nim
        """Not used: a state game is not Nim."""
        raise AssertionError("a state game is not Nim")

    def misere_p(self, limit: int) -> bool:
        """Whether this run alone, as a sum, is a misère P-position (the game decides)."""
        return bool(self.game._misere_sum_p(self.states, limit))

    def misere_winning(self, start: int) -> Iterator[Move] | None:
        """Return None: the exhaustive misère search finds the moves."""
        return None

    def misere_root(self, limit: int) -> tuple[Any, list[int]]:
        """Refuse: the core's misère search takes heap games and graphs, not state games."""
        raise ArgumentError(
            f"misère play of a sum that mixes {self.label()} with other games is not supported; a sum of "
            f"{self.label()} states alone is (Position(game, states).outcome(misere=True))"
        )

    def misere_after(self, i: int, after: Sequence[int]) -> tuple[Any, ...]:  # pragma: no cover - see misere_root
        """Not used: see :meth:`misere_root`."""
        raise AssertionError("no core misère search for state games")

    def row_outcomes(self, rows: np.ndarray, misere: bool, limit: int) -> np.ndarray:
        """Refuse: rows of integers are heaps or vertex ids, not states."""
        raise ArgumentTypeError(
            "outcomes() takes heap games and game graphs, not "
            f"{self.label()}: use Position instead"
        )

    def misere_hint(self) -> str | None:
        """Return None: no faster way to misère play than the search."""
        return None

    def label(self) -> str:
        """Return the game's name."""
        return str(self.game._name())

