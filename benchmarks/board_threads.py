"""The board search on 1 and more threads (issue 40): Cram 5x8, 5x9 and 4x11 by default.

Runs ``benches/board_parallel_bench.rs`` on each board, the thread counts one after the other,
``--runs`` rounds (1, 2, 1, 2, ...: alternating, so a load that comes and goes hits every count
alike), and prints per board and thread count the median wall time, the median CPU time of the
process, the speed-up over the first thread count, and the nodes searched (median, and the
spread) with their ratio to the first count's, and the CPU time per node. Times depend on the
load (and two threads' nodes a little): the load average is printed before and after, with
``scaling.calibrate``'s ratio of two fixed loops on two processes to one (2.00 when both cores
are free).

Usage (from the repository root; the bench is built first, by ``rust_bench.py``)::

    python benchmarks/board_threads.py                       # 5x8 5x9 4x11, threads 1 2, 3 runs
    python benchmarks/board_threads.py 5x8 --threads 1 2 3 4 --runs 5
    python benchmarks/board_threads.py 5x8 --side                # and two 1-thread runs at once

The table budget is 64 MiB, 512 MiB for 5x9 (``--budget`` sets one for every board).

``--side`` adds, each round, two one-thread searches run side by side (two processes, each its
own table): their CPU time per node against one alone tells what two cores cost each other
without sharing a table (the row "1 x2").
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys

from rust_bench import load_average
from scaling import calibrate

#: The board_parallel_bench executable: $BOARD_PARALLEL_BENCH, else built by rust_bench.py in main().
BENCH = os.environ.get("BOARD_PARALLEL_BENCH", "")
BUDGETS = {"5x9": 512}


def run(rows: int, cols: int, threads: int, budget: int, side: int = 1) -> list[tuple[int, float, float, int]]:
    """Value, wall seconds, CPU seconds and nodes of each of ``side`` searches run at once."""
    cmd = [BENCH, str(rows), str(cols), "--threads", str(threads), "--budget", str(budget)]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True) for _ in range(side)]
    got = []
    for p in procs:
        # Each child's own CPU time (its output, a few lines, fits in the pipe meanwhile).
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
        out = p.stdout.read() if p.stdout else ""
        m = re.search(r"value (\d+)\s+time ([0-9.]+) s\s+nodes (\d+)", out)
        if not m or p.returncode:
            sys.exit(f"unexpected output of {BENCH}: {out!r}")
        got.append((int(m.group(1)), float(m.group(2)), usage.ru_utime + usage.ru_stime, int(m.group(3))))
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("boards", nargs="*", default=["5x8", "5x9", "4x11"])
    ap.add_argument("--threads", nargs="+", type=int, default=[1, 2])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--budget", type=int, help="MiB (default 64, 512 for 5x9)")
    ap.add_argument("--side", action="store_true", help="also two one-thread searches side by side")
    args = ap.parse_args()
    global BENCH
    if not BENCH:
        from rust_bench import executable

        BENCH = executable("board_parallel_bench")
    print(f"load average before: {load_average()}, fixed-loop calibration {calibrate():.2f} (2.00: two idle cores)")
    print(
        "| Cram | threads | time (median) | CPU (median) | speed-up | nodes (median) | nodes spread | nodes ratio "
        "| CPU per node (median) |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for board in args.boards:
        rows, cols = (int(x) for x in board.split("x"))
        budget = args.budget or BUDGETS.get(board, 64)
        rows_of = [str(t) for t in args.threads] + (["1 x2"] if args.side else [])
        got: dict[str, list[tuple[int, float, float, int]]] = {k: [] for k in rows_of}
        for _ in range(args.runs):
            for t in args.threads:
                got[str(t)] += run(rows, cols, t, budget)
            if args.side:
                got["1 x2"] += run(rows, cols, 1, budget, side=2)
        values = {v for rs in got.values() for v, *_ in rs}
        if len(values) != 1:
            sys.exit(f"Cram {board}: values differ between thread counts: {got}")
        base = rows_of[0]
        t0 = statistics.median(r[1] for r in got[base])
        n0 = statistics.median(r[3] for r in got[base])
        for t in rows_of:
            wall = statistics.median(r[1] for r in got[t])
            cpu = statistics.median(r[2] for r in got[t])
            nodes = [r[3] for r in got[t]]
            n = statistics.median(nodes)
            per = statistics.median(r[2] / r[3] * 1e9 for r in got[t])
            print(
                f"| {board} | {t} | {wall:.3f} s | {cpu:.2f} s | {t0 / wall:.2f}x | {n:,.0f} | "
                f"{min(nodes):,} to {max(nodes):,} | {n / n0:.3f} | {per:,.0f} ns |"
            )
        sys.stdout.flush()
    print(f"load average after: {load_average()}, fixed-loop calibration {calibrate():.2f}")


if __name__ == "__main__":
    main()
