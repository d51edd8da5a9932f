"""``grundy.state_game``, kept so that older imports keep working.

State games now live in :mod:`grundy.games.state_game`.
"""

from .games.state.game import *  # noqa: F403
from .games.state.game import __all__  # noqa: F401
