"""Heap games and their Grundy values.

A game wraps a Rust sequence that caches G(0..N) and extends it on demand: asking for more values
never recomputes the ones already known.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from html import escape
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from . import _checkpoint, _core, _display, _plot
from ._moves import HeapBlock
from ._progress import CHECKPOINT_EVERY, Run
from ._validate import as_count, as_heap, as_name
from .exceptions import ArgumentError, ArgumentTypeError, MemoryLimitError, NoPeriodError
from .periodicity import DEFAULT_MAX_N, DIRECT_LIMIT, Periodicity, SparseSpace

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from ._core import _Engine, _SubtractionKind

Path = str | os.PathLike[str]

#: Above this many values a request is refused outright (no machine holds 2**62 values).
_MAX_VALUES = 2**62


class Game:
    """A heap game: a position is a heap of n tokens, a move leaves a sum of smaller heaps.

    Subclasses build the rule (:class:`TakeAndBreak`, :class:`Subtraction`, :class:`HeapGame`); this
    class holds the cached values G(0), G(1), ... and what is found about them. The underscore methods
    under "protocol" in the source are what the rest of the package asks of a game (positions,
    display, files): a subclass overrides those its rule changes, and nothing outside asks what class
    a game is. Two games are equal when they are of one class and have the same rule.

    Parameters
    ----------
    seq : object
        The core's cache of the rule's values (a ``grundy._core.Sequence``), built by the subclass.
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

    def __init__(self, seq: _core.Sequence, key: Any) -> None:
        self._seq = seq
        self._key = key
        self._core_rule: Any = None
        self._proven: Periodicity | None = None
        self._periodicity: Periodicity | None = None
        self._sparse: SparseSpace | None = None

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
            on the way (at 2**16 values, then at every fourfold size) and, once it is proven, fill the
            remaining values from it: exact, and fast (Kayles to 10**8 in 0.3 s). Values beyond a period
            proven by :meth:`periodicity` are always filled from it. False computes every value up to the
            first proven period (for benchmarking the engines).

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
        >>> filled = gr.kayles().values(10**6)  # period proven at 2**16 values, the rest filled
        >>> bool((filled == gr.kayles().values(10**6, from_period=False)).all())
        True
        """
        n = as_count(n)
        if not isinstance(from_period, bool):
            raise ArgumentTypeError(f"from_period must be True or False, not {type(from_period).__name__}")
        with self._run(progress, checkpoint, checkpoint_every, threads=threads) as run:
            run.ensure(n, from_period)
        return self._seq.array(0, n)

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
        if h < len(self._seq):
            return self._seq.get(h)
        if self._proven is None and h >= DIRECT_LIMIT:
            self.periodicity()
        if self._proven is not None and h >= (self._proven.preperiod or 0):
            return self._proven.value(h)
        if h < DIRECT_LIMIT:
            self._ensure(h + 1)
            return self._seq.get(h)
        raise NoPeriodError(
            f"no period of {self._constructor()} is proven within the {len(self._seq)} values examined, so G({h}) "
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
            if self._proven is None:
                self._set_periodicity(self._search_period(max_n, run))
            return self._periodicity  # type: ignore[return-value]

    def _search_period(self, max_n: int, run: Run) -> Periodicity:
        n = min(max(1024, len(self._seq)), max_n)
        unprovable = self._seq.unproven_reason() is not None
        last = None
        while True:
            run.ensure(n)
            d, aim = self._seq.period(n)
            key = d and (d["preperiod"], d["period"], d["saltus"])
            if d is not None and (d["proven"] or (unprovable and key == last)) or n >= max_n:
                break
            last = key
            # Straight to the size that proves an observed period; to the size that would prove
            # a period still showing if that is nearer than doubling (0.354: 2.01e7, not 2^25).
            need = d and d["needed"]
            if need and need > n:
                n = min(max_n, need)
            else:
                n = min(max_n, aim if aim and n < aim <= 2 * n else 2 * n)
        if d is None:
            why = self._seq.unproven_reason()
            cert = f"no period found in G(0..{n - 1})" + (f"; {why}" if why else "")
            return Periodicity(None, None, 0, False, cert, n)
        n0, p = d["preperiod"], d["period"]
        base = self._seq.array(n0, n0 + p)
        base.flags.writeable = False  # a fresh array, ours: frozen in place, not copied
        return Periodicity(n0, p, d["saltus"], d["proven"], d["certificate"], d["checked_to"], base)

    def _set_periodicity(self, p: Periodicity) -> None:
        self._periodicity = p
        if p.proven:
            self._proven = p

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
        d = self._seq.sparse_space(n)
        rare = d["rare_positions"]
        rare_values = tuple(sorted(set(self._seq.array(0, n)[rare].tolist()))) if n else ()
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
        return len(self._seq)

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
    ) -> _Run:
        return _Run(self, progress, checkpoint, checkpoint_every, desc, threads)

    # -- protocol: what positions, display and files ask of a game ------------------------------
    @property
    def is_nim(self) -> bool:
        """Whether the game is Nim itself (every smaller heap is an option, and nothing else).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.nim().is_nim, gr.kayles().is_nim, gr.Subtraction.all_but([]).is_nim
        (True, False, True)
        """
        return False

    def _heap_rule(self) -> _core.HeapRule | None:
        """The core's view of the rule for move search (built once), or None for Python rules."""
        return None

    def _py_options(self, n: int) -> list[tuple[int, ...]]:
        """The options of heap ``n`` of a rule written in Python, each a sorted tuple, once each."""
        raise ArgumentTypeError(f"{self._constructor()} lists its options in the core")  # pragma: no cover

    def _is_option(self, n: int, parts: list[int]) -> bool:
        """Whether the heaps ``parts`` are an option of a heap of ``n``."""
        rule = self._heap_rule()
        if rule is not None:
            return bool(rule.is_option(n, parts))
        return tuple(sorted(parts)) in self._py_options(n)

    def _nim_after(self, h: int) -> tuple[int, ...]:
        """What a Nim move to a heap of ``h`` leaves (a heap of 0 is still a heap here)."""
        return (h,)

    def _seed(self, values: np.ndarray) -> None:
        """Start from known values G(0..len-1) (from a file), replacing any computed ones."""
        seq = self._seq
        if len(seq):
            seq = _checkpoint.game_from_rule(self._rule())._seq
        seq.seed(values)
        self._seq = seq

    def _core_values(self) -> _core.Sequence:
        """The core's cached values, for the core's searches over them."""
        return self._seq

    def _computed_values(self, k: int | None = None) -> np.ndarray:
        """The first ``k`` (default: all) of the values computed so far; computes nothing."""
        n = len(self._seq)
        return self._seq.array(0, n if k is None else min(k, n))

    def _tail(self, top: int) -> tuple[int, int, int] | None:
        """Make G(h) known for every h <= top; return the proven period beyond the computed values.

        Follows :meth:`value`: values below ``DIRECT_LIMIT`` are computed, larger heaps need a
        proven period; otherwise :meth:`value` raises the NoPeriodError that says what to do.
        None when the table suffices.
        """
        if top >= len(self._seq):
            if self._proven is None and top >= DIRECT_LIMIT:
                self.periodicity()
            if self._proven is None:
                if top < DIRECT_LIMIT:
                    self._ensure(top + 1)
                else:
                    self.value(top)  # raises: no period proven
        p = self._proven
        if p is None or p.period is None:
            return None
        return (p.preperiod or 0, p.period, p.saltus)

    def _heap_values(self, heaps: np.ndarray) -> np.ndarray:
        """G of every heap of a ``uint64`` array, through the proven period where needed."""
        tail = self._tail(int(heaps.max()))
        return _core.heap_values(self._seq, tail, heaps)

    def _component_block(self, items: Any) -> HeapBlock:
        """Heaps of this game as components of a :class:`~grundy.Position`."""
        return HeapBlock.of(self, items)

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

    # -- display and plots ------------------------------------------------------------------------
    def table(self, n: int, width: int | None = None) -> _display.ValueTable:
        """Lay out G(0..n-1) in rows of ``width`` values, the periodic part shaded in notebooks.

        Parameters
        ----------
        n : int
            How many values.
        width : int, optional
            Values per row: by default the known period (when at most 40), else 10.

        Returns
        -------
        ValueTable
            Prints as a text table; a notebook shows it as an HTML table.

        Raises
        ------
        TypeError
            When ``n`` or ``width`` is not an integer.
        ValueError
            When ``n`` or ``width`` is negative.

        Examples
        --------
        >>> import grundy as gr
        >>> print(gr.Subtraction([1, 2]).table(7, width=3))
               +0 +1 +2
             0  0  1  2
             3  0  1  2
             6  0
        """
        values = self.values(n)
        p = self._periodicity
        if width is None:
            width = p.period if p is not None and p.period and p.period <= 40 else 10
        width = as_count(width, "width")
        return _display.ValueTable(values, width, preperiod=p.preperiod if p else None, title=self._title())

    def plot(self, n: int | None = None, *, ax: Axes | None = None, rare: bool = True, **style: Any) -> Axes:
        """Draw G(n) against n for the first ``n`` heap sizes; return the Axes.

        Uses matplotlib (``pip install grundy[plot]``). Marks the preperiod and one period when a period
        is known (:attr:`known_periodicity`; no search is started), and circles the rare values of the
        sparse space.

        Parameters
        ----------
        n : int, optional
            How many values (default: those computed).
        ax : matplotlib.axes.Axes, optional
            Draw into this Axes (default: a new figure).
        rare : bool, default True
            Circle the rare values (False to skip the sparse-space analysis).
        **style
            Passed to ``ax.plot`` for the values (``color``, ``markersize``, ...).

        Returns
        -------
        matplotlib.axes.Axes
            The Axes drawn into.

        Raises
        ------
        ImportError
            When matplotlib is not installed.
        ValueError
            When ``n`` is 0 or negative, or is not given and nothing is computed yet.
        TypeError
            When ``n`` is not an integer.

        See Also
        --------
        plot_sparse : The sparse space drawn.

        Examples
        --------
        >>> import matplotlib; matplotlib.use("Agg")
        >>> import grundy as gr
        >>> ax = gr.kayles().plot(100)
        >>> ax.get_lines()[0].get_ydata()[:6].tolist()
        [0, 1, 2, 3, 1, 4]
        """
        return _plot.plot_values(self, n, ax=ax, rare=rare, **style)

    def plot_sparse(self, n: int | None = None, *, ax: Any = None, kind: str = "both") -> Any:
        """Draw the sparse space of G(0..n-1) (``pip install grundy[plot]``).

        Parameters
        ----------
        n : int, optional
            How many values (default: those computed).
        ax : matplotlib.axes.Axes or tuple of Axes, optional
            Draw into this Axes (a pair with ``kind="both"``; default: a new figure).
        kind : {"both", "positions", "histogram"}
            ``"positions"``: the values against the heap size, rare ones highlighted; ``"histogram"``:
            how often each value occurs, rare and common stacked; ``"both"`` (default): the two side by
            side.

        Returns
        -------
        matplotlib.axes.Axes or tuple of Axes
            The Axes drawn into: a pair ``(positions, histogram)`` with ``kind="both"``.

        Raises
        ------
        ImportError
            When matplotlib is not installed.
        ValueError
            When ``kind`` is unknown, ``n`` is 0 or negative or is not given and nothing is computed, or
            ``ax`` is not a pair with ``kind="both"``.
        TypeError
            When ``n`` is not an integer, or ``ax`` is not a pair of Axes with ``kind="both"``.

        Examples
        --------
        >>> import matplotlib; matplotlib.use("Agg")
        >>> import grundy as gr
        >>> left, right = gr.grundys_game().plot_sparse(1000)
        >>> left.get_xlabel(), right.get_xlabel()
        ('heap size n', 'value G')
        """
        return _plot.plot_sparse(self, n, ax=ax, kind=kind)

    def _title(self) -> str:
        return f"{self.name} ({self})" if self.name else str(self)

    def _constructor(self) -> str:
        """The expression that builds this game, as repr() shows it first."""
        return f"{type(self).__name__}(...)"

    def _rule(self) -> dict[str, Any]:
        """The rule as plain data that rebuilds the game (what files record)."""
        raise ArgumentTypeError(
            f"{self._constructor()} cannot be saved or checkpointed: its rule is a Python callable, which "
            "cannot be rebuilt from a file. Save its values instead: numpy.save(path, game.values(n))"
        )

    def __repr__(self) -> str:
        return self._constructor() + _display.game_comment(self)

    def _repr_html_(self) -> str:
        return _display.game_html(self)

    # -- identity -------------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and type(other) is type(self) and other._key == self._key

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key))


