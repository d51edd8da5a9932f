"""How a heap game shows itself: its notebook card, its repr, its value table and its plots.

:class:`HeapGameDisplay` is mixed into :class:`~grundy.Game`; its methods read only what the
:class:`Shown` protocol lists, so this module needs no game class.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from ..._ui.display import HTML_VALUES, REPR_VALUES, ValueTable, _count, card, values_row
from ..._ui.plot import plot_sparse, plot_values
from ..._validate import as_count
from ...analysis.periodicity import Periodicity, SparseSpace, period_text, sparse_text

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["HeapGameDisplay", "Shown", "game_comment", "game_html"]


class Shown(Protocol):
    """What a heap game's display reads (all of it on :class:`~grundy.Game`)."""

    name: str | None

    @property
    def computed(self) -> int:
        """How many values are computed."""
        ...

    @property
    def known_periodicity(self) -> Periodicity | None:
        """The last periodicity result, or None."""
        ...

    @property
    def known_sparse_space(self) -> SparseSpace | None:
        """The last sparse-space result, or None."""
        ...

    def values(self, n: int) -> np.ndarray:
        """G(0..n-1)."""
        ...

    def sparse_space(self, n: int, *, progress: bool | None = None) -> SparseSpace:
        """The sparse space of G(0..n-1)."""
        ...

    def _computed_values(self, k: int | None = None) -> np.ndarray: ...

    def _describe_html(self) -> str: ...

    def _constructor(self) -> str: ...

    def _title(self) -> str: ...


class HeapGameDisplay:
    """The display and plot methods of :class:`~grundy.Game` (a mixin)."""

    def table(self: Shown, n: int, width: int | None = None) -> ValueTable:
        """Lay out G(0..n-1) in rows of ``width`` values, the periodic part shaded in notebooks.

        Parameters
        ----------
        n : int
            How many values.
        width : int, optional
            Values per row: by default the known period (when at most 40), else 10.

        Returns
        -------
        ValueTable
            Prints as a text table; a notebook shows it as an HTML table.

        Raises
        ------
        TypeError
            When ``n`` or ``width`` is not an integer.
        ValueError
            When ``n`` or ``width`` is negative.

        Examples
        --------
        >>> import grundy as gr
        >>> print(gr.Subtraction([1, 2]).table(7, width=3))
               +0 +1 +2
             0  0  1  2
             3  0  1  2
             6  0
        """
        values = self.values(n)
        p = self.known_periodicity
        if width is None:
            width = p.period if p is not None and p.period and p.period <= 40 else 10
        width = as_count(width, "width")
        return ValueTable(values, width, preperiod=p.preperiod if p else None, title=self._title())

    def plot(self: Shown, n: int | None = None, *, ax: Axes | None = None, rare: bool = True, **style: Any) -> Axes:
        """Draw G(n) against n for the first ``n`` heap sizes; return the Axes.

        Uses matplotlib (``pip install grundy[plot]``). Marks the preperiod and one period when a period
        is known (:attr:`known_periodicity`; no search is started), and circles the rare values of the
        sparse space.

        Parameters
        ----------
        n : int, optional
            How many values (default: those computed).
        ax : matplotlib.axes.Axes, optional
            Draw into this Axes (default: a new figure).
        rare : bool, default True
            Circle the rare values (False to skip the sparse-space analysis).
        **style
            Passed to ``ax.plot`` for the values (``color``, ``markersize``, ...).

        Returns
        -------
        matplotlib.axes.Axes
            The Axes drawn into.

        Raises
        ------
        ImportError
            When matplotlib is not installed.
        ValueError
            When ``n`` is 0 or negative, or is not given and nothing is computed yet.
        TypeError
            When ``n`` is not an integer.

        See Also
        --------
        plot_sparse : The sparse space drawn.

        Examples
        --------
        >>> import matplotlib; matplotlib.use("Agg")
        >>> import grundy as gr
        >>> ax = gr.kayles().plot(100)
        >>> ax.get_lines()[0].get_ydata()[:6].tolist()
        [0, 1, 2, 3, 1, 4]
        """
        return plot_values(self, n, ax=ax, rare=rare, **style)

    def plot_sparse(self: Shown, n: int | None = None, *, ax: Any = None, kind: str = "both") -> Any:
        """Draw the sparse space of G(0..n-1) (``pip install grundy[plot]``).

        Parameters
        ----------
        n : int, optional
            How many values (default: those computed).
        ax : matplotlib.axes.Axes or tuple of Axes, optional
            Draw into this Axes (a pair with ``kind="both"``; default: a new figure).
        kind : {"both", "positions", "histogram"}
            ``"positions"``: the values against the heap size, rare ones highlighted; ``"histogram"``:
            how often each value occurs, rare and common stacked; ``"both"`` (default): the two side by
            side.

        Returns
        -------
        matplotlib.axes.Axes or tuple of Axes
            The Axes drawn into: a pair ``(positions, histogram)`` with ``kind="both"``.

        Raises
        ------
        ImportError
            When matplotlib is not installed.
        ValueError
            When ``kind`` is unknown, ``n`` is 0 or negative or is not given and nothing is computed, or
            ``ax`` is not a pair with ``kind="both"``.
        TypeError
            When ``n`` is not an integer, or ``ax`` is not a pair of Axes with ``kind="both"``.

        Examples
        --------
        >>> import matplotlib; matplotlib.use("Agg")
        >>> import grundy as gr
        >>> left, right = gr.grundys_game().plot_sparse(1000)
        >>> left.get_xlabel(), right.get_xlabel()
        ('heap size n', 'value G')
        """
        return plot_sparse(self, n, ax=ax, kind=kind)

    def _title(self: Shown) -> str:
        return f"{self.name} ({self})" if self.name else str(self)

    def __repr__(self: Shown) -> str:
        return self._constructor() + game_comment(self)

    def _repr_html_(self: Shown) -> str:
        return game_html(self)


