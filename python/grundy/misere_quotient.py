"""``grundy.misere_quotient``, kept so that older imports keep working.

Misère quotients now live in :mod:`grundy.analysis.quotient` and :mod:`grundy.analysis.quotient_build`.

(``grundy.misere_quotient`` the attribute is the function; this module is reached as
``sys.modules["grundy.misere_quotient"]`` or by ``from grundy.misere_quotient import ...``.)
"""

from .analysis.quotient import MisereQuotient, PretendingPeriod
from .analysis.quotient_build import QuotientBounds, misere_quotient, misere_quotient_bounds

__all__ = ["MisereQuotient", "PretendingPeriod", "QuotientBounds", "misere_quotient", "misere_quotient_bounds"]
