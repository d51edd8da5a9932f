"""Explicit game graphs, with or without cycles.

:class:`GameGraph` (``game``) is built from what ``input`` accepts; loopy games with cycles and
draws get generalized Sprague-Grundy values (``loopy``).

>>> from grundy.games.graph import GameGraph
>>> GameGraph({"a": ["b"], "b": []}).value("a")
1
"""

from .game import GameGraph
from .loopy import GeneralizedValues, generalized_values

__all__ = ["GameGraph", "GeneralizedValues", "generalized_values"]
