"""``grundy.heap_game``, kept so that older imports keep working.

Heap games with rules in Python now live in :mod:`grundy.games.heap_game`.
"""

from .games.heap.python_rules import *  # noqa: F403
from .games.heap.python_rules import __all__  # noqa: F401
