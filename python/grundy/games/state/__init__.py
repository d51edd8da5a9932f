"""Games on any hashable states, and the two-heap games whose states are pairs ``(a, b)``.

:class:`StateGame` (``game``) explores a game from rules written in Python (``rules``: the fast
ways to write one), loopy games included (``explored``); :class:`TwoHeapGame` (``two_heap``)
computes grids of pairs in the core. Both draw their 2-d grids through ``grid`` and play in a
:class:`~grundy.Position` through ``components``.

>>> from grundy.games.state import wythoff
>>> wythoff().grid(3, 3).tolist()
[[0, 1, 2], [1, 2, 0], [2, 0, 1]]
"""

from .game import StateGame
from .two_heap import TwoHeapGame, TwoHeapRow, wythoff

__all__ = ["StateGame", "TwoHeapGame", "TwoHeapRow", "wythoff"]
