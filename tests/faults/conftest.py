"""Fault injection: run a target in a subprocess, signal it at a random (seeded) moment, and check
that it exits in time and leaves no process behind.

A target is a Python snippet run after ``import grundy as gr``; it calls ``started()`` (which
creates a marker file) right before the long call, so that the signal lands in the computation,
not in the imports. The delay after the marker is drawn from a ``random.Random`` seeded by the
test's name and ``GRUNDY_FAULT_SEED`` (default 0): a failure is reproduced by running the test
again with the same seed; another seed tries other moments.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psutil
import pytest

#: Seconds a target has to exit after the signal (issue 32), and its descendants after it.
EXIT_WITHIN = 2.0

#: Seconds a target may take to reach ``started()`` (imports, spawning worker processes).
START_WITHIN = 60.0

PRELUDE = """\
import sys, warnings
warnings.simplefilter("ignore")
import grundy as gr

def started():
    open({marker!r}, "w").close()

"""


def seed() -> int:
    return int(os.environ.get("GRUNDY_FAULT_SEED", "0"))


def rng(name: str) -> random.Random:
    """The random moments of one test: the same for the same seed."""
    return random.Random(f"{name}-{seed()}")


@dataclass
class Outcome:
    """What happened to a signalled target."""

    delay: float
    returncode: int
    log: str


def _alive(procs: list[psutil.Process]) -> list[psutil.Process]:
    out = []
    for p in procs:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.NoSuchProcess:
            pass
    return out


def signal_target(
    tmp_path: Path,
    code: str,
    sig: int,
    delay: tuple[float, float],
    name: str,
    ready: Callable[[], bool] | None = None,
) -> Outcome:
    """Run ``code`` in a subprocess, send ``sig`` a random time in ``delay`` after it started its
    long call, and assert that it and every process it started are gone ``EXIT_WITHIN`` s later.

    ``ready``: the target has started when this returns True too (after ``started()``).
    """
    marker = tmp_path / f"{name}.started"
    log_path = tmp_path / f"{name}.log"
    wait = rng(name).uniform(*delay)
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-c", PRELUDE.format(marker=str(marker)) + code],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # a signal for the target never reaches pytest
        )
    what = f"{name} (signal {signal.Signals(sig).name} {wait:.3f} s after it started, GRUNDY_FAULT_SEED={seed()})"
    try:
        t = time.monotonic()
        while not (marker.exists() and (ready is None or ready())):
            assert proc.poll() is None, f"{what}: the target ended before it started: {log_path.read_text()}"
            assert time.monotonic() - t < START_WITHIN, f"{what}: the target did not start"
            time.sleep(0.01)
        time.sleep(wait)
        assert proc.poll() is None, f"{what}: the target finished before the signal: make it longer"
        family = psutil.Process(proc.pid).children(recursive=True)
        proc.send_signal(sig)
        try:
            proc.wait(timeout=EXIT_WITHIN)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{what}: still running {EXIT_WITHIN} s after the signal")
        _, left = psutil.wait_procs(family, timeout=EXIT_WITHIN)
        left = _alive(left)
        assert not left, f"{what}: processes still running after it exited: {[p.cmdline() for p in left]}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for p in _alive(family if "family" in locals() else []):
            p.kill()
    return Outcome(wait, proc.returncode, log_path.read_text())
