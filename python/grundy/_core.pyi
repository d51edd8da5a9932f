"""Type stubs of the compiled module (the PyO3 layer over the Rust core)."""

from collections.abc import Callable, Iterable
from typing import Any, Literal, TypedDict, final

import numpy as np

from grundy.exceptions import CycleError as CycleError

__all__ = [
    "__version__",
    "HeapCore",
    "Graph",
    "CycleError",
    "parse_code",
    "nim_sum",
    "max_threads",
    "check_memory",
    "OptionTable",
    "OptionFamily",
    "MISERE_MAX_POSITIONS",
    "misere_search",
    "misere_outcomes",
    "StateExplorer",
    "StateSearch",
    "TwoHeap",
    "scan_period",
    "generalized_values",
    "generalized_values_csr",
    "MisereQuotient",
    "BoardGame",
    "SearchWatch",
    "checkpoint_header",
    "memory_available",
]

__version__: str

#: The engines a take-and-break sequence can run on.
_Engine = Literal["auto", "exact", "sparse"]
#: The built-in subtraction rules.
_SubtractionKind = Literal["finite", "all_but", "squares", "at_most_half", "proper_divisors"]

class _CodeInfo(TypedDict):
    """What :func:`parse_code` says of a take-and-break code."""

    canonical: str
    octal: bool
    max_heaps: int
    infinite: bool
    last_nonzero: int
    unequal: bool

class _FoundPeriod(TypedDict):
    """A periodic tail found by :meth:`HeapCore.period`."""

    preperiod: int
    period: int
    saltus: int
    proven: bool
    certificate: str
    checked_to: int
    needed: int | None

class _SparseSpaceInfo(TypedDict):
    """The best mask found by :meth:`HeapCore.sparse_space`."""

    mask: int
    parity: bool
    n: int
    rare_positions: np.ndarray

@final
class HeapCore:
    """One heap game in the core: its rule (parsed once), values, period search, move searches, misère quotients.

    Values are extended on demand without the GIL; the proven period and the quotients are kept here.
    """

    @staticmethod
    def take_and_break(code: str, engine: _Engine = "auto") -> HeapCore: ...
    @staticmethod
    def subtraction(kind: _SubtractionKind, members: list[int] | None = None) -> HeapCore: ...
    @staticmethod
    def allowed(allowed: Callable[[int, int], Any]) -> HeapCore: ...
    @staticmethod
    def options(options: Callable[[int], Iterable[Iterable[int]]]) -> HeapCore: ...
    def code_info(self) -> _CodeInfo | None:
        """What :func:`parse_code` says of the code, from the parse made once (None for other rules)."""
    @property
    def is_callback(self) -> bool:
        """Whether the rule is answered by Python callables."""
    @property
    def is_nim(self) -> bool: ...
    @property
    def proof_shape(self) -> tuple[int, int] | None:
        """``(t, k)`` of a finite rule: most tokens a move removes, most heaps it leaves."""
    def misere_game(self, top: int, max_positions: int) -> HeapCore | OptionTable:
        """The game the misère search takes (a table of a Python rule's options for heaps up to ``top``)."""
    def extend(
        self,
        n: int,
        progress: Callable[[int, int], Any] | None = None,
        threads: int | None = None,
        from_period: bool = False,
    ) -> None:
        """Compute G(0..n) if not yet known.

        ``progress(done, total)`` is called about every 50 ms (an exception it raises stops the computation,
        keeping the values computed); ``threads``
        runs it on a pool of that many threads. ``from_period``: prove a period on the way where a
        theorem applies and fill the rest from it (values beyond a period proven by ``period`` are
        filled from it either way).
        """
    def seed(self, values: np.ndarray, progress: Callable[[int, int], Any] | None = None) -> None:
        """Fill an empty sequence with known values G(0..len(values)) (a uint32 array).

        The rule rebuilds its state and recomputes a few values (all for rules without a cheap rebuild) to
        check them. ValueError when a value disagrees with the rule or the sequence is not empty.
        """
    def __len__(self) -> int: ...
    def array(self, start: int, stop: int) -> np.ndarray: ...
    def get(self, i: int) -> int: ...
    def period(self, n: int) -> tuple[_FoundPeriod | None, int | None]:
        """Find the earliest credible periodic tail of G(0..n): ``(found, aim)``.

        ``found``: preperiod, period, saltus, proven, certificate, checked_to, needed; or None. And the number
        of values that would prove
        the longest tail seen repeating, or None.
        """
    def unproven_reason(self) -> str | None: ...
    def sparse_space(self, n: int) -> _SparseSpaceInfo:
        """The best mask of G(0..n): mask, parity, n, rare_positions (a uint64 array)."""
    def search_period(
        self, max_n: int, progress: Callable[[int, int], Any] | None = None, threads: int | None = None
    ) -> tuple[_FoundPeriod | None, int]:
        """The core's one period-search schedule up to ``max_n`` values: ``(found, examined)``."""
    @property
    def proven(self) -> tuple[int, int, int] | None:
        """The proven period ``(preperiod, period, saltus)``, or None."""
    def value(self, h: int) -> int | None:
        """G(h) when the values computed or the proven period give it, else None."""
    def is_option(self, n: int, parts: list[int]) -> bool: ...
    def search(
        self,
        n: int,
        target: int | None,
        cursor: tuple[int, int],
        budget: int,
        first_only: bool = False,
    ) -> tuple[list[OptionFamily], tuple[int, int] | None, int]: ...
    def has_option(self, heaps: np.ndarray, targets: np.ndarray) -> np.ndarray: ...
    def heap_values(self, heaps: np.ndarray) -> np.ndarray: ...
    def outcomes(self, heaps: np.ndarray) -> np.ndarray: ...
    def misere_quotient(
        self,
        max_heap: int,
        progress: Callable[[int, int], Any] | None = None,
        max_order: int | None = None,
    ) -> MisereQuotient:
        """The misère quotient of the sums of heaps up to ``max_heap``, kept (that of the largest heaps)."""
    @property
    def quotient(self) -> MisereQuotient | None: ...
    @property
    def quotient_out_of_reach(self) -> int | None: ...
    def give_up_quotient(self, heap: int) -> None: ...
    def misere_quotient_bounds(self, heap: int, copies: int) -> tuple[int, list[int], int, int]: ...

