"""Heap games: a position is a heap of tokens, a move takes some and may break the rest.

:class:`Game` (``game``) computes values, periods and sparse spaces through one core; the rules
are take-and-break codes (``take_and_break``), subtraction sets (``subtraction``) or options
written in Python (``python_rules``). ``components`` plays heaps in a :class:`~grundy.Position`,
``display`` draws them, ``run`` drives one long computation (progress, checkpoints).

>>> from grundy.games.heap import TakeAndBreak
>>> TakeAndBreak("0.07").values(10).tolist()
[0, 0, 1, 1, 2, 0, 3, 1, 1, 0]
"""

from .game import Game
from .python_rules import HeapGame
from .subtraction import Subtraction
from .take_and_break import TakeAndBreak, dawsons_kayles, grundys_game, kayles, nim

__all__ = ["Game", "HeapGame", "Subtraction", "TakeAndBreak", "dawsons_kayles", "grundys_game", "kayles", "nim"]
