"""Independent checks of the atlas's values (issue 41): a second method that shares no code with the search.

The second method is written here: a plain memoised mex over components (regions by flood fill, each
kept once up to the grid's mirror symmetries, no pruning). It checks every Node Kayles 3 x n value up
to ``atlas.CHECKED_3XN`` (n > 12 in the slow lane: the states grow about 1.8 times a column, and this
method takes about a minute for n <= 18 on one core, and over two minutes more for 3 x 19 and 3 x 20:
n = 24 is out of its reach), every Node Kayles and Cram board of at most ``atlas.CHECKED_CELLS`` cells,
and the published terms. The results page's ``checked`` column says exactly these boards, from the
same constants. A hypothesis test compares the search with a tabulation of every reachable state
(``gr.StateGame``, the core's explicit-graph engine, no pruning) and with the memoised mex on random
mid-game positions.
"""

from __future__ import annotations

import sys
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy as gr
from grundy.surveys import atlas

MIB = 1 << 20

# The published terms, copied here (OEIS A316632, the whole published range; Beling's Cram table).
A316632 = [2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3]
CRAM = {(4, 5): 2, (4, 7): 3, (4, 9): 1, (4, 11): 1, (5, 5): 0, (5, 6): 2, (5, 7): 1, (5, 8): 1, (6, 7): 5}

# -- Node Kayles on 3-row strips: a column a nibble (bit 4c + r, r < 3) -------------------------------
_NB = 48  # columns the masks may hold (a part never leaves its board's columns)
_R0 = sum(1 << 4 * c for c in range(_NB))
_R1, _R2 = _R0 << 1, _R0 << 2
_CELLS = _R0 | _R1 | _R2
_NOT_R0, _NOT_R2 = _CELLS & ~_R0, _CELLS & ~_R2
_BYTES = _NB // 2
_SWAP = bytes((b & 15) << 4 | b >> 4 for b in range(256))  # the two columns of a byte exchanged


def _table(flip):
    return bytes(flip(b & 15) | flip(b >> 4) << 4 for b in range(256))


_FLIP3 = _table(lambda x: (x & 1) << 2 | x & 2 | (x & 4) >> 2)  # rows 0 and 2 exchanged
_FLIP2 = _table(lambda x: (x & 1) << 1 | (x & 2) >> 1)  # rows 0 and 1 exchanged (a part two rows high)


def _to_corner(x):
    return x >> (((x & -x).bit_length() - 1) & ~3)  # to column 0


def canonical3(part):
    """The least of a part's images under the strip's mirrors (up-down, left-right), moved to the corner."""
    k = _to_corner(part)
    while not k & _R0:
        k >>= 1  # to row 0
    b = k.to_bytes(_BYTES, "little")
    up_down = int.from_bytes(b.translate(_FLIP3 if k & _R2 else _FLIP2 if k & _R1 else bytes(range(256))), "little")
    images = [k, up_down]
    for x in (k, up_down):
        images.append(_to_corner(int.from_bytes(x.to_bytes(_BYTES, "little").translate(_SWAP), "big")))
    return min(images)


def _closed(i):
    """Cell i and its neighbours."""
    m = 1 << i | 1 << (i + 4) | (1 << (i - 4) if i >= 4 else 0)
    m |= (1 << (i - 1) if i % 4 else 0) | (1 << (i + 1) if i % 4 < 2 else 0)
    return m & _CELLS


_CLOSED = [_closed(i) for i in range(4 * _NB)]


def regions3(m):
    """The connected parts of ``m`` (4-neighbours), by flood fill."""
    out = []
    while m:
        r = m & -m
        while (grown := (r | r << 4 | r >> 4 | (r << 1 & _NOT_R0) | (r >> 1 & _NOT_R2)) & m) != r:
            r = grown
        out.append(r)
        m ^= r
    return out


_MEMO3 = {0: 0}


def nk3_value(k):
    """G of the canonical part ``k``: the mex over its moves of the XOR of the parts each leaves."""
    v = _MEMO3.get(k)
    if v is None:
        seen = set()
        x = k
        while x:
            low = x & -x
            x ^= low
            g = 0
            for p in regions3(k & ~_CLOSED[low.bit_length() - 1]):
                g ^= nk3_value(canonical3(p))
            seen.add(g)
        v = next(v for v in range(len(seen) + 1) if v not in seen)
        _MEMO3[k] = v
    return v


def strip3(n):
    return sum(7 << 4 * c for c in range(n))


SLOW_FROM = 13  # 3 x 13 .. 3 x CHECKED_3XN: seconds to a minute here, in the slow lane


@pytest.mark.parametrize(
    "n",
    [pytest.param(n, marks=pytest.mark.slow) if n >= SLOW_FROM else n for n in range(1, atlas.CHECKED_3XN + 1)],
)
def test_node_kayles_3xn_by_a_memoised_mex_over_components(n):
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    want = nk3_value(canonical3(strip3(n)))
    assert gr.node_kayles(grid=(3, n), memory=64 * MIB).value(threads=1) == want
    if n <= len(A316632):
        assert want == A316632[n - 1]


