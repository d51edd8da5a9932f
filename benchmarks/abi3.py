"""What the stable ABI (abi3) costs at the Python/Rust boundary: many small calls, timed.

The wheels are built with ``pyo3/abi3-py310`` (one wheel per platform for CPython 3.10 and later).
Under abi3, PyO3 uses only the limited C API, so some conversions go through function calls instead
of inlined macros. This script times calls whose work is tiny, so the boundary dominates:

* ``game.value(h)`` for cached heaps (one int in, one int out),
* ``nim_sum`` of a short list (list -> Rust),
* ``Position(game, heaps).grundy`` (an object built and queried from Python).

Run it once in an environment with the abi3 wheel and once with a version-specific build (for
instance ``maturin build --release`` after removing ``pyo3/abi3-py310`` from ``pyproject.toml``'s
``[tool.maturin] features``) on the same machine, and compare the figures. ``--json`` prints them as
one JSON object.

    python benchmarks/abi3.py
"""

from __future__ import annotations

import argparse
import json
import sysconfig
import time
from collections.abc import Callable
from pathlib import Path

import grundy as gr
from grundy import _core


def best_rate(fn: Callable[[], int], calls: int, repeats: int = 5) -> float:
    """Calls per second of ``fn`` (which makes ``calls`` calls), the best of ``repeats`` runs."""
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return calls / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200_000, help="calls per timed run")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    n = args.calls

    kayles = gr.kayles()
    kayles.values(1024)
    nim = gr.nim()
    heaps = [10, 12, 5, 7]

    def values() -> int:
        v = kayles.value
        return sum(v(h & 1023) for h in range(n))

    def nim_sums() -> int:
        s = gr.nim_sum
        return sum(s(heaps) for _ in range(n))

    def positions() -> int:
        m = n // 10
        return sum(gr.Position(nim, heaps).grundy for _ in range(m))

    so = Path(_core.__file__).name
    rates = {
        "value(h) calls/s": best_rate(values, n),
        "nim_sum(4 ints) calls/s": best_rate(nim_sums, n),
        "Position(...).grundy /s": best_rate(positions, n // 10),
    }
    if args.json:
        print(json.dumps({"extension": so, **rates}))
        return
    print(f"extension module: {so} (Python {sysconfig.get_python_version()})")
    for what, rate in rates.items():
        print(f"  {what:28s} {rate:12,.0f}")


if __name__ == "__main__":
    main()
