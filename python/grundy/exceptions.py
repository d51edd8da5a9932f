"""The exceptions grundy raises, in one hierarchy.

Every class derives from :class:`GrundyError` and also from the builtin exception a caller would
already catch for that case (most are :class:`ValueError`), so ``except ValueError`` keeps working
and ``except grundy.GrundyError`` catches everything grundy raises on purpose.

Examples
--------
>>> import grundy as gr
>>> try:
...     gr.GameGraph([("x", "y"), ("y", "x")]).values()
... except ValueError as e:
...     (type(e).__name__, isinstance(e, gr.GrundyError))
('CycleError', True)
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

__all__ = [
    "CodeError",
    "CycleError",
    "GrundyError",
    "InvalidFileError",
    "NoPeriodError",
    "SearchLimitError",
]


class GrundyError(Exception):
    """Base class of every exception grundy raises on purpose.

    Examples
    --------
    >>> import grundy as gr
    >>> issubclass(gr.CodeError, gr.GrundyError)
    True
    """


class CodeError(GrundyError, ValueError):
    """A take-and-break code that cannot be parsed.

    Parameters
    ----------
    message : str
        What is wrong with the code.
    code : str
        The code as given.
    position : int or None
        The 0-based index of the offending character, when one is to blame.

    Examples
    --------
    >>> import grundy as gr
    >>> e = gr.CodeError("bad digit 'x'", code="0.7x", position=3)
    >>> e.code, e.position, isinstance(e, ValueError)
    ('0.7x', 3, True)
    """

    def __init__(self, message: str, code: str = "", position: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.position = position


class NoPeriodError(GrundyError, ValueError):
    """A value was asked beyond the computed range of a game with no proven period.

    Examples
    --------
    >>> import grundy as gr
    >>> try:
    ...     gr.grundys_game().value(2**40)  # Grundy's game: no period is known
    ... except gr.NoPeriodError as e:
    ...     str(e)[:48]
    "no period of TakeAndBreak('4!.0') is proven with"
    """


class SearchLimitError(GrundyError, ValueError):
    """An exhaustive search (misère play, state exploration) passed its position limit.

    Also raised when a misère quotient build passes ``max_order``; the exception then carries the
    quotient proven for the smaller heaps as ``quotient`` (see :func:`grundy.misere_quotient`).

    Parameters
    ----------
    message : str
        What was searched and which limit it passed.
    limit : int or None
        The limit that was exceeded (``max_positions``, ``max_states``, ...).

    Examples
    --------
    >>> import grundy as gr
    >>> e = gr.SearchLimitError("too many positions", limit=10)
    >>> e.limit, isinstance(e, ValueError)
    (10, True)
    """

    def __init__(self, message: str, limit: int | None = None) -> None:
        super().__init__(message)
        self.limit = limit

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self), self.limit))


class InvalidFileError(GrundyError, ValueError):
    """A file that is not a valid grundy file: damaged, of another format version, or of another rule.

    Examples
    --------
    >>> import grundy as gr
    >>> issubclass(gr.InvalidFileError, ValueError)
    True
    """


class CycleError(GrundyError, ValueError):
    """A game graph has a cycle, so it has no (ordinary) Grundy values.

    Parameters
    ----------
    cycle : sequence of hashable
        The vertices of one cycle, each an option of the one before and the first an option of
        the last.
    message : str, optional
        The message; by default it shows the start of the cycle and its length.

    Examples
    --------
    >>> import grundy as gr
    >>> e = gr.CycleError(["a", "b"])
    >>> e.cycle, str(e)
    (['a', 'b'], "the game graph has a cycle, so it has no Grundy values: 'a' -> 'b' -> 'a' (2 vertices)")
    """

    _SHOWN = 20

    def __init__(self, cycle: Sequence[Hashable], message: str | None = None) -> None:
        self.cycle: list[Any] = list(cycle)
        if message is None:
            shown = " -> ".join(repr(v) for v in self.cycle[: self._SHOWN])
            more = " -> ..." if len(self.cycle) > self._SHOWN else ""
            first = repr(self.cycle[0]) if self.cycle else "?"
            message = (
                f"the game graph has a cycle, so it has no Grundy values: {shown}{more} -> {first} "
                f"({len(self.cycle)} vertices)"
            )
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.cycle, str(self)))
