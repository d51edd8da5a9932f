"""What a survey's worker does with one game: build it, compute and analyse it, report one row.

A worker may be a thread, a process or a Dask worker: everything here is picklable by name, and the
game travels as a small spec (a code, or a rule description), not as an object.
"""

from __future__ import annotations

import functools
import os
import time
from typing import Any, cast

from .. import _core
from .._ui.progress import Bar
from .._validate import _short
from ..exceptions import ArgumentTypeError, CodeError, GrundyError
from ..games.board import search as _board_search
from ..games.board.game import BoardGame
from ..games.heap import run as _heap_run
from ..games.heap.game import Game
from ..games.heap.run import Run as _Run
from ..games.heap.take_and_break import TakeAndBreak
from ..io import checkpoint as _checkpoint
from .fingerprint import fingerprint
from .stop import _PARENT_LOCK, _RUNNING, _StopSignal, _StopWatch, _SurveyStopped

__all__ = ["GAME_ERRORS", "survey_one"]

#: Sparse space is analysed only for values below 2**HIST_BITS (``src/engine/sparse_mask.rs``).
_SPARSE_LIMIT = 2**20

#: The failures of one game that become its row's ``error`` (the survey goes on): every error grundy
#: raises on purpose, and what a game's own rule may run into. Anything else (a bug) propagates, and
#: KeyboardInterrupt stops the survey.
GAME_ERRORS: tuple[type[BaseException], ...] = (GrundyError, ValueError, ArithmeticError, MemoryError, RecursionError)


def _spec(rule: Any) -> tuple[Any, ...]:
    """A picklable description of a rule: codes and built-in rules travel to workers as data."""
    if isinstance(rule, str):
        return ("code", rule)
    if isinstance(rule, (Game, BoardGame)):
        try:  # a rule the file format can rebuild travels as that data (the game protocol's saved form)
            return ("rule", rule._rule(), rule.name)
        except TypeError:  # a Python callable (a graph's labels that are not data): the game object itself
            return ("object", rule)
    raise ArgumentTypeError(f"a survey takes codes or games, not {type(rule).__name__} ({_short(rule)})")


def _build(spec: tuple[Any, ...]) -> Game | BoardGame:
    if spec[0] == "code":
        return TakeAndBreak(spec[1])
    if spec[0] == "rule":
        return cast("Game | BoardGame", _checkpoint.game_from_rule(spec[1], spec[2]))
    game: Game | BoardGame = spec[1]
    return game


def _identify(spec: tuple[Any, ...]) -> tuple[str, dict[str, Any] | None, str | None]:
    """Name a game: its name in the table, its rule as data, and the error of a code that does not parse.

    The rule is None for Python callables; codes are validated here, before anything is submitted.
    """
    if spec[0] == "code":
        try:
            canonical = _core.parse_code(spec[1])["canonical"]
        except CodeError as e:
            return spec[1], None, f"CodeError: {e}"
        return canonical, {"type": "take_and_break", "code": canonical}, None
    game = _build(spec)
    try:
        rule = game._rule()
    except TypeError:
        rule = None
    return (repr(game) if isinstance(game, BoardGame) else str(game)), rule, None


# -- one game (in a worker) -------------------------------------------------------------------------
class _GameTimeout(Exception):
    """Raised in a worker when a game passes the survey's per-game ``timeout``."""


