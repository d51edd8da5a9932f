"""Explicit game graphs: :class:`GameGraph` (``game``, built from what ``input`` accepts), and
loopy games with cycles and draws (``loopy``: generalized Sprague-Grundy values).

>>> from grundy.games.graph import GameGraph
>>> GameGraph({"a": ["b"], "b": []}).value("a")
1
"""

from .game import GameGraph
from .loopy import GeneralizedValues, generalized_values

__all__ = ["GameGraph", "GeneralizedValues", "generalized_values"]
