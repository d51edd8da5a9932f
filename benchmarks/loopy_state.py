"""Loopy StateGames: states explored and solved per second, asked for all at once or in steps.

    python benchmarks/loopy_state.py            # 10^6 states, 3*10^6 moves
    python benchmarks/loopy_state.py --quick    # 10^5 states

The game: a state u that is a multiple of 10 has no move; any other has three moves, to u + d for
d drawn from -6..3, kept inside 0..n-1 and, when d > 0, inside u's block of 64 states. So most
states sit on short cycles, and the states reachable from the first k are those of their blocks.
``values()`` is asked for every state at once, then in 10, 100 and 1000 steps of consecutive states
(a fresh game each time): each step explores the new states and solves only them, the states solved
before standing in as gadgets.
For scale: ``GameGraph.generalized_values`` of the same graph (no Python calls), and the engine
time that solving the whole explored graph again at each of 100 steps would cost. Timings on a
shared machine are noisy: compare the ratios printed by one run.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import grundy as gr

#: Up-moves stay inside blocks of this many states.
BLOCK = 64


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="10^5 states instead of 10^6")
    n = 10**5 if ap.parse_args().quick else 10**6
    rng = np.random.default_rng(3)
    src = np.repeat(np.arange(n), 3)
    dst = src + rng.integers(-6, 4, src.size)
    dst = np.clip(np.minimum(dst, (src // BLOCK + 1) * BLOCK - 1), 0, n - 1)
    keep = src % 10 != 0
    src, dst = src[keep], dst[keep]
    adj: list[list[int]] = [[] for _ in range(n)]
    for u, v in zip(src.tolist(), dst.tolist(), strict=True):
        adj[u].append(v)
    graph = gr.GameGraph.from_arrays(src, dst, num_vertices=n)
    t = time.perf_counter()
    whole = graph.generalized_values(progress=False)
    t_graph = time.perf_counter() - t
    c = whole.counts()
    print(f"{n} states, {src.size} moves: {c['finite']} finite values, {c['infinite']} infinite, {c['D']} draws")
    print(f"GameGraph.generalized_values, no Python calls: {t_graph:.3f} s")
    for steps in (1, 10, 100, 1000):
        g = gr.StateGame(adj.__getitem__, loopy=True, progress=False)
        t = time.perf_counter()
        for k in range(steps):
            g.values(range(n * k // steps, n * (k + 1) // steps))
        dt = time.perf_counter() - t
        print(f"StateGame(loopy=True).values in {steps:4d} steps: {dt:.3f} s ({n / dt:,.0f} states/s)")
    spent = 0.0
    for k in range(1, 101):  # the prefix graphs a solver without stand-ins would solve again
        hi = min(n, -(-(n * k // 100) // BLOCK) * BLOCK)  # what the first k steps explored
        keep = src < hi
        prefix = gr.GameGraph.from_arrays(src[keep], dst[keep], num_vertices=hi)
        t = time.perf_counter()
        prefix.generalized_values(progress=False)
        spent += time.perf_counter() - t
    print(f"whole explored graph solved again at each of 100 steps (engine only): {spent:.3f} s")


if __name__ == "__main__":
    main()
