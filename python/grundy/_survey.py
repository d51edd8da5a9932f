"""Surveys of game families: many games at once, in parallel in-process or on a Dask cluster.

>>> import grundy as gr
>>> df = gr.survey(["0.77", "0.137", "0.7x"], max_n=2**12, progress=False)
>>> df["period"].tolist()
[12, 34, <NA>]
"""

from __future__ import annotations

import concurrent.futures
import itertools
import os
import time
import warnings
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from ._validate import as_count
from .games import Game, Subtraction, TakeAndBreak
from .periodicity import DEFAULT_MAX_N

#: Refuse patterns that expand to more games than this (8^7 is about two million).
MAX_PATTERN_GAMES = 8**7

COLUMNS = [
    "code",
    "preperiod",
    "period",
    "saltus",
    "proven",
    "max_value",
    "mask",
    "rare_count",
    "last_rare",
    "checked_to",
    "seconds",
    "same_as",
    "error",
]
_INT_COLUMNS = ["preperiod", "period", "saltus", "max_value", "mask", "rare_count", "last_rare", "checked_to"]


def expand(pattern: str) -> list[str]:
    """Every code matching ``pattern``, where each ``?`` stands for any octal digit 0-7.

    >>> expand("0.?1")[:3]
    ['0.01', '0.11', '0.21']
    >>> len(expand("4.???"))
    512
    """
    if not isinstance(pattern, str):
        raise TypeError(f"a pattern must be a str like '0.??', not {type(pattern).__name__}")
    holes = pattern.count("?")
    if 8**holes > MAX_PATTERN_GAMES:
        raise ValueError(f"pattern {pattern!r} expands to 8^{holes} games; at most {MAX_PATTERN_GAMES} are allowed")
    parts = pattern.split("?")
    out = []
    for digits in itertools.product("01234567", repeat=holes):
        out.append("".join(p + d for p, d in zip(parts, digits + ("",), strict=True)))
    return out


def _spec(rule: Any) -> tuple:
    """A picklable description of a rule: codes and built-in rules travel to workers as data."""
    if isinstance(rule, str):
        return ("code", rule)
    if isinstance(rule, TakeAndBreak):
        return ("code", rule.code)
    if isinstance(rule, Subtraction) and rule.kind != "allowed":
        return ("subtraction", rule.kind, rule.members)
    if isinstance(rule, Game):
        return ("object", rule)
    raise TypeError(f"a survey takes codes or games, not {type(rule).__name__} ({rule!r})")


def _build(spec: tuple) -> Game:
    if spec[0] == "code":
        return TakeAndBreak(spec[1])
    if spec[0] == "subtraction":
        kind, members = spec[1], spec[2]
        return Subtraction(members) if kind == "finite" else Subtraction._make(kind, members)
    return spec[1]


def _label(spec: tuple) -> str:
    return spec[1] if spec[0] == "code" else str(spec[-1] if spec[0] == "object" else _build(spec))


def survey_one(spec: tuple, max_n: int) -> tuple[dict, np.ndarray | None]:
    """One row of a survey and the values it examined (run in a worker)."""
    t0 = time.perf_counter()
    row: dict[str, Any] = {"code": _label(spec)}
    values = None
    try:
        game = _build(spec)
        row["code"] = str(game)
        # No per-game bars: the survey shows one bar of its own.
        p = game.periodicity(max_n=max_n, progress=False)
        n = p.checked_to
        values = game.values(n, progress=False)
        row.update(
            preperiod=p.preperiod,
            period=p.period,
            saltus=p.saltus if p.period is not None else None,
            proven=p.proven,
            max_value=int(values.max()) if n else 0,
            checked_to=n,
        )
        try:
            s = game.sparse_space(n, progress=False)
            row.update(mask=s.mask, rare_count=s.rare_count, last_rare=s.last_rare)
        except ValueError:
            pass  # values too large for a sparse-space analysis: leave the columns empty
    except Exception as e:  # one bad game gets an error row; the survey goes on
        row["error"] = f"{type(e).__name__}: {e}"
        values = None
    row["seconds"] = time.perf_counter() - t0
    return row, values