class TakeAndBreak(Game):
    """An octal or hexadecimal take-and-break game given by its code ``d0.d1d2...``.

    Digit ``d_j`` says what may happen when ``j`` tokens are removed: a sum of ``2**k`` over the
    numbers ``k`` of non-empty heaps that may remain (``k = 0``: the whole heap was taken). Also
    understood: ``!`` after a digit (the heaps left must be pairwise unequal), a bracketed final group
    repeated forever (``0.[3]`` is Nim) and explicit heap counts (``0.{1,2}``).

    Parameters
    ----------
    code : str
        The code, such as ``"0.77"`` or ``".77"`` (Kayles), ``"4!.0"`` or ``"0.[3]"``.
    name : str, optional
        A name shown beside the code (``"Kayles"``).
    engine : {"auto", "exact", "sparse"}
        ``"auto"`` (default) uses the sparse-space engine, block-parallel, for finite codes whose
        moves leave at most two heaps, and the exact engine (mex over every option) otherwise;
        ``"exact"`` or ``"sparse"`` force one. Both give the same values.

    Attributes
    ----------
    code : str
        The code in canonical form (``"0.77"``).
    engine : str
        The engine asked for.

    Raises
    ------
    TypeError
        When ``code`` is not a str.
    CodeError
        When the code cannot be parsed (a ValueError; it names the offending character).
    ValueError
        When ``engine`` is unknown, or is ``"sparse"`` for a code it does not apply to.

    Examples
    --------
    >>> import grundy as gr
    >>> g = gr.TakeAndBreak(".77")
    >>> str(g), g.values(6).tolist()
    ('0.77', [0, 1, 2, 3, 1, 4])
    """

    def __init__(self, code: str, *, name: str | None = None, engine: _Engine = "auto") -> None:
        if not isinstance(code, str):
            raise ArgumentTypeError(f"a take-and-break code must be a str like '0.77', not {type(code).__name__}")
        info = _core.parse_code(code)
        self.code: str = info["canonical"]
        self.name = as_name(name)
        self._info = info
        if engine not in ("auto", "exact", "sparse"):
            raise ArgumentError(f"engine must be 'auto', 'exact' or 'sparse', not {engine!r}")
        self.engine = engine
        super().__init__(_core.Sequence.take_and_break(self.code, engine), self.code)

    @property
    def is_octal(self) -> bool:
        """True when no move leaves more than two heaps.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.TakeAndBreak("0.77").is_octal, gr.TakeAndBreak("0.8").is_octal
        (True, False)
        """
        return bool(self._info["octal"])

    @property
    def max_heaps(self) -> int:
        """The most heaps a single move may leave (0 to 3).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.TakeAndBreak("0.77").max_heaps, gr.TakeAndBreak("0.4").max_heaps
        (2, 2)
        """
        return int(self._info["max_heaps"])

    @property
    def is_finite(self) -> bool:
        """False for codes with a repeated group (arbitrarily many tokens may be removed).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.kayles().is_finite, gr.nim().is_finite
        (True, False)
        """
        return not self._info["infinite"]

    def __str__(self) -> str:
        return self.code

    @property
    def is_nim(self) -> bool:
        """Whether the game is Nim itself, the code ``0.[3]``.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.TakeAndBreak("0.[3]").is_nim, gr.TakeAndBreak("0.3").is_nim
        (True, False)
        """
        return self.code == "0.[3]"

    def _heap_rule(self) -> _core.HeapRule:
        if self._core_rule is None:
            self._core_rule = _core.HeapRule.take_and_break(self.code)
        rule: _core.HeapRule = self._core_rule
        return rule

    def _nim_after(self, h: int) -> tuple[int, ...]:
        return () if h == 0 else (h,)  # in the code 0.[3] a heap of 0 is no heap

    def _label(self) -> str:
        return f"{self.name} {self.code}" if self.name else self.code

    def _describe_html(self) -> str:
        kind = "octal" if self.is_octal else "hexadecimal"
        extra = "" if self.is_finite else "; a repeated group removes any number of tokens"
        return (
            f"<code>{escape(self.code)}</code>: {kind} take-and-break, a move leaves at most "
            f"{self.max_heaps} heap(s){extra}"
        )

    def _constructor(self) -> str:
        return f"TakeAndBreak({self.code!r})"

    def _rule(self) -> dict[str, Any]:
        return {"type": "take_and_break", "code": self.code}


