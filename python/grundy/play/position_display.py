"""How a position shows itself in a notebook: its components, nim-sum, outcome and a winning move."""

from __future__ import annotations

from html import escape
from typing import Any, Protocol

from .._ui.display import card
from .values import sum_outcome, sum_value

__all__ = ["position_card"]

#: Items shown per run of components.
_REPR_ITEMS = 8


def short(items: list[Any]) -> str:
    """A list of items as ``repr`` shows it, cut after a few.

    >>> short(list(range(10)))
    '[0, 1, 2, 3, 4, 5, 6, 7, ... (10 in all)]'
    """
    shown = ", ".join(repr(x) for x in items[:_REPR_ITEMS])
    more = f", ... ({len(items)} in all)" if len(items) > _REPR_ITEMS else ""
    return f"[{shown}{more}]"


class Shown(Protocol):
    """What a position's card reads (all of it is on :class:`~grundy.Position`)."""

    _runs: Any

    @property
    def grundy(self) -> int:
        """The nim-sum."""
        ...

    def __len__(self) -> int: ...

    def _loopy(self) -> list[Any] | None: ...

    def winning_move(self) -> Any:
        """One winning move."""
        ...


def position_card(position: Shown) -> str:
    """The notebook card of a position.

    A sum with a loopy component has no nim-sum: it shows the generalized value of the sum
    instead (none when two or more components are infinite) and its outcome, a draw included.

    >>> import grundy as gr
    >>> "nim-sum" in position_card(gr.Position(gr.nim(), [1, 2]))
    True
    """
    title = f"Position of {len(position)} components"
    rows = [(b.label(), escape(short(b.items()))) for b in position._runs]
    try:
        loopy = position._loopy()
        if loopy is None:
            x = position.grundy
            rows.append(("nim-sum", str(x)))
            outcome = "N" if x else "P"
        else:  # no Grundy value: the sum's generalized value where it has one, and its outcome
            value = sum_value(loopy)
            shown = "none: two or more infinite components" if value is None else escape(str(value))
            rows += [("nim-sum", "no nim-sum (loopy component)"), ("generalized value", shown)]
            outcome = sum_outcome(loopy)
    except ValueError as e:  # e.g. a heap past the computed values with no proven period
        rows.append(("nim-sum", escape(str(e))))
        return card(title, rows)
    says = {
        "P": "P: the player to move loses",
        "N": "N: the player to move wins",
        "D": "D: a draw (drawing_moves() lists the moves that keep it one)",
    }
    rows.append(("outcome", says[outcome]))
    if outcome == "N":
        try:
            move = position.winning_move()
            rows.append(("winning move", escape(str(move))))
        except ValueError as e:
            rows.append(("winning move", escape(str(e))))
    return card(title, rows)
