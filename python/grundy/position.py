"""``grundy.position``, kept so that older imports keep working.

Positions and their moves now live in :mod:`grundy.play.position`.
"""

from .play.outcomes import equivalent, outcomes
from .play.position import MAX_LISTED_MOVES, MAX_SEARCH_WORK, MISERE_MAX_POSITIONS, Move, Position

__all__ = ["MAX_LISTED_MOVES", "MAX_SEARCH_WORK", "MISERE_MAX_POSITIONS", "Move", "Position", "equivalent", "outcomes"]
