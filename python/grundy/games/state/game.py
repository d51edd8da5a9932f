"""Games over any hashable positions: write ``options(state)``, ask for values.

:class:`StateGame` explores the states reachable from those asked about, calling the Python
functions once per distinct canonical state from a loop that runs in Rust, keeps the explored
graph in Rust and solves it there (parallel topological layers, without the GIL). With
``components`` a state is a disjunctive sum: each part is explored and cached on its own and the
value is the XOR of the parts' values (Sprague-Grundy). With ``key`` equivalent states (symmetric,
relabelled) are explored once. With ``loopy=True`` the states may repeat (cycles): they get Smith's
generalized Sprague-Grundy values (an int or ``Infinity(K)``) and outcomes with draws, computed by
the loopy engine of :mod:`grundy.games.graph.loopy`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

import numpy as np

from ... import _core
from ..._ui.progress import Bar, _check_progress, _check_threads
from ..._validate import _short, as_count, as_flag, as_limit, as_name
from ...exceptions import ArgumentError, ArgumentTypeError, CycleError, ReentrancyError
from ...play.misere import limit as misere_limit
from ...play.values import INFINITE, Infinity, Value, _normal_play, drawing_options, value_outcome
from ..graph.loopy import GeneralizedValues
from .explored import ExploredStates
from .grid import CARD_CELLS, GridGame
from .rules import _callable, _iterable, batch_rules, card_rows, describe, fast_flags, search_for


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
    loopy : bool, optional
        Allow cycles (positions that repeat, games that may go on forever). States then get
        generalized Sprague-Grundy values: :meth:`value` returns an int or a
        :class:`~grundy.Infinity`, :meth:`outcome` ``'P'``, ``'N'`` or ``'D'`` (a draw), and
        :meth:`generalized_values` the values of every explored state. Each option must then be
        a single state: ``components`` is refused.
    split, int_states, batch : bool, optional
        The fast ways to write a rule (``grundy.games.state.rules``). ``split``: ``options``
        returns each option as the tuple of canonical parts it leaves (``components`` and ``key``
        then apply to the states asked about only). ``int_states``: states are ints below 2**128,
        kept in Rust, and :meth:`value` searches (pruned) rather than tabulates. ``batch``: both,
        and ``options(states)`` takes a numpy uint64 array, returning ``(counts, sizes, parts)``.
    memory : int, optional
        Bytes for the search's table, kept between calls (``int_states`` only; default 64 MiB).

    Raises
    ------
    ArgumentTypeError
        (a TypeError) When ``options``, ``components`` or ``key`` is not callable, ``loopy`` not a
        bool, or ``max_states`` not an integer.
    ArgumentError
        (a ValueError) When ``max_states`` is not positive, or ``loopy=True`` comes with
        ``components``.

    Notes
    -----
    Everything explored stays cached on the game. Without ``loopy=True`` a cycle among the
    states raises :class:`~grundy.CycleError` naming the states of one cycle, and nothing of
    that exploration is kept. Exceptions raised by the functions propagate unchanged, with a
    note naming the state they were called on. The functions must answer from the state they
    are given alone: one that asks the same game for values while it explores raises
    :class:`~grundy.ReentrancyError`.

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

    A loopy game: remove 1 or 2 tokens, or add 1 to a non-empty heap below 4 tokens. Heaps of
    1 and 2 win by taking all; from 3 or 4 neither player can force a win (a draw):

    >>> up = gr.StateGame(lambda n: [n - k for k in (1, 2) if k <= n] + ([n + 1] if 0 < n < 4 else []), loopy=True)
    >>> [up.value(n) for n in range(5)]
    [0, Infinity({0}), Infinity({0}), Infinity(), Infinity()]
    >>> [up.outcome(n) for n in range(5)]
    ['P', 'N', 'N', 'D', 'D']
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
        loopy: bool = False,
        split: bool = False,
        int_states: bool = False,
        batch: bool = False,
        memory: int | None = None,
    ) -> None:
        self._made = {k: v for k, v in locals().items() if k != "self" and not k.startswith("__")}
        _callable(options, "options", optional=False)
        _callable(components, "components")
        _callable(key, "key")
        name = as_name(name)
        if max_states is not None:
            # No exploration reaches 2**64 states: a larger bound is that one (the core's is a u64).
            max_states = as_limit(max_states, "max_states")
            if max_states == 0:
                raise ArgumentError("max_states must be at least 1")
        self._options_fn = options
        self._components_fn = components
        self._key_fn = key
        self.name = name
        self.max_states = max_states
        loopy = as_flag(loopy, "loopy")
        if loopy and components is not None:
            raise ArgumentError(
                "loopy=True cannot be combined with components=: the generalized value of a loopy sum is not that "
                "of a single state (two infinite parts make a draw with no value); explore whole states, or add "
                "the parts as components of a grundy.Position"
            )
        self._progress = _check_progress(progress)
        self._threads = _check_threads(threads)
        self._split, self._ints, self._batch = fast_flags(split, int_states, batch, loopy)
        rule, self._state_options = batch_rules(options, self._batch)
        fast = (self._split, self._ints, self._batch)
        self._core = _core.StateExplorer(rule, components, key, max_states, loopy, *fast)
        self._search = search_for(self._state_options, components, key, fast, loopy, memory)

    # -- exploring -------------------------------------------------------------------------------
    def _run(self, method: str, states: Any) -> Any:
        bar = Bar(self._progress, f"{self._name()}: exploring", " states")

        def progress(done: int, found: int) -> None:
            # No total while exploring: the states found so far are not all there are (each one
            # expanded finds more), so done/found would read 100% long before the end.
            bar.update(done, note=f"{found:,} found")

        readable = True
        try:
            return getattr(self._core, method)(states, progress, self._threads)
        except CycleError as e:
            hint = "; a loopy game has generalized values instead: pass loopy=True to StateGame"
            raise CycleError(e.cycle, str(e) + hint) from None
        except ReentrancyError:
            readable = False  # called from this game's own function: the explorer is busy with the outer call
            raise
        finally:
            bar.close(self._core.num_states if readable else None)

    def _parts(self, state: Any) -> list[int]:
        """The ids of the canonical components of ``state`` (exploring it)."""
        parts: list[int] = self._run("explore", [state])[0]
        return parts

    @property
    def num_states(self) -> int:
        """Distinct canonical states explored (and solved) so far.

        Examples
        --------
        >>> import grundy as gr
        >>> g = gr.StateGame(lambda n: range(n))
        >>> g.value(10), g.num_states
        (10, 11)
        """
        return self._core.num_states

    @property
    def loopy(self) -> bool:
        """Whether the game was made with ``loopy=True`` (cycles allowed, generalized values).

        Examples
        --------
        >>> import grundy as gr
        >>> gr.StateGame(lambda n: range(n)).loopy, gr.StateGame(lambda n: [n], loopy=True).loopy
        (False, True)
        """
        return bool(self._core.loopy)

    def value(self, state: Hashable) -> Any:
        """The Grundy value of ``state`` (the XOR of its components' values).

        With ``int_states=True`` by pruned search: only what this one value needs is searched,
        and nothing is tabulated (past the search's reach, a value over 127 or plays of some
        hundreds of moves, it tabulates).

        With ``loopy=True``, the generalized value: an int, or ``Infinity(K)`` with K the finite
        values of the state's options.

        Parameters
        ----------
        state : hashable
            The state (explored first when new).

        Returns
        -------
        int or Infinity
            An int, except for a state of a loopy game whose value is infinite.

        Raises
        ------
        CycleError
            When the states reachable from ``state`` hold a cycle and the game is not loopy.
        TypeError
            When a state (or its key) is not hashable.

        Examples
        --------
        >>> import grundy as gr
        >>> nim = gr.StateGame(lambda n: range(n))
        >>> nim.value(7)
        7
        >>> gr.StateGame(lambda n: [n, 0] if n else [], loopy=True).value(1)
        Infinity({0})
        """
        if self.loopy:
            return self._gvalue(self._parts(state)[0])
        found = self._search.value(state) if self._search is not None else None
        if found is not None:  # None: past the search (deep plays, a cycle, a value over 127)
            return found[0]
        v = 0
        for i in self._parts(state):
            v ^= self._core.value(i)
        return v

    def _gvalue(self, i: int) -> Value:
        """The generalized value of explored state ``i`` of a loopy game."""
        v = self._core.value(i)
        if v != INFINITE:
            return int(v)
        return Infinity(self._core.finite_option_values([i])[0])

    def generalized_values(self, states: Iterable[Hashable] = ()) -> GeneralizedValues:
        """The generalized values of every explored state of a loopy game (``loopy=True``).

        ``states`` are explored first. The answer is a :class:`~grundy.GeneralizedValues` whose
        labels are the explored canonical states, in the order they were found (their ids): it
        gives ``value``, ``outcome``, ``outcomes()``, ``is_finite``, ``finite``,
        ``winning_options`` and ``drawing_options``. It is a snapshot: states explored later are
        not in it.

        Parameters
        ----------
        states : iterable of hashable, optional
            States to explore first.

        Returns
        -------
        GeneralizedValues
            The value and outcome of every explored state, labelled by the canonical states.

        Raises
        ------
        ArgumentError
            (a ValueError) When the game is not loopy.
        ArgumentTypeError
            (a TypeError) When ``states`` is not an iterable of states.

        Examples
        --------
        >>> import grundy as gr
        >>> g = gr.StateGame(lambda n: [n - k for k in (1, 2) if k <= n] + ([n + 1] if 0 < n < 4 else []), loopy=True)
        >>> gv = g.generalized_values([4])
        >>> gv
        GeneralizedValues(num_vertices=5, finite=1, infinite=4, P=1, N=2, D=2)
        >>> gv.values_by_label()
        {4: Infinity(), 3: Infinity(), 2: Infinity({0}), 1: Infinity({0}), 0: 0}
        >>> gv.outcomes().tolist(), gv.winning_options(2), gv.drawing_options(3)
        (['D', 'D', 'N', 'N', 'P'], [0], [4])
        """
        if not self.loopy:
            raise ArgumentError("generalized_values() needs a loopy game: make it with StateGame(..., loopy=True)")
        self._run("explore", _iterable(states))
        values, outcomes = self._core.generalized()
        return GeneralizedValues(ExploredStates(self, len(values)), values, outcomes)

    def values(self, states: Iterable[Hashable]) -> np.ndarray:
        """The values of several states, as a numpy array (one exploration for all).

        Parameters
        ----------
        states : iterable of hashable
            The states.

        Returns
        -------
        numpy.ndarray
            Their values, of the smallest unsigned dtype that holds them; with ``loopy=True`` an
            ``object`` array of ints and :class:`~grundy.Infinity` values.

        Raises
        ------
        ArgumentTypeError
            (a TypeError) When ``states`` is not an iterable of hashable states.
        CycleError
            When the states reachable hold a cycle and the game is not loopy.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.StateGame(lambda n: range(n)).values([3, 1, 4]).tolist()
        [3, 1, 4]
        >>> gr.StateGame(lambda n: [n, 0] if n else [], loopy=True).values([0, 1]).tolist()
        [0, Infinity({0})]
        """
        states = _iterable(states)
        if self.loopy:
            raw, k, sets = self._run("generalized_of", states)
            out = np.empty(len(raw), dtype=object)
            out[:] = raw.tolist()
            inf = k >= 0
            if inf.any():
                made = np.empty(len(sets), dtype=object)  # one Infinity per distinct K (they are immutable)
                made[:] = [Infinity(ks) for ks in sets]
                out[inf] = made[k[inf]]
            return out
        values: np.ndarray = self._run("values", states)
        return values

    def components(self, state: Hashable) -> tuple[Hashable, ...]:
        """The canonical components of ``state`` (a 1-tuple without ``components=``).

        Parameters
        ----------
        state : hashable
            The state (explored first when new).

        Returns
        -------
        tuple
            The canonical states it splits into (``key`` applied).

        Examples
        --------
        >>> import grundy as gr
        >>> g = gr.StateGame(lambda s: [], components=lambda s: sorted(s), key=abs)
        >>> g.components((3, -1))
        (1, 3)
        """
        return tuple(self._core.state(i) for i in self._parts(state))

    def outcome(self, state: Hashable, misere: bool = False, *, max_positions: int | None = None) -> str:
        """``"P"`` when the player to move loses with best play, ``"N"`` when they win, ``"D"`` for a draw.

        Normal play: P exactly when the value is 0. A loopy game (``loopy=True``) adds draws:
        ``Infinity(K)`` is N when 0 is in K and D otherwise. Misère play (the player who cannot
        move wins): the core's exhaustive misère search (the one of heap sums) over the sums of
        explored components reachable from ``state``, SearchLimitError (a ValueError) past
        ``max_positions`` of them; not for loopy games.

        Parameters
        ----------
        state : hashable
            The state.
        misere : bool
            Misère play instead of normal play.
        max_positions : int, optional
            The most distinct sums the misère search may meet (default
            ``grundy.play.misere.MISERE_MAX_POSITIONS``, 10**6, as for heap sums).

        Returns
        -------
        str
            ``"P"``, ``"N"``, or ``"D"`` (loopy games only).

        Raises
        ------
        ArgumentError
            (a ValueError) For misère play of a loopy game.
        ArgumentTypeError
            (a TypeError) When ``misere`` is not a bool, or ``max_positions`` not an integer.
        SearchLimitError
            (a ValueError) For a misère search past ``max_positions``.

        Examples
        --------
        >>> import grundy as gr
        >>> nim = gr.StateGame(lambda hs: [hs[:i] + (k,) + hs[i + 1:] for i, h in enumerate(hs) for k in range(h)])
        >>> nim.outcome((1, 1)), nim.outcome((1, 1), misere=True)
        ('P', 'N')
        >>> gr.StateGame(lambda n: [n], loopy=True).outcome("x")
        'D'
        """
        if self.loopy:
            _normal_play(misere)
            return value_outcome(self.value(state))
        if not as_flag(misere, "misere"):
            return "P" if self.value(state) == 0 else "N"
        limit = misere_limit(max_positions)  # checked before any exploring
        return "P" if self._misere_p(self._parts(state), limit) else "N"

    def _misere_sum_p(self, states: list[Hashable], max_positions: int | None) -> bool:
        """Whether the sum of ``states`` is a misère P-position (what a Position asks)."""
        if self.loopy:
            _normal_play(True)
        limit = misere_limit(max_positions)
        return self._misere_p([i for p in self._run("explore", states) for i in p], limit)

    def _misere_p(self, root: list[int], limit: int) -> bool:
        """Misère outcome of a sum of explored components (ids): the core's one exhaustive misère search."""
        return bool(self._core.misere_search(root, limit)[0])

    # -- moves (what a Position component needs) -------------------------------------------------
    def moves(self, state: Hashable) -> list[tuple[Hashable, tuple[Hashable, ...]]]:
        """Every move from ``state``.

        Parameters
        ----------
        state : hashable
            The state.

        Returns
        -------
        list of tuple
            Pairs ``(option, parts)``, where ``option`` is what ``options(state)`` returned and
            ``parts`` the tuple of its canonical components (one state without ``components``).

        Raises
        ------
        ArgumentTypeError
            (a TypeError) When ``options(state)`` does not return an iterable of hashable states.

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
        opts = self._state_options(state)
        try:
            it = iter(opts)
        except TypeError:
            raise ArgumentTypeError(
                f"options({_short(state)}) returned {_short(opts)}, which is not iterable: it must return the "
                "states one move can reach"
            ) from None
        opts = list(it)  # what the iteration itself raises is the rule's own, unchanged
        return opts, self._run("explore_options" if self._split else "explore", opts)

    #: The primitive a Position component uses (the same name on TwoHeapGame).
    _moves = moves

    def options(self, state: Hashable) -> list[Hashable]:
        """The options of ``state`` in canonical form (``key`` applied), each once.

        Parameters
        ----------
        state : hashable
            The state.

        Returns
        -------
        list
            The canonical options, in the order ``options`` gives them.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.StateGame(lambda n: [n - 1, n - 2] if n >= 2 else [], key=abs).options(3)
        [2, 1]
        """
        canon = (not self._split and self._key_fn) or (lambda s: s)
        seen: dict[Hashable, None] = {}
        for o, _ in self.moves(state):
            seen.setdefault(canon(o), None)
        return list(seen)

    def winning_options(self, state: Hashable, target: int = 0) -> list[Hashable]:
        """The options of ``state`` (as ``options(state)`` returned them) whose value is ``target``.

        With ``target=0`` the winning moves of a lone game; in a sum, the moves of this component that bring the total
        to 0. In a loopy game only finite values count: an option of infinite value is never a winning move.

        Parameters
        ----------
        state : hashable
            The state.
        target : int
            The value the options must have (a non-negative integer).

        Returns
        -------
        list
            The options, as ``options(state)`` returned them.

        Raises
        ------
        ArgumentError, ArgumentTypeError
            When ``target`` is negative, or not an integer.

        Examples
        --------
        >>> import grundy as gr
        >>> gr.StateGame(lambda n: range(n)).winning_options(5, target=2)
        [2]
        >>> gr.StateGame(lambda n: [n, 0] if n else [], loopy=True).winning_options(1)
        [0]
        """
        target = as_count(target, "target")
        found = self._search.winning(state) if self._search is not None and target == 0 else None
        if found is not None:
            return found
        out = []
        opts, ids = self._option_ids(state)
        for o, parts in zip(opts, ids, strict=True):
            if self._parts_value(parts) == target:
                out.append(o)
        return out

    def _parts_value(self, parts: list[int]) -> Value:
        """The (generalized) value of the sum of explored states ``parts`` (one part when loopy)."""
        if self.loopy:
            return self._gvalue(parts[0])
        v = 0
        for i in parts:
            v ^= self._core.value(i)
        return v

    def drawing_options(self, state: Hashable) -> list[Hashable]:
        """For a state of a loopy game that is a draw, the options that keep the draw.

        From a draw no move wins; a move to an N-position loses, and a move to another draw
        keeps the game going. Empty when the state is not a draw (always, without ``loopy=True``).

        Parameters
        ----------
        state : hashable
            The state.

        Returns
        -------
        list
            The options, as ``options(state)`` returned them.

        Examples
        --------
        >>> import grundy as gr
        >>> g = gr.StateGame({"s": ["s", "x"], "x": ["s", "t"], "t": []}.__getitem__, loopy=True)
        >>> g.outcome("s"), g.drawing_options("s")
        ('D', ['s'])
        """
        if not self.loopy:
            return []
        opts, ids = self._option_ids(state)
        picked = drawing_options([self.value(state)], 0, [self._parts_value(p) for p in ids])
        return [opts[j] for j in picked]

    # -- display ---------------------------------------------------------------------------------
    def _name(self) -> str:
        return str(self.name or getattr(self._options_fn, "__name__", "StateGame"))

    def __repr__(self) -> str:
        return f"StateGame({self._name()}{describe(self)}, num_states={self.num_states})"

    def _card_rows(self) -> list[tuple[str, str]]:
        return card_rows(self)

    def _card_grid(self) -> np.ndarray | None:
        return None  # a StateGame's states need not be pairs: no corner unless asked (grid())


__all__ = ["CARD_CELLS", "StateGame"]
