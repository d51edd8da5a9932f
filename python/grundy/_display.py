"""How grundy's objects show themselves: HTML in notebooks (``_repr_html_``) and plain-text reprs.

Nothing here computes: a game shows the values and results it already has. The building blocks
(:func:`card`, :func:`values_row`, :func:`escape`) are meant for other objects' displays too:

>>> html = card("Nim", [("heaps", values_row([3, 5, 6]))])
>>> html.startswith("<div") and "Nim" in html
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .games import Game
    from .graph import GameGraph
    from .periodicity import Periodicity, SparseSpace

#: Values shown in a game's plain repr and in its HTML card.
REPR_VALUES = 12
HTML_VALUES = 30
#: Rows of a ValueTable shown before the rest is elided.
TABLE_ROWS = 40

_BOX = (
    "display:inline-block;border:1px solid rgba(128,128,128,.45);border-radius:4px;"
    "padding:6px 10px;margin:2px 0;font-size:13px;line-height:1.35;max-width:100%;overflow-x:auto"
)
_LABEL = "text-align:left;padding:1px 12px 1px 0;vertical-align:top;opacity:.75;font-weight:normal"
_CELL = "text-align:left;padding:1px 0;vertical-align:top"
_NUM = "padding:0 4px;text-align:right;font-family:monospace"
_SHADE = "background:rgba(64,128,255,.14)"
_MUTED = "opacity:.6;font-size:11px"


def card(title: str, rows: Iterable[tuple[str, str]], footer: str = "") -> str:
    """Build an HTML box: a bold title, a two-column table, an optional footer.

    The ``title`` is plain text (escaped here), then come ``(label, html)`` rows (labels are escaped, the html
    is not), then an optional ``footer``
    (html). Empty rows are skipped.

    >>> card("Kayles", [("code", "0.77")]).count("<tr>")
    1
    """
    body = "".join(
        f'<tr><th style="{_LABEL}">{escape(label)}</th><td style="{_CELL}">{html}</td></tr>'
        for label, html in rows
        if html
    )
    foot = f'<div style="{_MUTED}">{footer}</div>' if footer else ""
    return (
        f'<div style="{_BOX}"><div style="font-weight:bold;margin-bottom:3px">{escape(title)}</div>'
        f'<table style="border-collapse:collapse;margin:0">{body}</table>{foot}</div>'
    )


def values_row(
    values: Sequence[int] | np.ndarray, start: int = 0, more: bool = False, shade_from: int | None = None
) -> str:
    """HTML for a run of values G(start), G(start + 1), ...: heap sizes above, values below.

    ``more`` adds an ellipsis column; values at heap sizes >= ``shade_from`` are shaded.

    >>> "<td" in values_row([0, 1, 2], start=5)
    True
    """
    vals = [int(v) for v in values]
    head, cells = [], []
    for i, v in enumerate(vals):
        n = start + i
        shade = f";{_SHADE}" if shade_from is not None and n >= shade_from else ""
        head.append(f'<td style="{_NUM};{_MUTED}{shade}">{n}</td>')
        cells.append(f'<td style="{_NUM}{shade}">{v}</td>')
    if more:
        head.append(f'<td style="{_NUM};{_MUTED}"></td>')
        cells.append(f'<td style="{_NUM}">&hellip;</td>')
    return (
        '<table style="border-collapse:collapse;margin:0">'
        f"<tr>{''.join(head)}</tr><tr>{''.join(cells)}</tr></table>"
    )


def _count(n: int) -> str:
    return f"{n:,}"


# -- games ----------------------------------------------------------------------------------------
def _first(game: Game, k: int) -> tuple[np.ndarray, int]:
    return game._computed_values(k), game.computed


def period_text(p: Periodicity) -> str:
    """A short phrase for a periodicity result.

    >>> import grundy as gr
    >>> period_text(gr.kayles().periodicity())
    'period 12 from n = 71 (proven)'
    """
    if p.period is None:
        return f"no period in the first {_count(p.checked_to)} values"
    saltus = f", saltus {p.saltus}" if p.saltus else ""
    how = "proven" if p.proven else f"observed in {_count(p.checked_to)} values"
    return f"period {p.period} from n = {p.preperiod}{saltus} ({how})"


def game_comment(game: Game) -> str:
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


def game_html(game: Game) -> str:
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


# -- results --------------------------------------------------------------------------------------
def periodicity_html(p: Periodicity) -> str:
    """The notebook display of a :class:`~grundy.Periodicity`.

    >>> import grundy as gr
    >>> "proven" in periodicity_html(gr.kayles().periodicity())
    True
    """
    rows: list[tuple[str, str]] = []
    if p.period is None:
        rows.append(("period", f"none found in G(0..{p.checked_to - 1})"))
    else:
        rows += [
            ("preperiod", str(p.preperiod)),
            ("period", str(p.period)),
            ("saltus", str(p.saltus)),
            ("status", "proven" if p.proven else f"observed only (in {_count(p.checked_to)} values)"),
            ("values examined", _count(p.checked_to)),
        ]
        if len(p.base):
            k = min(len(p.base), HTML_VALUES)
            rows.append(("one period", values_row(p.base[:k], start=p.preperiod or 0, more=len(p.base) > k)))
    rows.append(("certificate", escape(p.certificate)))
    return card("Periodicity", rows)


def sparse_text(s: SparseSpace) -> str:
    last = "" if s.last_rare is None else f", the last at n = {s.last_rare}"
    parity = ", flipped at odd n" if s.parity_dependent else ""
    return f"mask {s.mask:#b}{parity}: {_count(s.rare_count)} rare of {_count(s.n)} heap sizes{last}"


def sparse_html(s: SparseSpace) -> str:
    """The notebook display of a :class:`~grundy.SparseSpace`.

    >>> import grundy as gr
    >>> "rare" in sparse_html(gr.grundys_game().sparse_space(500))
    True
    """
    k = 40
    shown = ", ".join(map(str, s.rare_positions[:k].tolist())) + (", &hellip;" if s.rare_count > k else "")
    values = ", ".join(map(str, s.rare_values[:k])) + (", &hellip;" if len(s.rare_values) > k else "")
    rows = [
        ("mask", f"<code>{s.mask:#b}</code>" + (" (flipped at odd heap sizes)" if s.parity_dependent else "")),
        ("heap sizes", _count(s.n)),
        ("rare", f"{_count(s.rare_count)} ({s.rare_count / s.n:.2%})" if s.n else "0"),
        ("common", _count(s.common_count)),
        ("last rare", "none" if s.last_rare is None else str(s.last_rare)),
        ("rare positions", shown or "none"),
        ("rare values", values or "none"),
    ]
    return card("Sparse space", rows)


def graph_html(g: GameGraph) -> str:
    """The notebook display of a :class:`~grundy.GameGraph` (values only if already computed).

    >>> import grundy as gr
    >>> "vertices" in graph_html(gr.GameGraph({"a": ["b"], "b": []}))
    True
    """
    rows = [("vertices", _count(g.num_vertices)), ("edges", _count(g.num_edges))]
    if g._labels is not None:
        k = 8
        shown = ", ".join(escape(repr(x)) for x in g._labels[:k]) + (", &hellip;" if len(g._labels) > k else "")
        rows.append(("labels", shown))
    v = g._values
    if v is None:
        rows.append(("values", "not computed yet: <code>.values()</code>"))
    elif v.size:
        p_count = int(np.count_nonzero(v == 0))
        rows.append(("values", f"largest {int(v.max())}; {_count(p_count)} P-positions (value 0)"))
        k = min(v.size, HTML_VALUES)
        if g._labels is None:
            rows.append(("first vertices", values_row(v[:k], more=v.size > k)))
    return card("GameGraph", rows)


# -- value tables ---------------------------------------------------------------------------------
class ValueTable:
    """Values G(0..n-1) in rows of ``width``, the classic way to look for a period.

    With the period as the width, periodic columns line up. In a notebook the values from
    ``preperiod`` on are shaded.

    >>> print(ValueTable([0, 1, 2, 0, 1], width=2))
           +0 +1
         0  0  1
         2  2  0
         4  1
    """

    def __init__(
        self, values: Sequence[int] | np.ndarray, width: int, preperiod: int | None = None, title: str = ""
    ) -> None:
        if width < 1:
            raise ValueError(f"width must be at least 1, got {width}")
        self.values = np.asarray(values)
        self.width = int(width)
        self.preperiod = preperiod
        self.title = title

    def _rows(self) -> tuple[list[int], bool]:
        n = len(self.values)
        starts = list(range(0, n, self.width))
        if len(starts) > TABLE_ROWS:
            return starts[: TABLE_ROWS - 1] + starts[-1:], True
        return starts, False

    def __repr__(self) -> str:
        vals = self.values.tolist()
        starts, cut = self._rows()
        w = max(len(str(max(vals, default=0))), len(f"+{self.width - 1}"))
        lw = max(6, len(str(starts[-1] if starts else 0)) + 1)
        lines = [" " * lw + "".join(f" {'+' + str(j):>{w}}" for j in range(self.width))]
        for i, s in enumerate(starts):
            if cut and i == len(starts) - 1:
                lines.append(" " * (lw - 3) + "...")
            row = vals[s : s + self.width]
            lines.append(f"{s:>{lw}}" + "".join(f" {v:>{w}}" for v in row))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        vals = self.values.tolist()
        starts, cut = self._rows()
        n0 = self.preperiod
        head = f'<tr><td style="{_NUM}"></td>' + "".join(
            f'<td style="{_NUM};{_MUTED}">+{j}</td>' for j in range(self.width)
        )
        out = [head + "</tr>"]
        for i, s in enumerate(starts):
            if cut and i == len(starts) - 1:
                out.append(f'<tr><td style="{_NUM};{_MUTED}">&vellip;</td></tr>')
            cells = "".join(
                f'<td style="{_NUM}{";" + _SHADE if n0 is not None and s + j >= n0 else ""}">{v}</td>'
                for j, v in enumerate(vals[s : s + self.width])
            )
            out.append(f'<tr><td style="{_NUM};{_MUTED}">{s}</td>{cells}</tr>')
        note = f"shaded: n &ge; {n0} (the periodic part)" if n0 is not None else ""
        title = escape(self.title or "values") + (f": G(0..{len(vals) - 1})" if vals else " (none)")
        return (
            f'<div style="{_BOX}"><div style="font-weight:bold;margin-bottom:3px">{title}</div>'
            f'<table style="border-collapse:collapse;margin:0">{"".join(out)}</table>'
            + (f'<div style="{_MUTED}">{note}</div>' if note else "")
            + "</div>"
        )


__all__ = [
    "ValueTable",
    "card",
    "escape",
    "game_comment",
    "game_html",
    "graph_html",
    "period_text",
    "periodicity_html",
    "sparse_html",
    "values_row",
]
