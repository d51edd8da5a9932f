"""Building misère quotients of heap games, their lower bounds, and the cache positions use.

A heap game plugs in through one method, ``game._core_values()``: its core (``grundy._core.HeapCore``),
which builds the quotient from the game's rule (asking a rule written in Python heap by heap) and keeps
the quotient of the largest heaps built, and the heap from which an automatic build gave up.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Protocol

from .._ui.progress import Bar, _check_progress
from .._validate import as_count, as_heap, as_limit
from ..exceptions import ArgumentError, ArgumentTypeError, TooLargeError
from .quotient import MisereQuotient

__all__ = ["QuotientBounds", "misere_quotient", "misere_quotient_bounds"]

#: Position builds a quotient itself for heaps up to this size ...
AUTO_MAX_HEAP = 20
#: ... when that takes at most this many seconds (else the exhaustive search decides).
AUTO_BUDGET = 0.5


class HeapGameLike(Protocol):
    """What a quotient is built of: a heap game (see :class:`grundy.Game`)."""

    @property
    def is_nim(self) -> bool:
        """Whether the game is Nim (misère Nim has an exact rule, no quotient needed)."""
        ...

    def _label(self) -> str: ...

    def _core_values(self) -> Any: ...


def misere_quotient(
    game: HeapGameLike, max_heap: int, *, max_order: int | None = None, progress: bool | None = None
) -> MisereQuotient:
    """Compute the misère quotient of all sums of heaps of ``game`` up to ``max_heap``.

    The construction is exact: each heap size is learned from misère outcomes and then proven
    (module notes of ``src/misere_quotient``). Runs in the core without the GIL; Ctrl-C stops it.
    The result is kept by the game's core, and :class:`~grundy.Position` uses it for misère play.

    However a build stops (Ctrl-C, ``max_order``, memory), the work up to there is kept: the
    exception raised carries the quotient proven for the heaps below the one it stopped at, as its
    ``quotient`` attribute, and that quotient is kept by the game's core like a finished one.

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
    bar = Bar(progress, "misère quotient", " heaps", total=top + 1, scale=False)
    try:
        q = _build(game, top, bar.update, bound)
        bar.close(top + 1)
        return q
    finally:
        bar.close()


def _check_heap_game(game: Any) -> None:
    """ArgumentTypeError unless ``game`` is a heap game (the only games with misère quotients here)."""
    if not callable(getattr(game, "_core_values", None)):
        raise ArgumentTypeError(f"misère quotients are computed for heap games, not {type(game).__name__}")


def _build(game: HeapGameLike, top: int, progress: Any, max_order: int | None = None) -> MisereQuotient:
    """Build the quotient in the game's core, which keeps it (that of the largest heaps).

    A build that stops raises with the quotient of the heaps before, as ``.quotient`` (see
    :func:`misere_quotient`), kept by the core too.
    """
    try:
        core = game._core_values().misere_quotient(top, progress, max_order)
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
            if hasattr(e, "add_note"):  # Python 3.11+
                e.add_note(
                    f"The quotient of heaps up to {q.max_heap} (order {q.order}) is proven: it is "
                    "this exception's .quotient, and kept by the game."
                )
        raise
    return MisereQuotient(game, core)


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


def misere_quotient_bounds(game: HeapGameLike, heap: int, copies: int) -> QuotientBounds:
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
    below, classes, refutations, states = game._core_values().misere_quotient_bounds(top, m)
    return QuotientBounds(top, m, below, tuple(classes), refutations, states)


#: The most copies the core counts classes for (a u32; far more than any bound can reach).
_MAX_COPIES = 2**32 - 1


class _OverBudget(Exception):
    """Raised from the progress callback when an automatic build runs past its time budget."""


def cached_quotient(game: HeapGameLike, top: int) -> MisereQuotient | None:
    """Return the quotient Position may use for heaps up to ``top``, or None.

    A quotient cached on the game by :func:`misere_quotient` is used when it covers ``top`` (or has a
    proven period). Otherwise one is built when ``top <= AUTO_MAX_HEAP`` and the build finishes within
    ``AUTO_BUDGET`` seconds (wild games can grow large quotients); a build that runs over is abandoned,
    remembered, and the exhaustive search decides instead.
    """
    core = game._core_values()
    kept = core.quotient
    if kept is not None:
        cached = MisereQuotient(game, kept)
        per = cached.period
        if cached.max_heap >= top or (per is not None and per.proven):
            return cached
    gave_up = core.quotient_out_of_reach
    if top > AUTO_MAX_HEAP or game.is_nim or (gave_up is not None and top >= gave_up):
        return None
    if core.is_callback:
        return None  # a rule written in Python: listing its options is not cheap
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
        core.give_up_quotient(max(1, reached[0]))
        return None