class _Run(Run):
    """A :class:`Run` that also refuses requests no machine can hold."""

    def ensure(self, n: int, from_period: bool = False) -> None:
        if n > _MAX_VALUES:
            raise MemoryLimitError(f"{n} values cannot be stored on any machine; ask for fewer")
        super().ensure(n, from_period)


def _members(subtract: Iterable[int], what: str) -> list[int]:
    if isinstance(subtract, (str, bytes)) or not isinstance(subtract, Iterable):
        raise ArgumentTypeError(f"{what} must be an iterable of positive integers, not {type(subtract).__name__}")
    out = []
    for k in subtract:
        k = as_heap(k, f"member {k!r} of {what}")
        if k == 0:
            raise ArgumentError(f"{what} contains 0: removing no tokens is not a move")
        out.append(k)
    return sorted(set(out))


class Subtraction(Game):
    """A subtraction game: from a heap of ``n`` remove ``k`` tokens, for ``k`` in a set.

    Give the set (``Subtraction([1, 2, 3])``) or a rule ``allowed(n, k) -> bool``. The classic
    infinite rules are class methods (:meth:`squares`, :meth:`at_most_half`, :meth:`proper_divisors`,
    :meth:`all_but`) and run entirely in Rust.

    Parameters
    ----------
    subtract : iterable of int, optional
        The subtraction set: positive integers (repeats are ignored).
    allowed : callable, optional
        ``allowed(n, k) -> bool``: whether ``k`` tokens may be removed from a heap of ``n``
        (asked for ``1 <= k <= n``). Give this or ``subtract``, not both.

    Attributes
    ----------
    kind : str
        ``"finite"`` for a set, ``"allowed"`` for a callable, else the class method's name
        (``"squares"``, ``"at_most_half"``, ``"proper_divisors"``, ``"all_but"``).
    members : list of int or None
        The set, sorted (the excluded set for ``all_but``), or None.
    allowed : callable or None
        The callable rule, or None.

    Raises
    ------
    TypeError
        When both or neither of ``subtract`` and ``allowed`` are given, ``subtract`` is not an
        iterable of integers, or ``allowed`` is not callable.
    ValueError
        When a member is 0, negative, or not below 2**64.

    Examples
    --------
    >>> import grundy as gr
    >>> gr.Subtraction([1, 2, 3]).values(8).tolist()
    [0, 1, 2, 3, 0, 1, 2, 3]
    >>> gr.Subtraction(allowed=lambda n, k: k % 2 == 1).values(4).tolist()
    [0, 1, 0, 1]
    """

    kind: _SubtractionKind | Literal["allowed"]
    members: list[int] | None
    allowed: Callable[[int, int], bool] | None

    def __init__(
        self,
        subtract: Iterable[int] | None = None,
        *,
        allowed: Callable[[int, int], bool] | None = None,
    ) -> None:
        if (subtract is None) == (allowed is None):
            raise ArgumentTypeError("give either a subtraction set or allowed=, not both or neither")
        if allowed is not None:
            if not callable(allowed):
                raise ArgumentTypeError(f"allowed must be a callable allowed(n, k), not {type(allowed).__name__}")
            self.kind, self.members = "allowed", None
            self.allowed = allowed
            super().__init__(_core.Sequence.allowed(allowed), ("allowed", id(allowed)))
            return
        members = _members(subtract, "the subtraction set")  # type: ignore[arg-type]
        self._init("finite", members)

    def _init(self, kind: _SubtractionKind, members: list[int] | None) -> None:
        self.kind, self.members, self.allowed = kind, members, None
        seq = _core.Sequence.subtraction(kind, members)
        Game.__init__(self, seq, (kind, tuple(members or ())))

    @classmethod
    def _make(cls, kind: _SubtractionKind, members: list[int] | None = None) -> Subtraction:
        g = cls.__new__(cls)
        g._init(kind, members)
        return g

    @classmethod
    def squares(cls) -> Subtraction:
        """Build the game where a move removes a positive square number of tokens.

        Returns
        -------
        Subtraction
            The game (``kind`` ``"squares"``).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.Subtraction.squares().values(7).tolist()
        [0, 1, 0, 1, 2, 0, 1]
        """
        return cls._make("squares")

    @classmethod
    def at_most_half(cls) -> Subtraction:
        """Build the game where a move removes between 1 and floor(n/2) tokens from a heap of n.

        Returns
        -------
        Subtraction
            The game (``kind`` ``"at_most_half"``).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.Subtraction.at_most_half().values(8).tolist()
        [0, 0, 1, 0, 2, 1, 3, 0]
        """
        return cls._make("at_most_half")

    @classmethod
    def proper_divisors(cls) -> Subtraction:
        """Build the game where a move removes a divisor d of the heap size n with d < n.

        G(n) is the exponent of 2 in n.

        Returns
        -------
        Subtraction
            The game (``kind`` ``"proper_divisors"``).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.Subtraction.proper_divisors().values(9).tolist()
        [0, 0, 1, 0, 2, 0, 1, 0, 3]
        """
        return cls._make("proper_divisors")

    @classmethod
    def all_but(cls, excluded: Iterable[int]) -> Subtraction:
        """Build the game where a move removes any number of tokens except the members of a finite set.

        Parameters
        ----------
        excluded : iterable of int
            The numbers of tokens that may not be removed (positive integers).

        Returns
        -------
        Subtraction
            The game (``kind`` ``"all_but"``); ``all_but([])`` is Nim.

        Raises
        ------
        TypeError
            When ``excluded`` is not an iterable of integers.
        ValueError
            When a member is 0, negative, or not below 2**64.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.Subtraction.all_but([1]).values(6).tolist()
        [0, 0, 1, 1, 2, 2]
        """
        return cls._make("all_but", _members(excluded, "the excluded set"))

    def _constructor(self) -> str:
        if self.kind == "finite":
            return f"Subtraction({self.members})"
        if self.kind == "all_but":
            return f"Subtraction.all_but({self.members})"
        if self.kind == "allowed":
            return f"Subtraction(allowed={getattr(self.allowed, '__qualname__', self.allowed)!s})"
        return f"Subtraction.{self.kind}()"

    def _rule(self) -> dict[str, Any]:
        if self.kind == "allowed":
            return super()._rule()
        return {"type": "subtraction", "kind": self.kind, "members": self.members}

    @property
    def is_nim(self) -> bool:
        """Whether the game is Nim itself, as ``Subtraction.all_but([])`` is.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.Subtraction.all_but([]).is_nim, gr.Subtraction([1, 2]).is_nim
        (True, False)
        """
        return self.kind == "all_but" and not self.members

    def _heap_rule(self) -> _core.HeapRule | None:
        if self.kind == "allowed":
            return None
        if self._core_rule is None:
            self._core_rule = _core.HeapRule.subtraction(self.kind, self.members)
        rule: _core.HeapRule = self._core_rule
        return rule

    def _py_options(self, n: int) -> list[tuple[int, ...]]:
        allowed = self.allowed
        assert allowed is not None
        return [(n - k,) for k in range(1, n + 1) if allowed(n, k)]

    def _describe_html(self) -> str:
        members = ", ".join(map(str, self.members or []))
        described = {
            "finite": f"subtract k in {{{members}}}",
            "all_but": f"subtract any k except {{{members}}}",
            "squares": "subtract a positive square",
            "at_most_half": "subtract 1 to floor(n/2)",
            "proper_divisors": "subtract a proper divisor of n",
            "allowed": "subtract k when a Python callable allows it",
        }
        return described[self.kind]

    def __str__(self) -> str:
        return self._constructor()


