"""Type stubs of the compiled module (the PyO3 layer over the Rust core)."""

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

__version__: str

class Sequence:
    """A rule's cached Grundy values, extended on demand without the GIL."""

    @staticmethod
    def take_and_break(code: str) -> Sequence: ...
    @staticmethod
    def subtraction(kind: str, members: list[int] | None = None) -> Sequence: ...
    @staticmethod
    def allowed(allowed: Callable[[int, int], Any]) -> Sequence: ...
    @staticmethod
    def options(options: Callable[[int], Iterable[Iterable[int]]]) -> Sequence: ...
    def extend(self, n: int, progress: Callable[[int, int], Any] | None = None) -> None:
        """Computes G(0..n) if not yet known; ``progress(done, total)`` is called about every 50 ms
        (an exception it raises stops the computation, keeping the values computed)."""
    def seed(self, values: np.ndarray, progress: Callable[[int, int], Any] | None = None) -> None:
        """Fills an empty sequence with known values G(0..len(values)) (a uint32 array): the rule
        rebuilds its state and recomputes a few values (all for rules without a cheap rebuild) to
        check them. ValueError when a value disagrees with the rule or the sequence is not empty."""
    def __len__(self) -> int: ...
    def array(self, start: int, stop: int) -> np.ndarray: ...
    def get(self, i: int) -> int: ...
    def period(self, n: int) -> dict[str, Any] | None:
        """The earliest credible periodic tail of G(0..n): preperiod, period, saltus, proven,
        certificate, checked_to, needed; or None."""
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

def parse_code(code: str) -> dict[str, Any]: ...
def nim_sum(heaps: np.ndarray) -> int: ...
