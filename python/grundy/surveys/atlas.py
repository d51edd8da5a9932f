"""The atlas: Node Kayles and Cram on rectangles, one row per board, each with a time budget, resumable.

:func:`atlas` searches boards one at a time (every thread it is given on the one board), each
stopped cleanly when its budget runs out, and keeps each finished board in a survey store
(:class:`~grundy.surveys.store.Store`, the file :func:`grundy.survey` writes): a rerun skips the
boards already solved, and those that ran out of a budget at least as large as the one asked for.
A board that ran out of its budget is stored as such (status ``"timeout"``, with its budget and the
nodes it searched), and runs again only when a larger budget is given. Each row records the machine
and the commit that computed it; a value that disagrees with a published one raises a warning and is
marked in the table. :mod:`grundy.surveys.results` writes the table as the page ``docs/results.md``
and reads a store or such a page back as a DataFrame.

>>> import os, tempfile
>>> store = os.path.join(tempfile.mkdtemp(), "atlas.sqlite")
>>> df = atlas(parse_boards("nk:3x1-4"), budget=10, store=store, progress=False)
>>> df.value.tolist(), df.agrees.tolist()  # OEIS A316632 begins 2, 1, 1, 0
([2, 1, 1, 0], [True, True, True, True])
>>> atlas(parse_boards("nk:3x1-5"), budget=10, store=store, progress=False).attrs["computed"]
1
"""

from __future__ import annotations

import datetime
import os
import platform
import re
import subprocess
import warnings
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from .._ui.progress import Bar, _check_progress, _check_threads
from ..exceptions import ArgumentError, ArgumentTypeError
from ..games.board.game import BoardGame
from ..games.board.graph import MAX_CELLS
from .runner import _check_timeout, _checkpoint_folder, _final
from .store import Store
from .worker import survey_one

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Board", "atlas", "load_store", "parse_boards", "second_method"]

#: The games of the atlas: a short name on the command line, and the game's own.
GAMES = {"nk": "node_kayles", "node_kayles": "node_kayles", "cram": "cram"}
_TITLES = {"node_kayles": "Node Kayles", "cram": "Cram"}

#: OEIS A316632: Node Kayles on the 3 x n grid, n = 1..16 (the whole published range).
A316632 = [2, 1, 1, 0, 3, 3, 2, 2, 2, 3, 3, 5, 2, 4, 1, 3]

#: Cram rectangles (beling/impartial-games README, November 2025; Lemoine and Viennot's Glop before):
#: rows 4..7, columns from the rows to 15; the open boards are left out.
CRAM_TABLE: dict[int, list[int | None]] = {
    4: [0, 2, 0, 3, 0, 1, 0, 1, 0, 3, 0, 4],
    5: [0, 2, 1, 1, 1, 2, 0, 3],
    6: [0, 5, 0, 1, 0, None, 0, None, 0],
    7: [1, 3, 1],
}


def _published() -> dict[tuple[str, int, int], tuple[int, str]]:
    out: dict[tuple[str, int, int], tuple[int, str]] = {}
    for n, v in enumerate(A316632, start=1):
        out["node_kayles", 3, n] = (v, "OEIS A316632")
    for r, values in CRAM_TABLE.items():
        for c, w in enumerate(values, start=r):
            if w is not None:
                out["cram", r, c] = (w, "Beling's table")
    return out


#: Published values by (game, rows, cols) as published (a board and its transpose are one game).
PUBLISHED = _published()

#: The Node Kayles 3 x n boards whose value the test suite also finds by a second method, a plain
#: memoised mex over components written in the test (``tests/surveys/test_atlas_checks.py``): n up
#: to this. The tests read these constants, so the table's ``checked`` column and the tests agree.
CHECKED_3XN = 20
#: Node Kayles 3 x n up to this is also checked against the core's tabulation of every region shape
#: reachable with a plain mex, no pruning (``src/nimber_search/tests.rs``, in the release lane: 3 x 21
#: to 3 x 24, 4.2 million shapes for 3 x 24); it shares the board's moves and keys with the search.
CHECKED_3XN_TABULATED = 24
#: Node Kayles on grids of 4 to 7 rows, ``rows x cols`` for ``rows <= cols <= last`` by ``{rows: last}``,
#: against a plain mex over every region shape reachable with moves, regions and keys of its own, written
#: in the test cell by cell (``src/nimber_search/tests.rs``, release lane; the test reads this line).
CHECKED_GRIDS_TABULATED = {4: 14, 5: 11, 6: 9, 7: 7}
#: Every Node Kayles and Cram board of at most this many cells is checked the same way.
CHECKED_CELLS = 20


