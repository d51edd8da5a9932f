"""Loopy games: game graphs with cycles, where a game may go on forever (a draw).

Smith's generalized Sprague-Grundy function (C. A. B. Smith, 1966; Fraenkel and Yesha, 1986)
gives each position a finite value m, or an infinite value ``Infinity(K)``, K the set of finite
values among its options. A vertex gets the finite value m when no option has value m, every
value below m occurs among its options, and every option with a larger or infinite value has an
option of value m, an answer that makes progress (Smith's counter function: the answering cannot
go on forever); otherwise it is infinite. Without the progress condition, ``0 <- 1 <-> 2 -> 0``
would admit the labelling 0, 1, 2; Smith's function gives 0, ``Infinity({0})``, ``Infinity({0})``,
and indeed two copies of the vertex 1 are a draw, not a P-position. Outcomes (normal play): 0 is P, a finite non-zero
value N, ``Infinity(K)`` N when 0 is in K and D (a draw) otherwise.

Sums follow from the values, as the nim-sum does for finite games: finite x plus finite y is
``x ^ y``; ``Infinity(K)`` plus finite y is ``Infinity({k ^ y for k in K})``; two or more infinite
components give a draw. The functions :func:`sum_value`, :func:`sum_outcome`,
:func:`winning_options` and :func:`drawing_options` implement these rules on plain values, so any
sum whose components know their generalized values (graph vertices, heaps, states) can use them.

Hand-worked examples (from the definition):

=========================  ==================================
graph                      generalized values
=========================  ==================================
t with no moves            t = 0 (P)
s -> s                     s = Infinity() (D)
u -> u, u -> t             u = Infinity({0}) (N)
a -> b, b -> a, b -> t     a = 0 (P), b = 1 (N)
=========================  ==================================

Sums: u + a = Infinity({0}) (N); u + b = Infinity({1}) (D); u + u is a draw.

>>> import grundy as gr
>>> g = gr.GameGraph({"t": [], "s": ["s"], "u": ["u", "t"], "a": ["b"], "b": ["a", "t"]})
>>> gv = g.generalized_values()
>>> [gv.value(x) for x in "tsuab"]
[0, Infinity(), Infinity({0}), 0, 1]
>>> "".join(gv.outcome(x) for x in "tsuab")
'PDNPN'
>>> gr.sum_value([gv.value("u"), gv.value("a")]), gr.sum_outcome([gv.value("u"), gv.value("a")])
(Infinity({0}), 'N')
>>> gr.sum_value([gv.value("u"), gv.value("b")]), gr.sum_outcome([gv.value("u"), gv.value("b")])
(Infinity({1}), 'D')
>>> gr.sum_value([gv.value("u"), gv.value("u")]) is None, gr.sum_outcome([gv.value("u")] * 2)
(True, 'D')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .._validate import as_flag
from ..exceptions import ArgumentError, ArgumentTypeError, NotFoundError

#: How the core marks an infinite value in its uint32 array.
INFINITE = np.uint32(2**32 - 1)
#: The outcome codes of the core, in order.
_OUTCOMES = ("P", "N", "D")


class Infinity:
    """An infinite generalized Sprague-Grundy value ``Infinity(K)``.

    :attr:`K` is the set of finite values among the position's options. Such a position is an
    N-position when 0 is in K (moving to a 0 wins), and a draw otherwise. Adding a finite value y
    gives ``Infinity({k ^ y for k in K})`` (also written ``inf ^ y``).

    Parameters
    ----------
    K : iterable of int, optional
        The finite values of the options (non-negative integers); empty by default.

    Raises
    ------
    TypeError
        When ``K`` is not an iterable (a string counts as none).
    ValueError
        When a member of ``K`` is not a non-negative integer.

    Examples
    --------
    >>> import grundy as gr
    >>> x = gr.Infinity({0, 3})
    >>> x, x.K, x.outcome, str(x)
    (Infinity({0, 3}), frozenset({0, 3}), 'N', '∞(0,3)')
    >>> x ^ 1, (x ^ 1).outcome
    (Infinity({1, 2}), 'D')
    >>> gr.Infinity() == gr.Infinity([]), gr.Infinity().outcome
    (True, 'D')
    """

    __slots__ = ("K",)
    #: The finite values among the position's options, a frozenset of non-negative ints.
    K: frozenset[int]

    def __init__(self, K: Iterable[int] = ()) -> None:
        if isinstance(K, (str, bytes)) or not isinstance(K, Iterable):
            raise ArgumentTypeError(f"K must be a set of non-negative integers, not {type(K).__name__}")
        ks = []
        for k in K:
            if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)) or k < 0:
                raise ArgumentError(f"K must hold non-negative integers (finite values), not {k!r}")
            ks.append(int(k))
        object.__setattr__(self, "K", frozenset(ks))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Infinity values are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Infinity values are immutable")

    @property
    def outcome(self) -> str:
        """The outcome in normal play, 'N' when 0 is in K (a move to a P-position exists), else 'D'.

        An infinite value is never 'P': the player to move either wins by moving to an option of
        value 0, or can keep the game going forever (a draw, 'D').

        Examples
        --------
        >>> import grundy as gr
        >>> gr.Infinity({0, 2}).outcome, gr.Infinity({1, 2}).outcome, gr.Infinity().outcome
        ('N', 'D', 'D')
        """
        return "N" if 0 in self.K else "D"

    def __xor__(self, y: int) -> Infinity:
        if isinstance(y, (bool, np.bool_)) or not isinstance(y, (int, np.integer)) or y < 0:
            if isinstance(y, Infinity):
                raise ArgumentTypeError("the sum of two infinite values is a draw with no value: use gr.sum_value")
            return NotImplemented
        return Infinity(k ^ int(y) for k in self.K)

    __rxor__ = __xor__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Infinity) and other.K == self.K

    def __hash__(self) -> int:
        return hash(("Infinity", self.K))

    def __repr__(self) -> str:
        if not self.K:
            return "Infinity()"
        return "Infinity({" + ", ".join(map(str, sorted(self.K))) + "})"

    def __str__(self) -> str:
        return "∞(" + ",".join(map(str, sorted(self.K))) + ")"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Infinity, (sorted(self.K),))


#: A generalized value: a finite int or an :class:`Infinity`.
Value = int | Infinity


def _check_value(v: Any, where: str) -> Value:
    if isinstance(v, Infinity):
        return v
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or v < 0:
        raise ArgumentTypeError(f"{where} must be a generalized value (a non-negative int or gr.Infinity), not {v!r}")
    return int(v)


def _normal_play(misere: Any) -> None:
    """Raises the error for misère play of loopy games (not supported), or for a ``misere`` that is not a bool."""
    if as_flag(misere, "misere"):
        raise ArgumentError(
            "misère play of loopy games is not supported: the generalized Sprague-Grundy values "
            "and their sum rules hold for normal play only (misere=False)"
        )


def value_outcome(value: Value | None, *, misere: bool = False) -> str:
    """The outcome of a position of generalized value ``value``: 'P', 'N' or 'D'.

    0 is P, a finite non-zero value N, ``Infinity(K)`` N when 0 is in K and D otherwise; None
    (the value of a sum with two or more infinite components) is D.

    Parameters
    ----------
    value : int, Infinity or None
        The generalized value.
    misere : bool, default False
        Must be False: misère play of loopy games is not supported.

    Returns
    -------
    str
        'P' (the player to move loses), 'N' (the player to move wins) or 'D' (a draw).

    Raises
    ------
    TypeError
        When ``value`` is neither a non-negative int, an :class:`Infinity` nor None.
    ValueError
        When ``misere`` is true.

    Examples
    --------
    >>> import grundy as gr
    >>> [gr.value_outcome(v) for v in (0, 5, gr.Infinity({0, 1}), gr.Infinity({2}), None)]
    ['P', 'N', 'N', 'D', 'D']
    """
    _normal_play(misere)
    if value is None:
        return "D"
    value = _check_value(value, "value")
    if isinstance(value, Infinity):
        return value.outcome
    return "P" if value == 0 else "N"


def sum_value(values: Iterable[Value]) -> Value | None:
    """The generalized value of a sum of components with generalized values ``values``.

    All finite: their nim-sum. Exactly one infinite, ``Infinity(K)``, the rest with nim-sum x:
    ``Infinity({k ^ x for k in K})``. Two or more infinite: None (the sum is a draw, and has no
    value that would add further).

    Parameters
    ----------
    values : iterable of int or Infinity
        The components' values.

    Returns
    -------
    int, Infinity or None
        The sum's generalized value; None when two or more components are infinite (a draw).

    Raises
    ------
    TypeError
        When a value is neither a non-negative int nor an :class:`Infinity`.

    Examples
    --------
    >>> import grundy as gr
    >>> gr.sum_value([3, 5]), gr.sum_value([gr.Infinity({0, 2}), 2, 1]), gr.sum_value([])
    (6, Infinity({1, 3}), 0)
    >>> gr.sum_value([gr.Infinity({0}), 1, gr.Infinity()]) is None
    True
    """
    x = 0
    inf: Infinity | None = None
    for i, v in enumerate(_iterable(values, "values")):
        v = _check_value(v, f"component {i}'s value")
        if isinstance(v, Infinity):
            if inf is not None:
                return None
            inf = v
        else:
            x ^= v
    return x if inf is None else inf ^ x


def sum_outcome(values: Iterable[Value], *, misere: bool = False) -> str:
    """The outcome, 'P', 'N' or 'D', of a sum of components with generalized values ``values``.

    All finite: P when the nim-sum is 0, else N. Exactly one infinite, ``Infinity(K)``, the rest
    with nim-sum x: N when x is in K, else D. Two or more infinite: D.

    Parameters
    ----------
    values : iterable of int or Infinity
        The components' values.
    misere : bool, default False
        Must be False: misère play of loopy games is not supported.

    Returns
    -------
    str
        'P' (the player to move loses), 'N' (the player to move wins) or 'D' (a draw).

    Raises
    ------
    TypeError
        When a value is neither a non-negative int nor an :class:`Infinity`.
    ValueError
        When ``misere`` is true.

    Examples
    --------
    >>> import grundy as gr
    >>> gr.sum_outcome([1, 1]), gr.sum_outcome([gr.Infinity({0, 3}), 3]), gr.sum_outcome([gr.Infinity({0}), 1])
    ('P', 'N', 'D')
    >>> gr.sum_outcome([gr.Infinity({0}), gr.Infinity({0})])
    'D'
    >>> gr.sum_outcome([gr.Infinity()], misere=True)
    Traceback (most recent call last):
    ...
    grundy.exceptions.ArgumentError: misère play of loopy games is not supported: ...
    """
    _normal_play(misere)
    return value_outcome(sum_value(values))


def _iterable(x: Any, name: str) -> Iterable[Any]:
    """``x`` when it is an iterable of values (not a str), else ArgumentTypeError."""
    if isinstance(x, (str, bytes)) or not isinstance(x, Iterable):
        raise ArgumentTypeError(f"{name} must be an iterable of generalized values, not {type(x).__name__}")
    return x


def _component_options(values: Sequence[Value], component: int, option_values: Iterable[Value]) -> list[Value]:
    values = list(_iterable(values, "values"))
    if isinstance(component, (bool, np.bool_)) or not isinstance(component, (int, np.integer)):
        raise ArgumentTypeError(f"component must be an index, not {component!r}")
    if not 0 <= component < len(values):
        raise NotFoundError(f"component {component} is not an index of the {len(values)} components")
    return [_check_value(o, f"option {j}'s value") for j, o in enumerate(_iterable(option_values, "option_values"))]


def winning_options(
    values: Sequence[Value], component: int, option_values: Iterable[Value], *, misere: bool = False
) -> list[int]:
    """The options of one component that win: those that leave the whole sum a P-position.

    A move in component c to an option of value o turns the sum's value into that of the sum
    with ``values[c]`` replaced by o; it wins when that is the finite value 0. With one infinite
    component ``Infinity(K)`` and the rest of nim-sum x, the winning moves are the moves of the
    infinite component to an option of value x (so x must be in K).

    Parameters
    ----------
    values : sequence of int or Infinity
        The generalized values of the sum's components.
    component : int
        The index of the component moved in.
    option_values : iterable of int or Infinity
        The generalized values of that component's options.
    misere : bool, default False
        Must be False: misère play of loopy games is not supported.

    Returns
    -------
    list of int
        Indices into ``option_values``.

    Raises
    ------
    TypeError
        When ``component`` is not an integer, or a value is neither a non-negative int nor an
        :class:`Infinity`.
    IndexError
        When ``component`` is not an index of ``values``.
    ValueError
        When ``misere`` is true.

    Examples
    --------
    >>> import grundy as gr
    >>> # u = Infinity({0}) (options: u itself and t = 0) plus a heap of value 0: move u to t.
    >>> gr.winning_options([gr.Infinity({0}), 0], 0, [gr.Infinity({0}), 0])
    [1]
    >>> gr.winning_options([3, 1], 0, [0, 1, 2])
    [1]
    """
    _normal_play(misere)
    opts = _component_options(values, component, option_values)
    rest = [v for i, v in enumerate(values) if i != component]
    return [j for j, o in enumerate(opts) if sum_value([*rest, o]) == 0]


def drawing_options(
    values: Sequence[Value], component: int, option_values: Iterable[Value], *, misere: bool = False
) -> list[int]:
    """For a sum that is a draw, the options of one component that keep it a draw.

    A draw has no move to a P-position; a player who cannot win keeps the draw by moving to
    another D-position (a move to an N-position loses). Returns [] when the sum is not a draw.

    Parameters
    ----------
    values : sequence of int or Infinity
        The generalized values of the sum's components.
    component : int
        The index of the component moved in.
    option_values : iterable of int or Infinity
        The generalized values of that component's options.
    misere : bool, default False
        Must be False: misère play of loopy games is not supported.

    Returns
    -------
    list of int
        Indices into ``option_values``.

    Raises
    ------
    TypeError
        When ``component`` is not an integer, or a value is neither a non-negative int nor an
        :class:`Infinity`.
    IndexError
        When ``component`` is not an index of ``values``.
    ValueError
        When ``misere`` is true.

    Examples
    --------
    >>> import grundy as gr
    >>> # s -> s is a draw; s + (a heap of value 1): staying in s keeps the draw, 1 -> 0 too.
    >>> gr.drawing_options([gr.Infinity(), 1], 0, [gr.Infinity()]), gr.drawing_options([gr.Infinity(), 1], 1, [0])
    ([0], [0])
    >>> gr.drawing_options([1, 2], 0, [0])
    []
    """
    _normal_play(misere)
    opts = _component_options(values, component, option_values)
    if sum_outcome(values) != "D":
        return []
    rest = [v for i, v in enumerate(values) if i != component]
    return [j for j, o in enumerate(opts) if sum_outcome([*rest, o]) == "D"]


__all__ = [
    "INFINITE",
    "Infinity",
    "Value",
    "drawing_options",
    "sum_outcome",
    "sum_value",
    "value_outcome",
    "winning_options",
]
