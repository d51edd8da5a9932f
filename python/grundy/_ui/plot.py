"""Plots of Grundy values with matplotlib, an optional extra: ``pip install grundy[plot]``.

``import grundy`` never imports matplotlib; these functions do, when called. The usual entry
points are the game methods :meth:`Game.plot <grundy.Game.plot>` and
:meth:`Game.plot_sparse <grundy.Game.plot_sparse>`.

>>> import matplotlib; matplotlib.use("Agg")
>>> import grundy as gr
>>> g = gr.kayles(); _ = g.periodicity()
>>> ax = plot_values(g, 200)
>>> sorted(t.get_text() for t in ax.get_legend().get_texts())[:2]
['G(n)', 'period 12']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from .._validate import as_count
from ..exceptions import ArgumentError, ArgumentTypeError

if TYPE_CHECKING:
    from matplotlib.axes import Axes

_KINDS = ("positions", "histogram", "both")


class Game(Protocol):
    """What a plot reads of a heap game (all of it is on :class:`~grundy.Game`)."""

    @property
    def computed(self) -> int:
        """See :class:`~grundy.Game`."""
        ...

    @property
    def known_periodicity(self) -> Any:
        """See :class:`~grundy.Game`."""
        ...

    def values(self, n: int) -> np.ndarray: ...

    def sparse_space(self, n: int) -> Any: ...

    def _title(self) -> str: ...


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError(
            "plotting needs matplotlib, an optional extra of grundy: pip install 'grundy[plot]' "
            "(or pip install matplotlib)"
        ) from e
    return plt


def _count(game: Game, n: int | None) -> int:
    if n is None:
        n = game.computed
        if n == 0:
            raise ArgumentError("nothing is computed yet: say how many values to plot, e.g. game.plot(1000)")
        return n
    n = as_count(n)
    if n == 0:
        raise ArgumentError("n must be at least 1: there is nothing to plot")
    return n


def plot_values(game: Game, n: int | None = None, *, ax: Axes | None = None, rare: bool = True, **style: Any) -> Axes:
    """Draws G(0..n-1) against the heap size (see :meth:`grundy.Game.plot`); returns the Axes.

    Lines drawn, in order: the values (label ``G(n)``), then, when the game's
    :attr:`~grundy.Game.known_periodicity` has a period, a dashed line at the preperiod and a
    shaded span of one period, then the rare values circled (label ``rare ...``).
    """
    plt = _pyplot()
    n = _count(game, n)
    values = game.values(n)
    if ax is None:
        _, ax = plt.subplots(figsize=(9, 3.6))
    x = np.arange(n)
    big = n > 20_000
    kw: dict[str, Any] = {
        "marker": ".", "linestyle": "none", "markersize": 2 if big else 4, "color": "C0", "label": "G(n)"
    }
    kw.update(style)
    if big:
        kw.setdefault("rasterized", True)
    ax.plot(x, values, **kw)
    p = game.known_periodicity
    if p is not None and p.period is not None and p.preperiod is not None and p.preperiod < n:
        n0, per = p.preperiod, p.period
        how = "" if p.proven else ", observed"
        if n0 > 0:
            ax.axvline(n0, color="C2", linestyle="--", linewidth=1, label=f"preperiod {n0}")
        saltus = f", saltus {p.saltus}" if p.saltus else ""
        ax.axvspan(n0, min(n0 + per, n - 1), color="C2", alpha=0.15, label=f"period {per}{saltus}{how}")
    if rare:
        s = game.sparse_space(n)
        if 0 < s.rare_count < n:
            r = s.rare_positions
            ax.plot(
                r,
                values[r],
                marker="o",
                linestyle="none",
                markersize=6 if not big else 4,
                markerfacecolor="none",
                color="C3",
                label=f"rare ({s.rare_count}; mask {s.mask:#b})",
            )
    ax.set_xlabel("heap size n")
    ax.set_ylabel("G(n)")
    ax.set_title(game._title())
    ax.set_xlim(-0.5, n - 0.5)
    # "best" avoids covering points but scans them all: only for small plots.
    ax.legend(loc="best" if n <= 5000 else "upper left", fontsize="small", framealpha=0.8)
    return ax


def plot_sparse(game: Game, n: int | None = None, *, ax: Any = None, kind: str = "both") -> Any:
    """Draws the sparse space of G(0..n-1) (see :meth:`grundy.Game.plot_sparse`).

    ``kind="positions"``: values against heap size, common ones grey (label ``common``), rare
    ones red (label ``rare``). ``kind="histogram"``: for each value, how many heap sizes hold it,
    as stacked bars (containers labelled ``common`` and ``rare``). ``kind="both"``: the two side
    by side; ``ax`` is then None or a pair of Axes, and a pair is returned.

    >>> import matplotlib; matplotlib.use("Agg")
    >>> import grundy as gr
    >>> ax = plot_sparse(gr.grundys_game(), 500, kind="histogram")
    >>> sorted(c.get_label() for c in ax.containers)
    ['common', 'rare']
    """
    if kind not in _KINDS:
        raise ArgumentError(f"kind must be one of {', '.join(_KINDS)}, not {kind!r}")
    plt = _pyplot()
    n = _count(game, n)
    values = game.values(n)
    s = game.sparse_space(n)
    if kind == "both":
        if ax is None:
            _, axes = plt.subplots(1, 2, figsize=(11, 3.6))
        else:
            try:
                axes = list(ax)
            except TypeError:
                raise ArgumentTypeError("with kind='both', ax must be a pair of Axes (or None)") from None
            if len(axes) != 2:
                raise ArgumentError(f"with kind='both', ax must be a pair of Axes, not {len(axes)}")
        _positions(game, values, s, axes[0])
        _histogram(values, s, axes[1])
        return axes[0], axes[1]
    if ax is None:
        _, ax = plt.subplots(figsize=(9, 3.6))
    if kind == "positions":
        _positions(game, values, s, ax)
    else:
        _histogram(values, s, ax)
    return ax


def _positions(game: Game, values: np.ndarray, s: Any, ax: Axes) -> None:
    n = values.size
    rare = np.zeros(n, dtype=bool)
    rare[s.rare_positions] = True
    x = np.arange(n)
    ax.plot(x[~rare], values[~rare], marker=".", linestyle="none", markersize=2, color="0.65", label="common")
    ax.plot(x[rare], values[rare], marker="o", linestyle="none", markersize=4, color="C3", label="rare")
    ax.set_xlabel("heap size n")
    ax.set_ylabel("G(n)")
    last = "" if s.last_rare is None else f", last at {s.last_rare}"
    ax.set_title(f"{game._title()}: {s.rare_count} rare of {n}{last} (mask {s.mask:#b})", fontsize="medium")
    ax.legend(loc="upper left", fontsize="small")


def _histogram(values: np.ndarray, s: Any, ax: Axes) -> None:
    top = int(values.max()) + 1 if values.size else 1
    total = np.bincount(values, minlength=top)
    rare = np.bincount(values[s.rare_positions], minlength=top)
    common = total - rare
    x = np.arange(top)
    ax.bar(x, common, color="0.65", label="common")
    ax.bar(x, rare, bottom=common, color="C3", label="rare")
    ax.set_xlabel("value G")
    ax.set_ylabel("heap sizes")
    ax.set_title("how often each value occurs", fontsize="medium")
    ax.legend(loc="upper right", fontsize="small")


__all__ = ["plot_sparse", "plot_values"]
