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

import numpy as np

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


def byte_count(n: int) -> str:
    """``n`` bytes for a reader: in bytes under a KiB, else in KiB, MiB or GiB.

    >>> byte_count(1000), byte_count(3 << 20), byte_count(6026 << 20)
    ('1,000 bytes', '3.0 MiB', '5.9 GiB')
    """
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift:
            return f"{n / (1 << shift):,.1f} {unit}"
    return f"{n:,} bytes"


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
    "byte_count",
    "card",
    "escape",
    "values_row",
]
