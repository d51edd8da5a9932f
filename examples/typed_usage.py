"""A small typed script using grundy's public API; CI checks it with ``mypy --strict``.

It shows that the package's annotations (``py.typed``, and the stubs of the compiled module) are
enough for a strictly typed user script, and it runs: ``python examples/typed_usage.py``.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import grundy as gr


def first_values(game: gr.Game, n: int) -> list[int]:
    """G(0), ..., G(n-1) of ``game`` as Python ints."""
    values: npt.NDArray[np.unsignedinteger] = game.values(n)
    return [int(v) for v in values]


def period_summary(game: gr.Game) -> str:
    """A line about the game's period, proven or observed."""
    p: gr.Periodicity = game.periodicity()
    status = "proven" if p.proven else "observed"
    return f"{game}: preperiod {p.preperiod}, period {p.period}, saltus {p.saltus} ({status})"


def best_move(game: gr.Game, heaps: list[int]) -> gr.Move | None:
    """A winning move in the sum of ``heaps``, or None for a P-position."""
    pos = gr.Position(game, heaps)
    if pos.outcome() == "P":
        return None
    return pos.winning_move()


def main() -> None:
    kayles: gr.Game = gr.kayles()
    print(first_values(kayles, 12))
    print(period_summary(kayles))
    total: int = gr.nim_sum([10, 12, 5])
    print(f"nim-sum {total}")
    move = best_move(gr.nim(), [10, 12, 5])
    if move is not None:
        print(f"component {move.component}: {move.before} -> {move.after}")
    print(f"grundy {gr.__version__}")


if __name__ == "__main__":
    main()
