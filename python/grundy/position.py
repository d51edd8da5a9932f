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
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import _core
from ._validate import as_count
from .exceptions import SearchLimitError
from .games import Game, Subtraction, TakeAndBreak
from .graph import GameGraph
from .heap_game import HeapGame
from .nimsum import heap_array
from .periodicity import DIRECT_LIMIT

#: ``moves()`` and ``winning_moves()`` return at most this many moves; beyond, ValueError says
#: to iterate (``iter_moves()``, ``iter_winning_moves()``) or take one (``winning_move()``).
MAX_LISTED_MOVES = 10**6

#: ``moves()`` and ``winning_moves()`` give up (ValueError) after examining this many candidate
#: options, so that a list that cannot be completed is refused rather than left running. The
#: iterators have no such limit (Ctrl-C stops them).
MAX_SEARCH_WORK = 10**9

#: Default limit of the exhaustive misère search: distinct positions examined.
MISERE_MAX_POSITIONS = 10**6

#: Candidates examined per call into the core while iterating (keeps Ctrl-C responsive).
_SLICE = 1 << 20

#: A Python-level candidate counts this many times toward ``MAX_SEARCH_WORK``.
_PY_WEIGHT = 100

#: Heaps shown by ``repr``.
_REPR_ITEMS = 8

GameLike = Game | GameGraph


# -- moves ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Move:
    """A move in one component of a sum.

    ``component`` is the index of the component in the sum, ``before`` the heap (or graph vertex
    label) it holds, ``after`` the tuple of heaps the move leaves there (``()`` when the whole
    heap is taken; a 1-tuple with the new vertex for a graph component). Moves compare and hash
    by value.

    >>> import grundy as gr
    >>> m = gr.Move(0, 10, (9,))
    >>> m, str(m)
    (Move(component=0, before=10, after=(9,)), 'component 0: 10 -> 9')
    >>> m == gr.Position(gr.nim(), [10, 12, 5]).winning_move()
    True
    """

    component: int
    before: Hashable
    after: tuple

    def __repr__(self) -> str:
        return f"Move(component={self.component}, before={self.before!r}, after={self.after!r})"

    def __str__(self) -> str:
        left = " + ".join(repr(x) for x in self.after) or "nothing"
        return f"component {self.component}: {self.before!r} -> {left}"


class _Work:
    """Candidates a search may still examine; ValueError once they run out."""

    def __init__(self, limit: float, what: str) -> None:
        self.left = limit
        self.limit = limit
        self.what = what

    def spend(self, n: float) -> None:
        self.left -= n
        if self.left < 0:
            raise ValueError(
                f"listing {self.what} examined more than MAX_SEARCH_WORK = {self.limit:.0e} candidate options "
                f"and stopped; iterate lazily with iter_{self.what.replace(' ', '_')}() or take one winning "
                "move with winning_move()"
            )

    def slice(self) -> int:
        return int(min(_SLICE, max(self.left, 1)))


_UNLIMITED = float("inf")


# -- games: rules and values ----------------------------------------------------------------------
def _is_nim(game: GameLike) -> bool:
    """Whether ``game`` is Nim itself: every smaller heap is an option, and nothing else."""
    if isinstance(game, TakeAndBreak):
        return game.code == "0.[3]"
    return isinstance(game, Subtraction) and game.kind == "all_but" and not game.members


def _rule(game: Game) -> _core.HeapRule | None:
    """The core's view of a built-in rule (cached on the game), or None for Python callables."""
    rule = getattr(game, "_position_rule", None)
    if rule is None:
        if isinstance(game, TakeAndBreak):
            rule = _core.HeapRule.take_and_break(game.code)
        elif isinstance(game, Subtraction) and game.kind != "allowed":
            rule = _core.HeapRule.subtraction(game.kind, game.members)
        else:
            return None
        game._position_rule = rule  # type: ignore[attr-defined]
    return rule


