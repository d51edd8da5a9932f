"""Checks of a :class:`~grundy.StateGame`'s rule, and the fast ways to write one.

Three options of ``StateGame`` make a rule written in Python fast:

- ``split=True``: ``options(state)`` returns each option already split into its canonical
  components (a tuple of states), so one call per state replaces a ``components`` call and a
  ``key`` call per option (those two then apply to the states asked about only);
- ``int_states=True``: the states are ints in ``[0, 2**128)`` (bitmasks of a board, say), kept in
  Rust rather than in a Python dict, and the value of one position (``value``) is found by the
  pruned search of the board games rather than by tabulating every state reachable from it
  (``values``, grids and surveys still tabulate);
- ``batch=True`` (both of the above, states below 2**64): ``options(states)`` gets a numpy
  uint64 array of up to 16,384 states and returns ``(counts, sizes, parts)``, three integer
  arrays: the number of options of each state, the number of parts of each option, and the
  parts (canonical states), one state's options after the other. A rule vectorized with numpy
  then costs a few microseconds a state, and no Python object is made per state or option.

For example Kayles (a row of n pins; knock down one pin or two adjacent ones), each option the
rows it leaves:

>>> import grundy as gr
>>> def kayles(n):
...     return [tuple(x for x in (a, n - k - a) if x) for k in (1, 2) for a in range(n - k + 1)]
>>> g = gr.StateGame(kayles, split=True, int_states=True)
>>> [g.value(n) for n in range(10)], g.num_states  # by search: nothing tabulated
([0, 1, 2, 3, 1, 4, 3, 2, 1, 4], 0)
>>> g.values(range(10)).tolist() == [0, 1, 2, 3, 1, 4, 3, 2, 1, 4], g.num_states
(True, 10)
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from html import escape
from typing import Any

import numpy as np

from ... import _core
from ..._validate import _short, as_flag, as_heap
from ...exceptions import ArgumentError, ArgumentTypeError


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


def fast_flags(split: Any, int_states: Any, batch: Any, loopy: bool) -> tuple[bool, bool, bool]:
    """``split``, ``int_states`` and ``batch`` checked (bools; ``batch`` implies the other two), not with ``loopy``."""
    batch = as_flag(batch, "batch")
    split = as_flag(split, "split") or batch
    int_states = as_flag(int_states, "int_states") or batch
    if split and loopy:
        raise ArgumentError(
            "loopy=True cannot be combined with split=True or batch=True: a loopy game's options are single states, "
            "not sums"
        )
    return split, int_states, batch


def per_state(batch: Callable[[np.ndarray], Any]) -> Callable[[int], list[tuple[int, ...]]]:
    """A batch rule asked about one state: its options as tuples of parts (what a split rule returns)."""

    def options(state: int) -> list[tuple[int, ...]]:
        counts, sizes, parts = batch(np.array([state], dtype=np.uint64))
        if len(counts) != 1 or int(np.sum(sizes)) != len(parts):
            raise ArgumentError(
                "a batch rule's options(states) must return (counts, sizes, parts): the number of options of each "
                f"state, of parts of each option, and the parts; for state {_short(state)} it did not"
            )
        ps = np.asarray(parts, dtype=np.uint64).tolist()
        out, k = [], 0
        for n in np.asarray(sizes).tolist():
            out.append(tuple(ps[k : k + n]))
            k += n
        return out

    options.__name__ = getattr(batch, "__name__", "options")
    return options


#: The default memory budget of a StateGame's search table: 64 MiB (a rule in Python fills a larger one slowly).
SEARCH_MEMORY = 64 << 20


def search_for(
    options: Any, components: Any, key: Any, fast: tuple[bool, bool, bool], loopy: bool, memory: Any
) -> _core.StateSearch | None:
    """The pruned search for one position's value: for integer states (``fast[1]``) of a game that is not loopy."""
    budget = SEARCH_MEMORY if memory is None else as_heap(memory, "memory")
    if budget < 1024:
        raise ArgumentError(f"memory must be at least 1024 bytes, not {budget}")
    if not fast[1] or loopy:
        return None
    return _core.StateSearch(options, components, key, fast[0], budget)


def describe(game: Any) -> str:
    """What a StateGame's repr shows after its name: its functions and flags."""
    extra = "".join(
        f", {k}={getattr(f, '__name__', f)!s}"
        for k, f in (("components", game._components_fn), ("key", game._key_fn))
        if f is not None
    )
    flags = (("loopy", game.loopy), ("split", game._split), ("int_states", game._ints), ("batch", game._batch))
    return extra + "".join(f", {k}=True" for k, on in flags if on)


def card_rows(game: Any) -> list[tuple[str, str]]:
    """The rows of a StateGame's card."""
    rows = [
        ("options", escape(getattr(game._options_fn, "__name__", repr(game._options_fn)))),
        ("components", escape(getattr(game._components_fn, "__name__", "")) if game._components_fn else ""),
        ("key", escape(getattr(game._key_fn, "__name__", "")) if game._key_fn else ""),
        ("loopy", "yes: generalized values, draws" if game.loopy else "no"),
    ]
    fast = [("batch", game._batch), ("split", game._split), ("int states", game._ints)]
    fast.append(("search", game._search is not None))
    if game._split or game._ints:
        rows.append(("fast rule", ", ".join(k for k, on in fast if on)))
    return [*rows, ("states explored", f"{game.num_states:,}")]


__all__ = ["SEARCH_MEMORY", "card_rows", "describe", "fast_flags", "per_state", "search_for"]