def second_method(game: str, rows: int, cols: int) -> bool:
    """Whether the test suite finds this board's value by a second method too (the ``checked`` column).

    >>> second_method("node_kayles", 3, 12), second_method("node_kayles", 5, 11), second_method("node_kayles", 5, 12)
    (True, True, False)
    >>> second_method("cram", 5, 5)
    False
    """
    r, c = sorted((rows, cols))
    if game == "node_kayles" and c <= {3: CHECKED_3XN_TABULATED, **CHECKED_GRIDS_TABULATED}.get(r, 0):
        return True
    return r * c <= CHECKED_CELLS


class Board(NamedTuple):
    """One board of the atlas: the game (``"node_kayles"`` or ``"cram"``), rows and columns."""

    game: str
    rows: int
    cols: int

    def build(self, memory: int | None = None) -> BoardGame:
        """The game on this board (its search's table of ``memory`` bytes, default the game's)."""
        from ..games.board.rules import cram, node_kayles

        if self.game == "cram":
            return cram(self.rows, self.cols, memory=memory, progress=False)
        return node_kayles(grid=(self.rows, self.cols), memory=memory, progress=False)

    @property
    def spec(self) -> str:
        """The board as the command line writes it: ``nk:3x17``, ``cram:5x9``."""
        return f"{'nk' if self.game == 'node_kayles' else 'cram'}:{self.rows}x{self.cols}"


def _numbers(text: str, spec: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part.strip())
        if m is None:
            raise ArgumentError(f"bad board family {spec!r}: {part!r} is not a number or a range a-b")
        lo, hi = int(m[1]), int(m[2] or m[1])
        if not 1 <= lo <= hi:
            raise ArgumentError(f"bad board family {spec!r}: {part!r} is not a range of sizes from 1 up")
        out.extend(range(lo, hi + 1))
    return out


def parse_boards(specs: str | Iterable[str]) -> list[Board]:
    """The boards of one or more families, written as on the command line, in order, each once.

    A family is ``GAME:ROWSxCOLS`` (``GAME`` is ``nk`` for Node Kayles or ``cram``; ``ROWS`` and
    ``COLS`` are numbers, ranges ``a-b`` or lists of both), ``GAME:sq:SIZES`` for square boards,
    or ``GAME:published`` for the boards of the published tables (A316632; Beling's Cram table).

    Parameters
    ----------
    specs : str or iterable of str
        One family, or several.

    Returns
    -------
    list of Board
        The boards, rows before columns as written (repeated boards once).

    Raises
    ------
    ArgumentError
        For a family not written as above, or a board of more than 128 cells (a ValueError).
    ArgumentTypeError
        If ``specs`` is not a str or an iterable of str (a TypeError).

    Examples
    --------
    >>> [b.spec for b in parse_boards(["nk:3x1-3", "cram:sq:4,6"])]
    ['nk:3x1', 'nk:3x2', 'nk:3x3', 'cram:4x4', 'cram:6x6']
    >>> len(parse_boards("cram:published")), len(parse_boards("nk:published"))
    (30, 16)
    """
    if isinstance(specs, str):
        specs = [specs]
    if not isinstance(specs, Iterable):
        raise ArgumentTypeError(f"board families are strings such as 'nk:3x1-42', not {type(specs).__name__}")
    out: dict[Board, None] = {}
    for spec in specs:
        if not isinstance(spec, str):
            raise ArgumentTypeError(f"a board family is a string such as 'nk:3x1-42', not {type(spec).__name__}")
        name, _, shape = spec.strip().partition(":")
        game = GAMES.get(name.lower())
        if game is None:
            raise ArgumentError(f"bad board family {spec!r}: the game is nk (Node Kayles) or cram, not {name!r}")
        if shape == "published":
            found = [Board(game, r, c) for (g, r, c) in PUBLISHED if g == game]
        elif shape.startswith("sq:"):
            found = [Board(game, n, n) for n in _numbers(shape[3:], spec)]
        else:
            rows, x, cols = shape.partition("x")
            if not x:
                raise ArgumentError(f"bad board family {spec!r}: write GAME:ROWSxCOLS, GAME:sq:SIZES or GAME:published")
            found = [Board(game, r, c) for r in _numbers(rows, spec) for c in _numbers(cols, spec)]
        for b in found:
            if b.rows * b.cols > MAX_CELLS:
                raise ArgumentError(f"board {b.rows} x {b.cols} has {b.rows * b.cols} cells; at most {MAX_CELLS}")
            out[b] = None
    return list(out)


