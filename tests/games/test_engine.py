"""Engine behaviour: GIL release, Ctrl-C, caching across threads."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import grundy as gr
from grundy._ui import progress as _progress


@pytest.mark.parametrize("progress", [None, True])
def test_gil_is_released_while_computing(progress):
    ticks = 0
    stop = False

    def count():
        nonlocal ticks
        while not stop:
            ticks += 1
            time.sleep(0.001)

    t = threading.Thread(target=count)
    t.start()
    before = ticks
    gr.TakeAndBreak("0.77", engine="exact").values(60_000, progress=progress, from_period=False)  # tenths of a second
    after = ticks
    stop = True
    t.join()
    assert after - before > 10


def test_two_threads_on_one_game_agree():
    g = gr.TakeAndBreak("0.137")
    out = {}

    def work(i):
        out[i] = g.values(20_000 + i * 1000).tolist()

    ts = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    ref = gr.TakeAndBreak("0.137").values(22_000).tolist()
    for v in out.values():
        assert v == ref[: len(v)]


@pytest.mark.parametrize("progress", [None, True])
def test_ctrl_c_interrupts_within_a_second(progress):
    script = textwrap.dedent(
        """
        import sys, time
        import grundy as gr
        g = gr.TakeAndBreak("0.77", engine="exact")
        print("start", flush=True)
        try:
            g.values(10**7, progress=PROGRESS, from_period=False)
        except KeyboardInterrupt:
            print("interrupted", time.monotonic(), g.computed, flush=True)
            sys.exit(0)
        print("finished", flush=True)
        """
    )
    script = script.replace("PROGRESS", str(progress))
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "start"
    time.sleep(1.0)
    sent = time.monotonic()
    os.kill(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=30)
    word, when, computed = out.split()
    assert word == "interrupted"
    assert float(when) - sent < 1.0
    assert int(computed) > 0
    if progress:  # the bar was drawn towards the target
        assert "0.77" in err and "/10.0M" in err


def test_progress_bar_counts_to_the_end(capsys):
    gr.TakeAndBreak("0.137").values(5000, progress=True)
    err = capsys.readouterr().err
    assert "0.137" in err and "5.00k/5.00k" in err and "100%" in err
    # Already computed: no bar.
    gr.TakeAndBreak("0.137").values(0, progress=True)
    assert capsys.readouterr().err == ""


def test_no_bar_when_asked_or_when_quick(capsys, monkeypatch):
    gr.TakeAndBreak("0.137").values(40_000, progress=False)
    gr.TakeAndBreak("0.137").values(3000)  # auto: well under a second
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(_progress, "AUTO_DELAY", 0.0)  # auto now shows at the first report
    gr.TakeAndBreak("0.137").values(40_000)
    assert "40.0k/40.0k" in capsys.readouterr().err


def test_periodicity_progress_follows_the_growing_target(capsys):
    p = gr.TakeAndBreak("0.45").periodicity(progress=True)  # several doublings
    err = capsys.readouterr().err
    assert "0.45: periodicity" in err and f"/{p.checked_to / 1000:.2f}k" in err


def test_seed_binding_checks_its_input():
    from grundy import _core

    seq = _core.HeapCore.take_and_break("0.77")
    want = gr.kayles().values(500).astype(np.uint32)
    seq.seed(want)
    assert len(seq) == 500 and seq.array(0, 500).tolist() == want.tolist()
    with pytest.raises(ValueError, match="empty"):
        seq.seed(want)
    bad = want.copy()
    bad[-3] += 1
    with pytest.raises(ValueError, match=r"G\(497\)"):
        _core.HeapCore.take_and_break("0.77").seed(bad)
    with pytest.raises(TypeError):
        _core.HeapCore.take_and_break("0.77").seed(want.astype(np.float64))
