"""Thread counts are input too: a huge ``threads=`` is capped at the processors, never a hang.

Every ``threads=`` the bindings take (sequences, game graphs) builds a pool of at most one thread
per processor; 0 is an ArgumentError (a ValueError); the values never depend on the count.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import grundy as gr
from grundy import _core

HUGE = 10**6


def _threads_now() -> int | None:
    """Threads of this process, from /proc (None where there is no /proc)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return None


def test_huge_thread_count_computes_the_same_values():
    want = gr.TakeAndBreak("0.77", engine="exact").values(500, threads=1)
    for engine in ("sparse", "exact"):
        got = gr.TakeAndBreak("0.77", engine=engine).values(500, threads=HUGE, from_period=False)
        assert got.tolist() == want.tolist()


def test_huge_thread_count_on_subtraction_and_callables():
    want = gr.Subtraction([1, 3, 4]).values(300, threads=1)
    assert gr.Subtraction([1, 3, 4]).values(300, threads=HUGE).tolist() == want.tolist()
    # A callable rule: "remove 1, 3 or 4", evaluated by Python.
    rule = gr.Subtraction(allowed=lambda n, k: k in (1, 3, 4))
    assert rule.values(300, threads=HUGE).tolist() == want.tolist()


def test_huge_thread_count_for_periodicity():
    p = gr.kayles().periodicity(threads=HUGE)
    assert (p.preperiod, p.period) == (71, 12)


def test_huge_thread_count_on_a_game_graph():
    # A path 0 <- 1 <- 2 <- ... : G(v) = v % 2.
    n = 1000
    src = np.arange(1, n, dtype=np.int64)
    g = _core.Graph.from_arrays(n, src, src - 1)
    assert g.values(HUGE).tolist() == [v % 2 for v in range(n)]
    labelled = gr.GameGraph([(v, v - 1) for v in range(1, n)])
    vals = labelled.values(threads=HUGE)
    assert [int(vals[labelled.vertex(v)]) for v in range(n)] == [v % 2 for v in range(n)]


def test_pool_is_at_most_one_thread_per_processor():
    gr.TakeAndBreak("0.77", engine="sparse").values(3000)  # rayon's global pool starts here, not below
    before = _threads_now()
    if before is None:
        pytest.skip("no /proc to count threads")
    seen: list[int] = []

    def allowed(n: int, k: int) -> bool:
        if n % 50 == 0 and k == 1:
            seen.append(_threads_now() or 0)
        return k <= 2

    gr.Subtraction(allowed=allowed).values(400, threads=HUGE)
    assert seen
    # The pool's threads plus the helper thread that runs it while this one polls Ctrl-C.
    assert max(seen) <= before + (os.cpu_count() or 1) + 2


def test_zero_threads_is_a_value_error_in_the_core_too():
    seq = _core.HeapCore.take_and_break("0.77")
    with pytest.raises(ValueError, match="threads must be at least 1"):
        seq.extend(10, None, 0)
    g = _core.Graph.from_arrays(2, np.array([1], np.int64), np.array([0], np.int64))
    with pytest.raises(ValueError, match="threads must be at least 1"):
        g.values(0)


# -- issue 32, fault 1: every API that takes threads=, with 0, -1, 10**6 and 2**70 --------------------
# Each runs in a fresh interpreter bounded by a timeout: on main, generalized_values(threads=10**6)
# started 10**6 threads and never answered, and 2**70 raised a raw OverflowError.
THREAD_APIS = {
    "Game.values": "gr.kayles().values(300, threads=t)",
    "Game.values (callable rule)": "gr.Subtraction(allowed=lambda n, k: k <= 2).values(50, threads=t)",
    "Game.periodicity": "gr.kayles().periodicity(threads=t)",
    "GameGraph.values": "gr.GameGraph([(1, 0), (2, 1)]).values(threads=t)",
    "GameGraph.generalized_values": "gr.GameGraph([(0, 1), (1, 0), (1, 2)]).generalized_values(threads=t)",
    "StateGame": "gr.StateGame(lambda s: [s - 1] if s else [], threads=t).value(20)",
    "TwoHeapGame": "gr.TwoHeapGame([(1, 0), (0, 1)], threads=t).grid(20, 20)",
    "wythoff grid": "gr.TwoHeapGame([(1, 0), (0, 1), (1, 1)], unbounded=True, threads=t).grid(30, 30)",
}
THREAD_COUNTS = {"0": 0, "-1": -1, "10**6": 10**6, "2**70": 2**70}

_PROBE = """
import sys
import grundy as gr
for label, t in {counts}.items():
    try:
        {call}
        print(label, "ok")
    except gr.GrundyError as e:
        print(label, "error", type(e).__name__, isinstance(e, ValueError))
    except BaseException as e:
        print(label, "foreign", type(e).__name__, e)
"""


THREAD_APIS["survey"] = 'gr.survey(["0.7", "0.6"], max_n=64, threads=t, progress=False)'
@pytest.mark.parametrize("api", list(THREAD_APIS))
def test_every_thread_count_is_refused_or_capped_at_once(api):
    import subprocess
    import sys

    code = _PROBE.format(counts=repr(THREAD_COUNTS), call=THREAD_APIS[api])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    try:
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=30, env=env, check=False
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{api}: a thread count did not answer within 30 s (a pool of every size asked?)")
    assert out.returncode == 0, out.stderr[-2000:]
    got = dict(line.split(" ", 1) for line in out.stdout.splitlines())
    # 0 and -1: a clear ArgumentError (a ValueError); 10**6 and 2**70: capped, so computed.
    assert got["0"] == "error ArgumentError True", got
    assert got["-1"] == "error ArgumentError True", got
    assert got["10**6"] == "ok", got
    assert got["2**70"] == "ok", got


def test_the_cap_is_the_same_for_every_engine():
    from grundy._ui.progress import _check_threads

    cap = _core.max_threads()
    assert cap >= 1
    assert _check_threads(10**6) == cap and _check_threads(2**70) == cap
    assert _check_threads(1) == 1 and _check_threads(None) is None
    with pytest.raises(gr.ArgumentError):
        _check_threads(0)
    with pytest.raises(gr.ArgumentTypeError):
        _check_threads(2.0)