# -- where a row was computed ----------------------------------------------------------------------
def machine() -> str:
    """The machine as a row records it: its cores and CPU model.

    >>> machine().split()[1]
    'cores,'
    """
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    model = " ".join(model.split())
    return f"{os.cpu_count()} cores, {model}"


def commit() -> str:
    """The commit of the grundy that computes: ``git rev-parse`` of its checkout, else the package version.

    A checkout whose code (``python/``, ``src/``) differs from its commit says ``-dirty``.
    """
    from .._core import __version__

    here = Path(__file__).resolve().parent
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"], cwd=here, capture_output=True, text=True, timeout=10
        )
        if head.returncode != 0:
            return f"grundy {__version__}"
        top = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], cwd=here, capture_output=True, text=True, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", "python", "src", "Cargo.toml"],
            cwd=top or here,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return f"grundy {__version__}"
    return head.stdout.strip() + ("-dirty" if dirty else "")


# -- the atlas ---------------------------------------------------------------------------------------
def atlas(
    boards: Iterable[Board],
    budget: float | None = 60.0,
    *,
    store: str | os.PathLike[str] = "atlas.sqlite",
    threads: int | None = 1,
    memory: int | None = None,
    progress: bool | None = None,
    report: Callable[[dict[str, Any]], None] | None = None,
    give_up: int | None = None,
    checkpoints: str | os.PathLike[str] | None = None,
) -> pd.DataFrame:
    """Search each board's value within a time budget, keeping every row in a store.

    Parameters
    ----------
    boards : iterable of Board
        The boards, searched in this order (see :func:`parse_boards`).
    budget : float or None, default 60
        Seconds per board; a board that takes longer is stopped (every thread of its search) and
        stored with status ``"timeout"``. None: no limit.
    store : str or path-like, default "atlas.sqlite"
        The survey store that keeps the rows (created if missing). Boards it holds solved are not
        searched again, nor those that ran out of a budget at least ``budget``.
    threads : int or None, default 1
        The threads of each board's search (None: every core).
    memory : int, optional
        Bytes for each search's table (default: the game's, a quarter of the machine's memory).
    progress : bool or None
        A bar counting the boards: True, False or None (after about a second).
    report : callable, optional
        Called with each row as it is stored (the command line prints it).
    give_up : int, optional
        Skip the rest of a family (the boards of one game and number of rows) after this many of
        its boards in a row ran out of budget (skipped boards get no row). None: never.
    checkpoints : str or path-like, optional
        A folder (created if missing) where each board's search keeps its tables
        (``cram-5x13.ckpt``): written every ten minutes (or twenty times the last write's time,
        when that is longer) and when the budget runs out or Ctrl-C stops
        it, and removed once the board is solved. A board out of budget with a checkpoint there is
        searched again by every call, with this ``budget`` for each sitting, resuming where the last
        stopped; its row counts the nodes and seconds (wall and CPU) of all its sittings. This is how a board
        runs for days. None: no checkpoints (a board out of budget starts over with a larger one).

    Returns
    -------
    pandas.DataFrame
        One row per board asked for that the store holds (the columns of
        :func:`grundy.surveys.results.load_atlas`).
        ``df.attrs``: ``computed`` (boards searched by this call), ``interrupted`` (Ctrl-C),
        ``disagreements`` (the boards asked for whose value differs from the published one, searched
        by this call, which warns, or before).

    Raises
    ------
    ArgumentTypeError, ArgumentError
        For a budget that is not a positive number of seconds, a bad ``threads``, or ``checkpoints``
        that is not a path or names a file.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "a.sqlite")
    >>> df = atlas(parse_boards("cram:4x4-5"), budget=30, store=path, progress=False)
    >>> df[["board", "value", "published", "agrees"]].values.tolist()
    [['4 x 4', 0, 0, True], ['4 x 5', 2, 2, True]]
    """
    budget = _check_timeout(budget)
    k = _check_threads(threads)
    progress = _check_progress(progress)
    todo = list(boards)
    if not all(isinstance(b, Board) for b in todo):
        raise ArgumentTypeError("the atlas takes Board objects: see parse_boards")
    where, at = machine(), commit()
    if not (checkpoints is None or isinstance(checkpoints, (str, os.PathLike))):
        raise ArgumentTypeError(f"checkpoints must be a folder's path, not {type(checkpoints).__name__}")
    folder = None if checkpoints is None else _checkpoint_folder(checkpoints)
    st = Store(store)
    computed, interrupted = 0, False
    out_of_budget: dict[tuple[str, int], int] = {}
    bar = Bar(progress, "atlas", " boards", total=len(todo), scale=False)
    try:
        stored = {r["code"]: r for r in st.rows()}
        for i, b in enumerate(todo):
            if give_up is not None and out_of_budget.get((b.game, b.rows), 0) >= give_up:
                continue
            game = b.build(memory)
            old = stored.get(repr(game))
            ck = None if folder is None else os.path.join(folder, f"{b.game}-{b.rows}x{b.cols}.ckpt")
            resumable = ck is not None and os.path.exists(ck)
            if old is not None and _final(old, 0, budget) and not (resumable and old["status"] == "timeout"):
                timed_out = old["status"] == "timeout"
                out_of_budget[b.game, b.rows] = out_of_budget.get((b.game, b.rows), 0) + 1 if timed_out else 0
                continue
            row, _ = survey_one(("object", game), 0, timeout=budget, checkpoint=ck, threads=k or os.cpu_count() or 1)
            extra = {
                "game": b.game,
                "rows": b.rows,
                "cols": b.cols,
                "nodes": row.get("nodes"),
                "threads": k or os.cpu_count(),
                "machine": where,
                "commit": at,
                "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                "command": _command(b, budget, k, memory),
                "sittings": row.get("sittings", 1),
                "cpu_seconds": row.get("cpu_seconds"),
                "progress": row.get("progress"),
            }
            st.put(row, game._rule(), None, max_n=0, timeout=budget, extra=extra)
            computed += 1
            timed_out = row["status"] == "timeout"
            out_of_budget[b.game, b.rows] = out_of_budget.get((b.game, b.rows), 0) + 1 if timed_out else 0
            out = _row({**row, "timeout": budget, "extra": extra})
            assert out is not None
            if out["agrees"] is False:
                warnings.warn(
                    f"{out['game']} {out['board']}: the search says {out['value']}, the published value is "
                    f"{out['published']} ({out['source']})",
                    stacklevel=2,
                )
            if report is not None:
                report(out)
            bar.update(i + 1)
    except KeyboardInterrupt:
        interrupted = True
        warnings.warn(f"atlas interrupted: {computed} boards searched, their rows stored", stacklevel=2)
    finally:
        bar.close()
        rows = st.rows()
        st.close()
    asked = {(b.game, b.rows, b.cols): i for i, b in enumerate(todo)}
    mine = [r for r in _rows(rows) if (r["game_id"], r["rows"], r["cols"]) in asked]
    mine.sort(key=lambda r: asked[r["game_id"], r["rows"], r["cols"]])
    df = _frame(mine)
    # Every board asked for whose value differs from the published one, searched now or before.
    disagree = df.board[df.agrees.eq(False).fillna(False)].tolist()
    df.attrs.update(computed=computed, interrupted=interrupted, disagreements=disagree)
    return df


