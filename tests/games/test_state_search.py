"""StateGame's fast rules (issue 34): ``split=True`` (options as canonical parts), ``int_states=True``
(states kept in Rust) and ``value`` by pruned search, against brute force written here.

Each game is solved three ways: a brute-force recursion over whole positions (no decomposition, no
symmetry, no pruning), tabulation (``values``) and the search (``value``); every winning move the
search reports must lead to a P-position of the brute force, and every P-option must be reported.
"""

from __future__ import annotations

import functools
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import grundy as gr
from grundy.exceptions import ArgumentError, ArgumentTypeError, CycleError


def mex(values: set[int]) -> int:
    g = 0
    while g in values:
        g += 1
    return g


# -- Kayles: a row of n pins, knock down one or two adjacent ---------------------------------------
def kayles_split(n: int) -> list[tuple[int, ...]]:
    return [tuple(x for x in (a, n - k - a) if x) for k in (1, 2) for a in range(n - k + 1)]


@functools.cache
def kayles_brute(rows: tuple[int, ...]) -> int:
    """G of a multiset of rows, by recursion over whole positions."""
    opts = set()
    for i, n in enumerate(rows):
        rest = rows[:i] + rows[i + 1 :]
        for parts in kayles_split(n):
            opts.add(kayles_brute(tuple(sorted(rest + parts))))
    return mex(opts)


def test_kayles_split_rule_search_and_tabulation_agree_with_brute_force() -> None:
    search = gr.StateGame(kayles_split, split=True, int_states=True, progress=False)
    table = gr.StateGame(kayles_split, split=True, int_states=True, progress=False)
    want = [kayles_brute((n,)) for n in range(16)]
    assert table.values(range(16)).tolist() == want
    assert search.num_states == 0
    assert [search.value(n) for n in range(16)] == want
    assert search.num_states == 0  # the search tabulates nothing
    for n in range(1, 16):
        wins = search.winning_options(n)
        assert all(kayles_brute(tuple(sorted(w))) == 0 for w in wins)
        assert sorted(wins) == sorted(o for o in kayles_split(n) if kayles_brute(tuple(sorted(o))) == 0)
    # A root that is a sum: components and key apply to the states asked about.
    rows = gr.StateGame(kayles_split, split=True, int_states=True, components=lambda s: list(s), progress=False)
    assert rows.value((3, 5, 6)) == kayles_brute((3, 5, 6)) == rows.values([(3, 5, 6)])[0]


# -- Node Kayles on one graph: a state is the bitmask of the vertices left ---------------------------
def random_graph(n: int, p: float, seed: int) -> list[int]:
    rng = random.Random(seed)
    nbr = [0] * n
    for u in range(n):
        for v in range(u + 1, n):
            if rng.random() < p:
                nbr[u] |= 1 << v
                nbr[v] |= 1 << u
    return nbr


def node_kayles(nbr: list[int]):  # type: ignore[no-untyped-def]
    def options(m: int) -> list[int]:
        return [m & ~(1 << v | nbr[v]) for v in range(len(nbr)) if m >> v & 1]

    def components(m: int) -> list[int]:
        parts = []
        while m:
            r = m & -m
            while True:
                g = r
                for v in range(len(nbr)):
                    if r >> v & 1:
                        g |= nbr[v] & m
                if g == r:
                    break
                r = g
            parts.append(r)
            m &= ~r
        return parts

    @functools.cache
    def brute(m: int) -> int:
        return mex({brute(o) for o in options(m)})

    return options, components, brute


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_node_kayles_search_agrees_on_every_state(seed: int) -> None:
    nbr = random_graph(11, 0.25, seed)
    options, components, brute = node_kayles(nbr)
    full = (1 << len(nbr)) - 1
    plain = gr.StateGame(options, int_states=True, progress=False)
    split = gr.StateGame(options, components=components, int_states=True, progress=False)
    states = list(range(full + 1))
    want = [brute(m) for m in states]
    assert plain.values(states).tolist() == want
    assert split.values(states).tolist() == want
    rng = random.Random(seed)
    for m in rng.sample(states, 150) + [full]:
        assert plain.value(m) == want[m]
        assert split.value(m) == want[m]
        wins = split.winning_options(m)
        assert wins == [o for o in options(m) if want[o] == 0]
        assert all(want[o] == 0 for o in wins)


