"""``grundy.heap_game``, kept so that older imports keep working.

Heap games with rules in Python now live in :mod:`grundy.games.heap_game`.
"""

from .games.heap_game import *  # noqa: F403
from .games.heap_game import __all__  # noqa: F401
