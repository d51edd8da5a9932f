"""Generalized Sprague-Grundy values of a game graph with cycles (Smith's function).

See :mod:`grundy.play.values` for the theory and the arithmetic of sums.
"""

from __future__ import annotations

import html
from collections.abc import Hashable
from typing import Any, Protocol

import numpy as np

from ... import _core
from ..._ui.progress import Bar, _check_progress, _check_threads
from ...play.values import _OUTCOMES, INFINITE, Infinity, Value, _normal_play, drawing_options, winning_options

_HTML_ROWS = 12


class LabelledGraph(Protocol):
    """What generalized values are of: a :class:`~grundy.GameGraph`, or a StateGame's explored states.

    Anything with vertex labels, a label's vertex id, its options, and the core graph.
    """

    _core: Any

    @property
    def labels(self) -> list[Hashable]:
        """Every vertex's label, by vertex id."""
        ...

    def vertex(self, label: Hashable) -> int:
        """The vertex id of ``label``; NotFoundError when it is none."""
        ...

    def options(self, label: Hashable) -> list[Hashable]:
        """The labels of the options of ``label``."""
        ...

def generalized_values(
    graph: LabelledGraph, threads: int | None = None, progress: bool | None = None
) -> GeneralizedValues:
    """Generalized Sprague-Grundy values of every vertex of ``graph`` (cycles allowed).

    This is :meth:`grundy.GameGraph.generalized_values`; see there.

    Parameters
    ----------
    graph : GameGraph
        The game graph.
    threads : int, optional
        The threads of the parallel parts (default: all cores, or ``RAYON_NUM_THREADS``).
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
    >>> from grundy.games import generalized_values
    >>> generalized_values(gr.GameGraph([(0, 0), (0, 1)])).value(0)
    Infinity({0})
    """
    threads = _check_threads(threads)
    mode = _check_progress(progress)
    bar = Bar(mode, "generalized values", " vertices")
    try:
        values, outcomes = _core.generalized_values(graph._core, threads, None if mode is False else bar.update)
        bar.close(len(values))
    finally:
        bar.close()
    return GeneralizedValues(graph, values, outcomes)