def _command(b: Board, budget: float | None, threads: int | None, memory: int | None = None) -> str:
    """The command line that searches ``b`` again as this call did (its table's size too, if given)."""
    budget_text = "none" if budget is None else f"{budget:g}"
    command = f"python -m grundy atlas {b.spec} --budget {budget_text} --threads {threads or 0}"
    if memory is not None:
        units = ((30, "G"), (20, "M"), (10, "K"))
        command += " --memory " + next((f"{memory >> s}{u}" for s, u in units if memory % (1 << s) == 0), str(memory))
    return command


#: The columns of an atlas table, in order.
COLUMNS = [
    "game", "board", "rows", "cols", "cells", "status", "progress", "value", "published", "agrees", "checked",
    "nodes", "seconds", "cpu_seconds", "sittings", "budget", "threads", "machine", "commit", "date", "command",
]  # fmt: skip


def _row(r: dict[str, Any]) -> dict[str, Any] | None:
    """A store's row as a row of the atlas (None for rows of other surveys)."""
    extra = r.get("extra") or {}
    if "game" not in extra:
        return None
    game, rows, cols = extra["game"], extra["rows"], extra["cols"]
    pub = PUBLISHED.get((game, rows, cols)) or PUBLISHED.get((game, cols, rows))
    value = r.get("value")
    return {
        "game": _TITLES[game],
        "game_id": game,
        "board": f"{rows} x {cols}",
        "rows": rows,
        "cols": cols,
        "cells": rows * cols,
        "status": r.get("status"),
        "progress": extra.get("progress"),
        "value": value,
        "published": None if pub is None else pub[0],
        "source": None if pub is None else pub[1],
        "agrees": None if pub is None or value is None else value == pub[0],
        "checked": second_method(game, rows, cols),
        "nodes": extra.get("nodes"),
        "seconds": r.get("seconds"),
        "cpu_seconds": extra.get("cpu_seconds"),
        "sittings": extra.get("sittings", 1),
        "budget": r.get("timeout"),
        "threads": extra.get("threads"),
        "machine": extra.get("machine"),
        "commit": extra.get("commit"),
        "date": extra.get("date"),
        "command": _resumed(extra.get("command"), extra.get("sittings", 1)),
    }