def _same_as(rows: list[dict], values: list[np.ndarray | None]) -> list[str | None]:
    """For each game, the first earlier game whose values agree over the range both examined."""
    out: list[str | None] = []
    seen: list[int] = []
    for i, v in enumerate(values):
        match = None
        if v is not None:
            for j in seen:
                w = values[j]
                assert w is not None
                c = min(len(v), len(w))
                if c and np.array_equal(v[:c], w[:c]):
                    match = rows[j]["code"]
                    break
            seen.append(i)
        out.append(match)
    return out


def survey(
    codes: str | Iterable[Any],
    max_n: int = DEFAULT_MAX_N,
    executor: Any = None,
    threads: int | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Periodicity and sparse space of many games: one row per game, in the order given.

    ``codes`` is a list of codes or games, or a pattern such as ``"0.??"`` (each ``?`` any octal
    digit). Games run in parallel in-process (``threads`` workers, default every core), or on
    ``executor``: a Dask ``distributed.Client`` or any ``concurrent.futures.Executor``; the table
    is the same either way (give a ``ProcessPoolExecutor`` the "spawn" or "forkserver" context: a
    process forked from one that has computed already inherits the core's thread pool without its
    threads). A game that fails (a bad code) gets a row with its ``error``. Ctrl-C
    returns the rows finished so far (``df.attrs["interrupted"]`` is True).

    Columns: code, preperiod, period, saltus, proven, max_value, mask, rare_count, last_rare,
    checked_to, seconds, same_as (the first game of the survey with identical values over the
    range both examined), error.

    >>> import grundy as gr
    >>> df = gr.survey("0.?7", max_n=2**10, progress=False)
    >>> int(df.loc[df.code == "0.77", "period"].item())
    12
    """
    specs = [_spec(c) for c in (expand(codes) if isinstance(codes, str) else codes)]
    max_n = as_count(max_n, "max_n")
    if executor is not None and any(s[0] == "object" for s in specs):
        raise TypeError("games given by Python callables can only be surveyed in-process (executor=None)")
    own = executor is None
    if own:
        executor = concurrent.futures.ThreadPoolExecutor(max_workers=threads or os.cpu_count() or 1)
    results: dict[int, tuple[dict, np.ndarray | None]] = {}
    interrupted = False
    try:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(specs), desc="survey", unit="game", disable=progress is False, delay=0 if progress else 1)
    except ImportError:  # pragma: no cover - tqdm is a dependency, but a survey must not need it
        bar = None
    futures = {executor.submit(survey_one, s, max_n): i for i, s in enumerate(specs)}
    try:
        pending = set(futures)
        while pending:
            done = sorted((f for f in pending if f.done()), key=futures.__getitem__)
            stop = False
            for f in done:
                pending.discard(f)
                if isinstance(f.exception(), KeyboardInterrupt):  # Ctrl-C seen by a worker
                    stop = True
                    continue
                results[futures[f]] = f.result()
                if bar is not None:
                    bar.update(1)
            if stop:
                raise KeyboardInterrupt
            if pending and not done:
                time.sleep(0.02)
    except KeyboardInterrupt:
        interrupted = True
        for f in futures:
            f.cancel()
        warnings.warn(f"survey interrupted: {len(results)} of {len(specs)} games finished", stacklevel=2)
    finally:
        if bar is not None:
            bar.close()
        if own:
            executor.shutdown(wait=not interrupted, cancel_futures=True)
    order = sorted(results)
    rows = [results[i][0] for i in order]
    same = _same_as(rows, [results[i][1] for i in order])
    for r, s in zip(rows, same, strict=True):
        r["same_as"] = s
    df = pd.DataFrame(rows, columns=COLUMNS)
    for c in _INT_COLUMNS:
        df[c] = df[c].astype("Int64")
    df["proven"] = df["proven"].astype("boolean")
    df.attrs["interrupted"] = interrupted
    df.attrs["max_n"] = max_n
    return df


