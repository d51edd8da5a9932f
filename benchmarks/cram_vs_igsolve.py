"""Cram side by side: grundy's nimber search (``benches/board_bench.rs``) and, when given,
igsolve (``beling/impartial-games``, built outside the repository), run alternately.

Each board is solved ``--runs`` times by each program, one after the other (ours, igsolve, ours,
igsolve, ...), and the median of each program's own time is reported (ours: the wall time the
bench prints; igsolve: its "Calculation time"), with the median CPU time of each process (user
and system, which another job sharing the cores inflates less). The values must agree.

Usage (from the repository root; the bench is built first, see ``rust_bench.py``)::

    python benchmarks/cram_vs_igsolve.py 4x7 5x6 5x7 --igsolve /path/to/igsolve --runs 3
    python benchmarks/cram_vs_igsolve.py 4x11 --budget 512 --timeout 120

Prints a Markdown table: board, nimber, then time (and CPU time) of each program.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys

UNITS = {"s": 1.0, "ms": 1e-3, "µs": 1e-6, "us": 1e-6, "ns": 1e-9}


def cpu_of(cmd: list[str], timeout: float) -> tuple[str, float] | None:
    """Output and CPU seconds (user + system) of `cmd`, or None when it runs past `timeout`."""
    before = os.times()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return None
    after = os.times()
    # The child is reaped: its CPU time is in the counters of finished children.
    return out, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def ours(bench: str, rows: int, cols: int, extra: list[str], timeout: float) -> tuple[int, float, float] | None:
    r = cpu_of([bench, "cram", str(rows), str(cols), *extra], timeout)
    if r is None:
        return None
    out, cpu = r
    m = re.search(r"value (\d+)\s+time ([0-9.]+) s", out)
    if not m:
        sys.exit(f"unexpected output of {bench}: {out!r}")
    return int(m.group(1)), float(m.group(2)), cpu


def igsolve(path: str, rows: int, cols: int, timeout: float) -> tuple[int, float, float] | None:
    r = cpu_of([path, "cram", str(rows), str(cols)], timeout)
    if r is None:
        return None
    out, cpu = r
    v = re.search(r"Nimber of initial position: (\d+)", out)
    t = re.search(r"Calculation time: ([0-9.]+)\s*(s|ms|µs|us|ns)", out)
    if not (v and t):
        sys.exit(f"unexpected output of {path}: {out!r}")
    return int(v.group(1)), float(t.group(1)) * UNITS[t.group(2)], cpu


def fmt(times: list[tuple[int, float, float] | None], timeout: float) -> str:
    done = [t for t in times if t is not None]
    if len(done) < len(times):
        return f"> {timeout:g} s"
    wall = statistics.median(t[1] for t in done)
    cpu = statistics.median(t[2] for t in done)
    return f"{wall:.3g} s (CPU {cpu:.3g} s)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("boards", nargs="+", help="boards as RxC, e.g. 5x7")
    ap.add_argument("--igsolve", help="path of the igsolve binary (optional)")
    ap.add_argument("--bench", help="the board_bench executable (default: built by rust_bench.py)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--budget", type=int, help="our table budget in MiB (the bench's default: 64)")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per run")
    args = ap.parse_args()
    if args.bench is None:
        from rust_bench import executable

        args.bench = executable("board_bench")
    extra = ["--budget", str(args.budget)] if args.budget else []
    head = "| Cram | nimber | grundy |" + (" igsolve |" if args.igsolve else "")
    print(head)
    print("|---|---|---|" + ("---|" if args.igsolve else ""))
    for board in args.boards:
        rows, cols = (int(x) for x in board.lower().split("x"))
        a: list[tuple[int, float, float] | None] = []
        b: list[tuple[int, float, float] | None] = []
        for _ in range(args.runs):
            a.append(ours(args.bench, rows, cols, extra, args.timeout))
            if args.igsolve:
                b.append(igsolve(args.igsolve, rows, cols, args.timeout))
        values = {t[0] for t in a + b if t is not None}
        if len(values) > 1:
            sys.exit(f"{board}: the values differ: {sorted(values)}")
        value = values.pop() if values else "?"
        row = f"| {rows}x{cols} | {value} | {fmt(a, args.timeout)} |"
        if args.igsolve:
            row += f" {fmt(b, args.timeout)} |"
        print(row, flush=True)


if __name__ == "__main__":
    main()
