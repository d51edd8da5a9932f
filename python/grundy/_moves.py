"""Moves, and the components of a sum that make them: the component protocol of :class:`Position`.

A :class:`~grundy.Position` is a sequence of *blocks*, each a run of components of one game (heaps of
a heap game, vertices of a graph, ...). Every game that can be a component implements one method,
``game._component_block(items) -> Block``, and the block implements :class:`Block`. The position
knows nothing else about its games: a new kind of game plugs in by writing a block class.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from . import _core
from ._nimsum import heap_array
from .exceptions import ArgumentError, ArgumentTypeError, SearchLimitError

if TYPE_CHECKING:
    from .games import Game
    from .graph import GameGraph

__all__ = ["Block", "GraphBlock", "HeapBlock", "Move", "StateBlock", "Work"]

#: Candidates examined per call into the core while iterating (keeps Ctrl-C responsive).
_SLICE = 1 << 20

#: A Python-level candidate counts this many times toward a :class:`Work` limit.
PY_WEIGHT = 100


@dataclass(frozen=True)
class Move:
    """A move in one component of a sum.

    Parameters
    ----------
    component : int
        The index of the component in the sum.
    before : hashable
        The heap (or graph vertex label, or state) the component holds.
    after : tuple
        What the move leaves there: the tuple of heaps (``()`` when the whole heap is taken), or a
        1-tuple with the new vertex for a graph component. Moves compare and hash by value.

    Examples
    --------
    >>> import grundy as gr
    >>> m = gr.Move(0, 10, (9,))
    >>> m, str(m)
    (Move(component=0, before=10, after=(9,)), 'component 0: 10 -> 9')
    >>> m == gr.Position(gr.nim(), [10, 12, 5]).winning_move()
    True
    """

    component: int
    before: Hashable
    after: tuple[Any, ...]

    def __repr__(self) -> str:
        """Show the move as its constructor call."""
        return f"Move(component={self.component}, before={self.before!r}, after={self.after!r})"

    def __str__(self) -> str:
        """Show the move as ``component c: before -> after``."""
        left = " + ".join(repr(x) for x in self.after) or "nothing"
        return f"component {self.component}: {self.before!r} -> {left}"




class Work:
    """Candidates a search may still examine; ValueError once they run out.

    Parameters
    ----------
    limit : float
        How many candidates may be examined (``float("inf")`` for no limit).
    what : str
        What is being listed, for the error message (``"moves"``, ``"winning moves"``).

    Examples
    --------
    >>> w = Work(10, "moves"); w.spend(4); w.left
    6
    """

    def __init__(self, limit: float, what: str) -> None:
        self.left = limit
        self.limit = limit
        self.what = what

    def spend(self, n: float) -> None:
        """Count ``n`` candidates; raise SearchLimitError (a ValueError) once the limit is passed."""
        self.left -= n
        if self.left < 0:
            raise SearchLimitError(
                f"listing {self.what} examined more than MAX_SEARCH_WORK = {self.limit:.0e} candidate options "
                f"and stopped; iterate lazily with iter_{self.what.replace(' ', '_')}() or take one winning "
                "move with winning_move()",
                limit=int(self.limit),
            )

    def slice(self) -> int:
        """How many candidates the next call into the core may examine."""
        return int(min(_SLICE, max(self.left, 1)))


class Block(Protocol):
    """The contract of a run of components of one game inside a :class:`~grundy.Position`.

    ``game._component_block(items)`` builds one from the items a user gave (heap sizes, vertex labels,
    states), validating them. A block is immutable. ``start`` below is the index of the block's first
    component in the whole sum, so that moves name their component by its index there.
    """

    game: Any

    def __len__(self) -> int:
        """The number of components."""
        ...

    def item(self, i: int) -> Hashable:
        """The ``i``-th component as the user sees it (a heap size, a vertex label, ...)."""
        ...

    def items(self) -> list[Any]:
        """Every component, in order."""
        ...

    def values(self) -> np.ndarray:
        """The components' Grundy values, a ``uint64`` array."""
        ...

    def same_game(self, other: Block) -> bool:
        """Whether ``other`` holds components of the same game (so the two can merge)."""
        ...

    def generalized(self) -> list[Any] | None:
        """The components' generalized values (ints or ``Infinity``) when the game is loopy, else None."""
        ...

    def merge(self, other: Block) -> Block:
        """Return this block followed by ``other`` (of the same game)."""
        ...

    def moves(self, start: int, work: Work) -> Iterator[Move]:
        """Every move of every component, component by component."""
        ...

    def winning(self, start: int, x: int, work: Work) -> Iterator[Move]:
        """The moves of components ``c`` to options worth ``G(c) ^ x`` (x is the sum's nim-sum)."""
        ...

    def play(self, i: int, move: Move) -> Block:
        """The block with component ``i`` replaced as ``move`` says; ValueError if it is no option."""
        ...

    def nim_heaps(self) -> np.ndarray | None:
        """The heaps as a ``uint64`` array when the game is Nim (misère Nim has an exact rule), else None."""
        ...

    def nim_after(self, h: int) -> tuple[Any, ...]:
        """What a Nim move to a heap of ``h`` leaves (only called when :meth:`nim_heaps` is not None)."""
        ...

    def misere_p(self, limit: int) -> bool | None:
        """Whether this block alone is a misère P-position, when the game decides that itself; else None."""
        ...

    def misere_winning(self, start: int) -> Iterator[Move] | None:
        """Return the misère winning moves when the block is the whole sum and plays misère itself, else None."""
        ...

    def misere_root(self, limit: int) -> tuple[Any, list[int]]:
        """The core's view of the game for the exhaustive misère search and the components' ids there."""
        ...

    def misere_after(self, i: int, after: Sequence[int]) -> tuple[Any, ...]:
        """A move found by the misère search (ids in the core's view), as :attr:`Move.after`."""
        ...

    def row_outcomes(self, rows: np.ndarray, misere: bool, limit: int) -> np.ndarray:
        """Whether each row of a 2-d ``uint64`` array, a sum of this game's items, is a P-position."""
        ...

    def label(self) -> str:
        """The game's name in a position's repr."""
        ...