class GeneralizedValues:
    """Generalized Sprague-Grundy values of a game graph: a finite int or ``Infinity(K)`` per vertex.

    Made by :meth:`grundy.GameGraph.generalized_values` and
    :meth:`grundy.StateGame.generalized_values` (there the vertices are the explored states, in the
    order they were found); not meant to be made by hand. :meth:`value` and :meth:`outcome` answer
    per vertex label; :attr:`is_finite`, :attr:`finite` and :meth:`outcomes` give numpy arrays
    indexed by vertex id.

    Parameters
    ----------
    graph : GameGraph
        The game graph the values are of (for a :class:`~grundy.StateGame`, a read-only view of its
        explored states with the same ``labels``, ``vertex`` and ``options``).
    values : numpy.ndarray
        The core's uint32 value of every vertex, by vertex id, with ``2**32 - 1`` for infinite ones.
    outcomes : numpy.ndarray
        The core's outcome code of every vertex, by vertex id: 0 for P, 1 for N, 2 for D.

    Examples
    --------
    >>> import grundy as gr
    >>> gv = gr.GameGraph({"a": ["b"], "b": ["a", "t"], "t": [], "u": ["u", "t"]}).generalized_values()
    >>> gv
    GeneralizedValues(num_vertices=4, finite=3, infinite=1, P=2, N=2, D=0)
    >>> gv.value("b"), gv.value("u"), gv.outcome("u")
    (1, Infinity({0}), 'N')
    >>> gv.is_finite.tolist(), gv.finite.tolist()
    ([True, True, True, False], [0, 1, 0, -1])
    """

    def __init__(self, graph: LabelledGraph, values: np.ndarray, outcomes: np.ndarray) -> None:
        self._graph = graph
        self._raw = values
        self._outcomes = outcomes
        self._finite_mask = values != INFINITE

    @property
    def graph(self) -> LabelledGraph:
        """The game graph these are the values of.

        For the values of a :class:`~grundy.StateGame`, a read-only view of its states explored
        when the values were computed, with the graph's ``labels``, ``vertex`` and ``options``.

        Examples
        --------
        >>> import grundy as gr
        >>> g = gr.GameGraph({"s": ["s"], "t": []})
        >>> gv = g.generalized_values()
        >>> gv.graph is g, gv.graph.labels
        (True, ['s', 't'])
        """
        return self._graph

    def __len__(self) -> int:
        return len(self._raw)

    def value(self, label: Hashable) -> Value:
        """The generalized value of a vertex.

        Parameters
        ----------
        label : hashable
            The vertex's label.

        Returns
        -------
        int or Infinity
            Its finite value, or ``Infinity(K)`` with K the finite values of its options.

        Raises
        ------
        KeyError
            When no vertex has this label.

        Examples
        --------
        >>> import grundy as gr
        >>> gv = gr.GameGraph({"s": ["s"], "x": ["s", "t"], "t": []}).generalized_values()
        >>> gv.value("s"), gv.value("x"), gv.value("t")
        (Infinity(), Infinity({0}), 0)
        """
        i = self._graph.vertex(label)
        v = self._raw[i]
        if v != INFINITE:
            return int(v)
        ov = self._raw[self._graph._core.options(i)]
        return Infinity(np.unique(ov[ov != INFINITE]).tolist())

    def __getitem__(self, label: Hashable) -> Value:
        return self.value(label)

    def outcome(self, label: Hashable, *, misere: bool = False) -> str:
        """The outcome of a vertex in normal play: 'P', 'N' or 'D'.

        Parameters
        ----------
        label : hashable
            The vertex's label.
        misere : bool, default False
            Must be False: misère play of loopy games is not supported.

        Returns
        -------
        str
            'P' (the player to move loses), 'N' (the player to move wins) or 'D' (a draw).

        Raises
        ------
        KeyError
            When no vertex has this label.
        ValueError
            When ``misere`` is true.

        Examples
        --------
        >>> import grundy as gr
        >>> gv = gr.GameGraph({"s": ["s"], "x": ["s", "t"], "t": []}).generalized_values()
        >>> gv.outcome("s"), gv.outcome("x"), gv.outcome("t")
        ('D', 'N', 'P')
        """
        _normal_play(misere)
        return _OUTCOMES[int(self._outcomes[self._graph.vertex(label)])]

    def outcomes(self) -> np.ndarray:
        """The outcome of every vertex, by vertex id, as an array of 'P', 'N', 'D'.

        Returns
        -------
        numpy.ndarray
            A new array of one-letter strings (dtype ``<U1``), one per vertex.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.GameGraph([(0, 0), (1, 2), (2, 1), (2, 3)]).generalized_values().outcomes().tolist()
        ['D', 'P', 'N', 'P']
        """
        letters: np.ndarray = np.array(_OUTCOMES)[self._outcomes]
        return letters

    @property
    def is_finite(self) -> np.ndarray:
        """Whether each vertex's value is finite, as a bool array by vertex id (a copy).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.GameGraph([(0, 0), (1, 2)]).generalized_values().is_finite.tolist()
        [False, True, True]
        """
        mask: np.ndarray = self._finite_mask.copy()
        return mask

    @property
    def finite(self) -> np.ndarray:
        """The finite values by vertex id, with -1 where the value is infinite.

        The dtype is the smallest signed integer dtype that holds them.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.GameGraph([(0, 0), (1, 2)]).generalized_values().finite
        array([-1,  1,  0], dtype=int8)
        """
        top = int(self._raw[self._finite_mask].max()) if self._finite_mask.any() else 0
        dtype = next(t for t in (np.int8, np.int16, np.int32, np.int64) if top <= np.iinfo(t).max)
        out = self._raw.astype(dtype)
        out[~self._finite_mask] = -1
        return out

    def values_by_label(self) -> dict[Hashable, Value]:
        """The generalized value of every vertex, by label.

        Returns
        -------
        dict
            ``{label: value}`` (an int or an :class:`Infinity`) for every vertex, in vertex id order.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.GameGraph([("a", "a"), ("a", "b")]).generalized_values().values_by_label()
        {'a': Infinity({0}), 'b': 0}
        """
        return {x: self.value(x) for x in self._graph.labels}

    def winning_options(self, label: Hashable) -> list[Hashable]:
        """The options of a vertex that are P-positions: its winning moves.

        Parameters
        ----------
        label : hashable
            The vertex's label.

        Returns
        -------
        list
            The labels of those options, in the order of :meth:`grundy.GameGraph.options`; [] unless
            the vertex is an N-position.

        Raises
        ------
        KeyError
            When no vertex has this label.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.GameGraph({"u": ["u", "t"], "t": []}).generalized_values().winning_options("u")
        ['t']
        """
        return self._options_by(label, winning_options)

    def drawing_options(self, label: Hashable) -> list[Hashable]:
        """For a vertex that is a draw, the options that keep the draw.

        The player to move at a draw cannot win; moving to another draw keeps the game from being
        lost (a move to an N-position loses).

        Parameters
        ----------
        label : hashable
            The vertex's label.

        Returns
        -------
        list
            The labels of the options that are draws, in the order of
            :meth:`grundy.GameGraph.options`; [] unless the vertex is a draw.

        Raises
        ------
        KeyError
            When no vertex has this label.

        Examples
        --------
        >>> import grundy as gr
        >>> gv = gr.GameGraph({"s": ["s", "x"], "x": ["s", "t"], "t": []}).generalized_values()
        >>> gv.outcome("s"), gv.drawing_options("s")
        ('D', ['s'])
        """
        return self._options_by(label, drawing_options)

    def _options_by(self, label: Hashable, rule: Any) -> list[Hashable]:
        opts = self._graph.options(label)
        picked = rule([self.value(label)], 0, [self.value(o) for o in opts])
        return [opts[j] for j in picked]

    def counts(self) -> dict[str, int]:
        """How many vertices are finite, infinite, P, N and D.

        Returns
        -------
        dict
            ``{"finite": ..., "infinite": ..., "P": ..., "N": ..., "D": ...}``, counts of vertices.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.GameGraph([(0, 0), (0, 1)]).generalized_values().counts()
        {'finite': 1, 'infinite': 1, 'P': 1, 'N': 1, 'D': 0}
        """
        finite = int(np.count_nonzero(self._finite_mask))
        by = np.bincount(self._outcomes, minlength=3)
        return {"finite": finite, "infinite": len(self) - finite, "P": int(by[0]), "N": int(by[1]), "D": int(by[2])}

    def __repr__(self) -> str:
        c = self.counts()
        return f"GeneralizedValues(num_vertices={len(self)}, " + ", ".join(f"{k}={v}" for k, v in c.items()) + ")"

    def _repr_html_(self) -> str:
        c = self.counts()
        head = "".join(f"<th>{k}</th>" for k in c)
        row = "".join(f"<td>{v}</td>" for v in c.values())
        rows = []
        labels = self._graph.labels
        for i, x in enumerate(labels[:_HTML_ROWS]):
            rows.append(
                f"<tr><td>{html.escape(repr(x))}</td><td>{html.escape(str(self.value(x)))}</td>"
                f"<td>{_OUTCOMES[int(self._outcomes[i])]}</td></tr>"
            )
        more = f"<p>... and {len(labels) - _HTML_ROWS} more vertices</p>" if len(labels) > _HTML_ROWS else ""
        return (
            f"<div><b>GeneralizedValues</b> of {len(self)} vertices"
            f"<table><tr>{head}</tr><tr>{row}</tr></table>"
            f"<table><tr><th>vertex</th><th>value</th><th>outcome</th></tr>{''.join(rows)}</table>{more}</div>"
        )


__all__ = ["GeneralizedValues", "generalized_values"]