@final
class Graph:
    """An explicit game graph in CSR form; built and solved without the GIL."""

    @staticmethod
    def from_arrays(num_vertices: int, src: np.ndarray, dst: np.ndarray) -> Graph: ...
    @property
    def num_vertices(self) -> int: ...
    @property
    def num_edges(self) -> int: ...
    def options(self, v: int) -> np.ndarray: ...
    def csr(self) -> tuple[np.ndarray, np.ndarray]: ...
    def values(self, threads: int | None = None) -> np.ndarray: ...

@final
class OptionFamily:
    """A family of options of one heap found by ``HeapCore.search``, expanded in the core."""

    def take(self, limit: int) -> list[tuple[int, ...]]:
        """The next ``limit`` options at most; ``[]`` once all have been taken."""

@final
class OptionTable:
    """Options of heaps 0..N of a rule written in Python, for the misère search."""

    def __new__(cls, opt_start: np.ndarray, part_start: np.ndarray, parts: np.ndarray) -> OptionTable: ...

#: The default of ``max_positions``: the one limit of the exhaustive misère search.
MISERE_MAX_POSITIONS: int

def misere_search(
    games: list[HeapCore | OptionTable | Graph],
    root: list[tuple[int, int]],
    max_positions: int,
    want_moves: bool = False,
) -> tuple[bool, list[tuple[int, list[int]]], int]: ...
def misere_outcomes(
    games: list[HeapCore | OptionTable | Graph], rows: np.ndarray, max_positions: int
) -> np.ndarray: ...
def parse_code(code: str) -> _CodeInfo: ...
def nim_sum(heaps: np.ndarray) -> int: ...
def max_threads() -> int: ...
def check_memory(bytes: int) -> None: ...

# -- state games and two-heap games ----------------------------------------------------------------
class _ScannedPeriod(TypedDict):
    """What :func:`scan_period` shows of an (arithmetic) period."""

    preperiod: int
    period: int
    saltus: int
    proven: bool
    certificate: str
    checked_to: int

@final
class StateSearch:
    """The value of one position of a Python game with integer states, by pruned search."""

    def __new__(
        cls,
        options: Callable[[Any], Iterable[Any]],
        components: Callable[[Any], Iterable[Any]] | None = None,
        key: Callable[[Any], Any] | None = None,
        split: bool = False,
        budget: int = ...,
    ) -> StateSearch: ...
    def value(self, state: Any) -> tuple[int, int] | None: ...
    def winning(self, state: Any) -> list[Any] | None: ...
    @property
    def budget(self) -> int: ...

@final
class StateExplorer:
    """The explored states of a StateGame: exploration calls Python, solving runs without the GIL."""

    def __new__(
        cls,
        options: Callable[[Any], Iterable[Any]],
        components: Callable[[Any], Iterable[Any]] | None = None,
        key: Callable[[Any], Any] | None = None,
        max_states: int | None = None,
        loopy: bool = False,
        split: bool = False,
        int_states: bool = False,
        batch: bool = False,
    ) -> StateExplorer: ...
    def explore(
        self, roots: Iterable[Any], progress: Callable[[int, int], Any] | None = None, threads: int | None = None
    ) -> list[list[int]]: ...
    def explore_options(
        self, options: Iterable[Any], progress: Callable[[int, int], Any] | None = None, threads: int | None = None
    ) -> list[list[int]]: ...
    def values(
        self, roots: Iterable[Any], progress: Callable[[int, int], Any] | None = None, threads: int | None = None
    ) -> np.ndarray: ...
    def value(self, id: int) -> int: ...
    def option_parts(self, id: int) -> list[list[int]]: ...
    def misere_search(
        self, root: list[int], max_positions: int, want_moves: bool = False
    ) -> tuple[bool, list[tuple[int, list[int]]], int]: ...
    def state(self, id: int) -> Any: ...
    @property
    def num_states(self) -> int: ...
    @property
    def num_options(self) -> int: ...
    # loopy=True (generalized values; cycles allowed)
    def options(self, id: int) -> np.ndarray: ...
    def lookup(self, state: Any) -> int | None: ...
    def finite_option_values(self, ids: list[int]) -> list[list[int]]: ...
    def generalized_of(
        self, roots: Iterable[Any], progress: Callable[[int, int], Any] | None = None, threads: int | None = None
    ) -> tuple[np.ndarray, np.ndarray, list[list[int]]]: ...
    def generalized(self) -> tuple[np.ndarray, np.ndarray]: ...
    @property
    def loopy(self) -> bool: ...

