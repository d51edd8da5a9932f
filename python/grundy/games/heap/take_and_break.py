"""Take-and-break games given by their code (octal and hexadecimal), and the classic ones by name."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from ... import _core
from ..._validate import as_name
from ...exceptions import ArgumentError, ArgumentTypeError
from ...io import checkpoint as _checkpoint
from .game import Game

if TYPE_CHECKING:
    from ..._core import _Engine

__all__ = ["TakeAndBreak", "dawsons_kayles", "grundys_game", "kayles", "nim"]


class TakeAndBreak(Game):
    """An octal or hexadecimal take-and-break game given by its code ``d0.d1d2...``.

    Digit ``d_j`` says what may happen when ``j`` tokens are removed: a sum of ``2**k`` over the
    numbers ``k`` of non-empty heaps that may remain (``k = 0``: the whole heap was taken). Also
    understood: ``!`` after a digit (the heaps left must be pairwise unequal), a bracketed final group
    repeated forever (``0.[3]`` is Nim) and explicit heap counts (``0.{1,2}``).

    Parameters
    ----------
    code : str
        The code, such as ``"0.77"`` or ``".77"`` (Kayles), ``"4!.0"`` or ``"0.[3]"``.
    name : str, optional
        A name shown beside the code (``"Kayles"``).
    engine : {"auto", "exact", "sparse"}
        ``"auto"`` (default) uses the sparse-space engine, block-parallel, for finite codes whose
        moves leave at most two heaps, and the exact engine (mex over every option) otherwise;
        ``"exact"`` or ``"sparse"`` force one. Both give the same values.

    Attributes
    ----------
    code : str
        The code in canonical form (``"0.77"``).
    engine : str
        The engine asked for.

    Raises
    ------
    TypeError
        When ``code`` is not a str.
    CodeError
        When the code cannot be parsed (a ValueError; it names the offending character).
    ValueError
        When ``engine`` is unknown, or is ``"sparse"`` for a code it does not apply to.

    Examples
    --------
    >>> import grundy as gr
    >>> g = gr.TakeAndBreak(".77")
    >>> str(g), g.values(6).tolist()
    ('0.77', [0, 1, 2, 3, 1, 4])
    """

    def __init__(self, code: str, *, name: str | None = None, engine: _Engine = "auto") -> None:
        if not isinstance(code, str):
            raise ArgumentTypeError(f"a take-and-break code must be a str like '0.77', not {type(code).__name__}")
        known = engine in ("auto", "exact", "sparse")
        core = _core.HeapCore.take_and_break(code, engine if known else "auto")  # the one parse of the code
        info = core.code_info()
        assert info is not None
        self.code: str = info["canonical"]
        self.name = as_name(name)
        self._info = info
        if not known:
            raise ArgumentError(f"engine must be 'auto', 'exact' or 'sparse', not {engine!r}")
        self.engine = engine
        self._made = (type(self), {"code": self.code, "name": self.name, "engine": engine})
        super().__init__(core, self.code)

    @property
    def is_octal(self) -> bool:
        """True when no move leaves more than two heaps.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.TakeAndBreak("0.77").is_octal, gr.TakeAndBreak("0.8").is_octal
        (True, False)
        """
        return bool(self._info["octal"])

    @property
    def max_heaps(self) -> int:
        """The most heaps a single move may leave (0 to 3).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.TakeAndBreak("0.77").max_heaps, gr.TakeAndBreak("0.4").max_heaps
        (2, 2)
        """
        return int(self._info["max_heaps"])

    @property
    def is_finite(self) -> bool:
        """False for codes with a repeated group (arbitrarily many tokens may be removed).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.kayles().is_finite, gr.nim().is_finite
        (True, False)
        """
        return not self._info["infinite"]

    def __str__(self) -> str:
        return self.code

    def _nim_after(self, h: int) -> tuple[int, ...]:
        return () if h == 0 else (h,)  # in the code 0.[3] a heap of 0 is no heap

    def _label(self) -> str:
        return f"{self.name} {self.code}" if self.name else self.code

    def _describe_html(self) -> str:
        kind = "octal" if self.is_octal else "hexadecimal"
        extra = "" if self.is_finite else "; a repeated group removes any number of tokens"
        return (
            f"<code>{escape(self.code)}</code>: {kind} take-and-break, a move leaves at most "
            f"{self.max_heaps} heap(s){extra}"
        )

    def _constructor(self) -> str:
        return f"TakeAndBreak({self.code!r})"

    def _rule(self) -> dict[str, Any]:
        return {"type": "take_and_break", "code": self.code}


def _take_and_break_from(rule: dict[str, Any], name: str | None) -> Game:
    code = rule.get("code")
    if not isinstance(code, str):
        raise ArgumentTypeError("a take_and_break rule needs a 'code' string")
    return TakeAndBreak(code, name=name)


# The file format rebuilds games from their saved rule through this (see Game._rule).
_checkpoint.BUILDERS["take_and_break"] = _take_and_break_from


def nim() -> TakeAndBreak:
    """Nim (``0.[3]``): remove any number of tokens from one heap; G(n) = n.

    Returns
    -------
    TakeAndBreak
        ``TakeAndBreak("0.[3]", name="Nim")``.

    Examples
    --------
    >>> import grundy as gr
    >>> gr.nim().values(5).tolist()
    [0, 1, 2, 3, 4]
    """
    return TakeAndBreak("0.[3]", name="Nim")


def kayles() -> TakeAndBreak:
    """Kayles (``0.77``): knock down one pin or two adjacent pins from a row.

    Returns
    -------
    TakeAndBreak
        ``TakeAndBreak("0.77", name="Kayles")``.

    Examples
    --------
    >>> import grundy as gr
    >>> gr.kayles().values(6).tolist()
    [0, 1, 2, 3, 1, 4]
    """
    return TakeAndBreak("0.77", name="Kayles")


def dawsons_kayles() -> TakeAndBreak:
    """Dawson's Kayles (``0.07``): knock down two adjacent pins.

    Returns
    -------
    TakeAndBreak
        ``TakeAndBreak("0.07", name="Dawson's Kayles")``.

    Examples
    --------
    >>> import grundy as gr
    >>> gr.dawsons_kayles().values(8).tolist()
    [0, 0, 1, 1, 2, 0, 3, 1]
    """
    return TakeAndBreak("0.07", name="Dawson's Kayles")


def grundys_game() -> TakeAndBreak:
    """Grundy's game (``4!.0``): split one heap into two heaps of different sizes.

    Returns
    -------
    TakeAndBreak
        ``TakeAndBreak("4!.0", name="Grundy's game")``.

    Examples
    --------
    >>> import grundy as gr
    >>> gr.grundys_game().values(9).tolist()
    [0, 0, 0, 1, 0, 2, 1, 0, 2]
    """
    return TakeAndBreak("4!.0", name="Grundy's game")
