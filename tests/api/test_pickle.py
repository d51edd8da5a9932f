"""Every public game, state and result type pickles and deep-copies, and the copy answers as the original.

The search tables and computed values need not travel (they are rebuilt from the rule); what the
copy answers is compared with what the original answers, so a copy of the wrong game fails.
The immutable types refuse assignment as a frozen dataclass does.
"""

import concurrent.futures
import copy
import inspect
import multiprocessing
import pickle

import numpy as np
import pytest

import grundy as gr

MIB = 1 << 20


def down(n):
    """A module-level rule (pickled by name): subtract 1 or 2."""
    return [n - k for k in (1, 2) if n >= k]


def loop(n):
    """A loopy rule: remove 1 or 2, or add 1 to a heap of 1 to 3."""
    return [n - k for k in (1, 2) if k <= n] + ([n + 1] if 0 < n < 4 else [])


def batch_nim(states):
    """Nim on one heap as a batch rule: the heaps below each state, one part each."""
    counts = states.astype(np.int64)
    parts = np.concatenate([np.arange(s, dtype=np.uint64) for s in states.tolist()] or [np.zeros(0, np.uint64)])
    return counts, np.ones(int(counts.sum()), dtype=np.int64), parts


def allowed(n, k):
    return k in (1, 3)


def _heaps(g):
    return g.values(40).tolist()


def _board(g):
    return [g.value(), [str(o) for o in g.options()], g.num_cells]


# Each public type: instances, and what a copy must answer as the original does.
CASES = {
    "TakeAndBreak": [(gr.kayles(), _heaps), (gr.TakeAndBreak("4.37", engine="exact"), _heaps)],
    "Subtraction": [
        (gr.Subtraction([1, 3, 4]), _heaps),
        (gr.Subtraction.squares(), _heaps),
        (gr.Subtraction(allowed=allowed), _heaps),
    ],
    "HeapGame": [],
    "GameGraph": [
        (gr.GameGraph({"a": ["b", "c"], "b": ["c"], "c": []}), lambda g: (g.labels, g.values_by_label())),
        (gr.GameGraph([(0, 1), (1, 2), (0, 2), (3, 0)]), lambda g: g.values().tolist()),
    ],
    "StateGame": [
        (gr.StateGame(down, name="down"), lambda g: ([g.value(n) for n in range(9)], g.name)),
        (gr.StateGame(loop, loopy=True), lambda g: [g.outcome(n) for n in range(5)]),
        (gr.StateGame(batch_nim, batch=True), lambda g: [g.value(n) for n in range(9)]),
    ],
    "TwoHeapGame": [(gr.wythoff(), lambda g: g.grid(6, 6).tolist())],
    "TwoHeapRow": [(gr.wythoff().row(2), lambda r: r.values(12).tolist())],
    "BoardGame": [
        (gr.cram(3, 4, memory=MIB), _board),
        (gr.chomp(3, 3, memory=MIB), _board),
        (gr.node_kayles(path=9, memory=MIB), _board),
        (gr.arc_kayles(cycle=7, memory=MIB), _board),
        (gr.node_kayles({"a": ["b", "c"], "b": ["c"], "d": []}, memory=MIB), lambda g: (g.labels, _board(g))),
        (gr.node_kayles({frozenset({1}): [2]}, memory=MIB), lambda g: (g.labels, _board(g))),
    ],
    "BoardState": [
        (gr.cram(3, 4, memory=MIB).state([[1, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0]]), lambda s: (s.value(), str(s))),
        (gr.node_kayles(cycle=6, memory=MIB).state([0]), lambda s: (s.value(), s.removed)),
    ],
    "Position": [
        (gr.cram(3, 3, memory=MIB).position([[0, 0, 0], [0, 1, 0], [0, 0, 0]]), lambda p: (p.grundy, repr(p))),
        (gr.Position(gr.cram(2, 3, memory=MIB), [gr.cram(2, 3).start]) + gr.Position(gr.nim(), [3]),
         lambda p: (p.grundy, p.winning_moves())),
        (gr.Position(gr.StateGame(down), [4, 5]), lambda p: (p.grundy, p.winning_moves())),
        (gr.Position(gr.GameGraph({"a": ["b"], "b": []}), ["a"]), lambda p: p.grundy),
    ],
    "Move": [(gr.Position(gr.nim(), [1, 2]).winning_move(), lambda m: m)],
    "Infinity": [(gr.Infinity({0, 2}), lambda x: (x, x.K))],
    "GeneralizedValues": [
        (gr.StateGame(loop, loopy=True).generalized_values([4]), lambda v: (v.values_by_label(), v.graph.labels)),
        (gr.GameGraph({"s": ["s", "t"], "t": []}).generalized_values(), lambda v: v.values_by_label()),
    ],
    "Periodicity": [(gr.kayles().periodicity(), lambda p: p)],
    "SparseSpace": [(gr.kayles().sparse_space(200), lambda s: (s.mask, s.rare_count))],
    "MisereQuotient": [(gr.misere_quotient(gr.kayles(), 8), lambda q: (q.order, q.table.tolist()))],
    "PretendingPeriod": [],
    "QuotientBounds": [(gr.misere_quotient_bounds(gr.kayles(), 5, 2), lambda b: b)],
    "SurveySummary": [
        (gr.survey_summary(gr.survey(["0.77", "0.137", "0.7x"], max_n=2**10, progress=False)), str),
    ],
}
def _heap_rule(n):
    return [(n - 1,), (n - 2, 1)] if n >= 2 else [(0,)] * n


