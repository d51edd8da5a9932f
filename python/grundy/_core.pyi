"""Type stubs of the compiled module (the PyO3 layer over the Rust core)."""

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

__version__: str

class Sequence:
    """A rule's cached Grundy values, extended on demand without the GIL."""

    @staticmethod
    def take_and_break(code: str, engine: str = "auto") -> Sequence: ...
    @staticmethod
    def subtraction(kind: str, members: list[int] | None = None) -> Sequence: ...
    @staticmethod
    def allowed(allowed: Callable[[int, int], Any]) -> Sequence: ...
    @staticmethod
    def options(options: Callable[[int], Iterable[Iterable[int]]]) -> Sequence: ...
    def extend(
        self,
        n: int,
        progress: Callable[[int, int], Any] | None = None,
        threads: int | None = None,
        from_period: bool = False,
    ) -> None:
        """Computes G(0..n) if not yet known; ``progress(done, total)`` is called about every 50 ms
        (an exception it raises stops the computation, keeping the values computed); ``threads``
        runs it on a pool of that many threads. ``from_period``: prove a period on the way where a
        theorem applies and fill the rest from it (values beyond a period proven by ``period`` are
        filled from it either way)."""
    def seed(self, values: np.ndarray, progress: Callable[[int, int], Any] | None = None) -> None:
        """Fills an empty sequence with known values G(0..len(values)) (a uint32 array): the rule
        rebuilds its state and recomputes a few values (all for rules without a cheap rebuild) to
        check them. ValueError when a value disagrees with the rule or the sequence is not empty."""
    def __len__(self) -> int: ...
    def array(self, start: int, stop: int) -> np.ndarray: ...
    def get(self, i: int) -> int: ...
    def period(self, n: int) -> tuple[dict[str, Any] | None, int | None]:
        """(found, aim): the earliest credible periodic tail of G(0..n) (preperiod, period, saltus,
        proven, certificate, checked_to, needed) or None; and the number of values that would prove
        the longest tail seen repeating, or None."""
    def unproven_reason(self) -> str | None: ...
    def sparse_space(self, n: int) -> dict[str, Any]:
        """The best mask of G(0..n): mask, parity, n, rare_positions (a uint64 array)."""

class CycleError(ValueError):
    """A game graph has a cycle. args: (message, vertex ids of one cycle in edge order)."""

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

class HeapRule:
    """A built-in heap rule whose options the core lists (take-and-break code or subtraction)."""

    @staticmethod
    def take_and_break(code: str) -> HeapRule: ...
    @staticmethod
    def subtraction(kind: str, members: list[int] | None = None) -> HeapRule: ...
    def is_option(self, n: int, parts: list[int]) -> bool: ...
    def search(
        self,
        seq: Sequence,
        tail: tuple[int, int, int] | None,
        n: int,
        target: int | None,
        cursor: tuple[int, int],
        budget: int,
        first_only: bool = False,
    ) -> tuple[list[tuple[str, list[int]]], tuple[int, int] | None, int]: ...
    def has_option(
        self, seq: Sequence, tail: tuple[int, int, int] | None, heaps: np.ndarray, targets: np.ndarray
    ) -> np.ndarray: ...

class OptionTable:
    """Options of heaps 0..N of a rule written in Python, for the misère search."""

    def __init__(self, opt_start: np.ndarray, part_start: np.ndarray, parts: np.ndarray) -> None: ...

def heap_values(seq: Sequence, tail: tuple[int, int, int] | None, heaps: np.ndarray) -> np.ndarray: ...
def outcomes(seq: Sequence, tail: tuple[int, int, int] | None, heaps: np.ndarray) -> np.ndarray: ...
def misere_search(
    games: list[HeapRule | OptionTable | Graph],
    root: list[tuple[int, int]],
    max_positions: int,
    want_moves: bool = False,
) -> tuple[bool, list[tuple[int, list[int]]], int]: ...
def misere_outcomes(
    games: list[HeapRule | OptionTable | Graph], rows: np.ndarray, max_positions: int
) -> np.ndarray: ...
def parse_code(code: str) -> dict[str, Any]: ...
def nim_sum(heaps: np.ndarray) -> int: ...

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
