"""``grundy.loopy``, kept so that older imports keep working.

Loopy values and their sums now live in :mod:`grundy.play.values`, and the values of game graphs in
:mod:`grundy.games.loopy`.
"""

from .games.graph.loopy import GeneralizedValues, generalized_values
from .play.values import Infinity, drawing_options, sum_outcome, sum_value, value_outcome, winning_options

__all__ = [
    "GeneralizedValues",
    "Infinity",
    "drawing_options",
    "generalized_values",
    "sum_outcome",
    "sum_value",
    "value_outcome",
    "winning_options",
]
