"""Command line: ``python -m grundy values CODE N`` and ``python -m grundy moves CODE HEAP...``.

Rules are written as take-and-break codes (``0.77``) or subtraction sets (``S1,2,3``).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys

import numpy as np

from .games import Game, Subtraction, TakeAndBreak
from .position import Position


def parse_game(text: str) -> Game:
    """A game from its command-line spelling: a code (``0.77``) or ``S`` and a set (``S1,2,3``).

    >>> parse_game("S1,2,3")
    Subtraction([1, 2, 3])
    """
    if text[:1] in "Ss" and len(text) > 1:
        try:
            members = [int(k) for k in text[1:].split(",")]
        except ValueError:
            raise ValueError(f"bad subtraction set {text!r}: expected S followed by numbers like S1,2,3") from None
        return Subtraction(members)
    return TakeAndBreak(text)


def _values(args: argparse.Namespace) -> None:
    v = parse_game(args.game).values(args.n)
    if args.format == "text":
        print(" ".join(map(str, v.tolist())))
    elif args.format == "csv":
        print("n,g")
        print("\n".join(f"{i},{x}" for i, x in enumerate(v.tolist())))
    elif args.format == "json":
        print(json.dumps({"game": args.game, "values": v.tolist()}))
    else:
        np.save(sys.stdout.buffer, v)


def _moves(args: argparse.Namespace) -> None:
    pos = Position(parse_game(args.game), args.heaps)
    play = "misère" if args.misere else "normal"
    found = list(itertools.islice(pos.iter_winning_moves(misere=args.misere), args.limit + 1))
    if not found:
        print(f"P-position ({play} play): every move loses")
        return
    for m in found[: args.limit]:
        print(m)
    if len(found) > args.limit:
        print(f"(more winning moves exist; the first {args.limit} are shown, see --limit)", file=sys.stderr)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m grundy", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    v = sub.add_parser("values", help="print G(0..N-1) of a game")
    v.add_argument("game", help="take-and-break code (0.77) or subtraction set (S1,2,3)")
    v.add_argument("n", type=int, help="how many values")
    v.add_argument("--format", choices=["text", "csv", "json", "npy"], default="text")
    v.set_defaults(run=_values)
    m = sub.add_parser(
        "moves",
        help="print the winning moves of a sum of heaps, one per line (or say it is a P-position)",
    )
    m.add_argument("game", help="take-and-break code (0.77) or subtraction set (S1,2,3)")
    m.add_argument("heaps", nargs="+", type=int, help="heap sizes")
    m.add_argument("--misere", action="store_true", help="misère play: whoever cannot move wins")
    m.add_argument("--limit", type=int, default=100, help="print at most this many moves (default 100)")
    m.set_defaults(run=_moves)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        args.run(args)
    except (ValueError, TypeError, MemoryError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
