"""Board games on several threads (issues 34 and 40): a region of 20 cells or more is searched by every
thread at once, all of them writing one table. The value never depends on the thread count:
the same on 1 to 4 threads and equal to published values (Node Kayles on a path is 0.137, Arc Kayles
on a path 0.07, a cycle's value follows from the path's); Ctrl-C (here a progress function that raises)
stops every thread, and the game answers right afterwards. (The Rust tests check the parallel search
against brute force on small boards, every node marked, and the stop within a second.)"""

from __future__ import annotations

import random

import pytest

import grundy as gr
from grundy.exceptions import ArgumentError, ArgumentTypeError

MIB = 1 << 20
THREADS = [1, 2, 3, 4]


@pytest.mark.parametrize("threads", THREADS)
def test_paths_and_cycles_match_published_values(threads):
    dawson = gr.dawsons_kayles()  # 0.07: a path of n vertices in Arc Kayles, of n - 1 in Node Kayles
    for n in range(38, 61, 4):
        assert gr.node_kayles(path=n, memory=MIB).value(threads=threads) == dawson.value(n + 1)
        assert gr.arc_kayles(path=n, memory=MIB).value(threads=threads) == dawson.value(n)
        # Node Kayles on a cycle: every move leaves the path of n - 3 vertices.
        cycle = 0 if dawson.value(n - 2) else 1
        assert gr.node_kayles(cycle=n, memory=MIB).value(threads=threads) == cycle


def random_graph(rng, n):
    """The edges of a random graph on ``n`` vertices, each joined to one of the three before it, with a
    few chords as short: one component (so every thread searches it), quick to search."""
    edges = [(rng.randrange(max(0, v - 3), v), v) for v in range(1, n)]
    chords = [(v - rng.randrange(2, 5), v) for v in rng.sample(range(5, n), 3)]
    return sorted(set(edges + chords))


def test_values_do_not_depend_on_the_threads():
    rng = random.Random(34)
    for _ in range(12):
        graph = random_graph(rng, rng.randrange(44, 50))  # 42 to 49 vertices left: every thread searches
        for make in (gr.node_kayles, gr.arc_kayles):
            # A fresh game (table) for each thread count: nothing carried over from another.
            values = {k: make(graph, memory=MIB).value(threads=k) for k in THREADS}
            assert len(set(values.values())) == 1, values
            game = make(graph, memory=MIB)
            removed = rng.sample(range(game.num_cells), 2)
            mid = {k: game.value(removed, threads=k) for k in THREADS}
            assert len(set(mid.values())) == 1, mid
            assert game.state(removed).value(threads=2) == mid[1]


def test_outcome_and_winning_moves_on_threads():
    for n in (40, 43, 46):
        one = gr.node_kayles(path=n, memory=MIB)
        two = gr.node_kayles(path=n, memory=MIB)
        assert one.outcome(threads=1) == two.outcome(threads=2)
        assert one.winning_options(threads=1) == two.winning_options(threads=3)
        for target in (1, 2):
            assert one.winning_options(target=target) == two.winning_options(target=target, threads=2)


def test_threads_argument_is_checked():
    g = gr.node_kayles(path=40, memory=MIB)
    with pytest.raises(ArgumentError, match="threads"):
        g.value(threads=0)
    with pytest.raises(ArgumentError, match="threads"):
        g.outcome(threads=-1)
    with pytest.raises(ArgumentTypeError, match="threads"):
        g.winning_options(threads="2")
    with pytest.raises(ArgumentTypeError, match="threads"):
        g.start.value(threads=1.5)
    assert g.value(threads=10**6) == g.value(threads=1)  # capped at the cores


class Stop(Exception):
    pass


def test_an_error_in_progress_stops_every_thread():
    g = gr.cram(5, 8, memory=16 * MIB)  # 40 cells: every thread searches; seconds of work

    def boom(done, total):
        raise Stop(done)

    for threads in (1, 2, 3, 4, None):
        with pytest.raises(Stop):
            g._core.value(g._core.start, boom, threads)
    assert g.stats()["nodes"] > 0
    # The game answers right afterwards (its table kept what the stopped threads stored).
    small = g.state([[int(c > 2) for c in range(8)] for _ in range(5)])  # the 5 x 3 board on the left
    assert g.value(small, threads=2) == gr.cram(5, 3).value()
