"""Misère play of sums: misère Nim by its exact rule, anything else by exhaustive search in the core.

Misère play has no sum rule. A sum whose every component is Nim follows misère Nim's rule (play as in
normal Nim unless that would leave only heaps of size <= 1; then leave an odd number of 1-heaps); any
other sum is decided by a memoised search over the positions reachable from it, which stops with
:class:`~grundy.SearchLimitError` after ``max_positions`` distinct positions.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from .. import _core
from .._validate import as_limit
from ..exceptions import SearchLimitError
from .components import Components, indices, misere_nim_is_p
from .move import Move

__all__ = ["MISERE_MAX_POSITIONS", "limit", "nim_moves", "search"]

#: Default limit of the exhaustive misère search (heap sums, graphs, state games): distinct positions examined.
#: The core's constant, so that there is one.
MISERE_MAX_POSITIONS = _core.MISERE_MAX_POSITIONS


def limit(max_positions: int | None) -> int:
    """Return the search limit a caller asked for, or the default.

    Examples
    --------
    >>> limit(None) == MISERE_MAX_POSITIONS, limit(5)
    (True, 5)
    """
    return MISERE_MAX_POSITIONS if max_positions is None else as_limit(max_positions, "max_positions")


def nim_moves(runs: Sequence[Components], heaps: np.ndarray) -> Iterator[Move]:
    """Yield every move of a misère Nim sum to a misère P-position.

    Move as in normal Nim unless that leaves only heaps of size <= 1; then leave an odd number of
    1-heaps. ``heaps`` are the sum's heaps in order, ``runs`` the runs holding them.

    Examples
    --------
    >>> import grundy as gr
    >>> pos = gr.Position(gr.nim(), [1, 1, 2])
    >>> [str(m) for m in nim_moves(pos._runs, np.array([1, 1, 2], dtype=np.uint64))]
    ['component 2: 2 -> 1']
    """
    h = heaps
    if misere_nim_is_p(h.reshape(1, -1))[0]:
        return
    x = int(_core.nim_sum(h)) if h.size else 0
    big_others = int(np.count_nonzero(h > 1)) - (h > 1)
    ones_others = int(np.count_nonzero(h == 1)) - (h == 1)
    target = h ^ np.uint64(x)
    # (a) nim-sum 0 with some heap > 1 left.
    a = (target < h) & ((big_others > 0) | (target > 1))
    # (b) only heaps <= 1 left, an odd number of them 1.
    one = (ones_others % 2 == 0).astype(np.uint64)
    b = (big_others == 0) & (one < h)
    owner = np.repeat(np.arange(len(runs)), [len(run) for run in runs])
    for i in indices(a | b):
        run = runs[owner[i]]
        for ok, to in ((a[i], int(target[i])), (b[i], int(one[i]))):
            if ok:
                yield Move(i, int(h[i]), run.nim_after(to))


def search(runs: Sequence[Components], max_positions: int, want_moves: bool) -> tuple[bool, list[Move]]:
    """Decide a sum by exhaustive search: whether it is a misère P-position, and its winning moves.

    Raises
    ------
    SearchLimitError
        After ``max_positions`` distinct positions.

    Examples
    --------
    >>> import grundy as gr
    >>> search(gr.Position(gr.kayles(), [2, 2])._runs, 1000, True)
    (True, [])
    """
    games: list[Any] = []
    root: list[tuple[int, int]] = []
    for g, b in enumerate(runs):
        core, ids = b.misere_root(max_positions)
        games.append(core)
        root += [(g, i) for i in ids]
    try:
        is_p, moves, _ = _core.misere_search(games, root, max_positions, want_moves)
    except SearchLimitError as e:
        hint = _quotient_hint(runs)
        if hint is None:
            raise
        raise SearchLimitError(f"{e}. {hint}", e.limit) from None
    starts = np.cumsum([0] + [len(b) for b in runs])
    out = []
    for c, after in moves:
        k = int(np.searchsorted(starts, c, side="right")) - 1
        b, i = runs[k], c - int(starts[k])
        out.append(Move(c, b.item(i), b.misere_after(i, after)))
    return is_p, out


def _quotient_hint(runs: Sequence[Components]) -> str | None:
    """How a misère quotient answers a sum of heaps of one heap game at once, when the sum is one.

    Examples
    --------
    >>> import grundy as gr
    >>> _quotient_hint(gr.Position(gr.kayles(), [25, 30])._runs)[:50]
    'Sums of heaps of Kayles 0.77 are played through it'
    >>> "gr.misere_quotient(game, 30)" in _quotient_hint(gr.Position(gr.kayles(), [25, 30])._runs)
    True
    """
    if not runs:
        return None
    whole = runs[0]
    for b in runs[1:]:
        if not whole.same_game(b):
            return None
        whole = whole.merge(b)
    return whole.misere_hint()
