"""Periods of a misère quotient's pretending function (heap size to monoid element)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["PretendingPeriod"]


@dataclass(frozen=True)
class PretendingPeriod:
    """Periodicity of a pretending function over the heaps computed.

    Parameters
    ----------
    preperiod : int
        ``n0``: the pretending function satisfies ``phi(n) = phi(n - period)`` for ``n >= n0 + period``.
    period : int
        The least period seen.
    checked_to : int
        The largest heap size computed.
    proven : bool
        True when the range computed is long enough for the theorem below to apply, so that the
        pattern holds for every heap size; False when it is only observed.
    needed : int or None
        The largest heap the proof needs (``r*(n0 + p) + t - 1`` for a finite code whose moves take
        at most ``t`` tokens and leave at most ``r`` heaps); None when no proof applies (a rule
        written in Python, or an infinite code).

    Notes
    -----
    Proof: for ``n > needed``, every option of heap ``n`` has a part ``>= n0 + p`` whose element
    equals that of the part ``p`` smaller, and conversely, so heaps ``n`` and ``n - p`` have the same
    set of option elements. The core then places heap ``n`` as heap ``n - p`` without any change to
    the quotient (the proof automaton is unchanged), by induction on ``n``.

    Examples
    --------
    >>> import grundy as gr
    >>> p = gr.misere_quotient(gr.TakeAndBreak("0.33"), 8).period
    >>> p.period, p.proven  # 0.33 is subtraction of 1 or 2: period 3
    (3, True)
    """

    preperiod: int
    period: int
    checked_to: int
    proven: bool
    needed: int | None

    def __str__(self) -> str:
        what = "proven" if self.proven else "observed only"
        return f"period {self.period} from heap {self.preperiod} ({what}, computed to heap {self.checked_to})"


def _find_period(phi: np.ndarray) -> tuple[int, int] | None:
    """The least period ``p`` and then least ``n0 >= 1`` with two full periods seen, or None."""
    n_max = phi.size - 1
    for p in range(1, n_max // 2 + 1):
        same = phi[p:] == phi[:-p]  # same[m - p] is phi[m] == phi[m - p]
        bad = np.flatnonzero(~same)
        n0 = max(1, int(bad[-1]) + 1 if bad.size else 1)  # phi[m] == phi[m-p] for m - p >= n0
        if n_max >= n0 + 2 * p - 1:
            return n0, p
    return None
