"""Wall time of family surveys.

    python benchmarks/survey.py            # "0.??" and "0.???" with max_n = 2^16
"""

from __future__ import annotations

import argparse
import time

import grundy as gr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("patterns", nargs="*", default=["0.??", "0.???"])
    ap.add_argument("--max-n", type=int, default=2**16)
    args = ap.parse_args()
    for pattern in args.patterns:
        t = time.perf_counter()
        df = gr.survey(pattern, max_n=args.max_n, progress=False)
        dt = time.perf_counter() - t
        proven = int(df.proven.fillna(False).sum())
        print(f"{pattern:<8} games={len(df):<5} proven={proven:<5} unresolved={len(df) - proven:<4} "
              f"seconds={dt:.1f}  slowest={df.seconds.max():.1f}s ({df.code[df.seconds.idxmax()]})", flush=True)


if __name__ == "__main__":
    main()
