"""Subtraction games: remove k tokens from a heap, for k in a set (finite, or a built-in infinite rule)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Literal

from ... import _core
from ..._validate import as_heap
from ...exceptions import ArgumentError, ArgumentTypeError
from ...io import checkpoint as _checkpoint
from .game import Game

if TYPE_CHECKING:
    from ..._core import _SubtractionKind

__all__ = ["Subtraction"]


def _members(subtract: Iterable[int], what: str) -> list[int]:
    if isinstance(subtract, (str, bytes)) or not isinstance(subtract, Iterable):
        raise ArgumentTypeError(f"{what} must be an iterable of positive integers, not {type(subtract).__name__}")
    out = []
    for k in subtract:
        k = as_heap(k, f"member {k!r} of {what}")
        if k == 0:
            raise ArgumentError(f"{what} contains 0: removing no tokens is not a move")
        out.append(k)
    return sorted(set(out))


class Subtraction(Game):
    """A subtraction game: from a heap of ``n`` remove ``k`` tokens, for ``k`` in a set.

    Give the set (``Subtraction([1, 2, 3])``) or a rule ``allowed(n, k) -> bool``. The classic
    infinite rules are class methods (:meth:`squares`, :meth:`at_most_half`, :meth:`proper_divisors`,
    :meth:`all_but`) and run entirely in Rust.

    Parameters
    ----------
    subtract : iterable of int, optional
        The subtraction set: positive integers (repeats are ignored).
    allowed : callable, optional
        ``allowed(n, k) -> bool``: whether ``k`` tokens may be removed from a heap of ``n``
        (asked for ``1 <= k <= n``). Give this or ``subtract``, not both.

    Attributes
    ----------
    kind : str
        ``"finite"`` for a set, ``"allowed"`` for a callable, else the class method's name
        (``"squares"``, ``"at_most_half"``, ``"proper_divisors"``, ``"all_but"``).
    members : list of int or None
        The set, sorted (the excluded set for ``all_but``), or None.
    allowed : callable or None
        The callable rule, or None.

    Raises
    ------
    TypeError
        When both or neither of ``subtract`` and ``allowed`` are given, ``subtract`` is not an
        iterable of integers, or ``allowed`` is not callable.
    ValueError
        When a member is 0, negative, or not below 2**64.

    Examples
    --------
    >>> import grundy as gr
    >>> gr.Subtraction([1, 2, 3]).values(8).tolist()
    [0, 1, 2, 3, 0, 1, 2, 3]
    >>> gr.Subtraction(allowed=lambda n, k: k % 2 == 1).values(4).tolist()
    [0, 1, 0, 1]
    """

    kind: _SubtractionKind | Literal["allowed"]
    members: list[int] | None
    allowed: Callable[[int, int], bool] | None

    def __init__(
        self,
        subtract: Iterable[int] | None = None,
        *,
        allowed: Callable[[int, int], bool] | None = None,
    ) -> None:
        if (subtract is None) == (allowed is None):
            raise ArgumentTypeError("give either a subtraction set or allowed=, not both or neither")
        if allowed is not None:
            if not callable(allowed):
                raise ArgumentTypeError(f"allowed must be a callable allowed(n, k), not {type(allowed).__name__}")
            self.kind, self.members = "allowed", None
            self.allowed = allowed
            self._made = (type(self), {"allowed": allowed})
            super().__init__(_core.HeapCore.allowed(allowed), ("allowed", id(allowed)))
            return
        members = _members(subtract, "the subtraction set")  # type: ignore[arg-type]
        self._init("finite", members)

    def _init(self, kind: _SubtractionKind, members: list[int] | None) -> None:
        self.kind, self.members, self.allowed = kind, members, None
        made = {"subtract": members} if kind == "finite" else {"kind": kind, "members": members}
        self._made = (type(self) if kind == "finite" else type(self)._make, made)
        seq = _core.HeapCore.subtraction(kind, members)
        Game.__init__(self, seq, (kind, tuple(members or ())))

    @classmethod
    def _make(cls, kind: _SubtractionKind, members: list[int] | None = None) -> Subtraction:
        g = cls.__new__(cls)
        g._init(kind, members)
        return g

    @classmethod
    def squares(cls) -> Subtraction:
        """Build the game where a move removes a positive square number of tokens.

        Returns
        -------
        Subtraction
            The game (``kind`` ``"squares"``).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.Subtraction.squares().values(7).tolist()
        [0, 1, 0, 1, 2, 0, 1]
        """
        return cls._make("squares")

    @classmethod
    def at_most_half(cls) -> Subtraction:
        """Build the game where a move removes between 1 and floor(n/2) tokens from a heap of n.

        Returns
        -------
        Subtraction
            The game (``kind`` ``"at_most_half"``).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.Subtraction.at_most_half().values(8).tolist()
        [0, 0, 1, 0, 2, 1, 3, 0]
        """
        return cls._make("at_most_half")

    @classmethod
    def proper_divisors(cls) -> Subtraction:
        """Build the game where a move removes a divisor d of the heap size n with d < n.

        G(n) is the exponent of 2 in n.

        Returns
        -------
        Subtraction
            The game (``kind`` ``"proper_divisors"``).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.Subtraction.proper_divisors().values(9).tolist()
        [0, 0, 1, 0, 2, 0, 1, 0, 3]
        """
        return cls._make("proper_divisors")

    @classmethod
    def all_but(cls, excluded: Iterable[int]) -> Subtraction:
        """Build the game where a move removes any number of tokens except the members of a finite set.

        Parameters
        ----------
        excluded : iterable of int
            The numbers of tokens that may not be removed (positive integers).

        Returns
        -------
        Subtraction
            The game (``kind`` ``"all_but"``); ``all_but([])`` is Nim.

        Raises
        ------
        TypeError
            When ``excluded`` is not an iterable of integers.
        ValueError
            When a member is 0, negative, or not below 2**64.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.Subtraction.all_but([1]).values(6).tolist()
        [0, 0, 1, 1, 2, 2]
        """
        return cls._make("all_but", _members(excluded, "the excluded set"))

    def _constructor(self) -> str:
        if self.kind == "finite":
            return f"Subtraction({self.members})"
        if self.kind == "all_but":
            return f"Subtraction.all_but({self.members})"
        if self.kind == "allowed":
            return f"Subtraction(allowed={getattr(self.allowed, '__qualname__', self.allowed)!s})"
        return f"Subtraction.{self.kind}()"

    def _rule(self) -> dict[str, Any]:
        if self.kind == "allowed":
            return super()._rule()
        return {"type": "subtraction", "kind": self.kind, "members": self.members}

    def _describe_html(self) -> str:
        members = ", ".join(map(str, self.members or []))
        described = {
            "finite": f"subtract k in {{{members}}}",
            "all_but": f"subtract any k except {{{members}}}",
            "squares": "subtract a positive square",
            "at_most_half": "subtract 1 to floor(n/2)",
            "proper_divisors": "subtract a proper divisor of n",
            "allowed": "subtract k when a Python callable allows it",
        }
        return described[self.kind]

    def __str__(self) -> str:
        return self._constructor()


def _int_list(x: Any) -> list[int]:
    if not isinstance(x, list) or not all(isinstance(k, int) and not isinstance(k, bool) for k in x):
        raise ArgumentTypeError("members must be a list of integers")
    return x


_SUBTRACTION_KINDS = ("finite", "all_but", "squares", "at_most_half", "proper_divisors")


def _subtraction_from(rule: dict[str, Any], name: str | None) -> Game:
    sub, members = rule.get("kind"), rule.get("members")
    if sub not in _SUBTRACTION_KINDS:
        raise ArgumentError(f"unknown subtraction rule {sub!r}")
    if sub == "finite":
        return Subtraction(_int_list(members))
    if sub == "all_but":
        return Subtraction.all_but(_int_list(members))
    if members is not None:
        raise ArgumentError(f"the subtraction rule {sub} takes no members")
    game: Game = getattr(Subtraction, sub)()
    return game


# The file format rebuilds games from their saved rule through this (see Game._rule).
_checkpoint.BUILDERS["subtraction"] = _subtraction_from
