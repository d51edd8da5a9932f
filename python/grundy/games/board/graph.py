"""The graphs of Node Kayles and Arc Kayles (:mod:`grundy.games.board`), from what a user gives.

Vertex labels and edges from a networkx graph, an adjacency dict or an edge list, and the grids and
paths among them (searched with their symmetries).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

from ..._validate import _short, as_count
from ...exceptions import ArgumentError, ArgumentTypeError, TooLargeError

#: The most cells (vertices) a board may have: one bit each of the core's 128-bit positions.
MAX_CELLS = 128


def graph_parts(graph: Any) -> tuple[list[Hashable], list[tuple[int, int]]]:
    """The vertex labels and edges (as index pairs) of a networkx graph, an adjacency dict or an edge list."""
    if hasattr(graph, "nodes") and hasattr(graph, "edges") and not isinstance(graph, dict):  # networkx
        if callable(getattr(graph, "is_directed", None)) and graph.is_directed():
            raise ArgumentError("Node Kayles and Arc Kayles are played on undirected graphs, not directed ones")
        labels = list(graph.nodes)
        pairs: Iterable[Any] = list(graph.edges())
    elif isinstance(graph, dict):
        labels = list(graph)
        pairs = []
        for u, nbrs in graph.items():
            if isinstance(nbrs, (str, bytes)) or not isinstance(nbrs, Iterable):
                raise ArgumentTypeError(f"the neighbours of {u!r} must be an iterable of vertices, not {_short(nbrs)}")
            pairs.extend((u, v) for v in nbrs)
    elif isinstance(graph, Iterable) and not isinstance(graph, (str, bytes)):
        labels, pairs = [], list(graph)
    else:
        raise ArgumentTypeError(
            "a graph is a networkx graph, an adjacency dict {vertex: neighbours} or a list of edges (u, v), "
            f"not {_short(graph)}"
        )
    index: dict[Hashable, int] = {}
    for v in labels:
        _add(index, v)
    edges = set()
    for e in pairs:
        if isinstance(e, (str, bytes)) or not isinstance(e, Iterable) or len(e := tuple(e)) != 2:
            raise ArgumentTypeError(f"an edge is a pair of vertices (u, v), not {_short(e)}")
        u, v = e
        if u == v:
            raise ArgumentError(f"edge {e!r} is a loop: Node Kayles and Arc Kayles graphs have none")
        iu, iv = _add(index, u), _add(index, v)
        edges.add((min(iu, iv), max(iu, iv)))
    if len(index) > MAX_CELLS:
        raise TooLargeError(f"a graph has at most {MAX_CELLS} vertices (one bit each), not {len(index)}")
    return list(index), sorted(edges)


def _add(index: dict[Hashable, int], v: Any) -> int:
    """The index of vertex ``v``, given the next one when new."""
    try:
        return index.setdefault(v, len(index))
    except TypeError:
        raise ArgumentTypeError(f"a vertex label must be hashable, not {_short(v)}") from None


def as_grid(labels: list[Hashable], edges: list[tuple[int, int]]) -> tuple[int, int] | None:
    """``(rows, cols)`` when the graph is the grid graph on cells ``(r, c)`` (networkx's ``grid_2d_graph``)."""
    cells_given: list[tuple[int, int]] = []
    for x in labels:
        if not (isinstance(x, tuple) and len(x) == 2 and all(type(i) is int for i in x)):
            return None
        cells_given.append(x)
    if not cells_given:
        return None
    rows, cols = max(x[0] for x in cells_given) + 1, max(x[1] for x in cells_given) + 1
    cells = {(r, c) for r in range(rows) for c in range(cols)}
    if set(labels) != cells or len(labels) != len(cells):
        return None
    want = {
        frozenset(((r, c), (r + dr, c + dc)))
        for r, c in cells
        for dr, dc in ((0, 1), (1, 0))
        if (r + dr, c + dc) in cells
    }
    return (rows, cols) if {frozenset((labels[u], labels[v])) for u, v in edges} == want else None


def as_path(n: int, edges: list[tuple[int, int]]) -> list[int] | None:
    """The vertices in order along the path when the graph is a path on all ``n`` vertices, else None."""
    if n < 2 or len(edges) != n - 1:
        return None
    adj: dict[int, list[int]] = {v: [] for v in range(n)}
    for u, v in edges:
        adj[u].append(v)
        adj[v].append(u)
    ends = [v for v in range(n) if len(adj[v]) == 1]
    if len(ends) != 2 or any(len(a) > 2 for a in adj.values()):
        return None
    order, prev = [ends[0]], -1
    while len(order) < n:
        nxt = [v for v in adj[order[-1]] if v != prev]
        if not nxt:
            return None
        prev = order[-1]
        order.append(nxt[0])
    return order


# -- a game's rule as data (files, survey stores) ---------------------------------------------------
def board_rule(kind: str, spec: str, grid: Any, labels: Any, edges: Any) -> dict[str, Any]:
    """A board game's rule as JSON data; ArgumentTypeError when a vertex label is not an int, a str or a tuple."""
    if labels is not None and not all(_plain(x) for x in labels):
        raise ArgumentTypeError(
            f"the vertex labels of {kind}({spec}) are not all ints, strs or tuples of them, so its rule cannot be "
            "written as data (a file, a survey's store); pickle the game instead"
        )
    return {
        "type": "board",
        "kind": kind,
        "spec": spec,
        "grid": None if grid is None else list(grid),
        "labels": None if labels is None else [_json_label(x) for x in labels],
        "edges": None if edges is None else [list(e) for e in edges],
    }


def rule_args(rule: dict[str, Any]) -> tuple[str, str, Any, Any, Any]:
    """``kind, spec, grid, labels, edges`` of a :func:`board_rule`, checked (ArgumentError when damaged)."""
    kind, spec, grid, labels, edges = (rule.get(k) for k in ("kind", "spec", "grid", "labels", "edges"))
    if kind not in ("cram", "chomp", "node_kayles", "arc_kayles") or not isinstance(spec, str):
        raise ArgumentError(f"no board game {_short(kind)}")
    if labels is not None:
        if not isinstance(labels, list) or len(labels) > MAX_CELLS:
            raise ArgumentError("a board rule's labels are a list of at most 128 vertices")
        labels = [_label_of(x) for x in labels]
    if edges is None:  # a board, or a grid graph (a path's vertices labelled)
        if not (isinstance(grid, list) and len(grid) == 2):
            raise ArgumentError(f"a board rule gives a grid [rows, cols] or a graph's edges, not {_short(grid)}")
        rows, cols = (as_count(x, "rows") for x in grid)
        if not 0 < rows * cols <= MAX_CELLS or (labels is not None and len(labels) != rows * cols):
            raise ArgumentError(f"a board rule's grid {rows} x {cols} does not fit its cells")
        return kind, spec, (rows, cols), labels, None
    if grid is not None or labels is None or not isinstance(edges, list):
        raise ArgumentError("a graph's rule gives its labels and edges, and no grid")
    pairs = []
    for e in edges:
        if not (isinstance(e, list) and len(e) == 2):
            raise ArgumentError(f"a board rule's edges are pairs of vertex indices, not {_short(e)}")
        pairs.append((as_count(e[0], "vertex"), as_count(e[1], "vertex")))
    return kind, spec, None, labels, pairs


def _plain(x: Any) -> bool:
    if isinstance(x, tuple):
        return all(_plain(y) for y in x)
    return type(x) in (int, str)


def _json_label(x: Any) -> Any:
    return [_json_label(y) for y in x] if isinstance(x, tuple) else x


def _label_of(x: Any) -> Any:
    """A label read back from JSON: lists were tuples (a label is hashable)."""
    return tuple(_label_of(y) for y in x) if isinstance(x, list) else x


def neighbours(n: int, edges: list[tuple[int, int]] | None, grid: tuple[int, int] | None) -> list[int]:
    """Each of ``n`` cells' neighbours as bits, those a move may join: the ``edges``, else 4-neighbours on ``grid``.

    >>> neighbours(3, None, (1, 3))
    [2, 5, 2]
    """
    near = [0] * n
    if edges is not None:
        for u, v in edges:
            near[u] |= 1 << v
            near[v] |= 1 << u
        return near
    rows, cols = grid or (1, n)
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < rows and 0 <= cc < cols:
                near[i] |= 1 << (rr * cols + cc)
    return near


def regions(free: int, near: list[int]) -> list[int]:
    """The connected sets of cells of ``free`` (bits) along ``near``, ordered by their first cell.

    >>> regions(0b11011, neighbours(5, None, (1, 5)))
    [3, 24]
    """
    out = []
    while free:
        region = frontier = free & -free
        while frontier:
            grown = 0
            while frontier:
                low = frontier & -frontier
                grown |= near[low.bit_length() - 1]
                frontier ^= low
            frontier = grown & free & ~region
            region |= frontier
        out.append(region)
        free &= ~region
    return out
