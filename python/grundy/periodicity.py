"""Periodicity and sparse space of a game's values, as results researchers can read and reuse."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import _display

#: How many values ``game.periodicity()`` examines at most unless told otherwise.
DEFAULT_MAX_N = 2**16

#: ``game.value(h)`` computes G(h) directly below this; above it, it goes through a proven period.
DIRECT_LIMIT = 2**16


@dataclass(frozen=True)
class Periodicity:
    """Where a game's values become periodic: G(n + period) = G(n) + saltus for n >= preperiod.

    ``proven`` says whether a theorem (named in ``certificate``, with the range of heap sizes it
    was verified over) guarantees the period for every heap size; otherwise it was only observed in
    the ``checked_to`` values examined. ``period`` is None when no period was found.

    >>> import grundy as gr
    >>> p = gr.kayles().periodicity()
    >>> p.preperiod, p.period, p.saltus, p.proven
    (71, 12, 0, True)
    """

    preperiod: int | None
    period: int | None
    saltus: int
    proven: bool
    certificate: str
    checked_to: int
    #: G(preperiod .. preperiod + period - 1), enough to evaluate any heap size.
    base: tuple[int, ...] = field(default=(), repr=False, compare=False)

    @property
    def found(self) -> bool:
        """Whether a period was found at all."""
        return self.period is not None

    def value(self, h: int) -> int:
        """G(h) for h >= preperiod, through the period.

        >>> import grundy as gr
        >>> gr.nim().periodicity().value(10**18)
        1000000000000000000
        """
        if self.period is None or self.preperiod is None or h < self.preperiod:
            raise ValueError(f"G({h}) cannot be read off {self!r}")
        q, r = divmod(h - self.preperiod, self.period)
        return self.base[r] + self.saltus * q

    def __repr__(self) -> str:
        if self.period is None:
            return f"Periodicity(period=None, proven=False, checked_to={self.checked_to})"
        return (
            f"Periodicity(preperiod={self.preperiod}, period={self.period}, saltus={self.saltus}, "
            f"proven={self.proven}, checked_to={self.checked_to})"
        )

    def __str__(self) -> str:
        return f"{self!r}\n{self.certificate}"

    def _repr_html_(self) -> str:
        return _display.periodicity_html(self)


@dataclass(frozen=True)
class SparseSpace:
    """Rare and common values of G(0..n) under the mask that makes rare positions fewest.

    A value v is rare when popcount(v & mask) is even (flipped at odd heap sizes when
    ``parity_dependent``), common otherwise.

    >>> import grundy as gr
    >>> s = gr.grundys_game().sparse_space(1000)
    >>> s.rare_positions[:8].tolist()
    [0, 1, 2, 3, 4, 6, 7, 9]
    """

    n: int
    mask: int
    parity_dependent: bool
    rare_positions: np.ndarray
    rare_values: tuple[int, ...]
    common_count: int

    @property
    def rare_count(self) -> int:
        """How many of the n heap sizes hold a rare value."""
        return int(self.rare_positions.size)

    @property
    def last_rare(self) -> int | None:
        """The largest heap size with a rare value, or None."""
        return int(self.rare_positions[-1]) if self.rare_positions.size else None

    def is_rare(self, value: int, heap: int = 0) -> bool:
        """Whether ``value`` at heap size ``heap`` is rare under this mask."""
        bits = bin(value & self.mask).count("1") + (heap % 2 if self.parity_dependent else 0)
        return bits % 2 == 0

    def __repr__(self) -> str:
        return (
            f"SparseSpace(n={self.n}, mask={self.mask:#b}, parity_dependent={self.parity_dependent}, "
            f"rare_count={self.rare_count}, last_rare={self.last_rare}, common_count={self.common_count})"
        )

    def _repr_html_(self) -> str:
        return _display.sparse_html(self)


__all__ = ["DEFAULT_MAX_N", "DIRECT_LIMIT", "Periodicity", "SparseSpace"]