def _int_list(x: Any) -> list[int]:
    if not isinstance(x, list) or not all(isinstance(k, int) and not isinstance(k, bool) for k in x):
        raise ArgumentTypeError("members must be a list of integers")
    return x


def _take_and_break_from(rule: dict[str, Any], name: str | None) -> Game:
    code = rule.get("code")
    if not isinstance(code, str):
        raise ArgumentTypeError("a take_and_break rule needs a 'code' string")
    return TakeAndBreak(code, name=name)


_SUBTRACTION_KINDS = ("finite", "all_but", "squares", "at_most_half", "proper_divisors")


def _subtraction_from(rule: dict[str, Any], name: str | None) -> Game:
    sub, members = rule.get("kind"), rule.get("members")
    if sub not in _SUBTRACTION_KINDS:
        raise ArgumentError(f"unknown subtraction rule {sub!r}")
    if sub == "finite":
        return Subtraction(_int_list(members))
    if sub == "all_but":
        return Subtraction.all_but(_int_list(members))
    if members is not None:
        raise ArgumentError(f"the subtraction rule {sub} takes no members")
    game: Game = getattr(Subtraction, sub)()
    return game


# The file format rebuilds games from their saved rule through these (see Game._rule).
_checkpoint.BUILDERS.update(take_and_break=_take_and_break_from, subtraction=_subtraction_from)


