"""Explicit finite game graphs: a vertex is a position, an edge ``u -> v`` makes ``v`` an option of ``u``.

The graph lives in Rust (CSR arrays); Grundy values are computed there by topological layers, in
parallel and without the GIL. Vertices carry labels (any hashable); the Rust side numbers them
``0..V-1``.

>>> import grundy as gr
>>> g = gr.GameGraph({"a": ["b", "c"], "b": ["c"], "c": []})
>>> g.values_by_label()
{'a': 2, 'b': 1, 'c': 0}
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from html import escape
from typing import Any

import numpy as np

from ... import _core
from ..._ui.display import HTML_VALUES, _count, card, values_row
from ..._ui.progress import _check_threads
from ..._validate import MAX_U64, as_count
from ...exceptions import ArgumentError, ArgumentTypeError, CycleError, MemoryLimitError, NotFoundError
from . import input as _input
from .components import GraphComponents
from .input import as_id_array, common_dtype, ids_array, int_id, integer_pairs, networkx_edges, number_labels
from .loopy import generalized_values

#: Edge endpoints go to Rust in one of these dtypes; other integer dtypes are converted.
_REPR_LABELS = 5


class GameGraph:
    """An explicit finite game graph: vertices are positions, an edge ``u -> v`` a move from u to v.

    Build it from an edge list ``[(u, v), ...]``, from a dict ``{vertex: [options]}`` (a vertex with
    no options is a terminal position), from numpy arrays (:meth:`from_arrays`) or from a networkx
    DiGraph (:meth:`from_networkx`).

    Vertices may be labelled by any hashable. When every label is an integer, the labels are the
    vertex ids ``0..V-1`` themselves (ids that appear in no edge are isolated vertices). Otherwise
    vertices are numbered in the order they are first seen.

    Parameters
    ----------
    edges : iterable of tuple, dict or numpy.ndarray, optional
        The edges ``(u, v)``; or a dict mapping each vertex to its options; or an integer array of
        shape ``(E, 2)``. Default: no edges.
    num_vertices : int, optional
        V, with integer labels only (default: the largest id + 1).

    Raises
    ------
    TypeError
        When ``edges`` is not of these forms, an edge is not a pair, a label is not hashable, or
        ``num_vertices`` is given with labels that are not integers.
    ValueError
        When a vertex id is negative or not below ``num_vertices``, or ``num_vertices`` is negative.
    MemoryError
        When the graph cannot be held in memory.

    See Also
    --------
    grundy.Position : Sums of vertices, their outcomes and winning moves.

    Examples
    --------
    >>> import grundy as gr
    >>> g = gr.GameGraph([(1, 0), (2, 1), (2, 0), (3, 2)], num_vertices=5)
    >>> g.values()
    array([0, 1, 2, 0, 0], dtype=uint8)
    >>> g.value(2), g.options(2)
    (2, [1, 0])
    """

    def __init__(
        self, edges: Iterable[Any] | Mapping[Any, Iterable[Any]] = (), num_vertices: int | None = None
    ) -> None:
        n = None if num_vertices is None else as_count(num_vertices, "num_vertices")
        if isinstance(edges, Mapping):
            self._init_dict(edges, n)
        else:
            self._init_edges(edges, n)

    # -- construction ---------------------------------------------------------------------------
    def _init_edges(self, edges: Any, n: int | None) -> None:
        if isinstance(edges, (str, bytes)) or not isinstance(edges, Iterable):
            raise ArgumentTypeError(
                f"edges must be a list of pairs (u, v) or a dict {{vertex: [options]}}, not {type(edges).__name__}"
            )
        if not isinstance(edges, np.ndarray):
            edges = list(edges)
        fast = integer_pairs(edges)
        if fast is not None:  # integer ids in a numpy-friendly form: no per-edge Python work
            self._set_arrays(fast[:, 0], fast[:, 1], n)
            return
        src: list[Any] = []
        dst: list[Any] = []
        for i, e in enumerate(edges):
            try:
                u, v = e
            except (TypeError, ValueError):
                raise ArgumentTypeError(f"edge {i} must be a pair (u, v), not {e!r}") from None
            src.append(u)
            dst.append(v)
        self._set_labels(src, dst, [], n, lambda: (x for e in zip(src, dst, strict=True) for x in e))

    def _init_dict(self, d: Mapping[Any, Iterable[Any]], n: int | None) -> None:
        src: list[Any] = []
        dst: list[Any] = []
        seen: list[Any] = []  # key, its options, next key, ...: the first-seen order
        keys = list(d)
        for k in keys:
            opts = d[k]
            if isinstance(opts, (str, bytes)) or not isinstance(opts, Iterable):
                raise ArgumentTypeError(f"the options of vertex {k!r} must be a list of vertices, not {opts!r}")
            seen.append(k)
            for o in opts:
                src.append(k)
                dst.append(o)
                seen.append(o)
        self._set_labels(src, dst, keys, n, lambda: seen)

    def _set_labels(self, src: list[Any], dst: list[Any], keys: list[Any], n: int | None, seen: Any) -> None:
        """Integer ids when every label is an integer, else labels numbered in first-seen order."""
        ids = [int_id(x) for x in (*src, *dst, *keys)]
        if all(i is not None for i in ids):
            m = len(src)
            hi = max((i for i in ids if i is not None), default=-1)
            if n is None:
                n = max(hi + 1, 0)
            for k in keys:  # the dict's keys appear in no edge when they have no options
                if k < 0 or k >= n:
                    raise ArgumentError(f"vertex id {k} is {'negative' if k < 0 else f'not below num_vertices = {n}'}")
            self._set_arrays(ids_array(ids[:m]), ids_array(ids[m : 2 * m]), n)
            return
        if n is not None:
            bad = next(x for x, i in zip((*src, *dst, *keys), ids, strict=True) if i is None)
            raise ArgumentTypeError(
                f"with num_vertices=, vertices must be integer ids 0..{n - 1}, not {type(bad).__name__} ({bad!r}); "
                "leave num_vertices out to use labels (list isolated vertices as dict keys with no options)"
            )
        index = number_labels(seen())
        src_ids = np.fromiter((index[x] for x in src), dtype=np.int64, count=len(src))
        dst_ids = np.fromiter((index[x] for x in dst), dtype=np.int64, count=len(dst))
        self._core = _core.Graph.from_arrays(len(index), src_ids, dst_ids)
        self._labels: list[Hashable] | None = list(index)
        self._index: dict[Hashable, int] | None = index
        self._values: np.ndarray | None = None

    def _set_arrays(self, src: Any, dst: Any, n: int | None) -> None:
        src = as_id_array(src, "src")
        dst = as_id_array(dst, "dst")
        if src.shape != dst.shape:
            raise ArgumentError(
                f"src has {src.size} entries but dst has {dst.size}: give one source and one target per edge"
            )
        if src.dtype != dst.dtype:
            src, dst = common_dtype(src, dst)
        if n is None:
            n = max(int(src.max()) + 1 if src.size else 0, int(dst.max()) + 1 if dst.size else 0)
        if n > MAX_U64:
            raise MemoryLimitError(f"a graph of {n} vertices cannot be stored on any machine")
        self._core = _core.Graph.from_arrays(n, src, dst)
        self._labels = None  # identity: vertex id = label
        self._index = None
        self._values = None

    @classmethod
    def from_arrays(cls, src: Any, dst: Any, num_vertices: int | None = None) -> GameGraph:
        """Build a graph with an edge ``src[i] -> dst[i]`` for each i, from integer numpy arrays.

        No Python work is done per edge: the arrays go to Rust as they are when their dtype is int32,
        int64, uint32 or uint64 and they are contiguous.

        Parameters
        ----------
        src, dst : numpy.ndarray
            1-d integer arrays of vertex ids, of equal length.
        num_vertices : int, optional
            V: the vertices are the ids ``0..V-1`` (default: the largest id + 1).

        Returns
        -------
        GameGraph
            The graph; its labels are the vertex ids.

        Raises
        ------
        TypeError
            When an array does not hold integers.
        ValueError
            When an array is not 1-d, their lengths differ, or an id is negative or not below
            ``num_vertices``.
        MemoryError
            When the graph cannot be held in memory.

        Examples
        --------
        >>> import numpy as np, grundy as gr
        >>> g = gr.GameGraph.from_arrays(np.array([1, 2, 2]), np.array([0, 0, 1]), num_vertices=4)
        >>> g.values().tolist()
        [0, 1, 2, 0]
        """
        g = cls.__new__(cls)
        n = None if num_vertices is None else as_count(num_vertices, "num_vertices")
        g._set_arrays(src, dst, n)
        return g

    @classmethod
    def from_networkx(cls, digraph: Any) -> GameGraph:
        """Build a graph from a networkx DiGraph (or MultiDiGraph): nodes are positions, edges moves.

        Nodes keep their labels; when they are exactly the integers 0..V-1 these are also the ids,
        otherwise nodes are numbered in the graph's node order.

        Parameters
        ----------
        digraph : networkx.DiGraph
            A directed graph.

        Returns
        -------
        GameGraph
            The graph, with the nodes as labels.

        Raises
        ------
        TypeError
            When ``digraph`` is not a networkx graph.
        ValueError
            When the graph is undirected (every edge would be a move both ways: a cycle).

        Examples
        --------
        >>> import networkx as nx, grundy as gr
        >>> g = gr.GameGraph.from_networkx(nx.DiGraph([("a", "b"), ("b", "c"), ("a", "c")]))
        >>> g.values_by_label()
        {'a': 2, 'b': 1, 'c': 0}
        """
        nodes, src, dst, index = networkx_edges(digraph)
        g = cls.__new__(cls)
        if index is None:
            g._set_arrays(src, dst, len(nodes))
            return g
        g._core = _core.Graph.from_arrays(len(index), src, dst)
        g._labels, g._index, g._values = nodes, index, None
        return g

    # -- vertices and labels --------------------------------------------------------------------
    @property
    def num_vertices(self) -> int:
        """Number of vertices V (ids 0..V-1).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.GameGraph([(1, 0)], num_vertices=3).num_vertices
        3
        """
        return self._core.num_vertices

    @property
    def num_edges(self) -> int:
        """Number of edges (a repeated edge counts each time).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.GameGraph([(1, 0), (1, 0)]).num_edges
        2
        """
        return self._core.num_edges

    @property
    def labels(self) -> list[Hashable]:
        """The label of each vertex, as a new list; ``labels[i]`` is the label of vertex id i.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.GameGraph([("b", "a")]).labels
        ['b', 'a']
        """
        if self._labels is None:
            return list(range(self.num_vertices))
        return list(self._labels)

    def vertex(self, label: Hashable) -> int:
        """Return the vertex id of a label.

        Parameters
        ----------
        label : hashable
            A vertex label (an id, for a graph with integer labels).

        Returns
        -------
        int
            The vertex id.

        Raises
        ------
        KeyError
            When no vertex has this label.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.GameGraph([("b", "a")]).vertex("a")
        1
        """
        if self._index is None:
            i = int_id(label)
            if i is None or not 0 <= i < self.num_vertices:
                raise NotFoundError(f"{label!r} is not a vertex of this graph (ids 0..{self.num_vertices - 1})")
            return i
        try:
            return self._index[label]
        except (KeyError, TypeError):
            raise NotFoundError(f"{label!r} is not a vertex of this graph") from None

    def label(self, vertex: int) -> Hashable:
        """Return the label of vertex id ``vertex``.

        Parameters
        ----------
        vertex : int
            A vertex id, below :attr:`num_vertices`.

        Returns
        -------
        hashable
            The label.

        Raises
        ------
        TypeError
            When ``vertex`` is not an integer.
        ValueError
            When ``vertex`` is negative.
        IndexError
            When ``vertex`` is not below :attr:`num_vertices`.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.GameGraph([("b", "a")]).label(0)
        'b'
        """
        i = as_count(vertex, "vertex")
        if i >= self.num_vertices:
            raise NotFoundError(f"vertex id {i} is not below num_vertices = {self.num_vertices}")
        return i if self._labels is None else self._labels[i]

    def __contains__(self, label: Hashable) -> bool:
        try:
            self.vertex(label)
        except KeyError:
            return False
        return True

    def __len__(self) -> int:
        return self.num_vertices

    def options(self, label: Hashable) -> list[Hashable]:
        """List the labels of the options of a vertex (the positions one move leads to).

        Parameters
        ----------
        label : hashable
            The vertex's label.

        Returns
        -------
        list
            The options' labels, in edge order, each once.

        Raises
        ------
        KeyError
            When no vertex has this label.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.GameGraph({"a": ["b", "c", "b"], "b": [], "c": []}).options("a")
        ['b', 'c']
        """
        ids = dict.fromkeys(self._core.options(self.vertex(label)).tolist())
        if self._labels is None:
            return list(ids)
        return [self._labels[i] for i in ids]

    # -- values ---------------------------------------------------------------------------------
    def values(self, threads: int | None = None) -> np.ndarray:
        """Return the Grundy values of all vertices, indexed by vertex id.

        Computed once (in Rust, by topological layers in parallel, without the GIL) and cached; a new
        array is returned each time.

        Parameters
        ----------
        threads : int, optional
            The threads used (default: all cores, or ``RAYON_NUM_THREADS``); more than the usable
            cores are capped to them.

        Returns
        -------
        numpy.ndarray
            G of every vertex, in the smallest unsigned integer dtype that holds them.

        Raises
        ------
        CycleError
            When the graph has a cycle, naming its vertices (a ValueError); :meth:`generalized_values`
            handles such graphs.
        TypeError
            When ``threads`` is not an integer.
        ValueError
            When ``threads`` is 0 or negative.
        KeyboardInterrupt
            On Ctrl-C.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.GameGraph([(2, 1), (1, 0), (2, 0)]).values()
        array([0, 1, 2], dtype=uint8)
        """
        threads = _check_threads(threads)
        if self._values is None:
            try:
                self._values = self._core.values(threads)
            except CycleError as e:
                cycle = [self.label(i) for i in e.cycle]
                loop = f" (a self-loop: {cycle[0]!r} is its own option)" if len(cycle) == 1 else ""
                hint = "; a loopy game has generalized values instead: use generalized_values()"
                raise CycleError(cycle, str(CycleError(cycle)) + loop + hint) from None
        values: np.ndarray = self._values.copy()
        return values

    def _loopy_values(self) -> Any:
        """The generalized values (cached) when the graph has a cycle, else None."""
        if self._values is not None:
            return None
        gv = getattr(self, "_generalized", None)
        if gv is None:
            try:
                self._cached()
                return None
            except CycleError:
                gv = self._generalized = self.generalized_values(progress=False)
        return gv

    def _components(self, labels: Any) -> GraphComponents:
        """Vertices of this graph as components of a :class:`~grundy.Position`."""
        return GraphComponents.of(self, labels)

    def generalized_values(self, threads: int | None = None, progress: bool | None = None) -> Any:
        """Compute the generalized Sprague-Grundy values (Smith): cycles allowed, draws found.

        Each vertex gets a finite value, or ``gr.Infinity(K)``, K the finite values of its options; on an
        acyclic graph these are exactly :meth:`values`. Computed in Rust without the GIL in
        ``O(V + E + (M + 2) * (V_c + E_c))`` time, where ``V_c``, ``E_c`` count the vertices that can reach
        a cycle and the edges into them and M is their largest finite value.

        Parameters
        ----------
        threads : int, optional
            The threads of the parallel parts (default: all cores, or ``RAYON_NUM_THREADS``); more
            than the usable cores are capped to them.
        progress : bool or None, optional
            True shows a progress bar, False never, None (default) after a second.

        Returns
        -------
        GeneralizedValues
            The value and outcome of every vertex.

        Raises
        ------
        TypeError
            When ``threads`` is not an integer or ``progress`` not a bool or None.
        ValueError
            When ``threads`` is 0 or negative.
        MemoryError
            When the computation cannot be held in memory.
        KeyboardInterrupt
            On Ctrl-C.

        Examples
        --------
        >>> import grundy as gr
        >>> gv = gr.GameGraph({"a": ["b"], "b": ["a", "t"], "t": [], "s": ["s"]}).generalized_values()
        >>> gv.value("a"), gv.value("b"), gv.value("s"), gv.outcome("s")
        (0, 1, Infinity(), 'D')
        """
        return generalized_values(self, threads=threads, progress=progress)

    def _cached(self) -> np.ndarray:
        if self._values is None:
            self.values()
        assert self._values is not None
        return self._values

    def value(self, label: Hashable) -> int:
        """Return the Grundy value of one vertex: 0 exactly when it is a P-position (the mover loses).

        Parameters
        ----------
        label : hashable
            The vertex's label.

        Returns
        -------
        int
            Its Grundy value.

        Raises
        ------
        KeyError
            When no vertex has this label.
        CycleError
            When the graph has a cycle (a ValueError).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.GameGraph({"a": ["b"], "b": []}).value("a")
        1
        """
        i = self.vertex(label)
        return int(self._cached()[i])

    def values_by_label(self) -> dict[Hashable, int]:
        """Map every vertex's label to its Grundy value.

        Returns
        -------
        dict
            ``{label: Grundy value}``, in vertex id order.

        Raises
        ------
        CycleError
            When the graph has a cycle (a ValueError).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.GameGraph([("a", "b")]).values_by_label()
        {'a': 1, 'b': 0}
        """
        return dict(zip(self.labels, self._cached().tolist(), strict=True))

    def __reduce__(self) -> tuple[Any, ...]:  # pickle, copy.deepcopy: edges and labels (values are computed again)
        return (_input.rebuild_graph, (type(self), self.num_vertices, *self._core.csr(), self._labels))

    # -- display --------------------------------------------------------------------------------
    def __repr__(self) -> str:
        s = f"GameGraph(num_vertices={self.num_vertices}, num_edges={self.num_edges}"
        if self._labels is not None:
            shown = ", ".join(repr(x) for x in self._labels[:_REPR_LABELS])
            more = ", ..." if len(self._labels) > _REPR_LABELS else ""
            s += f", labels=[{shown}{more}]"
        return s + ")"

    def _repr_html_(self) -> str:
        return graph_html(self)


def graph_html(g: GameGraph) -> str:
    """The notebook display of a :class:`~grundy.GameGraph` (values only if already computed).

    >>> import grundy as gr
    >>> "vertices" in graph_html(gr.GameGraph({"a": ["b"], "b": []}))
    True
    """
    rows = [("vertices", _count(g.num_vertices)), ("edges", _count(g.num_edges))]
    if g._labels is not None:
        k = 8
        shown = ", ".join(escape(repr(x)) for x in g._labels[:k]) + (", &hellip;" if len(g._labels) > k else "")
        rows.append(("labels", shown))
    v = g._values
    if v is None:
        rows.append(("values", "not computed yet: <code>.values()</code>"))
    elif v.size:
        p_count = int(np.count_nonzero(v == 0))
        rows.append(("values", f"largest {int(v.max())}; {_count(p_count)} P-positions (value 0)"))
        k = min(v.size, HTML_VALUES)
        if g._labels is None:
            rows.append(("first vertices", values_row(v[:k], more=v.size > k)))
    return card("GameGraph", rows)


__all__ = ["CycleError", "GameGraph"]
