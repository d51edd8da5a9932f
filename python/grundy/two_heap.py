"""``grundy.two_heap``, kept so that older imports keep working.

Two-heap games now live in :mod:`grundy.games.two_heap`.
"""

from .games.state.two_heap import *  # noqa: F403
from .games.state.two_heap import __all__  # noqa: F401
