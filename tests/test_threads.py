"""Thread counts are input too: a huge ``threads=`` is capped at the processors, never a hang.

Every ``threads=`` the bindings take (sequences, game graphs) builds a pool of at most one thread
per processor; 0 is a ValueError; the values never depend on the count.
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
    seq = _core.Sequence.take_and_break("0.77")
    with pytest.raises(ValueError, match="threads must be at least 1"):
        seq.extend(10, None, 0)
    g = _core.Graph.from_arrays(2, np.array([1], np.int64), np.array([0], np.int64))
    with pytest.raises(ValueError, match="threads must be at least 1"):
        g.values(0)