def _resumed(command: str | None, sittings: int) -> str | None:
    """A row's command, with ``--checkpoints`` where the row took several sittings.

    Its budget is the last sitting's: the command is run again, resuming, until the board is solved.
    """
    if command and sittings > 1 and "--checkpoints" not in command:
        return f"{command} --checkpoints atlas-checkpoints"
    return command


def _rows(stored: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The atlas's rows among a store's."""
    return [r for r in map(_row, stored) if r is not None]


def _frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    import pandas as pd

    df = pd.DataFrame(rows, columns=COLUMNS)
    for c in ("rows", "cols", "cells", "value", "published", "nodes", "sittings", "threads"):
        df[c] = df[c].astype("Int64")
    for c in ("seconds", "cpu_seconds", "budget"):
        df[c] = df[c].astype(float)
    for c in ("agrees", "checked"):
        df[c] = df[c].astype("boolean")
    for c in ("game", "board", "status", "progress", "machine", "commit", "date", "command"):
        df[c] = df[c].astype("string")
    return df


def load_store(path: str | os.PathLike[str]) -> pd.DataFrame:
    """The atlas a store holds, one row per board, sorted by game, rows and columns (see :func:`atlas`).

    Raises :class:`grundy.MissingFileError` if there is no such file, :class:`grundy.InvalidFileError`
    if it is not a survey store.
    """
    st = Store(path, read_only=True)
    try:
        rows = _rows(st.rows())
    finally:
        st.close()
    rows.sort(key=lambda r: (r["game"], r["rows"], r["cols"]))
    return _frame(rows)
