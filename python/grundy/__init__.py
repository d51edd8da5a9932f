"""grundy: Grundy values of impartial combinatorial games, computed by a Rust core.

>>> import grundy as gr
>>> gr.kayles().values(12).tolist()
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
>>> gr.nim_sum([10, 12, 5])
3
>>> gr.GameGraph({"a": ["b"], "b": []}).value("a")
1
>>> gr.Position(gr.nim(), [10, 12, 5]).winning_move()
Move(component=0, before=10, after=(9,))
"""

from . import exceptions
from ._core import __version__
from .analysis import (
    DEFAULT_MAX_N,
    MisereQuotient,
    Periodicity,
    PretendingPeriod,
    QuotientBounds,
    SparseSpace,
    misere_quotient,
    misere_quotient_bounds,
)
from .exceptions import *  # noqa: F403 - the whole hierarchy, listed once in exceptions.__all__
from .games import (
    BoardGame,
    BoardState,
    Game,
    GameGraph,
    GeneralizedValues,
    HeapGame,
    StateGame,
    Subtraction,
    TakeAndBreak,
    TwoHeapGame,
    TwoHeapRow,
    arc_kayles,
    chomp,
    cram,
    dawsons_kayles,
    grundys_game,
    kayles,
    nim,
    node_kayles,
    wythoff,
)
from .io import load, save
from .play import (
    Infinity,
    Move,
    Position,
    drawing_options,
    equivalent,
    nim_sum,
    outcomes,
    sum_outcome,
    sum_value,
    value_outcome,
    winning_options,
)
from .surveys import SurveySummary, load_survey, survey, survey_summary

__all__ = [
    "__version__",
    # games: the kinds of game (grundy.games)
    "Game",
    "TakeAndBreak",
    "Subtraction",
    "HeapGame",
    "nim",
    "kayles",
    "dawsons_kayles",
    "grundys_game",
    "GameGraph",
    "GeneralizedValues",
    "StateGame",
    "TwoHeapGame",
    "TwoHeapRow",
    "wythoff",
    # games: boards and graphs of at most 128 cells, by a pruned search (grundy.games.board)
    "BoardGame",
    "BoardState",
    "cram",
    "node_kayles",
    "arc_kayles",
    "chomp",
    # play: sums, positions, moves, outcomes (grundy.play)
    "nim_sum",
    "Position",
    "Move",
    "equivalent",
    "outcomes",
    "Infinity",
    "sum_value",
    "sum_outcome",
    "value_outcome",
    "winning_options",
    "drawing_options",
    # analysis: periodicity, sparse space, misère quotients (grundy.analysis)
    "DEFAULT_MAX_N",
    "Periodicity",
    "SparseSpace",
    "MisereQuotient",
    "PretendingPeriod",
    "QuotientBounds",
    "misere_quotient",
    "misere_quotient_bounds",
    # io: files (grundy.io)
    "save",
    "load",
    # surveys: families of games (grundy.surveys)
    "survey",
    "survey_summary",
    "load_survey",
    "SurveySummary",
    # errors (grundy.exceptions)
    *exceptions.__all__,
]
