"""The explored states of a loopy StateGame, seen as a game graph (what GeneralizedValues reads)."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from ..graph.game import GameGraph
from ..graph.input import rebuild_graph

__all__ = ["ExploredStates"]


class ExploredStates:
    """The explored states of a loopy :class:`StateGame` seen as a game graph (what GeneralizedValues reads).

    Vertex ``i`` is the ``i``-th canonical state explored; only the first ``num_vertices`` count
    (a snapshot).

    Parameters
    ----------
    game : StateGame
        The loopy game.
    num_vertices : int
        How many explored states the snapshot holds.

    Examples
    --------
    >>> import grundy as gr
    >>> g = gr.StateGame(lambda n: [n - 1] if n else [], loopy=True)
    >>> view = g.generalized_values([2]).graph
    >>> view, view.labels, view.options(2), view.vertex(1)
    (<explored states of StateGame(<lambda>, loopy=True, num_states=3)>, [2, 1, 0], [1], 1)
    """

    def __init__(self, game: Any, num_vertices: int) -> None:
        self.game = game
        self._core = game._core
        self.num_vertices = num_vertices

    @property
    def labels(self) -> list[Hashable]:
        """The explored canonical states, by id."""
        return [self._core.state(i) for i in range(self.num_vertices)]

    def vertex(self, state: Hashable) -> int:
        """The id of an explored state (``key`` applied); KeyError when it is not in the snapshot."""
        i = self._core.lookup(state)
        if i is None or i >= self.num_vertices:
            raise KeyError(
                f"{state!r} is not among the {self.num_vertices} states these values were computed for; explore it "
                "with generalized_values([state]) or value(state)"
            )
        return int(i)

    def options(self, state: Hashable) -> list[Hashable]:
        """The options of an explored state, as canonical states (repeats kept)."""
        return [self._core.state(j) for j in self._core.options(self.vertex(state)).tolist()]

    def __contains__(self, state: Hashable) -> bool:
        i = self._core.lookup(state)
        return i is not None and i < self.num_vertices

    def __repr__(self) -> str:
        return f"<explored states of {self.game!r}>"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (and ``copy.deepcopy``) as a :class:`~grundy.GameGraph` of the snapshot: states and options."""
        opts = [self._core.options(i) for i in range(self.num_vertices)]
        offsets = np.cumsum([0] + [len(o) for o in opts], dtype=np.uint64)
        targets = np.concatenate(opts).astype(np.uint64) if opts else np.zeros(0, np.uint64)
        return (rebuild_graph, (GameGraph, self.num_vertices, offsets, targets, self.labels))
