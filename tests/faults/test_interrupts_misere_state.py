"""Ctrl-C and memory on the long paths of misère quotients, StateGame exploration and misère search (issue 32).

Each test runs the work in a subprocess, interrupts it (SIGINT) or caps its memory with
``GRUNDY_MEMORY_LIMIT`` (bytes, read by the core's memory checks), and bounds the wait.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import grundy as gr
from grundy._ui.progress import Bar

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGINT and /proc are POSIX")

# The child prints "ready" once grundy is imported, then runs the work; it reports how the work
# ended as its last line.
PRELUDE = """
import sys
import grundy as gr
print("ready", flush=True)
try:
{body}
    print("finished")
except BaseException as e:
    q = getattr(e, "quotient", None)
    print(type(e).__name__, isinstance(e, gr.GrundyError), q is not None, flush=True)
"""

MISERE_037 = '    gr.misere_quotient(gr.TakeAndBreak("0.37"), 16, progress=False)'
STATE_RANGE = "    gr.StateGame(lambda s: range(1, 10**12) if s == 0 else [], progress=False).value(0)"
# Kayles as a StateGame: a sum of five rows whose misère search runs for minutes.
STATE_MISERE = """    def rows(n):
        return [(a, n - k - a) for k in (1, 2) for a in range(n - k + 1)]
    g = gr.StateGame(rows, components=lambda s: [x for x in s if x] if isinstance(s, tuple) else [s], progress=False)
    g.outcome((14, 15, 16, 17, 18), misere=True, max_positions=10**9)"""


def _start(body: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    full = dict(os.environ)
    full["PYTHONPATH"] = os.pathsep.join([str(ROOT / "python"), full.get("PYTHONPATH", "")])
    full.update(env or {})
    proc = subprocess.Popen(
        [sys.executable, "-c", PRELUDE.format(body=body)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=full,
    )
    assert proc.stdout is not None
    # Byte by byte from the pipe itself: readline() could buffer the child's next line too (a work
    # refused at once prints it right after "ready"), and communicate() reads the pipe past that
    # buffer, so the line would be lost.
    line = b""
    while not line.endswith(b"\n"):
        byte = os.read(proc.stdout.fileno(), 1)
        if not byte:
            break
        line += byte
    assert line.strip() == b"ready"
    return proc


def _interrupted(body: str, after: float) -> list[str]:
    """Run ``body``, SIGINT it ``after`` seconds in, and return its last line once it exits."""
    proc = _start(body)
    time.sleep(after)
    assert proc.poll() is None, "the work ended before the interrupt"
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("Ctrl-C was not obeyed within 5 s")
    return out.strip().splitlines()[-1].split()


def _capped(body: str, limit: int) -> list[str]:
    proc = _start(body, {"GRUNDY_MEMORY_LIMIT": str(limit)})
    try:
        out, err = proc.communicate(timeout=90)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("no MemoryError within 90 s under the memory cap")
    return out.strip().splitlines()[-1].split()


def test_misere_quotient_obeys_ctrl_c_inside_a_large_guess() -> None:
    # At heap 16 the guesses of 0.37 grow to tens of thousands of elements: their tables,
    # minimisation and proof used to run for minutes between two looks at Ctrl-C.
    name, _, kept = _interrupted(MISERE_037, after=3.0)
    assert name == "KeyboardInterrupt"
    assert kept == "True"  # the quotient of the heaps before stays on the exception


def test_misere_quotient_stops_with_memory_error_under_a_cap() -> None:
    name, grundy_error, kept = _capped(MISERE_037, 300_000_000)
    assert (name, grundy_error) == ("MemoryLimitError", "True"), name  # a MemoryError, and grundy's
    assert kept == "True"


def test_misere_quotient_refuses_an_absurd_max_heap_at_once() -> None:
    # Nim at 10^6 has 5 * 10^11 options to list: refused from an estimate, not after minutes.
    proc = _start("    gr.misere_quotient(gr.nim(), 10**6, progress=False)")
    try:
        out, _ = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("max_heap = 10**6 was not refused within 20 s")
    assert out.strip().splitlines()[-1].split()[:2] == ["MemoryLimitError", "True"]


def test_state_game_obeys_ctrl_c_while_reading_a_long_option_iterable() -> None:
    name, _, _ = _interrupted(STATE_RANGE, after=1.5)
    assert name == "KeyboardInterrupt"


def test_state_game_misere_search_obeys_ctrl_c() -> None:
    name, _, _ = _interrupted(STATE_MISERE, after=2.0)
    assert name == "KeyboardInterrupt"


def test_state_game_stops_with_memory_error_under_a_cap() -> None:
    name, grundy_error, _ = _capped(STATE_RANGE, 400_000_000)
    assert (name, grundy_error) == ("MemoryLimitError", "True")


def test_misere_search_limit_points_to_the_quotient() -> None:
    kayles = gr.kayles()
    with pytest.raises(gr.SearchLimitError, match=r"gr\.misere_quotient\(game, 25\)") as info:
        gr.Position(kayles, [25] * 40).outcome(misere=True, max_positions=2000)
    assert info.value.limit == 2000
    # The advice holds: the quotient answers, and Position then uses it.
    q = gr.misere_quotient(kayles, 25)
    assert gr.Position(kayles, [25] * 40).outcome(misere=True, max_positions=2000) == q.outcome([25] * 40)


def test_state_game_bar_is_not_full_while_exploring() -> None:
    pytest.importorskip("tqdm")
    bar = Bar(True, "test", " states")
    shown = bar.bar
    try:
        bar.update(999, note="1,000 found")  # one state found and not yet expanded: far from done
        assert shown.total is None
        assert shown.n == 999
    finally:
        bar.close(5000)
    assert (shown.n, shown.total) == (5000, 5000)
