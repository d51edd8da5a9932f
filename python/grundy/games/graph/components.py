"""Vertices of one game graph as components of a :class:`~grundy.Position` (the play protocol)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import Any, Protocol

import numpy as np

from ... import _core
from ...exceptions import ArgumentError, ArgumentTypeError
from ...play.components import PY_WEIGHT, Components, Work
from ...play.move import Move

__all__ = ["GraphComponents", "VertexGraph"]


class VertexGraph(Protocol):
    """What graph components ask of their game (all of it is on :class:`~grundy.GameGraph`)."""

    _core: Any

    @property
    def num_vertices(self) -> int:
        """How many vertices the graph has."""
        ...

    def vertex(self, label: Hashable) -> int:
        """The vertex id of ``label``."""
        ...

    def label(self, vertex: int) -> Hashable:
        """The label of vertex ``vertex``."""
        ...

    def options(self, label: Hashable) -> list[Hashable]:
        """The labels of the options of ``label``."""
        ...

    def __contains__(self, label: Hashable) -> bool:
        """Whether ``label`` is a vertex."""
        ...

    def _cached(self) -> np.ndarray: ...

    def _loopy_values(self) -> Any: ...


class GraphComponents:
    """Vertices of one game graph: their labels and vertex ids (see :class:`~grundy.play.components.Components`).

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
    >>> g._components(["a", "b"]).values().tolist()
    [1, 0]
    """

    __slots__ = ("game", "labels", "ids")

    def __init__(self, game: VertexGraph, labels: list[Hashable], ids: np.ndarray) -> None:
        self.game = game
        self.labels = labels
        self.ids = ids

    @classmethod
    def of(cls, graph: VertexGraph, labels: Any) -> GraphComponents:
        """Validate vertex labels into a run."""
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

    def same_game(self, other: Components) -> bool:
        """Whether ``other`` holds vertices of this very graph."""
        return isinstance(other, GraphComponents) and other.game is self.game

    def generalized(self) -> list[Any] | None:
        """Return the vertices' generalized values when the graph has a cycle, else None."""
        gv = self.game._loopy_values()
        return None if gv is None else [gv.value(label) for label in self.labels]

    def merge(self, other: Components) -> GraphComponents:
        """Return this run's vertices followed by ``other``'s."""
        assert isinstance(other, GraphComponents)
        return GraphComponents(self.game, self.labels + other.labels, np.concatenate([self.ids, other.ids]))

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

    def play(self, i: int, move: Move) -> GraphComponents:
        """Return the run with vertex ``i`` replaced by the option ``move.after[0]``."""
        before = self.item(i)
        if move.before != before:
            raise ArgumentError(f"{move!r} does not belong to this position: component {move.component} is {before!r}")
        after = move.after
        if len(after) != 1 or after[0] not in self.game or after[0] not in self.game.options(before):
            raise ArgumentError(f"{move!r} does not belong to this position: {after!r} is not an option of {before!r}")
        ids = self.ids.copy()
        ids[i] = self.game.vertex(after[0])
        return GraphComponents(self.game, self.labels[:i] + [after[0]] + self.labels[i + 1 :], ids)

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

    def misere_hint(self) -> str | None:
        """Return None: no faster way to misère play than the search."""
        return None

    def label(self) -> str:
        """Return the graph's repr."""
        return repr(self.game)
