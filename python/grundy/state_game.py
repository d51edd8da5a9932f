"""Games over any hashable positions: write ``options(state)``, ask for values.

:class:`StateGame` explores the states reachable from those asked about, calling the Python
functions once per distinct canonical state from a loop that runs in Rust, keeps the explored
graph in Rust and solves it there (parallel topological layers, without the GIL). With
``components`` a state is a disjunctive sum: each part is explored and cached on its own and the
value is the XOR of the parts' values (Sprague-Grundy). With ``key`` equivalent states (symmetric,
relabelled) are explored once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable
from html import escape
from typing import Any

import numpy as np

from . import _core
from ._grid import CARD_CELLS, GridGame
from ._progress import AUTO_DELAY, _check_progress, _check_threads
from .exceptions import SearchLimitError

#: Distinct sums a misère search visits at most unless told otherwise.
MISERE_MAX_POSITIONS = 2_000_000


class _Bar:
    """``progress(done, found)`` for the explorer.

    A tqdm bar counting states (after ``AUTO_DELAY`` seconds when ``mode`` is None, always when True, never when
    False).
    """

    def __init__(self, mode: bool | None, desc: str) -> None:
        self.mode, self.desc = mode, desc
        self.bar: Any = None
        self.started = time.monotonic()
        if mode is True:  # always: open now, even if the exploration ends before the core reports
            self._open()

    def _open(self) -> None:
        from tqdm.auto import tqdm

        self.bar = tqdm(desc=self.desc, unit=" states", unit_scale=True, mininterval=0.5)

    def __call__(self, done: int, found: int) -> None:
        if self.bar is None:
            if self.mode is False or (self.mode is None and time.monotonic() - self.started < AUTO_DELAY):
                return
            self._open()
        self.bar.total = found
        self.bar.update(done - self.bar.n)

    def close(self, explored: int | None = None) -> None:
        """Close the bar, first bringing it to ``explored`` states when given."""
        if self.bar is not None:
            if explored is not None and explored > self.bar.n:
                self.bar.total = max(self.bar.total or 0, explored)
                self.bar.update(explored - self.bar.n)
            self.bar.close()


def _callable(f: Any, name: str, optional: bool = True) -> Any:
    if f is None and optional:
        return None
    if not callable(f):
        raise TypeError(f"{name} must be a function of one state, not {type(f).__name__} ({f!r})")
    return f


class StateGame(GridGame):
    """An impartial game whose positions are any hashable Python values.

    Parameters
    ----------
    options : callable
        ``options(state)`` returns the states one move can reach (an iterable).
    components : callable, optional
        ``components(state)`` returns the independent parts a state splits into (a disjunctive
        sum): its value is the XOR of the parts' values. Called on every state asked about and
        every option; each part is then a state of its own (``options`` is called on it).
    key : callable, optional
        ``key(state)`` returns a canonical representative: states with the same key must have
        the same value (symmetries, relabelling). Explored states are the keys.
    name : str, optional
        Shown in reprs and plots.
    max_states : int, optional
        The most distinct canonical states to explore (SearchLimitError, a ValueError, beyond).
    progress : bool, optional
        A tqdm bar counting states: True always, False never, None after 1 s.
    threads : int, optional
        Threads for the Rust solver (None: every core, or ``RAYON_NUM_THREADS``).

    Notes
    -----
    Everything explored stays cached on the game. A cycle among the states raises
    :class:`~grundy.CycleError` naming the states of one cycle. Exceptions raised by the
    functions propagate unchanged, with a note naming the state they were called on.

    Examples
    --------
    Subtraction of 1 or 2 from one heap, then Node Kayles on a path split into its pieces:

    >>> import grundy as gr
    >>> g = gr.StateGame(lambda n: [n - k for k in (1, 2) if n >= k])
    >>> [g.value(n) for n in range(6)]
    [0, 1, 2, 0, 1, 2]
    >>> def kayles_path(n):  # a path of n vertices; removing a vertex and its neighbours
    ...     return [(max(i - 1, 0), max(n - i - 2, 0)) for i in range(n)]
    >>> kp = gr.StateGame(kayles_path, components=lambda s: [x for x in s if x] if isinstance(s, tuple) else [s])
    >>> [kp.value(n) for n in range(10)]
    [0, 1, 1, 2, 0, 3, 1, 1, 0, 3]
    """

    def __init__(
        self,
        options: Callable[[Any], Iterable[Hashable]],
        *,
        components: Callable[[Any], Iterable[Hashable]] | None = None,
        key: Callable[[Any], Hashable] | None = None,
        name: str | None = None,
        max_states: int | None = None,
        progress: bool | None = None,
        threads: int | None = None,
    ) -> None:
        _callable(options, "options", optional=False)
        _callable(components, "components")
        _callable(key, "key")
        if name is not None and not isinstance(name, str):
            raise TypeError(f"name must be a string, not {type(name).__name__}")
        if max_states is not None:
            from ._validate import as_count

            max_states = as_count(max_states, "max_states")
            if max_states == 0:
                raise ValueError("max_states must be at least 1")
        self._options_fn = options
        self._components_fn = components
        self._key_fn = key
        self.name = name
        self.max_states = max_states
        self._progress = _check_progress(progress)
        self._threads = _check_threads(threads)
        self._core = _core.StateExplorer(options, components, key, max_states)

    # -- exploring -------------------------------------------------------------------------------
    def _run(self, method: str, states: Any) -> Any:
        bar = _Bar(self._progress, f"{self._name()}: exploring")
        try:
            return getattr(self._core, method)(states, bar, self._threads)
        finally:
            bar.close(self._core.num_states)

    def _parts(self, state: Any) -> list[int]:
        """The ids of the canonical components of ``state`` (exploring it)."""
        parts: list[int] = self._run("explore", [state])[0]
        return parts

    @property
    def num_states(self) -> int:
        """Distinct canonical states explored (and solved) so far.

        >>> import grundy as gr
        >>> g = gr.StateGame(lambda n: range(n))
        >>> g.value(10), g.num_states
        (10, 11)
        """
        return self._core.num_states

    def value(self, state: Hashable) -> int:
        """The Grundy value of ``state`` (the XOR of its components' values).

        Examples
        --------
        >>> import grundy as gr
        >>> nim = gr.StateGame(lambda n: range(n))
        >>> nim.value(7)
        7
        """
        v = 0
        for i in self._parts(state):
            v ^= self._core.value(i)
        return v

    def values(self, states: Iterable[Hashable]) -> np.ndarray:
        """The values of several states, as a numpy array (one exploration for all).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.StateGame(lambda n: range(n)).values([3, 1, 4]).tolist()
        [3, 1, 4]
        """
        if isinstance(states, (str, bytes)) or not isinstance(states, Iterable):
            raise TypeError(f"states must be an iterable of states, not {type(states).__name__}")
        values: np.ndarray = self._run("values", states)
        return values

    def components(self, state: Hashable) -> tuple[Hashable, ...]:
        """The canonical components of ``state`` (a 1-tuple without ``components=``).

        >>> import grundy as gr
        >>> g = gr.StateGame(lambda s: [], components=lambda s: sorted(s), key=abs)
        >>> g.components((3, -1))
        (1, 3)
        """
        return tuple(self._core.state(i) for i in self._parts(state))

    def outcome(self, state: Hashable, misere: bool = False, *, max_positions: int | None = None) -> str:
        """``"P"`` when the player to move loses with best play, ``"N"`` when they win.

        Normal play: P exactly when the value is 0. Misère play (the player who cannot move
        wins): exhaustive search over the sums of explored components reachable from ``state``,
        SearchLimitError (a ValueError) past ``max_positions`` of them.

        Examples
        --------
        >>> import grundy as gr
        >>> nim = gr.StateGame(lambda hs: [hs[:i] + (k,) + hs[i + 1:] for i, h in enumerate(hs) for k in range(h)])
        >>> nim.outcome((1, 1)), nim.outcome((1, 1), misere=True)
        ('P', 'N')
        """
        if not misere:
            return "P" if self.value(state) == 0 else "N"
        return "P" if self._misere_p(tuple(sorted(self._parts(state))), max_positions) else "N"

    def _misere_sum_p(self, states: list[Hashable], max_positions: int | None) -> bool:
        """Whether the sum of ``states`` is a misère P-position (what a Position asks)."""
        return self._misere_p(tuple(sorted(i for s in states for i in self._parts(s))), max_positions)

    def _misere_p(self, root: tuple[int, ...], max_positions: int | None) -> bool:
        """Misère outcome of a sum of explored components (a sorted tuple of ids), iteratively."""
        limit = MISERE_MAX_POSITIONS if max_positions is None else max_positions
        memo: dict[tuple[int, ...], bool] = {}
        opts_of: dict[int, list[list[int]]] = {}

        def options(s: tuple[int, ...]) -> list[tuple[int, ...]]:
            out: list[tuple[int, ...]] = []
            for idx, c in enumerate(s):
                if idx and s[idx - 1] == c:
                    continue
                if c not in opts_of:
                    opts_of[c] = self._core.option_parts(c)
                rest = s[:idx] + s[idx + 1 :]
                out.extend(tuple(sorted(rest + tuple(p))) for p in opts_of[c])
            return out

        stack: list[tuple[tuple[int, ...], list[tuple[int, ...]]]] = [(root, options(root))]
        while stack:
            s, opts = stack[-1]
            pending = next((o for o in opts if o not in memo), None)
            if pending is not None:
                if len(memo) + len(stack) > limit:
                    raise SearchLimitError(
                        f"the misère search met more than max_positions = {limit} sums; raise max_positions",
                        limit,
                    )
                if any(t[0] == pending for t in stack):
                    raise ValueError("the game has a cycle: misère outcome undefined")  # pragma: no cover
                stack.append((pending, options(pending)))
                continue
            stack.pop()
            # No move: the player to move wins (N). Otherwise P iff every option is N.
            memo[s] = bool(opts) and all(not memo[o] for o in opts)
        return memo[root]

    # -- moves (what a Position component needs) -------------------------------------------------
    def moves(self, state: Hashable) -> list[tuple[Hashable, tuple[Hashable, ...]]]:
        """Every move from ``state``.

        Pairs ``(option, parts)``, where ``option`` is what ``options(state)`` returned and ``parts`` its canonical
        components.

        Examples
        --------
        >>> import grundy as gr
        >>> def split(n):  # take one token from a heap of n and split the rest in two
        ...     return [(a, n - 1 - a) for a in range(n // 2 + 1) if a <= n - 1 - a]
        >>> g = gr.StateGame(split, components=lambda s: [x for x in s if x] if isinstance(s, tuple) else [s])
        >>> g.moves(3)
        [((0, 2), (2,)), ((1, 1), (1, 1))]
        """
        opts, ids = self._option_ids(state)
        return [(o, tuple(self._core.state(i) for i in p)) for o, p in zip(opts, ids, strict=True)]

    def _option_ids(self, state: Hashable) -> tuple[list[Hashable], list[list[int]]]:
        """The options of ``state`` as ``options`` returns them, and the ids of their parts."""
        opts = self._options_fn(state)
        try:
            opts = list(opts)
        except TypeError:
            raise TypeError(
                f"options({state!r}) returned {opts!r}, which is not iterable: it must return the states one move "
                f"can reach"
            ) from None
        return opts, self._run("explore", opts)

    #: The primitive a Position component uses (the same name on TwoHeapGame).
    _moves = moves

    def options(self, state: Hashable) -> list[Hashable]:
        """The options of ``state`` in canonical form (``key`` applied), each once.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.StateGame(lambda n: [n - 1, n - 2] if n >= 2 else [], key=abs).options(3)
        [2, 1]
        """
        canon = self._key_fn or (lambda s: s)
        seen: dict[Hashable, None] = {}
        for o, _ in self.moves(state):
            seen.setdefault(canon(o), None)
        return list(seen)

    def winning_options(self, state: Hashable, target: int = 0) -> list[Hashable]:
        """The options of ``state`` (as ``options(state)`` returned them) whose value is ``target``.

        With ``target=0`` the winning moves of a lone game; in a sum, the moves of this component that bring the total
        to 0.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.StateGame(lambda n: range(n)).winning_options(5, target=2)
        [2]
        """
        out = []
        opts, ids = self._option_ids(state)
        for o, parts in zip(opts, ids, strict=True):
            v = 0
            for i in parts:
                v ^= self._core.value(i)
            if v == target:
                out.append(o)
        return out

    # -- display ---------------------------------------------------------------------------------
    def _name(self) -> str:
        return str(self.name or getattr(self._options_fn, "__name__", "StateGame"))

    def __repr__(self) -> str:
        extra = "".join(
            f", {k}={getattr(f, '__name__', f)!s}"
            for k, f in (("components", self._components_fn), ("key", self._key_fn))
            if f is not None
        )
        return f"StateGame({self._name()}{extra}, num_states={self.num_states})"

    def _card_rows(self) -> list[tuple[str, str]]:
        return [
            ("options", escape(getattr(self._options_fn, "__name__", repr(self._options_fn)))),
            ("components", escape(getattr(self._components_fn, "__name__", "")) if self._components_fn else ""),
            ("key", escape(getattr(self._key_fn, "__name__", "")) if self._key_fn else ""),
            ("states explored", f"{self.num_states:,}"),
        ]

    def _card_grid(self) -> np.ndarray | None:
        return None  # a StateGame's states need not be pairs: no corner unless asked (grid())


__all__ = ["CARD_CELLS", "StateGame"]
