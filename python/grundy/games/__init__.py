"""The kinds of game.

Heap games (take-and-break codes, subtraction sets, rules in Python), game graphs (with cycles:
loopy games), games on arbitrary states, two-heap games, and board games (Cram, Node Kayles,
Arc Kayles, Chomp) solved by a pruned search in Rust.

One folder a family: ``heap/``, ``state/`` (with the two-heap grids), ``graph/`` (with loopy
graphs) and ``board/``. Each family implements the play protocol (:mod:`grundy.play.components`)
in its ``components`` module, so a new kind of game plugs in here without any change elsewhere.

>>> from grundy.games import kayles
>>> kayles().values(12).tolist()
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
"""

from .board import BoardGame, BoardState, arc_kayles, chomp, cram, node_kayles
from .graph import GameGraph, GeneralizedValues, generalized_values
from .heap import Game, HeapGame, Subtraction, TakeAndBreak, dawsons_kayles, grundys_game, kayles, nim
from .state import StateGame, TwoHeapGame, TwoHeapRow, wythoff

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
