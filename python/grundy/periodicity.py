"""``grundy.periodicity``, kept so that older imports keep working.

Periodicity and sparse space now live in :mod:`grundy.analysis.periodicity`.
"""

from .analysis.periodicity import *  # noqa: F403
from .analysis.periodicity import __all__  # noqa: F401
