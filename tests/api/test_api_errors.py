"""Every public callable answers bad arguments with a GrundyError (issue 32, fault 7).

A table gives, for each public function, class and method of ``grundy.__all__``, one or more calls
with a bad argument in one place. Each call is tried with each value of ``BAD`` (negative, huge,
2**70, float, None, a string, an object): it must raise a :class:`grundy.GrundyError` (which is
also the builtin a caller catches), or, where the table says the value is acceptable there, return.
Any other exception (a plain ValueError, a raw OverflowError from the bindings, an AttributeError
from deep inside) fails. ``test_every_public_callable_has_a_row`` makes a new public name without a
row fail, so the table cannot fall behind the API.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import grundy as gr

BAD: dict[str, Any] = {
    "negative": -1,
    "huge": 10**15,
    "2**70": 2**70,
    "float": 1.5,
    "None": None,
    "str": "x",
    "object": object(),
}
ALL = frozenset(BAD)
#: Values an optional integer argument accepts: None (its default) and a huge count it refuses
#: later or caps, or a large limit that is only an upper bound.
LIMIT = frozenset({"huge", "2**70", "None"})


def _kayles() -> gr.Game:
    return gr.kayles()


def _graph() -> gr.GameGraph:
    return gr.GameGraph({"a": ["b"], "b": []})


def _loopy() -> gr.GameGraph:
    return gr.GameGraph({"a": ["b"], "b": ["a"], "c": []})


def _position() -> gr.Position:
    return gr.Position(gr.kayles(), [3, 4])


def _state_game(**kw: Any) -> gr.StateGame:
    return gr.StateGame(lambda s: [s - 1] if isinstance(s, int) and 0 < s < 5 else [], **kw)


def _quotient() -> gr.MisereQuotient:
    return gr.misere_quotient(gr.nim(), 2)


def _period() -> gr.Periodicity:
    return gr.kayles().periodicity()


def _sparse() -> gr.SparseSpace:
    return gr.kayles().sparse_space(200)


def _cram() -> gr.BoardGame:
    return gr.cram(2, 2, memory=1 << 20)


def _no_args(f: Callable[[], Any]) -> Callable[[Any], Any]:
    """A factory without arguments: the row checks that it still builds its game."""
    return lambda x: f()


# (key, call, values accepted there). The key names the callable the row covers, as
# ``__qualname__`` (a method is covered under the class that defines it).
ROWS: list[tuple[str, Callable[[Any], Any], frozenset[str]]] = [
    # -- heap games -------------------------------------------------------------------------------
    ("TakeAndBreak", lambda x: gr.TakeAndBreak(x), frozenset()),
    ("TakeAndBreak", lambda x: gr.TakeAndBreak("0.77", engine=x), frozenset()),
    ("TakeAndBreak", lambda x: gr.TakeAndBreak("0.77", name=x), frozenset({"None", "str"})),
    ("Subtraction", lambda x: gr.Subtraction(x), frozenset()),
    ("Subtraction", lambda x: gr.Subtraction([x]), frozenset({"huge"})),
    ("Subtraction", lambda x: gr.Subtraction(allowed=x), frozenset()),
    ("Subtraction.all_but", lambda x: gr.Subtraction.all_but(x), frozenset()),
    ("Subtraction.all_but", lambda x: gr.Subtraction.all_but([x]), frozenset({"huge"})),
    ("Subtraction.squares", _no_args(gr.Subtraction.squares), ALL),
    ("Subtraction.at_most_half", _no_args(gr.Subtraction.at_most_half), ALL),
    ("Subtraction.proper_divisors", _no_args(gr.Subtraction.proper_divisors), ALL),
    ("HeapGame", lambda x: gr.HeapGame(x), frozenset()),
    ("HeapGame", lambda x: gr.HeapGame(lambda n: [(n - 1,)] if n else [], name=x), frozenset({"None", "str"})),
    # A rule that returns the bad value as an option, or as a part of one.
    ("HeapGame", lambda x: gr.HeapGame(lambda n: [x] if n else []).values(3), frozenset()),
    ("HeapGame", lambda x: gr.HeapGame(lambda n: [(x,)] if n else []).values(3), frozenset()),
    ("HeapGame.options", lambda x: gr.HeapGame(lambda n: []).options(x), frozenset({"huge"})),
    ("nim", _no_args(gr.nim), ALL),
    ("kayles", _no_args(gr.kayles), ALL),
    ("dawsons_kayles", _no_args(gr.dawsons_kayles), ALL),
    ("grundys_game", _no_args(gr.grundys_game), ALL),
    ("Game.values", lambda x: _kayles().values(x), frozenset()),
    ("Game.values", lambda x: _kayles().values(5, threads=x), LIMIT),
    ("Game.values", lambda x: _kayles().values(5, progress=x), frozenset({"None"})),
    ("Game.values", lambda x: _kayles().values(5, from_period=x), frozenset()),
    # "x" is a file name (in the test's own folder).
    ("Game.values", lambda x: _kayles().values(5, checkpoint=x), frozenset({"None", "str"})),
    ("Game.values", lambda x: _kayles().values(5, checkpoint_every=x), frozenset({"huge", "2**70", "float"})),
    ("Game.value", lambda x: _kayles().value(x), frozenset({"huge"})),
    # Kayles' period is proven at 244 values: a larger max_n is only a bound.
    ("Game.periodicity", lambda x: _kayles().periodicity(x), LIMIT),
    ("Game.periodicity", lambda x: _kayles().periodicity(threads=x), LIMIT),
    ("Game.sparse_space", lambda x: _kayles().sparse_space(x), frozenset()),
    # Game inherits its display and plot methods from games.heap.display.HeapGameDisplay.
    ("HeapGameDisplay.table", lambda x: _kayles().table(x), frozenset()),
    ("HeapGameDisplay.table", lambda x: _kayles().table(20, width=x), LIMIT),
    ("HeapGameDisplay.plot", lambda x: _kayles().plot(x), frozenset({"None"})),
    ("HeapGameDisplay.plot_sparse", lambda x: _kayles().plot_sparse(x), frozenset({"None"})),
    ("HeapGameDisplay.plot_sparse", lambda x: _kayles().plot_sparse(200, kind=x), frozenset()),
    ("Periodicity.value", lambda x: _period().value(x), frozenset({"huge", "2**70"})),
    ("SparseSpace.is_rare", lambda x: _sparse().is_rare(x), frozenset({"huge", "2**70"})),
    ("SparseSpace.is_rare", lambda x: _sparse().is_rare(1, x), frozenset({"huge", "2**70"})),
    ("nim_sum", lambda x: gr.nim_sum(x), frozenset()),
    ("nim_sum", lambda x: gr.nim_sum([3, x]), frozenset({"huge"})),
    # -- positions --------------------------------------------------------------------------------
    ("Position", lambda x: gr.Position(_kayles(), x), frozenset({"huge"})),
    ("Position", lambda x: gr.Position(_kayles(), [1, x]), frozenset({"huge"})),
    ("Position", lambda x: gr.Position(x, [1]), frozenset()),
    ("Position.outcome", lambda x: _position().outcome(misere=x), frozenset()),
    ("Position.outcome", lambda x: _position().outcome(True, max_positions=x), LIMIT),
    ("Position.moves", lambda x: _position().moves(limit=x), frozenset({"huge", "2**70"})),
    ("Position.iter_moves", lambda x: list(_position().iter_moves()), ALL),  # no arguments
    ("Position.winning_moves", lambda x: _position().winning_moves(x), frozenset()),
    ("Position.winning_moves", lambda x: _position().winning_moves(limit=x), frozenset({"huge", "2**70"})),
    ("Position.iter_winning_moves", lambda x: list(_position().iter_winning_moves(x)), frozenset()),
    ("Position.winning_move", lambda x: _position().winning_move(x), frozenset()),
    ("Position.winning_move", lambda x: _position().winning_move(True, max_positions=x), LIMIT),
    ("Position.drawing_moves", lambda x: _position().drawing_moves(limit=x), frozenset({"huge", "2**70"})),
    ("Position.play", lambda x: _position().play(x), frozenset()),
    ("Position.play", lambda x: _position().play(gr.Move(0, 3, (x,))), frozenset()),
    ("Move", lambda x: _position().play(gr.Move(x, 3, (1, 1))), frozenset()),
    ("equivalent", lambda x: gr.equivalent(x, _position()), frozenset()),
    ("equivalent", lambda x: gr.equivalent(_position(), x), frozenset()),
    ("outcomes", lambda x: gr.outcomes(_kayles(), x), frozenset()),
    ("outcomes", lambda x: gr.outcomes(_kayles(), [[1, x]]), frozenset({"huge"})),
    ("outcomes", lambda x: gr.outcomes(x, [[1]]), frozenset()),
    ("outcomes", lambda x: gr.outcomes(_kayles(), [[1, 2]], True, max_positions=x), LIMIT),
    # -- game graphs and loopy values -------------------------------------------------------------
    ("GameGraph", lambda x: gr.GameGraph(x), frozenset()),
    ("GameGraph", lambda x: gr.GameGraph([("a", "b")], num_vertices=x), frozenset({"None"})),
    ("GameGraph.from_arrays", lambda x: gr.GameGraph.from_arrays(x, [0]), frozenset()),
    ("GameGraph.from_arrays", lambda x: gr.GameGraph.from_arrays([1], [0], num_vertices=x), frozenset({"None"})),
    ("GameGraph.from_networkx", lambda x: gr.GameGraph.from_networkx(x), frozenset()),
    ("GameGraph.vertex", lambda x: _graph().vertex(x), frozenset()),
    ("GameGraph.label", lambda x: _graph().label(x), frozenset()),
    ("GameGraph.options", lambda x: _graph().options(x), frozenset()),
    ("GameGraph.value", lambda x: _graph().value(x), frozenset()),
    ("GameGraph.values", lambda x: _graph().values(x), LIMIT),
    ("GameGraph.values_by_label", lambda x: _graph().values_by_label(), ALL),
    ("GameGraph.generalized_values", lambda x: _loopy().generalized_values(x), LIMIT),
    ("GameGraph.generalized_values", lambda x: _loopy().generalized_values(progress=x), frozenset({"None"})),
    ("GeneralizedValues.value", lambda x: _loopy().generalized_values().value(x), frozenset()),
    ("GeneralizedValues.outcome", lambda x: _loopy().generalized_values().outcome(x), frozenset()),
    ("GeneralizedValues.outcome", lambda x: _loopy().generalized_values().outcome("a", misere=x), frozenset()),
    ("GeneralizedValues.outcomes", lambda x: _loopy().generalized_values().outcomes(), ALL),
    ("GeneralizedValues.values_by_label", lambda x: _loopy().generalized_values().values_by_label(), ALL),
    ("GeneralizedValues.counts", lambda x: _loopy().generalized_values().counts(), ALL),
    ("GeneralizedValues.winning_options", lambda x: _loopy().generalized_values().winning_options(x), frozenset()),
    ("GeneralizedValues.drawing_options", lambda x: _loopy().generalized_values().drawing_options(x), frozenset()),
    ("Infinity", lambda x: gr.Infinity(x), frozenset()),
    ("Infinity", lambda x: gr.Infinity([x]), frozenset({"huge", "2**70"})),
    ("sum_value", lambda x: gr.sum_value(x), frozenset()),
    ("sum_value", lambda x: gr.sum_value([1, x]), frozenset({"huge", "2**70"})),
    ("sum_outcome", lambda x: gr.sum_outcome([1, x]), frozenset({"huge", "2**70"})),
    ("sum_outcome", lambda x: gr.sum_outcome([1], misere=x), frozenset()),
    ("value_outcome", lambda x: gr.value_outcome(x), frozenset({"huge", "2**70", "None"})),
    ("winning_options", lambda x: gr.winning_options([1, 2], x, [0]), frozenset()),
    ("winning_options", lambda x: gr.winning_options([1, 2], 0, [x]), frozenset({"huge", "2**70"})),
    ("drawing_options", lambda x: gr.drawing_options([1, 2], x, [0]), frozenset()),
    ("drawing_options", lambda x: gr.drawing_options([x, 2], 0, [0]), frozenset({"huge", "2**70"})),
    # -- state games and two-heap games -----------------------------------------------------------
    ("StateGame", lambda x: gr.StateGame(x), frozenset()),
    ("StateGame", lambda x: _state_game(max_states=x), LIMIT),
    ("StateGame", lambda x: _state_game(threads=x), LIMIT),
    ("StateGame", lambda x: _state_game(progress=x), frozenset({"None"})),
    ("StateGame", lambda x: _state_game(loopy=x), frozenset()),
    ("StateGame", lambda x: _state_game(key=x), frozenset({"None"})),
    ("StateGame", lambda x: _state_game(components=x), frozenset({"None"})),
    ("StateGame", lambda x: gr.StateGame(lambda s: x).value(0), frozenset()),
    # Any hashable is a state of this game (all terminal but 1..4).
    ("StateGame.value", lambda x: _state_game().value(x), ALL),
    ("StateGame.values", lambda x: _state_game().values(x), frozenset({"str"})),
    ("StateGame.generalized_values", lambda x: _state_game(loopy=True).generalized_values(x), frozenset({"str"})),
    ("StateGame.components", lambda x: _state_game().components(x), ALL),
    ("StateGame.outcome", lambda x: _state_game().outcome(3, misere=x), frozenset()),
    ("StateGame.outcome", lambda x: _state_game().outcome(3, True, max_positions=x), LIMIT),
    ("StateGame.moves", lambda x: _state_game().moves(x), ALL),
    ("StateGame.options", lambda x: _state_game().options(x), ALL),
    ("StateGame.winning_options", lambda x: _state_game().winning_options(3, x), frozenset({"huge", "2**70"})),
    ("StateGame.drawing_options", lambda x: _state_game(loopy=True).drawing_options(x), ALL),
    ("StateGame.plot_grid", lambda x: _state_game().plot_grid(x, 2), frozenset()),
    ("TwoHeapGame", lambda x: gr.TwoHeapGame(x), frozenset()),
    ("TwoHeapGame", lambda x: gr.TwoHeapGame([(1, x)]), frozenset()),
    ("TwoHeapGame", lambda x: gr.TwoHeapGame([(1, 0)], unbounded=x), frozenset()),
    ("TwoHeapGame", lambda x: gr.TwoHeapGame([(1, 0)], name=x), frozenset({"None", "str"})),
    ("TwoHeapGame", lambda x: gr.TwoHeapGame([(1, 0)], threads=x), LIMIT),
    ("wythoff", _no_args(gr.wythoff), ALL),
    ("TwoHeapGame.value", lambda x: gr.wythoff().value(x), frozenset()),
    ("TwoHeapGame.value", lambda x: gr.wythoff().value((1, x)), frozenset()),
    ("TwoHeapGame.values", lambda x: gr.wythoff().values([(x, 1)]), frozenset()),
    ("TwoHeapGame.outcome", lambda x: gr.wythoff().outcome((x, 1)), frozenset()),
    ("TwoHeapGame.outcome", lambda x: gr.wythoff().outcome((x, 1), misere=True), frozenset()),
    ("TwoHeapGame.outcome", lambda x: gr.wythoff().outcome((3, 4), misere=x), frozenset()),
    ("TwoHeapGame.outcome", lambda x: gr.wythoff().outcome((3, 4), True, max_positions=x), LIMIT),
    ("TwoHeapGame.options", lambda x: gr.wythoff().options((x, 1)), frozenset({"huge", "2**70"})),
    ("TwoHeapGame.winning_options", lambda x: gr.wythoff().winning_options((x, 1)), frozenset()),
    ("TwoHeapGame.winning_options", lambda x: gr.wythoff().winning_options((3, 4), x), frozenset({"huge", "2**70"})),
    ("TwoHeapGame.row", lambda x: gr.wythoff().row(x), frozenset({"huge"})),
    ("TwoHeapRow.values", lambda x: gr.wythoff().row(1).values(x), frozenset()),
    ("TwoHeapRow.value", lambda x: gr.wythoff().row(1).value(x), frozenset()),
    ("TwoHeapRow.periodicity", lambda x: gr.wythoff().row(1).periodicity(x), frozenset()),
    ("GridGame.grid", lambda x: gr.wythoff().grid(x, 2), frozenset()),
    ("GridGame.grid", lambda x: gr.wythoff().grid(2, 2, state=x), frozenset({"None"})),
    ("GridGame.plot_grid", lambda x: gr.wythoff().plot_grid(2, x), frozenset()),
    # -- board games ------------------------------------------------------------------------------
    ("cram", lambda x: gr.cram(x, 3, memory=1 << 20), frozenset()),
    ("cram", lambda x: gr.cram(2, 3, memory=x), frozenset({"None"})),
    ("cram", lambda x: gr.cram(2, 3, memory=1 << 20, progress=x), frozenset({"None"})),
    ("chomp", lambda x: gr.chomp(2, x, memory=1 << 20), frozenset()),
    ("node_kayles", lambda x: gr.node_kayles(x, memory=1 << 20), frozenset()),
    ("node_kayles", lambda x: gr.node_kayles([(0, [x])], memory=1 << 20), frozenset()),  # unhashable vertex
    ("node_kayles", lambda x: gr.node_kayles(path=x, memory=1 << 20), frozenset()),
    ("node_kayles", lambda x: gr.node_kayles(grid=(2, x), memory=1 << 20), frozenset()),
    ("arc_kayles", lambda x: gr.arc_kayles(cycle=x, memory=1 << 20), frozenset()),
    ("BoardGame.value", lambda x: _cram().value(x), frozenset({"None"})),
    ("BoardGame.value", lambda x: gr.node_kayles(path=3, memory=1 << 20).value([x]), frozenset()),
    ("BoardGame.state", lambda x: _cram().state(x), frozenset({"None"})),
    ("BoardGame.state", lambda x: _cram().state([[x, 0], [0, 0]]), frozenset()),
    ("BoardGame.outcome", lambda x: _cram().outcome(x), frozenset({"None"})),
    ("BoardGame.options", lambda x: _cram().options(x), frozenset({"None"})),
    ("BoardGame.winning_options", lambda x: _cram().winning_options(x), frozenset({"None"})),
    ("BoardGame.winning_options", lambda x: _cram().winning_options(None, x), frozenset({"huge", "2**70"})),
    ("BoardGame.components", lambda x: _cram().components(x), frozenset({"None"})),
    ("BoardGame.position", lambda x: _cram().position(x), frozenset({"None"})),
    ("BoardGame.stats", lambda x: _cram().stats(), ALL),
    ("BoardState", lambda x: gr.BoardState(_cram(), x), frozenset()),
    ("BoardState", lambda x: gr.BoardState(x, 1), frozenset()),
    ("BoardState.value", lambda x: _cram().start.value(), ALL),
    ("BoardState.options", lambda x: _cram().start.options(), ALL),
    # -- misère quotients -------------------------------------------------------------------------
    ("misere_quotient", lambda x: gr.misere_quotient(x, 2), frozenset()),
    ("misere_quotient", lambda x: gr.misere_quotient(gr.nim(), x), frozenset()),
    ("misere_quotient", lambda x: gr.misere_quotient(gr.nim(), 2, max_order=x), LIMIT),
    ("misere_quotient", lambda x: gr.misere_quotient(gr.nim(), 2, progress=x), frozenset({"None"})),
    ("misere_quotient_bounds", lambda x: gr.misere_quotient_bounds(x, 2, 1), frozenset()),
    ("misere_quotient_bounds", lambda x: gr.misere_quotient_bounds(gr.nim(), x, 1), frozenset()),
    ("misere_quotient_bounds", lambda x: gr.misere_quotient_bounds(gr.nim(), 2, x), frozenset()),
    ("MisereQuotient.presentation", lambda x: _quotient().presentation(), ALL),
    ("MisereQuotient.element", lambda x: _quotient().element(x), frozenset()),
    ("MisereQuotient.element", lambda x: _quotient().element([1, x]), frozenset()),
    ("MisereQuotient.outcome", lambda x: _quotient().outcome([1, x]), frozenset()),
    ("MisereQuotient.outcomes", lambda x: _quotient().outcomes(x), frozenset()),
    ("MisereQuotient.winning_moves", lambda x: _quotient().winning_moves([1, x]), frozenset()),
    ("MisereQuotient.winning_move", lambda x: _quotient().winning_move([1, x]), frozenset()),
    # -- files and surveys ------------------------------------------------------------------------
    ("save", lambda x: gr.save(x, "never-written.npz"), frozenset()),
    # "x" is a file name (in the test's own folder): saving a game there is what save is for.
    ("save", lambda x: gr.save(_kayles(), x), frozenset({"str"})),
    ("save", lambda x: gr.save(_kayles(), os.path.join("no-such-folder", str(x))), frozenset()),
    # "x" does not exist in the test's folder.
    ("load", lambda x: gr.load(x), frozenset()),
    ("survey", lambda x: gr.survey(x, max_n=64, progress=False), frozenset()),
    # In a list, a code that does not parse ("x") gets a row with its error (issue 32, fault 7).
    ("survey", lambda x: gr.survey([x], max_n=64, progress=False), frozenset({"str"})),
    ("survey", lambda x: gr.survey(["0.7"], max_n=x, progress=False), frozenset({"huge"})),
    ("survey", lambda x: gr.survey(["0.7"], max_n=64, threads=x, progress=False), LIMIT),
    # 1.5 is a timeout of 1.5 seconds per game.
    ("survey", lambda x: gr.survey(["0.7"], max_n=64, timeout=x, progress=False),
     frozenset({"huge", "2**70", "float", "None"})),
    ("survey", lambda x: gr.survey(["0.7"], max_n=64, progress=x), frozenset({"None"})),
    ("survey", lambda x: gr.survey(["0.7"], max_n=64, executor=x, progress=False), frozenset({"None"})),
    ("survey", lambda x: gr.survey("0.?", max_n=64, hexadecimal=x, progress=False), frozenset()),
    # "x": a store, or a checkpoint folder, in the test's folder.
    ("survey", lambda x: gr.survey(["0.7"], max_n=64, store=x, progress=False), frozenset({"None", "str"})),
    ("survey", lambda x: gr.survey(["0.7"], max_n=64, checkpoints=x, progress=False), frozenset({"None", "str"})),
    ("survey_summary", lambda x: gr.survey_summary(x), frozenset()),
    ("load_survey", lambda x: gr.load_survey(x), frozenset()),
]

#: Public names that are not callables to check, each with the reason.
NOT_CALLED = {
    "DEFAULT_MAX_N": "a constant",
    "__version__": "a constant",
    "Game": "a base class: built by its subclasses; its methods have rows",
    "TwoHeapRow": "built by TwoHeapGame.row, which checks the row; its methods have rows",
    "GeneralizedValues": "built by generalized_values(); its methods have rows",
    "MisereQuotient": "built by misere_quotient(); its methods have rows",
    "Periodicity": "a result record grundy builds; its method has rows",
    "SparseSpace": "a result record grundy builds; its method has rows",
    "SurveySummary": "a result record survey_summary() builds",
    "PretendingPeriod": "a result record misere_quotient() builds",
    "QuotientBounds": "a result record misere_quotient_bounds() builds",
    "BoardGame": "built by cram(), chomp(), node_kayles() and arc_kayles(); its methods have rows",
}


def _public_callables() -> set[str]:
    """The qualnames of every public function, class and public method reachable from __all__."""
    names: set[str] = set()
    for name in gr.__all__:
        obj = getattr(gr, name)
        if isinstance(obj, type) and issubclass(obj, BaseException):
            continue  # the hierarchy itself: tests/api/test_exceptions.py
        if name in NOT_CALLED:
            if isinstance(obj, type):
                names |= _methods(obj)
            continue
        if isinstance(obj, type):
            names.add(obj.__qualname__)
            names |= _methods(obj)
        elif callable(obj):
            names.add(obj.__qualname__)
    return names


def _methods(cls: type) -> set[str]:
    out = set()
    for attr in dir(cls):
        if attr.startswith("_") or isinstance(inspect.getattr_static(cls, attr), property):
            continue
        member = getattr(cls, attr)
        if callable(member) and getattr(member, "__module__", "").startswith("grundy"):
            out.add(member.__qualname__)
    return out


def test_every_public_callable_has_a_row():
    covered = {key for key, _, _ in ROWS}
    missing = sorted(_public_callables() - covered)
    assert not missing, f"public callables with no row of bad arguments in ROWS: {missing}"


def test_every_not_called_name_is_public():
    assert set(NOT_CALLED) <= set(gr.__all__)


@pytest.mark.filterwarnings("ignore")
@pytest.mark.parametrize(
    ("key", "call", "accepted"), ROWS, ids=[f"{k}-{i}" for i, (k, _, _) in enumerate(ROWS)]
)
@pytest.mark.parametrize("bad", list(BAD))
def test_bad_arguments_raise_the_family(key, call, accepted, bad, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # save()/load() rows touch only the test's own folder
    try:
        call(BAD[bad])
    except gr.GrundyError as e:
        builtin = (ValueError, TypeError, MemoryError, LookupError, RuntimeError, OverflowError,
                   FileNotFoundError, PermissionError)  # missing or read-only files: MissingFileError, ...
        assert isinstance(e, builtin), f"{key}({bad}): {type(e).__name__} is not also a builtin error"
        assert len(str(e)) < 2000, f"{key}({bad}): a {len(str(e))}-character message"
        return
    except Exception as e:  # noqa: BLE001 - the point: nothing outside the family
        pytest.fail(f"{key} with a bad argument ({bad}) raised {type(e).__name__}, not a GrundyError: {e}")
    assert bad in accepted, f"{key} accepted a bad argument ({bad}: {BAD[bad]!r}) silently"


def test_the_classes_are_also_the_builtins():
    pairs = [
        (gr.ArgumentError, ValueError),
        (gr.ArgumentTypeError, TypeError),
        (gr.TooLargeError, ValueError),
        (gr.TooLargeError, OverflowError),
        (gr.NotFoundError, KeyError),
        (gr.NotFoundError, IndexError),
        (gr.MemoryLimitError, MemoryError),
        (gr.ReentrancyError, RuntimeError),
    ]
    for cls, builtin in pairs:
        assert issubclass(cls, gr.GrundyError) and issubclass(cls, builtin), (cls, builtin)


@pytest.mark.parametrize(
    ("call", "cls"),
    [
        # Issue 32, fault 7: each of these raised a plain builtin on main.
        (lambda: gr.kayles().values(-1), gr.ArgumentError),
        (lambda: gr.kayles().values(5, threads=0), gr.ArgumentError),
        (lambda: gr.Subtraction([0]), gr.ArgumentError),
        (lambda: gr.TwoHeapGame([(0, 0)]), gr.ArgumentError),
        (lambda: gr.TakeAndBreak("0.77", engine="fast"), gr.ArgumentError),
        (lambda: gr.HeapGame(lambda n: [(n,)]).values(3), gr.ArgumentError),
        (lambda: gr.Position(gr.HeapGame(lambda n: [(n,)]), [1]).outcome(misere=True), gr.ArgumentError),
        (lambda: gr.Position(gr.GameGraph({"a": ["a"]}), ["a"]).outcome(misere=True), gr.ArgumentError),
        (lambda: gr.kayles().value(2**70), gr.TooLargeError),
        (lambda: gr.kayles().values(2**70), gr.MemoryLimitError),
        (lambda: gr.kayles().values(2.5), gr.ArgumentTypeError),
        (lambda: gr.GameGraph({"a": []}).value("z"), gr.NotFoundError),
        (lambda: gr.GameGraph({"a": []}).label(5), gr.NotFoundError),
    ],
)
def test_the_inputs_of_the_issue(call, cls):
    with pytest.raises(cls):
        call()


def test_too_large_integers_stay_overflow_errors():
    with pytest.raises(OverflowError):
        gr.kayles().value(2**70)
    with pytest.raises(OverflowError):
        gr.wythoff().value((2**70, 1))


def test_core_errors_keep_their_class_through_numpy_inputs():
    with pytest.raises(gr.ArgumentError):
        gr.outcomes(gr.kayles(), np.array([[-1, 2]]))