# -- cards ----------------------------------------------------------------------------------------
def _first(game: Shown, k: int) -> tuple[np.ndarray, int]:
    return game._computed_values(k), game.computed


def game_comment(game: Shown) -> str:
    """What a game's plain repr adds after its constructor: name, values so far, period.

    >>> import grundy as gr
    >>> g = gr.kayles(); _ = g.values(20)
    >>> game_comment(g)
    '  # Kayles; 20 values: 0 1 2 3 1 4 3 2 1 4 2 6 ...'
    """
    parts = []
    if game.name:
        parts.append(str(game.name))
    first, n = _first(game, REPR_VALUES)
    if n:
        more = " ..." if n > REPR_VALUES else ""
        parts.append(f"{_count(n)} value{'s' if n != 1 else ''}: {' '.join(map(str, first.tolist()))}{more}")
    p = game.known_periodicity
    if p is not None:
        parts.append(period_text(p))
    return f"  # {'; '.join(parts)}" if parts else ""


def game_html(game: Shown) -> str:
    """The notebook display of a game.

    Its rule, the values computed so far (the first ones shown), the largest value, the known
    period and sparse space.

    >>> import grundy as gr
    >>> g = gr.kayles(); _ = g.values(100); _ = g.periodicity()
    >>> html = game_html(g)
    >>> "Kayles" in html and "period 12 from n = 71" in html
    True
    """
    first, n = _first(game, HTML_VALUES)
    p = game.known_periodicity
    rows: list[tuple[str, str]] = [("rule", game._describe_html())]
    if n:
        top = int(game._computed_values().max())
        rows.append(("computed", f"G(0..{n - 1}): {_count(n)} values, largest {top}"))
        shade = p.preperiod if p is not None and p.period is not None else None
        rows.append(("first values", values_row(first, more=n > HTML_VALUES, shade_from=shade)))
    else:
        rows.append(("computed", "nothing yet: <code>.values(n)</code> computes G(0..n-1)"))
    if p is not None:
        title = escape(p.certificate, quote=True)
        rows.append(("periodicity", f'<span title="{title}">{escape(period_text(p))}</span>'))
    else:
        rows.append(("periodicity", "not searched yet: <code>.periodicity()</code>"))
    s = game.known_sparse_space
    if s is not None:
        rows.append(("sparse space", escape(sparse_text(s))))
    title = f"{game.name} · {game}" if game.name else str(game)
    return card(title, rows)
