"""Periodicity and sparse space of a game's values, as results researchers can read and reuse."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

import numpy as np

from .._ui.display import HTML_VALUES, _count, card, values_row
from .._validate import as_count
from ..exceptions import ArgumentError, ArgumentTypeError

#: How many values ``game.periodicity()`` examines at most unless told otherwise.
DEFAULT_MAX_N = 2**16

#: ``game.value(h)`` computes G(h) directly below this; above it, it goes through a proven period.
DIRECT_LIMIT = 2**16


@dataclass(frozen=True)
class Periodicity:
    """Where a game's values become periodic: G(n + period) = G(n) + saltus for n >= preperiod.

    Returned by :meth:`Game.periodicity <grundy.Game.periodicity>` (and
    :meth:`TwoHeapRow.periodicity <grundy.TwoHeapRow.periodicity>`); the parameters are also its
    attributes. Immutable; two results are equal when their fields other than ``base`` are.

    Parameters
    ----------
    preperiod : int or None
        The first heap size from which the values repeat, or None when no period was found.
    period : int or None
        The length of the period, or None when no period was found.
    saltus : int
        What a period adds to the values (0 for a plain period).
    proven : bool
        Whether a theorem (named in ``certificate``) guarantees the period for every heap size;
        otherwise it was only observed in the ``checked_to`` values examined.
    certificate : str
        The theorem applied and the range of heap sizes it was verified over, or what was observed.
    checked_to : int
        How many values were examined.
    base : numpy.ndarray, optional
        G(preperiod .. preperiod + period - 1), enough to evaluate any heap size by :meth:`value`:
        a read-only array of unsigned integers (a sequence of ints is converted). An array, not a
        tuple of Python ints: the period of 0.1777 has 60,620,715 values, 61 MB here against
        485 MB as a tuple.

    See Also
    --------
    grundy.Game.periodicity : Where results come from.

    Examples
    --------
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
    # G(preperiod .. preperiod + period - 1), read-only (documented with the parameters above).
    base: np.ndarray = field(default_factory=lambda: _frozen(()), repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "base", _frozen(self.base))

    @property
    def found(self) -> bool:
        """Whether a period was found at all.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.kayles().periodicity().found
        True
        """
        return self.period is not None

    def value(self, h: int) -> int:
        """Return G(h) for h >= preperiod, through the period.

        Parameters
        ----------
        h : int
            A heap size, at least ``preperiod``.

        Returns
        -------
        int
            ``base[(h - preperiod) % period] + saltus * ((h - preperiod) // period)``.

        Raises
        ------
        ValueError
            When no period was found, or ``h`` is below the preperiod.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.nim().periodicity().value(10**18)
        1000000000000000000
        """
        h = as_count(h, "h")
        if self.period is None or self.preperiod is None or h < self.preperiod:
            raise ArgumentError(f"G({h}) cannot be read off {self!r}")
        q, r = divmod(h - self.preperiod, self.period)
        return int(self.base[r]) + self.saltus * q

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
        return periodicity_html(self)


def _frozen(values: Sequence[int] | np.ndarray) -> np.ndarray:
    """``values`` as a read-only array of unsigned integers (unchanged if it already is one).

    >>> _frozen((3, 1)).flags.writeable
    False
    """
    a = np.asarray(values)
    if a.size == 0:
        a = np.zeros(0, dtype=np.uint8)
    if a.ndim != 1 or a.dtype.kind not in "ui":
        raise ArgumentTypeError(
            "base must be a one-dimensional sequence of "
            f"integers, not {a.dtype} of shape {a.shape}"
        )
    if a.dtype.kind == "i":
        if a.min() < 0:
            raise ArgumentError("base holds a negative value; Grundy values are at least 0")
        a = a.astype(np.min_scalar_type(int(a.max())))
    elif a.flags.writeable and isinstance(values, np.ndarray):
        # The caller's array, or a view into a larger one: not ours to freeze, nor to keep alive.
        a = a.copy()
    a.flags.writeable = False
    return a


