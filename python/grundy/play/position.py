"""Positions: sums of games, their outcomes, and the moves that win them.

A :class:`Position` is a sum of components, each a heap of a heap game or a vertex of a
:class:`~grundy.GameGraph`; a move is made in exactly one component. Under normal play the sum
is a P-position (the player to move loses) exactly when the XOR of the components' Grundy values
(the nim-sum) is 0, and a winning move takes some component ``c`` to an option worth
``G(c) ^ X``, where ``X`` is the nim-sum. Under misère play (the player who cannot move wins)
there is no such rule: Nim has an exact strategy, other sums are searched exhaustively.

>>> import grundy as gr
>>> pos = gr.Position(gr.nim(), [10, 12, 5])
>>> pos.grundy, pos.outcome()
(3, 'N')
>>> pos.winning_moves()
[Move(component=0, before=10, after=(9,))]
>>> pos.play(pos.winning_move()).outcome()
'P'
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from .. import _core
from .._validate import as_flag, as_limit
from ..exceptions import ArgumentError, ArgumentTypeError
from . import misere as _misere
from .components import Components, Work, components_of, listed, misere_nim_is_p
from .misere import MISERE_MAX_POSITIONS
from .move import Move
from .position_display import position_card, short
from .values import sum_outcome

#: ``moves()`` and ``winning_moves()`` return at most this many moves; beyond, ValueError says
#: to iterate (``iter_moves()``, ``iter_winning_moves()``) or take one (``winning_move()``).
MAX_LISTED_MOVES = 10**6

#: ``moves()`` and ``winning_moves()`` give up (ValueError) after examining this many candidate
#: options, so that a list that cannot be completed is refused rather than left running. The
#: iterators have no such limit (Ctrl-C stops them).
MAX_SEARCH_WORK = 10**9

_UNLIMITED = float("inf")


def _play_args(misere: Any, max_positions: Any) -> tuple[bool, int]:
    """``misere`` and ``max_positions`` checked (at the call, not when a generator first runs)."""
    return as_flag(misere, "misere"), _misere.limit(max_positions)


# -- positions ------------------------------------------------------------------------------------
class Position:
    """A sum of games: heaps of a heap game, vertices of a game graph, or states, added together.

    ``Position(game, heaps)`` is a sum of heaps of ``game`` (any heap game: ``TakeAndBreak``,
    ``Subtraction``, ``HeapGame``, ``nim()``). ``Position(graph, [label, ...])`` is a sum of vertices of
    a ``GameGraph``, and ``Position(game, [state, ...])`` a sum of states of a ``StateGame`` or
    ``TwoHeapGame``. ``a + b`` adds positions; each component keeps its own game. Heaps of one game
    are kept as a numpy ``uint64`` array, so a Nim sum of 10^5 heaps costs no Python object per heap.

    Parameters
    ----------
    game : Game, GameGraph, StateGame or TwoHeapGame
        The game of every component.
    heaps : iterable, numpy.ndarray or int
        The components: heap sizes below 2**64 (a list, a numpy integer array or one int) for a heap
        game, vertex labels for a graph, hashable states for a state game.

    Raises
    ------
    TypeError
        When ``game`` cannot be a component, or ``heaps`` is not of a form it takes (a heap size
        that is not an integer, a state that is not hashable).
    ValueError
        When a heap size is negative or not below 2**64, or a label is not a vertex of the graph.

    See Also
    --------
    outcomes : The outcomes of many sums of heaps at once.
    equivalent : Whether two positions are interchangeable.

    Examples
    --------
    >>> import grundy as gr
    >>> pos = gr.Position(gr.kayles(), [5]) + gr.Position(gr.nim(), [3]) + gr.Position(gr.grundys_game(), [7])
    >>> pos
    Position(Kayles 0.77: [5] + Nim 0.[3]: [3] + Grundy's game 4!.0: [7])
    >>> pos.grundy  # G = 4 ^ 3 ^ 0
    7
    >>> gr.Position(gr.GameGraph({"a": ["b"], "b": []}), ["a"]).outcome()
    'N'
    """

    __slots__ = ("_runs", "_grundy", "__weakref__")

    def __init__(self, game: Any, heaps: Iterable[Any] | np.ndarray | int) -> None:
        self._runs: tuple[Components, ...] = (components_of(game, heaps),)
        self._grundy: int | None = None

    @classmethod
    def _of(cls, runs: Iterable[Components]) -> Position:
        merged: list[Components] = []
        for b in runs:
            if not len(b):
                continue
            if merged and merged[-1].same_game(b):
                merged[-1] = merged[-1].merge(b)
            else:
                merged.append(b)
        pos = cls.__new__(cls)
        pos._runs = tuple(merged)
        pos._grundy = None
        return pos

    # -- components -----------------------------------------------------------------------------
    def __len__(self) -> int:
        return sum(len(b) for b in self._runs)

    @property
    def heaps(self) -> list[Any]:
        """The components' heaps (or vertex labels, or states), in order, as a new list.

        Examples
        --------
        >>> import grundy as gr
        >>> (gr.Position(gr.nim(), [3, 4]) + gr.Position(gr.kayles(), [5])).heaps
        [3, 4, 5]
        """
        return [x for b in self._runs for x in b.items()]

    @property
    def components(self) -> list[tuple[Any, Any]]:
        """``(game, heap)`` for every component, in order (a vertex label or a state for those games).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.Position(gr.Subtraction([1, 2]), [5, 6]).components
        [(Subtraction([1, 2]), 5), (Subtraction([1, 2]), 6)]
        """
        return [(b.game, x) for b in self._runs for x in b.items()]

    def _locate(self, c: int) -> tuple[Components, int, int]:
        """The run holding component ``c``, its index there and the run's position."""
        start = 0
        for k, b in enumerate(self._runs):
            if c < start + len(b):
                return b, c - start, k
            start += len(b)
        raise AssertionError(c)

    # -- sums -----------------------------------------------------------------------------------
    def __add__(self, other: object) -> Position:
        if not isinstance(other, Position):
            return NotImplemented
        return Position._of(self._runs + other._runs)

    def __radd__(self, other: object) -> Position:
        if isinstance(other, int) and other == 0:  # sum(positions)
            return self
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.components == other.components

    def __hash__(self) -> int:
        return hash(tuple((b.label(), x) for b in self._runs for x in b.items()))

    def __repr__(self) -> str:
        return "Position(" + " + ".join(f"{b.label()}: {short(b.items())}" for b in self._runs) + ")"

    def _repr_html_(self) -> str:
        """Show the components, the nim-sum, the outcome and one winning move (notebook display).

        A sum with a loopy component has no nim-sum: it shows the generalized value of the sum
        instead (none when two or more components are infinite) and its outcome, a draw included.
        """
        return position_card(self)

    # -- values and outcomes --------------------------------------------------------------------
    @property
    def grundy(self) -> int:
        """The Grundy value of the sum, the XOR of its components' values.

        Reading it raises ValueError when a component is loopy (a vertex of a graph with a cycle, or a
        state of a loopy :class:`~grundy.StateGame`: the sum has a generalized value, not a Grundy
        value) and :class:`~grundy.NoPeriodError` for a heap too large to compute directly in a game
        with no proven period.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.Position(gr.Subtraction.squares(), [1, 2, 3, 4, 6]).grundy
        3
        """
        if self._loopy() is not None:
            raise ArgumentError(
                "this sum has a loopy component, whose value may be infinite: it has generalized values, not a "
                "Grundy value; use outcome(), winning_moves() and drawing_moves()"
            )
        if self._grundy is None:
            x = 0
            for b in self._runs:
                x ^= int(_core.nim_sum(np.ascontiguousarray(b.values(), dtype=np.uint64)))
            self._grundy = x
        return self._grundy

    def outcome(self, misere: bool = False, *, max_positions: int | None = None) -> str:
        """Say who wins: ``"P"`` when the player to move loses with best play, ``"N"`` when they win.

        Normal play: P exactly when :attr:`grundy` is 0. Misère play (the player who cannot move wins):
        Nim by its exact rule, anything else by exhaustive search over the positions reachable from this
        one. A sum with a loopy component (a vertex of a graph with a cycle, or a state of a loopy
        :class:`~grundy.StateGame`) may also be ``"D"``, a draw.

        Parameters
        ----------
        misere : bool, default False
            Misère play instead of normal play.
        max_positions : int, optional
            For the misère search: the most distinct positions examined (default
            ``MISERE_MAX_POSITIONS``).

        Returns
        -------
        str
            ``"P"``, ``"N"`` or (loopy sums only) ``"D"``.

        Raises
        ------
        SearchLimitError
            When the misère search meets more than ``max_positions`` positions (a ValueError).
        ValueError
            For misère play of a sum with a loopy component (not supported).
        NoPeriodError
            For a heap too large to compute directly in a game with no proven period (a ValueError).
        TypeError
            When ``max_positions`` is not an integer.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.Position(gr.nim(), [1, 1]).outcome(), gr.Position(gr.nim(), [1, 1]).outcome(misere=True)
        ('P', 'N')
        """
        misere, _ = _play_args(misere, max_positions)
        loopy = self._loopy()
        if loopy is not None:
            return sum_outcome(loopy, misere=misere)
        if not misere:
            return "P" if self.grundy == 0 else "N"
        heaps = self._nim_heaps()
        if heaps is not None:
            return "P" if misere_nim_is_p(heaps.reshape(1, -1))[0] else "N"
        return "P" if self._misere_p(_misere.limit(max_positions)) else "N"

    # -- moves ----------------------------------------------------------------------------------
    def iter_moves(self) -> Iterator[Move]:
        """Iterate over every move, lazily: component by component, each heap's options from its rule.

        Returns
        -------
        collections.abc.Iterator of Move
            The moves, made one at a time as the iterator is advanced.

        See Also
        --------
        moves : The same moves as a list.

        Examples
        --------
        >>> import grundy as gr
        >>> [str(m) for m in gr.Position(gr.kayles(), [3]).iter_moves()]
        ['component 0: 3 -> 2', 'component 0: 3 -> 1', 'component 0: 3 -> 1 + 1']
        """
        return self._moves(Work(_UNLIMITED, "moves"))

    def moves(self, *, limit: int = MAX_LISTED_MOVES) -> list[Move]:
        """List every move.

        Parameters
        ----------
        limit : int, optional
            The most moves listed (default ``MAX_LISTED_MOVES``, 10**6).

        Returns
        -------
        list of Move
            The moves, in the order of :meth:`iter_moves`.

        Raises
        ------
        ValueError
            When there are more than ``limit`` moves, or listing them would examine more than
            ``MAX_SEARCH_WORK`` candidates: the message says to iterate with :meth:`iter_moves`.
        TypeError
            When ``limit`` is not an integer.

        Examples
        --------
        >>> import grundy as gr
        >>> [str(m) for m in gr.Position(gr.nim(), [2, 1]).moves()]
        ['component 0: 2 -> nothing', 'component 0: 2 -> 1', 'component 1: 1 -> nothing']
        """
        limit = as_limit(limit, "limit")
        out = list(itertools.islice(self._moves(Work(MAX_SEARCH_WORK, "moves")), min(limit, sys.maxsize - 1) + 1))
        if len(out) > limit:
            raise ArgumentError(
                f"this position has more than limit={limit} moves; iterate over them with iter_moves()"
            )
        return out

    def iter_winning_moves(self, misere: bool = False, *, max_positions: int | None = None) -> Iterator[Move]:
        """Iterate over every winning move (a move to a P-position), lazily; none from a P-position.

        A Kayles row of 10^18 pins has about 10^17 winning moves; this yields them one by one. The errors
        below are raised as the iterator is advanced.

        Parameters
        ----------
        misere : bool, default False
            Misère play instead of normal play (see :meth:`outcome`).
        max_positions : int, optional
            For the misère search: the most distinct positions examined.

        Returns
        -------
        collections.abc.Iterator of Move
            The winning moves.

        Raises
        ------
        SearchLimitError
            When the misère search meets more than ``max_positions`` positions (a ValueError).
        ValueError
            For misère play of a sum with a loopy component, or when a component has no Grundy value.
        NoPeriodError
            For a heap too large to compute directly in a game with no proven period (a ValueError).

        Examples
        --------
        >>> import grundy as gr
        >>> m = next(gr.Position(gr.kayles(), [10**18]).iter_winning_moves())
        >>> gr.Position(gr.kayles(), list(m.after)).grundy
        0
        """
        misere, _ = _play_args(misere, max_positions)  # now, not at the first next()
        return self._winning(misere, Work(_UNLIMITED, "winning moves"), max_positions)

    def winning_moves(
        self, misere: bool = False, *, limit: int = MAX_LISTED_MOVES, max_positions: int | None = None
    ) -> list[Move]:
        """List every winning move (empty for a P-position).

        Parameters
        ----------
        misere : bool, default False
            Misère play instead of normal play (see :meth:`outcome`).
        limit : int, optional
            The most moves listed (default ``MAX_LISTED_MOVES``, 10**6).
        max_positions : int, optional
            For the misère search: the most distinct positions examined.

        Returns
        -------
        list of Move
            The winning moves, in the order of :meth:`iter_winning_moves`.

        Raises
        ------
        ValueError
            When there are more than ``limit`` winning moves, or finding them all would examine more than
            ``MAX_SEARCH_WORK`` candidates; and as :meth:`iter_winning_moves` raises.
        SearchLimitError
            When the misère search meets more than ``max_positions`` positions (a ValueError).
        TypeError
            When ``limit`` is not an integer.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.Position(gr.nim(), [10, 12, 5]).winning_moves()
        [Move(component=0, before=10, after=(9,))]
        >>> gr.Position(gr.nim(), [9, 12, 5]).winning_moves()
        []
        """
        misere, _ = _play_args(misere, max_positions)
        limit = as_limit(limit, "limit")
        found = self._winning(misere, Work(MAX_SEARCH_WORK, "winning moves"), max_positions)
        return listed(found, limit, "winning moves")

    def winning_move(self, misere: bool = False, *, max_positions: int | None = None) -> Move | None:
        """Find one winning move, fast even for heaps of 10^18 tokens.

        Parameters
        ----------
        misere : bool, default False
            Misère play instead of normal play (see :meth:`outcome`).
        max_positions : int, optional
            For the misère search: the most distinct positions examined.

        Returns
        -------
        Move or None
            The first winning move of :meth:`iter_winning_moves`, or None from a P-position.

        Raises
        ------
        SearchLimitError
            When the misère search meets more than ``max_positions`` positions (a ValueError).
        ValueError
            For misère play of a sum with a loopy component, or when a component has no Grundy value.
        NoPeriodError
            For a heap too large to compute directly in a game with no proven period (a ValueError).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.Position(gr.nim(), [10, 12, 5]).winning_move()
        Move(component=0, before=10, after=(9,))
        """
        return next(self.iter_winning_moves(misere, max_positions=max_positions), None)

    def play(self, move: Move) -> Position:
        """Return the position after ``move``.

        Component ``move.component`` is replaced by the heaps ``move.after`` (a graph vertex by its
        option, a state by its parts). The position itself is not changed.

        Parameters
        ----------
        move : Move
            A move of this position, as :meth:`moves` or :meth:`winning_moves` give them, or built by hand.

        Returns
        -------
        Position
            The new position.

        Raises
        ------
        TypeError
            When ``move`` is not a :class:`Move`, or its fields have the wrong types.
        ValueError
            When the move does not belong to this position (its component is out of range, its ``before``
            is not that component, or its ``after`` is not an option of it).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.Position(gr.kayles(), [7, 2]).play(gr.Move(0, 7, (2, 3)))
        Position(Kayles 0.77: [2, 3, 2])
        """
        if not isinstance(move, Move):
            raise ArgumentTypeError(f"play() takes a Move, not {type(move).__name__}")
        c = move.component
        if isinstance(c, bool) or not isinstance(c, (int, np.integer)):
            raise ArgumentTypeError(f"a move's component must be an int, not {type(c).__name__}")
        if not 0 <= c < len(self):
            raise ArgumentError(f"component {c} is out of range: this position has {len(self)} components")
        run, i, k = self._locate(int(c))
        if not isinstance(move.after, tuple):
            raise ArgumentTypeError(f"a move's after must be a tuple, not {type(move.after).__name__}")
        new = run.play(i, move)
        return Position._of(self._runs[:k] + (new,) + self._runs[k + 1 :])

    # -- the searches ---------------------------------------------------------------------------
    def _moves(self, work: Work) -> Iterator[Move]:
        start = 0
        for b in self._runs:
            yield from b.moves(start, work)
            start += len(b)

    def _loopy(self) -> list[Any] | None:
        """Every component's generalized value when some component is loopy, else None."""
        found = [b.generalized() for b in self._runs]
        if all(g is None for g in found):
            return None
        out: list[Any] = []
        for b, g in zip(self._runs, found, strict=True):
            out.extend(g if g is not None else b.values().tolist())
        return out

    def drawing_moves(self, *, limit: int = MAX_LISTED_MOVES) -> list[Move]:
        """List the moves that keep a drawn position drawn (empty unless :meth:`outcome` is ``"D"``).

        Only sums with a loopy component (a vertex of a :class:`~grundy.GameGraph` with a cycle, or a
        state of a :class:`~grundy.StateGame` made with ``loopy=True``) can be draws: from a draw, the
        player to move cannot win, and should keep the game going with one of these moves.

        Parameters
        ----------
        limit : int, optional
            The most moves listed (default ``MAX_LISTED_MOVES``, 10**6).

        Returns
        -------
        list of Move
            The moves to drawn positions, in move order.

        Raises
        ------
        ValueError
            When there are more than ``limit`` such moves.

        Examples
        --------
        >>> import grundy as gr
        >>> g = gr.GameGraph({"s": ["s", "t"], "t": []})
        >>> pos = gr.Position(g, ["s", "s"])
        >>> pos.outcome(), pos.drawing_moves()
        ('D', [Move(component=0, before='s', after=('s',)), Move(component=1, before='s', after=('s',))])
        """
        limit = as_limit(limit, "limit")
        if self.outcome() != "D":
            return []
        found = (m for m in self._moves(Work(MAX_SEARCH_WORK, "drawing moves")) if self.play(m).outcome() == "D")
        return listed(found, limit, "drawing moves")

    def _winning(self, misere: bool, work: Work, max_positions: int | None) -> Iterator[Move]:
        if self._loopy() is not None:
            if misere:
                raise ArgumentError(
                    "misère play of loopy games is not supported: their "
                    "misère theory is not built here"
                )
            # A move to a P-position: one loopy component left infinite can never give P, so this is short.
            if self.outcome() == "N":
                yield from (m for m in self._moves(work) if self.play(m).outcome() == "P")
            return
        if misere:
            heaps = self._nim_heaps()
            if heaps is not None:
                yield from _misere.nim_moves(self._runs, heaps)
            else:
                yield from self._misere_moves(_misere.limit(max_positions))
            return
        x = self.grundy
        if x == 0:
            return
        start = 0
        for b in self._runs:
            yield from b.winning(start, x, work)
            start += len(b)

    def _misere_p(self, limit: int) -> bool:
        """Misère outcome: decided by the run itself when it is the whole sum and can, else by the core."""
        if len(self._runs) == 1:
            own = self._runs[0].misere_p(limit)
            if own is not None:
                return own
        is_p, _ = _misere.search(self._runs, limit, want_moves=False)
        return is_p

    def _misere_moves(self, limit: int) -> Iterator[Move]:
        if len(self._runs) == 1:
            # A run that plays misère sums itself (a heap game through its misère quotient).
            own = self._runs[0].misere_winning(0)
            if own is not None:
                yield from own
                return
        if len(self._runs) == 1 and self._runs[0].misere_p(limit) is not None:
            # The game decides misère outcomes itself: every move to a misère P-position.
            for m in self._moves(Work(_UNLIMITED, "winning moves")):
                if self.play(m)._misere_p(limit):
                    yield m
            return
        _, found = _misere.search(self._runs, limit, want_moves=True)
        yield from found

    def _nim_heaps(self) -> np.ndarray | None:
        """Every heap, when every component is Nim (misère Nim has an exact rule); else None."""
        parts = [b.nim_heaps() for b in self._runs]
        if any(p is None for p in parts):
            return None
        return np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)  # type: ignore[arg-type]


__all__ = ["MAX_LISTED_MOVES", "MAX_SEARCH_WORK", "MISERE_MAX_POSITIONS", "Move", "Position"]
