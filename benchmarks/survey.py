"""Family surveys: wall time, a projection to a larger cluster, and the driver's memory.

    python benchmarks/survey.py family                       # "0.????" (4096 games) at 2^12 on 2 worker processes
    python benchmarks/survey.py family --workers 2 --project 64
    python benchmarks/survey.py cluster                      # "0.???" at 2^20 on a distributed.LocalCluster
    python benchmarks/survey.py cluster --pattern "0.???" --max-n 65536 --workers 2
    python benchmarks/survey.py cluster --timeout 20 --csv rows.csv   # per-game limit; the rows kept
    python benchmarks/survey.py load                         # gr.load / resuming 2^20 values, against computing them
    python benchmarks/survey.py load --max-n 4194304 --pattern "0.6,4!.0,0.77"

The games run in worker processes (spawned, or Dask worker processes), so the driver's memory is
the survey's own: rows and fingerprints, never value arrays. The projection schedules the measured
per-game times on ``--project`` workers in submission order (each game to the first free worker),
which is what an executor does; it leaves out scheduling and start-up overheads.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import heapq
import multiprocessing
import resource
import time
import tracemalloc

import grundy as gr


def projected(seconds: list[float], workers: int) -> float:
    """Wall time of games with these durations, each given to the first free of ``workers``."""
    free = [0.0] * workers
    for s in seconds:
        heapq.heappush(free, heapq.heappop(free) + s)
    return max(free)


def report(df, wall: float, workers: int, project: int, rss0: int, peak_py: int) -> None:
    secs = df.seconds.tolist()
    counts = df.status.value_counts().to_dict()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    shipped = sum(int(n) * 2 for n in df.checked_to.fillna(0))  # at least 2 bytes per value
    print(f"games={len(df)} statuses={counts}")
    print(f"wall={wall:.1f}s on {workers} workers; sum of per-game seconds={sum(secs):.1f}; "
          f"slowest={max(secs):.2f}s ({df.code[df.seconds.idxmax()]})")
    print(f"projected to {project} workers: {projected(secs, project):.1f}s "
          f"(lower bound max(sum/{project}, slowest) = {max(sum(secs) / project, max(secs)):.1f}s)")
    print(f"driver: peak RSS {rss / 1024:.0f} MiB (before the survey {rss0 / 1024:.0f} MiB); "
          f"peak Python allocations during the survey {peak_py / 2**20:.1f} MiB")
    print(f"value arrays the workers did not send: at least {shipped / 2**20:.0f} MiB")


def run(pattern: str, max_n: int, executor, workers: int, project: int,
        timeout: float | None = None, csv: str | None = None) -> None:
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    t = time.perf_counter()
    df = gr.survey(pattern, max_n=max_n, executor=executor, progress=False, timeout=timeout)
    wall = time.perf_counter() - t
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    limit = "" if timeout is None else f", at most {timeout:g} s per game"
    print(f"{pattern} at max_n={max_n}{limit}:")
    report(df, wall, workers, project, rss0, peak)
    if csv:
        df.to_csv(csv)


def load(codes: list[str], n: int) -> None:
    """Computing n values against reading them back: gr.load, and resuming from a checkpoint.

    A load should cost about what reading the file and checking its hash cost ("read"): the
    engine's state is rebuilt from the values, and only the last few are recomputed as a check.
    """
    import os
    import tempfile

    from grundy.io import checkpoint as _checkpoint

    print(f"{n} values; seconds (one run each)")
    print(f"{'game':>8} {'compute':>9} {'save':>7} {'read+hash':>10} {'gr.load':>8} {'resume':>8}")
    with tempfile.TemporaryDirectory() as d:
        for code in codes:
            path = os.path.join(d, "g.npz")
            g = gr.TakeAndBreak(code)
            t0 = time.perf_counter()
            g.values(n, progress=False)
            t1 = time.perf_counter()
            gr.save(g, path)
            t2 = time.perf_counter()
            _checkpoint._read(path)
            t3 = time.perf_counter()
            h = gr.load(path)
            t4 = time.perf_counter()
            r = gr.TakeAndBreak(code)
            r.values(n, checkpoint=path, progress=False)  # resumes from the file, computes nothing
            t5 = time.perf_counter()
            assert h.computed == r.computed == n
            print(f"{code:>8} {t1 - t0:9.3f} {t2 - t1:7.3f} {t3 - t2:10.3f} {t4 - t3:8.3f} {t5 - t4:8.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["family", "cluster", "load"])
    ap.add_argument("--pattern", default=None,
                    help='default "0.????" (family), "0.???" (cluster), "0.6,4!.0" (load: codes)')
    ap.add_argument("--max-n", type=int, default=None, help="default 2^12 (family) or 2^20 (cluster, load)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--project", type=int, default=64, help="project the measured times to this many workers")
    ap.add_argument("--timeout", type=float, default=None, help="per-game limit in seconds (a row says so)")
    ap.add_argument("--csv", default=None, help="write the survey's rows to this file")
    args = ap.parse_args()
    if args.what == "load":
        load((args.pattern or "0.6,4!.0").split(","), args.max_n or 2**20)
    elif args.what == "family":
        pattern, max_n = args.pattern or "0.????", args.max_n or 2**12
        ctx = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(args.workers, mp_context=ctx) as ex:
            list(ex.map(abs, range(args.workers)))  # start the workers before timing
            run(pattern, max_n, ex, args.workers, args.project, args.timeout, args.csv)
    else:
        from distributed import Client, LocalCluster

        pattern, max_n = args.pattern or "0.???", args.max_n or 2**20
        with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            run(pattern, max_n, client, args.workers, args.project, args.timeout, args.csv)


if __name__ == "__main__":
    main()
