"""The Rust core's errors reach Python as the classes of ``grundy.exceptions``.

One conversion in the binding maps them: a bad code is a CodeError carrying the code and the
position of the offending character, a search past its limit a SearchLimitError carrying the
limit, a cycle a CycleError carrying its vertices; plain bad arguments stay ValueError.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import grundy as gr
from grundy import _core

# (code, 0-based position of the first offending character), counted by hand.
BAD_CODES = [
    ("0.7x", 3),
    ("", 0),
    ("0..7", 2),
    ("0.[37", 2),
    ("0.[]", 3),
    ("1.0", 0),
    ("0.[3]7", 5),
    ("077", 1),
]


@pytest.mark.parametrize(("code", "position"), BAD_CODES)
def test_bad_codes_are_code_errors_with_code_and_position(code, position):
    makers = [
        lambda: gr.TakeAndBreak(code),
        lambda: _core.parse_code(code),
        lambda: _core.HeapCore.take_and_break(code),
    ]
    for make in makers:
        with pytest.raises(gr.CodeError) as info:
            make()
        e = info.value
        assert (e.code, e.position) == (code, position)
        assert isinstance(e, ValueError) and isinstance(e, gr.GrundyError)
        if code:
            assert f'"{code}"' in str(e)


def test_code_error_message_names_the_character():
    with pytest.raises(gr.CodeError, match="invalid character 'x' at position 3"):
        gr.TakeAndBreak("0.7x")


def test_misere_limit_is_a_search_limit_error_with_its_limit():
    with pytest.raises(gr.SearchLimitError, match="max_positions = 100 ") as info:
        gr.Position(gr.kayles(), [30]).outcome(misere=True, max_positions=100)
    assert info.value.limit == 100
    with pytest.raises(gr.SearchLimitError) as info:
        gr.outcomes(gr.kayles(), [[40, 40]], misere=True, max_positions=1000)
    assert info.value.limit == 1000
    assert isinstance(info.value, ValueError)


def test_core_cycle_is_a_cycle_error_with_vertex_ids():
    # 0 -> 1 -> 2 -> 0, and 3 -> 0 outside the cycle.
    src = np.array([0, 1, 2, 3], np.int64)
    dst = np.array([1, 2, 0, 0], np.int64)
    with pytest.raises(gr.CycleError) as info:
        _core.Graph.from_arrays(4, src, dst).values()
    cycle = info.value.cycle
    assert sorted(cycle) == [0, 1, 2]
    # Each vertex is an option of the one before, the first of the last.
    edges = set(zip(src.tolist(), dst.tolist(), strict=True))
    assert all((a, b) in edges for a, b in zip(cycle, cycle[1:] + cycle[:1], strict=True))


def test_game_graph_cycle_names_labels():
    with pytest.raises(gr.CycleError) as info:
        gr.GameGraph([("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")]).values()
    assert sorted(info.value.cycle) == ["a", "b", "c"]


def test_bad_arguments_in_the_core_are_argument_errors():
    # Issue 32, fault 7: the core's Error::Invalid used to reach Python as a plain ValueError.
    with pytest.raises(gr.ArgumentError, match="engine must be") as info:
        _core.HeapCore.take_and_break("0.77", "fast")
    assert isinstance(info.value, ValueError)
    with pytest.raises(gr.ArgumentError, match="sparse engine"):
        _core.HeapCore.take_and_break("0.[3]", "sparse")
    with pytest.raises(gr.ArgumentError, match="threads must be at least 1"):
        _core.HeapCore.take_and_break("0.77").extend(10, None, 0)


def test_core_memory_errors_carry_the_estimate():
    with pytest.raises(gr.MemoryLimitError) as info:
        _core.check_memory(2**63)
    e = info.value
    assert isinstance(e, MemoryError) and e.needed == 2**63 and 0 < e.available < 2**63
    assert "MiB" in str(e)


def test_core_type_errors_are_argument_type_errors():
    with pytest.raises(gr.ArgumentTypeError, match="int32, int64"):
        _core.Graph.from_arrays(2, np.array([1.0]), np.array([0.0]))


_REENTER = """
import grundy as gr
game = None
def options(n):
    game.values(2)  # the game that is calling this very function
    return [(n - 1,)] if n else []
def allowed(n, k):
    game.value(1)
    return k == 1
for make in (lambda: gr.HeapGame(options), lambda: gr.Subtraction(allowed=allowed)):
    for threads in (None, 2):
        game = make()
        try:
            game.values(6, threads=threads)
            print("returned")
        except gr.ReentrancyError as e:
            print("ReentrancyError", isinstance(e, RuntimeError), "asked the same game" in str(e))
        except BaseException as e:
            print("foreign", type(e).__name__, e)
    # The game is usable afterwards.
    game = make()
