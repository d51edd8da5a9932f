"""Positions of a board game (:mod:`grundy.games.board`) as components of a :class:`~grundy.Position`.

A move replaces one board by one of its options (``Move.after`` is a 1-tuple holding the new
:class:`~grundy.BoardState`). Winning moves come from the core's search: the options of a board
worth ``G(board) ^ X``, where ``X`` is the nim-sum of the whole sum (a P-position test when that
is 0). Misère play goes to the core's one exhaustive misère search, with the regions reachable
from the boards tabulated (so boards mix with heaps and graphs in a misère sum too).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Any

import numpy as np

from ... import _core
from ...exceptions import ArgumentError, ArgumentTypeError, SearchLimitError
from ...play.components import Components, Work
from ...play.move import Move

__all__ = ["BoardComponents"]


class BoardComponents:
    """Boards of one :class:`~grundy.BoardGame` (see :class:`~grundy.play.components.Components`).

    Parameters
    ----------
    game : BoardGame
        The game.
    states : list of BoardState
        The boards, one per component (checked by the game).

    Examples
    --------
    >>> import grundy as gr
    >>> g = gr.cram(2, 2)
    >>> g._components([g.start, g.state([[1, 0], [0, 0]])]).values().tolist()
    [0, 1]
    """

    __slots__ = ("game", "states", "_ids")

    def __init__(self, game: Any, states: list[Any]) -> None:
        self.game = game
        self.states = states
        self._ids: list[int] = []  # the keys of the last misère table's entries, by id

    def __len__(self) -> int:
        """Return the number of boards."""
        return len(self.states)

    def item(self, i: int) -> Hashable:
        """Return board ``i``."""
        state: Hashable = self.states[i]
        return state

    def items(self) -> list[Any]:
        """Return the boards."""
        return list(self.states)

    def values(self) -> np.ndarray:
        """Return the boards' Grundy values, ``uint64``."""
        return np.array([self.game.value(s) for s in self.states], dtype=np.uint64)

    def same_game(self, other: Components) -> bool:
        """Whether ``other`` holds boards of an equal game."""
        return isinstance(other, BoardComponents) and other.game == self.game

    def generalized(self) -> list[Any] | None:
        """Return None: board games end, their values are ordinary."""
        return None

    def merge(self, other: Components) -> BoardComponents:
        """Return this run's boards followed by ``other``'s."""
        assert isinstance(other, BoardComponents)
        return BoardComponents(self.game, self.states + other.states)

    def moves(self, start: int, work: Work) -> Iterator[Move]:
        """Yield every move, board by board."""
        for i, s in enumerate(self.states):
            opts = self.game.options(s)
            work.spend(len(opts))
            for o in opts:
                yield Move(start + i, s, (o,))

    def winning(self, start: int, x: int, work: Work) -> Iterator[Move]:
        """Yield the moves of boards ``b`` to options worth ``G(b) ^ x``."""
        for i, s in enumerate(self.states):
            target = self.game.value(s) ^ x
            found = self.game.winning_options(s, target)
            work.spend(len(found) + 1)
            for o in found:
                yield Move(start + i, s, (o,))

    def play(self, i: int, move: Move) -> BoardComponents:
        """Return the run with board ``i`` replaced by the option ``move.after[0]``."""
        before = self.states[i]
        if move.before != before:
            raise ArgumentError(f"{move!r} does not belong to this position: component {move.component} is {before!r}")
        if len(move.after) != 1 or move.after[0] not in self.game.options(before):
            raise ArgumentError(
                f"{move!r} does not belong to this position: {move.after!r} is not an option of {before!r}"
            )
        return BoardComponents(self.game, self.states[:i] + [move.after[0]] + self.states[i + 1 :])

    def nim_heaps(self) -> np.ndarray | None:
        """Return None: a board game is not Nim."""
        return None

    def nim_after(self, h: int) -> tuple[Any, ...]:  # pragma: no cover - never Nim
        """Not used: a board game is not Nim."""
        raise AssertionError("a board game is not Nim")

    def misere_p(self, limit: int) -> bool | None:
        """Return None: the core's exhaustive misère search decides (see :meth:`misere_root`)."""
        return None

    def misere_winning(self, start: int) -> Iterator[Move] | None:
        """Return None: the core's exhaustive misère search finds the moves."""
        return None

    def misere_root(self, limit: int) -> tuple[Any, list[int]]:
        """Tabulate the boards' regions for the core's misère search: an option table and the boards' ids.

        The core lists the boards themselves and every region reachable from them, one entry per shape
        (regions that are the same game up to the board's symmetries, or isomorphism on a graph, share
        one), ordered by their number of cells (a move only removes cells, so each option's regions come
        first); an option of an entry is the list of its regions. SearchLimitError when there are more
        than ``limit`` entries.
        """
        try:
            opt_start, part_start, parts, keys, roots = self.game._core.regions([s.free for s in self.states], limit)
        except SearchLimitError as e:
            cells = max(s.free.bit_count() for s in self.states)
            raise SearchLimitError(
                f"{e}; boards of {cells} free cells of {self.label()} are past reach at this limit (Cram 5 x 6, "
                "30 cells, lists 246,348 shapes; 5 x 7 and 6 x 6 about 3 million): try smaller boards or "
                "raise max_positions",
                e.limit,
            ) from None
        self._ids = keys
        u = np.uint64
        table = _core.OptionTable(np.array(opt_start, u), np.array(part_start, u), np.array(parts, u))
        return table, list(roots)

    def misere_after(self, i: int, after: Sequence[int]) -> tuple[Any, ...]:
        """The board a misère-search move of board ``i`` leaves (the search names the option's regions by entry)."""
        want = sorted(self._ids[k] for k in after)
        s = self.states[i]
        core = self.game._core
        found = next(o for o in core.options(s.free) if sorted(core.key(c) for c in core.components(o)) == want)
        return (type(s)._of(self.game, found),)

    def row_outcomes(self, rows: np.ndarray, misere: bool, limit: int) -> np.ndarray:
        """Refuse: rows of integers are heaps or vertex ids, not boards."""
        raise ArgumentTypeError(
            f"outcomes() takes heap games and game graphs, not {self.label()}: use Position instead"
        )

    def misere_hint(self) -> str | None:
        """Return None: no faster way to misère play than the search."""
        return None

    def label(self) -> str:
        """Return the game's repr."""
        return repr(self.game)
