"""StateGame and TwoHeapGame: states explored and solved per second, grids, and a memoised
Python recursion on the same rules; Cram written in Python the fast ways (issue 34).

    python benchmarks/state_game.py            # 10^6 states; Wythoff 4096^2 and 8192^2; Cram 4x7, 5x6
    python benchmarks/state_game.py --quick    # 2*10^5 states; Wythoff 2048^2 only; Cram 4x7
    python benchmarks/state_game.py --cram     # the Cram part alone

Each rule is run in a fresh game (nothing cached). The threads are those of the Rust solver and
grid; the exploration itself calls Python and runs on one thread. Timings on a shared machine are
noisy: compare the ratios printed by one run.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time

import numpy as np

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


def cram_split(rows: int, cols: int):
    """Cram, one call per state (``split=True``): a region is an int (cell (i, j) is bit 8 i + j, a
    row a byte), each option given as its canonical regions, cached by the board the move leaves."""
    size = max(rows, cols)
    rev = [int(f"{x:08b}"[::-1], 2) for x in range(256)]
    spread = [sum(1 << 8 * i for i in range(8) if x >> i & 1) for x in range(256)]  # a row to a column

    def corner(m: int) -> int:
        m >>= ((m & -m).bit_length() - 1) // 8 * 8
        cols = 0
        for b in m.to_bytes(8, "little"):
            cols |= b
        return m >> ((cols & -cols).bit_length() - 1)

    @functools.cache
    def canonical(m: int) -> int:  # least of the 8 symmetries, translated to the corner
        t = 0
        for i, b in enumerate(m.to_bytes(8, "little")):
            t |= spread[b] << i
        best = m
        for y in (m, t):
            bs = y.to_bytes(8, "little")
            for img in (bs, bytes(rev[b] for b in bs)):
                best = min(best, corner(int.from_bytes(img, "little")), corner(int.from_bytes(img, "big")))
        return best

    @functools.cache
    def regions(o: int) -> tuple[int, ...]:
        parts = []
        while o:
            r = o & -o
            while (g := (r | r << 1 | r >> 1 | r << 8 | r >> 8) & o) != r:
                r = g
            parts.append(canonical(r))
            o ^= r
        return tuple(parts)

    doms = [3 << (8 * i + j) for i in range(size) for j in range(size - 1)]
    doms += [257 << (8 * i + j) for i in range(size - 1) for j in range(size)]

    def options(m: int) -> list[tuple[int, ...]]:
        return [regions(m ^ d) for d in doms if m & d == d]

    return options, canonical(sum(1 << (8 * i + j) for i in range(rows) for j in range(cols)))


def cram_batch(rows: int, cols: int):
    """Cram vectorized with numpy (``batch=True``): every option of up to 16,384 states at once, their
    regions by flood fill and their canonical forms (8 symmetries by byte tables and a bit-matrix
    transpose) as uint64 arrays; boards up to 7 x 7."""
    size = max(rows, cols)
    u = np.uint64
    doms = [3 << (8 * i + j) for i in range(size) for j in range(size - 1)]
    doms += [257 << (8 * i + j) for i in range(size - 1) for j in range(size)]
    dom = np.array(doms, dtype=u)
    rev = np.array([int(f"{x:08b}"[::-1], 2) for x in range(256)], dtype=np.uint8)
    ctz = np.array([(x & -x).bit_length() - 1 if x else 0 for x in range(256)], dtype=u)

    def corner(x: np.ndarray) -> np.ndarray:
        low = np.frexp((x & (~x + u(1))).astype(np.float64))[1] - 1  # the lowest cell's bit (exact)
        x = x >> (low & ~7).astype(u)  # its row to the top
        cols = x | x >> u(32)
        cols |= cols >> u(16)
        cols |= cols >> u(8)
        return x >> ctz[cols & u(255)]

    def transpose(x: np.ndarray) -> np.ndarray:
        for mask, s in ((0x0F0F0F0F00000000, 28), (0x3333000033330000, 14), (0x5500550055005500, 7)):
            t = u(mask) & (x ^ (x << u(s)))
            x = x ^ t ^ (t >> u(s))
        return x

    def canonical(x: np.ndarray) -> np.ndarray:
        best = x
        for y in (x, transpose(x)):
            b = y.view(np.uint8).reshape(-1, 8)
            for img in (b, rev[b], b[:, ::-1], rev[b][:, ::-1]):
                best = np.minimum(best, corner(np.ascontiguousarray(img).view(u).ravel()))
        return best

    def options(states: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        ok = (states[:, None] & dom) == dom
        si, dj = np.nonzero(ok)
        rem = states[si] ^ dom[dj]
        idx = np.arange(rem.size)
        owner, parts = [np.zeros(0, dtype=np.intp)], [np.zeros(0, dtype=u)]
        while rem.size:
            r = rem & (~rem + u(1))
            while not np.array_equal(g := (r | r << u(1) | r >> u(1) | r << u(8) | r >> u(8)) & rem, r):
                r = g
            owner.append(idx)
            parts.append(r)
            rem = rem ^ r
            idx, rem = idx[rem != 0], rem[rem != 0]
        o, p = np.concatenate(owner), np.concatenate(parts)
        uniq, inv = np.unique(p, return_inverse=True)  # each distinct region put in canonical form once
        p = canonical(uniq)[inv] if p.size else p
        sizes = np.bincount(o, minlength=si.size)
        # Each round gave each option at most one part: its slot is the option's start plus the round.
        slot = np.cumsum(sizes) - sizes
        out = np.empty_like(p)
        k = 0
        for own in owner[1:]:
            out[slot[own]] = p[k : k + own.size]
            slot[own] += 1
            k += own.size
        return ok.sum(1), sizes, out

    full = np.array([sum(1 << (8 * i + j) for i in range(rows) for j in range(cols))], dtype=u)
    return options, int(canonical(full)[0])


def cram(boards: list[tuple[int, int]]) -> None:
    print("\nCram written in Python (regions split, canonical under the 8 symmetries), tabulated:")
    for r, c in boards:
        options, root = cram_batch(r, c)
        game = gr.StateGame(options, batch=True, progress=False)
        v, t = timed(lambda game=game, root=root: game.values([root])[0])
        print(f"  {r} x {c}, batch=True (numpy): G = {v}, {game.num_states:,} states in {t:.2f} s = "
              f"{game.num_states / t:,.0f} states/s")
    r, c = boards[0]
    options, root = cram_split(r, c)
    game = gr.StateGame(options, split=True, int_states=True, progress=False)
    v, t = timed(lambda: game.values([root])[0])
    print(f"  {r} x {c}, split=True (one call per state): G = {v}, {game.num_states:,} states in {t:.2f} s = "
          f"{game.num_states / t:,.0f} states/s")
    print("One position's value by the pruned search (value() of int_states games), split rule:")
    for r, c in [(4, 5), (4, 6), (4, 7)]:
        options, root = cram_split(r, c)
        game = gr.StateGame(options, split=True, int_states=True, progress=False)
        v, t = timed(lambda game=game, root=root: game.value(root))
        print(f"  {r} x {c}: G = {v} in {t:.2f} s")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--cram", action="store_true", help="the Cram part alone")
    args = ap.parse_args()
    n = 200_000 if args.quick else 1_000_000
    print(f"python {sys.version.split()[0]}, grundy {gr.__version__}")
    boards = [(4, 7)] if args.quick else [(4, 7), (5, 6)]
    if args.cram:
        cram(boards)
        return

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
    cram(boards)


if __name__ == "__main__":
    main()
