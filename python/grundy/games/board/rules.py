"""The rules of the board games: :func:`cram`, :func:`chomp`, :func:`node_kayles` and :func:`arc_kayles`.

Each checks its board (at most 128 cells) or graph (at most 128 vertices) and makes the
:class:`~grundy.BoardGame` that plays it (see :mod:`grundy.games.board`).

>>> import grundy as gr
>>> gr.cram(4, 5).value()
2
>>> dawsons_chess = gr.TakeAndBreak("0.137")  # Node Kayles on a path of n vertices is 0.137 at heap n
>>> [gr.node_kayles(path=n).value() for n in (10, 30, 40)] == dawsons_chess.values(41)[[10, 30, 40]].tolist()
True
"""

from __future__ import annotations

from typing import Any

from ..._validate import _short, as_count
from ...exceptions import ArgumentError, ArgumentTypeError, TooLargeError
from .game import BoardGame
from .graph import MAX_CELLS, as_grid, as_path, graph_parts

__all__ = ["arc_kayles", "chomp", "cram", "node_kayles"]


def _shape(rows: Any, cols: Any) -> tuple[int, int]:
    r, c = as_count(rows, "rows"), as_count(cols, "cols")
    if r == 0 or c == 0:
        raise ArgumentError(f"a board needs at least one row and one column, not {r} x {c}")
    if r * c > MAX_CELLS:
        raise TooLargeError(f"a board has at most {MAX_CELLS} cells (one bit each), not {r} x {c} = {r * c}")
    return r, c


def cram(rows: int, cols: int, *, memory: int | None = None, progress: bool | None = None) -> BoardGame:
    """Cram on a ``rows x cols`` board: each move places a domino on two free adjacent cells.

    Parameters
    ----------
    rows, cols : int
        The board's size, at most 128 cells.
    memory : int, optional
        Bytes for the search's table (default: a quarter of the machine's memory). Less memory
        only makes the search slower.
    progress : bool, optional
        A bar counting the nodes searched: True always, False never, None after 1 s.

    Returns
    -------
    BoardGame
        The game; its start is :attr:`BoardGame.start`.

    Raises
    ------
    TooLargeError
        For a board of more than 128 cells.
    ArgumentError
        For a side of 0.

    Examples
    --------
    >>> import grundy as gr
    >>> [[gr.cram(r, c).value() for c in range(1, 6)] for r in range(1, 4)]
    [[0, 1, 1, 2, 0], [1, 0, 1, 0, 1], [1, 1, 0, 1, 1]]
    """
    r, c = _shape(rows, cols)
    return BoardGame("cram", grid=(r, c), spec=f"{r}, {c}", memory=memory, progress=progress)


def chomp(rows: int, cols: int, *, memory: int | None = None, progress: bool | None = None) -> BoardGame:
    """Chomp on a ``rows x cols`` bar: a move eats a square and every square below and right of it.

    The top left square is poisoned: it is never eaten, and the player left with it alone loses.
    A position is a mask of the eaten squares: a staircase, each row no longer than the one above.

    Parameters
    ----------
    rows, cols : int
        The bar's size, at most 128 squares (and ``rows + cols`` at most 127).
    memory : int, optional
        Bytes for the search's table (default: a quarter of the machine's memory).
    progress : bool, optional
        A bar counting the nodes searched: True always, False never, None after 1 s.

    Returns
    -------
    BoardGame
        The game; its start is :attr:`BoardGame.start`.

    Examples
    --------
    >>> import grundy as gr
    >>> [gr.chomp(r, c).outcome() for r, c in [(1, 1), (2, 2), (3, 4)]]  # every bar but 1 x 1 is won
    ['P', 'N', 'N']
    """
    r, c = _shape(rows, cols)
    if r + c > 127:
        raise TooLargeError(f"a Chomp bar has rows + cols at most 127, not {r} + {c}")
    return BoardGame("chomp", grid=(r, c), spec=f"{r}, {c}", memory=memory, progress=progress)


