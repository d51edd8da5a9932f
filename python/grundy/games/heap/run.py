"""One long call on a heap game: its progress bar and its checkpoints.

The core calls a ``progress(done, total)`` callable about every 50 ms while it computes (with the
GIL taken only for that call). :class:`Run` is that callable: it feeds the progress bar and, when a
checkpoint file is asked for, stops the core every ``checkpoint_every`` seconds by raising
:class:`_CheckpointDue`, writes the values computed so far, and lets the core go on. Stopping costs
nothing: the core keeps every value.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, Protocol, TypeVar

from ..._ui.progress import Bar, _check_progress, _check_threads
from ..._validate import _short
from ...exceptions import ArgumentError, ArgumentTypeError, MemoryLimitError, MissingFileError
from ...io import checkpoint as _checkpoint


class Game(_checkpoint.Game, Protocol):
    """What a run asks of a heap game, besides what files ask: its core (``grundy._core.HeapCore``)."""

    _core: Any


#: Default seconds between two checkpoints.
CHECKPOINT_EVERY = 30.0

#: What makes the run of a heap game's long call in this context, in place of :class:`Run`, called
#: with :class:`Run`'s arguments (None: :class:`Run`). A survey's worker sets its timed run here for
#: the one game it computes, so the caller's game object is never patched, and a thread computing the
#: same game beside it is not affected (a context variable is per thread).
RUN_FACTORY: ContextVar[Callable[..., Run] | None] = ContextVar("grundy_run_factory", default=None)

#: Above this many values a request is refused outright (no machine holds 2**62 values).
MAX_VALUES = 2**62


_T = TypeVar("_T")


class _CheckpointDue(Exception):
    """Raised from the progress callback to make the core return so a checkpoint can be written."""


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
        if n > MAX_VALUES:
            raise MemoryLimitError(f"{n} values cannot be stored on any machine; ask for fewer")
        seq = self.game._core
        if n <= len(seq):
            return
        if self.mode is True:
            self.bar.update(len(seq), n)
        # The game's core is read at each try: a checkpoint resumed may have replaced it.
        self.drive(lambda progress: self.game._core.extend(n, progress=progress, threads=self.threads,
                                                          from_period=from_period))
        self.bar.update(len(self.game._core), n)

    def drive(self, step: Callable[[Run | None], _T]) -> _T:
        """Run ``step(progress)``, a core call that reports to ``progress``, with the bar and checkpoints.

        When a checkpoint falls due, the call stops, the checkpoint is written and ``step`` runs again
        (the core keeps what it computed, so it resumes).
        """
        while True:
            try:
                return step(self if (self.mode is not False or self.path) else None)
            except _CheckpointDue:
                self.write()

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
        """Close the progress bar."""
        self.bar.close()
