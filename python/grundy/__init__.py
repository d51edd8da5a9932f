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
from ._nimsum import nim_sum
from ._survey import SurveySummary, load_survey, survey, survey_summary
from .exceptions import *  # noqa: F403 - the whole hierarchy, listed once in exceptions.__all__
from .games import (
    Game,
    Subtraction,
    TakeAndBreak,
    dawsons_kayles,
    grundys_game,
    kayles,
    nim,
)
from .graph import GameGraph
from .heap_game import HeapGame
from .io import load, save
from .loopy import GeneralizedValues, Infinity, drawing_options, sum_outcome, sum_value, value_outcome, winning_options
from .misere_quotient import (
    MisereQuotient,
    PretendingPeriod,
    QuotientBounds,
    misere_quotient,
    misere_quotient_bounds,
)
from .periodicity import DEFAULT_MAX_N, Periodicity, SparseSpace
from .position import Move, Position, equivalent, outcomes
from .state_game import StateGame
from .two_heap import TwoHeapGame, TwoHeapRow, wythoff

__all__ = [
    *exceptions.__all__,
    "DEFAULT_MAX_N",
    "Periodicity",
    "SparseSpace",
    "Game",
    "GameGraph",
    "HeapGame",
    "Move",
    "Position",
    "Subtraction",
    "TakeAndBreak",
    "__version__",
    "dawsons_kayles",
    "equivalent",
    "grundys_game",
    "kayles",
    "load",
    "nim",
    "nim_sum",
    "survey",
    "survey_summary",
    "load_survey",
    "SurveySummary",
    "outcomes",
    "save",
    "StateGame",
    "TwoHeapGame",
    "TwoHeapRow",
    "wythoff",
    "GeneralizedValues",
    "Infinity",
    "drawing_options",
    "sum_outcome",
    "sum_value",
    "value_outcome",
    "winning_options",
    "MisereQuotient",
    "PretendingPeriod",
    "QuotientBounds",
    "misere_quotient",
    "misere_quotient_bounds",
]