@final
class TwoHeap:
    """A two-heap subtraction rule; its grid of values is computed in parallel by anti-diagonals."""

    def __new__(cls, moves: list[tuple[int, int]], unbounded: bool = False) -> TwoHeap: ...
    @property
    def moves(self) -> list[tuple[int, int]]: ...
    @property
    def unbounded(self) -> bool: ...
    def options(self, a: int, b: int) -> list[tuple[int, int]]: ...
    def grid(
        self, rows: int, cols: int, progress: Callable[[int, int], Any] | None = None, threads: int | None = None
    ) -> np.ndarray: ...
    def misere_grid(
        self, rows: int, cols: int, progress: Callable[[int, int], Any] | None = None, threads: int | None = None
    ) -> np.ndarray: ...

def scan_period(values: np.ndarray, reason: str) -> _ScannedPeriod | None: ...

# -- loopy games (generalized Sprague-Grundy values; src/bindings/loopy.rs) ----------------------
def generalized_values(
    graph: Graph, threads: int | None = None, progress: Callable[[int, int], None] | None = None
) -> tuple[np.ndarray, np.ndarray]: ...
def generalized_values_csr(
    offsets: np.ndarray,
    targets: np.ndarray,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[np.ndarray, np.ndarray]: ...

# -- misère quotients (src/bindings/misere.rs) ---------------------------------------------------
@final
class MisereQuotient:
    """A misère quotient computed by the core, with the option lists it was built from."""

    @property
    def order(self) -> int: ...
    @property
    def max_heap(self) -> int: ...
    def table(self) -> np.ndarray: ...
    def p_mask(self) -> np.ndarray: ...
    def pretending(self) -> np.ndarray: ...
    def growth(self) -> list[tuple[int, int]]: ...
    def normal_values(self) -> np.ndarray | None: ...
    def options(self, n: int) -> list[list[int]]: ...
    def stats(self) -> dict[str, int]: ...
    def element(self, heaps: np.ndarray) -> int: ...
    def outcomes(self, rows: np.ndarray) -> np.ndarray: ...
    def winning_moves(self, counts: list[tuple[int, int]]) -> list[tuple[int, list[int]]]: ...

# -- board games: Cram, Node Kayles, Arc Kayles, Chomp (src/bindings/board.rs) --------------------
@final
class BoardGame:
    """A board game of the core; positions are ints, bit ``i`` set when cell (vertex) ``i`` is free."""

    def __new__(
        cls,
        kind: str,
        memory: int,
        rows: int = 0,
        cols: int = 0,
        n: int = 0,
        edges: list[tuple[int, int]] | None = None,
    ) -> BoardGame: ...
    @property
    def kind(self) -> str: ...
    @property
    def memory(self) -> int: ...
    @property
    def start(self) -> int: ...
    def check(self, pos: int) -> int: ...
    def options(self, pos: int) -> list[int]: ...
    def components(self, pos: int) -> list[int]: ...
    def key(self, component: int) -> int: ...
    def regions(
        self, starts: list[int], limit: int, progress: Callable[[int, int], Any] | None = None
    ) -> tuple[list[int], list[int], list[int], list[int], list[int]]: ...
    def value(
        self, pos: int, progress: Callable[[int, int], Any] | None = None, threads: int | None = None
    ) -> int: ...
    def is_zero(
        self, pos: int, progress: Callable[[int, int], Any] | None = None, threads: int | None = None
    ) -> bool: ...
    def winning(
        self,
        pos: int,
        target: int,
        progress: Callable[[int, int], Any] | None = None,
        threads: int | None = None,
    ) -> list[int]: ...
    def stats(self) -> dict[str, int]: ...
    def watch(self) -> SearchWatch: ...
    def load_checkpoint(self, file: Any, header: tuple[int, bytes, int]) -> int: ...

@final
class SearchWatch:
    """A watch on a board game's search, readable while it runs: its tables and the root's progress."""

    def table(self) -> tuple[int, int, int]: ...
    def root(self) -> dict[str, Any] | None: ...
    def write(self, file: Any, meta: bytes) -> int: ...

def checkpoint_header(file: Any) -> tuple[int, bytes, int]: ...
def memory_available() -> int | None: ...