# -- Cram: a region is a bitmask, regions split and canonical under the square's symmetries ----------
def cram_split(size: int):  # type: ignore[no-untyped-def]
    """Cram on boards inside a size x size square, cell (i, j) bit i * t + j (t = size + 1: a guard
    column keeps rows apart); options return canonical regions."""
    t = size + 1

    def cells(m: int) -> list[tuple[int, int]]:
        return [(b // t, b % t) for b in range(size * t) if m >> b & 1]

    def mask(cs: list[tuple[int, int]]) -> int:
        i0, j0 = min(i for i, _ in cs), min(j for _, j in cs)
        return sum(1 << ((i - i0) * t + j - j0) for i, j in cs)

    def canonical(m: int) -> int:
        cs = cells(m)
        images = []
        for f in (lambda i, j: (i, j), lambda i, j: (j, i)):
            for si in (1, -1):
                for sj in (1, -1):
                    images.append(mask([f(si * i, sj * j) for i, j in cs]))
        return min(images)

    def regions(m: int) -> list[int]:
        parts = []
        while m:
            r = m & -m
            while (g := (r | r << 1 | r >> 1 | r << t | r >> t) & m) != r:
                r = g
            parts.append(canonical(r))
            m ^= r
        return parts

    doms = [3 << (i * t + j) for i in range(size) for j in range(size - 1)]
    doms += [(1 | 1 << t) << (i * t + j) for i in range(size - 1) for j in range(size)]

    def options(m: int) -> list[tuple[int, ...]]:
        return [tuple(regions(m ^ d)) for d in doms if m & d == d]

    def board(r: int, c: int) -> int:
        return sum(1 << (i * t + j) for i in range(r) for j in range(c))

    return options, regions, board


@functools.cache
def cram_brute(board: frozenset[tuple[int, int]]) -> int:
    opts = set()
    for i, j in board:
        for other in ((i + 1, j), (i, j + 1)):
            if other in board:
                opts.add(cram_brute(board - {(i, j), other}))
    return mex(opts)


def test_cram_split_rule_against_brute_force() -> None:
    options, regions, board = cram_split(4)
    game = gr.StateGame(options, split=True, int_states=True, components=regions, progress=False)
    table = gr.StateGame(options, split=True, int_states=True, components=regions, progress=False)
    rng = random.Random(7)
    for r, c in [(1, 4), (2, 3), (2, 4), (3, 3), (3, 4), (4, 4)]:
        cells = [(i, j) for i in range(r) for j in range(c)]
        for k in range(6):
            kept = cells if k == 0 else rng.sample(cells, rng.randrange(len(cells)))
            m = sum(1 << (i * 5 + j) for i, j in kept)
            want = cram_brute(frozenset(kept))
            assert game.value(m) == want, (r, c, kept)
            assert table.values([m])[0] == want
            # Each option as one board, its parts set apart (a sum the brute force does not split).
            def apart(o: tuple[int, ...]) -> frozenset[tuple[int, int]]:
                return frozenset((b // 5, b % 5 + 10 * k) for k, p in enumerate(o) for b in range(20) if p >> b & 1)

            wins = game.winning_options(m)
            assert all(cram_brute(apart(w)) == 0 for w in wins)
            assert wins == [o for o in options(m) if cram_brute(apart(o)) == 0]
    assert game.value(board(3, 4)) == 1 and game.value(board(4, 4)) == 0


# -- what the search hands back to tabulation, and errors -----------------------------------------
def test_past_the_search_tabulates() -> None:
    nim = gr.StateGame(lambda n: range(n), int_states=True, progress=False)
    assert nim.value(200) == 200  # a value over 127
    chain = gr.StateGame(lambda n: [n - 1] if n else [], int_states=True, progress=False)
    assert chain.value(3001) == 1  # plays too long for the search's stack
    loop = gr.StateGame(lambda n: [1 - n], int_states=True, progress=False)
    with pytest.raises(CycleError):
        loop.value(0)


def test_bad_states_and_rule_errors() -> None:
    g = gr.StateGame(lambda n: ["x"] if n else [], int_states=True, progress=False)
    with pytest.raises(ArgumentTypeError, match="int_states"):
        g.value(1)
    with pytest.raises(ArgumentTypeError, match="int_states"):
        g.values([1])
    neg = gr.StateGame(lambda n: [], int_states=True, progress=False)
    for out_of_range in (-1, 2**128):  # an int, of a value no state has
        with pytest.raises(ArgumentError, match="not an int in"):
            neg.value(out_of_range)
    with pytest.raises(ArgumentTypeError, match="not an int in"):
        neg.value("x")
    assert neg.value(2**100) == 0

    def boom(n: int) -> list[tuple[int, ...]]:
        if n == 3:
            raise ZeroDivisionError("rule")
        return kayles_split(n)

    bad = gr.StateGame(boom, split=True, int_states=True, progress=False)
    with pytest.raises(ZeroDivisionError) as e:
        bad.value(6)
    assert any("on state 3" in n for n in getattr(e.value, "__notes__", []))
    assert bad.value(2) == 2  # nothing of the failed search is kept
    with pytest.raises(ArgumentError, match="loopy"):
        gr.StateGame(lambda n: [], split=True, loopy=True)
    with pytest.raises(ArgumentTypeError):
        gr.StateGame(lambda n: [], split=1)  # type: ignore[arg-type]
    big = gr.StateGame(lambda n: [(2**127,)] if n == 0 else [], split=True, int_states=True, progress=False)
    with pytest.raises(ArgumentError, match="2\\*\\*127"):
        big.value(0)
    assert big.values([0]).tolist() == [1]  # tabulation takes any int below 2**128


def test_split_rule_without_int_states_and_repr() -> None:
    def pins(s: str) -> list[tuple[str, ...]]:  # Kayles on strings of pins, split into rows
        return [tuple("p" * x for x in (a, len(s) - k - a) if x) for k in (1, 2) for a in range(len(s) - k + 1)]

    g = gr.StateGame(pins, split=True, progress=False)
    assert [g.value("p" * n) for n in range(10)] == [kayles_brute((n,)) for n in range(10)]
    assert "split=True" in repr(g)
    h = gr.StateGame(kayles_split, split=True, int_states=True, progress=False)
    assert "int_states=True" in repr(h) and "search" in h._repr_html_()
    assert h.moves(3) == [((2,), (2,)), ((1, 1), (1, 1)), ((2,), (2,)), ((1,), (1,)), ((1,), (1,))]
    assert h.options(3) == [(2,), (1, 1), (1,)]


ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT is POSIX")
def test_ctrl_c_stops_a_search_within_a_second() -> None:
    body = (
        "import grundy as gr\n"
        "def opts(m):\n"
        "    return [m & ~(3 << i) for i in range(62) if m >> i & 3 == 3]\n"
        "g = gr.StateGame(opts, int_states=True, progress=False)\n"
        "print('ready', flush=True)\n"
        "try:\n"
        "    g.value((1 << 60) - 1)\n"
        "    print('finished')\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "python"), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-c", body], stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    t = time.monotonic()
    out, _ = proc.communicate(timeout=30)
    assert out.strip().splitlines()[-1] == "interrupted"
    assert time.monotonic() - t < 5  # generous on a loaded machine; the poll is every 50 ms


def test_the_search_is_kept_between_calls_and_a_rule_may_ask_its_own_game() -> None:
    asked = []

    def rows(n: int) -> list[tuple[int, ...]]:
        if n == 9:  # from inside the search: the kept table is busy, this call gets one of its own
            asked.append(game.value(4))
        return kayles_split(n)

    game = gr.StateGame(rows, split=True, int_states=True, progress=False)
    assert game.value(12) == kayles_brute((12,))
    assert asked and set(asked) == {kayles_brute((4,))}
    kept = game._search
    assert kept is not None
    assert kept.value(12) == (kayles_brute((12,)), 0)  # answered from the kept table: no node searched


def test_memory_budget() -> None:
    small = gr.StateGame(kayles_split, split=True, int_states=True, memory=1024, progress=False)
    assert [small.value(n) for n in range(14)] == [kayles_brute((n,)) for n in range(14)]  # slower, never wrong
    assert small._search is not None and small._search.budget == 1024
    with pytest.raises(ArgumentError, match="memory"):
        gr.StateGame(kayles_split, int_states=True, memory=10)
    with pytest.raises(ArgumentTypeError):
        gr.StateGame(kayles_split, int_states=True, memory="lots")  # type: ignore[arg-type]


def test_int_states_of_a_loopy_game_are_tabulated_as_before() -> None:
    def rule(n: int) -> list[int]:
        return [n - k for k in (1, 2) if k <= n] + ([n + 1] if 0 < n < 4 else [])

    ints = gr.StateGame(rule, loopy=True, int_states=True, progress=False)
    objects = gr.StateGame(rule, loopy=True, progress=False)
    assert ints._search is None
    assert [ints.value(n) for n in range(6)] == [objects.value(n) for n in range(6)]
    assert [ints.outcome(n) for n in range(6)] == ["P", "N", "N", "D", "D", "D"]
