"""Loopy game graphs: generalized Sprague-Grundy values of a random graph with cycles, 1 and 2 threads.

    python benchmarks/loopy.py            # 10^6 vertices, 5*10^6 edges (target: at most 10 s on 2 cores)
    python benchmarks/loopy.py --quick    # 10^5 vertices, 5*10^5 edges, for a smoke run

Graphs of the same size: "random" (every edge to a uniformly random vertex: many cycles, mostly
infinite values), and graphs whose edges go to a lower id in a hidden order except for a fraction
of edges that go back up: 0 (acyclic: the values of ``values()``, also timed), 10^-5 and 10^-2
(a loopy core behind an acyclic part, finite values up to the largest out-degree). Times are wall-clock seconds of
``GameGraph.generalized_values`` (building the graph is not counted) on a shared machine: compare
the ratios measured in one run, not absolute figures across runs.
"""

from __future__ import annotations

import argparse
import resource
import time

import numpy as np

import grundy as gr


def random_graph(n: int, m: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    return rng.integers(0, n, m, dtype=np.uint32), rng.integers(0, n, m, dtype=np.uint32)


def mostly_acyclic(n: int, m: int, seed: int, fraction: float) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    hi = rng.integers(1, n, m, dtype=np.uint32)
    lo = rng.integers(0, hi, dtype=np.uint32)
    back = rng.random(m) < fraction
    src, dst = hi.copy(), lo.copy()
    src[back], dst[back] = lo[back], hi[back]
    perm = rng.permutation(n).astype(np.uint32)
    return perm[src], perm[dst]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="every size divided by 10")
    ap.add_argument("--vertices", type=int, default=10**6)
    ap.add_argument("--edges-per-vertex", type=int, default=5)
    args = ap.parse_args()
    n = args.vertices // (10 if args.quick else 1)
    m = n * args.edges_per_vertex
    print(f"{n} vertices, {m} edges")
    kinds = [("random", random_graph)] + [
        (f"back edges {f:g}", lambda n, m, seed, f=f: mostly_acyclic(n, m, seed, f)) for f in (0, 1e-5, 1e-2)
    ]
    for name, make in kinds:
        src, dst = make(n, m, 1)
        g = gr.GameGraph.from_arrays(src, dst, num_vertices=n)
        del src, dst
        times = {}
        for threads in (1, 2):
            t = time.perf_counter()
            gv = g.generalized_values(threads=threads, progress=False)
            times[threads] = time.perf_counter() - t
        c = gv.counts()
        top = int(gv.finite.max())
        print(
            f"{name:>17}: 1 thread {times[1]:6.2f} s, 2 threads {times[2]:6.2f} s "
            f"(ratio {times[1] / times[2]:.2f}); largest finite value {top}; {c}"
        )
        t = time.perf_counter()
        try:  # a graph may have cycles and yet only finite values
            assert (g.values() == gv.finite).all()
            print(f"{'':>17}(values() on the same graph, acyclic: {time.perf_counter() - t:.2f} s)")
        except gr.CycleError:
            pass
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
