"""The Python layer's cost on the calls users make most: values, periodicity, winning moves.

    python benchmarks/python_layer.py                      # this checkout's package
    python benchmarks/python_layer.py --against OLD/python --rounds 7
                                                          # alternating runs of two trees: medians

Each case runs in a fresh interpreter (so no cache of one run helps the next), and with
``--against`` the two package trees alternate case by case, round by round, so that a change in the
machine's load falls on both. Use it to check that a reorganisation of the Python package left its
speed unchanged. Both trees must hold a compiled ``grundy/_core.abi3.so``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

#: name -> (setup, timed statement): the statement is timed once, after the setup, in a new process.
CASES = {
    "values: Kayles to 2^22, no period filling": (
        "g = gr.kayles()",
        "g.values(2**22, progress=False, from_period=False)",
    ),
    "values: 0.6 to 2^20": ("g = gr.TakeAndBreak('0.6')", "g.values(2**20, progress=False)"),
    "value: 10^5 calls": ("g = gr.kayles(); g.values(100)", "[g.value(i % 100) for i in range(10**5)]"),
    "periodicity: 0.354 proven": ("g = gr.TakeAndBreak('0.354')", "g.periodicity(progress=False)"),
    "periodicity: Kayles, 1000 fresh games": ("", "[gr.kayles().periodicity() for _ in range(1000)]"),
    "winning_moves: Kayles, 10^5 heaps": (
        "import numpy as np; g = gr.kayles(); g.periodicity(); "
        "p = gr.Position(g, np.random.default_rng(0).integers(1, 10**6, 10**5))",
        "p.winning_moves()",
    ),
    "winning_moves: 2000 small Kayles sums": (
        "g = gr.kayles(); ps = [gr.Position(g, [a, b, 7]) for a in range(40) for b in range(50)]",
        "[p.winning_moves() for p in ps]",
    ),
    "winning_moves: misère Kayles [5, 9, 12]": (
        "g = gr.kayles()",
        "gr.Position(g, [5, 9, 12]).winning_moves(misere=True)",
    ),
}

_RUN = """
import time, grundy as gr
{setup}
t = time.perf_counter()
{stmt}
print(time.perf_counter() - t)
"""


def run(tree: str, case: str) -> float:
    setup, stmt = CASES[case]
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run(
        [sys.executable, "-c", _RUN.format(setup=setup, stmt=stmt)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=HERE,
    )
    return float(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--against", help="another package tree (a folder holding grundy/) to compare with")
    ap.add_argument("--rounds", type=int, default=5, help="runs of each case and tree (default 5)")
    args = ap.parse_args()
    ours = os.path.join(os.path.dirname(HERE), "python")
    trees = [ours] + ([os.path.abspath(args.against)] if args.against else [])
    times: dict[tuple[str, str], list[float]] = {}
    for r in range(args.rounds):
        for case in CASES:
            for tree in trees if r % 2 == 0 else trees[::-1]:
                times.setdefault((case, tree), []).append(run(tree, case))
    print(f"{os.cpu_count()} CPUs, medians of {args.rounds} alternating runs, seconds")
    head = f"{'case':42} {'this tree':>10}" + (f" {'against':>10} {'ratio':>7}" if args.against else "")
    print(head)
    for case in CASES:
        a = statistics.median(times[(case, ours)])
        line = f"{case:42} {a:10.4f}"
        if args.against:
            b = statistics.median(times[(case, trees[1])])
            line += f" {b:10.4f} {a / b:7.3f}"
        print(line)


if __name__ == "__main__":
    main()
