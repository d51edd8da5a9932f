"""The atlas's results page: the markdown ``docs/results.md`` written from a store, and read back.

:func:`results_markdown` writes an introduction (what each column means, which values a second
method checks, how to rerun), a summary of each family, then one table per game and number of rows;
:func:`load_atlas` reads a store or such a page as a DataFrame (the notebook ``examples/atlas.ipynb``
plots it).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .atlas import _TITLES, _frame, _rows, load_store

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["INTRO", "load_atlas", "results_markdown"]


def load_atlas(path: str | os.PathLike[str]) -> pd.DataFrame:
    """The atlas a store holds (``.sqlite``, ``.db``) or a results page (``.md``) shows, as a DataFrame.

    Parameters
    ----------
    path : str or path-like
        A store written by :func:`~grundy.surveys.atlas.atlas`, or the markdown :func:`results_markdown` wrote.

    Returns
    -------
    pandas.DataFrame
        One row per board, sorted by game, rows and columns. Columns: game, board, rows, cols,
        cells, status (``"solved"``, ``"timeout"`` or ``"error"``), progress (of a search out of
        time: its last note, the table's fill and the root's options settled), value, published (the
        published value, if any), agrees (with it), checked (the tests find the value by a second
        method too), nodes (searched), seconds, cpu_seconds (the process's CPU time while it
        searched; none for rows from before the field or a sitting without it), sittings (the runs
        of a board resumed from its checkpoint; 1 in a page read back), budget (the seconds allowed a
        sitting), threads, machine, commit, date (UTC), command (that reproduces the row).

    Raises
    ------
    MissingFileError
        If there is no such file (a FileNotFoundError).
    InvalidFileError
        If a store is not a survey store (a ValueError).

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> from grundy.surveys.atlas import atlas, parse_boards
    >>> _ = atlas(parse_boards("nk:3x1-3"), budget=10, store=os.path.join(folder, "a.sqlite"), progress=False)
    >>> page = os.path.join(folder, "results.md")
    >>> results_markdown(os.path.join(folder, "a.sqlite"), page)
    >>> load_atlas(page).value.tolist() == load_atlas(os.path.join(folder, "a.sqlite")).value.tolist() == [2, 1, 1]
    True
    """
    if os.fspath(path).endswith(".md"):
        return _read_markdown(Path(path))
    return load_store(path)


# -- the results page -----------------------------------------------------------------------------
_SHOWN = ["board", "value", "published", "checked", "status", "nodes", "seconds", "cpu_seconds", "sittings",
          "threads", "machine", "commit", "date", "command"]  # fmt: skip


def _cell(c: str, v: Any) -> str:
    import pandas as pd

    if v is None or v is pd.NA or (isinstance(v, float) and v != v):
        return ""
    if c in ("agrees", "checked"):
        return "yes" if v else "no"
    if c in ("seconds", "cpu_seconds"):
        return f"{v:.3g}"
    if c == "command":
        return f"`{v}`"
    return str(v).replace("|", "/")


def results_markdown(store: str | os.PathLike[str], path: str | os.PathLike[str], intro: str | None = None) -> None:
    """Write the atlas a store holds as a markdown page: an introduction, then a table per game and rows.

    Parameters
    ----------
    store : str or path-like
        The atlas's store.
    path : str or path-like
        The page to write (replaced).
    intro : str, optional
        The text above the tables (default: what each column means, and how to rerun).

    Examples
    --------
    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> from grundy.surveys.atlas import atlas, parse_boards
    >>> _ = atlas(parse_boards("cram:3x4"), budget=10, store=os.path.join(folder, "a.sqlite"), progress=False)
    >>> results_markdown(os.path.join(folder, "a.sqlite"), os.path.join(folder, "r.md"))
    >>> "| 3 x 4 | 1 |" in open(os.path.join(folder, "r.md")).read()
    True
    """
    df = load_atlas(store)
    lines = [intro if intro is not None else INTRO, "", *_summary(df), ""]
    for game, rows, part in _families(df):
        lines += [f"## {game}, {rows} x n", ""]
        bad = part[part.agrees.eq(False).fillna(False)]
        if len(bad):
            lines += [f"**Disagrees with the published value: {', '.join(bad.board)}.**", ""]
        lines.append("| " + " | ".join(_SHOWN) + " |")
        lines.append("|" + "|".join("---:" if c in ("value", "published", "nodes", "seconds", "cpu_seconds") else "---"
                                    for c in _SHOWN) + "|")  # fmt: skip
        for _, r in part.iterrows():
            cells = [_cell(c, r[c]) for c in _SHOWN]
            if r["status"] == "timeout":
                cells[_SHOWN.index("value")] = f"> {r['budget']:g} s"
                if isinstance(r["progress"], str) and r["progress"]:  # how far it got
                    cells[_SHOWN.index("status")] = _cell("status", f"timeout: {r['progress']}")
            if r["agrees"] is False:
                cells[_SHOWN.index("value")] = f"**{cells[_SHOWN.index('value')]} (disagrees)**"
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    Path(path).write_text("\n".join(lines), encoding="utf-8")


def _read_markdown(path: Path) -> pd.DataFrame:
    """The rows of the tables of a results page (what :func:`results_markdown` wrote)."""
    from ..exceptions import MissingFileError

    if not path.is_file():
        raise MissingFileError(f"no results page at {path}")
    rows, game, header = [], None, list(_SHOWN)
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.match(r"## (Node Kayles|Cram), (\d+|n) x n", line)
        if m:
            game = {v: k for k, v in _TITLES.items()}[m[1]]
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells[0] == "board":  # each table's own columns: a page of an earlier version has fewer
            header = cells
            continue
        if game is None or not line.startswith("| ") or len(cells) != len(header):
            continue
        d = dict(zip(header, cells, strict=True))
        rows_, cols = (int(x) for x in d["board"].split(" x "))
        m = re.search(r"--budget (\S+)", d["command"])
        budget = None if m is None or m[1] == "none" else float(m[1])
        value = re.match(r"\**(\d+)", d["value"])
        extra = {
            "game": game,
            "rows": rows_,
            "cols": cols,
            "nodes": int(d["nodes"]) if d["nodes"] else None,
            "threads": int(d["threads"]) if d["threads"] else None,
            **{c: d[c] or None for c in ("machine", "commit", "date")},
            "command": d["command"].strip("`") or None,
            "progress": d["status"].partition(":")[2].strip() or None,
            "cpu_seconds": float(d["cpu_seconds"]) if d.get("cpu_seconds") else None,
            "sittings": int(d["sittings"]) if d.get("sittings") else 1,
        }
        rows += _rows([{
            "status": d["status"].split(":")[0].strip(),
            "value": None if value is None else int(value[1]),
            "seconds": float(d["seconds"]) if d["seconds"] else None,
            "timeout": budget,
            "extra": extra,
        }])  # fmt: skip
    once = {(r["game"], r["rows"], r["cols"]): r for r in reversed(rows)}  # a square is in two tables
    return _frame(sorted(once.values(), key=lambda r: (r["game"], r["rows"], r["cols"])))


INTRO = """\
# Results: Node Kayles and Cram on rectangles

