"""How a survey stops its games: Ctrl-C, an error or its driver's death ends every game it started.

The driver holds a stop signal (:class:`_StopSignal`); each game polls its view of it
(:class:`_StopWatch`) whenever the core reports progress, in a thread, a worker process or a Dask
worker alike. Futures not yet running are cancelled (:func:`_cancel`).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import socket
import tempfile
import threading
import time
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover (Windows: the stop file's existence is the signal)
    fcntl = None  # type: ignore[assignment]


#: The stop signals of the surveys running in this process, by file: set once a survey has stopped.
_LOCAL_STOPS: dict[str, threading.Event] = {}


class _SurveyStopped(Exception):
    """Raised in a game when its survey has stopped (Ctrl-C, an error, or its driver died).

    An Exception, not a KeyboardInterrupt, so that every executor (Dask included) reports it as a
    task's failure without harm to the worker.
    """


class _StopSignal:
    """Tells a survey's games that the survey has stopped, in whatever process they run.

    While the survey runs, its driver holds an exclusive lock (``flock``) on a temporary file. A
    game polls it each time the core reports progress (about every 50 ms) and stops as soon as the
    lock is free: the driver released it (Ctrl-C, an error, the survey's end) or died (the kernel
    releases a killed process's locks; a dead driver's pid is checked too, for workers forked
    from it, which share its lock). Games in the driver's process read an Event instead. A worker
    on another machine does not see the file: the driver cancels those futures.

    Pickled as the file's path, the host and the driver's pid.
    """

    def __init__(self) -> None:
        fd, self.path = tempfile.mkstemp(prefix="grundy-survey-", suffix=".stop")
        self.host = socket.gethostname()
        self.pid = os.getpid()
        self._fd: int | None = fd
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX)
        _LOCAL_STOPS[self.path] = threading.Event()

    def __getstate__(self) -> dict[str, Any]:
        return {"path": self.path, "host": self.host, "pid": self.pid, "_fd": None}

    def stop(self) -> None:
        """Stops every game of the survey (in the driver; idempotent)."""
        event = _LOCAL_STOPS.pop(self.path, None)
        if event is not None:
            event.set()
        if self._fd is not None:
            if fcntl is not None:  # explicitly: a forked worker may share the lock's file description
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
            with contextlib.suppress(OSError):
                os.unlink(self.path)  # without fcntl (Windows) its absence is the signal

    def watch(self) -> _StopWatch:
        """What a game polls (in a worker)."""
        return _StopWatch(self)


class _StopWatch:
    """A game's view of its survey's :class:`_StopSignal`: :meth:`stopped` is cheap (one system call)."""

    def __init__(self, signal: _StopSignal) -> None:
        self.pid = signal.pid
        self.path = signal.path
        self.event: threading.Event | None = None
        self.fd: int | None = None
        self.done = False
        self.remote = False
        if signal.pid == os.getpid():
            event = _LOCAL_STOPS.get(signal.path)
            self.done = event is None  # the survey has stopped already
            self.event = event
        elif signal.host != socket.gethostname():
            self.remote = True  # on another machine: the driver cancels this game's future
        else:
            if os.getppid() == signal.pid:  # a worker process of the driver's (ProcessPoolExecutor)
                _exit_with_parent(signal.pid)
            if fcntl is None:  # pragma: no cover (Windows: an open file could not be removed)
                self.done = not os.path.exists(signal.path)
                return
            try:
                self.fd = os.open(signal.path, os.O_RDONLY)
            except FileNotFoundError:
                self.done = True  # the driver removed it: the survey has stopped
            except OSError:
                self.remote = True  # a private temporary folder (a container): as on another machine

    def stopped(self) -> bool:
        if self.done or self.remote:
            return self.done
        if self.event is not None:
            self.done = self.event.is_set()
        elif fcntl is None:  # pragma: no cover (Windows)
            self.done = not os.path.exists(self.path)
        elif self.fd is not None:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                self.done = not _alive(self.pid)
            else:  # free: the driver let go or died
                fcntl.flock(self.fd, fcntl.LOCK_UN)
                self.done = True
        return self.done

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


#: The driver whose death ends this worker process (see :func:`_exit_with_parent`), and how many of
#: its games run here.
_PARENT: list[int] = []
_RUNNING = [0]
_PARENT_LOCK = threading.Lock()


def _exit_with_parent(pid: int) -> None:
    """Ends this worker process soon after its parent, the survey's driver, dies.

    The workers of a ``ProcessPoolExecutor`` whose owner was killed wait for work forever (each
    holds the write end of its own task queue, so it never reads an end of file). Once the parent
    is gone the pool cannot be used again: a thread polls the parent (every 0.1 s), gives a running
    game a second to see the stop signal and write its checkpoint, and exits the process.
    """
    with _PARENT_LOCK:
        if _PARENT:
            return
        _PARENT.append(pid)

    def watch() -> None:
        while os.getppid() == pid:
            time.sleep(0.1)
        deadline = time.monotonic() + 1.0
        while _RUNNING[0] and time.monotonic() < deadline:
            time.sleep(0.02)
        os._exit(1)

    threading.Thread(target=watch, name="grundy-survey-parent", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _cancel(futures: list[Any]) -> None:
    """Cancels futures of any executor; a Dask client's in one call."""
    dask = [f for f in futures if type(f).__module__.startswith("distributed")]
    if dask:
        with contextlib.suppress(Exception):  # a client already closed has nothing left to cancel
            dask[0].client.cancel(dask)
    for f in futures:
        if f not in dask:
            f.cancel()


#: Seconds the driver waits for the running games of an executor it does not own to see the stop signal.
STOP_WAIT = 5.0


def _wait_stopped(futures: list[Any]) -> None:
    """Waits (a little) for the games that were running to stop, so none outlives the survey's return."""
    local = [f for f in futures if isinstance(f, concurrent.futures.Future)]
    if local:
        concurrent.futures.wait(local, timeout=STOP_WAIT)
