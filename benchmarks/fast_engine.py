"""The fast engine against the targets: wall time, values/s, ns/value, peak memory, thread ratio.

    python benchmarks/fast_engine.py                 # every case, 1 and 2 threads
    python benchmarks/fast_engine.py grundy-2^24     # one case
    python benchmarks/fast_engine.py grundy-2^24 --threads 1 2 4 8 16   # thread scaling
    python benchmarks/fast_engine.py grundy-2^28 --threads 2   # the stretch target (not run by default)
    python benchmarks/fast_engine.py 0.1777-proven             # issue 16's hardest proof (not run by default)
    python benchmarks/fast_engine.py 0.354-2^21-engine --repeat 5   # medians of 5 alternating runs

Each run happens in a fresh process, so its peak memory (ru_maxrss) is its own. Cases ending in
"-engine" compute every value (``from_period=False``); "-filled" is what ``values()`` does by
default: it proves the period on the way and fills the rest from it. "ns/value" is wall time per
value; "x threads" multiplies it by the threads, the cost per value per thread (equal to ns/value
under perfect scaling). README.md records the peers' times on the same cases.

On a small virtual machine 2-thread times vary by about 20% from run to run even at idle: with
``--repeat N`` each case runs N times, the thread counts alternating, and the table shows the
median with the range in the notes.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time

# name: (expression evaluated with gr and T, values it stands for or None for checked_to)
CASES = {
    "grundy-2^24": ("gr.TakeAndBreak('4!.0').values(2**24, threads=T)", 2**24),
    "0.16-proven": ("gr.TakeAndBreak('0.16').periodicity(max_n=2**20, threads=T)", None),
    "0.354-proven": ("gr.TakeAndBreak('0.354').periodicity(max_n=2**25, threads=T)", None),
    "kayles-10^8-engine": ("gr.TakeAndBreak('0.77').values(10**8, threads=T, from_period=False)", 10**8),
    "kayles-10^8-filled": ("gr.TakeAndBreak('0.77').values(10**8, threads=T)", 10**8),
    "subtract-1..50-10^8-engine": ("gr.Subtraction(range(1, 51)).values(10**8, threads=T, from_period=False)", 10**8),
    "subtract-1..50-10^8-filled": ("gr.Subtraction(range(1, 51)).values(10**8, threads=T)", 10**8),
    # A large set, where the block-parallel subtraction kernel pays: 1000 members up to 3000.
    "subtract-3..3000/3-10^7-engine": ("gr.Subtraction(range(3, 3001, 3)).values(10**7, threads=T, from_period=False)",
                                       10**7),
    # Few rare positions (0.1777 has 16): the values alone, as the ogsolve comparison in README.md.
    "0.1777-2^24-engine": ("gr.TakeAndBreak('0.1777').values(2**24, threads=T, from_period=False)", 2**24),
    "0.354-2^21-engine": ("gr.TakeAndBreak('0.354').values(2**21, threads=T, from_period=False)", 2**21),
    "0.6-2^21-engine": ("gr.TakeAndBreak('0.6').values(2**21, threads=T, from_period=False)", 2**21),
}
# Run only when named.
EXTRA = {
    "grundy-2^28": ("gr.TakeAndBreak('4!.0').values(2**28, threads=T)", 2**28),
    # Preperiod 160,949,018, period 60,620,715: the proof reads 443,139,470 values (about 1.5 GB).
    "0.1777-proven": ("gr.TakeAndBreak('0.1777').periodicity(max_n=2**29, threads=T)", None),
}
CASES_ALL = {**CASES, **EXTRA}
# Issue 16's targets with 2 threads (the ogsolve ones: 5x its one-thread time in README.md).
TARGETS = {"grundy-2^24": "<= 8 s, ratio >= 1.8", "0.16-proven": "<= 0.1 s", "0.354-proven": "<= 3 s",
           "grundy-2^28": "<= 600 s", "0.1777-proven": "<= 16 s", "0.1777-2^24-engine": "<= 0.70 s",
           "0.354-2^21-engine": "<= 0.33 s", "0.6-2^21-engine": "<= 1.64 s"}


def child(case: str, threads: int) -> None:
    import grundy as gr

    expr, _ = CASES_ALL[case]
    t = time.perf_counter()
    r = eval(expr, {"gr": gr, "T": threads})
    dt = time.perf_counter() - t
    extra = {}
    if isinstance(r, gr.Periodicity):
        assert r.proven, r
        extra = {"preperiod": r.preperiod, "period": r.period, "checked_to": r.checked_to}
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": dt, "peak_mib": peak, **extra}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cases", nargs="*", default=list(CASES), help=", ".join(CASES_ALL))
    ap.add_argument("--threads", nargs="+", type=int, default=[1, 2], help="thread counts (default 1 2)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per case and thread count (median shown)")
    ap.add_argument("--child", nargs=2, metavar=("CASE", "THREADS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    unknown = [c for c in args.cases if c not in CASES_ALL]
    if unknown:
        ap.error(f"unknown case(s) {', '.join(unknown)}; choose from {', '.join(CASES_ALL)}")
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    print(f"{'case':<28}{'threads':>8}{'seconds':>10}{'values/s':>14}{'ns/value':>10}{'x threads':>10}"
          f"{'peak MiB':>10}{'ratio':>7}  notes")
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    for case in args.cases:
        runs: dict[int, list[dict]] = {t: [] for t in args.threads}
        for _ in range(args.repeat):  # alternating, so that a slow spell of the machine hits both
            for threads in args.threads:
                out = subprocess.run([sys.executable, __file__, "--child", case, str(threads)], capture_output=True,
                                     text=True, check=True).stdout
                runs[threads].append(json.loads(out.strip().splitlines()[-1]))
        first = None
        for threads in args.threads:
            rs = runs[threads]
            secs = statistics.median(r["seconds"] for r in rs)
            r = rs[0]
            first = first or secs
            n = CASES_ALL[case][1] or r["checked_to"]
            ratio = f"{first / secs:.2f}" if threads != args.threads[0] else ""
            notes = f"preperiod {r['preperiod']}, period {r['period']}, {n} values" if "period" in r else ""
            if len(rs) > 1:
                lo, hi = min(x["seconds"] for x in rs), max(x["seconds"] for x in rs)
                notes += ("; " if notes else "") + f"median of {len(rs)}, {lo:.3f} to {hi:.3f} s"
            if threads == args.threads[-1] and case in TARGETS:
                notes += ("; " if notes else "") + "target " + TARGETS[case]
            ns = secs * 1e9 / n
            peak = max(x["peak_mib"] for x in rs)
            print(f"{case:<28}{threads:>8}{secs:>10.3f}{n / secs:>14,.0f}{ns:>10.1f}"
                  f"{ns * threads:>10.1f}{peak:>10.0f}{ratio:>7}  {notes}", flush=True)
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
