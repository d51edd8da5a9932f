"""StateGame's batch rules (``batch=True``, issue 34): ``options(states)`` gets a numpy array of states and
returns ``(counts, sizes, parts)``; checked against brute force written here (whole positions, no
decomposition, no symmetry), through tabulation (``values``) and the search (``value``)."""

from __future__ import annotations

import functools
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import grundy as gr
from grundy.exceptions import ArgumentError, ArgumentTypeError


def mex(values: set[int]) -> int:
    g = 0
    while g in values:
        g += 1
    return g


@functools.cache
def cram_brute(board: frozenset[tuple[int, int]]) -> int:
    return mex({cram_brute(board - {c, o}) for c in board for o in ((c[0] + 1, c[1]), (c[0], c[1] + 1)) if o in board})


def cram_batch(size: int):  # type: ignore[no-untyped-def]
    """Cram in a size x size square (size <= 7), vectorized: cell (i, j) is bit 8 i + j (a row a byte, bit 7
    empty), each option's regions found by flood fill and put in canonical form (translated to the corner,
    least of the square's 8 symmetries), all with numpy."""
    u = np.uint64
    doms = [3 << (8 * i + j) for i in range(size) for j in range(size - 1)]
    doms += [257 << (8 * i + j) for i in range(size - 1) for j in range(size)]
    dom = np.array(doms, dtype=u)
    rev = np.array([int(f"{x:08b}"[::-1], 2) for x in range(256)], dtype=np.uint8)
    ctz = np.array([(x & -x).bit_length() - 1 if x else 0 for x in range(256)], dtype=u)

    def corner(x: np.ndarray) -> np.ndarray:
        b = x.view(np.uint8).reshape(-1, 8)
        return (x >> ((b != 0).argmax(1).astype(u) * u(8))) >> ctz[np.bitwise_or.reduce(b, axis=1)]

    def transpose(x: np.ndarray) -> np.ndarray:
        for mask, s in ((0x0F0F0F0F00000000, 28), (0x3333000033330000, 14), (0x5500550055005500, 7)):
            t = u(mask) & (x ^ (x << u(s)))
            x = x ^ t ^ (t >> u(s))
        return x

    def canonical(x: np.ndarray) -> np.ndarray:
        best = x
        for y in (x, transpose(x)):
            b = y.view(np.uint8).reshape(-1, 8)
            for img in (b, rev[b], b[:, ::-1], rev[b][:, ::-1]):
                best = np.minimum(best, corner(np.ascontiguousarray(img).view(u).ravel()))
        return best

    def options(states: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        ok = (states[:, None] & dom) == dom
        si, dj = np.nonzero(ok)
        rem = states[si] ^ dom[dj]
        idx = np.arange(rem.size)
        owner, parts = [np.zeros(0, dtype=np.intp)], [np.zeros(0, dtype=u)]
        while rem.size:
            r = rem & (~rem + u(1))  # the lowest cell left, grown to its region
            while not np.array_equal(g := (r | r << u(1) | r >> u(1) | r << u(8) | r >> u(8)) & rem, r):
                r = g
            owner.append(idx)
            parts.append(canonical(r))
            rem = rem ^ r
            idx, rem = idx[rem != 0], rem[rem != 0]
        o, p = np.concatenate(owner), np.concatenate(parts)
        order = np.argsort(o, kind="stable")
        return ok.sum(1), np.bincount(o, minlength=si.size), p[order]

    def mask(cells: list[tuple[int, int]]) -> int:
        return sum(1 << (8 * i + j) for i, j in cells)

    return options, mask


def test_cram_batch_rule_against_brute_force() -> None:
    options, mask = cram_batch(5)
    rng = random.Random(3)
    boards = []
    for r, c in [(1, 5), (2, 3), (2, 4), (3, 3), (3, 4), (4, 4)]:
        cells = [(i, j) for i in range(r) for j in range(c)]
        boards += [cells] + [rng.sample(cells, rng.randrange(len(cells))) for _ in range(5)]
    # A random board need not be one region: its regions are the roots' components.
    regions = functools.partial(split_regions, options)
    table = gr.StateGame(options, batch=True, components=regions, progress=False)
    search = gr.StateGame(options, batch=True, components=regions, progress=False)
    want = [cram_brute(frozenset(b)) for b in boards]
    assert table.values([mask(b) for b in boards]).tolist() == want
    assert [search.value(mask(b)) for b in boards] == want
    assert search.num_states == 0
    for b in boards[:20]:
        for w in search.winning_options(mask(b)):  # each option: its canonical regions, set apart
            apart = frozenset((b // 8, b % 8 + 10 * k) for k, p in enumerate(w) for b in range(64) if p >> b & 1)
            assert cram_brute(apart) == 0


def split_regions(options, m: int) -> list[int]:  # type: ignore[no-untyped-def]
    """The regions of board ``m`` (not canonical: the explorer keeps them as they are)."""
    parts = []
    while m:
        r = m & -m
        while (g := (r | r << 1 | r >> 1 | r << 8 | r >> 8) & m) != r:
            r = g
        parts.append(r)
        m ^= r
    return parts


def kayles_batch(states: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Kayles rows, each option the rows it leaves: a batch rule need not use numpy inside."""
    counts, sizes, parts = [], [], []
    for n in states.tolist():
        opts = [[x for x in (a, n - k - a) if x] for k in (1, 2) for a in range(n - k + 1)]
        counts.append(len(opts))
        sizes += [len(o) for o in opts]
        parts += [x for o in opts for x in o]
    return np.array(counts), np.array(sizes, dtype=np.int64), parts


def test_kayles_batch_matches_the_octal_game_and_options_read_back() -> None:
    g = gr.StateGame(kayles_batch, batch=True, progress=False)
    want = gr.TakeAndBreak("0.77").values(40).tolist()
    assert g.values(range(40)).tolist() == want
    assert [g.value(n) for n in range(0, 40, 7)] == want[0:40:7]
    assert g.moves(3) == [((2,), (2,)), ((1, 1), (1, 1)), ((2,), (2,)), ((1,), (1,)), ((1,), (1,))]
    assert g.winning_options(4) == [(1, 1)]
    assert "batch=True" in repr(g) and "batch" in g._repr_html_()
    assert type(g.components(True)[0]) is int  # ints kept in Rust: a bool comes back as 1


def test_bad_batch_rules() -> None:
    def short(states: np.ndarray) -> tuple[list[int], list[int], list[int]]:
        return [0] * (len(states) - 1), [], []

    def mismatched(states: np.ndarray) -> tuple[list[int], list[int], list[int]]:
        return [1] * len(states), [2] * len(states), [0]

    def negative(states: np.ndarray) -> tuple[list[int], list[int], list[int]]:
        return [-1] * len(states), [], []

    for rule in (short, mismatched, negative):
        with pytest.raises(ArgumentError, match="counts, sizes, parts"):
            gr.StateGame(rule, batch=True, progress=False).values([3])
    for rule in (lambda s: 5, lambda s: (["x"], [], []), lambda s: None):  # not integer arrays: TypeErrors
        for ask in ("values", "value"):
            with pytest.raises(ArgumentTypeError, match="counts, sizes, parts"):
                getattr(gr.StateGame(rule, batch=True, progress=False), ask)(3 if ask == "value" else [3])

    def boom(states: np.ndarray) -> None:
        raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError) as e:
        gr.StateGame(boom, batch=True, progress=False).values([1, 2])
    assert any("batch of 2 states" in n for n in getattr(e.value, "__notes__", []))
    with pytest.raises(ArgumentError, match="2\\*\\*64"):
        gr.StateGame(kayles_batch, batch=True, progress=False).values([2**70])
    with pytest.raises(ArgumentTypeError):
        gr.StateGame(kayles_batch, batch=True, progress=False).values(["x"])
    with pytest.raises(ArgumentError, match="loopy"):
        gr.StateGame(kayles_batch, batch=True, loopy=True)
    g = gr.StateGame(kayles_batch, batch=True, max_states=5, progress=False)
    with pytest.raises(gr.SearchLimitError):
        g.values([30])
    assert g.num_states == 0  # nothing of a failed exploration is kept
    assert g.values([3]).tolist() == [3]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")
def test_ctrl_c_stops_a_batch_exploration() -> None:
    here = Path(__file__).resolve()
    body = (
        "import sys\n"
        f"sys.path.insert(0, {str(here.parent)!r})\n"
        "import grundy as gr\n"
        "from test_state_batch import cram_batch\n"
        "options, mask = cram_batch(7)\n"
        "g = gr.StateGame(options, batch=True, progress=False)\n"
        "print('ready', flush=True)\n"
        "try:\n"
        "    g.values([mask([(i, j) for i in range(6) for j in range(7)])])\n"
        "    print('finished')\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', g.num_states, flush=True)\n"
    )
    root = here.parents[2]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root / "python"), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-c", body], stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    t = time.monotonic()
    out, _ = proc.communicate(timeout=60)
    assert out.strip().splitlines()[-1] == "interrupted 0"  # nothing of the stopped exploration kept
    assert time.monotonic() - t < 5  # a batch takes well under a second; generous on a loaded machine


# -- a batch rule that returns parts that are not states -----------------------------------------------
BAD_PARTS = {
    "negative": lambda: np.array([-1], dtype=np.int64),
    "most negative": lambda: np.array([-(2**63)], dtype=np.int64),
    "2**64": lambda: [2**64],
    "huge": lambda: [2**70 + 3],
    "float": lambda: np.array([1.5]),
    "whole float": lambda: np.array([2.0]),
    "nan": lambda: np.array([np.nan]),
    "2-d": lambda: np.zeros((1, 1), dtype=np.uint64),
    "str": lambda: np.array(["1"]),
}


@st.composite
def rules_with_a_bad_part(draw):  # type: ignore[no-untyped-def]
    """Options of states 0..11 (parts below the state, so no cycle), one state's options holding a bad part."""
    n = 12
    options = {
        s: draw(st.lists(st.lists(st.integers(0, s - 1), max_size=2), max_size=3)) if s else [] for s in range(n)
    }
    poisoned = draw(st.integers(0, n - 1))
    kind = draw(st.sampled_from(sorted(BAD_PARTS)))
    root = draw(st.integers(0, n - 1))
    return options, poisoned, kind, root


def _reachable(options: dict[int, list[list[int]]], root: int) -> set[int]:
    seen, todo = set(), [root]
    while todo:
        s = todo.pop()
        if s not in seen:
            seen.add(s)
            todo.extend(p for o in options[s] for p in o)
    return seen


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules_with_a_bad_part(), st.sampled_from(["value", "values", "winning_options"]))
def test_a_batch_rule_giving_a_bad_part_raises_and_is_never_asked_about_it(case, ask):  # type: ignore[no-untyped-def]

    options, poisoned, kind, root = case
    called: list[int] = []
    returned: set[int] = set()

    def rule(states: np.ndarray):  # type: ignore[no-untyped-def]
        counts, sizes, parts = [], [], []
        at = None  # where the poisoned state's extra option [0] puts its part: the bad part goes there
        for s in states.tolist():
            called.append(s)
            opts = options[s] + ([[0]] if s == poisoned else [])
            counts.append(len(opts))
            for o in opts:
                sizes.append(len(o))
                parts.extend(o)
            if s == poisoned:
                at = len(parts) - 1
        if at is None:
            returned.update(parts)
            return np.array(counts), np.array(sizes), np.array(parts, dtype=np.uint64)
        made = BAD_PARTS[kind]()
        if kind == "2-d":
            return np.array(counts), np.array(sizes), np.zeros((len(parts), 1), dtype=np.uint64)
        if isinstance(made, list):
            return counts, sizes, [*parts[:at], *made, *parts[at + 1 :]]
        return np.array(counts), np.array(sizes), np.concatenate([np.array(p).astype(made.dtype) for p in (
            parts[:at], made, parts[at + 1 :])])

    g = gr.StateGame(rule, batch=True, progress=False)
    reach = _reachable({s: options[s] + ([[0]] if s == poisoned else []) for s in options}, root)
    raised, got = None, None
    try:
        if ask == "values":
            got = g.values([root]).tolist()[0]
        elif ask == "value":
            got = g.value(root)
        else:
            got = len(g.winning_options(root))
    except (ArgumentError, ArgumentTypeError) as e:
        raised = e
        assert poisoned in reach, f"{type(e).__name__} for a rule that never returned a bad part: {e}"
        assert f"state {poisoned}" in str(e) or kind in ("2-d", "str", "whole float"), str(e)
    # An error exactly when the rule was asked about the poisoned state; tabulating asks about every
    # state reachable (the search may skip some: two equal parts cancel, whatever their value).
    assert (raised is not None) == (poisoned in called), f"{ask}({root}) = {got}, {kind} at {poisoned}: {called}"
    if ask == "values":
        assert (raised is not None) == (poisoned in reach)
    # The rule is asked only about the root and the parts it returned as valid states.
    assert set(called) <= {root} | returned, sorted(set(called) - {root} - returned)
    assert all(0 <= s < 12 for s in called)
