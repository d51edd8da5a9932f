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


#: What a batch rule returns, said in every error about it.
_RETURNS = (
    "a batch rule's options(states) must return (counts, sizes, parts), three 1-d integer arrays: the number of "
    "options of each state, of parts of each option, and the parts (states below 2**64)"
)


def batch_rules(
    batch: Callable[[Any], Any], is_batch: bool = True
) -> tuple[Callable[[Any], Any], Callable[[Any], Iterable[Any]]]:
    """A batch rule checked (what the explorer calls), and the same asked about one state (what a split rule returns).

    A rule that is not a batch rule (``is_batch`` False) is returned as it is, twice.

    The checked rule returns contiguous int64, int64 and uint64 arrays, or raises an error of the
    family naming the state whose options are wrong and the wrong count, size or part: a negative
    or float part is never cast to a state the rule did not return (-1 is not 2**64 - 1, 1.5 not 1).

    >>> import numpy as np
    >>> def heaps_below(s):  # nim on one heap: n options, one part each
    ...     parts = np.concatenate([np.arange(n, dtype=np.uint64) for n in s])
    ...     return s.astype(np.int64), np.ones(int(s.sum()), np.int64), parts
    >>> checked, one = batch_rules(heaps_below)
    >>> one(2)
    [(0,), (1,)]
    >>> checked(np.array([1, 2], np.uint64))[2].dtype
    dtype('uint64')
    """
    if not is_batch:
        return batch, batch

    def checked(states: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        ret = batch(states)
        if not isinstance(ret, (tuple, list)) or len(ret) != 3:
            raise ArgumentTypeError(f"{_RETURNS}; for the states {_short(states)} it returned {_short(ret)}")
        owner = np.arange(states.size)  # the state of each count, then of each option's size, then of each part
        counts = _ints(ret[0], "counts", states, owner)
        if counts.size != states.size:
            raise ArgumentError(f"{_RETURNS}; it gave {counts.size} counts for {states.size} states {_short(states)}")
        out = [counts]
        for what, arr, rest in (("count", counts, ret[1]), ("size", None, ret[2])):
            arr = out[-1] if arr is None else arr
            bad = np.flatnonzero(arr < 0)
            if bad.size:
                state = int(states[owner[bad[0]]])
                raise ArgumentError(f"{_RETURNS}; state {state} got a negative {what}, {arr[bad[0]]}")
            owner = np.repeat(owner, arr.astype(np.int64))
            out.append(_ints(rest, "sizes" if what == "count" else "parts", states, owner))
            if out[-1].size != owner.size:
                raise ArgumentError(f"{_RETURNS}; the {what}s add up to {owner.size}, with {out[-1].size} after them")
        counts, sizes, parts = out
        if parts.dtype.kind != "u":
            bad = np.flatnonzero((parts < 0) | (parts > _MAX_U64))
            if bad.size:
                state, part = int(states[owner[bad[0]]]), parts[bad[0]]
                raise ArgumentError(f"{_RETURNS}; state {state} got the part {part}, which is not an int in [0, 2**64)")
        return counts.astype(np.int64), sizes.astype(np.int64), parts.astype(np.uint64)

    def options(state: Any) -> list[tuple[int, ...]]:
        integer = isinstance(state, (int, np.integer)) and not isinstance(state, (bool, np.bool_))
        if not integer or not 0 <= state <= _MAX_U64:
            raise (ArgumentError if integer else ArgumentTypeError)(
                f"a batch rule's states must be below 2**64, and state {_short(state)} is not"
            )
        _, sizes, parts = checked(np.array([state], dtype=np.uint64))
        ps, out, k = parts.tolist(), [], 0
        for n in sizes.tolist():
            out.append(tuple(ps[k : k + n]))
            k += n
        return out

    options.__name__ = checked.__name__ = getattr(batch, "__name__", "options")
    return checked, options


_MAX_U64 = 2**64 - 1


def _ints(x: Any, name: str, states: np.ndarray, owner: np.ndarray) -> np.ndarray:
    """``x`` as a 1-d integer array (ints of any size kept exact: an object array), or the family's error.

    ``states[owner[k]]`` is the state entry ``k`` belongs to, named when it is not an int.
    """
    try:
        arr = np.asarray(x)
    except (ValueError, TypeError, OverflowError):
        raise ArgumentError(f"{_RETURNS}; its {name} {_short(x)} is not an array") from None
    if arr.ndim != 1:
        raise ArgumentError(f"{_RETURNS}; its {name} has the shape {arr.shape}, not one axis")
    if arr.size == 0:
        return np.zeros(0, np.int64)
    if arr.dtype.kind in "iu":
        return arr
    whole = [isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)) for v in arr.tolist()]
    if arr.dtype.kind == "O" and all(whole):
        return arr
    k = whole.index(False) if not all(whole) else 0
    if arr.dtype.kind == "f":  # name the first value that is not whole (1.5, nan), if one is
        k = next((i for i, v in enumerate(arr.tolist()) if not float(v).is_integer()), 0)
    whose = f"state {int(states[owner[k]])} got " if k < owner.size else ""
    raise ArgumentTypeError(f"{_RETURNS}; {whose}{_short(arr.tolist()[k])} in its {name} ({arr.dtype}), not an int")


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


__all__ = ["SEARCH_MEMORY", "card_rows", "describe", "fast_flags", "batch_rules", "search_for"]
