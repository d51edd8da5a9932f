"""Time to find and prove the period of each game of the published table.

    python benchmarks/periodicity.py
"""

from __future__ import annotations

import time

import grundy as gr

TABLE = [
    ("0.77", 71, 12),
    ("0.137", 52, 34),
    ("0.07", 53, 34),
    ("0.7777", 142, 24),
    ("0.45", 498, 20),
    ("0.156", 3479, 349),
    ("0.356", 7315, 142),
    ("0.644", 3256, 442),
    ("0.165", 5181, 1550),
    ("0.16", 105351, 149459),
]


def main() -> None:
    print(f"{'code':<8}{'preperiod':>10}{'period':>8}{'proven':>8}{'checked_to':>12}{'seconds':>10}  published")
    for code, pre, per in TABLE:
        g = gr.TakeAndBreak(code)
        t = time.perf_counter()
        p = g.periodicity(max_n=2**21)
        dt = time.perf_counter() - t
        ok = "ok" if (p.preperiod, p.period, p.proven) == (pre, per, True) else f"MISMATCH ({pre}, {per})"
        figures = f"{p.preperiod!s:>10}{p.period!s:>8}{p.proven!s:>8}{p.checked_to:>12}{dt:>10.3f}"
        print(f"{code:<8}{figures}  {ok}", flush=True)


if __name__ == "__main__":
    main()
