"""Heap games and their Grundy values.

A game wraps a Rust sequence that caches G(0..N) and extends it on demand: asking for more values
never recomputes the ones already known.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from . import _core
from ._validate import as_count, as_heap
from .periodicity import DEFAULT_MAX_N, DIRECT_LIMIT, Periodicity, SparseSpace

#: Above this many values a request is refused outright (no machine holds 2**62 values).
_MAX_VALUES = 2**62


class Game:
    """A heap game: a position is a heap of n tokens, a move leaves a sum of smaller heaps.

    Subclasses build the rule; this class holds the cached values.
    """

    def __init__(self, seq: _core.Sequence, key: Any) -> None:
        self._seq = seq
        self._key = key
        self._proven: Periodicity | None = None

    # -- values ---------------------------------------------------------------------------------
    def values(self, n: int, *, threads: int | None = None) -> np.ndarray:
        """G(0), ..., G(n-1) as a numpy array of the smallest unsigned dtype that holds them.

        Values are cached: asking for more later computes only the missing ones. The GIL is
        released while Rust computes, and Ctrl-C raises KeyboardInterrupt (keeping what was done).
        ``threads`` caps the threads used (default: every core, or ``RAYON_NUM_THREADS``); the
        values are the same for any thread count.

        >>> import grundy as gr
        >>> gr.kayles().values(8)
        array([0, 1, 2, 3, 1, 4, 3, 2], dtype=uint8)
        """
        n = as_count(n)
        self._ensure(n, threads)
        return self._seq.array(0, n)

    def value(self, h: int) -> int:
        """G(h), the Grundy value of a single heap of size ``h`` (any h below 2**64).

        Beyond the computed values, G(h) is read off a proven period (searched for on demand
        within ``DEFAULT_MAX_N`` values); where none is proven, ValueError says how to go on.

        >>> import grundy as gr
        >>> gr.grundys_game().value(8)
        2
        >>> gr.kayles().value(10**18)  # 10**18 = 76 (mod 12), past the preperiod 71: G(76) = 1
        1
        """
        h = as_heap(h, "h")
        if h < len(self._seq):
            return self._seq.get(h)
        if self._proven is None and h >= DIRECT_LIMIT:
            self.periodicity()
        if self._proven is not None and h >= (self._proven.preperiod or 0):
            return self._proven.value(h)
        if h < DIRECT_LIMIT:
            self._ensure(h + 1)
            return self._seq.get(h)
        raise ValueError(
            f"no period of {self!r} is proven within the {len(self._seq)} values examined, so G({h}) "
            f"cannot be read off a period: call .periodicity(max_n=...) with a larger bound, or "
            f".values({h} + 1) to compute it directly"
        )

    def periodicity(self, max_n: int | None = None, *, threads: int | None = None) -> Periodicity:
        """Finds where the values become periodic (or arithmetic-periodic) and proves it if a theorem
        covers the rule.

        Computes values as needed, doubling up to ``max_n`` (default ``DEFAULT_MAX_N`` = 2**16) and
        stopping as soon as a period is proven. For rules no theorem covers, it stops once the same
        period was observed at two sizes. Never raises for lack of a period: the result then has
        ``period`` None.

        >>> import grundy as gr
        >>> gr.TakeAndBreak("0.137").periodicity()
        Periodicity(preperiod=52, period=34, saltus=0, proven=True, checked_to=1024)
        """
        max_n = DEFAULT_MAX_N if max_n is None else as_count(max_n, "max_n")
        if self._proven is not None:
            return self._proven
        n = min(max(1024, len(self._seq)), max_n)
        unprovable = self._seq.unproven_reason() is not None
        last = None
        while True:
            self._ensure(n, threads)
            d = self._seq.period(n)
            key = d and (d["preperiod"], d["period"], d["saltus"])
            if d is not None and (d["proven"] or (unprovable and key == last)) or n >= max_n:
                break
            last = key
            need = d and d["needed"]
            n = min(max_n, need if need and need > n else 2 * n)
        if d is None:
            why = self._seq.unproven_reason()
            cert = f"no period found in G(0..{n - 1})" + (f"; {why}" if why else "")
            return Periodicity(None, None, 0, False, cert, n)
        n0, p = d["preperiod"], d["period"]
        base = tuple(self._seq.array(n0, n0 + p).tolist())
        result = Periodicity(n0, p, d["saltus"], d["proven"], d["certificate"], d["checked_to"], base)
        if result.proven:
            self._proven = result
        return result

    def sparse_space(self, n: int) -> SparseSpace:
        """Rare and common values of G(0..n) under the mask (found automatically) that makes rare
        positions fewest.

        >>> import grundy as gr
        >>> s = gr.grundys_game().sparse_space(2**12)
        >>> bin(s.mask), s.rare_positions[:12].tolist()
        ('0b1111110', [0, 1, 2, 3, 4, 6, 7, 9, 10, 12, 15, 20])
        """
        n = as_count(n)
        self._ensure(n)
        d = self._seq.sparse_space(n)
        rare = d["rare_positions"]
        rare_values = tuple(sorted(set(self._seq.array(0, n)[rare].tolist()))) if n else ()
        return SparseSpace(n, d["mask"], d["parity"], rare, rare_values, n - int(rare.size))

    @property
    def computed(self) -> int:
        """How many values G(0..computed) are cached."""
        return len(self._seq)

    def _ensure(self, n: int, threads: int | None = None) -> None:
        if n > _MAX_VALUES:
            raise MemoryError(f"{n} values cannot be stored on any machine; ask for fewer")
        if threads is not None:
            threads = as_count(threads, "threads")
            if threads == 0:
                raise ValueError("threads must be at least 1")
        if n > len(self._seq):
            self._seq.extend(n, None, threads)

    # -- identity -------------------------------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other._key == self._key  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._key))


class TakeAndBreak(Game):
    """An octal or hexadecimal take-and-break game given by its code ``d0.d1d2...``.

    Digit ``d_j`` says what may happen when ``j`` tokens are removed: a sum of ``2**k`` over the
    numbers ``k`` of non-empty heaps that may remain (``k = 0``: the whole heap was taken).
    Also understood: ``!`` after a digit (the heaps left must be pairwise unequal), a bracketed
    final group repeated forever (``0.[3]`` is Nim) and explicit heap counts (``0.{1,2}``).

    ``engine``: ``"auto"`` (default) uses the sparse-space engine, block-parallel, for finite codes
    whose moves leave at most two heaps, and the exact engine (mex over every option) otherwise;
    ``"exact"`` or ``"sparse"`` force one (``"sparse"`` raises ValueError where it does not apply).
    Both give the same values.

    >>> import grundy as gr
    >>> g = gr.TakeAndBreak(".77")
    >>> str(g), g.values(6).tolist()
    ('0.77', [0, 1, 2, 3, 1, 4])
    """

    def __init__(self, code: str, *, name: str | None = None, engine: str = "auto") -> None:
        if not isinstance(code, str):
            raise TypeError(f"a take-and-break code must be a str like '0.77', not {type(code).__name__}")
        info = _core.parse_code(code)
        self.code: str = info["canonical"]
        self.name = name
        self._info = info
        if engine not in ("auto", "exact", "sparse"):
            raise ValueError(f"engine must be 'auto', 'exact' or 'sparse', not {engine!r}")
        self.engine = engine
        super().__init__(_core.Sequence.take_and_break(self.code, engine), self.code)

    @property
    def is_octal(self) -> bool:
        """True when no move leaves more than two heaps."""
        return bool(self._info["octal"])

    @property
    def max_heaps(self) -> int:
        """The most heaps a single move may leave (0 to 3)."""
        return int(self._info["max_heaps"])

    @property
    def is_finite(self) -> bool:
        """False for codes with a repeated group (arbitrarily many tokens may be removed)."""
        return not self._info["infinite"]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"TakeAndBreak({self.code!r})" + (f"  # {self.name}" if self.name else "")


def _members(subtract: Iterable[int], what: str) -> list[int]:
    if isinstance(subtract, (str, bytes)) or not isinstance(subtract, Iterable):
        raise TypeError(f"{what} must be an iterable of positive integers, not {type(subtract).__name__}")
    out = []
    for k in subtract:
        k = as_heap(k, f"member {k!r} of {what}")
        if k == 0:
            raise ValueError(f"{what} contains 0: removing no tokens is not a move")
        out.append(k)
    return sorted(set(out))


class Subtraction(Game):
    """A subtraction game: from a heap of ``n`` remove ``k`` tokens, for ``k`` in a set.

    Give the set (``Subtraction([1, 2, 3])``) or a rule ``allowed(n, k) -> bool`` saying whether
    ``k`` tokens may be removed from a heap of ``n`` (``1 <= k <= n``). The classic infinite rules
    are class methods and run entirely in Rust.

    >>> import grundy as gr
    >>> gr.Subtraction([1, 2, 3]).values(8).tolist()
    [0, 1, 2, 3, 0, 1, 2, 3]
    >>> gr.Subtraction(allowed=lambda n, k: k % 2 == 1).values(4).tolist()
    [0, 1, 0, 1]
    """

    def __init__(
        self,
        subtract: Iterable[int] | None = None,
        *,
        allowed: Callable[[int, int], bool] | None = None,
    ) -> None:
        if (subtract is None) == (allowed is None):
            raise TypeError("give either a subtraction set or allowed=, not both or neither")
        if allowed is not None:
            if not callable(allowed):
                raise TypeError(f"allowed must be a callable allowed(n, k), not {type(allowed).__name__}")
            self.kind, self.members = "allowed", None
            self.allowed = allowed
            super().__init__(_core.Sequence.allowed(allowed), ("allowed", id(allowed)))
            return
        members = _members(subtract, "the subtraction set")  # type: ignore[arg-type]
        self._init("finite", members)

    def _init(self, kind: str, members: list[int] | None) -> None:
        self.kind, self.members, self.allowed = kind, members, None
        seq = _core.Sequence.subtraction(kind, members)
        Game.__init__(self, seq, (kind, tuple(members or ())))

    @classmethod
    def _make(cls, kind: str, members: list[int] | None = None) -> Subtraction:
        g = cls.__new__(cls)
        g._init(kind, members)
        return g

    @classmethod
    def squares(cls) -> Subtraction:
        """Remove a positive square number of tokens.

        >>> Subtraction.squares().values(7).tolist()
        [0, 1, 0, 1, 2, 0, 1]
        """
        return cls._make("squares")

    @classmethod
    def at_most_half(cls) -> Subtraction:
        """Remove between 1 and floor(n/2) tokens from a heap of n.

        >>> Subtraction.at_most_half().values(8).tolist()
        [0, 0, 1, 0, 2, 1, 3, 0]
        """
        return cls._make("at_most_half")

    @classmethod
    def proper_divisors(cls) -> Subtraction:
        """Remove a divisor d of the heap size n with d < n; G(n) is the exponent of 2 in n.

        >>> Subtraction.proper_divisors().values(9).tolist()
        [0, 0, 1, 0, 2, 0, 1, 0, 3]
        """
        return cls._make("proper_divisors")

    @classmethod
    def all_but(cls, excluded: Iterable[int]) -> Subtraction:
        """Remove any number of tokens except the members of a finite set.

        >>> Subtraction.all_but([1]).values(6).tolist()
        [0, 0, 1, 1, 2, 2]
        """
        return cls._make("all_but", _members(excluded, "the excluded set"))

    def __repr__(self) -> str:
        if self.kind == "finite":
            return f"Subtraction({self.members})"
        if self.kind == "all_but":
            return f"Subtraction.all_but({self.members})"
        if self.kind == "allowed":
            return f"Subtraction(allowed={getattr(self.allowed, '__qualname__', self.allowed)!s})"
        return f"Subtraction.{self.kind}()"

    __str__ = __repr__


def nim() -> TakeAndBreak:
    """Nim: remove any number of tokens from one heap (``0.[3]``); G(n) = n.

    >>> nim().values(5).tolist()
    [0, 1, 2, 3, 4]
    """
    return TakeAndBreak("0.[3]", name="Nim")


def kayles() -> TakeAndBreak:
    """Kayles (``0.77``): knock down one pin or two adjacent pins from a row.

    >>> kayles().values(6).tolist()
    [0, 1, 2, 3, 1, 4]
    """
    return TakeAndBreak("0.77", name="Kayles")


def dawsons_kayles() -> TakeAndBreak:
    """Dawson's Kayles (``0.07``): knock down two adjacent pins.

    >>> dawsons_kayles().values(8).tolist()
    [0, 0, 1, 1, 2, 0, 3, 1]
    """
    return TakeAndBreak("0.07", name="Dawson's Kayles")


def grundys_game() -> TakeAndBreak:
    """Grundy's game (``4!.0``): split one heap into two heaps of different sizes.

    >>> grundys_game().values(9).tolist()
    [0, 0, 0, 1, 0, 2, 1, 0, 2]
    """
    return TakeAndBreak("4!.0", name="Grundy's game")


__all__ = [
    "Game",
    "Subtraction",
    "TakeAndBreak",
    "dawsons_kayles",
    "grundys_game",
    "kayles",
    "nim",
]
