"""Two-heap subtraction games, Wythoff's game among them, computed in Rust without Python calls.

A position is a pair ``(a, b)``; a move subtracts a vector ``(dx, dy)`` of a fixed set (with
``unbounded=True`` any positive multiple ``k * (dx, dy)``) when both heaps stay non-negative. Grids
are computed anti-diagonal by anti-diagonal in parallel, with a bit set of seen values per ray
(incremental mex) instead of a rescan of every option.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from typing import Any

import numpy as np

from ... import _core
from ..._ui.progress import _check_threads
from ..._validate import MAX_U64, as_count, as_flag, as_heap, as_name
from ...analysis.periodicity import Periodicity
from ...exceptions import ArgumentError, ArgumentTypeError, MemoryLimitError, SearchLimitError
from ...play import misere as _misere
from .grid import CARD_CELLS, GridGame

#: Values a row's :meth:`TwoHeapRow.periodicity` examines unless told otherwise.
ROW_MAX_N = 4096


def _pair(state: Any) -> tuple[int, int]:
    if isinstance(state, (str, bytes)) or not isinstance(state, Iterable):
        raise ArgumentTypeError(f"a two-heap position is a pair (a, b) of non-negative integers, not {state!r}")
    t = tuple(state)
    if len(t) != 2:
        raise ArgumentError(f"a two-heap position is a pair (a, b), not {len(t)} numbers: {state!r}")
    return as_heap(t[0], "a"), as_heap(t[1], "b")


class TwoHeapGame(GridGame):
    """A two-heap subtraction game.

    A position is a pair ``(a, b)``; a move subtracts a vector ``(dx, dy)`` of a fixed set (with
    ``unbounded=True`` any positive multiple ``k * (dx, dy)``) when both heaps stay non-negative.
    Values are computed in Rust on a grid that grows as needed and is cached.

    Parameters
    ----------
    moves : iterable of tuple of int
        The vectors ``(dx, dy)``, pairs of integers, that a move subtracts (non-negative, not both 0).
    unbounded : bool, default False
        When True, any positive multiple ``k * (dx, dy)`` may be subtracted.
    name : str, optional
        Shown in reprs and plots.
    threads : int, optional
        Threads for grids (None: every core, or ``RAYON_NUM_THREADS``).

    Raises
    ------
    TypeError
        When ``moves`` is not an iterable of pairs of integers, ``unbounded`` is not a bool, ``name``
        not a str or ``threads`` not an integer.
    ValueError
        When a move is not a pair, has a negative entry or is ``(0, 0)``, or ``threads`` is 0.

    See Also
    --------
    wythoff : Wythoff's game.
    grundy.StateGame : Games over any states.

    Examples
    --------
    >>> import grundy as gr
    >>> g = gr.TwoHeapGame([(1, 0), (0, 1), (1, 1)], unbounded=True)
    >>> g.value((3, 5)), g.outcome((3, 5))
    (0, 'P')
    >>> gr.TwoHeapGame([(1, 2), (2, 1)]).grid(3, 4).tolist()
    [[0, 0, 0, 0], [0, 0, 1, 1], [0, 1, 1, 1]]
    """

    def __init__(
        self, moves: Iterable[tuple[int, int]], *, unbounded: bool = False, name: str | None = None,
        threads: int | None = None,
    ) -> None:
        if isinstance(moves, (str, bytes)) or not isinstance(moves, Iterable):
            raise ArgumentTypeError(f"moves must be an iterable of pairs (dx, dy), not {type(moves).__name__}")
        vecs = []
        for m in moves:
            try:
                dx, dy = _pair(m)
            except (TypeError, ValueError) as e:
                raise type(e)(f"bad move {m!r}: {e}") from None
            vecs.append((dx, dy))
        if not isinstance(unbounded, bool):
            raise ArgumentTypeError(f"unbounded must be True or False, not {unbounded!r}")
        self._core = _core.TwoHeap(vecs, unbounded)
        self._made = {"moves": vecs, "unbounded": unbounded, "threads": threads}
        self.name = as_name(name)
        self._threads = _check_threads(threads)
        self._cache = np.zeros((0, 0), dtype=np.uint32)

    @property
    def moves(self) -> list[tuple[int, int]]:
        """The move vectors, sorted, each once.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.wythoff().moves
        [(0, 1), (1, 0), (1, 1)]
        """
        return list(self._core.moves)

    @property
    def unbounded(self) -> bool:
        """Whether any positive multiple of a move vector may be subtracted.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.wythoff().unbounded
        True
        """
        return bool(self._core.unbounded)

    # -- values ----------------------------------------------------------------------------------
    #: The core's grid holds a uint32 per cell (and checks its own tables' memory).
    _CELL_BYTES = 4

    def _grid(self, rows: int, cols: int) -> np.ndarray:
        c = self._cache
        if rows <= c.shape[0] and cols <= c.shape[1]:
            cached: np.ndarray = c[:rows, :cols].copy()
            return cached
        g = self._core_grid(rows, cols)
        if rows * cols >= c.size and rows * cols <= 1 << 24:
            self._cache = g
        return g

    def _ensure(self, rows: int, cols: int) -> np.ndarray:
        c = self._cache
        if rows > c.shape[0] or cols > c.shape[1]:
            r, k = max(rows, c.shape[0]), max(cols, c.shape[1])
            self._cache = self._core_grid(r, k)
        return self._cache

    def _core_grid(self, rows: int, cols: int) -> np.ndarray:
        """G(a, b) for ``a < rows``, ``b < cols``.

        The memory is estimated first: what cannot fit raises MemoryLimitError (with the estimate)
        before anything is allocated.
        """
        try:
            _core.check_memory(min(rows * cols * self._CELL_BYTES, MAX_U64))  # 2**64 rows: no usize
            return self._core.grid(rows, cols, None, self._threads)
        except MemoryLimitError as e:
            raise MemoryLimitError(
                f"the values of {self._name()} for a < {rows}, b < {cols}: {e}", e.needed, e.available
            ) from None

    def value(self, state: tuple[int, int]) -> int:
        """Return G(a, b), the Grundy value of the position ``(a, b)``.

        Parameters
        ----------
        state : tuple of int
            The position ``(a, b)``.

        Returns
        -------
        int
            G(a, b).

        Raises
        ------
        TypeError
            When ``state`` is not a pair of integers.
        ValueError
            When ``state`` does not have two entries, or an entry is negative or not below 2**64.
        MemoryError
            When the grid of values up to ``state`` cannot be held in memory.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.wythoff().value((1, 2))
        0
        """
        a, b = _pair(state)
        return int(self._ensure(a + 1, b + 1)[a, b])

    def values(self, states: Iterable[tuple[int, int]]) -> np.ndarray:
        """Return G of each pair, as a numpy array.

        Parameters
        ----------
        states : iterable of tuple of int
            The positions.

        Returns
        -------
        numpy.ndarray
            One value per position, in order (``uint32``).

        Raises
        ------
        TypeError
            As :meth:`value` raises them, for any of the positions.
        ValueError
            As :meth:`value` raises them, for any of the positions.
        MemoryError
            As :meth:`value` raises them, for any of the positions.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.wythoff().values([(0, 4), (2, 1)]).tolist()
        [4, 0]
        """
        pairs = [_pair(s) for s in states]
        if not pairs:
            return np.zeros(0, dtype=np.uint32)
        # The grid first (a pair near 2**64 is refused there, before any int64 array overflows).
        g = self._ensure(max(a for a, _ in pairs) + 1, max(b for _, b in pairs) + 1)
        arr = np.array(pairs, dtype=np.int64)
        return g[arr[:, 0], arr[:, 1]]

    def outcome(self, state: tuple[int, int], misere: bool = False, *, max_positions: int | None = None) -> str:
        """Say who wins: ``"P"`` when the player to move loses with best play, ``"N"`` otherwise.

        Misère play (the player who cannot move wins) is decided on the grid of misère outcomes below
        ``state``.

        Parameters
        ----------
        state : tuple of int
            The position ``(a, b)``.
        misere : bool, default False
            Misère play instead of normal play.
        max_positions : int, optional
            Misère play: the most positions of the grid below ``state`` examined (default
            ``MISERE_MAX_POSITIONS``, 10**6); a larger grid is refused at once.

        Returns
        -------
        str
            ``"P"`` or ``"N"``.

        Raises
        ------
        TypeError
            When ``state`` is not a pair of integers.
        ValueError
            When ``state`` does not have two entries, or an entry is negative or not below 2**64.
        MemoryError
            When the grid of values up to ``state`` cannot be held in memory.
        SearchLimitError
            Misère play, when the grid below ``state`` has more than ``max_positions`` positions.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.wythoff().outcome((0, 0)), gr.wythoff().outcome((0, 0), misere=True)
        ('P', 'N')
        """
        a, b = _pair(state)
        misere, top = as_flag(misere, "misere"), _misere.limit(max_positions)
        if not misere:
            return "P" if self.value((a, b)) == 0 else "N"
        # P iff every option is N; a position without options is N in misère play. The core's
        # grid of misère outcomes below (a, b) is O(a * b): refused at once when too large.
        cells = (a + 1) * (b + 1)
        if cells > top:
            raise SearchLimitError(
                f"the misère outcome of {(a, b)} in {self._name()} needs the {cells} positions of the grid below "
                f"it, more than max_positions={top}",
                limit=top,
            )
        _core.check_memory(cells)
        return "P" if self._core.misere_grid(a + 1, b + 1)[a, b] else "N"

    def _misere_sum_p(self, states: list[tuple[int, int]], max_positions: int | None) -> bool:
        """Whether the sum of ``states`` is a misère P-position: one position only (what a Position asks)."""
        if len(states) != 1:
            raise ArgumentError(
                f"misère play of a sum of {len(states)} positions of {self._name()} is not supported; one position "
                "is (game.outcome(state, misere=True))"
            )
        return self.outcome(states[0], misere=True, max_positions=max_positions) == "P"

    # -- moves (what a Position component needs) -------------------------------------------------
    def options(self, state: tuple[int, int]) -> list[tuple[int, int]]:
        """List the options of ``(a, b)``, each once.

        Parameters
        ----------
        state : tuple of int
            The position ``(a, b)``.

        Returns
        -------
        list of tuple of int
            The positions one move leads to.

        Raises
        ------
        TypeError
            When ``state`` is not a pair of integers.
        ValueError
            When ``state`` does not have two entries, or an entry is negative or not below 2**64.
        MemoryError
            When the options cannot all be held in memory (MemoryLimitError, raised at once).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.wythoff().options((1, 2))
        [(1, 1), (1, 0), (0, 2), (0, 1)]
        """
        a, b = _pair(state)
        # (10**15, 1) of Wythoff has 10**15 options: refuse at once (MemoryLimitError), not after
        # filling the memory. About 100 bytes per option: a pair in the core, a tuple in Python.
        _core.check_memory(min(self._option_count(a, b) * 100, MAX_U64))
        return [tuple(o) for o in self._core.options(a, b)]  # type: ignore[misc]

    def _option_count(self, a: int, b: int) -> int:
        """At most how many options ``(a, b)`` has: one per move, or per multiple of it when unbounded."""
        if not self.unbounded:
            return len(self.moves)
        # k * (dx, dy) fits under (a, b) for k <= a // dx and k <= b // dy (no bound where 0).
        return sum(min(a // dx if dx else b // dy, b // dy if dy else a // dx) for dx, dy in self.moves)

    def _moves(self, state: tuple[int, int]) -> list[tuple[tuple[int, int], tuple[tuple[int, int], ...]]]:
        """Every move.

        Pairs ``(option, parts)``; a two-heap position is one part (the same primitive as :meth:`StateGame.moves`, for
        Position components).

        >>> import grundy as gr
        >>> gr.TwoHeapGame([(1, 1)])._moves((2, 3))
        [((1, 2), ((1, 2),))]
        """
        return [(o, (o,)) for o in self.options(state)]

    def winning_options(self, state: tuple[int, int], target: int = 0) -> list[tuple[int, int]]:
        """List the options of ``state`` whose value is ``target`` (0: the winning moves).

        Parameters
        ----------
        state : tuple of int
            The position ``(a, b)``.
        target : int, default 0
            The value looked for.

        Returns
        -------
        list of tuple of int
            Those options, in the order of :meth:`options`.

        Raises
        ------
        TypeError
            When ``state`` is not a pair of integers.
        ValueError
            When ``state`` does not have two entries, or an entry is negative or not below 2**64.
        MemoryError
            When the grid of values up to ``state`` cannot be held in memory.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.wythoff().winning_options((4, 4))
        [(0, 0)]
        """
        target = as_count(target, "target")
        opts = self.options(state)
        vals = self.values(opts)
        return [o for o, v in zip(opts, vals, strict=True) if v == target]

    def row(self, a: int) -> TwoHeapRow:
        """Return row ``a``: the sequence G(a, 0), G(a, 1), ... as a game-like object.

        Parameters
        ----------
        a : int
            The first heap.

        Returns
        -------
        TwoHeapRow
            The row, with ``values``, ``value`` and ``periodicity``.

        Raises
        ------
        TypeError
            When ``a`` is not an integer.
        ValueError
            When ``a`` is negative or not below 2**64.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.wythoff().row(1).values(9).tolist()
        [1, 2, 0, 4, 5, 3, 7, 8, 6]
        """
        return TwoHeapRow(self, as_heap(a, "a"))

    # -- display ---------------------------------------------------------------------------------
    def _name(self) -> str:
        if self.name:
            return self.name
        return f"TwoHeapGame({self.moves}{', unbounded' if self.unbounded else ''})"

    def __repr__(self) -> str:
        extra = ", unbounded=True" if self.unbounded else ""
        name = f", name={self.name!r}" if self.name else ""
        return f"TwoHeapGame({self.moves}{extra}{name})"

    def _card_rows(self) -> list[tuple[str, str]]:
        return [
            ("moves", escape(", ".join(f"({x}, {y})" for x, y in self.moves) or "none")),
            ("multiples", "any k &ge; 1" if self.unbounded else "k = 1"),
        ]

    def _card_grid(self) -> np.ndarray | None:
        return self._grid(CARD_CELLS, CARD_CELLS)


class TwoHeapRow:
    """Row ``a`` of a two-heap game: the sequence G(a, 0), G(a, 1), ...

    Made by :meth:`TwoHeapGame.row`, which checks ``a``.

    Parameters
    ----------
    game : TwoHeapGame
        The game.
    a : int
        The first heap, fixed along the row.

    Examples
    --------
    >>> import grundy as gr
    >>> p = gr.wythoff().row(1).periodicity()
    >>> p.period, p.saltus, p.proven
    (3, 3, False)
    """

    def __init__(self, game: TwoHeapGame, a: int) -> None:
        self.game, self.a = game, a

    def values(self, n: int) -> np.ndarray:
        """Return G(a, 0..n-1).

        Parameters
        ----------
        n : int
            How many values.

        Returns
        -------
        numpy.ndarray
            The values along the row (``uint32``).

        Raises
        ------
        TypeError
            When ``n`` is not an integer.
        ValueError
            When ``n`` is negative.
        MemoryError
            When the grid of values cannot be held in memory.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.wythoff().row(0).values(5).tolist()
        [0, 1, 2, 3, 4]
        """
        n = as_count(n)
        row: np.ndarray = self.game._ensure(self.a + 1, n)[self.a, :n].copy()
        return row

    def value(self, b: int) -> int:
        """Return G(a, b).

        Parameters
        ----------
        b : int
            The second heap.

        Returns
        -------
        int
            G(a, b).

        Raises
        ------
        TypeError
            As :meth:`TwoHeapGame.value` raises them.
        ValueError
            As :meth:`TwoHeapGame.value` raises them.
        MemoryError
            As :meth:`TwoHeapGame.value` raises them.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.wythoff().row(2).value(1)
        0
        """
        return self.game.value((self.a, b))

    def periodicity(self, max_n: int = ROW_MAX_N) -> Periodicity:
        """Find where G(a, b + period) = G(a, b) + saltus starts, observed in ``G(a, 0..max_n-1)``.

        Uses the period detection of the heap games; nothing is proven (no periodicity theorem is known
        to grundy for two-heap rows), so ``proven`` is False and the certificate says what was observed.

        Parameters
        ----------
        max_n : int, optional
            How many values of the row are examined (default ``ROW_MAX_N``, 4096).

        Returns
        -------
        Periodicity
            The period observed, or one with ``period`` None.

        Raises
        ------
        TypeError
            When ``max_n`` is not an integer.
        ValueError
            When ``max_n`` is negative.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.wythoff().row(0).periodicity().certificate.startswith("observed only")
        True
        """
        n = as_count(max_n, "max_n")
        v = np.ascontiguousarray(self.values(n), dtype=np.uint32)
        why = "rows of two-heap games have no periodicity theorem here: observed, not proven"
        d = _core.scan_period(v, why)
        if d is None:
            return Periodicity(None, None, 0, False, f"no period observed in G({self.a}, 0..{n - 1})", n)
        n0, p = int(d["preperiod"]), int(d["period"])
        return Periodicity(n0, p, int(d["saltus"]), False, d["certificate"], int(d["checked_to"]), v[n0 : n0 + p])

    def __repr__(self) -> str:
        return f"{self.game!r}.row({self.a})"


def wythoff() -> TwoHeapGame:
    """Wythoff's game: take any number from one heap, or the same number from both.

    Returns
    -------
    TwoHeapGame
        ``TwoHeapGame([(1, 0), (0, 1), (1, 1)], unbounded=True, name="Wythoff")``.

    Examples
    --------
    >>> import grundy as gr
    >>> g = gr.wythoff()
    >>> [(a, b) for a in range(6) for b in range(a, 6) if g.value((a, b)) == 0]
    [(0, 0), (1, 2), (3, 5)]
    """
    return TwoHeapGame([(1, 0), (0, 1), (1, 1)], unbounded=True, name="Wythoff")


__all__ = ["TwoHeapGame", "TwoHeapRow", "wythoff"]