def indices(mask: np.ndarray) -> Iterator[int]:
    """Yield the indices where ``mask`` is True, converted a chunk at a time.

    Taking the first costs no more than one chunk.

    Examples
    --------
    >>> list(indices(np.array([False, True, True])))
    [1, 2]
    """
    idx = np.flatnonzero(mask)
    for k in range(0, idx.size, 4096):
        yield from idx[k : k + 4096].tolist()


def misere_nim_is_p(rows: np.ndarray) -> np.ndarray:
    """Misère Nim: whether each row of heaps is a P-position (one rule for sums and for rows).

    A row is P when all its heaps are at most 1 and the number of 1-heaps is odd, or when some heap
    is larger than 1 and the nim-sum is 0.

    Examples
    --------
    >>> misere_nim_is_p(np.array([[1, 1, 1], [1, 1, 0], [2, 2, 0]], dtype=np.uint64)).tolist()
    [True, False, True]
    """
    big = np.any(rows > 1, axis=1)
    odd_ones = np.count_nonzero(rows == 1, axis=1) % 2 == 1
    out: np.ndarray = np.where(big, np.bitwise_xor.reduce(rows, axis=1) == 0, odd_ones)
    return out


def _expand(kind: str, x: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Yield the options a family from the core stands for (see ``src/position/family.rs``)."""
    if kind == "one":
        yield tuple(x)
    elif kind == "singles":
        h0, step, count = x
        for i in range(count):
            yield (h0 + i * step,)
    elif kind == "pairs":
        prefix, s, a0, step, count = x
        for i in range(count):
            a = a0 + i * step
            yield (prefix, a, s - a) if prefix else (a, s - a)
    elif kind == "submask":
        c, t, free = x
        m = 0
        while True:
            if c or m:
                yield (c | m, c | (t ^ m))
            if m == free:
                break
            m = ((m | ~free) + 1) & free  # next submask of free, increasing
    elif kind == "grid":
        s, a, b0, lo, step, u = x
        while 3 * a + 3 * u <= s:
            bmin = max(lo, a + u)
            b = bmin + (b0 - bmin) % step
            bmax = (s - a - u) // 2
            while b <= bmax:
                yield (a, b, s - a - b)
                b += step
            a += step
    else:  # pragma: no cover - the core knows no other kind
        raise AssertionError(kind)


def _check_parts(after: tuple[Any, ...], move: Move) -> list[int]:
    parts = []
    for p in after:
        if isinstance(p, bool) or not isinstance(p, (int, np.integer)):
            raise ArgumentTypeError(f"{move!r}: the heaps a move leaves must be integers, not {type(p).__name__}")
        if not 0 <= p < 2**64:
            raise ArgumentError(f"{move!r} does not belong to this position: {p} is not a heap size")
        parts.append(int(p))
    return parts


class HeapBlock:
    """Heaps of one heap game, as a read-only ``uint64`` array (see :class:`Block`).

    Parameters
    ----------
    game : Game
        The heap game.
    heaps : numpy.ndarray
        The heap sizes, a read-only ``uint64`` array.

    Examples
    --------
    >>> import grundy as gr
    >>> b = gr.kayles()._component_block([4, 5])
    >>> b.values().tolist()
    [1, 4]
    """

    __slots__ = ("game", "heaps", "_values")

    def __init__(self, game: Game, heaps: np.ndarray) -> None:
        self.game = game
        self.heaps = heaps
        self._values: np.ndarray | None = None

    @classmethod
    def of(cls, game: Game, heaps: Any) -> HeapBlock:
        """Validate heap sizes (an iterable, an integer array or one int) into a block."""
        if isinstance(heaps, (int, np.integer)) and not isinstance(heaps, (bool, np.bool_)):
            heaps = [heaps]
        arr = np.array(heap_array(heaps), dtype=np.uint64)  # a private copy
        arr.flags.writeable = False
        return cls(game, arr)

    def __len__(self) -> int:
        """Return the number of heaps."""
        return int(self.heaps.size)

    def item(self, i: int) -> int:
        """Return heap ``i``."""
        return int(self.heaps[i])

    def items(self) -> list[Any]:
        """Return the heaps as a list of ints."""
        return list(self.heaps.tolist())

    def values(self) -> np.ndarray:
        """Return G of every heap, ``uint64``."""
        if self._values is None:
            if self.game.is_nim or not self.heaps.size:
                self._values = self.heaps
            else:
                self._values = self.game._heap_values(self.heaps)
        return self._values

    def same_game(self, other: Block) -> bool:
        """Whether ``other`` holds heaps of an equal game."""
        return isinstance(other, HeapBlock) and other.game == self.game

    def generalized(self) -> list[Any] | None:
        """Return None: heap games have ordinary values."""
        return None

    def merge(self, other: Block) -> HeapBlock:
        """Return this block's heaps followed by ``other``'s."""
        assert isinstance(other, HeapBlock)
        arr = np.concatenate([self.heaps, other.heaps])
        arr.flags.writeable = False
        return HeapBlock(self.game, arr)

    def _options(self, n: int, target: int | None, work: Work, tail: Any = None) -> Iterator[tuple[int, ...]]:
        """Yield the options of heap ``n`` (those worth ``target`` when given)."""
        rule = self.game._heap_rule()
        if rule is None:
            work.spend(PY_WEIGHT * (n + 1))
            if target is None:
                yield from self.game._py_options(n)
                return
            table = self.game.values(n + 1).astype(np.uint64)
            for after in self.game._py_options(n):
                if int(np.bitwise_xor.reduce(table[list(after)], initial=np.uint64(0))) == target:
                    yield after
            return
        seq = self.game._core_values()
        cursor: tuple[int, int] | None = (0, 0)
        while cursor is not None:
            fams, cursor, done = rule.search(seq, tail, n, target, cursor, work.slice())
            work.spend(done)
            for kind, x in fams:
                yield from _expand(kind, x)

    def moves(self, start: int, work: Work) -> Iterator[Move]:
        """Yield every move, heap by heap."""
        for i, h in enumerate(self.heaps.tolist()):
            for after in self._options(h, None, work):
                yield Move(start + i, h, after)

    def winning(self, start: int, x: int, work: Work) -> Iterator[Move]:
        """Yield the moves of heaps ``h`` to options worth ``G(h) ^ x``."""
        heaps = self.heaps
        if self.game.is_nim:
            # Classic Nim: the heaps h with h ^ x < h (those with x's top bit) move to h ^ x.
            target = heaps ^ np.uint64(x)
            for i in indices(target < heaps):
                yield Move(start + i, int(heaps[i]), self.nim_after(int(target[i])))
            return
        targets = self.values() ^ np.uint64(x)
        rule = self.game._heap_rule()
        if rule is None:
            for i, h in enumerate(heaps.tolist()):
                for after in self._options(h, int(targets[i]), work):
                    yield Move(start + i, h, after)
            return
        tail = self.game._tail(int(heaps.max()))
        # Which heaps have a winning option at all: in parallel in the core, once per heap size.
        uniq, inverse = np.unique(heaps, return_inverse=True)
        first = np.zeros(uniq.size, dtype=np.intp)
        first[inverse[::-1]] = np.arange(heaps.size)[::-1]
        has = rule.has_option(self.game._core_values(), tail, uniq, np.ascontiguousarray(targets[first]))
        for i in indices(has[inverse]):
            h = int(heaps[i])
            for after in self._options(h, int(targets[i]), work, tail):
                yield Move(start + i, h, after)

    def play(self, i: int, move: Move) -> HeapBlock:
        """Return the block with heap ``i`` replaced by the heaps ``move.after``."""
        before = self.item(i)
        if move.before != before or isinstance(move.before, bool):
            raise ArgumentError(f"{move!r} does not belong to this position: component {move.component} is {before!r}")
        parts = _check_parts(move.after, move)
        if not self.game._is_option(before, parts):
            raise ArgumentError(
                f"{move!r} does not belong to this position: {move.after!r} is not an option of a heap of "
                f"{before} in {self.label()}"
            )
        arr = np.concatenate([self.heaps[:i], np.asarray(parts, dtype=np.uint64), self.heaps[i + 1 :]])
        arr.flags.writeable = False
        return HeapBlock(self.game, arr)

    def nim_heaps(self) -> np.ndarray | None:
        """Return the heaps when the game is Nim, else None."""
        return self.heaps if self.game.is_nim else None

    def nim_after(self, h: int) -> tuple[Any, ...]:
        """Return what a Nim move to a heap of ``h`` leaves."""
        return self.game._nim_after(h)

    def misere_p(self, limit: int) -> bool | None:
        """Return the misère outcome through the game's misère quotient when one is cached or cheap, else None."""
        q = self._quotient()
        return None if q is None else q.outcome(self.heaps) == "P"

    def misere_winning(self, start: int) -> Iterator[Move] | None:
        """Return the misère winning moves through the game's misère quotient, or None without one."""
        q = self._quotient()
        if q is None:
            return None
        # The quotient finds the winning options once per heap size; every heap of that size has them.
        by_size: dict[int, list[tuple[int, ...]]] = {}
        for m in q.winning_moves(self.heaps):
            by_size.setdefault(int(m.before), []).append(m.after)
        heaps = self.heaps
        return (
            Move(start + i, int(heaps[i]), after)
            for i in indices(np.isin(heaps, np.fromiter(by_size, np.uint64, len(by_size))))
            for after in by_size[int(heaps[i])]
        )

    def _quotient(self) -> Any:
        from .misere_quotient import cached_quotient

        if self.game.is_nim or not self.heaps.size:
            return None
        top = int(self.heaps.max())
        q = cached_quotient(self.game, top)
        return q if q is not None and q.max_heap >= top else None

    def misere_root(self, limit: int) -> tuple[Any, list[int]]:
        """Return the rule for the misère search (a table of options for Python rules) and the heaps."""
        from ._misere import option_table

        rule = self.game._heap_rule()
        if rule is None:
            rule = option_table(self.game, int(self.heaps.max()), limit)
        return rule, list(self.heaps.tolist())

    def misere_after(self, i: int, after: Sequence[int]) -> tuple[Any, ...]:
        """Return the heaps a misère-search move leaves."""
        return tuple(after)

    def row_outcomes(self, rows: np.ndarray, misere: bool, limit: int) -> np.ndarray:
        """Return whether each row of heaps is a P-position (in parallel in the core)."""
        if misere:
            if self.game.is_nim:
                return misere_nim_is_p(rows)
            rule, _ = HeapBlock(self.game, rows.ravel()).misere_root(limit)
            return _core.misere_outcomes([rule], rows, limit)
        tail = (0, 1, 1) if self.game.is_nim else self.game._tail(int(rows.max()))
        return _core.outcomes(self.game._core_values(), tail, rows)

    def label(self) -> str:
        """Return the game's name and code (or constructor)."""
        return self.game._label()


class GraphBlock:
    """Vertices of one game graph: their labels and vertex ids (see :class:`Block`).

    Parameters
    ----------
    game : GameGraph
        The graph.
    labels : list
        The vertex labels.
    ids : numpy.ndarray
        Their vertex ids.

    Examples
    --------
    >>> import grundy as gr
    >>> g = gr.GameGraph({"a": ["b"], "b": []})
    >>> g._component_block(["a", "b"]).values().tolist()
    [1, 0]
    """

    __slots__ = ("game", "labels", "ids")

    def __init__(self, game: GameGraph, labels: list[Hashable], ids: np.ndarray) -> None:
        self.game = game
        self.labels = labels
        self.ids = ids

    @classmethod
    def of(cls, graph: GameGraph, labels: Any) -> GraphBlock:
        """Validate vertex labels into a block."""
        if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
            raise ArgumentTypeError(
                f"the vertices of a graph position must be a list of vertex labels, not {type(labels).__name__}"
            )
        labels = list(labels)
        ids = []
        for x in labels:
            try:
                ids.append(graph.vertex(x))
            except KeyError:
                raise ArgumentError(f"{x!r} is not a vertex of {graph!r}") from None
        return cls(graph, labels, np.asarray(ids, dtype=np.int64))

    def __len__(self) -> int:
        """Return the number of vertices."""
        return len(self.labels)

    def item(self, i: int) -> Hashable:
        """Return the label of vertex ``i``."""
        return self.labels[i]

    def items(self) -> list[Any]:
        """Return the labels."""
        return list(self.labels)

    def values(self) -> np.ndarray:
        """Return the vertices' Grundy values, ``uint64``."""
        values: np.ndarray = self.game._cached()[self.ids].astype(np.uint64)
        return values

    def same_game(self, other: Block) -> bool:
        """Whether ``other`` holds vertices of this very graph."""
        return isinstance(other, GraphBlock) and other.game is self.game

    def generalized(self) -> list[Any] | None:
        """Return the vertices' generalized values when the graph has a cycle, else None."""
        gv = self.game._loopy_values()
        return None if gv is None else [gv.value(label) for label in self.labels]

    def merge(self, other: Block) -> GraphBlock:
        """Return this block's vertices followed by ``other``'s."""
        assert isinstance(other, GraphBlock)
        return GraphBlock(self.game, self.labels + other.labels, np.concatenate([self.ids, other.ids]))

    def _each(self, start: int, work: Work, keep: Callable[[int, Hashable], bool]) -> Iterator[Move]:
        for i, label in enumerate(self.labels):
            for o in self.game.options(label):
                if keep(i, o):
                    yield Move(start + i, label, (o,))
            work.spend(PY_WEIGHT)

    def moves(self, start: int, work: Work) -> Iterator[Move]:
        """Yield every move, vertex by vertex."""
        return self._each(start, work, lambda i, o: True)

    def winning(self, start: int, x: int, work: Work) -> Iterator[Move]:
        """Yield the moves of vertices ``v`` to options worth ``G(v) ^ x``."""
        vals = self.game._cached()
        targets = [int(vals[v]) ^ x for v in self.ids.tolist()]
        return self._each(start, work, lambda i, o: int(vals[self.game.vertex(o)]) == targets[i])

    def play(self, i: int, move: Move) -> GraphBlock:
        """Return the block with vertex ``i`` replaced by the option ``move.after[0]``."""
        before = self.item(i)
        if move.before != before:
            raise ArgumentError(f"{move!r} does not belong to this position: component {move.component} is {before!r}")
        after = move.after
        if len(after) != 1 or after[0] not in self.game or after[0] not in self.game.options(before):
            raise ArgumentError(f"{move!r} does not belong to this position: {after!r} is not an option of {before!r}")
        ids = self.ids.copy()
        ids[i] = self.game.vertex(after[0])
        return GraphBlock(self.game, self.labels[:i] + [after[0]] + self.labels[i + 1 :], ids)

    def nim_heaps(self) -> np.ndarray | None:
        """Return None: a graph is not Nim."""
        return None

    def nim_after(self, h: int) -> tuple[Any, ...]:  # pragma: no cover - graphs are never Nim
        """Not used: a graph is not Nim."""
        raise AssertionError("a graph is not Nim")

    def misere_p(self, limit: int) -> bool | None:
        """Return None: the core's misère search decides."""
        return None

    def misere_winning(self, start: int) -> Iterator[Move] | None:
        """Return None: the exhaustive misère search finds the moves."""
        return None

    def misere_root(self, limit: int) -> tuple[Any, list[int]]:
        """Return the core graph and the vertex ids."""
        return self.game._core, list(self.ids.tolist())

    def misere_after(self, i: int, after: Sequence[int]) -> tuple[Any, ...]:
        """Return the label of the vertex a misère-search move leads to."""
        return (self.game.label(after[0]),)

    def row_outcomes(self, rows: np.ndarray, misere: bool, limit: int) -> np.ndarray:
        """Return whether each row of vertex ids is a P-position."""
        if rows.size and int(rows.max()) >= self.game.num_vertices:
            raise ArgumentError(f"vertex id {int(rows.max())} is not below num_vertices = {self.game.num_vertices}")
        if not misere:
            vals = self.game._cached().astype(np.uint64)[rows]
            is_p: np.ndarray = np.bitwise_xor.reduce(vals, axis=1) == 0
            return is_p
        return _core.misere_outcomes([self.game._core], rows, limit)

    def label(self) -> str:
        """Return the graph's repr."""
        return repr(self.game)


class StateBlock:
    """States of a game whose positions are arbitrary hashable states (see :class:`Block`).

    The game (a :class:`~grundy.StateGame` or a :class:`~grundy.TwoHeapGame`) provides ``value(state)``,
    ``_moves(state)`` (pairs ``(option, parts)``: what ``options`` returned and the canonical
    components it splits into), ``_misere_sum_p(states, limit)`` and ``_name()``. A move's ``after``
    is the tuple of parts, which replace the state in the sum.

    Parameters
    ----------
    game : StateGame or TwoHeapGame
        The game.
    states : list
        The states, one per component.

    Examples
    --------
    >>> import grundy as gr
    >>> nim = gr.StateGame(lambda n: range(n))
    >>> nim._component_block([3, 5]).values().tolist()
    [3, 5]
    """

    __slots__ = ("game", "states")

    def __init__(self, game: Any, states: list[Hashable]) -> None:
        self.game = game
        self.states = states

    @classmethod
    def of(cls, game: Any, states: Any) -> StateBlock:
        """Validate states (an iterable of hashable values) into a block."""
        if isinstance(states, (str, bytes)) or not isinstance(states, Iterable):
            raise ArgumentTypeError(
                "the states of a position must be an iterable of "
                f"states, not {type(states).__name__}"
            )
        out = list(states)
        for s in out:
            try:
                hash(s)
            except TypeError:
                raise ArgumentTypeError(f"a state must be hashable, not {type(s).__name__} ({s!r})") from None
        return cls(game, out)

    def __len__(self) -> int:
        """Return the number of states."""
        return len(self.states)

    def item(self, i: int) -> Hashable:
        """Return state ``i``."""
        return self.states[i]

    def items(self) -> list[Any]:
        """Return the states."""
        return list(self.states)

    def values(self) -> np.ndarray:
        """Return the states' Grundy values, ``uint64`` (ValueError for an infinite generalized value)."""
        values = [self.game.value(s) for s in self.states]
        for s, v in zip(self.states, values, strict=True):
            if not isinstance(v, (int, np.integer)):
                raise ArgumentError(f"state {s!r} of {self.label()} has the infinite generalized value {v!r}")
        return np.array(values, dtype=np.uint64)

    def same_game(self, other: Block) -> bool:
        """Whether ``other`` holds states of this very game."""
        return isinstance(other, StateBlock) and other.game is self.game

    def generalized(self) -> list[Any] | None:
        """Return the states' generalized values for a loopy game (``loopy=True``), else None."""
        if not getattr(self.game, "loopy", False):
            return None
        return list(self.game.values(self.states).tolist())

    def merge(self, other: Block) -> StateBlock:
        """Return this block's states followed by ``other``'s."""
        assert isinstance(other, StateBlock)
        return StateBlock(self.game, self.states + other.states)

    def _parts_value(self, parts: tuple[Any, ...]) -> int:
        v = 0
        for p in parts:
            v ^= int(self.game.value(p))
        return v

    def _afters(self, s: Hashable) -> list[tuple[Any, ...]]:
        """The distinct sums of parts the options of ``s`` leave (as multisets), in the order options gives them."""
        seen: dict[frozenset[tuple[Any, int]], tuple[Any, ...]] = {}
        for _, parts in self.game._moves(s):
            seen.setdefault(frozenset(Counter(parts).items()), tuple(parts))
        return list(seen.values())

    def moves(self, start: int, work: Work) -> Iterator[Move]:
        """Yield every move, state by state (options leaving the same parts count once)."""
        for i, s in enumerate(self.states):
            for after in self._afters(s):
                yield Move(start + i, s, after)
            work.spend(PY_WEIGHT)

    def winning(self, start: int, x: int, work: Work) -> Iterator[Move]:
        """Yield the moves of states ``s`` to options worth ``G(s) ^ x``."""
        for i, s in enumerate(self.states):
            target = int(self.game.value(s)) ^ x
            for after in self._afters(s):
                if self._parts_value(after) == target:
                    yield Move(start + i, s, after)
            work.spend(PY_WEIGHT)

    def play(self, i: int, move: Move) -> StateBlock:
        """Return the block with state ``i`` replaced by the parts ``move.after``."""
        before = self.item(i)
        if move.before != before:
            raise ArgumentError(f"{move!r} does not belong to this position: component {move.component} is {before!r}")
        if not any(tuple(parts) == move.after for _, parts in self.game._moves(before)):
            raise ArgumentError(
                f"{move!r} does not belong to this position: {move.after!r} is not an option of {before!r}"
            )
        return StateBlock(self.game, self.states[:i] + list(move.after) + self.states[i + 1 :])

    def nim_heaps(self) -> np.ndarray | None:
        """Return None: a state game is not Nim."""
        return None

    def nim_after(self, h: int) -> tuple[Any, ...]:  # pragma: no cover - never Nim
        """Not used: a state game is not Nim."""
        raise AssertionError("a state game is not Nim")

    def misere_p(self, limit: int) -> bool:
        """Whether this block alone, as a sum, is a misère P-position (the game decides)."""
        return bool(self.game._misere_sum_p(self.states, limit))

    def misere_winning(self, start: int) -> Iterator[Move] | None:
        """Return None: the exhaustive misère search finds the moves."""
        return None

    def misere_root(self, limit: int) -> tuple[Any, list[int]]:
        """Refuse: the core's misère search takes heap games and graphs, not state games."""
        raise ArgumentError(
            f"misère play of a sum that mixes {self.label()} with other games is not supported; a sum of "
            f"{self.label()} states alone is (Position(game, states).outcome(misere=True))"
        )

    def misere_after(self, i: int, after: Sequence[int]) -> tuple[Any, ...]:  # pragma: no cover - see misere_root
        """Not used: see :meth:`misere_root`."""
        raise AssertionError("no core misère search for state games")

    def row_outcomes(self, rows: np.ndarray, misere: bool, limit: int) -> np.ndarray:
        """Refuse: rows of integers are heaps or vertex ids, not states."""
        raise ArgumentTypeError(
            "outcomes() takes heap games and game graphs, not "
            f"{self.label()}: use Position instead"
        )

    def label(self) -> str:
        """Return the game's name."""
        return str(self.game._name())
