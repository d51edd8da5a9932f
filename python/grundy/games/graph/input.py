"""Reading a game graph's input: labels numbered, edge lists and id arrays checked and converted."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

import numpy as np

from ...exceptions import ArgumentError, ArgumentTypeError

NATIVE = tuple(np.dtype(t) for t in (np.int64, np.int32, np.uint32, np.uint64))
#: Labels shown by repr().


def int_id(x: Any) -> int | None:
    """``x`` as a vertex id when it is an integer (bool is not), else None."""
    if isinstance(x, (bool, np.bool_)):
        return None
    if isinstance(x, (int, np.integer)):
        return int(x)
    return None


def number_labels(labels: Iterable[Any]) -> dict[Hashable, int]:
    """Labels numbered 0, 1, ... in first-seen order."""
    index: dict[Hashable, int] = {}
    for x in labels:
        try:
            if x not in index:
                index[x] = len(index)
        except TypeError:
            raise ArgumentTypeError(f"vertex labels must be hashable, not {type(x).__name__} ({x!r})") from None
    return index


def as_id_array(a: Any, name: str) -> np.ndarray:
    """A 1-d contiguous integer array in a dtype the core takes, without copying when possible."""
    a = np.asarray(a)
    if a.ndim != 1:
        raise ArgumentError(f"{name} must be a 1-d array of vertex ids, got shape {a.shape}")
    if a.size == 0 and a.dtype.kind == "f":  # np.asarray([]) is float64
        a = a.astype(np.int64)
    if a.dtype.kind not in "iu":
        raise ArgumentTypeError(f"{name} must hold integer vertex ids, not {a.dtype}")
    if a.dtype not in NATIVE:
        a = a.astype(np.int64)  # int8/int16/uint8/uint16: small, exact
    return np.ascontiguousarray(a)


def integer_pairs(edges: Any) -> np.ndarray | None:
    """``edges`` as an (E, 2) integer array when it is one, or converts to one exactly."""
    if isinstance(edges, np.ndarray):
        a = edges
    else:
        if not edges or not all(isinstance(e, (tuple, list)) and len(e) == 2 for e in edges[:1]):
            return None
        try:
            a = np.asarray(edges)
        except (ValueError, TypeError, OverflowError):
            return None
    if a.ndim == 2 and a.shape[1] == 2 and a.dtype.kind in "iu":
        return a
    if isinstance(edges, np.ndarray):
        raise ArgumentTypeError(f"an edge array must have shape (E, 2) and an integer dtype, not {a.shape} {a.dtype}")
    return None


def ids_array(ids: list[Any]) -> np.ndarray:
    """Vertex ids as an int64 array; ArgumentError for an id out of its range."""
    try:
        return np.array(ids, dtype=np.int64)
    except OverflowError:
        big = next(i for i in ids if not -(2**63) <= i < 2**63)
        raise ArgumentError(f"vertex id {big} is too large") from None


def common_dtype(src: np.ndarray, dst: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both arrays in int64 (uint64 ids past 2**63 cannot be vertex ids anyway)."""
    for a in (src, dst):
        if a.dtype == np.uint64 and a.size and int(a.max()) >= 2**63:
            raise ArgumentError(f"vertex id {int(a.max())} is too large")
    return src.astype(np.int64), dst.astype(np.int64)


def networkx_edges(digraph: Any) -> tuple[list[Any], np.ndarray, np.ndarray, dict[Hashable, int] | None]:
    """A networkx DiGraph's nodes, and its edges as two arrays of vertex ids.

    Also ``index``, label to id; None when the nodes are already the ids ``0..V-1``.
    """
    if not (hasattr(digraph, "nodes") and hasattr(digraph, "edges") and hasattr(digraph, "is_directed")):
        raise ArgumentTypeError(f"from_networkx needs a networkx DiGraph, not {type(digraph).__name__}")
    if not digraph.is_directed():
        raise ArgumentError(
            "from_networkx needs a directed graph (nx.DiGraph): in an undirected graph every edge "
            "is a move both ways, a cycle"
        )
    nodes = list(digraph.nodes)
    m = digraph.number_of_edges()
    index = None
    if not (all(int_id(x) is not None for x in nodes) and set(map(int, nodes)) == set(range(len(nodes)))):
        index = number_labels(nodes)
    ids = (lambda x: x) if index is None else index.__getitem__
    src = np.fromiter((ids(u) for u, _ in digraph.edges()), dtype=np.int64, count=m)
    dst = np.fromiter((ids(v) for _, v in digraph.edges()), dtype=np.int64, count=m)
    return nodes, src, dst, index


def rebuild_graph(cls: Any, n: int, offsets: np.ndarray, targets: np.ndarray, labels: list[Hashable] | None) -> Any:
    """A game graph from its vertex count, its options in CSR form and its labels (what pickle keeps of it).

    >>> from grundy.games.graph.game import GameGraph
    >>> rebuild_graph(GameGraph, 2, np.array([0, 1, 1]), np.array([1]), ["a", "b"]).values_by_label()
    {'a': 1, 'b': 0}
    """
    src = np.repeat(np.arange(n, dtype=np.uint64), np.diff(offsets).astype(np.int64))
    g = cls.from_arrays(src, targets.astype(np.uint64), n)
    if labels is not None:
        g._labels, g._index = list(labels), {x: i for i, x in enumerate(labels)}
    return g
