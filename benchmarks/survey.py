"""Family surveys: wall time, a projection to a larger cluster, and the driver's memory.

    python benchmarks/survey.py family                       # "0.????" (4096 games) at 2^12 on 2 worker processes
    python benchmarks/survey.py family --workers 2 --project 64
    python benchmarks/survey.py cluster                      # "0.???" at 2^20 on a distributed.LocalCluster
    python benchmarks/survey.py cluster --pattern "0.???" --max-n 65536 --workers 2
    python benchmarks/survey.py cluster --timeout 20 --csv rows.csv   # per-game limit; the rows kept

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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("what", choices=["family", "cluster"])
    ap.add_argument("--pattern", default=None, help='default "0.????" (family) or "0.???" (cluster)')
    ap.add_argument("--max-n", type=int, default=None, help="default 2^12 (family) or 2^20 (cluster)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--project", type=int, default=64, help="project the measured times to this many workers")
    ap.add_argument("--timeout", type=float, default=None, help="per-game limit in seconds (a row says so)")
    ap.add_argument("--csv", default=None, help="write the survey's rows to this file")
    args = ap.parse_args()
    if args.what == "family":
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