def nim() -> TakeAndBreak:
    """Nim (``0.[3]``): remove any number of tokens from one heap; G(n) = n.

    Returns
    -------
    TakeAndBreak
        ``TakeAndBreak("0.[3]", name="Nim")``.

    Examples
    --------
    >>> import grundy as gr
    >>> gr.nim().values(5).tolist()
    [0, 1, 2, 3, 4]
    """
    return TakeAndBreak("0.[3]", name="Nim")


def kayles() -> TakeAndBreak:
    """Kayles (``0.77``): knock down one pin or two adjacent pins from a row.

    Returns
    -------
    TakeAndBreak
        ``TakeAndBreak("0.77", name="Kayles")``.

    Examples
    --------
    >>> import grundy as gr
    >>> gr.kayles().values(6).tolist()
    [0, 1, 2, 3, 1, 4]
    """
    return TakeAndBreak("0.77", name="Kayles")


def dawsons_kayles() -> TakeAndBreak:
    """Dawson's Kayles (``0.07``): knock down two adjacent pins.

    Returns
    -------
    TakeAndBreak
        ``TakeAndBreak("0.07", name="Dawson's Kayles")``.

    Examples
    --------
    >>> import grundy as gr
    >>> gr.dawsons_kayles().values(8).tolist()
    [0, 0, 1, 1, 2, 0, 3, 1]
    """
    return TakeAndBreak("0.07", name="Dawson's Kayles")


def grundys_game() -> TakeAndBreak:
    """Grundy's game (``4!.0``): split one heap into two heaps of different sizes.

    Returns
    -------
    TakeAndBreak
        ``TakeAndBreak("4!.0", name="Grundy's game")``.

    Examples
    --------
    >>> import grundy as gr
    >>> gr.grundys_game().values(9).tolist()
    [0, 0, 0, 1, 0, 2, 1, 0, 2]
    """
    return TakeAndBreak("4!.0", name="Grundy's game")


__all__ = [
    "Game",
    "Subtraction",
    "TakeAndBreak",
    "dawsons_kayles",
    "grundys_game",
    "kayles",
    "nim",
]
