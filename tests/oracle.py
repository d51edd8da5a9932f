"""A tiny, obviously correct Python engine: the oracle the property tests compare against.

Every option of every heap is enumerated literally; nothing is shared with the Rust code.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

HEX = "0123456789ABCDEF"


def mex(values: set[int]) -> int:
    v = 0
    while v in values:
        v += 1
    return v


def splits(total: int, parts: int, least: int = 1, unequal: bool = False) -> Iterator[tuple[int, ...]]:
    """Non-decreasing (strictly increasing if unequal) tuples of positive ints adding to total."""
    if parts == 0:
        if total == 0:
            yield ()
        return
    a = least
    while a * parts <= total:
        for rest in splits(total - a, parts - 1, a + 1 if unequal else a, unequal):
            yield (a, *rest)
        a += 1


def parse_digits(code: str) -> tuple[list[tuple[int, bool]], list[tuple[int, bool]]]:
    """(finite digits d0, d1, ..., repeated group) of a plain code like '4!.07[3]'."""
    code = code.upper()
    before, after = code.split(".")
    cycle: list[tuple[int, bool]] = []
    if "[" in after:
        after, rep = after.rstrip("]").split("[")
        cycle = read(rep)
    return read(before or "0") + read(after), cycle


def read(s: str) -> list[tuple[int, bool]]:
    out: list[tuple[int, bool]] = []
    for ch in s:
        if ch == "!":
            out[-1] = (out[-1][0], True)
        else:
            out.append((HEX.index(ch), False))
    return out


def take_and_break(code: str, n: int) -> list[int]:
    digits, cycle = parse_digits(code)

    def digit(j: int) -> tuple[int, bool]:
        if j < len(digits):
            return digits[j]
        if cycle:
            return cycle[(j - len(digits)) % len(cycle)]
        return (0, False)

    g: list[int] = []
    for h in range(n):
        opts = set()
        for j in range(h + 1):
            d, unequal = digit(j)
            for k in range(4):
                if d >> k & 1:
                    for parts in splits(h - j, k, unequal=unequal):
                        x = 0
                        for p in parts:
                            x ^= g[p]
                        opts.add(x)
        g.append(mex(opts))
    return g


def subtraction(allowed: Callable[[int, int], bool], n: int) -> list[int]:
    g: list[int] = []
    for h in range(n):
        g.append(mex({g[h - k] for k in range(1, h + 1) if allowed(h, k)}))
    return g
