"""Grids of values for games whose states are pairs of integers, and their pictures.

:class:`GridGame` is the part :class:`~grundy.StateGame` and :class:`~grundy.TwoHeapGame` share:
``grid(rows, cols, state=None)`` (a 2-d numpy array of values), ``plot_grid`` (a heatmap with the
P-positions marked) and the HTML card a notebook shows.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from html import escape
from typing import Any

import numpy as np

from ... import _core
from ..._ui.display import card
from ..._ui.plot import _pyplot
from ..._validate import MAX_U64, as_heap
from ...exceptions import ArgumentTypeError
from ...play.values import Infinity
from .components import StateComponents

#: Cells of the corner of the grid an HTML card shows.
CARD_CELLS = 8


def grid_size(rows: Any, cols: Any, cell_bytes: int = 4) -> tuple[int, int]:
    """``(rows, cols)`` checked: non-negative integers below 2**64, whose cells fit in memory.

    Each of the ``rows * cols`` cells costs ``cell_bytes`` bytes; a grid that cannot fit raises
    MemoryLimitError with the estimate, before anything is allocated.

    >>> grid_size(3, 4)
    (3, 4)
    """
    r, c = as_heap(rows, "rows"), as_heap(cols, "cols")
    _core.check_memory(min(r * c * cell_bytes, MAX_U64))
    return r, c


class GridGame:
    """What a game with values over pairs ``(i, j)`` gets: grids, pictures and a notebook card.

    Subclasses define ``values(states)`` and may override :meth:`_grid` with a faster one.
    """

    #: Bytes a cell of a grid costs while it is built (a Python state per cell; the two-heap core
    #: needs only the values and checks the rest itself).
    _CELL_BYTES = 128

    #: The game's name, shown in reprs and plots.
    name: str | None
    #: The keyword arguments the game was made with: what pickle builds it again from.
    _made: dict[str, Any]

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (and ``copy.deepcopy``) by the rule (functions by their names); what was computed stays behind."""
        return (functools.partial(type(self), **self._made), (), {"name": self.name})

    def _rule(self) -> dict[str, Any]:
        """Refuse to be written as data (:func:`grundy.save`), saying why."""
        fn = self._made.get("options")
        if fn is None:
            raise ArgumentTypeError(
                f"gr.save does not save {type(self).__name__}s yet: pickle the game, or save grid(...) with numpy.save"
            )
        raise ArgumentTypeError(
            f"a {type(self).__name__}'s rule is the Python function {getattr(fn, '__qualname__', fn)!s}, which no file "
            "can hold (gr.save writes rules as data, to be read by any process and version): pickle the game (its "
            "functions travel by name), or save its values with numpy.save"
        )

    def values(self, states: Any) -> np.ndarray:  # pragma: no cover - defined by subclasses
        """The values of ``states``, as an array (each subclass computes them its own way)."""
        raise NotImplementedError

    def _components(self, states: Any) -> StateComponents:
        """States of this game as components of a :class:`~grundy.Position`."""
        return StateComponents.of(self, states)

    def _grid(self, rows: int, cols: int) -> np.ndarray:
        cells = [(i, j) for i in range(rows) for j in range(cols)]
        return np.asarray(self.values(cells)).reshape(rows, cols)

    def grid(self, rows: int, cols: int, state: Callable[[int, int], Hashable] | None = None) -> np.ndarray:
        """Return the values of the cells ``i < rows``, ``j < cols`` as a 2-d numpy array.

        The state of cell ``(i, j)`` is ``(i, j)``, or ``state(i, j)`` when given.

        Parameters
        ----------
        rows, cols : int
            The grid's size (non-negative).
        state : callable, optional
            Maps a cell ``(i, j)`` to the state whose value it shows.

        Returns
        -------
        numpy.ndarray
            ``(rows, cols)`` values.

        Raises
        ------
        TypeError
            When a size is not an integer, or ``state`` is not callable.
        ValueError
            When a size is negative or not below 2**64 (ArgumentError, TooLargeError).
        MemoryError
            When the grid cannot fit in memory (MemoryLimitError, raised before it is built).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.wythoff().grid(3, 3).tolist()
        [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
        >>> gr.wythoff().grid(2, 2, state=lambda i, j: (2 * i, j)).tolist()
        [[0, 1], [2, 0]]
        """
        rows, cols = grid_size(rows, cols, self._CELL_BYTES if state is None else GridGame._CELL_BYTES)
        if state is None:
            return self._grid(rows, cols)
        if not callable(state):
            raise ArgumentTypeError(f"state must be a function state(i, j), not {type(state).__name__}")
        cells = [state(i, j) for i in range(rows) for j in range(cols)]
        return np.asarray(self.values(cells)).reshape(rows, cols)

    def plot_grid(self, rows: int, cols: int, ax: Any = None, *, state: Any = None, cmap: str = "viridis") -> Any:
        """Draw the grid of values as a heatmap with the P-positions (value 0) marked.

        Row ``i`` is drawn top to bottom, column ``j`` left to right (``pip install grundy[plot]``).
        In a loopy game the cells of infinite value are left blank, and the draws among them are
        marked with a cross.

        Parameters
        ----------
        rows, cols : int
            The grid's size, as for :meth:`grid`.
        ax : matplotlib.axes.Axes, optional
            Draw into this Axes (default: a new figure).
        state : callable, optional
            As for :meth:`grid`.
        cmap : str, default "viridis"
            A matplotlib colormap name.

        Returns
        -------
        matplotlib.axes.Axes
            The Axes drawn into.

        Raises
        ------
        ImportError
            When matplotlib is not installed.
        TypeError
            As :meth:`grid` raises them.
        ValueError
            As :meth:`grid` raises them.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import grundy as gr
        >>> ax = gr.wythoff().plot_grid(20, 20)
        >>> ax.get_title()
        'Wythoff: G(i, j), P-positions marked'
        >>> def moves(p):  # move one coordinate down by 1 or 2, or (below 4) up by 1
        ...     i, j = p
        ...     return [(i - k, j) for k in (1, 2) if k <= i] + [(i, j - k) for k in (1, 2) if k <= j] + (
        ...         [(i + 1, j)] if 1 <= i < 4 else [])
        >>> gr.StateGame(moves, loopy=True, name="rook").plot_grid(6, 6).get_title()
        'rook: G(i, j), P-positions and draws marked'
        """
        plt = _pyplot()
        g = self.grid(rows, cols, state=state)
        if ax is None:
            _, ax = plt.subplots(figsize=(6, 5))
        size = max(2.0, 400.0 / max(rows, cols, 1))
        loopy = g.dtype == object  # a loopy StateGame: Infinity among the values
        if loopy:
            # The cells of infinite value are left blank; the draws among them get a cross.
            finite = np.vectorize(lambda v: not isinstance(v, Infinity), otypes=[bool])(g)
            shown = np.ma.masked_array(np.where(finite, g, 0).astype(float), mask=~finite)
            im = ax.imshow(shown, cmap=cmap, origin="upper", interpolation="nearest")
            ax.figure.colorbar(im, ax=ax, label="generalized value (finite)")
            pi, pj = np.nonzero(finite & (np.where(finite, g, 1) == 0))
        else:
            im = ax.imshow(g, cmap=cmap, origin="upper", interpolation="nearest")
            ax.figure.colorbar(im, ax=ax, label="Grundy value")
            pi, pj = np.nonzero(g == 0)
        ax.scatter(pj, pi, s=size, c="red", marker="s", label="P-positions")
        if loopy:
            drawn = np.vectorize(lambda v: isinstance(v, Infinity) and v.outcome == "D", otypes=[bool])(g)
            di, dj = np.nonzero(drawn)
            ax.scatter(dj, di, s=size, c="black", marker="x", label="draws")
        ax.set_xlabel("j")
        ax.set_ylabel("i")
        marked = "P-positions and draws marked" if loopy else "P-positions marked"
        ax.set_title(f"{self._name()}: G(i, j), {marked}")
        ax.legend(loc="upper right", fontsize="small")
        return ax

    def _name(self) -> str:
        return type(self).__name__

    def _card_rows(self) -> list[tuple[str, str]]:
        return []

    def _grid_html(self) -> str:
        """The corner of the grid, when the game can compute it cheaply."""
        try:
            g = self._card_grid()
        except Exception:  # a display must not raise: the corner is left out
            return ""
        if g is None:
            return ""
        n = g.shape[0]
        head = "".join(f'<td style="padding:0 4px;opacity:.6;font-size:11px">{j}</td>' for j in range(g.shape[1]))
        body = "".join(
            f'<tr><td style="padding:0 4px;opacity:.6;font-size:11px">{i}</td>'
            + "".join(
                f'<td style="padding:0 4px;text-align:right;font-family:monospace'
                f'{";background:rgba(255,64,64,.25)" if v == 0 else ""}">{int(v)}</td>'
                for v in g[i]
            )
            + "</tr>"
            for i in range(n)
        )
        return f'<table style="border-collapse:collapse"><tr><td></td>{head}</tr>{body}</table>'

    def _card_grid(self) -> np.ndarray | None:
        return None

    def _repr_html_(self) -> str:
        rows = self._card_rows()
        corner = self._grid_html()
        if corner:
            rows.append(("G(i, j)", corner))
        return card(self._name(), [(k, v) for k, v in rows], footer=escape("P-positions shaded") if corner else "")
