"""The fast engine against the targets: wall time, values/s, peak memory, 1-vs-2-thread ratio.

    python benchmarks/fast_engine.py                 # every case, 1 and 2 threads
    python benchmarks/fast_engine.py grundy-2^24     # one case

Each run happens in a fresh process, so its peak memory (ru_maxrss) is its own.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

CASES = {
    "grundy-2^24": "gr.TakeAndBreak('4!.0').values(2**24, threads=T)",
    "0.16-proven": "assert gr.TakeAndBreak('0.16').periodicity(max_n=2**20, threads=T).proven",
    "0.354-proven": "assert gr.TakeAndBreak('0.354').periodicity(max_n=2**25, threads=T).proven",
    "kayles-10^8": "gr.TakeAndBreak('0.77').values(10**8, threads=T)",
    "subtract-1..50-10^8": "gr.Subtraction(range(1, 51)).values(10**8, threads=T)",
}
SIZES = {"grundy-2^24": 2**24, "kayles-10^8": 10**8, "subtract-1..50-10^8": 10**8}


def child(case: str, threads: int) -> None:
    import grundy as gr

    t = time.perf_counter()
    exec(CASES[case], {"gr": gr, "T": threads})
    dt = time.perf_counter() - t
    extra = {}
    if case.endswith("proven"):
        p = gr.TakeAndBreak(case.split("-")[0]).periodicity(max_n=2**25, threads=threads)
        extra = {"preperiod": p.preperiod, "period": p.period, "checked_to": p.checked_to}
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": dt, "peak_mib": peak, **extra}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cases", nargs="*", default=list(CASES))
    ap.add_argument("--child", nargs=2, metavar=("CASE", "THREADS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    print(f"{'case':<22}{'threads':>8}{'seconds':>10}{'values/s':>14}{'peak MiB':>10}{'1/2 ratio':>10}  notes")
    for case in args.cases:
        times = {}
        for threads in (1, 2):
            out = subprocess.run([sys.executable, __file__, "--child", case, str(threads)], capture_output=True,
                                 text=True, check=True).stdout
            r = json.loads(out.strip().splitlines()[-1])
            times[threads] = r["seconds"]
            n = SIZES.get(case, r.get("checked_to", 0))
            ratio = f"{times[1] / times[2]:.2f}" if threads == 2 else ""
            notes = f"preperiod {r['preperiod']}, period {r['period']}" if "period" in r else ""
            print(f"{case:<22}{threads:>8}{r['seconds']:>10.3f}{n / r['seconds']:>14,.0f}{r['peak_mib']:>10.0f}"
                  f"{ratio:>10}  {notes}", flush=True)


if __name__ == "__main__":
    main()
