"""Progress bars and checkpoints for long computations.

The core calls a ``progress(done, total)`` callable about every 50 ms while it computes (with the
GIL taken only for that call). :class:`Run` is that callable: it feeds a tqdm bar (``tqdm.auto``,
so a widget in Jupyter and text on a terminal) and, when a checkpoint file is asked for, stops the
core every ``checkpoint_every`` seconds by raising :class:`_CheckpointDue`, writes the values
computed so far, and lets the core go on. Stopping costs nothing: the core keeps every value.
"""

from __future__ import annotations

import math
import os
import time
from typing import TYPE_CHECKING, Any

from . import _checkpoint, _core
from ._validate import _short, as_count
from .exceptions import ArgumentError, ArgumentTypeError, MissingFileError

if TYPE_CHECKING:
    from .games import Game

#: With ``progress=None`` a bar appears once a call has run this many seconds.
AUTO_DELAY = 1.0

#: Default seconds between two checkpoints.
CHECKPOINT_EVERY = 30.0


class _CheckpointDue(Exception):
    """Raised from the progress callback to make the core return so a checkpoint can be written."""


def _check_threads(threads: Any) -> int | None:
    """None (every core, or RAYON_NUM_THREADS) or a thread count, capped at the usable cores.

    The one check of every ``threads=`` argument: 0 and negatives raise ArgumentError, non-integers
    ArgumentTypeError, and any count above :func:`max_threads` (10**6, 2**70) is capped to it, as
    the core caps every pool (more threads than processors only share them).
    """
    if threads is None:
        return None
    k = as_count(threads, "threads")
    if k == 0:
        raise ArgumentError("threads must be at least 1 (or None for every core)")
    return min(k, max_threads())


def max_threads() -> int:
    """The most threads any computation uses: the processors this process may use."""
    return _core.max_threads()


def _check_progress(progress: Any) -> bool | None:
    if progress is None or isinstance(progress, bool):
        return progress
    raise ArgumentTypeError(
        f"progress must be True (always show a bar), False (never) or None (after {AUTO_DELAY:g} s), "
        f"not {_short(progress)}"
    )


def _check_every(every: Any) -> float:
    if isinstance(every, bool) or not isinstance(every, (int, float)):
        raise ArgumentTypeError(f"checkpoint_every must be a number of seconds, not {type(every).__name__}")
    try:
        seconds = float(every)
    except OverflowError:
        seconds = math.inf
    if not seconds > 0 or math.isinf(seconds):
        raise ArgumentError(f"checkpoint_every must be a positive, finite number of seconds, got {_short(every)}")
    return seconds


class Bar:
    """The one progress bar of every long call, and the only user of tqdm.

    A tqdm bar (``tqdm.auto``: a widget in Jupyter, text elsewhere), fed by the core's
    ``progress(done, total)`` callbacks through :meth:`update`.
    ``mode`` True shows it at once (``open_now``) or from the first update, None once a call has run
    ``AUTO_DELAY`` seconds (so quick calls print nothing, not even tqdm's notebook warnings; a call
    already done opens none), False never. ``scale``: counts in k, M, ... (False for small counts,
    which tqdm would show as 3.00).
    ``total=None`` counts with no end: an exploration, whose states are not all known until it ends.

    >>> bar = Bar(False, "values", " values", total=10)
    >>> bar.update(5); bar.close(10)
    """

    def __init__(
        self,
        mode: bool | None,
        desc: str,
        unit: str,
        total: int | None = None,
        open_now: bool = True,
        scale: bool = True,
    ) -> None:
        self.mode, self.desc, self.unit, self.total, self.scale = mode, desc, unit, total, scale
        self.bar: Any = None
        self.started = time.monotonic()
        if mode is True and open_now:
            self.open()

    def open(self, done: int = 0) -> None:
        """Show the bar now (unless ``mode`` is False), starting at ``done``."""
        if self.mode is False or self.bar is not None:
            return
        from tqdm.auto import tqdm

        # Redrawn at most twice a second: a notebook without ipywidgets keeps every redraw.
        self.bar = tqdm(total=self.total, initial=done, desc=self.desc, unit=self.unit, unit_scale=self.scale,
                        leave=True, mininterval=0.5)

    def update(self, done: int, total: int | None = None, note: str | None = None) -> None:
        """``done`` of ``total`` (None: the total as it was), with a ``note`` after the counts."""
        if total is not None and total != self.total:
            self.total = total
            if self.bar is not None:
                self.bar.total = total
                self.bar.refresh()
        if self.bar is None:
            if self.mode is None:
                late = time.monotonic() - self.started >= AUTO_DELAY
                if not late or (self.total is not None and done >= self.total):
                    return
            self.open(done)
            if self.bar is None:  # mode False
                return
        if note is not None:
            self.bar.set_postfix_str(note, refresh=False)
        if done > self.bar.n:
            self.bar.update(done - self.bar.n)

    def close(self, done: int | None = None) -> None:
        """Close the bar, first bringing it to ``done`` (and its total up to it) when given."""
        if self.bar is None:
            return
        if done is not None and done > self.bar.n:
            if self.bar.total is None or self.bar.total < done:
                self.bar.total = done
            self.bar.update(done - self.bar.n)
        self.bar.close()
        self.bar = None


