"""Saving and loading games with their computed values and periodicity.

The format is described in :mod:`grundy.io.checkpoint`, which also writes the checkpoints of long runs
(``checkpoint=`` on :meth:`~grundy.Game.values` and :meth:`~grundy.Game.periodicity`): a checkpoint is
a file :func:`load` reads.
"""

from __future__ import annotations

import os

from ..exceptions import ArgumentTypeError
from . import checkpoint as _checkpoint
from .checkpoint import FORMAT_NAME, FORMAT_VERSION, Game, game_from_rule

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "game_from_rule", "load", "save"]


def save(obj: Game, path: str | os.PathLike[str]) -> None:
    """Write a game, its computed values and its last periodicity result to ``path``.

    The file is written atomically (a temporary file in the same folder, flushed to disk, then
    renamed over ``path``), so ``path`` always holds either the old or the new file. Works for
    take-and-break games, the built-in subtraction rules and the board games (:func:`~grundy.cram`,
    ...: the rule and the values :meth:`~grundy.BoardGame.value` found, not the search's table).
    A :class:`~grundy.StateGame`'s rule is a Python function, which no file can hold: pickle the
    game (functions travel by name), or save its values with ``numpy.save``.

    Parameters
    ----------
    obj : Game
        The game to save.
    path : str or os.PathLike
        The file to write (conventionally ``.npz``).

    Raises
    ------
    ArgumentTypeError
        For anything but a game, for rules given as Python callables (a callable cannot be
        rebuilt from a file: save ``game.values(n)`` with ``numpy.save`` instead; a StateGame's
        error names its function), and when ``path`` is not a file path (a TypeError).
    MissingFileError
        When the folder of ``path`` does not exist (a FileNotFoundError).
    FilePermissionError
        When that folder cannot be written (a PermissionError).

    Examples
    --------
    >>> import grundy as gr, os, tempfile
    >>> g = gr.kayles(); _ = g.values(100); _ = g.periodicity()
    >>> path = os.path.join(tempfile.mkdtemp(), "kayles.npz")
    >>> gr.save(g, path)
    >>> h = gr.load(path)
    >>> h.computed >= 100, h.known_periodicity.period
    (True, 12)
    >>> board = gr.cram(4, 5); _ = board.value()
    >>> gr.save(board, path)
    >>> gr.load(path), gr.load(path).value()  # no search: the value was in the file
    (cram(4, 5), 2)
    """
    if callable(getattr(obj, "_rule", None)):
        obj._rule()  # a rule that is a Python function raises here, saying so
    if not callable(getattr(obj, "_rule", None)) or not callable(getattr(obj, "_computed_values", None)):
        raise ArgumentTypeError(
            f"gr.save saves games (TakeAndBreak, Subtraction, board games) with their values, not "
            f"{type(obj).__name__}; "
            "for a numpy array use numpy.save"
        )
    _checkpoint.write(obj, path)


def load(path: str | os.PathLike[str]) -> Game:
    """Read a game saved by :func:`save` (or a checkpoint): its values are cached, not recomputed.

    Parameters
    ----------
    path : str or os.PathLike
        The file to read.

    Returns
    -------
    Game
        The game, with its values and its last periodicity result.

    Raises
    ------
    InvalidFileError
        When the file is damaged, truncated, of another format or of a newer format version (a
        ValueError).
    MissingFileError
        When it does not exist (a FileNotFoundError).
    FilePermissionError
        When it may not be read (a PermissionError).
    ArgumentTypeError
        When ``path`` is not a file path (a TypeError).

    Examples
    --------
    >>> import grundy as gr, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "g.npz")
    >>> g = gr.Subtraction([1, 2, 3]); _ = g.values(50)
    >>> gr.save(g, path)
    >>> gr.load(path)
    Subtraction([1, 2, 3])  # 50 values: 0 1 2 3 0 1 2 3 0 1 2 3 ...
    """
    return _checkpoint.read_game(path)