@dataclass(frozen=True)
class SparseSpace:
    """Rare and common values of G(0..n-1) under the mask that makes rare positions fewest.

    A value v is rare when popcount(v & mask) is even (flipped at odd heap sizes when
    ``parity_dependent``), common otherwise. Returned by
    :meth:`Game.sparse_space <grundy.Game.sparse_space>`; the parameters are also its attributes.

    Parameters
    ----------
    n : int
        How many values were analysed (heap sizes 0 to n-1).
    mask : int
        The mask.
    parity_dependent : bool
        Whether rarity flips at odd heap sizes.
    rare_positions : numpy.ndarray
        The heap sizes holding rare values, in increasing order (``uint64``).
    rare_values : tuple of int
        The distinct rare values, sorted.
    common_count : int
        How many heap sizes hold a common value.

    Examples
    --------
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
        """How many of the n heap sizes hold a rare value.

        Examples
        --------
        >>> import grundy as gr
        >>> s = gr.grundys_game().sparse_space(1000)
        >>> s.rare_count + s.common_count == s.n
        True
        """
        return int(self.rare_positions.size)

    @property
    def last_rare(self) -> int | None:
        """The largest heap size with a rare value, or None.

        Examples
        --------
        >>> import grundy as gr
        >>> s = gr.grundys_game().sparse_space(1000)
        >>> s.last_rare == int(s.rare_positions[-1])
        True
        """
        return int(self.rare_positions[-1]) if self.rare_positions.size else None

    def is_rare(self, value: int, heap: int = 0) -> bool:
        """Say whether ``value`` at heap size ``heap`` is rare under this mask.

        Parameters
        ----------
        value : int
            A Grundy value.
        heap : int, default 0
            The heap size it is the value of (matters only when ``parity_dependent``).

        Returns
        -------
        bool
            True when rare, False when common.

        Examples
        --------
        >>> import grundy as gr
        >>> s = gr.grundys_game().sparse_space(1000)
        >>> g = gr.grundys_game().values(1000)
        >>> all(s.is_rare(int(g[h]), h) for h in s.rare_positions.tolist())
        True
        """
        value, heap = as_count(value, "value"), as_count(heap, "heap")
        bits = bin(value & self.mask).count("1") + (heap % 2 if self.parity_dependent else 0)
        return bits % 2 == 0

    def __repr__(self) -> str:
        return (
            f"SparseSpace(n={self.n}, mask={self.mask:#b}, parity_dependent={self.parity_dependent}, "
            f"rare_count={self.rare_count}, last_rare={self.last_rare}, common_count={self.common_count})"
        )

    def _repr_html_(self) -> str:
        return sparse_html(self)



def period_text(p: Periodicity) -> str:
    """A short phrase for a periodicity result.

    >>> import grundy as gr
    >>> period_text(gr.kayles().periodicity())
    'period 12 from n = 71 (proven)'
    """
    if p.period is None:
        return f"no period in the first {_count(p.checked_to)} values"
    saltus = f", saltus {p.saltus}" if p.saltus else ""
    how = "proven" if p.proven else f"observed in {_count(p.checked_to)} values"
    return f"period {p.period} from n = {p.preperiod}{saltus} ({how})"


# -- display --------------------------------------------------------------------------------------
def periodicity_html(p: Periodicity) -> str:
    """The notebook display of a :class:`~grundy.Periodicity`.

    >>> import grundy as gr
    >>> "proven" in periodicity_html(gr.kayles().periodicity())
    True
    """
    rows: list[tuple[str, str]] = []
    if p.period is None:
        rows.append(("period", f"none found in G(0..{p.checked_to - 1})"))
    else:
        rows += [
            ("preperiod", str(p.preperiod)),
            ("period", str(p.period)),
            ("saltus", str(p.saltus)),
            ("status", "proven" if p.proven else f"observed only (in {_count(p.checked_to)} values)"),
            ("values examined", _count(p.checked_to)),
        ]
        if len(p.base):
            k = min(len(p.base), HTML_VALUES)
            rows.append(("one period", values_row(p.base[:k], start=p.preperiod or 0, more=len(p.base) > k)))
    rows.append(("certificate", escape(p.certificate)))
    return card("Periodicity", rows)


def sparse_text(s: SparseSpace) -> str:
    last = "" if s.last_rare is None else f", the last at n = {s.last_rare}"
    parity = ", flipped at odd n" if s.parity_dependent else ""
    return f"mask {s.mask:#b}{parity}: {_count(s.rare_count)} rare of {_count(s.n)} heap sizes{last}"


def sparse_html(s: SparseSpace) -> str:
    """The notebook display of a :class:`~grundy.SparseSpace`.

    >>> import grundy as gr
    >>> "rare" in sparse_html(gr.grundys_game().sparse_space(500))
    True
    """
    k = 40
    shown = ", ".join(map(str, s.rare_positions[:k].tolist())) + (", &hellip;" if s.rare_count > k else "")
    values = ", ".join(map(str, s.rare_values[:k])) + (", &hellip;" if len(s.rare_values) > k else "")
    rows = [
        ("mask", f"<code>{s.mask:#b}</code>" + (" (flipped at odd heap sizes)" if s.parity_dependent else "")),
        ("heap sizes", _count(s.n)),
        ("rare", f"{_count(s.rare_count)} ({s.rare_count / s.n:.2%})" if s.n else "0"),
        ("common", _count(s.common_count)),
        ("last rare", "none" if s.last_rare is None else str(s.last_rare)),
        ("rare positions", shown or "none"),
        ("rare values", values or "none"),
    ]
    return card("Sparse space", rows)


__all__ = ["DEFAULT_MAX_N", "DIRECT_LIMIT", "Periodicity", "SparseSpace"]
