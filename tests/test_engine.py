"""Engine behaviour: GIL release, Ctrl-C, caching across threads."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import grundy as gr


def test_gil_is_released_while_computing():
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
    gr.TakeAndBreak("0.77", engine="exact").values(60_000)  # several tenths of a second of Rust
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


def test_ctrl_c_interrupts_within_a_second():
    script = textwrap.dedent(
        """
        import sys, time
        import grundy as gr
        g = gr.TakeAndBreak("0.77", engine="exact")
        print("start", flush=True)
        try:
            g.values(10**7)
        except KeyboardInterrupt:
            print("interrupted", time.monotonic(), g.computed, flush=True)
            sys.exit(0)
        print("finished", flush=True)
        """
    )
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "start"
    time.sleep(1.0)
    sent = time.monotonic()
    os.kill(p.pid, signal.SIGINT)
    out, _ = p.communicate(timeout=30)
    word, when, computed = out.split()
    assert word == "interrupted"
    assert float(when) - sent < 1.0
    assert int(computed) > 0
