"""Board games at native speed: Cram, Node Kayles, Arc Kayles and Chomp, solved by a pruned search in Rust.

Each game is a :class:`BoardGame` (:func:`cram`, :func:`node_kayles`, :func:`arc_kayles`,
:func:`chomp`) whose positions are :class:`BoardState` objects: the board with some cells blocked,
or the graph with some vertices removed. The value of one position is found by depth-first search
over "is G in S?" questions (pruning what cannot change the answer), splitting a board into its
independent regions and keeping what it learns in a fixed-size table (``memory`` bytes, a quarter
of the machine's memory by default), without the GIL; Ctrl-C stops it. On a large board every
core searches (``threads=``), all of them reading and writing the one table, each putting off
what another is searching. A :class:`BoardState` is a
component of a :class:`~grundy.Position`, which lists the winning moves.

>>> import grundy as gr
>>> gr.cram(4, 5).value()
2
>>> gr.node_kayles(path=30).value() == gr.TakeAndBreak("0.137").value(30)  # Node Kayles on a path is 0.137
True
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Iterable
from html import escape
from typing import Any

import numpy as np

from ... import _core
from ..._ui.display import byte_count, card
from ..._ui.progress import Bar, _check_progress
from ..._validate import _short, as_count, as_heap
from ...exceptions import ArgumentError, ArgumentTypeError
from ...io import checkpoint as _checkpoint
from .components import BoardComponents
from .graph import board_rule, neighbours, regions, rule_args
from .search import CHECKPOINT_EVERY, run
from .state import BoardState

__all__ = ["BoardGame", "BoardState", "default_memory"]


_NAMES = {"cram": "Cram", "chomp": "Chomp", "node_kayles": "Node Kayles", "arc_kayles": "Arc Kayles"}


def default_memory() -> int:
    """The default memory budget of a game's table: a quarter of the machine's memory (at most what is free).

    >>> default_memory() > 0
    True
    """
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # not POSIX: 1 GiB
        total = 4 << 30
    budget = max(total // 4, 1 << 20)
    free = _core.memory_available()
    return budget if free is None else max(min(budget, free), 1 << 20)


#: The most values a game keeps of those ``value()`` found (each about 100 bytes; the table holds the rest).
KNOWN_MAX = 1 << 16


def _rebuild(args: tuple[Any, ...], known: dict[int, int]) -> BoardGame:
    """A pickled game: built again from its rule, with the values it had found."""
    kind, spec, grid, labels, edges, memory, progress = args
    game = BoardGame(kind, spec=spec, grid=grid, labels=labels, edges=edges, memory=memory, progress=progress)
    for free, v in known.items():
        game._remember(free, v)
    return game


def board_from_rule(rule: dict[str, Any], name: str | None = None) -> BoardGame:
    """The game a board rule (:func:`~grundy.games.board.graph.board_rule`) describes, checked (files, stores)."""
    kind, spec, grid, labels, edges = rule_args(rule)
    return BoardGame(kind, spec=spec, grid=grid, labels=labels, edges=edges)


# -- games ----------------------------------------------------------------------------------------
class BoardGame:
    """An impartial game on a board of at most 128 cells, or a graph of at most 128 vertices.

    Made by :func:`cram`, :func:`chomp`, :func:`node_kayles` or :func:`arc_kayles`. Its positions
    are :class:`BoardState` objects; wherever a position is asked for, a mask of blocked cells (a 2-d
    numpy bool array or nested lists of the board's shape) or, for a graph, the removed vertices
    (any iterable of labels) will do, and nothing means the start. Values are found by a pruned
    search in Rust whose table (``memory`` bytes) is kept between calls.

    Parameters
    ----------
    kind : str
        ``"cram"``, ``"chomp"``, ``"node_kayles"`` or ``"arc_kayles"``.
    spec : str
        How the board was given, for the repr (``"4, 5"``, ``"path=7"``).
    grid : tuple of int, optional
        The core's ``rows x cols`` grid (a board, or a grid graph), vertex ``r * cols + c``.
    labels : list, optional
        The vertex labels of a graph, in the order of their bits (a path's in the order along it).
    edges : list of tuple, optional
        A graph's edges as pairs of label indices (none for a grid).
    memory : int, optional
        Bytes for the search's table (default: a quarter of the machine's memory).
    progress : bool, optional
        A bar counting the nodes searched: True always, False never, None after 1 s.

    Examples
    --------
    >>> import grundy as gr
    >>> g = gr.cram(3, 4)
    >>> g.value(), g.outcome()
    (1, 'N')
    >>> mid = g.state([[1, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1]])
    >>> print(mid)
    ##..
    ....
    ...#
    >>> all(o.value() == 0 for o in g.winning_options(mid))
    True
    """

    def __init__(
        self,
        kind: str,
        *,
        spec: str,
        grid: tuple[int, int] | None = None,
        labels: list[Hashable] | None = None,
        edges: list[tuple[int, int]] | None = None,
        memory: Any = None,
        progress: bool | None = None,
    ) -> None:
        self.kind = kind
        self._spec = spec
        self._progress = _check_progress(progress)
        # What rebuilds the game elsewhere (pickle, files, surveys): the table stays behind.
        self._args = (kind, spec, grid, labels, edges, memory, progress)
        budget = default_memory() if memory is None else as_heap(memory, "memory")
        if edges is None:  # the core's grid, cell (r, c) = vertex r * cols + c
            assert grid is not None
            self._core = _core.BoardGame(kind, budget, rows=grid[0], cols=grid[1])
        else:
            assert labels is not None
            self._core = _core.BoardGame(kind, budget, n=len(labels), edges=edges)
        #: ``(rows, cols)`` of a board or a grid graph (the shape of its masks), else None.
        self.shape: tuple[int, int] | None = grid if labels is None else None
        #: The cells ``(r, c)`` of a board, or the graph's vertex labels, in the order of their bits.
        if labels is None:
            assert grid is not None
            labels = [(r, c) for r in range(grid[0]) for c in range(grid[1])]
        self.labels: list[Hashable] = labels
        self._edges = edges
        self._index = {x: i for i, x in enumerate(self.labels)}
        # What makes two games equal (compared at every move a Position checks), computed once.
        self._key = (kind, self.shape, self.num_cells, None if edges is None else tuple(edges), tuple(self.labels))
        self._start_value: int | None = None
        #: The values ``value()`` has found, by position (what :func:`grundy.save` writes), at most KNOWN_MAX.
        self._known: dict[int, int] = {}
        self._near: list[int] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (and ``copy.deepcopy``) by the rule and the values found; the search's table is rebuilt empty."""
        return (_rebuild, (self._args, self._known))

    # -- files (grundy.save, grundy.load): the rule and the values value() found ----------------------
    name: str | None = None
    known_periodicity: None = None

    def _rule(self) -> dict[str, Any]:
        """The game as plain data (JSON): what :func:`grundy.save` and a survey's store keep of it."""
        kind, spec, grid, labels, edges, _, _ = self._args
        return board_rule(kind, spec, grid, labels, edges)

    def _constructor(self) -> str:
        return repr(self)

    def _computed_values(self) -> np.ndarray:
        return np.fromiter(self._known.values(), dtype=np.uint32, count=len(self._known))

    def _computed_keys(self) -> list[int]:
        return list(self._known)

    def _seed_keyed(self, keys: list[int], values: np.ndarray) -> None:
        """Values read from a file (its checksum checked): each position checked, no value searched again.

        A board's value may take hours to search: unlike a heap game's last values, none is recomputed.
        """
        if len(keys) != len(values):
            raise ArgumentError(f"{len(keys)} positions but {len(values)} values")
        for free, v in zip(keys, values.tolist(), strict=True):
            self._remember(int(self._core.check(free)), v)

    def _remember(self, free: int, v: int) -> None:
        if free == int(self._core.start):
            self._start_value = v
        if len(self._known) < KNOWN_MAX:
            self._known[free] = v

    # -- identity ---------------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        """Games with the same rules on the same board (or labelled graph) are equal."""
        return isinstance(other, BoardGame) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return f"{self.kind}({self._spec})"

    def __str__(self) -> str:
        """The start drawn as a board (``.`` a free cell), under the game's repr; a graph game's repr."""
        return f"{self!r}\n{self.start}" if self.shape is not None else repr(self)

    def _name(self) -> str:
        # What the bar and the card call it: "Cram 4 x 9", "Node Kayles on the 4 x 31 grid".
        r, c = self._args[2] or (0, 0)  # a graph game has no grid
        named = {f"{r}, {c}": f"{r} x {c}", f"grid=({r}, {c})": f"on the {r} x {c} grid"}
        return f"{_NAMES[self.kind]} {named.get(self._spec, self._spec)}"

    @property
    def num_cells(self) -> int:
        """The cells of the board (vertices of the graph).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.cram(3, 4).num_cells, gr.node_kayles([(0, 1), (1, 2)]).num_cells
        (12, 3)
        """
        return len(self.labels)

    @property
    def memory(self) -> int:
        """The memory budget of the search's table, in bytes.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.cram(3, 4, memory=1 << 20).memory
        1048576
        """
        return int(self._core.memory)

    @property
    def start(self) -> BoardState:
        """The position before the first move, with every cell free (every vertex there).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.cram(2, 3).start
        BoardState(cram(2, 3), '...|...')
        """
        return BoardState._of(self, int(self._core.start))

    # -- positions --------------------------------------------------------------------------------
    def state(self, blocked: Any = None) -> BoardState:
        """The position with the ``blocked`` cells covered (the listed vertices removed).

        Parameters
        ----------
        blocked : array_like, iterable or BoardState, optional
            A board game (and a grid graph): a mask of the board's shape, True (1) where a cell is
            blocked, as a numpy array or nested lists. A graph game: the removed vertices' labels
            (any iterable; a numpy bool mask of the grid's shape for a grid graph). A BoardState of
            this game is returned as it is. None: the start.

        Returns
        -------
        BoardState
            The position, checked.

        Raises
        ------
        ArgumentError
            (a ValueError) For a mask of the wrong shape or with values other than 0 and 1, an unknown
            vertex, or a Chomp position that is not a staircase holding the poisoned square.
        ArgumentTypeError
            (a TypeError) For an argument of none of these forms.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.node_kayles(path=5).state({0, 4}).value()  # the path of 3 in the middle
        2
        """
        if blocked is None:
            return self.start
        if isinstance(blocked, BoardState):
            if blocked.game != self:
                raise ArgumentError(f"{blocked!r} is a position of {blocked.game!r}, not of {self!r}")
            return blocked
        full = int(self._core.start)
        if self.shape is not None and (self.kind in ("cram", "chomp") or isinstance(blocked, np.ndarray)):
            gone = self._mask_bits(blocked)
        else:
            gone = self._vertex_bits(blocked)
        return BoardState._of(self, int(self._core.check(full & ~gone)))

    def _mask_bits(self, mask: Any) -> int:
        assert self.shape is not None
        if isinstance(mask, (str, bytes)) or not isinstance(mask, (np.ndarray, Iterable)):
            raise ArgumentTypeError(f"a mask of blocked cells is a 2-d bool array or nested lists, not {_short(mask)}")
        try:
            arr = np.asarray(mask)
        except ValueError:
            raise ArgumentError(
                f"a mask of blocked cells must be a rectangle of {self.shape}, not {_short(mask)}"
            ) from None
        if arr.shape != self.shape:
            raise ArgumentError(f"a mask of blocked cells must have the board's shape {self.shape}, not {arr.shape}")
        if arr.dtype != np.bool_:
            if arr.dtype.kind not in "iu":
                raise ArgumentTypeError(f"a mask of blocked cells holds bools (or 0 and 1), not {arr.dtype}")
            if arr.size and not np.isin(arr, (0, 1)).all():
                raise ArgumentError("a mask of blocked cells holds only 0 and 1 (or bools)")
        flat = np.asarray(arr, dtype=bool).ravel()
        return int.from_bytes(np.packbits(flat, bitorder="little").tobytes(), "little")

    def _vertex_bits(self, removed: Any) -> int:
        if isinstance(removed, (str, bytes)) or not isinstance(removed, Iterable):
            raise ArgumentTypeError(f"the removed vertices are an iterable of vertex labels, not {_short(removed)}")
        bits = 0
        for x in removed:
            try:
                bits |= 1 << self._index[x]
            except (KeyError, TypeError):
                raise ArgumentError(f"{_short(x)} is not a vertex of {self!r}") from None
        return bits

    def _bar(self) -> Bar:
        return Bar(self._progress, f"{self._name()}: searching", " nodes", open_now=False)

    # -- values -----------------------------------------------------------------------------------
    def value(
        self, position: Any = None, *, threads: int | None = None, checkpoint: Any = None,
        checkpoint_every: float = CHECKPOINT_EVERY,
    ) -> int:  # fmt: skip
        """The Grundy value of ``position`` (the start by default).

        A long search shows a bar (see ``progress=``): nodes searched and their rate, the table's
        fill, and the root's options settled in the question it asks now ("is G 2?": 31/40
        options settled, and what each is worth). With ``checkpoint`` it can be stopped and
        resumed (see the guide to board games, "Long searches").

        Parameters
        ----------
        position : BoardState, array_like or iterable, optional
            As :meth:`state` takes it; the start by default.
        threads : int, optional
            The most threads used (default: every core, or ``RAYON_NUM_THREADS``). A region of
            20 cells or more is searched by all of them at once; a smaller one takes one thread,
            which is faster there. The value never depends on it.
        checkpoint : str or path-like, optional
            A file that keeps the search's table: written every ``checkpoint_every`` seconds, when
            Ctrl-C stops the search, and with the answer at the end. The same call with the same
            path resumes from it (a finished one answers at once), losing at most the last
            interval. The write is atomic (a kill leaves the previous checkpoint whole) and
            streams the table's entries, taking no memory beyond the budget.
        checkpoint_every : float, default 600
            Seconds between two checkpoints, at least twenty times the last write's time.

        Returns
        -------
        int
            G(position), found by the pruned search (what it learns stays in the game's table; the
            value itself is kept, answered at once when asked again, pickled and saved with the game).

        Raises
        ------
        ArgumentError, ArgumentTypeError
            For a position the game does not have (see :meth:`state`), or ``threads`` not a
            positive integer.
        KeyboardInterrupt
            On Ctrl-C, which stops the search (every thread) within a fraction of a second.
        InvalidFileError
            For a ``checkpoint`` that is not a whole, uncorrupted checkpoint of this game and
            position (the file is left as it is).
        FilePermissionError
            For a ``checkpoint`` that could not be written (checked before the search).

        Examples
        --------
        >>> import grundy as gr, os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "cram45.ckpt")
        >>> gr.cram(4, 5).value(checkpoint=path), gr.cram(4, 5).value(checkpoint=path)  # the second reads it
        (2, 2)
        >>> [gr.cram(1, n).value() for n in range(2, 8)]  # a strip of n cells is the octal game 0.07
        [1, 1, 2, 0, 3, 1]
        >>> gr.cram(4, 5).value(threads=1)  # one thread
        2
        """
        s = self.state(position)
        known = self._known.get(s.free)
        if known is not None:
            return known
        v = int(run(self, "value", s.free, threads=threads, checkpoint=checkpoint, every=checkpoint_every))
        self._remember(s.free, v)
        return v

    def outcome(
        self, position: Any = None, *, threads: int | None = None, checkpoint: Any = None,
        checkpoint_every: float = CHECKPOINT_EVERY,
    ) -> str:  # fmt: skip
        """``"P"`` when the player to move from ``position`` loses, ``"N"`` when they win.

        A P-position often takes far less search than its value.

        Parameters
        ----------
        position : BoardState, array_like or iterable, optional
            As :meth:`state` takes it; the start by default.
        threads : int, optional
            The most threads used (default: every core); see :meth:`value`.
        checkpoint : str or path-like, optional
            A file to stop and resume the search by, as in :meth:`value` (one written by
            :meth:`value` for the same position serves too).
        checkpoint_every : float, default 600
            Seconds between two checkpoints, at least twenty times the last write's time.

        Returns
        -------
        str
            ``"P"`` or ``"N"``.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.cram(4, 4).outcome(), gr.chomp(3, 5).outcome(threads=2)
        ('P', 'N')
        """
        free = self.state(position).free
        zero = run(self, "is_zero", free, threads=threads, checkpoint=checkpoint, every=checkpoint_every)
        return "P" if zero else "N"

    def options(self, position: Any = None) -> list[BoardState]:
        """The positions one move from ``position`` can reach (each once).

        Parameters
        ----------
        position : BoardState, array_like or iterable, optional
            As :meth:`state` takes it; the start by default.

        Returns
        -------
        list of BoardState
            The options, in the board's order (cells row by row).

        Examples
        --------
        >>> import grundy as gr
        >>> [str(o) for o in gr.cram(1, 3).options()]
        ['##.', '.##']
        """
        return [BoardState._of(self, o) for o in self._core.options(self.state(position).free)]

    def winning_options(
        self, position: Any = None, target: int = 0, *, threads: int | None = None, checkpoint: Any = None,
        checkpoint_every: float = CHECKPOINT_EVERY,
    ) -> list[BoardState]:  # fmt: skip
        """The options of ``position`` worth ``target``: with 0, the moves that win.

        Parameters
        ----------
        position : BoardState, array_like or iterable, optional
            As :meth:`state` takes it; the start by default.
        target : int, default 0
            The value the options must have.
        threads : int, optional
            The most threads used (default: every core); see :meth:`value`.
        checkpoint : str or path-like, optional
            A file to stop and resume the search by, as in :meth:`value` (one of :meth:`value` or
            :meth:`outcome` for the same position serves too).
        checkpoint_every : float, default 600
            Seconds between two checkpoints, at least twenty times the last write's time.

        Returns
        -------
        list of BoardState
            Those options, in the board's order.

        Examples
        --------
        >>> import grundy as gr
        >>> print(*gr.chomp(2, 2).winning_options())  # eat the bottom right square
        ..
        .#
        """
        t = min(as_count(target, "target"), 2**32 - 1)  # no board has a value near 2**32
        free = self.state(position).free
        found = run(self, "winning", free, t, threads=threads, checkpoint=checkpoint, every=checkpoint_every)
        return [BoardState._of(self, o) for o in found]

    def components(self, position: Any = None) -> list[BoardState]:
        """The regions of ``position``: each a position of its own, whose values XOR to its value.

        A region is a connected set of free cells (4-neighbours on a board and a grid graph) or of
        the vertices left (along the graph's edges): no move joins two regions, so the position is
        their sum. Every free cell is in one region, a cell no move can use included (a lone free
        cell of Cram is a region worth 0). A Chomp bar never splits: its one region is the
        position. (The search splits regions further where the rules let it, inside the core.)

        Parameters
        ----------
        position : BoardState, array_like or iterable, optional
            As :meth:`state` takes it; the start by default.

        Returns
        -------
        list of BoardState
            The regions, ordered by their first cell (row by row; a graph's vertex order); none
            for a position with no cell left.

        Examples
        --------
        >>> import grundy as gr
        >>> [str(c) for c in gr.cram(1, 5).components([[0, 0, 1, 0, 0]])]
        ['..###', '###..']
        >>> [c.value() for c in gr.cram(2, 3).components([[0, 1, 0], [1, 0, 1]])]  # three lone cells
        [0, 0, 0]
        """
        free = self.state(position).free
        if self.kind == "chomp":
            return [BoardState._of(self, free)] if free else []
        if self._near is None:
            self._near = neighbours(self.num_cells, self._edges, self._args[2])
        return [BoardState._of(self, region) for region in regions(free, self._near)]

    def position(self, blocked: Any = None) -> Any:
        """The :class:`~grundy.Position` of the one board ``blocked``, to list its moves.

        Parameters
        ----------
        blocked : BoardState, array_like or iterable, optional
            As :meth:`state` takes it; the start by default.

        Returns
        -------
        Position
            A sum of one component: ``winning_moves()`` lists the moves to P-positions.

        Examples
        --------
        >>> import grundy as gr
        >>> pos = gr.cram(3, 3).position([[0, 0, 0], [0, 1, 0], [0, 0, 0]])
        >>> pos.grundy, pos.winning_moves()
        (0, [])
        """
        from ...play.position import Position

        return Position(self, [self.state(blocked)])

    def stats(self) -> dict[str, int]:
        """The search's counters so far.

        Returns
        -------
        dict
            ``nodes`` searched, ``table_entries``, ``table_capacity`` and ``table_bytes`` (never
            more than :attr:`memory`).

        Examples
        --------
        >>> import grundy as gr
        >>> g = gr.cram(4, 5, memory=1 << 20); _ = g.value()
        >>> g.stats()["nodes"] > 0, g.stats()["table_bytes"] <= 1 << 20
        (True, True)
        """
        return self._core.stats()

    def _components(self, states: Any) -> BoardComponents:
        """Positions of this game as components of a :class:`~grundy.Position`."""
        if isinstance(states, BoardState):
            states = [states]
        if isinstance(states, (str, bytes)) or not isinstance(states, Iterable):
            raise ArgumentTypeError(f"the components are a list of positions of {self!r}, not {_short(states)}")
        return BoardComponents(self, [self.state(s) for s in states])

    # -- display ----------------------------------------------------------------------------------
    def _repr_html_(self) -> str:
        """Show the game, its board and what is known of its value (notebook display)."""
        rows = [("board", self.start._picture_html() if self.shape else escape(f"{self.num_cells} vertices"))]
        if self._edges is not None:
            rows.append(("edges", f"{len(self._edges):,}"))
        rows.append(
            (
                "value",
                "not computed yet: <code>.value()</code>" if self._start_value is None else str(self._start_value),
            )
        )
        st = self.stats()  # the bytes its entries fill, not the table's reserve (its pages come as written)
        used = st["table_bytes"] * st["table_entries"] // max(st["table_capacity"], 1)
        entries = f"{st['table_entries']:,} entries"
        rows.append(("table", f"{byte_count(used)} used ({entries}) of {byte_count(self.memory)}"))
        return card(self._name(), rows)


_checkpoint.BUILDERS["board"] = board_from_rule  # type: ignore[assignment]
