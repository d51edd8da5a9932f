"""``grundy.graph``, kept so that older imports keep working.

Game graphs now live in :mod:`grundy.games.graph`.
"""

from .games.graph.game import *  # noqa: F403
from .games.graph.game import __all__  # noqa: F401