The values of Node Kayles on m x n grids and of Cram on m x n rectangles that grundy's board search
(`gr.node_kayles(grid=(m, n)).value()`, `gr.cram(m, n).value()`) found, each within a time budget,
written by `python -m grundy atlas` from its store. A summary of each family, then one table per
game and number of rows, and one of its square boards; the columns:

- **board**: rows x columns; **value**: the Grundy value of the empty board (`> B s` when the
  search ran out of its budget of B seconds: then *nodes* and *seconds* say how far it got);
- **published**: the published value, where there is one (OEIS A316632 for Node Kayles 3 x n,
  n <= 16; Beling's Cram table, beling/impartial-games README, November 2025). A value that
  differs is printed in bold with *(disagrees)*, and the atlas warns when it finds it;
- **checked**: *yes* when the test suite also computes the value by a second method: a plain
  memoised mex over components written in the test, sharing no code with the search
  (`tests/surveys/test_atlas_checks.py`: every board of at most 20 cells, and Node Kayles 3 x n for
  n <= 20, n > 12 in the slow lane); for Node Kayles 3 x 21 to 3 x 24, the core's tabulation of every
  region shape reachable with a plain mex and no pruning (`src/nimber_search/tests.rs`, release lane;
  it shares the board's moves and canonical keys with the search, not its questions or its table);
  for Node Kayles 4 x n (n <= 14), 5 x n (n <= 11), 6 x n (n <= 9) and 7 x 7, the same plain mex
  over a board written in that test cell by cell, with moves, regions (a flood fill) and keys (the
  least image under the square's symmetries) of its own, sharing no code with the search;
  *no*: the value rests on the search alone (and, where there is one, the published value);
- **status**: `solved`, or `timeout` (out of budget, with how far the search got: its table's fill,
  and the root's options settled in the question it asked last, with their values), or `error`;
- **nodes**: nodes the search visited; **seconds**: its wall time; **cpu_seconds**: the CPU time
  of the process while it searched, all its threads (a one-thread search that shared the machine
  or was paused took less than its wall time; blank in rows from before this column). All three over
  every sitting of a board that ran with `--checkpoints` and resumed from its checkpoint;
  **sittings**: how many runs that took (one for a board never resumed); **threads**: the threads
  it had;
- **machine**: cores and CPU model; **commit**: the grundy commit (`-dirty`: with changes to the
  code not committed); **date**: when the row was computed (UTC);
- **command**: the command that computes this row again (into `atlas.sqlite` in the folder it runs
  in; a store that holds the row solved does not search it again). For a row of several sittings
  its budget is the last sitting's, with `--checkpoints`: run it again, each run resuming the last,
  until the board is solved.

A board that ran out of its budget is kept as such, and runs again only with a larger budget: the
same command with `--budget` raised (and the same `--store`) searches only the boards that are not
solved yet, then rewrites this page. With `--checkpoints DIR` a board out of budget keeps its
search's tables in `DIR` and every run of the command resumes it for another budget, so a search
can run for days in sittings:

```bash
python -m grundy atlas nk:3x1-42 nk:4x1-32 nk:5x1-25 nk:6x1-21 nk:7x1-18 nk:sq:1-11 cram:published \\
    cram:4x17 cram:5x13 cram:6x11 cram:7x10 --budget 600 --threads 0 \\
    --store docs/results.sqlite --markdown docs/results.md --checkpoints atlas-checkpoints
```

(`--threads 0`: every core; `--give-up K` skips the rest of a family after K boards in a row out of
budget; `--memory 8G` sizes each search's table. The last four Cram boards are open: no value is
published.)

`grundy.surveys.results.load_atlas("docs/results.md")` (or the store) gives the table as a pandas
DataFrame; `examples/atlas.ipynb` plots it.
"""


def _ranges(ns: list[int]) -> str:
    """``[1, 2, 3, 5]`` as ``1-3, 5``."""
    out: list[str] = []
    for n in sorted(ns):
        if out and int(out[-1].split("-")[-1]) == n - 1:
            out[-1] = f"{out[-1].split('-')[0]}-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


def _families(df: pd.DataFrame) -> list[tuple[str, str, pd.DataFrame]]:
    """The page's families: each game's boards by rows (those with boards of other widths), then its squares."""
    out = []
    for game, boards in df.groupby("game", sort=True):
        for rows, part in boards.groupby("rows", sort=True):
            if (part.cols != rows).any():
                out.append((str(game), str(rows), part.sort_values("cols")))
        squares = boards[boards.rows == boards.cols]
        if len(squares):
            out.append((str(game), "n", squares.sort_values("cols")))
    return out


def _summary(df: pd.DataFrame) -> list[str]:
    """One line per family: what is solved, checked, published, and what rests on the search alone."""
    lines = ["## Summary", ""]
    for game, rows, part in _families(df):
        solved = part[part.status == "solved"]
        out = part[part.status == "timeout"]
        checked = solved[solved.checked.fillna(False)]
        published = solved[solved.published.notna()]
        alone = solved[~solved.checked.fillna(False) & solved.published.isna()]
        text = f"- **{game} {rows} x n**: solved for n = {_ranges(solved.cols.tolist()) or 'none'}"
        if len(out):
            # The seconds searched, over every sitting (a row's budget is its last sitting's).
            stops = zip(out.cols, out.seconds, out.sittings, strict=True)
            text += "; out of budget: " + ", ".join(
                f"n = {c} ({s:,.0f} s{f' in {k} sittings' if k > 1 else ''})" for c, s, k in stops
            )
        text += f". Second method: n = {_ranges(checked.cols.tolist()) or 'none'}"
        if len(published):
            bad = published[~published.agrees.fillna(True)]
            verdict = "all agree" if not len(bad) else "**disagree: " + ", ".join(bad.board) + "**"
            text += f"; published: n = {_ranges(published.cols.tolist())} ({verdict})"
        text += f"; on the search alone: n = {_ranges(alone.cols.tolist()) or 'none'}."
        lines.append(text)
    return lines
