"""The sparse-space engine: identical to the exact engine for any thread count."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy as gr


@st.composite
def octal_codes(draw):
    digits = draw(st.lists(st.integers(0, 7), min_size=1, max_size=4))
    d0 = draw(st.sampled_from(["0", "4", "4!"]))
    bang = draw(st.lists(st.booleans(), min_size=len(digits), max_size=len(digits)))
    return d0 + "." + "".join(f"{d}" + ("!" if b and d >= 4 else "") for d, b in zip(digits, bang, strict=True))


@settings(max_examples=40, deadline=None)
@given(octal_codes(), st.integers(1, 4))
def test_sparse_equals_exact(code, threads):
    n = 3000
    exact = gr.TakeAndBreak(code, engine="exact").values(n)
    fast = gr.TakeAndBreak(code, engine="sparse").values(n, threads=threads)
    assert (exact == fast).all(), code


@pytest.mark.parametrize("code", ["4!.0", "0.16", "0.137", "0.354", "0.156"])
def test_long_runs_equal_for_1_to_4_threads(code):
    n = 60_000
    ref = gr.TakeAndBreak(code, engine="exact").values(20_000)
    runs = [gr.TakeAndBreak(code).values(n, threads=t) for t in (1, 2, 3, 4)]
    assert (runs[0][:20_000] == ref).all()
    for r in runs[1:]:
        assert (r == runs[0]).all()


def test_auto_picks_sparse_only_where_it_applies():
    assert gr.TakeAndBreak("0.77").engine == "auto"
    # Hexadecimal and repeated codes fall back to the exact engine under "auto" ...
    assert gr.TakeAndBreak("0.4F").values(50).tolist() == gr.TakeAndBreak("0.4F", engine="exact").values(50).tolist()
    assert gr.TakeAndBreak("0.[3]").values(10).tolist() == list(range(10))
    # ... and refuse a forced sparse engine.
    with pytest.raises(ValueError, match="sparse"):
        gr.TakeAndBreak("0.4F", engine="sparse")
    with pytest.raises(ValueError, match="sparse"):
        gr.TakeAndBreak("0.[7]", engine="sparse")
    with pytest.raises(ValueError, match="engine"):
        gr.TakeAndBreak("0.77", engine="fast")


def test_grundys_game_values_exceed_255_and_rare_positions():
    # Values pass 255 before 2^24; 2^20 values keep the published sparse structure.
    g = gr.grundys_game()
    v = g.values(2**20, threads=2)
    assert int(v.max()) > 100
    s = g.sparse_space(2**20)
    assert s.rare_positions[:16].tolist() == [0, 1, 2, 3, 4, 6, 7, 9, 10, 12, 15, 20, 23, 26, 28, 31]
    assert s.last_rare < 2**20


def test_bad_threads():
    with pytest.raises(ValueError):
        gr.kayles().values(10, threads=0)
    with pytest.raises(ValueError):
        gr.kayles().values(10, threads=-1)
    with pytest.raises(TypeError):
        gr.kayles().values(10, threads=1.5)


@pytest.mark.parametrize("threads", ["None", "2"])
def test_ctrl_c_with_threads(threads):
    script = textwrap.dedent(
        f"""
        import sys, time
        import grundy as gr
        g = gr.grundys_game()
        print("start", flush=True)
        try:
            g.values(2**28, threads={threads})
        except KeyboardInterrupt:
            print("interrupted", time.monotonic(), g.computed, flush=True)
            sys.exit(0)
        print("finished", flush=True)
        """
    )
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "start"
    time.sleep(1.5)
    sent = time.monotonic()
    os.kill(p.pid, signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    word, when, computed = out.split()
    assert word == "interrupted"
    assert float(when) - sent < 1.0
    assert int(computed) > 0
