"""StateGame and TwoHeapGame: states explored and solved per second, grids, and a memoised
Python recursion on the same rules.

    python benchmarks/state_game.py            # 10^6 states; Wythoff 4096^2 and 8192^2
    python benchmarks/state_game.py --quick    # 2*10^5 states; Wythoff 2048^2 only

Each rule is run in a fresh game (nothing cached). The threads are those of the Rust solver and
grid; the exploration itself calls Python and runs on one thread. Timings on a shared machine are
noisy: compare the ratios printed by one run.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time

import grundy as gr


def timed(f):
    t = time.perf_counter()
    r = f()
    return r, time.perf_counter() - t


def subtraction_options(n: int) -> tuple[int, ...]:
    """A trivial rule: subtract 1, 2 or 3."""
    return tuple(n - k for k in (1, 2, 3) if n >= k)


def memo_value(n: int) -> int:
    """The plain Python way: functools.cache over the same rule, bottom-up so as to stay below the
    recursion limit (a top-down call on 10^6 would raise RecursionError)."""

    @functools.cache
    def g(m: int) -> int:
        s = {g(o) for o in subtraction_options(m)}
        v = 0
        while v in s:
            v += 1
        return v

    for m in range(n + 1):
        g(m)
    return g(n)


def wythoff_memo(n: int) -> int:
    """A memoised Python recursion for Wythoff's game on an n x n grid (rows bottom-up)."""

    @functools.cache
    def g(a: int, b: int) -> int:
        s = {g(a - k, b) for k in range(1, a + 1)}
        s |= {g(a, b - k) for k in range(1, b + 1)}
        s |= {g(a - k, b - k) for k in range(1, min(a, b) + 1)}
        v = 0
        while v in s:
            v += 1
        return v

    for a in range(n):
        for b in range(n):
            g(a, b)
    return g(n - 1, n - 1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    n = 200_000 if args.quick else 1_000_000
    print(f"python {sys.version.split()[0]}, grundy {gr.__version__}")

    print(f"\nStateGame, subtract {{1, 2, 3}} from heap {n:,} (a trivial options function):")
    rates = {}
    for threads in (1, 2):
        game = gr.StateGame(subtraction_options, threads=threads, progress=False)
        v, t = timed(lambda game=game: game.value(n))
        rates[threads] = game.num_states / t
        print(f"  threads={threads}: {game.num_states:,} states in {t:.2f} s = "
              f"{rates[threads]:,.0f} states/s (G = {v})")
    split = gr.StateGame(
        lambda s: [(a, s - 1 - a) for a in range(min(3, s)) if a <= s - 1 - a] if isinstance(s, int) else [],
        components=lambda s: [x for x in s if x] if isinstance(s, tuple) else [s],
        progress=False,
    )
    m = n // 10
    v, t = timed(lambda: split.value(m))
    print(f"  with components (take one and split, first 3 splits), heap {m:,}: {split.num_states:,} states "
          f"in {t:.2f} s = {split.num_states / t:,.0f} states/s")
    _, tp = timed(lambda: memo_value(n))
    print(f"  functools.cache recursion on the same rule: {tp:.2f} s = {(n + 1) / tp:,.0f} states/s; "
          f"StateGame (1 thread) is {rates[1] / ((n + 1) / tp):.2f}x")

    sizes = [2048] if args.quick else [4096, 8192]
    print("\nWythoff grids (TwoHeapGame, no Python calls):")
    for k in sizes:
        for threads in (1, 2):
            g, t = timed(lambda k=k, threads=threads: gr.TwoHeapGame(
                [(1, 0), (0, 1), (1, 1)], unbounded=True, threads=threads).grid(k, k))
            print(f"  {k} x {k} ({k * k / 1e6:.1f} M cells), threads={threads}: {t:.2f} s "
                  f"({k * k / t / 1e6:.1f} M cells/s)")
            del g
    k = 256
    _, tm = timed(lambda: wythoff_memo(k))
    _, tr = timed(lambda: gr.TwoHeapGame([(1, 0), (0, 1), (1, 1)], unbounded=True, threads=1).grid(k, k))
    _, ts = timed(lambda: gr.StateGame(
        lambda s: [(s[0] - i, s[1]) for i in range(1, s[0] + 1)] + [(s[0], s[1] - i) for i in range(1, s[1] + 1)]
        + [(s[0] - i, s[1] - i) for i in range(1, min(s) + 1)], progress=False).grid(k, k))
    print(f"  {k} x {k}: functools.cache {tm:.2f} s, StateGame {ts:.2f} s, TwoHeapGame (1 thread) {tr:.4f} s: "
          f"Rust grid {tm / tr:,.0f}x the memoised recursion")


if __name__ == "__main__":
    main()
