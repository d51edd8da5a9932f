"""Playing sums of games: nim-sums, positions and their moves, misère play, loopy values of sums.

A position is a sum of components; each kind of game plugs in through the component protocol
(:mod:`grundy.play.components`), so nothing here knows which kinds of game exist.

>>> import grundy as gr
>>> from grundy.play import Position
>>> Position(gr.nim(), [10, 12, 5]).winning_move()
Move(component=0, before=10, after=(9,))
"""

from .move import Move
from .nimsum import nim_sum
from .outcomes import equivalent, outcomes
from .position import Position
from .values import Infinity, drawing_options, sum_outcome, sum_value, value_outcome, winning_options

__all__ = [
    "Infinity",
    "Move",
    "Position",
    "drawing_options",
    "equivalent",
    "nim_sum",
    "outcomes",
    "sum_outcome",
    "sum_value",
    "value_outcome",
    "winning_options",
]
