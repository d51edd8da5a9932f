"""Misère quotients: the finite monoids that solve misère play of heap games.

Under misère play (whoever moves last loses) sums of heaps do not add by nim-sum. Two sums are
*indistinguishable* when adding any sum to both gives positions with the same outcome; the classes
form a finite commutative monoid, the **misère quotient** (Plambeck 2005; Plambeck and Siegel 2008),
with its **P-portion** (the classes of P-positions) and its **pretending function** (heap size to
element). Once it is known, the outcome of a sum of any number of heaps is a product in the monoid.

:func:`misere_quotient` computes it exactly in the core, heap size by heap size: each step is learned
from outcomes and then *proven* (see the module notes of ``src/misere_quotient``), so nothing is
sampled. :class:`MisereQuotient` shows it (multiplication table, P-portion, presentation), plays sums
(:meth:`~MisereQuotient.outcome`, :meth:`~MisereQuotient.winning_moves`) and reports when the
pretending function is periodic, saying whether that is proven or only observed.
"""

from __future__ import annotations

import html
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from . import _core
from ._moves import Move
from ._nimsum import heap_array
from ._progress import Bar, _check_progress
from ._validate import as_count, as_heap, as_limit
from .exceptions import ArgumentError, ArgumentTypeError, TooLargeError

if TYPE_CHECKING:
    from .games import Game

__all__ = ["MisereQuotient", "PretendingPeriod", "QuotientBounds", "misere_quotient", "misere_quotient_bounds"]

#: Position builds a quotient itself for heaps up to this size ...
AUTO_MAX_HEAP = 20
#: ... when that takes at most this many seconds (else the exhaustive search decides).
AUTO_BUDGET = 0.5


@dataclass(frozen=True)
class PretendingPeriod:
    """Periodicity of a pretending function over the heaps computed.

    Parameters
    ----------
    preperiod : int
        ``n0``: the pretending function satisfies ``phi(n) = phi(n - period)`` for ``n >= n0 + period``.
    period : int
        The least period seen.
    checked_to : int
        The largest heap size computed.
    proven : bool
        True when the range computed is long enough for the theorem below to apply, so that the
        pattern holds for every heap size; False when it is only observed.
    needed : int or None
        The largest heap the proof needs (``r*(n0 + p) + t - 1`` for a finite code whose moves take
        at most ``t`` tokens and leave at most ``r`` heaps); None when no proof applies (a rule
        written in Python, or an infinite code).

    Notes
    -----
    Proof: for ``n > needed``, every option of heap ``n`` has a part ``>= n0 + p`` whose element
    equals that of the part ``p`` smaller, and conversely, so heaps ``n`` and ``n - p`` have the same
    set of option elements. The core then places heap ``n`` as heap ``n - p`` without any change to
    the quotient (the proof automaton is unchanged), by induction on ``n``.

    Examples
    --------
    >>> import grundy as gr
    >>> p = gr.misere_quotient(gr.TakeAndBreak("0.33"), 8).period
    >>> p.period, p.proven  # 0.33 is subtraction of 1 or 2: period 3
    (3, True)
    """

    preperiod: int
    period: int
    checked_to: int
    proven: bool
    needed: int | None

    def __str__(self) -> str:
        what = "proven" if self.proven else "observed only"
        return f"period {self.period} from heap {self.preperiod} ({what}, computed to heap {self.checked_to})"


def _proof_shape(game: Game) -> tuple[int, int] | None:
    """``(t, r)``: most tokens a move takes and most heaps it leaves, for a finite rule; else None."""
    info = getattr(game, "_info", None)
    if isinstance(info, dict) and not info.get("infinite", True):
        return int(info["last_nonzero"]), int(info["max_heaps"])
    if getattr(game, "kind", None) == "finite" and getattr(game, "members", None):
        return max(game.members), 1  # type: ignore[attr-defined]
    return None


