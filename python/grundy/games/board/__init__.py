"""Board games of at most 128 cells, solved by a pruned search in the core.

:class:`BoardGame` (``game``) holds one rule and its search tables; ``rules`` builds Cram, Node
Kayles, Arc Kayles and Chomp (graphs from what ``graph`` accepts); a position is a
:class:`BoardState` (``state``), played in a :class:`~grundy.Position` through ``components``.

>>> from grundy.games.board import cram
>>> cram(3, 4).value()
1
"""

from .game import BoardGame, BoardState
from .rules import arc_kayles, chomp, cram, node_kayles

__all__ = ["BoardGame", "BoardState", "arc_kayles", "chomp", "cram", "node_kayles"]