def test_the_published_terms_are_those_the_atlas_compares_with():
    assert atlas.A316632 == A316632
    for (r, c), v in CRAM.items():
        assert atlas.PUBLISHED["cram", r, c][0] == v
    assert atlas.second_method("node_kayles", 3, atlas.CHECKED_3XN)
    assert not atlas.second_method("node_kayles", 3, atlas.CHECKED_3XN + 1)


# -- any board of a few cells: cells as (row, col), parts kept up to the square's 8 symmetries --------
def _regions(cells):
    left, out = set(cells), []
    while left:
        stack = [left.pop()]
        part = set(stack)
        while stack:
            r, c = stack.pop()
            for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if n in left:
                    left.remove(n)
                    part.add(n)
                    stack.append(n)
        out.append(frozenset(part))
    return out


def _key(part):
    images = []
    for f in (
        lambda r, c: (r, c), lambda r, c: (r, -c), lambda r, c: (-r, c), lambda r, c: (-r, -c),
        lambda r, c: (c, r), lambda r, c: (c, -r), lambda r, c: (-c, r), lambda r, c: (-c, -r),
    ):  # fmt: skip
        moved = [f(r, c) for r, c in part]
        r0, c0 = min(r for r, _ in moved), min(c for _, c in moved)
        images.append(tuple(sorted((r - r0, c - c0) for r, c in moved)))
    return min(images)


def _moves(game, part):
    if game == "cram":
        return [part - {a, b} for a in part for b in ((a[0] + 1, a[1]), (a[0], a[1] + 1)) if b in part]
    return [part - {v, (v[0] + 1, v[1]), (v[0] - 1, v[1]), (v[0], v[1] + 1), (v[0], v[1] - 1)} for v in part]


@cache
def part_value(game, key):
    seen = set()
    for left in _moves(game, frozenset(key)):
        g = 0
        for p in _regions(left):
            g ^= part_value(game, _key(p))
        seen.add(g)
    return next(v for v in range(len(seen) + 1) if v not in seen)


def memo_value(game, cells):
    g = 0
    for p in _regions(cells):
        g ^= part_value(game, _key(p))
    return g


SMALL = [(r, c) for r in range(1, 6) for c in range(r, atlas.CHECKED_CELLS + 1) if r * c <= atlas.CHECKED_CELLS]


@pytest.mark.parametrize("game", ["node_kayles", "cram"])
@pytest.mark.parametrize("rows, cols", SMALL)
def test_every_small_board_by_a_memoised_mex_over_components(game, rows, cols):
    assert atlas.second_method(game, rows, cols) and atlas.second_method(game, cols, rows)
    want = memo_value(game, [(r, c) for r in range(rows) for c in range(cols)])
    assert atlas.Board(game, rows, cols).build(MIB).value(threads=1) == want
    if game == "cram" and (rows, cols) in CRAM:
        assert want == CRAM[rows, cols]


# -- mid-game positions: search against a tabulation of every reachable state -----------------------
def _tabulated(game, rows, cols, free):
    """G of the position ``free`` (a bitmask, cell r * cols + c) by the core's explicit-graph tabulation."""
    n = rows * cols
    if game == "cram":
        pairs = [(1 << i | 1 << i + 1) for i in range(n) if i % cols < cols - 1]
        pairs += [(1 << i | 1 << i + cols) for i in range(n - cols)]
        moves = [lambda m, p=p: m & ~p if m & p == p else None for p in pairs]
    else:
        closed = []
        for i in range(n):
            m = 1 << i | (1 << i - cols if i >= cols else 0) | (1 << i + cols if i + cols < n else 0)
            m |= (1 << i - 1 if i % cols else 0) | (1 << i + 1 if i % cols < cols - 1 else 0)
            closed.append(m)
        moves = [lambda m, i=i: m & ~closed[i] if m >> i & 1 else None for i in range(n)]

    def options(m):
        return [o for f in moves if (o := f(m)) is not None]

    return int(gr.StateGame(options).values([free])[0])


@st.composite
def positions(draw):
    game = draw(st.sampled_from(["node_kayles", "cram"]))
    rows = draw(st.integers(1, 4))
    cols = draw(st.integers(1, 16 // rows))
    blocked = draw(st.lists(st.booleans(), min_size=rows * cols, max_size=rows * cols))
    return game, rows, cols, np.array(blocked, dtype=bool).reshape(rows, cols)


@settings(max_examples=60, deadline=None)
@given(positions())
def test_search_and_tabulation_agree_on_mid_game_positions(pos):
    game, rows, cols, blocked = pos
    board = atlas.Board(game, rows, cols).build(MIB)
    state = board.state(blocked)
    free = sum(1 << (r * cols + c) for r in range(rows) for c in range(cols) if not blocked[r, c])
    cells = [(r, c) for r in range(rows) for c in range(cols) if not blocked[r, c]]
    want = _tabulated(game, rows, cols, free)
    assert board.value(state, threads=1) == want
    assert memo_value(game, cells) == want