class _TimedRun(_Run):
    """A game's run inside a survey worker.

    Never a bar; a deadline and the survey's stop signal checked each time the core reports progress
    (about every 50 ms) and before each extension. On a timeout or a stop the checkpoint, if any, is
    written, so that a rerun (with a longer timeout) resumes.
    """

    def __init__(
        self, game: Game, *args: Any, deadline: float | None, watch: _StopWatch | None, **kwargs: Any
    ) -> None:
        super().__init__(game, *args, **kwargs)
        self.deadline = deadline
        self.watch = watch
        # The core calls back only when a bar may show (mode not False): it must, for the checks
        # below; the bar itself is never drawn.
        self.mode = None
        self.bar = Bar(False, "", "")

    def _check(self) -> None:
        if self.watch is not None and self.watch.stopped():
            raise _SurveyStopped
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _GameTimeout

    def __call__(self, done: int, total: int) -> None:
        self._check()
        super().__call__(done, total)

    def ensure(self, n: int, from_period: bool = False) -> None:
        self._check()
        super().ensure(n, from_period)

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        if kind is not None and issubclass(kind, (_GameTimeout, _SurveyStopped)) and self.path is not None:
            try:
                self.write()
            finally:
                self.close()
            return
        super().__exit__(kind, exc, tb)


def survey_one(
    spec: tuple[Any, ...],
    max_n: int,
    timeout: float | None = None,
    checkpoint: str | None = None,
    stop: _StopSignal | None = None,
    threads: int = 1,
) -> tuple[dict[str, Any], list[list[Any]] | None]:
    """One row of a survey and the fingerprint of the values it examined (run in a worker).

    The failures of ``GAME_ERRORS`` (errors of the package, :class:`grundy.GrundyError`, and what a
    rule may run into) and the per-game timeout become the row's ``error``; anything else
    propagates. ``checkpoint``: a file the game resumes from and, while unproven, saves its values
    to (removed once the period is proven). ``stop``: the survey's stop signal; once it is given
    the game stops (``_SurveyStopped``), its checkpoint written. A board game's search keeps its tables
    in ``checkpoint`` (resumed from it, written at its deadline or stop, removed once it is solved), and
    its row then counts the nodes, seconds and ``sittings`` of every run so far. A board out of time
    has ``progress``, its search's last note (the table's fill, the root's options settled).
    ``threads``: the threads of a board game's search (a survey runs its games side by side, one
    thread each; the atlas one board at a time). A board game's row also has ``nodes``, the nodes its
    search visited (timed out or not), and ``cpu_seconds``, the process's CPU time (all its threads)
    while it searched: what the search cost when the wall time counts pauses or other processes'
    work (the atlas's one board at a time; games searched side by side in one process share it).

    Examples
    --------
    >>> row, fp = survey_one(("code", "0.77"), 2**12)
    >>> row["status"], row["period"], fp[-1][0] == row["checked_to"]
    ('proven', 12, True)
    """
    t0, cpu0 = time.perf_counter(), time.process_time()
    board_bar: _Watch | None = None
    deadline = None if timeout is None else time.monotonic() + timeout
    row: dict[str, Any] = {"code": spec[1] if spec[0] == "code" else str(spec[-1])}
    fp = None
    game = None
    watch = None if stop is None else stop.watch()
    with _PARENT_LOCK:
        _RUNNING[0] += 1
    try:
        if watch is not None and watch.stopped():
            raise _SurveyStopped
        game = _build(spec)
        row["code"] = repr(game) if isinstance(game, BoardGame) else str(game)
        if isinstance(game, BoardGame):
            board_bar = _Watch(deadline, watch)
            reset = _board_search.BAR.set(lambda: board_bar)
            try:
                row.update(status="solved", value=game.value(threads=threads, checkpoint=checkpoint))
            finally:
                _board_search.BAR.reset(reset)
        else:
            timed = _heap_run.RUN_FACTORY.set(functools.partial(_TimedRun, deadline=deadline, watch=watch))
            try:
                fp = _heap_row(game, row, max_n, checkpoint)
            finally:
                _heap_run.RUN_FACTORY.reset(timed)
    except _GameTimeout:
        done = game.computed if isinstance(game, Game) else None
        at = "" if done is None else f" at {done} values"
        row.update(status="timeout", checked_to=done, error=f"timeout: stopped after {timeout:g} s{at}")
        if board_bar is not None and board_bar.note:
            row["progress"] = board_bar.note  # how far the search got: its table, the root's options
    except GAME_ERRORS as e:  # a game that cannot be computed: a row saying why; the survey goes on
        row.update(status="error", error=f"{type(e).__name__}: {e}")
    finally:
        if isinstance(game, BoardGame):
            row["nodes"] = game.stats()["nodes"]
        if watch is not None:
            watch.close()
        with _PARENT_LOCK:
            _RUNNING[0] -= 1
    row["seconds"] = time.perf_counter() - t0
    if isinstance(game, BoardGame):
        row["cpu_seconds"] = time.process_time() - cpu0
    if checkpoint is not None and isinstance(game, BoardGame):
        _board_totals(row, checkpoint)
    return row, fp


