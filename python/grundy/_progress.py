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
        self.desc = desc
        self.bar: Any = None
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
            self._open(len(seq), n)
        while len(self.game._seq) < n:
            seq = self.game._seq
            try:
                seq.extend(n, progress=self if (self.mode is not False or self.path) else None, threads=self.threads,
                           from_period=from_period)
            except _CheckpointDue:
                self.write()
        self._update(len(self.game._seq), n)

    def __call__(self, done: int, total: int) -> None:
        """The core's ``progress(done, total)``: called with the GIL, about every 50 ms."""
        now = time.monotonic()
        if self.bar is None and self.mode is None and now - self.started >= AUTO_DELAY and done < total:
            self._open(done, total)
        self._update(done, total)
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

    # -- the bar ---------------------------------------------------------------------------------
    def _open(self, done: int, total: int) -> None:
        if self.mode is False or self.bar is not None:
            return
        from tqdm.auto import tqdm

        desc = self.desc or str(self.game)
        # Redrawn at most twice a second: a notebook without ipywidgets keeps every redraw.
        self.bar = tqdm(
            total=total, initial=done, desc=desc, unit=" values", unit_scale=True, leave=True, mininterval=0.5
        )

    def _update(self, done: int, total: int) -> None:
        bar = self.bar
        if bar is None:
            return
        if bar.total != total:
            bar.total = total
            bar.refresh()
        if done > bar.n:
            bar.update(done - bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
