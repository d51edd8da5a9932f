"""Positions: Nim sums of many huge heaps, outcomes of many sums, winning moves in huge heaps.

    python benchmarks/positions.py            # the figures quoted in the README
    python benchmarks/positions.py --quick    # sizes divided by 10, for a smoke run

Times are the best of several runs (wall clock) unless marked "cold" (first call on a fresh
game object, including the search for its period).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import grundy as gr


def best(f, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def ms(s: float) -> str:
    return f"{s * 1e3:9.2f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="every size divided by 10")
    args = ap.parse_args()
    div = 10 if args.quick else 1
    rng = np.random.default_rng(0)
    print(f"grundy {gr.__version__}, {os.cpu_count()} CPUs")

    # -- Nim: 2*10^5 heaps up to 10^18 ---------------------------------------------------------
    n = 200_000 // div
    heaps = rng.integers(0, 10**18, n, dtype=np.uint64)
    nim = gr.nim()
    t_build = best(lambda: gr.Position(nim, heaps))
    t_sum = best(lambda: gr.Position(nim, heaps).grundy)
    t_move = best(lambda: gr.Position(nim, heaps).winning_move())
    pos = gr.Position(nim, heaps)
    m = pos.winning_move()
    assert pos.play(m).grundy == 0
    print(f"Nim, {n} heaps < 10^18:   build {ms(t_build)}   + nim-sum {ms(t_sum)}   + a winning move {ms(t_move)}")
    t_all = best(lambda: gr.Position(nim, heaps).winning_moves(), 3)
    print(f"  every winning move ({len(pos.winning_moves())} of them), from scratch: {ms(t_all)}")
    t_mis = best(lambda: gr.Position(nim, heaps).winning_move(misere=True))
    print(f"  a misère winning move, from scratch:                  {ms(t_mis)}")

    # -- outcomes of 10^6 sums -----------------------------------------------------------------
    rows = 1_000_000 // div
    kayles = gr.kayles()
    small = rng.integers(0, 1000, (rows, 4))
    big = rng.integers(0, 10**18, (rows, 4), dtype=np.uint64)
    kayles.periodicity()
    t_small = best(lambda: gr.outcomes(kayles, small), 3)
    t_big = best(lambda: gr.outcomes(kayles, big), 3)
    t_nim = best(lambda: gr.outcomes(nim, big), 3)
    print(f"outcomes of {rows} sums of 4 heaps: Kayles heaps < 1000 {ms(t_small)}, Kayles heaps < 10^18 "
          f"{ms(t_big)}, Nim heaps < 10^18 {ms(t_nim)}")
    t_mnim = best(lambda: gr.outcomes(nim, big, misere=True), 3)
    print(f"  misère Nim, heaps < 10^18: {ms(t_mnim)}")
    few = rng.integers(0, 10, (rows // 100, 3))
    t_mk = best(lambda: gr.outcomes(gr.kayles(), few, misere=True), 3)
    print(f"  misère Kayles (exhaustive search), {rows // 100} sums of 3 heaps < 10: {ms(t_mk)}")

    # -- winning moves in huge heaps -----------------------------------------------------------
    t_cold = best(lambda: gr.Position(gr.kayles(), [10**18]).winning_move(), 3)
    t_warm = best(lambda: gr.Position(kayles, [10**18]).winning_move())
    mixed = gr.Position(kayles, [10**18]) + gr.Position(nim, [3])
    t_mixed = best(lambda: (gr.Position(kayles, [10**18]) + gr.Position(nim, [3])).winning_move())
    w = mixed.winning_move()
    assert mixed.play(w).grundy == 0
    print(f"Kayles row of 10^18: a winning move {ms(t_warm)} (cold, finding the period first: {ms(t_cold)})")
    print(f"  Kayles 10^18 + Nim 3: {ms(t_mixed)}  ({w})")
    hexa = gr.TakeAndBreak("0.B7C")
    hexa.periodicity()
    t_hex = best(lambda: gr.Position(hexa, [10**18, 12345]).winning_move())
    print(f"0.B7C (three heaps per move, period 62 from 122), heap 10^18 + 12345: {ms(t_hex)}")
    many = rng.integers(0, 10**18, 20_000 // div, dtype=np.uint64)
    t_many = best(lambda: gr.Position(kayles, many).winning_move(), 3)
    print(f"Kayles, {many.size} rows < 10^18: a winning move {ms(t_many)}")

    # -- misère search -------------------------------------------------------------------------
    for k in (20, 30, 40):
        t = time.perf_counter()
        o = gr.Position(gr.kayles(), [k]).outcome(misere=True)
        print(f"misère Kayles row of {k}: {o} in {ms(time.perf_counter() - t)}")


if __name__ == "__main__":
    main()