def _tail(game: Game, top: int) -> tuple[int, int, int] | None:
    """Makes G(h) known for every h <= top and returns the proven period the core should use
    beyond the computed values (None when the table suffices).

    Follows ``game.value``: values below ``DIRECT_LIMIT`` are computed, larger heaps need a
    proven period; otherwise ``game.value`` raises the ValueError that says what to do.
    """
    seq = game._seq
    if top >= len(seq):
        if game._proven is None and top >= DIRECT_LIMIT:
            game.periodicity()
        if game._proven is None:
            if top < DIRECT_LIMIT:
                game._ensure(top + 1)
            else:
                game.value(top)  # raises: no period proven
    p = game._proven
    if p is None or p.period is None:
        return None
    return (p.preperiod or 0, p.period, p.saltus)


def _nim_after(game: Game, h: int) -> tuple[int, ...]:
    """What a Nim move to a heap of ``h`` leaves: in the code ``0.[3]`` a heap of 0 is no heap."""
    return () if h == 0 and isinstance(game, TakeAndBreak) else (h,)


def _py_options(game: Game, n: int) -> list[tuple[int, ...]]:
    """The options of heap ``n`` of a rule written in Python, each a sorted tuple, once each."""
    if isinstance(game, HeapGame):
        opts = {tuple(sorted(o)) for o in game.options(n)}
        return sorted(opts)
    allowed: Callable[[int, int], Any] = game.allowed  # type: ignore[attr-defined]
    return [(n - k,) for k in range(1, n + 1) if allowed(n, k)]


