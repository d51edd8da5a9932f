"""The kinds of game.

Heap games (take-and-break codes, subtraction sets, rules in Python), game graphs (with cycles:
loopy games), games on arbitrary states, two-heap games, and board games (Cram, Node Kayles,
Arc Kayles, Chomp) solved by a pruned search in Rust.

Each kind implements the play protocol (:mod:`grundy.play.components`) in a class beside it, so a
new kind of game plugs in here without any change elsewhere. ``grundy.games`` also keeps the names
it had as a module (``Game``, ``TakeAndBreak``, ``Subtraction``, ``nim``, ``kayles``, ...).

>>> from grundy.games import kayles
>>> kayles().values(12).tolist()
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
"""

from .board import BoardGame, BoardState
from .board_rules import arc_kayles, chomp, cram, node_kayles
from .graph import GameGraph
from .heap import Game
from .heap_game import HeapGame
from .loopy import GeneralizedValues, generalized_values
from .state_game import StateGame
from .subtraction import Subtraction
from .take_and_break import TakeAndBreak, dawsons_kayles, grundys_game, kayles, nim
from .two_heap import TwoHeapGame, TwoHeapRow, wythoff

__all__ = [
    "BoardGame",
    "BoardState",
    "Game",
    "GameGraph",
    "GeneralizedValues",
    "HeapGame",
    "StateGame",
    "Subtraction",
    "TakeAndBreak",
    "TwoHeapGame",
    "TwoHeapRow",
    "arc_kayles",
    "chomp",
    "cram",
    "dawsons_kayles",
    "generalized_values",
    "grundys_game",
    "kayles",
    "nim",
    "node_kayles",
    "wythoff",
]
