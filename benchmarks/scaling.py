"""Thread scaling of the heap engine: one table of seconds by thread count, and the same as JSON.

    python benchmarks/scaling.py                          # every default case, threads 1 2 4 8 16 and the cores
    python benchmarks/scaling.py grundy-2^22 0.354-proven --repeat 3
    python benchmarks/scaling.py grundy-2^26 --threads 8 16 --json runs/h100-host.json
    python benchmarks/scaling.py --pin                    # each run pinned to its first T cores (taskset)

Each run is a fresh process (so its memory and thread pool are its own). With ``--repeat N`` the
thread counts alternate within each round and the table shows medians. The column ``default`` is
``threads=None`` (what a user gets without asking); ``best/default`` compares it with the fastest
thread count (issue 33 asks for at most 1.10). Thread counts above the machine's cores are left out.

After the thread table, a table of the one-thread run by stage (``sparse_bench --stages``, built
by ``rust_bench.py sparse_bench``; ``--bench PATH`` names another, ``--no-stages``
leaves it out): the seconds of each stage that runs in order, their share of the run, and the
speed-up bound that share sets for 2 and 16 threads (Amdahl's law: a bound, not a measurement).
The stretch a proven run verifies speculatively on every thread is timed apart there (forced on
at one thread: the same work as computing it in order).

The default cases take about 5 minutes on a 16-core machine (Grundy's game to 2^26 is left to be
named). The JSON file records the machine (cores, processor, load) and every run, so that tables
of different machines can be compared; ``python benchmarks/scaling.py --show FILE`` prints one again.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time

# name: expression evaluated with gr and T (the thread count, None for the default).
CASES = {
    "grundy-2^22": "gr.TakeAndBreak('4!.0').values(2**22, threads=T)",
    "grundy-2^24": "gr.TakeAndBreak('4!.0').values(2**24, threads=T)",
    "grundy-2^25": "gr.TakeAndBreak('4!.0').values(2**25, threads=T)",
    "0.1777-proven": "gr.TakeAndBreak('0.1777').periodicity(max_n=2**29, threads=T)",
    "0.354-proven": "gr.TakeAndBreak('0.354').periodicity(max_n=2**25, threads=T)",
    "0.6-2^24-engine": "gr.TakeAndBreak('0.6').values(2**24, threads=T, from_period=False)",
    "0.354-2^24-engine": "gr.TakeAndBreak('0.354').values(2**24, threads=T, from_period=False)",
}
# Run only when named (about 3 minutes on 16 cores for 1 to 16 threads; Cram by the board search,
# whose own figures, nodes included, are benchmarks/board.md's).
EXTRA = {
    "grundy-2^26": "gr.TakeAndBreak('4!.0').values(2**26, threads=T)",
    "cram-5x8": "gr.cram(5, 8).value(threads=T)",
    "cram-4x11": "gr.cram(4, 11).value(threads=T)",
}
ALL = {**CASES, **EXTRA}
# The same computation for `sparse_bench --stages` (CODE, MODE, N): the seconds of each stage,
# from which the time that runs in order is summed (see `stages_table`).
STAGED = {
    "grundy-2^22": ("4!.0", "proving", 2**22),
    "grundy-2^24": ("4!.0", "proving", 2**24),
    "grundy-2^25": ("4!.0", "proving", 2**25),
    "grundy-2^26": ("4!.0", "proving", 2**26),
    "0.1777-proven": ("0.1777", "proven", 2**29),
    "0.354-proven": ("0.354", "proven", 2**25),
    "0.6-2^24-engine": ("0.6", "values", 2**24),
    "0.354-2^24-engine": ("0.354", "values", 2**24),
}
# The stages that run on one thread (seconds, from `sparse_bench --stages`), and what they are.
SERIAL = {
    "block_sequential": "the blocks' heap-by-heap part (less what is flagged ahead)",
    "between_blocks": "between blocks (mask, rare list)",
    "scan": "period scans (counted whole; their hash runs on every thread)",
    "speculate_serial": "writing predictions, state past them",
}
HERE = os.path.dirname(os.path.abspath(__file__))
#: The sparse_bench for the stages: $SPARSE_BENCH, else the bench target built by rust_bench.py.
BENCH = os.environ.get("SPARSE_BENCH")


def child(case: str, threads: str) -> None:
    import grundy as gr

    t = time.perf_counter()
    r = eval(ALL[case], {"gr": gr, "T": None if threads == "default" else int(threads)})
    seconds = time.perf_counter() - t
    out: dict[str, object] = {"seconds": seconds,
                              "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
    if isinstance(r, gr.Periodicity):
        assert r.proven, r
        out.update(preperiod=r.preperiod, period=r.period, checked_to=r.checked_to)
    print(json.dumps(out))


def machine() -> dict[str, object]:
    model = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), model)
    except OSError:
        pass
    try:
        import grundy

        version = grundy.__version__
    except ImportError:
        version = "?"
    return {"cores": len(os.sched_getaffinity(0)), "cpu_count": os.cpu_count(), "processor": model,
            "platform": platform.platform(), "python": platform.python_version(), "grundy": version,
            "load_before": os.getloadavg()[0], "date": time.strftime("%Y-%m-%d %H:%M:%S %z")}


def run_one(case: str, threads: int | str, pin: bool) -> dict[str, object]:
    cmd = [sys.executable, __file__, "--child", case, str(threads)]
    if pin and threads != "default" and shutil.which("taskset"):
        cmd = ["taskset", "-c", f"0-{int(threads) - 1}", *cmd]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def spin(_: int = 0) -> float:
    """Seconds of a fixed loop of pure Python (one core's work, no memory traffic)."""
    t = time.perf_counter()
    s = 0
    for i in range(3_000_000):
        s += i
    return time.perf_counter() - t


def calibrate(rounds: int = 3) -> float:
    """How much faster two processes do two loops than one process does one, alternating, median:
    2.0 on an idle machine of two cores or more; on a shared one, the most that a second thread
    can give now, whatever the program (1.0: the machine has no core to spare)."""
    import multiprocessing as mp

    ratios = []
    with mp.Pool(2) as pool:
        for _ in range(rounds):
            one = pool.apply(spin)
            t = time.perf_counter()
            pool.map(spin, [0, 1], chunksize=1)
            two = time.perf_counter() - t
            ratios.append(2 * one / two)
    return statistics.median(ratios)


def run_stages(bench: str, case: str) -> dict[str, float]:
    """One run of ``sparse_bench --stages`` for ``case`` on one thread, speculation and flagging
    ahead forced on (so that the stretch other threads would verify, and the splits they would flag
    ahead of the heap-by-heap part, are timed apart from the stages in order)."""
    code, mode, n = STAGED[case]
    env = {**os.environ, "SPARSE_SPECULATE": "1", "SPARSE_AHEAD_AUTO": "0"}
    out = subprocess.run([bench, "--stages", code, mode, str(n), "1"], capture_output=True, text=True,
                         check=True, env=env).stdout
    return json.loads(out.strip().splitlines()[-1])


def amdahl(total: float, serial: float, k: int) -> float:
    """The speed-up bound of ``k`` threads when ``serial`` of ``total`` seconds runs in order."""
    return total / (serial + (total - serial) / k) if total > 0 else 1.0


def stages_table(report: dict[str, object]) -> str:
    """Per case, the one-thread seconds of each stage that runs in order (medians), their share,
    and the bounds they set (Amdahl) for 2 and 16 threads."""
    staged = report.get("stages") or {}
    if not staged:
        return ""
    head = "".join(f"{k:>18}" for k in SERIAL)
    lines = ["", "one thread, by stage (sparse_bench --stages, speculation timed apart; seconds, medians):",
             f"{'case':<20}{'total':>8}{head}{'in order':>10}{'share':>7}  Amdahl bound: 2 threads, 16 threads"]
    note = ("bound: what the seconds in order allow (Amdahl), not a measurement; pessimistic where the blocks' "
            "heap-by-heap part shrinks with more threads (it overlaps their first part and confirmations)")
    for case, runs in staged.items():  # type: ignore[attr-defined]
        med = {k: statistics.median(r[k] for r in runs) for k in ["seconds", *SERIAL, "speculate"]}
        serial = sum(med[k] for k in SERIAL)
        total = med["seconds"]
        cells = "".join(f"{med[k]:>18.2f}" for k in SERIAL)
        lines.append(f"{case:<20}{total:>8.2f}{cells}{serial:>10.2f}{serial / total:>7.0%}  "
                     f"bound {amdahl(total, serial, 2):.2f}x, {amdahl(total, serial, 16):.2f}x"
                     + (f" (speculated {med['speculate']:.2f} s)" if med["speculate"] else ""))
    lines.append("stages: " + "; ".join(f"{k}: {v}" for k, v in SERIAL.items()))
    lines.append(note)
    return "\n".join(lines)


def table(report: dict[str, object]) -> str:
    counts = [str(t) for t in report["threads"]] + ["default"]  # type: ignore[attr-defined]
    lines = [f"{report['machine']['cores']} cores, {report['machine']['processor']}",  # type: ignore[index]
             f"{'case':<20}" + "".join(f"{c:>9}" for c in counts) + f"{'best/1':>8}{'default/best':>13}  notes"]
    for case, runs in report["cases"].items():  # type: ignore[attr-defined]
        med = {c: statistics.median(r["seconds"] for r in runs[c]) for c in counts if runs.get(c)}
        timed = [c for c in counts[:-1] if c in med]
        best = min(timed, key=lambda c: med[c]) if timed else None
        cells = "".join(f"{med[c]:>9.2f}" if c in med else f"{'':>9}" for c in counts)
        speedup = f"{med['1'] / med[best]:>7.2f}x" if best and "1" in med else f"{'':>8}"
        ratio = f"{med['default'] / med[best]:>13.2f}" if best and "default" in med else f"{'':>13}"
        first = next(iter(runs.values()))[0]
        notes = f"period {first['period']}, preperiod {first['preperiod']}" if "period" in first else ""
        if best:
            notes += ("; " if notes else "") + f"fastest at {best} thread{'s' if best != '1' else ''}"
        lines.append(f"{case:<20}{cells}{speedup}{ratio}  {notes}")
    lines.append(f"seconds, median of {report['repeat']}; load average before {report['machine']['load_before']:.2f}, "
                 f"after {report['load_after']:.2f}")
    if "spare" in report:
        lines.append(f"two processes of a fixed loop ran {report['spare'][0]:.2f}x (before) and "
                     f"{report['spare'][1]:.2f}x (after) as fast as one: the most a second thread could give "
                     "(2.00 on an idle machine)")
    return "\n".join(lines) + stages_table(report)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("cases", nargs="*", default=list(CASES), help=", ".join(ALL))
    ap.add_argument("--threads", nargs="+", type=int, default=None,
                    help="thread counts (default 1 2 4 8 16 and the number of cores, those up to the cores)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per case and thread count (median shown)")
    ap.add_argument("--pin", action="store_true", help="pin a run of T threads to cores 0..T-1 with taskset")
    ap.add_argument("--json", default="scaling.json", help="where to write the runs (default scaling.json)")
    ap.add_argument("--show", metavar="FILE", help="print the table of an earlier run's JSON and stop")
    ap.add_argument("--bench", default=BENCH,
                    help="sparse_bench for the stages (default: $SPARSE_BENCH, else built by rust_bench.py)")
    ap.add_argument("--no-stages", action="store_true", help="leave out the one-thread stages")
    ap.add_argument("--no-default", action="store_true", help="leave out the runs with threads=None")
    ap.add_argument("--child", nargs=2, metavar=("CASE", "THREADS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return
    if args.show:
        with open(args.show) as f:
            print(table(json.load(f)))
        return
    unknown = [c for c in args.cases if c not in ALL]
    if unknown:
        ap.error(f"unknown case(s) {', '.join(unknown)}; choose from {', '.join(ALL)}")
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    info = machine()
    cores = int(info["cores"])  # type: ignore[call-overload]
    wanted = args.threads or [1, 2, 4, 8, 16, cores]
    threads = sorted({t for t in wanted if 1 <= t <= cores})
    report: dict[str, object] = {"machine": info, "threads": threads, "repeat": args.repeat, "pin": args.pin,
                                 "cases": {}, "stages": {}}
    if args.bench is None and not args.no_stages:
        from rust_bench import executable

        args.bench = executable("sparse_bench")
    staging = not args.no_stages and os.access(args.bench, os.X_OK)
    spare_before = calibrate() if cores >= 2 else 1.0
    if not args.no_stages and not staging:
        print(f"no {args.bench}: stages left out (python benchmarks/rust_bench.py sparse_bench)", file=sys.stderr)
    counts: list[int | str] = [*threads] if args.no_default else [*threads, "default"]
    for case in args.cases:
        runs: dict[str, list[dict[str, object]]] = {str(t): [] for t in counts}
        staged: list[dict[str, float]] = []
        for _ in range(args.repeat):  # alternating, so that a slow spell of the machine hits every count
            for t in counts:
                runs[str(t)].append(run_one(case, t, args.pin))
                print(f"  {case} threads={t}: {runs[str(t)][-1]['seconds']:.2f} s", file=sys.stderr, flush=True)
            if staging and case in STAGED:
                staged.append(run_stages(args.bench, case))
                print(f"  {case} stages: {staged[-1]}", file=sys.stderr, flush=True)
        report["cases"][case] = runs  # type: ignore[index]
        if staged:
            report["stages"][case] = staged  # type: ignore[index]
        # Written after every case, so that a run cut short (a lent machine's time) keeps its cases.
        report["load_after"] = os.getloadavg()[0]
        report["spare"] = [spare_before, calibrate() if cores >= 2 else 1.0]
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    print(table(report))
    print(f"runs written to {args.json}")


if __name__ == "__main__":
    main()
