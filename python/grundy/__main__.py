"""Command line: ``python -m grundy values|period|sparse|moves|survey|atlas ...`` (``--help`` on each).

Rules are written as take-and-break codes (``0.77``) or subtraction sets (``S1,2,3``). Results go
to stdout, progress bars and errors to stderr; a bad game or argument exits with status 2.

    python -m grundy values 0.77 40                  # Kayles' first 40 values
    python -m grundy period 0.137 --json             # preperiod, period, proof
    python -m grundy sparse 4!.0 100000 --json       # Grundy's game: rare positions
    python -m grundy moves 0.77 10 7 3               # winning moves of a sum of Kayles rows
    python -m grundy survey "0.??" --csv out.csv     # every two-digit octal game
    python -m grundy atlas nk:3x1-30 --budget 60     # Node Kayles 3 x n, 60 s a board, resumable
"""

from __future__ import annotations

import argparse
import itertools
import json
import re
import sys
from typing import Any

import numpy as np

from .analysis.periodicity import DEFAULT_MAX_N, period_text, sparse_text
from .games import Game, Subtraction, TakeAndBreak
from .play import Position
from .surveys import survey
from .surveys.atlas import atlas, parse_boards
from .surveys.results import results_markdown

GAME_HELP = "take-and-break code (0.77, 4!.0) or subtraction set (S1,2,3)"


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
    v = parse_game(args.game).values(args.n, checkpoint=args.checkpoint)
    if args.format == "text":
        print(" ".join(map(str, v.tolist())))
    elif args.format == "csv":
        print("n,g")
        print("\n".join(f"{i},{x}" for i, x in enumerate(v.tolist())))
    elif args.format == "json":
        print(json.dumps({"game": args.game, "values": v.tolist()}))
    else:
        np.save(sys.stdout.buffer, v)


def _period(args: argparse.Namespace) -> None:
    game = parse_game(args.game)
    p = game.periodicity(max_n=args.max_n, checkpoint=args.checkpoint)
    if args.json:
        print(
            json.dumps(
                {
                    "game": str(game),
                    "preperiod": p.preperiod,
                    "period": p.period,
                    "saltus": p.saltus,
                    "proven": p.proven,
                    "checked_to": p.checked_to,
                    "certificate": p.certificate,
                }
            )
        )
        return
    print(f"{game}: {period_text(p)}")
    if p.period is not None:
        print(f"preperiod {p.preperiod}, period {p.period}, saltus {p.saltus}")
        print(f"one period: {' '.join(map(str, p.base))}")
    print(p.certificate)


def _sparse(args: argparse.Namespace) -> None:
    game = parse_game(args.game)
    s = game.sparse_space(args.n)
    rare = s.rare_positions.tolist()
    if args.json:
        print(
            json.dumps(
                {
                    "game": str(game),
                    "n": s.n,
                    "mask": s.mask,
                    "parity_dependent": s.parity_dependent,
                    "rare_count": s.rare_count,
                    "common_count": s.common_count,
                    "last_rare": s.last_rare,
                    "rare_positions": rare,
                    "rare_values": list(s.rare_values),
                }
            )
        )
        return
    print(f"{game}: {sparse_text(s)}")
    print(f"rare values: {' '.join(map(str, s.rare_values))}")
    print(f"rare positions: {' '.join(map(str, rare))}")


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, not {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, not {n}")
    return n


def _game_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, **kw: Any
) -> argparse.ArgumentParser:
    """A subcommand's parser whose first argument is a game."""
    parser = sub.add_parser(name, **kw)
    parser.add_argument("game", help=GAME_HELP)
    return parser