print("after", gr.HeapGame(lambda n: [(n - 1,)] if n else []).values(4).tolist())
"""


def _run_script(script: str, timeout: float, hung: str) -> subprocess.CompletedProcess[str]:
    """Run ``script`` in a fresh interpreter that imports this grundy; fail with ``hung`` if it hangs."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    try:
        return subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=timeout, env=env, check=False
        )
    except subprocess.TimeoutExpired:
        pytest.fail(hung)


def test_a_rule_that_asks_its_own_game_is_refused_not_deadlocked():
    # Issue 32, fault 9: on main the sequence's lock was taken twice by one computation and the
    # call hung for ever (HeapGame, Subtraction(allowed=)); now a ReentrancyError says why.
    out = _run_script(_REENTER, 30, "re-entering a game from its own rule hung")
    lines = out.stdout.splitlines()
    assert lines[:4] == ["ReentrancyError True True"] * 4, (out.stdout, out.stderr[-2000:])
    assert lines[4] == "after [0, 1, 0, 1]"


def test_reading_another_game_from_a_rule_is_fine():
    kayles = gr.kayles()
    g = gr.HeapGame(lambda n: [(n - 1,)] if n and kayles.value(n) >= 0 else [])
    assert g.values(5).tolist() == [0, 1, 0, 1, 0]


_REENTER_STATE = """
import threading, time
import grundy as gr
game = None
asks = {
    "value": lambda: game.value(0),
    "values": lambda: game.values([0]),
    "num_states": lambda: game.num_states,
    "repr": lambda: repr(game),
    "outcome": lambda: game.outcome(0),
}
def path(n):
    return [n - 1] if n > 0 else []
def asking(ask):
    def options(n):
        ask()
        return path(n)
    return options
def key(n):
    game.value(0)
    return n
makes = [(name, lambda a=ask: gr.StateGame(asking(a))) for name, ask in asks.items()]
makes += [
    ("loopy", lambda: gr.StateGame(asking(asks["value"]), loopy=True)),
    ("key", lambda: gr.StateGame(path, key=key)),
    ("components", lambda: gr.StateGame(path, components=lambda s: [game.value(0)] and [s])),
]
for name, make in makes:
    game = make()
    try:
        game.value(3)
        print(name, "returned")
    except gr.ReentrancyError as e:
        print(name, "ReentrancyError", isinstance(e, RuntimeError), "asked the same game" in str(e))
    except BaseException as e:
        print(name, "foreign", type(e).__name__, e)
print("after", game.num_states, gr.StateGame(path).values([0, 1, 2]).tolist())

# A key function that asks its game while the game reads its states (a lookup, not an exploration).
asking_key = []
def key2(n):
    if asking_key:
        looked.value(0)
    return n
looked = gr.StateGame(path, key=key2, loopy=True)
gv = looked.generalized_values([2])
asking_key.append(True)
try:
    gv.value(2)
    print("lookup returned")
except gr.ReentrancyError as e:
    print("lookup ReentrancyError", isinstance(e, RuntimeError), "asked the same game" in str(e))
except BaseException as e:
    print("lookup foreign", type(e).__name__, e)

# Another thread asking while one explores waits for it (PyO3's 'Already mutably borrowed' on main).
seen = []
def slow(n):
    if n == 3 and not seen:
        t = threading.Thread(target=lambda: seen.append(shared.value(5)))
        seen.append(t)
        t.start()
        time.sleep(0.3)  # the GIL is released: the thread asks while the exploration holds the game
    return path(n)
shared = gr.StateGame(slow)
first = shared.value(4)
seen[0].join(timeout=20)
print("threads", first, seen[1:])
"""


def test_a_state_game_asked_from_its_own_functions_is_refused_not_misreported():
    # Issue 32, fault 9: on main a StateGame asked for values from inside its own options (key,
    # components) function raised PyO3's bare "Already mutably borrowed"; now a ReentrancyError
    # says what happened, the game is usable afterwards, and another thread asking waits.
    out = _run_script(_REENTER_STATE, 60, "re-entering a StateGame from its own function hung")
    lines = out.stdout.splitlines()
    names = ["value", "values", "num_states", "repr", "outcome", "loopy", "key", "components"]
    assert lines[:8] == [f"{n} ReentrancyError True True" for n in names], (out.stdout, out.stderr[-2000:])
    assert lines[8] == "after 0 [0, 1, 0]", out.stdout
    assert lines[9] == "lookup ReentrancyError True True", (out.stdout, out.stderr[-2000:])
    assert lines[10] == "threads 0 [1]", (out.stdout, out.stderr[-2000:])