class Run:
    """One long call on a game: a progress bar, and checkpoints when ``checkpoint`` is a path.

    Use as a context manager around :meth:`ensure`; on leaving, the bar is closed and the final
    checkpoint written (also after Ctrl-C, so that the next call resumes from there).
    """

    def __init__(
        self,
        game: Game,
        progress: bool | None = None,
        checkpoint: str | os.PathLike[str] | None = None,
        checkpoint_every: float = CHECKPOINT_EVERY,
        desc: str | None = None,
        threads: int | None = None,
    ) -> None:
        self.game = game
        self.threads = _check_threads(threads)
        self.mode = _check_progress(progress)
        self.every = _check_every(checkpoint_every)
        if checkpoint is not None and not isinstance(checkpoint, (str, os.PathLike)):
            raise ArgumentTypeError(f"checkpoint must be a file path, not {type(checkpoint).__name__}")
        self.path = None if checkpoint is None else os.fspath(checkpoint)
        self.bar = Bar(self.mode, desc or str(game), " values", open_now=False)
        self.started = time.monotonic()
        self.last_write = self.started
        self.written = -1  # values in the checkpoint file (-1: not written or read by this run)
        self.written_period: Any = None  # the periodicity result the file records

    # -- context ---------------------------------------------------------------------------------
    def __enter__(self) -> Run:
        if self.path is not None:
            self.game._rule()  # ArgumentTypeError now for rules that cannot be saved
            folder = os.path.dirname(os.path.abspath(self.path))
            if not os.path.isdir(folder):  # now, not at the first checkpoint
                raise MissingFileError(f"the checkpoint's folder {folder} does not exist")
            _checkpoint.check_writable(self.path)
            if os.path.exists(self.path):
                self.written = _checkpoint._resume(self.game, self.path)
                self.written_period = self.game.known_periodicity
        return self

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        try:
            if self.path is not None and (kind is None or issubclass(kind, KeyboardInterrupt)):
                self.write()
        finally:
            self.close()

    # -- computing -------------------------------------------------------------------------------
    def ensure(self, n: int, from_period: bool = False) -> None:
        """Make G(0..n) available, with the bar and checkpoints.

        ``from_period``: prove a period on the way where a theorem applies, and fill the rest from it.
        """
        seq = self.game._seq
        if n <= len(seq):
            return
        if self.mode is True:
            self.bar.update(len(seq), n)
        while len(self.game._seq) < n:
            seq = self.game._seq
            try:
                seq.extend(n, progress=self if (self.mode is not False or self.path) else None, threads=self.threads,
                           from_period=from_period)
            except _CheckpointDue:
                self.write()
        self.bar.update(len(self.game._seq), n)

    def __call__(self, done: int, total: int) -> None:
        """The core's ``progress(done, total)``: called with the GIL, about every 50 ms."""
        now = time.monotonic()
        self.bar.update(done, total)
        if self.path is not None and now - self.last_write >= self.every and done > self.written:
            raise _CheckpointDue

    def write(self) -> None:
        """Writes the checkpoint now if it would hold more than the file does."""
        if self.path is None:
            return
        count, period = self.game.computed, self.game.known_periodicity
        if count > self.written or period is not self.written_period or not os.path.exists(self.path):
            _checkpoint.write(self.game, self.path)
            self.written, self.written_period = count, period
        self.last_write = time.monotonic()

    def close(self) -> None:
        self.bar.close()