def _expand(kind: str, x: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """The options a family from the core stands for (see ``src/position/family.rs``)."""
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


def _rule_options(
    game: Game, rule: _core.HeapRule, tail: Any, n: int, target: int | None, work: _Work
) -> Iterator[tuple[int, ...]]:
    """Options of heap ``n`` (worth ``target`` when given), streamed from the core."""
    cursor: tuple[int, int] | None = (0, 0)
    while cursor is not None:
        fams, cursor, done = rule.search(game._seq, tail, n, target, cursor, work.slice())
        work.spend(done)
        for kind, x in fams:
            yield from _expand(kind, x)


# -- blocks: runs of components of one game -------------------------------------------------------
class _HeapBlock:
    """Heaps of one heap game, as a read-only uint64 array."""

    __slots__ = ("game", "heaps", "_values")

    def __init__(self, game: Game, heaps: np.ndarray) -> None:
        self.game = game
        self.heaps = heaps
        self._values: np.ndarray | None = None

    def __len__(self) -> int:
        return int(self.heaps.size)

    def item(self, i: int) -> int:
        return int(self.heaps[i])

    def items(self) -> list[Any]:
        return self.heaps.tolist()

    def values(self) -> np.ndarray:
        """G of every heap, uint64."""
        if self._values is None:
            if _is_nim(self.game) or not self.heaps.size:
                self._values = self.heaps
            else:
                tail = _tail(self.game, int(self.heaps.max()))
                self._values = _core.heap_values(self.game._seq, tail, self.heaps)
        return self._values

    def tail(self) -> Any:
        return _tail(self.game, int(self.heaps.max())) if self.heaps.size else None


class _GraphBlock:
    """Vertices of one game graph: their labels and vertex ids."""

    __slots__ = ("game", "labels", "ids")

    def __init__(self, game: GameGraph, labels: list[Hashable], ids: np.ndarray) -> None:
        self.game = game
        self.labels = labels
        self.ids = ids

    def __len__(self) -> int:
        return len(self.labels)

    def item(self, i: int) -> Hashable:
        return self.labels[i]

    def items(self) -> list[Any]:
        return list(self.labels)

    def values(self) -> np.ndarray:
        return self.game._cached()[self.ids].astype(np.uint64)


_Block = _HeapBlock | _GraphBlock


def _graph_block(graph: GameGraph, labels: Any) -> _GraphBlock:
    if isinstance(labels, (str, bytes)) or not isinstance(labels, Iterable):
        raise TypeError(
            f"the vertices of a graph position must be a list of vertex labels, not {type(labels).__name__}"
        )
    labels = list(labels)
    ids = []
    for x in labels:
        try:
            ids.append(graph.vertex(x))
        except KeyError:
            raise ValueError(f"{x!r} is not a vertex of {graph!r}") from None
    return _GraphBlock(graph, labels, np.asarray(ids, dtype=np.int64))


def _heap_block(game: Game, heaps: Any) -> _HeapBlock:
    if isinstance(heaps, (int, np.integer)) and not isinstance(heaps, (bool, np.bool_)):
        heaps = [heaps]
    arr = np.array(heap_array(heaps), dtype=np.uint64)  # a private copy
    arr.flags.writeable = False
    return _HeapBlock(game, arr)


def _same_game(a: _Block, b: _Block) -> bool:
    if isinstance(a, _HeapBlock) and isinstance(b, _HeapBlock):
        return a.game == b.game
    return isinstance(a, _GraphBlock) and isinstance(b, _GraphBlock) and a.game is b.game


def _merge(a: _Block, b: _Block) -> _Block:
    if isinstance(a, _HeapBlock) and isinstance(b, _HeapBlock):
        arr = np.concatenate([a.heaps, b.heaps])
        arr.flags.writeable = False
        return _HeapBlock(a.game, arr)
    assert isinstance(a, _GraphBlock) and isinstance(b, _GraphBlock)
    return _GraphBlock(a.game, a.labels + b.labels, np.concatenate([a.ids, b.ids]))


def _game_name(game: GameLike) -> str:
    if isinstance(game, TakeAndBreak):
        return f"{game.name} {game.code}" if game.name else game.code
    if isinstance(game, HeapGame):
        return f"HeapGame({getattr(game.rule, '__qualname__', '?')})"
    return repr(game)


def _short(items: list[Any]) -> str:
    shown = ", ".join(repr(x) for x in items[:_REPR_ITEMS])
    more = f", ... ({len(items)} in all)" if len(items) > _REPR_ITEMS else ""
    return f"[{shown}{more}]"


# -- positions ------------------------------------------------------------------------------------
class Position:
    """A sum of games: heaps of a heap game, or vertices of a game graph, added together.

    ``Position(game, heaps)`` is a sum of heaps of ``game`` (any heap game: ``TakeAndBreak``,
    ``Subtraction``, ``HeapGame``, ``nim()``; heaps of any size below 2**64, given as a list, a
    numpy integer array or one int). ``Position(graph, [label, ...])`` is a sum of vertices of a
    ``GameGraph``. ``a + b`` adds positions; each component keeps its own game. Heaps of one game
    are kept as a numpy ``uint64`` array, so a Nim sum of 10^5 heaps costs no Python object per
    heap.

    >>> import grundy as gr
    >>> pos = gr.Position(gr.kayles(), [5]) + gr.Position(gr.nim(), [3]) + gr.Position(gr.grundys_game(), [7])
    >>> pos
    Position(Kayles 0.77: [5] + Nim 0.[3]: [3] + Grundy's game 4!.0: [7])
    >>> pos.grundy  # G = 4 ^ 3 ^ 0
    7
    >>> gr.Position(gr.GameGraph({"a": ["b"], "b": []}), ["a"]).outcome()
    'N'
    """

    __slots__ = ("_blocks", "_grundy", "__weakref__")

    def __init__(self, game: GameLike, heaps: Iterable[Any] | np.ndarray | int) -> None:
        if isinstance(game, GameGraph):
            block: _Block = _graph_block(game, heaps)
        elif isinstance(game, Game):
            block = _heap_block(game, heaps)
        else:
            raise TypeError(
                f"a position is made of a heap game (TakeAndBreak, Subtraction, HeapGame) or a GameGraph, "
                f"not {type(game).__name__}"
            )
        self._blocks: tuple[_Block, ...] = (block,)
        self._grundy: int | None = None

    @classmethod
    def _of(cls, blocks: Iterable[_Block]) -> Position:
        merged: list[_Block] = []
        for b in blocks:
            if not len(b):
                continue
            if merged and _same_game(merged[-1], b):
                merged[-1] = _merge(merged[-1], b)
            else:
                merged.append(b)
        pos = cls.__new__(cls)
        pos._blocks = tuple(merged)
        pos._grundy = None
        return pos

    # -- components -----------------------------------------------------------------------------
    def __len__(self) -> int:
        return sum(len(b) for b in self._blocks)

    @property
    def heaps(self) -> list[Any]:
        """The components' heaps (or vertex labels), in order.

        >>> import grundy as gr
        >>> (gr.Position(gr.nim(), [3, 4]) + gr.Position(gr.kayles(), [5])).heaps
        [3, 4, 5]
        """
        return [x for b in self._blocks for x in b.items()]

    @property
    def components(self) -> list[tuple[GameLike, Any]]:
        """``(game, heap)`` for every component, in order (a vertex label for a graph).

        >>> import grundy as gr
        >>> gr.Position(gr.Subtraction([1, 2]), [5, 6]).components
        [(Subtraction([1, 2]), 5), (Subtraction([1, 2]), 6)]
        """
        return [(b.game, x) for b in self._blocks for x in b.items()]

    def _locate(self, c: int) -> tuple[_Block, int, int]:
        """The block holding component ``c``, its index there and the block's position."""
        start = 0
        for k, b in enumerate(self._blocks):
            if c < start + len(b):
                return b, c - start, k
            start += len(b)
        raise AssertionError(c)

    # -- sums -----------------------------------------------------------------------------------
    def __add__(self, other: object) -> Position:
        if not isinstance(other, Position):
            return NotImplemented
        return Position._of(self._blocks + other._blocks)

    def __radd__(self, other: object) -> Position:
        if isinstance(other, int) and other == 0:  # sum(positions)
            return self
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.components == other.components

    def __hash__(self) -> int:
        return hash(tuple((_game_name(g), x) for g, x in self.components))

    def __repr__(self) -> str:
        return "Position(" + " + ".join(f"{_game_name(b.game)}: {_short(b.items())}" for b in self._blocks) + ")"

    # -- values and outcomes --------------------------------------------------------------------
    @property
    def grundy(self) -> int:
        """The Grundy value of the sum: the XOR of its components' values.

        >>> import grundy as gr
        >>> gr.Position(gr.Subtraction.squares(), [1, 2, 3, 4, 6]).grundy
        3
        """
        if self._grundy is None:
            x = 0
            for b in self._blocks:
                x ^= int(_core.nim_sum(np.ascontiguousarray(b.values(), dtype=np.uint64)))
            self._grundy = x
        return self._grundy

    def outcome(self, misere: bool = False, *, max_positions: int | None = None) -> str:
        """``"P"`` when the player to move loses with best play, ``"N"`` when they win.

        Normal play (``misere=False``): P exactly when :attr:`grundy` is 0. Misère play (the
        player who cannot move wins): Nim by its exact rule, anything else by exhaustive search
        over the positions reachable from this one, which raises ValueError once more than
        ``max_positions`` (default ``MISERE_MAX_POSITIONS``) distinct positions were met.

        >>> import grundy as gr
        >>> gr.Position(gr.nim(), [1, 1]).outcome(), gr.Position(gr.nim(), [1, 1]).outcome(misere=True)
        ('P', 'N')
        """
        if not misere:
            return "P" if self.grundy == 0 else "N"
        if self._all_nim():
            return "P" if _misere_nim_is_p(self._nim_heaps()) else "N"
        is_p, _ = self._misere_search(max_positions, want_moves=False)
        return "P" if is_p else "N"

    # -- moves ----------------------------------------------------------------------------------
    def iter_moves(self) -> Iterator[Move]:
        """Every move, lazily: component by component, each heap's options from its rule.

        >>> import grundy as gr
        >>> [str(m) for m in gr.Position(gr.kayles(), [3]).iter_moves()]
        ['component 0: 3 -> 2', 'component 0: 3 -> 1', 'component 0: 3 -> 1 + 1']
        """
        return self._moves(_Work(_UNLIMITED, "moves"))

    def moves(self, *, limit: int = MAX_LISTED_MOVES) -> list[Move]:
        """Every move, as a list; ValueError when there are more than ``limit``.

        >>> import grundy as gr
        >>> [str(m) for m in gr.Position(gr.nim(), [2, 1]).moves()]
        ['component 0: 2 -> nothing', 'component 0: 2 -> 1', 'component 1: 1 -> nothing']
        """
        limit = as_count(limit, "limit")
        out = list(itertools.islice(self._moves(_Work(MAX_SEARCH_WORK, "moves")), limit + 1))
        if len(out) > limit:
            raise ValueError(
                f"this position has more than limit={limit} moves; iterate over them with iter_moves()"
            )
        return out

    def iter_winning_moves(self, misere: bool = False, *, max_positions: int | None = None) -> Iterator[Move]:
        """Every winning move (a move to a P-position), lazily. None from a P-position.

        A Kayles row of 10^18 pins has about 10^17 winning moves; this yields them one by one.

        >>> import grundy as gr
        >>> m = next(gr.Position(gr.kayles(), [10**18]).iter_winning_moves())
        >>> gr.Position(gr.kayles(), list(m.after)).grundy
        0
        """
        return self._winning(misere, _Work(_UNLIMITED, "winning moves"), max_positions)

    def winning_moves(
        self, misere: bool = False, *, limit: int = MAX_LISTED_MOVES, max_positions: int | None = None
    ) -> list[Move]:
        """Every winning move, as a list (empty for a P-position); ValueError when there are more
        than ``limit``, or when finding them all would take more than ``MAX_SEARCH_WORK`` steps.

        >>> import grundy as gr
        >>> gr.Position(gr.nim(), [10, 12, 5]).winning_moves()
        [Move(component=0, before=10, after=(9,))]
        >>> gr.Position(gr.nim(), [9, 12, 5]).winning_moves()
        []
        """
        limit = as_count(limit, "limit")
        found = self._winning(misere, _Work(MAX_SEARCH_WORK, "winning moves"), max_positions)
        out = list(itertools.islice(found, limit + 1))
        if len(out) > limit:
            raise ValueError(
                f"this position has more than limit={limit} winning moves; iterate over them with "
                "iter_winning_moves() or take one with winning_move()"
            )
        return out

    def winning_move(self, misere: bool = False, *, max_positions: int | None = None) -> Move | None:
        """One winning move, or None from a P-position. Fast even for heaps of 10^18 tokens.

        >>> import grundy as gr
        >>> gr.Position(gr.nim(), [10, 12, 5]).winning_move()
        Move(component=0, before=10, after=(9,))
        """
        return next(self.iter_winning_moves(misere, max_positions=max_positions), None)

    def play(self, move: Move) -> Position:
        """The position after ``move``: component ``move.component`` replaced by the heaps
        ``move.after`` (a graph vertex by its option). ValueError when the move does not belong
        to this position.

        >>> import grundy as gr
        >>> gr.Position(gr.kayles(), [7, 2]).play(gr.Move(0, 7, (2, 3)))
        Position(Kayles 0.77: [2, 3, 2])
        """
        if not isinstance(move, Move):
            raise TypeError(f"play() takes a Move, not {type(move).__name__}")
        c = move.component
        if isinstance(c, bool) or not isinstance(c, (int, np.integer)):
            raise TypeError(f"a move's component must be an int, not {type(c).__name__}")
        if not 0 <= c < len(self):
            raise ValueError(f"component {c} is out of range: this position has {len(self)} components")
        block, i, k = self._locate(int(c))
        before = block.item(i)
        if move.before != before or (isinstance(block, _HeapBlock) and isinstance(move.before, bool)):
            raise ValueError(f"{move!r} does not belong to this position: component {c} is {before!r}")
        after = move.after
        if not isinstance(after, tuple):
            raise TypeError(f"a move's after must be a tuple, not {type(after).__name__}")
        new: _Block
        if isinstance(block, _GraphBlock):
            if len(after) != 1 or after[0] not in block.game or after[0] not in block.game.options(before):
                raise ValueError(f"{move!r} does not belong to this position: {after!r} is not an option of {before!r}")
            labels = block.labels[:i] + [after[0]] + block.labels[i + 1 :]
            ids = block.ids.copy()
            ids[i] = block.game.vertex(after[0])
            new = _GraphBlock(block.game, labels, ids)
        else:
            parts = _check_parts(after, move)
            if not self._is_option(block.game, before, parts):
                raise ValueError(
                    f"{move!r} does not belong to this position: {after!r} is not an option of a heap of "
                    f"{before} in {_game_name(block.game)}"
                )
            arr = np.concatenate([block.heaps[:i], np.asarray(parts, dtype=np.uint64), block.heaps[i + 1 :]])
            arr.flags.writeable = False
            new = _HeapBlock(block.game, arr)
        return Position._of(self._blocks[:k] + (new,) + self._blocks[k + 1 :])

    @staticmethod
    def _is_option(game: Game, n: int, parts: list[int]) -> bool:
        rule = _rule(game)
        if rule is not None:
            return bool(rule.is_option(n, parts))
        return tuple(sorted(parts)) in _py_options(game, n)

    # -- the searches ---------------------------------------------------------------------------
    def _moves(self, work: _Work) -> Iterator[Move]:
        start = 0
        for b in self._blocks:
            if isinstance(b, _GraphBlock):
                for i, label in enumerate(b.labels):
                    for o in b.game.options(label):
                        yield Move(start + i, label, (o,))
                    work.spend(_PY_WEIGHT)
            else:
                rule = _rule(b.game)
                for i, h in enumerate(b.heaps.tolist()):
                    if rule is None:
                        opts: Iterable[tuple[int, ...]] = _py_options(b.game, h)
                        work.spend(_PY_WEIGHT * (h + 1))
                    else:
                        opts = _rule_options(b.game, rule, None, h, None, work)
                    for after in opts:
                        yield Move(start + i, h, after)
            start += len(b)

    def _winning(self, misere: bool, work: _Work, max_positions: int | None) -> Iterator[Move]:
        if misere:
            if self._all_nim():
                yield from self._misere_nim_moves()
            else:
                _, moves = self._misere_search(max_positions, want_moves=True)
                yield from moves
            return
        x = self.grundy
        if x == 0:
            return
        start = 0
        for b in self._blocks:
            yield from _block_winning(b, start, x, work)
            start += len(b)

    # -- misère ---------------------------------------------------------------------------------
    def _all_nim(self) -> bool:
        return all(isinstance(b, _HeapBlock) and _is_nim(b.game) for b in self._blocks)

    def _nim_heaps(self) -> np.ndarray:
        if not self._blocks:
            return np.zeros(0, dtype=np.uint64)
        return np.concatenate([b.heaps for b in self._blocks])  # type: ignore[union-attr]

    def _misere_nim_moves(self) -> Iterator[Move]:
        """Misère Nim: move as in normal Nim unless that leaves only heaps of size <= 1; then
        leave an odd number of 1-heaps. Lists every move to a misère P-position."""
        h = self._nim_heaps()
        if _misere_nim_is_p(h):
            return
        x = int(_core.nim_sum(h)) if h.size else 0
        big_others = int(np.count_nonzero(h > 1)) - (h > 1)
        ones_others = int(np.count_nonzero(h == 1)) - (h == 1)
        target = h ^ np.uint64(x)
        # (a) nim-sum 0 with some heap > 1 left.
        a = (target < h) & ((big_others > 0) | (target > 1))
        # (b) only heaps <= 1 left, an odd number of them 1.
        one = (ones_others % 2 == 0).astype(np.uint64)
        b = (big_others == 0) & (one < h)
        for i in _indices(a | b):
            g = self._locate(i)[0].game
            for ok, to in ((a[i], int(target[i])), (b[i], int(one[i]))):
                if ok:
                    yield Move(i, int(h[i]), _nim_after(g, to))  # type: ignore[arg-type]

    def _misere_search(self, max_positions: int | None, want_moves: bool) -> tuple[bool, list[Move]]:
        limit = MISERE_MAX_POSITIONS if max_positions is None else as_count(max_positions, "max_positions")
        games: list[Any] = []
        root: list[tuple[int, int]] = []
        for g, b in enumerate(self._blocks):
            if isinstance(b, _GraphBlock):
                games.append(b.game._core)
                root += [(g, int(v)) for v in b.ids.tolist()]
                continue
            rule = _rule(b.game)
            if rule is None:
                top = int(b.heaps.max())
                if top > limit:
                    raise SearchLimitError(
                        f"the misère search tabulates the options of every heap up to {top} of "
                        f"{_game_name(b.game)}, more than max_positions = {limit}; try smaller heaps",
                        limit,
                    )
                rule = _option_table(b.game, top)
            games.append(rule)
            root += [(g, h) for h in b.heaps.tolist()]
        is_p, moves, _ = _core.misere_search(games, root, limit, want_moves)
        out = []
        for c, after in moves:
            block, i, _ = self._locate(c)
            if isinstance(block, _GraphBlock):
                out.append(Move(c, block.item(i), (block.game.label(after[0]),)))
            else:
                out.append(Move(c, block.item(i), tuple(after)))
        return is_p, out


def _indices(mask: np.ndarray) -> Iterator[int]:
    """The indices where ``mask`` is True, as ints, converted a chunk at a time (so that taking
    the first costs no more than one chunk)."""
    idx = np.flatnonzero(mask)
    for k in range(0, idx.size, 4096):
        yield from idx[k : k + 4096].tolist()


def _check_parts(after: tuple, move: Move) -> list[int]:
    parts = []
    for p in after:
        if isinstance(p, bool) or not isinstance(p, (int, np.integer)):
            raise TypeError(f"{move!r}: the heaps a move leaves must be integers, not {type(p).__name__}")
        if not 0 <= p < 2**64:
            raise ValueError(f"{move!r} does not belong to this position: {p} is not a heap size")
        parts.append(int(p))
    return parts


def _misere_nim_is_p(h: np.ndarray) -> bool:
    """Misère Nim: P iff (all heaps <= 1 and the number of 1-heaps is odd) or (some heap > 1
    and the nim-sum is 0)."""
    if not np.any(h > 1):
        return int(np.count_nonzero(h == 1)) % 2 == 1
    return int(_core.nim_sum(h)) == 0


def _option_table(game: Game, top: int) -> _core.OptionTable:
    """The options of heaps 0..top of a rule written in Python, for the misère search."""
    opt_start, part_start, parts = [0], [0], []
    for n in range(top + 1):
        for o in _py_options(game, n):
            parts.extend(o)
            part_start.append(len(parts))
        opt_start.append(len(part_start) - 1)
    u = np.uint64
    return _core.OptionTable(np.array(opt_start, u), np.array(part_start, u), np.array(parts, u))


def _block_winning(b: _Block, start: int, x: int, work: _Work) -> Iterator[Move]:
    """Moves of one block's components to options worth G(c) ^ x."""
    if isinstance(b, _GraphBlock):
        vals = b.game._cached()
        for i, label in enumerate(b.labels):
            t = int(vals[b.ids[i]]) ^ x
            for o in b.game.options(label):
                if int(vals[b.game.vertex(o)]) == t:
                    yield Move(start + i, label, (o,))
            work.spend(_PY_WEIGHT)
        return
    heaps = b.heaps
    if _is_nim(b.game):
        # Classic Nim: the heaps h with h ^ x < h (those with x's top bit) move to h ^ x.
        target = heaps ^ np.uint64(x)
        for i in _indices(target < heaps):
            yield Move(start + i, int(heaps[i]), _nim_after(b.game, int(target[i])))
        return
    targets = b.values() ^ np.uint64(x)
    rule = _rule(b.game)
    if rule is None:
        table = b.game.values(int(heaps.max()) + 1).astype(np.uint64)
        for i, h in enumerate(heaps.tolist()):
            t = int(targets[i])
            for after in _py_options(b.game, h):
                if int(np.bitwise_xor.reduce(table[list(after)], initial=np.uint64(0))) == t:
                    yield Move(start + i, h, after)
            work.spend(_PY_WEIGHT * (h + 1))
        return
    tail = b.tail()
    # Which heaps have a winning option at all: in parallel in the core, once per heap size.
    uniq, inverse = np.unique(heaps, return_inverse=True)
    first = np.zeros(uniq.size, dtype=np.intp)
    first[inverse[::-1]] = np.arange(heaps.size)[::-1]
    has = rule.has_option(b.game._seq, tail, uniq, np.ascontiguousarray(targets[first]))
    for i in _indices(has[inverse]):
        h = int(heaps[i])
        for after in _rule_options(b.game, rule, tail, h, int(targets[i]), work):
            yield Move(start + i, h, after)


# -- functions ------------------------------------------------------------------------------------
def equivalent(a: Position, b: Position) -> bool:
    """Whether two positions are equivalent: interchangeable in any sum, which holds exactly
    when their sum is a P-position (equal Grundy values).

    >>> import grundy as gr
    >>> gr.equivalent(gr.Position(gr.kayles(), [4]), gr.Position(gr.nim(), [1]))
    True
    """
    if not isinstance(a, Position) or not isinstance(b, Position):
        raise TypeError(
            f"equivalent() compares two Positions, not {type(a).__name__} and {type(b).__name__}"
        )
    return (a + b).grundy == 0


def outcomes(
    game: GameLike, heaps: Any, misere: bool = False, *, max_positions: int | None = None
) -> np.ndarray:
    """Whether each row of a 2-d integer array, a sum of heaps of ``game``, is a P-position.

    Returns a numpy ``bool`` array with one entry per row, True for P (the player to move
    loses) and False for N; ``np.where(r, "P", "N")`` gives letters. Rows are evaluated in
    parallel in the core; heaps beyond the computed values go through the game's proven period
    (ValueError when there is none). Pad rows of different lengths with 0 (a heap of 0 has no
    move). For a GameGraph the entries are vertex ids. ``misere=True``: Nim by its exact rule,
    other games by exhaustive search (see :meth:`Position.outcome`).

    >>> import numpy as np, grundy as gr
    >>> gr.outcomes(gr.nim(), np.array([[10, 12, 5], [9, 12, 5]]))
    array([False,  True])
    >>> gr.outcomes(gr.kayles(), [[10**18, 1], [4, 1]])
    array([ True,  True])
    """
    arr = _rows(heaps)
    rows, width = arr.shape
    if width == 0 or rows == 0:  # empty sums: no move, so P (normal) or N (misère)
        return np.full(rows, not misere)
    if isinstance(game, GameGraph):
        if arr.size and int(arr.max()) >= game.num_vertices:
            raise ValueError(f"vertex id {int(arr.max())} is not below num_vertices = {game.num_vertices}")
        if not misere:
            vals = game._cached().astype(np.uint64)[arr]
            return np.bitwise_xor.reduce(vals, axis=1) == 0
        return _core.misere_outcomes([game._core], arr, _limit(max_positions))
    if not isinstance(game, Game):
        raise TypeError(f"outcomes() needs a heap game or a GameGraph, not {type(game).__name__}")
    if misere:
        if _is_nim(game):
            big = np.any(arr > 1, axis=1)
            odd_ones = np.count_nonzero(arr == 1, axis=1) % 2 == 1
            return np.where(big, np.bitwise_xor.reduce(arr, axis=1) == 0, odd_ones)
        rule = _rule(game)
        if rule is None:
            top = int(arr.max())
            if top > _limit(max_positions):
                raise SearchLimitError(
                    f"the misère search tabulates the options of every heap up to {top}, more than "
                    f"max_positions = {_limit(max_positions)}; try smaller heaps",
                    _limit(max_positions),
                )
            rule = _option_table(game, top)
        return _core.misere_outcomes([rule], arr, _limit(max_positions))
    if _is_nim(game):
        return _core.outcomes(game._seq, (0, 1, 1), arr)
    tail = _tail(game, int(arr.max()))
    return _core.outcomes(game._seq, tail, arr)


def _limit(max_positions: int | None) -> int:
    return MISERE_MAX_POSITIONS if max_positions is None else as_count(max_positions, "max_positions")


def _rows(heaps: Any) -> np.ndarray:
    """A C-contiguous 2-d uint64 array of heap sizes, with clear errors for anything else."""
    arr = heaps if isinstance(heaps, np.ndarray) else np.asarray(heaps)
    if arr.ndim != 2:
        raise ValueError(
            f"heaps must be a 2-d array with one sum of heaps per row, got {arr.ndim} dimension(s) "
            "(use arr.reshape(1, -1) for a single sum)"
        )
    if arr.dtype == np.bool_ or arr.dtype.kind not in "iu":
        if arr.dtype == object:
            flat = arr.ravel().tolist()
            bad = next((x for x in flat if isinstance(x, bool) or not isinstance(x, int)), None)
            if bad is None:
                bad = next(x for x in flat if not 0 <= x < 2**64)
                raise ValueError(f"heap sizes must be non-negative and below 2**64, got {bad}")
            raise TypeError(f"heap sizes must be integers, not {type(bad).__name__} ({bad!r})")
        raise TypeError(f"heap sizes must be integers, not {arr.dtype}")
    if arr.dtype.kind == "i" and arr.size and int(arr.min()) < 0:
        r, c = np.argwhere(arr < 0)[0]
        raise ValueError(f"heap sizes must be non-negative: row {r}, column {c} is {int(arr[r, c])}")
    return np.ascontiguousarray(arr, dtype=np.uint64)


__all__ = ["MAX_LISTED_MOVES", "MAX_SEARCH_WORK", "MISERE_MAX_POSITIONS", "Move", "Position", "equivalent", "outcomes"]
