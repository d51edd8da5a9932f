"""Heap games whose rule is written in Python: the options of each heap, as sums of smaller heaps."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable

from ... import _core
from ..._validate import as_heap, as_name
from ...exceptions import ArgumentError, ArgumentTypeError
from .game import Game

Rule = Callable[[int], Iterable[Iterable[int]]]


class HeapGame(Game):
    """A heap game given by a Python callable ``options(n)``.

    The value of an option is the XOR of its heaps' values and G(n) is the mex of those; Rust does
    both, Python is called once per heap size. Every part must satisfy ``0 <= part < n``: a part not
    smaller than ``n`` would make the game loop. ``values()`` and ``value()`` work as for the built-in
    rules; exceptions raised by the callable propagate from them unchanged, and a bad option raises
    there (ValueError for a part negative or not smaller than ``n``, naming the heap and the option;
    TypeError for a part that is not an integer).

    Parameters
    ----------
    options : callable
        ``options(n)`` lists the options of a heap of ``n`` tokens, each a tuple of heap sizes (the
        heaps the move leaves; ``()`` leaves nothing).
    name : str, optional
        A name shown beside the rule.

    Attributes
    ----------
    rule : callable
        The ``options`` callable.

    Raises
    ------
    TypeError
        When ``options`` is not callable.

    Examples
    --------
    Kayles (remove one or two adjacent pins from a row, which may split it in two):

    >>> import grundy as gr
    >>> kayles = gr.HeapGame(lambda n: [(a, n - k - a) for k in (1, 2) if k <= n for a in range((n - k) // 2 + 1)])
    >>> kayles.values(12).tolist()
    [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]

    Guard small heaps so that no part is negative (``lambda n: [(n - 1,), (1, n - 3)]`` fails at
    ``n = 0`` with ValueError):

    >>> def rule(n):  # move to a heap of n - 1, or to heaps of 1 and n - 3
    ...     out = [(n - 1,)] if n >= 1 else []
    ...     if n >= 3:
    ...         out.append((1, n - 3))
    ...     return out
    >>> gr.HeapGame(rule).values(8).tolist()
    [0, 1, 0, 2, 1, 0, 1, 2]
    """

    def __init__(self, options: Rule, *, name: str | None = None) -> None:
        if not callable(options):
            raise ArgumentTypeError(
                "options must be a callable options(n) -> list of "
                f"tuples, not {type(options).__name__}"
            )
        self.rule = options
        self.name = as_name(name)
        self._made = (type(self), {"options": options, "name": self.name})
        super().__init__(_core.HeapCore.options(options), ("options", id(options)))

    def options(self, n: int) -> list[tuple[int, ...]]:
        """List the options of a heap of ``n`` as the rule gives them, each a tuple of heap sizes.

        The options are checked as :meth:`~grundy.Game.values` checks them.

        Parameters
        ----------
        n : int
            The heap size.

        Returns
        -------
        list of tuple of int
            The options, in the rule's order.

        Raises
        ------
        TypeError
            When ``n`` is not an integer, an option is not a tuple of heap sizes, or a part is not an
            integer.
        ValueError
            When ``n`` is negative, or a part is negative or not smaller than ``n``.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.HeapGame(lambda n: [(n - 1,)] if n else []).options(3)
        [(2,)]
        """
        n = as_heap(n, "n")
        out = []
        for opt in self.rule(n):
            try:
                parts = tuple(opt)
            except TypeError:
                raise ArgumentTypeError(
                    f"heap {n}: option {opt!r} must be a tuple of "
                    f"heap sizes, like ({opt!r},)"
                ) from None
            ints = []
            for p in parts:
                try:
                    if isinstance(p, bool):
                        raise TypeError
                    p = operator.index(p)
                except TypeError:
                    raise ArgumentTypeError(
                        f"heap {n}: option {opt!r}: a heap size must be an integer, not {type(p).__name__} ({p!r})"
                    ) from None
                if p < 0:
                    raise ArgumentError(f"heap {n}: option {opt!r} has a negative part {p}")
                if p >= n:
                    raise ArgumentError(
                        f"heap {n}: option {opt!r} has a part {p} that is not smaller than {n}; "
                        "every move must leave smaller heaps (else the rule loops)"
                    )
                ints.append(p)
            out.append(tuple(ints))
        return out

    def _label(self) -> str:
        return self._constructor()

    def _describe_html(self) -> str:
        return "the options of each heap, from a Python callable"

    def _constructor(self) -> str:
        rule = getattr(self.rule, "__qualname__", repr(self.rule))
        return f"HeapGame({rule})"

    def __str__(self) -> str:
        return self._constructor()


__all__ = ["HeapGame"]
