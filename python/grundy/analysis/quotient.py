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

import functools
import html
from collections.abc import Iterable
from typing import Any

import numpy as np

from ..exceptions import ArgumentError
from ..play.move import Move
from ..play.nimsum import heap_array
from .pretending import PretendingPeriod, _find_period

__all__ = ["MisereQuotient", "PretendingPeriod"]


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

    def __init__(self, game: Any, core: Any) -> None:
        self.game = game
        self._core = core
        self._present: tuple[list[str], dict[str, int], list[tuple[str, str]], list[str]] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (and ``copy.deepcopy``) as the game and ``max_heap``: the quotient is built again when read."""
        return (MisereQuotient._rebuilt, (self.game, self.max_heap))

    @classmethod
    def _rebuilt(cls, game: Any, max_heap: int) -> MisereQuotient:
        return cls(game, game._core_values().misere_quotient(max_heap, None, None))

    # The core's arrays are copied out only when asked for: a position's misère question wraps the
    # game's kept quotient each time, and needs none of them (the core answers it).
    @functools.cached_property
    def _table(self) -> np.ndarray:
        table: np.ndarray = self._core.table()
        table.flags.writeable = False
        return table

    @functools.cached_property
    def _p(self) -> np.ndarray:
        p: np.ndarray = self._core.p_mask()
        return p

    @functools.cached_property
    def _phi(self) -> np.ndarray:
        phi: np.ndarray = self._core.pretending()
        phi.flags.writeable = False
        return phi

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
        shape = self.game._core_values().proof_shape  # (t, r): most tokens taken, most heaps left
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
