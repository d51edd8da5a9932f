"""State games and two-heap games as components of a Position, mixed with heap games and graphs.

Node Kayles on a path of n vertices is the same game as a heap of n in Dawson's chess 0.137 (the same
game tree), so sums of paths must behave exactly as sums of 0.137 heaps, in normal and misère play.
"""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy as gr


def path_options(n):
    """Node Kayles on a path of n vertices: take vertex i with its neighbours; two paths remain."""
    return [(max(0, i - 1), max(0, n - i - 2)) for i in range(n)]


def parts(s):
    return [x for x in s if x] if isinstance(s, tuple) else ([s] if s else [])


@pytest.fixture(scope="module")
def paths():
    return gr.StateGame(path_options, components=parts, name="paths")


DAWSON = gr.TakeAndBreak("0.137")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 25), min_size=1, max_size=4), st.lists(st.integers(0, 25), max_size=3))
def test_sums_of_paths_and_heaps_follow_the_nim_sum(paths, states, heaps):
    pos = gr.Position(paths, states) + gr.Position(DAWSON, heaps) if heaps else gr.Position(paths, states)
    twin = gr.Position(DAWSON, states + heaps)
    assert pos.grundy == twin.grundy
    assert pos.outcome() == twin.outcome()
    moves = pos.winning_moves()
    assert len(moves) == len(twin.winning_moves())
    for m in moves:
        assert pos.play(m).grundy == 0
    assert all(m.after == tuple(x for x in m.after if x) for m in moves)  # parts, never empty paths


def test_moves_play_and_equivalent(paths):
    pos = gr.Position(paths, [5]) + gr.Position(gr.nim(), [2])
    listed = pos.moves()
    assert len(listed) == len(gr.Position(DAWSON, [5]).moves()) + 2
    m = gr.Move(0, 5, (1, 1))  # the middle vertex of a path of 5
    assert m in listed
    after = pos.play(m)
    assert after.heaps == [1, 1, 2] and after.grundy == 1 ^ 1 ^ 2
    with pytest.raises(ValueError, match="not an option"):
        pos.play(gr.Move(0, 5, (4,)))
    assert gr.equivalent(gr.Position(paths, [9]), gr.Position(DAWSON, [9]))
    assert not gr.equivalent(gr.Position(paths, [5]), gr.Position(gr.nim(), [1]))


SMALL_SUMS = [list(c) for k in (1, 2, 3) for c in itertools.combinations_with_replacement(range(1, 8), k)]


@pytest.mark.parametrize("states", SMALL_SUMS)
def test_misere_sums_of_paths_equal_dawsons_chess(paths, states):
    pos, twin = gr.Position(paths, states), gr.Position(DAWSON, states)
    assert pos.outcome(misere=True) == twin.outcome(misere=True)
    for m in pos.winning_moves(misere=True):
        assert pos.play(m).outcome(misere=True) == "P"
    assert len(pos.winning_moves(misere=True)) == len(twin.winning_moves(misere=True))


def test_two_heap_components(paths):
    w = gr.wythoff()
    pos = gr.Position(w, [(3, 5), (1, 2)]) + gr.Position(gr.nim(), [3])
    assert pos.grundy == w.value((3, 5)) ^ w.value((1, 2)) ^ 3
    for m in pos.winning_moves():
        assert pos.play(m).grundy == 0
    assert gr.Position(w, [(4, 4)]).winning_moves() == [gr.Move(0, (4, 4), ((0, 0),))]
    assert gr.Position(w, [(0, 0)]).outcome(misere=True) == w.outcome((0, 0), misere=True) == "N"


def test_bad_state_components(paths):
    with pytest.raises(TypeError, match="hashable"):
        gr.Position(paths, [[1, 2]])
    with pytest.raises(TypeError, match="iterable of states"):
        gr.Position(paths, 3)
    with pytest.raises(ValueError, match="not supported"):
        (gr.Position(paths, [4]) + gr.Position(DAWSON, [3])).outcome(misere=True)
    with pytest.raises(TypeError, match="outcomes"):
        gr.outcomes(paths, [[1, 2]])
    assert "paths" in repr(gr.Position(paths, [3])) and "N" in gr.Position(paths, [3])._repr_html_()


def test_ctrl_c_stops_an_exploration_and_the_game_stays_usable():
    import os
    import signal
    import subprocess
    import sys
    import textwrap

    script = textwrap.dedent(
        """
        import sys
        import grundy as gr
        g = gr.StateGame(lambda n: [n + 1] if n < 10**8 else [])
        try:
            print("start", flush=True)
            g.value(0)
        except KeyboardInterrupt:
            print("interrupted", g.value(10**8 - 3), flush=True)  # what was explored is dropped, not broken
            sys.exit(0)
        print("finished", flush=True)
        """
    )
    p = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "start"
    os.kill(p.pid, signal.SIGINT)
    out, _ = p.communicate(timeout=120)  # a hang guard, not a speed test
    assert out.split() == ["interrupted", "1"]


def test_exploration_shows_a_bar_counting_states(capsys):
    g = gr.StateGame(lambda n: [n - 1] if n else [], progress=True)
    assert g.value(300_000) == 300_000 % 2
    assert "states" in capsys.readouterr().err
