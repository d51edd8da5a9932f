"""Misère quotients: time and memory to build them, and misère sums played through them.

    python benchmarks/misere.py                 # every case, each with a 600 s budget
    python benchmarks/misere.py --budget 120    # a shorter budget per case
    python benchmarks/misere.py --quick         # small heaps only
    python benchmarks/misere.py --max-order 2000  # stop a build whose quotients pass 2000 elements

Each build runs in a child process (so its peak memory is its own) under a time budget; a case
that runs out of budget is reported as such, with the largest heap reached before by a smaller case.
With --max-order a build that passes the bound is reported with the quotient it kept (the heaps
proven before the one it stopped at) and the time it took to stop.
Then: Kayles to heap 600 once its quotient stops growing (the cost of adding heaps that the proof
places without learning), and the outcomes of 10^5 random misère Kayles sums of 10^3 heaps each, on
1 and on 2 threads (RAYON_NUM_THREADS). Timings on a shared machine are noisy: compare the ratios
printed by one run.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

CASE = r"""
import json, resource, sys, time
import grundy as gr
code, top = sys.argv[1], int(sys.argv[2])
bound = int(sys.argv[3]) if len(sys.argv) > 3 else None
t = time.perf_counter()
try:
    q = gr.misere_quotient(gr.TakeAndBreak(code), top, max_order=bound, progress=False)
    stopped = None
except gr.SearchLimitError as e:
    q, stopped = e.quotient, str(e)
dt = time.perf_counter() - t
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"s": dt, "order": q.order, "max_heap": q.max_heap, "growth": q.growth, "stats": q.stats,
                  "rss_mib": rss, "stopped": stopped}))
"""

OUTCOMES = r"""
import sys, time
import numpy as np
import grundy as gr
q = gr.misere_quotient(gr.kayles(), 24, progress=False)
rows = np.random.default_rng(1).integers(0, 25, size=(100_000, 1000)).astype(np.uint64)
t = time.perf_counter()
p = q.outcomes(rows)
print(f"{time.perf_counter() - t:.3f} {int(p.sum())}")
"""


def run_case(code: str, top: int, budget: float, max_order: int | None = None) -> dict | None:
    argv = [sys.executable, "-c", CASE, code, str(top)] + ([] if max_order is None else [str(max_order)])
    try:
        out = subprocess.run(argv, capture_output=True, text=True, timeout=budget, check=True)
    except subprocess.TimeoutExpired:
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--budget", type=float, default=600.0, help="seconds per build (default 600)")
    ap.add_argument("--quick", action="store_true", help="heaps 10 and 20 only, 60 s each")
    ap.add_argument("--max-order", type=int, default=None, help="stop builds past this many elements")
    args = ap.parse_args()
    tops = [10, 20] if args.quick else [10, 20, 25, 27, 30, 33, 34, 40]
    budget = 60.0 if args.quick else args.budget
    print(f"{'game':<16}{'max_heap':>9}{'order':>7}{'seconds':>10}{'peak MiB':>10}  growth / counters")
    for name, code in [("Kayles", "0.77"), ("Dawson's Kayles", "0.07"), ("0.75", "0.75")]:
        for top in tops:
            r = run_case(code, top, budget, args.max_order)
            if r is None:
                print(f"{name:<16}{top:>9}{'':>7}{'> ' + str(int(budget)):>10}{'':>10}  (budget spent)")
                break
            if r["stopped"]:
                print(
                    f"{name:<16}{top:>9}{'':>7}{r['s']:>10.3f}{r['rss_mib']:>10.0f}  stopped: {r['stopped']}; "
                    f"kept heaps up to {r['max_heap']}, order {r['order']}"
                )
                break
            s = r["stats"]
            print(
                f"{name:<16}{top:>9}{r['order']:>7}{r['s']:>10.3f}{r['rss_mib']:>10.0f}  {r['growth'][-3:]} "
                f"queries={s['queries']} searched={s['searched']} proof_states={s['proof_states']} "
                f"refinements={s['refinements']}"
            )
    if not args.quick:
        import grundy as gr

        t = time.perf_counter()
        base = gr.misere_quotient(gr.kayles(), 27, progress=False)
        t27 = time.perf_counter() - t
        t = time.perf_counter()
        q = gr.misere_quotient(gr.kayles(), 600, progress=False)
        t600 = time.perf_counter() - t
        print(
            f"\nKayles to heap 27: {t27:.2f} s (order {base.order}); to heap 600: {t600:.2f} s (order {q.order}): "
            f"heaps 28..600 cost {t600 - t27:.2f} s; pretending function: {q.period}"
        )
    for threads in ("1", "2"):
        env = dict(os.environ, RAYON_NUM_THREADS=threads)
        out = subprocess.run([sys.executable, "-c", OUTCOMES], capture_output=True, text=True, env=env, check=True)
        secs, p = out.stdout.split()
        print(f"10^5 misère Kayles sums of 10^3 heaps, {threads} thread(s): {float(secs):.3f} s ({p} P-positions)")


if __name__ == "__main__":
    main()
