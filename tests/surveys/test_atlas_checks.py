"""Independent checks of the atlas's values (issue 41): a second method that shares no code with the search.

The second method is written here: a plain memoised mex over components (regions by flood fill, each
kept once up to the grid's mirror symmetries, no pruning). It checks every Node Kayles 3 x n value up
to ``atlas.CHECKED_3XN`` (written twice: part by part with a dict, and vectorized with numpy over
every part reachable; n > 12 by the second alone, in the slow lane: the parts grow about 1.8 times a
column, 386,000 for 3 x 20, tabulated in about 4 minutes on a loaded 2-core machine, so 3 x 24 is out
of a test's reach), every Node Kayles and Cram board of at most ``atlas.CHECKED_CELLS`` cells, and
the published terms. The results page's ``checked`` column says exactly these boards, from the
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


# -- the same method vectorized: every part reachable, tabulated by number of cells ------------------
# Rows as three uint32 bitsets (bit c: column c, n <= 24); a part's canonical form is packed into
# (hi, lo) and found by a 64-bit hash, checked: two parts with one hash, or a part not tabulated,
# fail the test, never give a wrong value.
U32, U64 = np.uint32, np.uint64
_REV8U8 = np.array([int(f"{b:08b}"[::-1], 2) for b in range(256)], dtype=np.uint8)


def _ctz(x):
    """Trailing zeros of each nonzero uint32/uint64 (exact: a power of two is exact in float64)."""
    x = x.astype(U64)
    return (np.frexp((x & (~x + U64(1))).astype(np.float64))[1] - 1).astype(U64)


def _popcount(x):
    x = x.astype(U32)
    x = x - ((x >> U32(1)) & U32(0x55555555))
    x = (x & U32(0x33333333)) + ((x >> U32(2)) & U32(0x33333333))
    x = (x + (x >> U32(4))) & U32(0x0F0F0F0F)
    return (x * U32(0x01010101)) >> U32(24)


def _rev32(x):
    """Each 24-bit row reversed (bit 0 to bit 31; _to_corner shifts it back)."""
    b = np.ascontiguousarray(x, dtype=U32).view(np.uint8).reshape(-1, 4)[:, ::-1]
    return _REV8U8[b].reshape(-1).view(U32) if b.size else x


def _corner_rows(r0, r1, r2):
    """Move parts (arrays of rows) to row 0 and column 0."""
    for _ in range(2):
        up = r0 == 0
        r0, r1, r2 = np.where(up, r1, r0), np.where(up, r2, r1), np.where(up, U32(0), r2)
    s = _ctz(r0 | r1 | r2).astype(U32)
    return r0 >> s, r1 >> s, r2 >> s


def _pack(r0, r1, r2):
    lo = r0.astype(U64) | r1.astype(U64) << U64(24) | (r2.astype(U64) & U64(0xFFFF)) << U64(48)
    return r2.astype(U64) >> U64(16), lo


def _canonical(r0, r1, r2):
    """(hi, lo) of the least of each part's images under the strip's mirrors (up-down, left-right)."""
    r0, r1, r2 = _corner_rows(r0, r1, r2)
    h3, h2 = r2 != 0, (r2 == 0) & (r1 != 0)
    u0 = np.where(h3, r2, np.where(h2, r1, r0))
    u1 = np.where(h2, r0, r1)
    u2 = np.where(h3, r0, r2)
    best = None
    for a, b, c in ((r0, r1, r2), (u0, u1, u2)):
        for img in ((a, b, c), _corner_rows(_rev32(a), _rev32(b), _rev32(c))):
            hi, lo = _pack(*img)
            if best is None:
                best = (hi, lo)
            else:
                less = (hi < best[0]) | ((hi == best[0]) & (lo < best[1]))
                best = (np.where(less, hi, best[0]), np.where(less, lo, best[1]))
    return best


def _unpack(hi, lo):
    m = U64(0xFFFFFF)
    return ((lo & m).astype(U32), ((lo >> U64(24)) & m).astype(U32),
            ((lo >> U64(48)) | (hi << U64(16))).astype(U32))


def _hash(hi, lo):
    x = lo * U64(0x9E3779B97F4A7C15) ^ (hi + U64(0x632BE59BD9B4E019)) * U64(0xC2B2AE3D27D4EB4F)
    return x ^ (x >> U64(29))


def _spread(g, p):
    """``g`` grown along the runs of ``p`` it touches, both ways along the row (occluded fill)."""
    left, q = g, p
    for k in (1, 2, 4, 8, 16):
        left = left | (q & (left << U32(k)))
        q = q & (q << U32(k))
    right, q = g, p
    for k in (1, 2, 4, 8, 16):
        right = right | (q & (right >> U32(k)))
        q = q & (q >> U32(k))
    return left | right


def _regions_rows(m0, m1, m2):
    """The connected parts of each position: (owner index, r0, r1, r2) arrays."""
    left = (m0 | m1 | m2) != 0
    owner, m0, m1, m2 = np.nonzero(left)[0], m0[left], m1[left], m2[left]
    out = []
    while owner.size:
        r0 = m0 & (~m0 + U32(1))
        r1 = np.where(r0 == 0, m1 & (~m1 + U32(1)), U32(0))
        r2 = np.where((r0 == 0) & (r1 == 0), m2 & (~m2 + U32(1)), U32(0))
        while True:
            g0 = _spread(r0 | (r1 & m0), m0)
            g1 = _spread(r1 | ((g0 | r2) & m1), m1)
            g2 = _spread(r2 | (g1 & m2), m2)
            if np.array_equal(g0, r0) and np.array_equal(g1, r1) and np.array_equal(g2, r2):
                break
            r0, r1, r2 = g0, g1, g2
        out.append((owner, r0, r1, r2))
        m0, m1, m2 = m0 ^ r0, m1 ^ r1, m2 ^ r2
        left = (m0 | m1 | m2) != 0
        owner, m0, m1, m2 = owner[left], m0[left], m1[left], m2[left]
    if not out:
        return (np.zeros(0, dtype=np.intp),) + (np.zeros(0, dtype=U32),) * 3
    return tuple(np.concatenate(x) for x in zip(*out, strict=True))


_CLOSED_ROWS = np.zeros((3, 72), dtype=U32)  # move 24 * row + col: the cell and its neighbours, by row
for _r in range(3):
    for _c in range(24):
        _CLOSED_ROWS[_r, 24 * _r + _c] = (7 << _c >> 1) & 0xFFFFFF
        for _o in (_r - 1, _r + 1):
            if 0 <= _o < 3:
                _CLOSED_ROWS[_o, 24 * _r + _c] = 1 << _c
_BIT = np.arange(24, dtype=U32)


def _moves_rows(r0, r1, r2):
    """Every (state, move) pair and the parts the move leaves: (pair state, parts' owner pair, hi, lo)."""
    has = np.concatenate([(r[:, None] >> _BIT) & U32(1) for r in (r0, r1, r2)], axis=1).astype(bool)
    s, m = np.nonzero(has)  # sorted by state
    rest = [r[s] & ~_CLOSED_ROWS[i, m] for i, r in enumerate((r0, r1, r2))]
    owner, p0, p1, p2 = _regions_rows(*rest)
    hi, lo = _canonical(p0, p1, p2)
    return s, owner, hi, lo


def tabulate3(n_max, batch=20000):
    """G of Node Kayles on 3 x n for n = 1..n_max (n_max <= 24), and the number of parts tabulated."""
    assert 1 <= n_max <= 24
    full = np.array([(1 << n) - 1 for n in range(1, n_max + 1)], dtype=U32)
    hi, lo = _canonical(full, full.copy(), full.copy())
    seen_h = np.unique(_hash(hi, lo))
    keys = [(hi, lo)]
    frontier = (hi, lo)
    while frontier[0].size:  # every part reachable, found round by round
        new_hi, new_lo = [], []
        for i in range(0, frontier[0].size, batch):
            _, _, chi, clo = _moves_rows(*_unpack(frontier[0][i:i + batch], frontier[1][i:i + batch]))
            h = _hash(chi, clo)
            h, first = np.unique(h, return_index=True)
            fresh = ~np.isin(h, seen_h, assume_unique=True)
            new_hi.append(chi[first[fresh]])
            new_lo.append(clo[first[fresh]])
            seen_h = np.union1d(seen_h, h[fresh])
        frontier = (np.concatenate(new_hi), np.concatenate(new_lo))
        keys.append(frontier)
    hi, lo = (np.concatenate(x) for x in zip(*keys, strict=True))
    h = _hash(hi, lo)
    order = np.argsort(h)
    h, hi, lo = h[order], hi[order], lo[order]
    assert np.all(np.diff(h) > 0), "two parts share a hash: change _hash"
    rows = _unpack(hi, lo)
    cells = sum(_popcount(r).astype(np.int64) for r in rows)
    values = np.full(h.size, -1, dtype=np.int64)
    for k in np.unique(cells):  # by number of cells: a move leaves fewer
        layer = np.nonzero(cells == k)[0]
        for i in range(0, layer.size, batch):
            idx = layer[i:i + batch]
            s, owner, phi, plo = _moves_rows(*(r[idx] for r in rows))
            at = np.searchsorted(h, _hash(phi, plo))
            assert np.all(hi[at] == phi) and np.all(lo[at] == plo), "a part was not tabulated"
            pv = values[at]
            assert np.all(pv >= 0)
            x = np.zeros(s.size, dtype=np.int64)
            np.bitwise_xor.at(x, owner, pv)
            assert x.max() < 63
            starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
            seen = np.bitwise_or.reduceat(np.left_shift(1, x).astype(U64), starts)
            values[idx[s[starts]]] = _ctz(~seen).astype(np.int64)
    at = np.searchsorted(h, _hash(*_canonical(full, full.copy(), full.copy())))
    return values[at].tolist(), h.size


FAST = 12  # 3 x 1 .. 3 x 12 by both methods in the default lane; the rest by tabulation, in the slow lane


@cache
def _tabulated3(n_max):
    return tabulate3(n_max)[0]


def test_node_kayles_3xn_small_by_both_methods_the_search_and_the_published_terms():
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    by_memo = [nk3_value(canonical3(strip3(n))) for n in range(1, FAST + 1)]
    assert by_memo == _tabulated3(FAST) == A316632[:FAST]
    assert [gr.node_kayles(grid=(3, n), memory=MIB).value(threads=1) for n in range(1, FAST + 1)] == by_memo


@pytest.mark.slow
@pytest.mark.parametrize("n", range(FAST + 1, atlas.CHECKED_3XN + 1))
def test_node_kayles_3xn_by_tabulation_over_components(n):
    # One tabulation to CHECKED_3XN for every n (minutes: about 4 on a loaded 2-core machine for 20).
    want = _tabulated3(atlas.CHECKED_3XN)[n - 1]
    assert gr.node_kayles(grid=(3, n), memory=64 * MIB).value(threads=1) == want
    if n <= len(A316632):
        assert want == A316632[n - 1]


def test_the_published_terms_are_those_the_atlas_compares_with():
    assert atlas.A316632 == A316632
    for (r, c), v in CRAM.items():
        assert atlas.PUBLISHED["cram", r, c][0] == v
    assert atlas.second_method("node_kayles", 3, atlas.CHECKED_3XN)
    assert atlas.second_method("node_kayles", 3, atlas.CHECKED_3XN_TABULATED)
    assert not atlas.second_method("node_kayles", 3, atlas.CHECKED_3XN_TABULATED + 1)


def test_the_checked_column_marks_exactly_the_tabulated_grids():
    # The release-lane test (src/nimber_search/tests.rs) reads the line that defines the constant, so
    # the boards it tabulates are these; here, that the page's column marks exactly them.
    for rows, last in atlas.CHECKED_GRIDS_TABULATED.items():
        assert atlas.second_method("node_kayles", rows, last)
        assert atlas.second_method("node_kayles", last, rows)  # a board and its transpose
        assert not atlas.second_method("node_kayles", rows, last + 1)
        assert not atlas.second_method("cram", rows, last) or rows * last <= atlas.CHECKED_CELLS


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