def _find_period(phi: np.ndarray) -> tuple[int, int] | None:
    """The least period ``p`` and then least ``n0 >= 1`` with two full periods seen, or None."""
    n_max = phi.size - 1
    for p in range(1, n_max // 2 + 1):
        same = phi[p:] == phi[:-p]  # same[m - p] is phi[m] == phi[m - p]
        bad = np.flatnonzero(~same)
        n0 = max(1, int(bad[-1]) + 1 if bad.size else 1)  # phi[m] == phi[m-p] for m - p >= n0
        if n_max >= n0 + 2 * p - 1:
            return n0, p
    return None


def _letters(k: int) -> list[str]:
    base = "abcdefghijklmnopqrstuvwxyz"
    return [base[i] if i < 26 else f"{base[i % 26]}{i // 26}" for i in range(k)]


def _monomial(names: list[str], exps: tuple[int, ...]) -> str:
    parts = [n if e == 1 else f"{n}^{e}" for n, e in zip(names, exps, strict=True) if e]
    return "".join(parts) if parts else "1"


class MisereQuotient:
    """The misère quotient of a heap game, for all sums of heaps up to ``max_heap``.

    Built by :func:`misere_quotient`. Element 0 is the identity (the empty sum).

    Parameters
    ----------
    game : Game
        The heap game.
    core : grundy._core.MisereQuotient
        The quotient the core computed.

    Examples
    --------
    >>> import grundy as gr
    >>> q = gr.misere_quotient(gr.kayles(), 12)
    >>> q.order, q.outcome([1, 1]), q.outcome([4, 4, 1])
    (24, 'N', 'P')
    """

    def __init__(self, game: Game, core: Any) -> None:
        self.game = game
        self._core = core
        self._table: np.ndarray = core.table()
        self._table.flags.writeable = False
        self._p: np.ndarray = core.p_mask()
        self._phi: np.ndarray = core.pretending()
        self._phi.flags.writeable = False
        self._present: tuple[list[str], dict[str, int], list[tuple[str, str]], list[str]] | None = None

    # -- structure ---------------------------------------------------------------------------------
    @property
    def order(self) -> int:
        """The number of elements.

        Returns
        -------
        int
            The order of the monoid (always even for an impartial game).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.misere_quotient(gr.TakeAndBreak("0.33"), 2).order
        6
        """
        return int(self._core.order)

    @property
    def max_heap(self) -> int:
        """The largest heap size the quotient covers.

        Returns
        -------
        int
            ``max_heap`` as given to :func:`misere_quotient`.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.misere_quotient(gr.kayles(), 5).max_heap
        5
        """
        return int(self._core.max_heap)

    @property
    def table(self) -> np.ndarray:
        """The multiplication table.

        Returns
        -------
        numpy.ndarray
            A read-only ``(order, order)`` uint32 array: ``table[x, y]`` is the product ``xy``.

        Examples
        --------
        >>> import grundy as gr
        >>> t = gr.misere_quotient(gr.TakeAndBreak("0.3"), 1).table
        >>> t.tolist()
        [[0, 1], [1, 0]]
        """
        return self._table

    @property
    def p_portion(self) -> np.ndarray:
        """The elements whose sums are misère P-positions.

        Returns
        -------
        numpy.ndarray
            The element indices, ascending.

        Examples
        --------
        >>> import grundy as gr
        >>> q = gr.misere_quotient(gr.TakeAndBreak("0.33"), 2)
        >>> [q.elements[x] for x in q.p_portion]
        ['a', 'b^2']
        """
        return np.flatnonzero(self._p)

    @property
    def pretending(self) -> np.ndarray:
        """The pretending function, the element of each heap size ``0..max_heap``.

        Returns
        -------
        numpy.ndarray
            A read-only uint32 array of length ``max_heap + 1``.

        Examples
        --------
        >>> import grundy as gr
        >>> q = gr.misere_quotient(gr.TakeAndBreak("0.33"), 2)
        >>> [q.elements[x] for x in q.pretending]
        ['1', 'a', 'b']
        """
        return self._phi

    @property
    def normal_values(self) -> np.ndarray | None:
        """The normal-play Grundy value each element carries.

        Every sum that maps to an element has the same normal-play value; the core checks this on
        every element and heap (by induction that covers every sum).

        Returns
        -------
        numpy.ndarray or None
            uint32 values per element, or None if some element carried two values.

        Examples
        --------
        >>> import grundy as gr
        >>> q = gr.misere_quotient(gr.TakeAndBreak("0.33"), 2)
        >>> dict(zip(q.elements, q.normal_values.tolist()))
        {'1': 0, 'a': 1, 'b': 2, 'ab': 3, 'b^2': 0, 'ab^2': 1}
        """
        v = self._core.normal_values()
        return None if v is None else np.asarray(v)

    @property
    def growth(self) -> list[tuple[int, int]]:
        """Where the quotient grew while heaps were added.

        Returns
        -------
        list of tuple
            ``(heap, order)`` at each heap size where the order changed.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.misere_quotient(gr.kayles(), 12).growth
        [(1, 2), (2, 6), (5, 12), (9, 18), (12, 24)]
        """
        return [(int(h), int(m)) for h, m in self._core.growth()]

    @property
    def stats(self) -> dict[str, int]:
        """What the construction did.

        Returns
        -------
        dict
            ``queries`` (outcome queries of the learner), ``searched`` (positions the outcome
            search memoised), ``counterexamples``, ``proof_states`` (pairs the proofs visited),
            ``reused`` and ``placed`` (heaps added without learning), ``guessed`` and
            ``guesses_wrong`` (learning steps that succeeded on guessed outcomes, without the
            exact search, and those given up to the exact search), ``refinements`` (guesses the
            proof refuted and that were tried again with some heaps freed).

        Examples
        --------
        >>> import grundy as gr
        >>> sorted(gr.misere_quotient(gr.kayles(), 4).stats)  # doctest: +NORMALIZE_WHITESPACE
        ['counterexamples', 'guessed', 'guesses_wrong', 'placed', 'proof_states', 'queries',
         'refinements', 'reused', 'searched']
        """
        return dict(self._core.stats())

    @property
    def period(self) -> PretendingPeriod | None:
        """Periodicity of the pretending function, proven or observed.

        Returns
        -------
        PretendingPeriod or None
            The least period with at least two full periods in the range computed, or None.

        Examples
        --------
        >>> import grundy as gr
        >>> print(gr.misere_quotient(gr.TakeAndBreak("0.33"), 8).period)
        period 3 from heap 1 (proven, computed to heap 8)
        """
        found = _find_period(np.asarray(self._phi))
        if found is None:
            return None
        n0, p = found
        shape = _proof_shape(self.game)
        needed = None if shape is None else shape[1] * (n0 + p) + shape[0] - 1
        proven = needed is not None and self.max_heap >= needed
        return PretendingPeriod(n0, p, self.max_heap, proven, needed)

    def _presentation(self) -> tuple[list[str], dict[str, int], list[tuple[str, str]], list[str]]:
        """Generators (in heap order), their heaps, relations and element names (normal forms)."""
        if self._present is not None:
            return self._present
        t, m = self._table, self.order
        gens: list[int] = []
        heaps: list[int] = []
        reach = {0}
        for h, x in enumerate(self._phi.tolist()):
            if x in reach:
                continue
            gens.append(x)
            heaps.append(h)
            frontier = set(reach)
            while frontier:  # close the submonoid under the new generator
                new = {int(t[y, x]) for y in frontier} - reach
                reach |= new
                frontier = new
        names = _letters(len(gens))
        # Normal forms: the least monomial (degree, then lexicographic) reaching each element; the
        # relations are the minimal monomials that are not normal forms.
        k = len(gens)
        nf: dict[int, tuple[int, ...]] = {0: (0,) * k}
        is_nf = {(0,) * k}
        relations: list[tuple[str, str]] = []
        value = {(0,) * k: 0}
        layer = [(0,) * k]
        while layer and len(nf) < m:
            grown = {tuple(e + (j == i) for j, e in enumerate(mono)) for mono in layer for i in range(k)}
            cands = sorted(grown, reverse=True)
            layer = []
            for c in cands:
                if any(c[i] and tuple(e - (j == i) for j, e in enumerate(c)) not in is_nf for i in range(k)):
                    continue  # a multiple of a relation's left side
                i = next(i for i in range(k) if c[i])
                below = tuple(e - (j == i) for j, e in enumerate(c))
                x = int(t[value[below], gens[i]])
                if x in nf:
                    relations.append((_monomial(names, c), _monomial(names, nf[x])))
                else:
                    nf[x], value[c] = c, x
                    is_nf.add(c)
                    layer.append(c)
        # Minimal non-normal monomials past the last layer complete the presentation.
        for mono in layer:
            for i in range(k):
                c = tuple(e + (j == i) for j, e in enumerate(mono))
                if all(not c[j] or tuple(e - (i2 == j) for i2, e in enumerate(c)) in is_nf for j in range(k)):
                    x = int(t[value[mono], gens[i]])
                    rel = (_monomial(names, c), _monomial(names, nf[x]))
                    if rel not in relations:
                        relations.append(rel)
        elements = [_monomial(names, nf[x]) for x in range(m)]
        self._present = (names, dict(zip(names, heaps, strict=True)), relations, elements)
        return self._present

    @property
    def elements(self) -> list[str]:
        """Each element's name, its normal form as a word in the generators.

        Returns
        -------
        list of str
            ``elements[x]`` for element ``x`` (``'1'`` for the identity).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.misere_quotient(gr.TakeAndBreak("0.33"), 2).elements
        ['1', 'a', 'b', 'ab', 'b^2', 'ab^2']
        """
        return list(self._presentation()[3])

    @property
    def generators(self) -> dict[str, int]:
        """The generators and the heap size each one is.

        A heap size is a new generator when its element is not a product of earlier ones.

        Returns
        -------
        dict
            Generator name to heap size.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.misere_quotient(gr.TakeAndBreak("0.33"), 2).generators
        {'a': 1, 'b': 2}
        """
        return dict(self._presentation()[1])

    def presentation(self) -> str:
        """Return the presentation by generators and relations, as the literature writes it.

        Returns
        -------
        str
            ``<generators | relations>``; each relation rewrites a minimal word that is not in
            normal form (degree, then lexicographic order) to its normal form.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.misere_quotient(gr.TakeAndBreak("0.33"), 2).presentation()
        '<a, b | a^2 = 1, b^3 = b>'
        """
        names, _, rels, _ = self._presentation()
        return f"<{', '.join(names)} | {', '.join(f'{a} = {b}' for a, b in rels)}>"

    # -- play --------------------------------------------------------------------------------------
    def _heaps(self, heaps: Any) -> np.ndarray:
        """Heap sizes as uint64, those past ``max_heap`` mapped by a proven period (else an error)."""
        arr = np.array(heap_array(heaps), dtype=np.uint64).ravel()
        big = arr > self.max_heap
        if big.any():
            per = self.period
            if per is None or not per.proven:
                raise ArgumentError(
                    f"heap {int(arr[big].max())} is larger than max_heap = {self.max_heap} of this quotient, and its "
                    "pretending function has no proven period to extend it"
                )
            n0, p = per.preperiod, per.period
            arr = arr.copy()
            arr[big] = n0 + (arr[big] - n0) % p
        return arr

    def element(self, heaps: Iterable[int]) -> int:
        """Return the element of a sum of heaps.

        Parameters
        ----------
        heaps : iterable of int
            Heap sizes (at most ``max_heap``, or any size once the period is proven).

        Returns
        -------
        int
            The element index.

        Raises
        ------
        ArgumentError
            (a ValueError) For a negative heap, or one past ``max_heap`` without a proven period.
        ArgumentTypeError
            (a TypeError) For a heap that is not an integer.

        Examples
        --------
        >>> import grundy as gr
        >>> q = gr.misere_quotient(gr.TakeAndBreak("0.33"), 2)
        >>> q.elements[q.element([1, 2, 2])]
        'ab^2'
        """
        return int(self._core.element(np.ascontiguousarray(self._heaps(heaps))))

    def outcome(self, heaps: Iterable[int]) -> str:
        """Return the misère outcome of a sum of heaps, in time linear in their number.

        Parameters
        ----------
        heaps : iterable of int
            Heap sizes.

        Returns
        -------
        str
            ``'P'`` (the previous player wins) or ``'N'`` (the next player wins).

        Raises
        ------
        ArgumentError, ArgumentTypeError
            As :meth:`element`.

        Examples
        --------
        >>> import grundy as gr
        >>> q = gr.misere_quotient(gr.kayles(), 10)
        >>> q.outcome([]), q.outcome([1]), q.outcome([4, 4, 1])
        ('N', 'P', 'P')
        """
        return "P" if self._p[self.element(heaps)] else "N"

    def outcomes(self, rows: Any) -> np.ndarray:
        """Return the misère outcomes of many sums at once, in parallel in the core.

        Parameters
        ----------
        rows : array_like
            A 2-D array of heap sizes, one sum per row (pad with zeros: a heap of 0 is no heap).

        Returns
        -------
        numpy.ndarray
            One bool per row, True for a P-position.

        Raises
        ------
        ArgumentError, ArgumentTypeError
            As :meth:`element`; ArgumentError also for an array that is not 2-D.

        Examples
        --------
        >>> import grundy as gr
        >>> q = gr.misere_quotient(gr.kayles(), 10)
        >>> q.outcomes([[1, 0, 0], [1, 1, 0], [4, 4, 1]]).tolist()
        [True, False, True]
        """
        arr = np.asarray(rows)
        if arr.ndim != 2:
            raise ArgumentError(f"rows must be a 2-D array of heap sizes, not {arr.ndim}-D")
        mapped = self._heaps(arr.ravel()).reshape(arr.shape)
        return np.asarray(self._core.outcomes(np.ascontiguousarray(mapped)))

    def winning_moves(self, heaps: Iterable[int]) -> list[Move]:
        """Return the moves of a sum to misère P-positions, found through the quotient.

        For each heap size present, the product of the rest of the sum is computed once (prefix
        and suffix products), so the cost is linear in the number of heaps plus the options of
        each distinct size.

        Parameters
        ----------
        heaps : iterable of int
            Heap sizes, each at most ``max_heap``.

        Returns
        -------
        list of Move
            One move per winning option of each distinct heap size, made in the first heap of that
            size; empty for a P-position.

        Raises
        ------
        ArgumentError
            (a ValueError) For a heap past ``max_heap`` or a negative one.
        ArgumentTypeError
            (a TypeError) For a heap that is not an integer.

        Examples
        --------
        >>> import grundy as gr
        >>> q = gr.misere_quotient(gr.kayles(), 10)
        >>> [str(m) for m in q.winning_moves([4, 4])]
        ['component 0: 4 -> 1 + 1']
        """
        arr = np.array(heap_array(heaps), dtype=np.uint64).ravel()
        if arr.size and int(arr.max()) > self.max_heap:
            raise ArgumentError(f"heap {int(arr.max())} is larger than max_heap = {self.max_heap} of this quotient")
        sizes, first, counts = np.unique(arr, return_index=True, return_counts=True)
        where = dict(zip(sizes.tolist(), first.tolist(), strict=True))
        moves = self._core.winning_moves(list(zip(sizes.tolist(), counts.tolist(), strict=True)))
        return [Move(int(where[h]), int(h), tuple(int(x) for x in left)) for h, left in moves]

    def winning_move(self, heaps: Iterable[int]) -> Move | None:
        """Return one winning move of a sum, or None for a P-position.

        Parameters
        ----------
        heaps : iterable of int
            Heap sizes, each at most ``max_heap``.

        Returns
        -------
        Move or None
            The first of :meth:`winning_moves`.

        Raises
        ------
        ArgumentError, ArgumentTypeError
            As :meth:`winning_moves`.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.misere_quotient(gr.kayles(), 10).winning_move([4, 4, 1]) is None
        True
        >>> print(gr.misere_quotient(gr.kayles(), 10).winning_move([4, 4]))
        component 0: 4 -> 1 + 1
        """
        moves = self.winning_moves(heaps)
        return moves[0] if moves else None

    # -- display -----------------------------------------------------------------------------------
    def __repr__(self) -> str:
        """Summarise the quotient."""
        p = ", ".join(self.elements[x] for x in self.p_portion[:12])
        more = ", ..." if len(self.p_portion) > 12 else ""
        return (
            f"MisereQuotient({self.game._label()}, max_heap={self.max_heap}: order {self.order}, "
            f"P = {{{p}{more}}})"
        )

    def _repr_html_(self) -> str:
        """The presentation, the P-portion and the multiplication table (for quotients up to order 64)."""
        esc = html.escape
        names = self.elements
        rows = [
            f"<b>Misère quotient</b> of {esc(self.game._label())}, heaps up to {self.max_heap}: order {self.order}",
            f"<br><code>{esc(self.presentation())}</code>",
            f"<br>P-portion: {{{esc(', '.join(names[x] for x in self.p_portion))}}}",
            f"<br>Generators (heap): {esc(', '.join(f'{g} = {h}' for g, h in self.generators.items()))}",
        ]
        per = self.period
        if per is not None:
            rows.append(f"<br>Pretending function: {esc(str(per))}")
        if self.order <= 64:
            head = "".join(f"<th>{esc(n)}</th>" for n in names)
            body = []
            for x in range(self.order):
                cells = "".join(
                    f"<td style='background:{'#fde2e2' if self._p[y] else 'transparent'}'>{esc(names[y])}</td>"
                    for y in self._table[x].tolist()
                )
                body.append(f"<tr><th>{esc(names[x])}</th>{cells}</tr>")
            rows.append(
                "<details><summary>multiplication table (P-portion shaded)</summary>"
                f"<table style='font-size:smaller'><tr><th></th>{head}</tr>{''.join(body)}</table></details>"
            )
        return "<div>" + "".join(rows) + "</div>"


def misere_quotient(
    game: Game, max_heap: int, *, max_order: int | None = None, progress: bool | None = None
) -> MisereQuotient:
    """Compute the misère quotient of all sums of heaps of ``game`` up to ``max_heap``.

    The construction is exact: each heap size is learned from misère outcomes and then proven
    (module notes of ``src/misere_quotient``). Runs in the core without the GIL; Ctrl-C stops it.
    The result is cached on the game, and :class:`~grundy.Position` uses it for misère play.

    However a build stops (Ctrl-C, ``max_order``, memory), the work up to there is kept: the
    exception raised carries the quotient proven for the heaps below the one it stopped at, as its
    ``quotient`` attribute, and that quotient is cached on the game like a finished one.

    Parameters
    ----------
    game : Game
        A heap game: a take-and-break code, a subtraction game, or a rule written in Python.
    max_heap : int
        The largest heap size.
    max_order : int or None, default None
        Stop with :class:`~grundy.SearchLimitError` when a quotient the construction makes has
        more elements than this: a hypothesis of its exact learner (then the true quotient is
        proven larger) or a guess (which may be larger than the truth; the message says which).
        Quotients can explode from one heap size to the next (Dawson's Kayles: 638 elements at
        heap 33, and neither grundy nor MisereSolver finishes heap 34), so this bounds the time
        and memory a call may take. Leave room for the guesses: at heap 33 of Dawson's Kayles
        they reach 1,080 elements (1,500 lets heap 33 through). None: no bound.
    progress : bool or None, default None
        Show a progress bar over heap sizes: True always, False never, None once the call has run
        a second.

    Returns
    -------
    MisereQuotient
        The quotient, its P-portion and pretending function.

    Raises
    ------
    ArgumentTypeError
        (a TypeError) When ``game`` is not a heap game, ``max_heap`` or ``max_order`` not an
        integer, or ``progress`` not True, False or None.
    ArgumentError
        (a ValueError) For a negative ``max_heap``, or a ``max_order`` below 1;
        :class:`~grundy.TooLargeError` for a ``max_heap`` of 2**64 or more.
    SearchLimitError
        When a quotient passes ``max_order`` elements.
    MemoryError
        When the construction outgrows memory; at once when ``max_heap`` is so large that the
        options of every heap up to it would not fit (estimated from those of the largest heap).

    Examples
    --------
    >>> import grundy as gr
    >>> q = gr.misere_quotient(gr.kayles(), 12)
    >>> q.order, q.presentation().count("=") > 0
    (24, True)

    A bound on the order stops a build where the quotient explodes, keeping what came before:

    >>> try:
    ...     gr.misere_quotient(gr.dawsons_kayles(), 30, max_order=100)
    ... except gr.SearchLimitError as e:
    ...     (e.quotient.max_heap, e.quotient.order)
    (24, 24)
    """
    _check_heap_game(game)
    top = as_heap(max_heap, "max_heap")
    # No quotient reaches 2**64 elements: a larger bound is that one.
    bound = None if max_order is None else as_limit(max_order, "max_order")
    if bound == 0:
        raise ArgumentError("max_order must be at least 1 (the quotient of no heaps has 1 element)")
    progress = _check_progress(progress)
    cached = getattr(game, "_misere_quotient", None)
    if isinstance(cached, MisereQuotient) and cached.max_heap == top:
        return cached
    bar = Bar(progress, "misère quotient", " heaps", total=top + 1, scale=False)
    try:
        q = _build(game, top, bar.update, bound)
        bar.close(top + 1)
        return q
    finally:
        bar.close()


def _check_heap_game(game: Any) -> None:
    """ArgumentTypeError unless ``game`` is a heap game (the only games with misère quotients here)."""
    from .games import Game

    if not isinstance(game, Game) or not hasattr(game, "_heap_rule"):
        raise ArgumentTypeError(f"misère quotients are computed for heap games, not {type(game).__name__}")


def _core_rule(game: Game, top: int) -> Any:
    """The rule the core builds from: the game's own, or a table of options for a rule in Python."""
    rule = game._heap_rule()
    if rule is None:
        from ._misere import option_table

        rule = option_table(game, top, max(top, 1))
    return rule


def _build(game: Game, top: int, progress: Any, max_order: int | None = None) -> MisereQuotient:
    """Build the quotient in the core (a table of options for rules written in Python) and cache it.

    A build that stops raises with the quotient of the heaps before, as ``.quotient`` (see
    :func:`misere_quotient`), cached too.
    """
    rule = _core_rule(game, top)
    try:
        core = _core.misere_quotient(rule, top, progress, max_order)
    except BaseException as e:
        if isinstance(e, MemoryError) and getattr(e, "quotient", None) is None and hasattr(e, "add_note"):
            e.add_note(
                f"The options of every heap up to max_heap = {top} of {game._label()} are listed before the "
                "build starts, and held while it runs: choose a smaller max_heap."
            )
        kept = getattr(e, "quotient", None)
        if kept is not None and not isinstance(kept, MisereQuotient):
            q = MisereQuotient(game, kept)
            e.quotient = q  # type: ignore[attr-defined]
            _cache(game, q)
            if hasattr(e, "add_note"):  # Python 3.11+
                e.add_note(
                    f"The quotient of heaps up to {q.max_heap} (order {q.order}) is proven: it is "
                    "this exception's .quotient, and cached on the game."
                )
        raise
    q = MisereQuotient(game, core)
    _cache(game, q)
    return q


def _cache(game: Game, q: MisereQuotient) -> None:
    """Keep ``q`` on the game unless a quotient of larger heaps is there already."""
    cached = getattr(game, "_misere_quotient", None)
    if not isinstance(cached, MisereQuotient) or cached.max_heap < q.max_heap:
        game._misere_quotient = q  # type: ignore[attr-defined]


@dataclass(frozen=True)
class QuotientBounds:
    """Proven lower bounds on the order of a misère quotient that is out of reach.

    Built by :func:`misere_quotient_bounds` from the sums with at most ``copies`` copies of heap
    ``heap``: ``classes[c]`` sums with ``c`` copies are pairwise told apart by such sums, so the
    quotient of all sums of heaps up to ``heap`` has at least that many elements.

    Parameters
    ----------
    heap : int
        The heap at which the quotient is bounded.
    copies : int
        The most copies of ``heap`` in the sums considered.
    below : int
        The order of the quotient of the heaps below ``heap`` (computed exactly on the way).
    classes : tuple of int
        For each count ``c`` in ``0..copies``, the classes of sums with ``c`` copies found apart.
    refutations : int
        Guesses refuted before one was proven on those sums.
    proof_states : int
        States the successful proof visited.

    Examples
    --------
    >>> import grundy as gr
    >>> b = gr.misere_quotient_bounds(gr.dawsons_kayles(), 25, copies=2)
    >>> b.below, b.classes, b.lower_bound
    (24, (72, 64, 8), 72)
    """

    heap: int
    copies: int
    below: int
    classes: tuple[int, ...]
    refutations: int
    proof_states: int

    @property
    def lower_bound(self) -> int:
        """The best bound, the largest count of classes (the quotient has at least as many elements).

        Returns
        -------
        int
            The largest of ``classes``.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.misere_quotient_bounds(gr.kayles(), 27, copies=1).lower_bound
        32
        """
        return max(self.classes)


def misere_quotient_bounds(game: Game, heap: int, copies: int) -> QuotientBounds:
    """Proven lower bounds on the order of the misère quotient of ``game`` at ``heap``.

    For where :func:`misere_quotient` cannot finish (Dawson's Kayles at heap 34). The sums with at
    most ``copies`` copies of ``heap`` are closed under moves, so the construction's proof holds on
    them; their quotient is learned and proven in the core, without the GIL (Ctrl-C stops it), and
    its classes are counted for each number of copies. Sums in different classes there are in
    different classes of the full quotient, so each count is a proven lower bound on its order.
    A finite quotient gives bounds that stop growing with ``copies``; bounds that keep growing are
    evidence (not proof) of an infinite one.

    Parameters
    ----------
    game : Game
        A heap game: a take-and-break code, a subtraction game, or a rule written in Python.
    heap : int
        The heap at which the quotient is bounded (it must have a move).
    copies : int
        The most copies of ``heap`` in the sums considered. The cost grows quickly with it.

    Returns
    -------
    QuotientBounds
        The bounds, per number of copies.

    Raises
    ------
    ArgumentTypeError
        (a TypeError) When ``game`` is not a heap game, or ``heap`` or ``copies`` not an integer.
    ArgumentError
        (a ValueError) For a negative ``heap`` or ``copies``, or a ``heap`` with no move;
        :class:`~grundy.TooLargeError` for a ``heap`` of 2**64 or more or ``copies`` of 2**32
        or more.
    SearchLimitError
        When no guess is proven within the refutations allowed.
    MemoryError
        When the construction outgrows memory.

    Examples
    --------
    >>> import grundy as gr
    >>> b = gr.misere_quotient_bounds(gr.kayles(), 27, copies=2)
    >>> b.below, b.classes            # the full quotient at heap 27 has 32 + 8 elements
    (32, (32, 8, 8))
    """
    _check_heap_game(game)
    top = as_heap(heap, "heap")
    m = as_count(copies, "copies")
    if m > _MAX_COPIES:
        raise TooLargeError(f"copies must be below 2**32, got {m}")
    rule = _core_rule(game, top)
    below, classes, refutations, states = _core.misere_quotient_bounds(rule, top, m)
    return QuotientBounds(top, m, below, tuple(classes), refutations, states)


#: The most copies the core counts classes for (a u32; far more than any bound can reach).
_MAX_COPIES = 2**32 - 1


class _OverBudget(Exception):
    """Raised from the progress callback when an automatic build runs past its time budget."""


def cached_quotient(game: Game, top: int) -> MisereQuotient | None:
    """Return the quotient Position may use for heaps up to ``top``, or None.

    A quotient cached on the game by :func:`misere_quotient` is used when it covers ``top`` (or has a
    proven period). Otherwise one is built when ``top <= AUTO_MAX_HEAP`` and the build finishes within
    ``AUTO_BUDGET`` seconds (wild games can grow large quotients); a build that runs over is abandoned,
    remembered, and the exhaustive search decides instead.
    """
    cached = getattr(game, "_misere_quotient", None)
    if isinstance(cached, MisereQuotient):
        per = cached.period
        if cached.max_heap >= top or (per is not None and per.proven):
            return cached
    gave_up = getattr(game, "_misere_quotient_gave_up", None)
    if top > AUTO_MAX_HEAP or game.is_nim or (gave_up is not None and top >= gave_up):
        return None
    if game._heap_rule() is None:
        return None  # a rule written in Python: tabulating its options is not cheap
    deadline = time.perf_counter() + AUTO_BUDGET
    reached = [0]

    def budget(done: int, total: int) -> None:
        reached[0] = done
        if time.perf_counter() > deadline:
            raise _OverBudget

    try:
        return _build(game, top, budget)
    except _OverBudget:
        # Heap sizes from the one the build was stuck at cannot be reached within the budget.
        game._misere_quotient_gave_up = max(1, reached[0])  # type: ignore[attr-defined]
        return None