def _graph_game(kind: str, graph: Any, grid: Any, path: Any, cycle: Any, memory: Any, progress: Any) -> BoardGame:
    given = [k for k, x in (("graph", graph), ("grid", grid), ("path", path), ("cycle", cycle)) if x is not None]
    if len(given) != 1:
        raise ArgumentTypeError(
            f"{kind}() takes one of graph, grid=(rows, cols), path=n or cycle=n, not {given or 'none'}"
        )
    if grid is not None:
        if not isinstance(grid, tuple) or len(grid) != 2:
            raise ArgumentTypeError(f"grid is a pair (rows, cols), not {_short(grid)}")
        r, c = _shape(*grid)
        return BoardGame(kind, grid=(r, c), spec=f"grid=({r}, {c})", memory=memory, progress=progress)
    if path is not None:
        n = as_count(path, "path")
        if n == 0:
            raise ArgumentError("a path has at least one vertex, not 0")
        _shape(1, n)
        return BoardGame(kind, grid=(1, n), labels=list(range(n)), spec=f"path={n}", memory=memory, progress=progress)
    if cycle is not None:
        n = as_count(cycle, "cycle")
        if n < 3:
            raise ArgumentError(f"a cycle has at least 3 vertices, not {n}")
        if n > MAX_CELLS:
            raise TooLargeError(f"a graph has at most {MAX_CELLS} vertices (one bit each), not {n}")
        edges = sorted((min(v, (v + 1) % n), max(v, (v + 1) % n)) for v in range(n))
        return BoardGame(kind, labels=list(range(n)), edges=edges, spec=f"cycle={n}", memory=memory, progress=progress)
    labels, edges = graph_parts(graph)
    spec = f"<{len(labels)} vertices, {len(edges)} edges>"
    shape = as_grid(labels, edges)
    if shape is not None:  # a whole grid graph: searched with the grid's symmetries
        return BoardGame(kind, grid=shape, spec=spec, memory=memory, progress=progress)
    order = as_path(len(labels), edges)
    if order is not None:  # a path: searched as a 1 x n grid, with its symmetries, vertices in path order
        labels = [labels[v] for v in order]
        return BoardGame(kind, grid=(1, len(labels)), labels=labels, spec=spec, memory=memory, progress=progress)
    return BoardGame(kind, labels=labels, edges=edges, spec=spec, memory=memory, progress=progress)


def node_kayles(
    graph: Any = None,
    *,
    grid: tuple[int, int] | None = None,
    path: int | None = None,
    cycle: int | None = None,
    memory: int | None = None,
    progress: bool | None = None,
) -> BoardGame:
    """Node Kayles on a graph: a move removes a vertex and its neighbours.

    Parameters
    ----------
    graph : dict or iterable, optional
        The graph, at most 128 vertices: a networkx graph (not imported by grundy), an adjacency dict
        ``{vertex: neighbours}`` or a list of edges ``(u, v)``. Vertices are any hashable labels; a
        graph on cells ``(r, c)`` that is a whole grid (``networkx.grid_2d_graph``) is searched with
        the grid's symmetries, as is a path; any other graph with its parts up to isomorphism (every
        move of a complete graph leaves the same smaller one), and a position that a mirror of the
        graph maps onto itself (an involution with no vertex next to its image, as a cube's antipodal
        map) is known to be worth 0.
    grid : tuple of int, optional
        Instead of ``graph``: the ``rows x cols`` grid graph, vertices ``(r, c)``.
    path, cycle : int, optional
        Instead of ``graph``: the path or the cycle on ``n`` vertices ``0..n-1``.
    memory : int, optional
        Bytes for the search's table (default: a quarter of the machine's memory).
    progress : bool, optional
        A bar counting the nodes searched: True always, False never, None after 1 s.

    Returns
    -------
    BoardGame
        The game; its start is :attr:`BoardGame.start`.

    Examples
    --------
    >>> import grundy as gr
    >>> gr.node_kayles(grid=(3, 3)).value(), gr.node_kayles(cycle=7).value()
    (1, 1)
    >>> gr.node_kayles({"a": ["b", "c"], "b": ["c"], "d": []}).value()  # a triangle and a lone vertex
    0
    """
    return _graph_game("node_kayles", graph, grid, path, cycle, memory, progress)


def arc_kayles(
    graph: Any = None,
    *,
    grid: tuple[int, int] | None = None,
    path: int | None = None,
    cycle: int | None = None,
    memory: int | None = None,
    progress: bool | None = None,
) -> BoardGame:
    """Arc Kayles on a graph: a move picks an edge and removes both its ends (and every edge at them).

    A position is the set of vertices left. Arc Kayles on a grid graph is Cram.

    Parameters
    ----------
    graph : dict or iterable, optional
        The graph, as :func:`node_kayles` takes it.
    grid : tuple of int, optional
        Instead of ``graph``: the ``rows x cols`` grid graph, vertices ``(r, c)``.
    path, cycle : int, optional
        Instead of ``graph``: the path or the cycle on ``n`` vertices ``0..n-1``.
    memory : int, optional
        Bytes for the search's table (default: a quarter of the machine's memory).
    progress : bool, optional
        A bar counting the nodes searched: True always, False never, None after 1 s.

    Returns
    -------
    BoardGame
        The game; its start is :attr:`BoardGame.start`.

    Examples
    --------
    >>> import grundy as gr
    >>> gr.arc_kayles(grid=(3, 4)).value() == gr.cram(3, 4).value()
    True
    """
    return _graph_game("arc_kayles", graph, grid, path, cycle, memory, progress)
