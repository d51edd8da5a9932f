"""The exceptions grundy raises, in one hierarchy.

Every class derives from :class:`GrundyError` and also from the builtin exception a caller would
already catch for that case, so ``except ValueError`` keeps working and ``except grundy.GrundyError``
catches everything grundy raises on purpose:

- :class:`ArgumentError` (``ValueError``): an argument with an unacceptable value; its subclass
  :class:`TooLargeError` (also ``OverflowError``) for integers of 2**64 or more.
- :class:`ArgumentTypeError` (``TypeError``): an argument of the wrong type.
- :class:`NotFoundError` (``KeyError`` and ``IndexError``): a vertex or index that is not there.
- :class:`MemoryLimitError` (``MemoryError``): a request refused because it cannot fit.
- :class:`ReentrancyError` (``RuntimeError``): a game asked for values from its own callback.
- :class:`MissingFileError` (``FileNotFoundError``): a file to read, or the folder of a file to
  write, that does not exist.
- :class:`FilePermissionError` (``PermissionError``): a file or folder grundy may not write (a
  read-only checkpoint or survey store) or read.
- :class:`CodeError`, :class:`NoPeriodError`, :class:`SearchLimitError`, :class:`InvalidFileError`
  and :class:`CycleError` (all ``ValueError``): the errors of particular computations.

Exceptions raised by a user's own callable (a rule's ``options``) propagate unchanged.

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
    "ArgumentError",
    "ArgumentTypeError",
    "CodeError",
    "CycleError",
    "GrundyError",
    "FilePermissionError",
    "InvalidFileError",
    "MemoryLimitError",
    "MissingFileError",
    "NoPeriodError",
    "NotFoundError",
    "ReentrancyError",
    "SearchLimitError",
    "TooLargeError",
]


class GrundyError(Exception):
    """Base class of every exception grundy raises on purpose.

    Examples
    --------
    >>> import grundy as gr
    >>> issubclass(gr.CodeError, gr.GrundyError)
    True
    """


class ArgumentError(GrundyError, ValueError):
    """An argument of the right type but an unacceptable value.

    For instance a negative count, ``threads=0``, ``Subtraction([0])``, an unknown ``engine``, or a
    rule whose options do not shrink the heap.

    Examples
    --------
    >>> import grundy as gr
    >>> try:
    ...     gr.kayles().values(-1)
    ... except gr.ArgumentError as e:
    ...     str(e), isinstance(e, ValueError)
    ('n must be non-negative, got -1', True)
    """


class ArgumentTypeError(GrundyError, TypeError):
    """An argument of the wrong type (a float or None where an integer is needed, ...).

    Examples
    --------
    >>> import grundy as gr
    >>> try:
    ...     gr.kayles().values(2.5)
    ... except gr.ArgumentTypeError as e:
    ...     str(e), isinstance(e, TypeError)
    ('n must be an integer, not float (2.5)', True)
    """


class TooLargeError(ArgumentError, OverflowError):
    """An integer argument too large for the core (heap sizes and counts are below 2**64).

    It is also an :class:`OverflowError` (what such an integer raised before) and a
    :class:`ValueError`.

    Examples
    --------
    >>> import grundy as gr
    >>> try:
    ...     gr.kayles().value(2**70)
    ... except OverflowError as e:
    ...     type(e).__name__, isinstance(e, (gr.GrundyError, ValueError))
    ('TooLargeError', True)
    """


class NotFoundError(GrundyError, KeyError, IndexError):
    """A vertex, label or index that the object does not have.

    It is both a :class:`KeyError` and an :class:`IndexError`, whichever a caller catches.

    Examples
    --------
    >>> import grundy as gr
    >>> try:
    ...     gr.GameGraph({"a": []}).value("z")
    ... except KeyError as e:
    ...     isinstance(e, gr.NotFoundError)
    True
    """


class MemoryLimitError(GrundyError, MemoryError):
    """A request that needs more memory than the machine has, refused before it is allocated.

    Parameters
    ----------
    message : str
        What was asked and how much memory it needs.
    needed : int or None
        The estimated bytes the request needs, when known.
    available : int or None
        The bytes available when it was checked, when known.

    Examples
    --------
    >>> import grundy as gr
    >>> try:
    ...     gr.wythoff().row(10**7).values(5)
    ... except MemoryError as e:
    ...     type(e).__name__, e.needed > 10**12
    ('MemoryLimitError', True)
    """

    def __init__(self, message: str, needed: int | None = None, available: int | None = None) -> None:
        super().__init__(message)
        self.needed = needed
        self.available = available

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self), self.needed, self.available))


class ReentrancyError(GrundyError, RuntimeError):
    """A game was asked for values from inside its own rule, while it was computing them.

    The rule is the game's ``options`` or ``allowed`` function.

    A rule must be computable from the heap or state it is given alone: it cannot ask its own
    game for values (the core computes those from what the rule returns).

    Examples
    --------
    >>> import grundy as gr
    >>> def options(n):
    ...     game.values(n)  # asks the game that is calling this function
    ...     return [(n - 1,)] if n else []
    >>> game = gr.HeapGame(options)
    >>> try:
    ...     game.values(3)
    ... except RuntimeError as e:
    ...     type(e).__name__
    'ReentrancyError'
    """


class MissingFileError(GrundyError, FileNotFoundError):
    """A file grundy was asked to read, or the folder of one it was asked to write, does not exist.

    Raised by :func:`grundy.load`, :func:`grundy.load_survey`, and for the folder of a checkpoint,
    a survey store or a saved file; checked before any computing starts. It is also a
    :class:`FileNotFoundError` (an :class:`OSError`).

    Examples
    --------
    >>> import grundy as gr
    >>> try:
    ...     gr.load("no-such-file.npz")
    ... except FileNotFoundError as e:
    ...     type(e).__name__, str(e)
    ('MissingFileError', 'no such file: no-such-file.npz')
    """


class FilePermissionError(GrundyError, PermissionError):
    """A file or folder that grundy must write (or read) but may not.

    A checkpoint or survey store made read-only (``chmod 444``) is refused before any computing,
    even where the folder would let it be replaced: it was made read-only to keep it as it is
    (:func:`grundy.load` and :func:`grundy.load_survey` read such files). It is also a
    :class:`PermissionError` (an :class:`OSError`).

    Examples
    --------
    >>> import grundy as gr, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "kayles.npz")
    >>> gr.save(gr.kayles(), path)
    >>> os.chmod(path, 0o444)
    >>> try:
    ...     gr.kayles().values(10, checkpoint=path)
    ... except PermissionError as e:
    ...     type(e).__name__
    'FilePermissionError'
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
                f"({len(self.cycle)} {'vertex' if len(self.cycle) == 1 else 'vertices'})"
            )
        super().__init__(message)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.cycle, str(self)))
