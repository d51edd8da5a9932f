"""Checks of a :class:`~grundy.StateGame`'s rule, and the fast ways to write one.

Two options of ``StateGame`` make a rule written in Python fast:

- ``split=True``: ``options(state)`` returns each option already split into its canonical
  components (a tuple of states), so one call per state replaces a ``components`` call and a
  ``key`` call per option;
- ``int_states=True``: the states are ints in ``[0, 2**128)`` (bitmasks of a board, say), kept in
  Rust rather than in a Python dict, and the value of one position (``value``) is found by the
  pruned search of the board games rather than by tabulating every state reachable from it.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from html import escape
from typing import Any

from .. import _core
from .._validate import _short, as_flag
from ..exceptions import ArgumentError, ArgumentTypeError


def _callable(f: Any, name: str, optional: bool = True) -> Any:
    if f is None and optional:
        return None
    if not callable(f):
        raise ArgumentTypeError(f"{name} must be a function of one state, not {type(f).__name__} ({_short(f)})")
    return f


def _iterable(states: Any) -> Iterable[Hashable]:
    """``states`` when it is an iterable of states (not a str or bytes, which would be read as characters)."""
    if isinstance(states, (str, bytes)) or not isinstance(states, Iterable):
        raise ArgumentTypeError(f"states must be an iterable of states, not {type(states).__name__} ({_short(states)})")
    return states


def fast_flags(split: Any, int_states: Any, loopy: bool) -> tuple[bool, bool]:
    """``split`` and ``int_states`` checked: bools, and ``split`` not with ``loopy``."""
    split = as_flag(split, "split")
    int_states = as_flag(int_states, "int_states")
    if split and loopy:
        raise ArgumentError(
            "loopy=True cannot be combined with split=True: a loopy game's options are single states, not sums"
        )
    return split, int_states


def search_for(
    options: Any, components: Any, key: Any, *, split: bool, int_states: bool, loopy: bool
) -> _core.StateSearch | None:
    """The pruned search for one position's value: for integer states of a game that is not loopy."""
    if not int_states or loopy:
        return None
    return _core.StateSearch(options, components, key, split)


def describe(game: Any) -> str:
    """What a StateGame's repr shows after its name: its functions and flags."""
    extra = "".join(
        f", {k}={getattr(f, '__name__', f)!s}"
        for k, f in (("components", game._components_fn), ("key", game._key_fn))
        if f is not None
    )
    flags = (("loopy", game.loopy), ("split", game._split), ("int_states", game._ints))
    return extra + "".join(f", {k}=True" for k, on in flags if on)


def card_rows(game: Any) -> list[tuple[str, str]]:
    """The rows of a StateGame's card."""
    rows = [
        ("options", escape(getattr(game._options_fn, "__name__", repr(game._options_fn)))),
        ("components", escape(getattr(game._components_fn, "__name__", "")) if game._components_fn else ""),
        ("key", escape(getattr(game._key_fn, "__name__", "")) if game._key_fn else ""),
        ("loopy", "yes: generalized values, draws" if game.loopy else "no"),
    ]
    fast = (("split", game._split), ("int states", game._ints), ("search", game._search is not None))
    if game._split or game._ints:
        rows.append(("fast rule", ", ".join(k for k, on in fast if on)))
    return [*rows, ("states explored", f"{game.num_states:,}")]


__all__ = ["card_rows", "describe", "fast_flags", "search_for"]
