"""Cram 5 x 8 mid-game positions against the start (issue 42, row 3): value, nodes, seconds.

Runs ``benches/board_bench.rs`` (one search thread, a fresh 64 MiB table per position) on the
empty board and on positions with two cells blocked: the issue's two, (0,0)+(4,7) and (1,1)+(3,6),
and ``--random N`` more, each a pair of distinct cells drawn with ``--seed`` (default 10). Prints
per position the value, the nodes, the search's seconds (median of ``--runs`` runs, alternating with
the start's) and both as a ratio to the start's. Node counts do not depend on the load, times do:
the load average is printed before and after.

Usage (from the repository root; the bench is built first, by ``rust_bench.py``)::

    python benchmarks/board_midgame.py                     # the start, the two, 10 random pairs
    python benchmarks/board_midgame.py --random 4 --runs 3
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys

from rust_bench import load_average

#: The board_bench executable: $BOARD_BENCH, else built by rust_bench.py in main().
BENCH = os.environ.get("BOARD_BENCH", "")
ROWS, COLS = 5, 8
ISSUE = [((0, 0), (4, 7)), ((1, 1), (3, 6))]


def run(blocked: tuple[tuple[int, int], ...], budget: int) -> tuple[int, float, int]:
    """Value, seconds of the search and nodes of one search of the board less ``blocked``."""
    cmd = [BENCH, "cram", str(ROWS), str(COLS), "--budget", str(budget)]
    for r, c in blocked:
        cmd += ["--block", f"{r}:{c}"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    m = re.search(r"value (\d+)\s+time ([0-9.]+) s.*nodes (\d+)", out)
    if not m:
        sys.exit(f"unexpected output of {BENCH}: {out!r}")
    return int(m.group(1)), float(m.group(2)), int(m.group(3))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--random", type=int, default=10, help="random pairs of blocked cells (default 10)")
    ap.add_argument("--seed", type=int, default=10)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--budget", type=int, default=64, help="MiB (default 64)")
    args = ap.parse_args()
    global BENCH
    if not BENCH:
        from rust_bench import executable

        BENCH = executable("board_bench")
    rng = random.Random(args.seed)
    cells = [(r, c) for r in range(ROWS) for c in range(COLS)]
    positions: list[tuple[tuple[int, int], ...]] = [tuple(p) for p in ISSUE]
    while len(positions) < len(ISSUE) + args.random:
        pair = tuple(sorted(rng.sample(cells, 2)))
        if pair not in positions:
            positions.append(pair)
    print(f"load average before: {load_average()}")
    print(f"Cram {ROWS} x {COLS}, one thread, {args.budget} MiB, median of {args.runs} run(s)")
    print("| blocked | value | nodes | seconds | nodes / start | seconds / start |")
    print("|---|---|---|---|---|---|")
    # The start first, then each position alternating with the start (so that a load that comes
    # and goes hits both alike); ratios to the median of the start's runs so far.
    starts = [run((), args.budget)]
    print(f"| none (the start) | {starts[0][0]} | {starts[0][2]:,} | {starts[0][1]:.2f} | 1.00 | 1.00 |")
    for blocked in positions:
        got = []
        for _ in range(args.runs):
            got.append(run(blocked, args.budget))
            starts.append(run((), args.budget))
        if len({v for v, _, _ in starts}) != 1 or len({v for v, _, _ in got}) != 1:
            sys.exit(f"values differ between runs: {starts} {got}")
        t0 = statistics.median(t for _, t, _ in starts)
        n0 = statistics.median(n for _, _, n in starts)
        t = statistics.median(t for _, t, _ in got)
        n = statistics.median(n for _, _, n in got)
        name = " + ".join(f"({r},{c})" for r, c in blocked)
        print(f"| {name} | {got[0][0]} | {n:,.0f} | {t:.2f} | {n / n0:.2f} | {t / t0:.2f} |")
        sys.stdout.flush()
    t0 = statistics.median(t for _, t, _ in starts)
    print(f"the start: {len(starts)} runs, median {t0:.2f} s")
    print(f"load average after: {load_average()}")


if __name__ == "__main__":
    main()
