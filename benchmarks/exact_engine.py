"""Values per second of the exact engine (mex over every option), forced with engine="exact".

    python benchmarks/exact_engine.py            # Kayles to 10^6, Grundy's game to 10^5, ...
    python benchmarks/exact_engine.py --quick    # smaller sizes, for a smoke run
"""

from __future__ import annotations

import argparse
import os
import resource
import time

import grundy as gr

CASES = [
    ("Kayles 0.77", lambda: gr.TakeAndBreak("0.77", engine="exact"), 10**6),
    ("Grundy's game 4!.0", lambda: gr.TakeAndBreak("4!.0", engine="exact"), 10**5),
    ("Dawson's chess 0.137", lambda: gr.TakeAndBreak("0.137", engine="exact"), 10**6),
    ("Nim 0.[3]", lambda: gr.nim(), 10**7),
    ("subtract {1..50}", lambda: gr.Subtraction(range(1, 51)), 10**7),
    ("subtract a square", lambda: gr.Subtraction.squares(), 10**6),
    ("remove at most half", lambda: gr.Subtraction.at_most_half(), 10**7),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="divide every size by 10")
    args = ap.parse_args()
    print(f"threads: {os.environ.get('RAYON_NUM_THREADS', os.cpu_count())}")
    print(f"{'case':<24}{'n':>12}{'seconds':>10}{'values/s':>14}")
    for name, make, n in CASES:
        if args.quick:
            n //= 10
        game = make()
        t = time.perf_counter()
        game.values(n)
        dt = time.perf_counter() - t
        print(f"{name:<24}{n:>12,}{dt:>10.2f}{n / dt:>14,.0f}", flush=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
