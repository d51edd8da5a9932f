"""Heap games and their Grundy values.

A game wraps a Rust sequence that caches G(0..N) and extends it on demand: asking for more values
never recomputes the ones already known.
"""

from __future__ import annotations

import functools
import os
from html import escape
from typing import Any, cast

import numpy as np

from ... import _core
from ..._validate import as_count, as_heap
from ...analysis.periodicity import DEFAULT_MAX_N, DIRECT_LIMIT, Periodicity, SparseSpace
from ...exceptions import ArgumentTypeError, NoPeriodError
from ...io import checkpoint as _checkpoint
from .components import HeapComponents
from .display import HeapGameDisplay
from .run import CHECKPOINT_EVERY, MAX_VALUES, RUN_FACTORY, Run

Path = str | os.PathLike[str]


class Game(HeapGameDisplay):
    """A heap game: a position is a heap of n tokens, a move leaves a sum of smaller heaps.

    Subclasses build the rule (:class:`TakeAndBreak`, :class:`Subtraction`, :class:`HeapGame`); this
    class holds the cached values G(0), G(1), ... and what is found about them. The underscore methods
    under "protocol" in the source are what the rest of the package asks of a game (positions,
    display, files): a subclass overrides those its rule changes, and nothing outside asks what class
    a game is. Two games are equal when they are of one class and have the same rule.

    Parameters
    ----------
    seq : object
        The game's core (a ``grundy._core.HeapCore``), built by the subclass: its rule, its values, its
        period search and proven period, and its misère quotients. The game's one handle to the core.
    key : object
        What identifies the rule within its class, for ``==`` and ``hash``.

    See Also
    --------
    TakeAndBreak, Subtraction, HeapGame : The rules; :func:`nim`, :func:`kayles` and others build
        the classic games.

    Examples
    --------
    >>> import grundy as gr
    >>> g = gr.kayles()
    >>> isinstance(g, gr.Game), g == gr.TakeAndBreak("0.77"), g.name
    (True, True, 'Kayles')
    """

    #: A name shown beside the rule (``"Kayles"``), or None.
    name: str | None = None

    #: How the game was made, ``(maker, keyword arguments)``: what pickle builds it again from.
    _made: tuple[Any, dict[str, Any]]

    def __init__(self, seq: _core.HeapCore, key: Any) -> None:
        self._core = seq
        self._key = key
        self._periodicity: Periodicity | None = None
        self._sparse: SparseSpace | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle (and ``copy.deepcopy``) by the rule (a rule given as a function, by its name); values stay behind."""
        maker, kwargs = self._made
        return (functools.partial(maker, **kwargs), (), {"name": self.name})

    # -- values ---------------------------------------------------------------------------------
    def values(
        self,
        n: int,
        *,
        progress: bool | None = None,
        checkpoint: Path | None = None,
        checkpoint_every: float = CHECKPOINT_EVERY,
        threads: int | None = None,
        from_period: bool = True,
    ) -> np.ndarray:
        """Return G(0), ..., G(n-1), the Grundy values of heaps of 0 to n-1 tokens.

        Values are cached: asking for more later computes only the missing ones. The GIL is released
        while Rust computes.

        Parameters
        ----------
        n : int
            How many values: those of the heap sizes 0 to n-1.
        progress : bool or None, optional
            True shows a progress bar (tqdm; a widget in Jupyter), False never, None (default) once the
            call has run for about a second.
        checkpoint : str or os.PathLike, optional
            A file path. Values found there are loaded first, and the values computed so far are written
            there every ``checkpoint_every`` seconds, after Ctrl-C and at the end, atomically (the file is
            always complete). After a crash or kill, the same call resumes where the file ends and returns
            the same values. The file is a :func:`grundy.save` file: :func:`grundy.load` reads it.
        checkpoint_every : float, default 30
            Seconds between two checkpoints.
        threads : int, optional
            The most threads used (default: every core, or ``RAYON_NUM_THREADS``); the values are the
            same for any thread count.
        from_period : bool, default True
            For rules a periodicity theorem covers (finite codes and subtraction sets), look for a period
            on the way (the schedule of :meth:`periodicity`: from 1024 values, doubling) and, once it is
            proven, fill the remaining values from it: exact, and fast (Kayles to 10**8 in 0.3 s). Values
            beyond a period proven by :meth:`periodicity` are always filled from it. False computes every
            value up to the first proven period (for benchmarking the engines).

        Returns
        -------
        numpy.ndarray
            G(0..n-1), in the smallest unsigned integer dtype that holds them.

        Raises
        ------
        TypeError
            When ``n`` or ``threads`` is not an integer, ``from_period`` is not a bool, ``checkpoint`` is
            not a path, or a checkpoint is asked for a rule given by a Python callable (which cannot be
            rebuilt from a file).
        ValueError
            When ``n`` is negative, ``threads`` is 0 or ``checkpoint_every`` is not a positive number;
            for :class:`HeapGame`, when the rule gives an option with a part that is negative or not
            smaller than the heap.
        InvalidFileError
            When the checkpoint file is damaged, holds the values of another rule, or disagrees with the
            values already computed (a ValueError).
        FileNotFoundError
            When the checkpoint's folder does not exist.
        MemoryError
            When the values cannot be held in memory.
        KeyboardInterrupt
            On Ctrl-C; the values computed so far are kept (and written to the checkpoint).

        See Also
        --------
        value : One value, through a proven period for huge heaps.
        periodicity : Where the values become periodic.

        Notes
        -----
        Exceptions raised by a rule's Python callable (``Subtraction(allowed=...)``, :class:`HeapGame`)
        propagate unchanged.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.kayles().values(8)
        array([0, 1, 2, 3, 1, 4, 3, 2], dtype=uint8)
        >>> filled = gr.kayles().values(10**6)  # period proven at 1024 values, the rest filled
        >>> bool((filled == gr.kayles().values(10**6, from_period=False)).all())
        True
        """
        n = as_count(n)
        if not isinstance(from_period, bool):
            raise ArgumentTypeError(f"from_period must be True or False, not {type(from_period).__name__}")
        with self._run(progress, checkpoint, checkpoint_every, threads=threads) as run:
            run.ensure(n, from_period)
        return self._core.array(0, n)

    def value(self, h: int) -> int:
        """Return G(h), the Grundy value of a single heap of ``h`` tokens (any h below 2**64).

        Beyond the computed values, G(h) is read off a proven period (searched for on demand within
        ``DEFAULT_MAX_N`` values); heaps below 2**16 are computed directly.

        Parameters
        ----------
        h : int
            The heap size.

        Returns
        -------
        int
            G(h).

        Raises
        ------
        TypeError
            When ``h`` is not an integer.
        ValueError
            When ``h`` is negative or not below 2**64.
        NoPeriodError
            When ``h`` is beyond the values computed, at least 2**16, and no period is proven: the message
            says how to go on (a ValueError).

        See Also
        --------
        values : Many values at once.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.grundys_game().value(8)
        2
        >>> gr.kayles().value(10**18)
        1
        """
        h = as_heap(h, "h")
        if h < len(self._core):
            return self._core.get(h)
        if self._core.proven is None and h >= DIRECT_LIMIT:
            self.periodicity()
        g = self._core.value(h)  # through the proven period (or G(h) = h for Nim)
        if g is not None:
            return g
        if h < DIRECT_LIMIT:
            self._ensure(h + 1)
            return self._core.get(h)
        raise NoPeriodError(
            f"no period of {self._constructor()} is proven within the {len(self._core)} values examined, so G({h}) "
            f"cannot be read off a period: call .periodicity(max_n=...) with a larger bound, or "
            f".values({h} + 1) to compute it directly"
        )

    def periodicity(
        self,
        max_n: int | None = None,
        *,
        progress: bool | None = None,
        checkpoint: Path | None = None,
        checkpoint_every: float = CHECKPOINT_EVERY,
        threads: int | None = None,
    ) -> Periodicity:
        """Find where the values become periodic (or arithmetic-periodic); prove it where a theorem applies.

        Computes values as needed, doubling up to ``max_n`` and stopping as soon as a period is proven.
        For rules no theorem covers, it stops once the same period was observed at two sizes. Never
        raises for lack of a period: the result then has ``period`` None. The result is kept
        (:attr:`known_periodicity`) for display, plots and :func:`grundy.save`; once a period is proven,
        later calls return it at once.

        Parameters
        ----------
        max_n : int, optional
            The most values examined (default ``DEFAULT_MAX_N`` = 2**16).
        progress : bool or None, optional
            As for :meth:`values`.
        checkpoint : str or os.PathLike, optional
            As for :meth:`values`; the checkpoint also records the result.
        checkpoint_every : float, default 30
            As for :meth:`values`.
        threads : int, optional
            As for :meth:`values`.

        Returns
        -------
        Periodicity
            The period found, proven or only observed, or none (``period`` None).

        Raises
        ------
        TypeError
            When ``max_n`` or ``threads`` is not an integer, ``checkpoint`` is not a path, or a
            checkpoint is asked for a rule given by a Python callable.
        ValueError
            When ``max_n`` is negative, ``threads`` is 0 or ``checkpoint_every`` is not a positive
            number.
        InvalidFileError
            When the checkpoint file is damaged or holds the values of another rule (a ValueError).
        FileNotFoundError
            When the checkpoint's folder does not exist.
        MemoryError
            When the values cannot be held in memory.
        KeyboardInterrupt
            On Ctrl-C; the values computed so far are kept (and written to the checkpoint).

        See Also
        --------
        known_periodicity : The last result, without computing.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.TakeAndBreak("0.137").periodicity()
        Periodicity(preperiod=52, period=34, saltus=0, proven=True, checked_to=1024)
        """
        max_n = DEFAULT_MAX_N if max_n is None else as_count(max_n, "max_n")
        with self._run(progress, checkpoint, checkpoint_every, f"{self}: periodicity", threads) as run:
            p = self._periodicity
            if p is None or not p.proven or self._core.proven is None:
                p = self._periodicity = self._search_period(min(max_n, MAX_VALUES), run)
            return p

    def _search_period(self, max_n: int, run: Run) -> Periodicity:
        """The core's period search (its one schedule) up to ``max_n`` values, as a result."""
        d, n = run.drive(lambda progress: self._core.search_period(max_n, progress, run.threads))
        if d is None:
            why = self._core.unproven_reason()
            cert = f"no period found in G(0..{n - 1})" + (f"; {why}" if why else "")
            return Periodicity(None, None, 0, False, cert, n)
        n0, p = d["preperiod"], d["period"]
        base = self._core.array(n0, n0 + p)
        base.flags.writeable = False  # a fresh array, ours: frozen in place, not copied
        return Periodicity(n0, p, d["saltus"], d["proven"], d["certificate"], d["checked_to"], base)

    def _set_periodicity(self, p: Periodicity) -> None:
        """Keep ``p`` (read back from a file); a proven period is proven again by the core from the values."""
        self._periodicity = p
        if p.proven and self._core.proven is None and p.checked_to <= len(self._core):
            self._core.period(p.checked_to)

    @property
    def known_periodicity(self) -> Periodicity | None:
        """The last :meth:`periodicity` result (proven, observed, or no period found), or None.

        None when none was asked for; computes nothing. :func:`grundy.load` restores it.

        Examples
        --------
        >>> import grundy as gr
        >>> g = gr.kayles()
        >>> g.known_periodicity is None
        True
        >>> _ = g.periodicity(); g.known_periodicity.period
        12
        """
        return self._periodicity

    def sparse_space(self, n: int, *, progress: bool | None = None) -> SparseSpace:
        """Find the rare and common values of G(0..n-1) under the mask that makes rare positions fewest.

        The mask is found automatically; the result is kept (:attr:`known_sparse_space`).

        Parameters
        ----------
        n : int
            How many values: those of the heap sizes 0 to n-1.
        progress : bool or None, optional
            As for :meth:`values`.

        Returns
        -------
        SparseSpace
            The mask, the rare positions and the counts.

        Raises
        ------
        TypeError
            When ``n`` is not an integer.
        ValueError
            When ``n`` is negative.
        KeyboardInterrupt
            On Ctrl-C while values are computed.

        Examples
        --------
        >>> import grundy as gr
        >>> s = gr.grundys_game().sparse_space(2**12)
        >>> bin(s.mask), s.rare_positions[:12].tolist()
        ('0b1111110', [0, 1, 2, 3, 4, 6, 7, 9, 10, 12, 15, 20])
        """
        n = as_count(n)
        with self._run(progress) as run:
            run.ensure(n)
        d = self._core.sparse_space(n)
        rare = d["rare_positions"]
        rare_values = tuple(sorted(set(self._core.array(0, n)[rare].tolist()))) if n else ()
        self._sparse = SparseSpace(n, d["mask"], d["parity"], rare, rare_values, n - int(rare.size))
        return self._sparse

    @property
    def computed(self) -> int:
        """How many values are cached, G(0) to G(computed - 1).

        Examples
        --------
        >>> import grundy as gr
        >>> g = gr.kayles()
        >>> g.computed
        0
        >>> _ = g.value(20); g.computed >= 21
        True
        """
        return len(self._core)

    def _ensure(self, n: int) -> None:
        with self._run(None) as run:
            run.ensure(n, from_period=True)

    def _run(
        self,
        progress: bool | None,
        checkpoint: Path | None = None,
        checkpoint_every: float = CHECKPOINT_EVERY,
        desc: str | None = None,
        threads: int | None = None,
    ) -> Run:
        make = RUN_FACTORY.get()  # a survey's timed run, in its worker
        return (Run if make is None else make)(self, progress, checkpoint, checkpoint_every, desc, threads)

    # -- protocol: what positions, display and files ask of a game ------------------------------
    @property
    def is_nim(self) -> bool:
        """Whether the game is Nim itself (every smaller heap is an option, and nothing else).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.nim().is_nim, gr.kayles().is_nim, gr.Subtraction.all_but([]).is_nim
        (True, False, True)
        >>> gr.TakeAndBreak("0.3").is_nim, gr.Subtraction([1, 2]).is_nim
        (False, False)
        """
        return self._core.is_nim

    def _is_option(self, n: int, parts: list[int]) -> bool:
        """Whether the heaps ``parts`` are an option of a heap of ``n``."""
        return self._core.is_option(n, parts)

    def _misere_rule(self, top: int, limit: int) -> Any:
        """The core's view of the rule for misère searches of heaps up to ``top``.

        The game's core, or for a rule written in Python a table of its options made by the core
        (SearchLimitError when that table alone would pass ``limit``).
        """
        return self._core.misere_game(top, limit)

    def _nim_after(self, h: int) -> tuple[int, ...]:
        """What a Nim move to a heap of ``h`` leaves (a heap of 0 is still a heap here)."""
        return (h,)

    def _seed(self, values: np.ndarray) -> None:
        """Start from known values G(0..len-1) (from a file), replacing any computed ones."""
        seq = self._core
        if len(seq):
            seq = cast(Game, _checkpoint.game_from_rule(self._rule()))._core
        seq.seed(values)
        self._core = seq

    def _core_values(self) -> _core.HeapCore:
        """The game's core: its rule, values, period and quotients, for the core's searches over them."""
        return self._core

    def _computed_values(self, k: int | None = None) -> np.ndarray:
        """The first ``k`` (default: all) of the values computed so far; computes nothing."""
        n = len(self._core)
        return self._core.array(0, n if k is None else min(k, n))

    def _cover(self, top: int) -> None:
        """Make the core know G(h) for every h <= top, computed or through its proven period.

        Follows :meth:`value`: values below ``DIRECT_LIMIT`` are computed, larger heaps need a
        proven period; otherwise :meth:`value` raises the NoPeriodError that says what to do.
        """
        if top >= len(self._core) and self._core.value(top) is None:
            if top >= DIRECT_LIMIT:
                self.periodicity()
            if self._core.value(top) is None:
                if top < DIRECT_LIMIT:
                    self._ensure(top + 1)
                else:
                    self.value(top)  # raises: no period proven

    def _heap_values(self, heaps: np.ndarray) -> np.ndarray:
        """G of every heap of a ``uint64`` array, through the proven period where needed."""
        self._cover(int(heaps.max()))
        return self._core.heap_values(heaps)

    def _components(self, items: Any) -> HeapComponents:
        """Heaps of this game as components of a :class:`~grundy.Position`."""
        return HeapComponents.of(self, items)

    def _label(self) -> str:
        """The game's name in a position's repr."""
        return repr(self)

    def _describe_html(self) -> str:
        """The rule, as the notebook display describes it."""
        return escape(self._constructor())

    @property
    def known_sparse_space(self) -> SparseSpace | None:
        """The last :meth:`sparse_space` result, or None; computes nothing.

        Examples
        --------
        >>> import grundy as gr
        >>> g = gr.grundys_game(); g.known_sparse_space is None
        True
        >>> g.sparse_space(100) is g.known_sparse_space
        True
        """
        return self._sparse

    def _constructor(self) -> str:
        """The expression that builds this game, as repr() shows it first."""
        return f"{type(self).__name__}(...)"

    def _rule(self) -> dict[str, Any]:
        """The rule as plain data that rebuilds the game (what files record)."""
        raise ArgumentTypeError(
            f"{self._constructor()} cannot be saved or checkpointed: its rule is a Python callable, which "
            "cannot be rebuilt from a file. Save its values instead: numpy.save(path, game.values(n))"
        )

    # -- identity -------------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and type(other) is type(self) and other._key == self._key

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key))


