"""Positions of the board games of :mod:`grundy.games.board`: the cells still free, drawn as a board."""

from __future__ import annotations

from collections.abc import Hashable
from html import escape
from typing import Any

import numpy as np

from ..._ui.display import card
from ..._validate import _short
from ...exceptions import ArgumentError, ArgumentTypeError

__all__ = ["BoardState"]


class BoardState:
    """A position of a :class:`BoardGame`: the cells still free (the vertices still there).

    Immutable and hashable; made by :meth:`BoardGame.state`, :attr:`BoardGame.start` and the
    games' moves. ``str`` draws a board with ``#`` for a blocked cell and ``.`` for a free one.

    Parameters
    ----------
    game : BoardGame
        The game.
    free : int
        The free cells (vertices left) as bits: bit ``r * cols + c`` for cell ``(r, c)``, bit ``i``
        for the ``i``-th vertex label. Checked by the game.

    Examples
    --------
    >>> import grundy as gr
    >>> s = gr.cram(2, 3).state([[1, 0, 0], [0, 0, 0]])
    >>> s, s.value(), len(s.options())
    (BoardState(cram(2, 3), '#..|...'), 0, 5)
    """

    __slots__ = ("game", "free")
    #: The game (a :class:`BoardGame`).
    game: Any
    #: The free cells (vertices left) as bits.
    free: int

    def __init__(self, game: Any, free: int) -> None:
        if not hasattr(game, "_core") or not hasattr(game, "labels"):
            raise ArgumentTypeError(f"a BoardState's game is a BoardGame (gr.cram(...), ...), not {_short(game)}")
        if isinstance(free, bool) or not isinstance(free, (int, np.integer)):
            raise ArgumentTypeError(f"a BoardState's free cells are an int of bits, not {_short(free)}")
        if not 0 <= free < 1 << game.num_cells:
            raise ArgumentError(f"free = {_short(free)} is not a set of the {game.num_cells} cells of {game!r}")
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "free", int(game._core.check(int(free))))

    @classmethod
    def _of(cls, game: Any, free: int) -> BoardState:
        """A position the game itself made (not checked again)."""
        s = cls.__new__(cls)
        object.__setattr__(s, "game", game)
        object.__setattr__(s, "free", free)
        return s

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a BoardState is immutable (game.state makes others)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a BoardState is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (and ``copy``) as the game and the free cells, checked again when read."""
        return (BoardState, (self.game, self.free))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BoardState) and self.free == other.free and self.game == other.game

    def __hash__(self) -> int:
        return hash((self.free, self.game))

    @property
    def blocked(self) -> np.ndarray:
        """The blocked cells as a bool array of the board's shape (a grid graph's removed vertices).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.cram(1, 3).state([[0, 1, 0]]).blocked.tolist()
        [[False, True, False]]
        """
        shape = self.game.shape if self.game.shape is not None else (self.game.num_cells,)
        bits = np.array([not (self.free >> i) & 1 for i in range(self.game.num_cells)], dtype=bool)
        return bits.reshape(shape)

    @property
    def removed(self) -> list[Hashable]:
        """The labels of the blocked cells (removed vertices), cells as ``(row, col)``.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.node_kayles({"a": ["b"], "b": ["c"]}).state(["b"]).removed
        ['b']
        """
        return [x for i, x in enumerate(self.game.labels) if not (self.free >> i) & 1]

    def value(self, *, threads: int | None = None) -> int:
        """The position's Grundy value (see :meth:`BoardGame.value`).

        Parameters
        ----------
        threads : int, optional
            The most threads used (default: every core); see :meth:`BoardGame.value`.

        Returns
        -------
        int
            G of this position.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.cram(3, 3).start.value()
        0
        """
        return int(self.game.value(self, threads=threads))

    def options(self) -> list[BoardState]:
        """The positions one move can reach (see :meth:`BoardGame.options`).

        Returns
        -------
        list of BoardState
            The options, in the board's order.

        Examples
        --------
        >>> import grundy as gr
        >>> len(gr.cram(2, 2).start.options())
        4
        """
        return list(self.game.options(self))

    def _rows(self) -> list[str]:
        assert self.game.shape is not None
        rows, cols = self.game.shape
        return ["".join("." if (self.free >> (r * cols + c)) & 1 else "#" for c in range(cols)) for r in range(rows)]

    def __str__(self) -> str:
        """Draw the board (``#`` blocked, ``.`` free), or list the vertices left."""
        if self.game.shape is None:
            return "{" + ", ".join(repr(x) for x in self.game.labels if (self.free >> self.game._index[x]) & 1) + "}"
        return "\n".join(self._rows())

    def __repr__(self) -> str:
        if self.game.shape is None:
            return f"BoardState({self.game!r}, removed={self.removed!r})"
        return f"BoardState({self.game!r}, {'|'.join(self._rows())!r})"

    def _picture_html(self) -> str:
        assert self.game.shape is not None
        cell = "width:14px;height:14px;border:1px solid rgba(128,128,128,.6);padding:0"
        shade = {".": "", "#": ";background:rgba(60,60,60,.75)"}
        body = "".join(
            "<tr>" + "".join(f'<td style="{cell}{shade[ch]}"></td>' for ch in row) + "</tr>" for row in self._rows()
        )
        return f'<table style="border-collapse:collapse;margin:0">{body}</table>'

    def _repr_html_(self) -> str:
        """Draw the board (notebook display)."""
        shown = self._picture_html() if self.game.shape is not None else escape(str(self))
        return card(f"{self.game._name()} position", [("board", shown)])
