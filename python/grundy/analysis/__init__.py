"""What is found about a game's values: periodicity and its proofs, sparse space, misère quotients.

>>> import grundy as gr
>>> from grundy.analysis import misere_quotient
>>> misere_quotient(gr.kayles(), 12).order
24
"""

from .periodicity import DEFAULT_MAX_N, Periodicity, SparseSpace
from .quotient import MisereQuotient, PretendingPeriod
from .quotient_build import QuotientBounds, misere_quotient, misere_quotient_bounds

__all__ = [
    "DEFAULT_MAX_N",
    "MisereQuotient",
    "Periodicity",
    "PretendingPeriod",
    "QuotientBounds",
    "SparseSpace",
    "misere_quotient",
    "misere_quotient_bounds",
]
