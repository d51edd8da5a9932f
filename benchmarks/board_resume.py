"""Stop and resume a board search: a fresh run, then a run killed (kill -9) part way and resumed from its checkpoint.

Prints the fresh run's time and nodes; the killed run's time before the kill and the age of its last
checkpoint; the resumed run's time, nodes and value. The target of issue 41: the time before the
kill's last checkpoint plus the resumed run is at most the fresh run's time plus the interval, with
the same value.

    python benchmarks/board_resume.py cram 5 9 --every 5 --kill-at 0.6
    python benchmarks/board_resume.py node_kayles 3 28 --every 2 --kill-at 0.5 --threads 2

``--kill-at`` is the fraction of the fresh run's time at which the run is killed.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

import grundy as gr
from grundy import _core

_CHILD = """
import sys
sys.path.insert(0, sys.argv[1])
from board_resume import make
kind, rows, cols, path, every, threads, memory = sys.argv[2:]
g = make(kind, int(rows), int(cols), int(memory))
print(g.value(threads=int(threads), checkpoint=path, checkpoint_every=float(every)), flush=True)
"""


def make(kind: str, rows: int, cols: int, memory: int) -> gr.BoardGame:
    if kind == "node_kayles":
        return gr.node_kayles(grid=(rows, cols), memory=memory)
    return getattr(gr, kind)(rows, cols, memory=memory)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kind", choices=["cram", "node_kayles", "arc_kayles", "chomp"])
    ap.add_argument("rows", type=int)
    ap.add_argument("cols", type=int)
    ap.add_argument("--every", type=float, default=5.0, help="seconds between checkpoints")
    ap.add_argument("--kill-at", type=float, default=0.6, help="kill after this fraction of the fresh time")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--memory", type=int, default=256, help="MiB of table")
    a = ap.parse_args()
    memory = a.memory << 20
    g = make(a.kind, a.rows, a.cols, memory)
    t = time.perf_counter()
    want = g.value(threads=a.threads)
    fresh = time.perf_counter() - t
    nodes = g.stats()["nodes"]
    print(f"{a.kind} {a.rows}x{a.cols}: fresh value {want} in {fresh:.2f} s, {nodes:,} nodes ({a.threads} threads)")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "search.ckpt")
        args = [a.kind, str(a.rows), str(a.cols), path, str(a.every), str(a.threads), str(memory)]
        t = time.perf_counter()
        here = os.path.dirname(os.path.abspath(__file__))
        child = subprocess.Popen([sys.executable, "-c", _CHILD, here, *args], stdout=subprocess.PIPE)
        while time.perf_counter() - t < a.kill_at * fresh and child.poll() is None:
            time.sleep(0.01)
        if child.poll() is not None:
            print("the run ended before the kill: give a smaller --kill-at")
            return
        child.send_signal(signal.SIGKILL)
        child.wait()
        killed = time.perf_counter() - t
        if not os.path.exists(path):
            print(f"killed after {killed:.2f} s, before its first checkpoint: give a smaller --every")
            return
        age = time.time() - os.stat(path).st_mtime
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            record = json.loads(_core.checkpoint_header(f)[1])
        before = record["nodes"]
        print(
            f"killed after {killed:.2f} s; its last checkpoint {age:.2f} s old, {size / 2**20:.1f} MiB, "
            f"{before:,} nodes searched by then"
        )
        r = make(a.kind, a.rows, a.cols, memory)
        t = time.perf_counter()
        v = r.value(threads=a.threads, checkpoint=path, checkpoint_every=3600)
        resumed = time.perf_counter() - t
        print(
            f"resumed: value {v} ({'same' if v == want else 'DIFFERENT'}) in {resumed:.2f} s, "
            f"{r.stats()['nodes']:,} nodes; before the kill's checkpoint + resumed = {killed - age + resumed:.2f} s "
            f"against fresh + interval = {fresh + a.every:.2f} s; nodes {before + r.stats()['nodes']:,} against "
            f"{nodes:,}"
        )


if __name__ == "__main__":
    main()
