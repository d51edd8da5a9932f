"""Surveys of whole families of games.

One row per game, on threads, processes or a Dask cluster, resumable from a SQLite store.

(The package is ``surveys``, plural, so that it never shadows the function :func:`grundy.survey`.)

>>> import grundy as gr
>>> gr.survey(["0.07", "0.77"], max_n=2**12, progress=False)["period"].tolist()
[34, 12]
"""

from .runner import load_survey, survey
from .summary import SurveySummary, survey_summary

__all__ = ["SurveySummary", "load_survey", "survey", "survey_summary"]