CASES["HeapGame"] = [(gr.HeapGame(_heap_rule, name="mine"), lambda g: (_heaps(g), g.name))]
CASES["PretendingPeriod"] = [(gr.misere_quotient(gr.TakeAndBreak("0.75"), 12).period, lambda p: p)]
ALL = [(name, obj, answer) for name, cases in CASES.items() for obj, answer in cases]


def test_every_public_type_is_covered():
    public = {
        n for n in gr.__all__ if inspect.isclass(getattr(gr, n)) and not issubclass(getattr(gr, n), BaseException)
    }
    public -= {"Game"}  # the base of the heap kinds above
    assert public == {name for name, cases in CASES.items() if cases}


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
@pytest.mark.parametrize(("name", "obj", "answer"), ALL, ids=[f"{n}-{i}" for i, (n, _, _) in enumerate(ALL)])
def test_round_trip_answers_as_the_original(how, name, obj, answer):
    if how == "pickle":
        got = pickle.loads(pickle.dumps(obj))
    else:
        got = copy.deepcopy(obj)
    assert type(got) is type(obj)
    assert answer(got) == answer(obj)


def test_board_copies_are_equal_and_carry_no_table():
    g = gr.cram(4, 5, memory=MIB)
    b = g.state([[1, 0, 0, 0, 0], [0] * 5, [0] * 5, [0, 0, 0, 0, 1]])
    v = b.value()
    c = pickle.loads(pickle.dumps(b))
    assert c == b and hash(c) == hash(b) and c.game == g and c.game is not g
    assert c.game.stats()["table_entries"] == 0  # the table stayed behind; the value found travelled
    assert c.value() == v
    assert pickle.loads(pickle.dumps(gr.cram(4, 5, memory=3 * MIB))).memory == 3 * MIB
    # A copy is a game of its own: it searches with its own table.
    h = copy.deepcopy(gr.cram(3, 5, memory=MIB))
    assert h.value() == gr.cram(3, 5).value() and h.stats()["nodes"] > 0


def test_a_lambda_rule_is_refused_by_pickle_and_copied_by_deepcopy():
    g = gr.StateGame(lambda n: [n - 1] if n else [])
    with pytest.raises((pickle.PicklingError, AttributeError)):
        pickle.dumps(g)
    assert copy.deepcopy(g).value(5) == 1


def _value(state):
    return state.value(threads=1)


def test_process_pool_over_board_positions():
    g = gr.cram(3, 5, memory=MIB)
    rng = np.random.default_rng(7)
    states = [g.state(rng.random((3, 5)) < 0.3) for _ in range(12)]
    want = [_value(s) for s in states]
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=2, mp_context=ctx) as ex:
        assert list(ex.map(_value, states)) == want
        pos = g.position(states[0]) + gr.Position(gr.nim(), [2])
        assert ex.submit(pickle.loads, pickle.dumps(pos)).result().grundy == pos.grundy


# -- immutability ------------------------------------------------------------------------------------
IMMUTABLE = {
    "BoardState": (gr.cram(2, 2).start, "free", 0),
    "Infinity": (gr.Infinity({1}), "K", frozenset()),
    "Move": (gr.Position(gr.nim(), [1, 2]).winning_move(), "after", (0,)),
    "Periodicity": (gr.kayles().periodicity(), "period", 3),
    "SparseSpace": (gr.kayles().sparse_space(100), "mask", 0),
    "PretendingPeriod": (CASES["PretendingPeriod"][0][0], "period", 3),
    "QuotientBounds": (CASES["QuotientBounds"][0][0], "below", 0),
}


@pytest.mark.parametrize("name", sorted(IMMUTABLE))
def test_immutable_types_refuse_assignment(name):
    obj, field, new = IMMUTABLE[name]
    before = getattr(obj, field)
    h = hash(obj) if obj.__hash__ is not None and name != "SparseSpace" else None  # SparseSpace holds arrays
    with pytest.raises(AttributeError):
        setattr(obj, field, new)
    with pytest.raises(AttributeError):
        delattr(obj, field)
    assert getattr(obj, field) == before
    assert h is None or hash(obj) == h


def test_board_state_stays_in_sets_and_checks_its_cells():
    g = gr.cram(2, 3)
    s = g.state([[1, 0, 0], [0, 0, 0]])
    held = {s}
    with pytest.raises(AttributeError):
        s.free = 0
    with pytest.raises(AttributeError):
        s.game = gr.cram(3, 2)
    assert s in held and s.value() == 0
    with pytest.raises(gr.ArgumentError):
        gr.BoardState(g, 2**200)
    with pytest.raises(gr.ArgumentError):
        gr.BoardState(g, -1)
    with pytest.raises(gr.ArgumentTypeError):
        gr.BoardState(g, 1.5)