def _board_totals(row: dict[str, Any], checkpoint: str) -> None:
    """A board's row counts the nodes and seconds (wall and CPU) of every sitting its checkpoint has seen."""
    try:
        rec = _board_search.record(checkpoint)
    except GAME_ERRORS:  # an unreadable file was already reported as the row's error
        return
    if rec is not None:
        cpu = rec["cpu_seconds"]  # None: a sitting before the field, so the total is unknown
        row.update(nodes=int(rec["nodes"]), seconds=float(rec["seconds"]), sittings=int(rec["sittings"]),
                   cpu_seconds=None if cpu is None else float(cpu))  # fmt: skip
    if row["status"] == "solved" and os.path.exists(checkpoint):
        os.remove(checkpoint)  # nothing left to resume (the row holds the value)


class _Watch:
    """A board game's search bar inside a survey worker: never drawn; the deadline and the stop signal checked.

    The core calls ``update`` about every 50 ms while it searches; raising there stops the search.
    """

    def __init__(self, deadline: float | None, watch: _StopWatch | None) -> None:
        self.deadline, self.watch = deadline, watch
        self.note = ""  # the search's last note (its table, the root's options settled)

    def update(self, done: int, note: str = "", **_: Any) -> None:
        self.note = note or self.note
        if self.watch is not None and self.watch.stopped():
            raise _SurveyStopped
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _GameTimeout

    def close(self, *_: Any) -> None:
        """Nothing drawn, nothing to close."""


def _heap_row(game: Game, row: dict[str, Any], max_n: int, checkpoint: str | None) -> list[list[Any]]:
    """Fill a heap game's row (periodicity, sparse space); return the fingerprint of its values."""
    # No per-game bars: the survey shows one bar of its own.
    p = game.periodicity(max_n=max_n, progress=False, checkpoint=checkpoint)
    n = p.checked_to
    values = game.values(n, progress=False)
    max_value = int(values.max()) if n else 0
    row.update(
        status=_status(p, game, max_n),
        preperiod=p.preperiod,
        period=p.period,
        saltus=p.saltus if p.period is not None else None,
        proven=p.proven,
        max_value=max_value,
        checked_to=n,
    )
    if max_value < _SPARSE_LIMIT:
        s = game.sparse_space(n, progress=False)
        row.update(mask=s.mask, rare_count=s.rare_count, last_rare=s.last_rare)
    fp = fingerprint(values)
    if checkpoint is not None and p.proven and os.path.exists(checkpoint):
        os.remove(checkpoint)  # nothing left to resume
    return fp


def _status(p: Any, game: Game, max_n: int) -> str:
    if p.proven:
        return "proven"
    if p.period is not None and game._core_values().unproven_reason() is not None:
        return "observed"  # no theorem covers the rule: more values would not prove it
    return "max_n" if p.checked_to >= max_n else "observed"


# -- equal games from fingerprints --------------------------------------------------------------------
def _prefix_digest(spec: tuple[Any, ...], length: int) -> str:
    """The fingerprint digest of G(0..length-1) (a confirmation task for :func:`_same_as`)."""
    game = cast(Game, _build(spec))  # only heap games have fingerprints
    digest: str = fingerprint(game.values(length, progress=False), [length])[0][1]
    return digest


# -- the survey ----------------------------------------------------------------------------------------