def _add_values(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    v = _game_parser(sub, "values", help="print G(0..N-1) of a game", description="Print G(0..N-1) of a game.")
    v.add_argument("n", type=_count, help="how many values")
    v.add_argument("--format", choices=["text", "csv", "json", "npy"], default="text")
    v.add_argument("--checkpoint", metavar="PATH", help="resume from / save progress to this file (gr.save format)")
    v.set_defaults(run=_values)


def _add_period(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = _game_parser(
        sub,
        "period",
        help="find (and prove, where a theorem applies) where a game's values become periodic",
        description="Find where G(n) becomes periodic or arithmetic-periodic, and prove it where a theorem "
        "applies (finite octal and hexadecimal codes, finite subtraction sets).",
    )
    p.add_argument(
        "--max-n",
        type=_count,
        default=DEFAULT_MAX_N,
        help=f"examine at most this many values (default {DEFAULT_MAX_N})",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--checkpoint", metavar="PATH", help="resume from / save progress to this file (gr.save format)")
    p.set_defaults(run=_period)


def _add_sparse(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    s = _game_parser(
        sub,
        "sparse",
        help="rare and common values of G(0..N-1) under the best mask",
        description="Sparse space of G(0..N-1): the mask that makes rare values fewest, and where they occur.",
    )
    s.add_argument("n", type=_count, help="how many values")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.set_defaults(run=_sparse)


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


def _add_moves(sub: Any) -> None:
    m = _game_parser(
        sub,
        "moves",
        help="print the winning moves of a sum of heaps, one per line (or say it is a P-position)",
    )
    m.add_argument("heaps", nargs="+", type=int, help="heap sizes")
    m.add_argument("--misere", action="store_true", help="misère play: whoever cannot move wins")
    m.add_argument("--limit", type=int, default=100, help="print at most this many moves (default 100)")
    m.set_defaults(run=_moves)


def _survey(args: argparse.Namespace) -> None:

    df = survey(
        args.pattern,
        max_n=args.max_n,
        threads=args.threads,
        progress=None if args.progress else False,
        store=args.store,
        timeout=args.timeout,
        hexadecimal=args.hex,
    )
    if args.csv:
        df.to_csv(args.csv, index=False)
        print(f"{len(df)} games written to {args.csv}", file=sys.stderr)
    else:
        print(df.drop(columns=["seconds"]).to_string(index=False))
    if df.attrs.get("interrupted"):
        raise KeyboardInterrupt


def _add_survey(sub: Any) -> None:
    s = sub.add_parser("survey", help="periodicity and sparse space of every game of a family, as a table")
    s.add_argument("pattern", help="codes with ? for any octal digit, e.g. 0.?? or 4.???")
    s.add_argument(
        "--max-n", type=int, default=DEFAULT_MAX_N, help=f"values per game at most (default {DEFAULT_MAX_N})"
    )
    s.add_argument("--csv", metavar="PATH", help="write the table to a CSV file instead of printing it")
    s.add_argument("--threads", type=int, default=None, help="games computed at once (default: every core)")
    s.add_argument("--progress", action="store_true", help="show a progress bar")
    s.add_argument(
        "--store",
        metavar="PATH",
        help="SQLite file that keeps each finished row; a rerun computes only what is missing",
    )
    s.add_argument("--timeout", type=float, default=None, help="seconds per game at most (default: no limit)")
    s.add_argument("--hex", action="store_true", help="? stands for any hexadecimal digit 0-F")
    s.set_defaults(run=_survey)


def _bytes(text: str) -> int:
    m = re.fullmatch(r"(\d+)\s*([kKmMgGtT]?)i?[bB]?", text.strip())
    if m is None:
        raise argparse.ArgumentTypeError(f"expected a number of bytes such as 4G or 512M, not {text!r}")
    return int(m[1]) << (10 * " kmgt".index((m[2] or " ").lower()))


def _atlas(args: argparse.Namespace) -> int:
    boards = parse_boards(args.boards)

    def report(row: dict[str, Any]) -> None:
        value = row["value"] if row["status"] == "solved" else f"> {row['budget']:g} s ({row['status']})"
        note = ""
        if row["agrees"] is not None:
            note = "  agrees with " if row["agrees"] else "  DISAGREES WITH "
            note += f"{row['source']} ({row['published']})"
        print(f"{row['game']} {row['board']}: {value}  {row['seconds']:.2f} s, {row['nodes'] or 0:,} nodes{note}",
              file=sys.stderr, flush=True)  # fmt: skip

    df = atlas(
        boards,
        budget=None if args.budget == 0 else args.budget,
        store=args.store,
        threads=None if args.threads == 0 else args.threads,
        memory=args.memory,
        progress=None if args.progress else False,
        report=report,
        give_up=args.give_up,
        checkpoints=args.checkpoints,
    )
    if args.markdown:
        results_markdown(args.store, args.markdown)
        print(f"{args.markdown} written from {args.store}", file=sys.stderr)
    shown = ["game", "board", "status", "value", "published", "nodes", "seconds", "budget"]
    print(df[shown].to_string(index=False))
    if df.attrs["interrupted"]:
        raise KeyboardInterrupt
    if df.attrs["disagreements"]:
        print(f"DISAGREEMENT with published values: {', '.join(df.attrs['disagreements'])}", file=sys.stderr)
        return 3
    return 0


def _add_atlas(sub: Any) -> None:
    a = sub.add_parser(
        "atlas",
        help="values of Node Kayles and Cram boards, each within a time budget, kept in a store (resumable)",
        description="Search the value of each board of the families given, one board at a time, each stopped "
        "when its budget runs out; every row goes into the store at once, and a rerun skips the boards solved "
        "(or out of a budget at least as large). Exit status 3 when a value disagrees with a published one.",
        epilog="Families: nk:3x1-42 (Node Kayles 3 x 1 .. 3 x 42), cram:4-5x4-12, nk:sq:1-11 (squares), "
        "cram:published (the boards of Beling's table), nk:published (OEIS A316632).",
    )
    a.add_argument("boards", nargs="+", help="board families: GAME:ROWSxCOLS, GAME:sq:SIZES or GAME:published")
    a.add_argument("--budget", type=float, default=60.0, help="seconds per board (default 60; 0: no limit)")
    a.add_argument("--store", default="atlas.sqlite", help="SQLite store of the rows (default atlas.sqlite)")
    a.add_argument("--markdown", metavar="PATH", help="write the store's whole atlas as a markdown page")
    a.add_argument("--threads", type=int, default=1, help="threads of each board's search (default 1; 0: all)")
    a.add_argument("--memory", type=_bytes, default=None, help="bytes for a search's table, e.g. 4G")
    a.add_argument("--progress", action="store_true", help="show a progress bar")
    a.add_argument(
        "--give-up", type=int, default=None, metavar="K",
        help="skip the rest of a family (one game, one number of rows) after K of its boards in a row ran out",
    )  # fmt: skip
    a.add_argument(
        "--checkpoints", metavar="DIR", default=None,
        help="folder of each board's search checkpoint: a board out of budget resumes there on the next run",
    )  # fmt: skip
    a.set_defaults(run=_atlas)


def build_parser() -> argparse.ArgumentParser:
    """The command line's argument parser (``python -m grundy --help`` prints it)."""
    p = argparse.ArgumentParser(
        prog="python -m grundy",
        description="Grundy values, periodicity and sparse space of impartial heap games.",
        epilog="Run python -m grundy COMMAND --help for the options of each command.",
    )
    from . import __version__

    p.add_argument("--version", action="version", version=f"grundy {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add_values(sub)
    _add_period(sub)
    _add_sparse(sub)
    _add_moves(sub)
    _add_survey(sub)
    _add_atlas(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """Run the command line on ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    args = build_parser().parse_args(argv)
    try:
        status = args.run(args)
    except (ValueError, TypeError, MemoryError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return status or 0


if __name__ == "__main__":
    sys.exit(main())
