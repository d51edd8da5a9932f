"""Surveys of game families: many games at once, in-process or on a Dask cluster, kept in a store.

A survey computes one row per game (periodicity, sparse space, the range examined). With a store
(:func:`survey` ``store=``) every finished row is written at once, so a killed driver loses only the
games in flight and a rerun computes only what is missing. Workers send back a fingerprint of the
values they examined (hashes of prefixes), never the values, so the driver's memory does not grow
with the range examined; ``same_as`` is decided from the fingerprints.

pandas is imported when a survey runs or a store is read, not on ``import grundy``.

>>> import grundy as gr
>>> df = gr.survey(["0.77", "0.137", "0.7x"], max_n=2**12, progress=False)
>>> df["period"].tolist(), df["status"].tolist()
([12, 34, <NA>], ['proven', 'proven', 'error'])
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import itertools
import math
import os
import re
import time
import warnings
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

from .. import _core
from .._ui.progress import Bar, _check_progress, _check_threads
from .._validate import _short, as_count, as_flag
from ..analysis.periodicity import DEFAULT_MAX_N
from ..exceptions import (
    ArgumentError,
    ArgumentTypeError,
    CodeError,
    MissingFileError,
    TooLargeError,
)
from ..games.heap.game import Game
from ..games.heap.run import MAX_VALUES as _MAX_VALUES
from .fingerprint import _same_as, fingerprint
from .stop import _cancel, _StopSignal, _wait_stopped
from .store import STORED, Store
from .summary import SurveySummary, survey_summary
from .worker import _identify, _prefix_digest, _spec, survey_one

if TYPE_CHECKING:
    import pandas as pd


__all__ = ["expand", "load_survey", "survey", "survey_summary", "SurveySummary"]

#: Refuse patterns that expand to more games than this (8^7 is about two million).
MAX_PATTERN_GAMES = 8**7

#: At most this many games are submitted and not yet finished at any time, so that the driver's
#: memory for futures stays bounded however large the family.
MAX_IN_FLIGHT = 1024


# The table's columns: what the store keeps, with ``same_as`` (found from fingerprints) before ``error``.
COLUMNS = [*STORED[:-1], "same_as", STORED[-1]]
_INT_COLUMNS = ["preperiod", "period", "saltus", "max_value", "mask", "rare_count", "last_rare", "checked_to", "value"]

#: What the ``status`` column says.
STATUSES = {
    "proven": "a theorem proves the period for every heap size",
    "observed": "a period was seen at two sizes, and no theorem covers the rule",
    "max_n": "max_n values were examined without a proof",
    "solved": "a board game's start was searched: its Grundy value is in the value column",
    "timeout": "the per-game timeout passed; checked_to says how far it got",
    "error": "the game could not be computed (a bad code, a search limit, a looping rule); see error",
}


# -- families -----------------------------------------------------------------------------------
def expand(pattern: str, *, hexadecimal: bool = False) -> list[str]:
    """Every code matching ``pattern``, where each ``?`` stands for any octal digit 0-7.

    Parameters
    ----------
    pattern : str
        A code with ``?`` holes, such as ``"0.??"`` or ``"4.???"``.
    hexadecimal : bool, default False
        Let each ``?`` stand for any hexadecimal digit 0-F instead.

    Returns
    -------
    list of str
        The codes, in increasing order of the digits filled in (the last ``?`` fastest).

    Raises
    ------
    ArgumentError
        If the pattern expands to more than ``MAX_PATTERN_GAMES`` codes (a ValueError).
    ArgumentTypeError
        If ``pattern`` is not a str or ``hexadecimal`` not a bool (a TypeError).

    Examples
    --------
    >>> expand("0.?1")[:3]
    ['0.01', '0.11', '0.21']
    >>> len(expand("4.???")), len(expand("0.??", hexadecimal=True))
    (512, 256)
    """
    if not isinstance(pattern, str):
        raise ArgumentTypeError(f"a pattern must be a str like '0.??', not {type(pattern).__name__}")
    hexadecimal = as_flag(hexadecimal, "hexadecimal")
    digits = "0123456789ABCDEF" if hexadecimal else "01234567"
    holes = pattern.count("?")
    if len(digits) ** holes > MAX_PATTERN_GAMES:
        raise ArgumentError(
            f"pattern {_short(pattern)} expands to {len(digits)}^{holes} games; at most {MAX_PATTERN_GAMES} are allowed"
        )
    parts = pattern.split("?")
    out = []
    for filled in itertools.product(digits, repeat=holes):
        out.append("".join(p + d for p, d in zip(parts, filled + ("",), strict=True)))
    return out


# -- games as data --------------------------------------------------------------------------------
def _check_timeout(timeout: Any) -> float | None:
    """None or float("inf") (no limit), or a positive number of seconds."""
    if timeout is None:
        return None
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
        raise ArgumentTypeError(f"timeout must be a number of seconds or None, not {type(timeout).__name__}")
    if math.isnan(timeout):
        raise ArgumentError("timeout must be a number of seconds, not nan (None or inf: no limit)")
    if not timeout > 0:
        raise ArgumentError(f"timeout must be a positive number of seconds, got {timeout} (None or inf: no limit)")
    return None if math.isinf(timeout) else float(timeout)


def _check_max_n(max_n: Any) -> int:
    n = as_count(max_n, "max_n")
    if n > _MAX_VALUES:
        raise TooLargeError(
            f"max_n = {_short(n)}: no machine can store that many values of a game (at most 2**62); "
            "a survey stops each game at its proof or at max_n, so give the most you can afford"
        )
    return n


def _final(stored: dict[str, Any], max_n: int, timeout: float | None) -> bool:
    """Whether a stored row answers a survey with this ``max_n`` and ``timeout`` (so it is not recomputed).

    A store only grows: rows found with a larger max_n or timeout are kept.
    """
    status = stored["status"]
    if status in ("proven", "observed", "error", "solved"):
        return True
    if status == "max_n":
        return bool(stored["max_n"] >= max_n)
    # A timeout row is final unless this call allows the game more time.
    return timeout is not None and stored["timeout"] is not None and bool(stored["timeout"] >= timeout)


def _checkpoint_folder(path: str | os.PathLike[str]) -> str:
    """The folder of a survey's (or the atlas's) checkpoints, created if missing.

    ArgumentError when ``path`` is something else than a folder (a file).
    """
    folder = os.fspath(path)
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise ArgumentError(f"checkpoints must be a folder, and {folder!r} is a file")
    os.makedirs(folder, exist_ok=True)
    return folder


def _checkpoint_name(code: str) -> str:
    """A file name for a game's checkpoint.

    The code with unsafe characters replaced, and a short hash so that distinct codes never share a file.
    """
    safe = re.sub(r"[^0-9A-Za-z.]", "_", code)[:80]
    return f"{safe}-{hashlib.blake2b(code.encode(), digest_size=4).hexdigest()}.npz"


def _frame(rows: list[dict[str, Any]], columns: list[str]) -> pd.DataFrame:
    import pandas as pd

    df = pd.DataFrame(rows, columns=columns)
    for c in _INT_COLUMNS:
        df[c] = df[c].astype("Int64")
    df["proven"] = df["proven"].astype("boolean")
    df["seconds"] = df["seconds"].astype(float)
    for c in ("code", "status", "same_as", "error"):  # the same dtype under pandas 2 and 3
        df[c] = df[c].astype("string")
    return df


class _Finished:
    """The survey's futures as they finish, whatever the executor.

    Dask futures go through one ``distributed.as_completed``: calling ``distributed.wait`` with a
    timeout in a loop leaves a task per pending future behind at each call, so the driver's memory
    grew with the survey's duration (about 150 kB per call with 64 futures in flight).
    """

    def __init__(self) -> None:
        self._dask: Any = None

    def add(self, future: Any) -> None:
        if type(future).__module__.startswith("distributed"):
            if self._dask is None:
                from distributed import as_completed

                self._dask = as_completed()  # type: ignore[no-untyped-call]
            self._dask.add(future)

    def ready(self, inflight: dict[Any, Any]) -> list[Any]:
        """The finished futures among ``inflight`` (waiting a little for one)."""
        if all(isinstance(f, concurrent.futures.Future) for f in inflight):
            finished, _ = concurrent.futures.wait(
                list(inflight), timeout=0.1, return_when=concurrent.futures.FIRST_COMPLETED
            )
            return list(finished)
        if self._dask is not None:
            done = [f for f in self._dask.next_batch(block=False) if f in inflight]
        else:
            done = [f for f in inflight if f.done()]  # any other kind of future
        if not done:
            time.sleep(0.02)
        return done

    def close(self) -> None:
        if self._dask is not None:
            self._dask.clear()


def survey(
    codes: str | Iterable[Any],
    max_n: int = DEFAULT_MAX_N,
    executor: Any = None,
    threads: int | None = None,
    progress: bool | None = None,
    *,
    store: str | os.PathLike[str] | None = None,
    timeout: float | None = None,
    hexadecimal: bool = False,
    checkpoints: bool | str | os.PathLike[str] | None = None,
) -> pd.DataFrame:
    """Periodicity and sparse space of many games: one row per game, in the order given.

    Parameters
    ----------
    codes : str or iterable
        A list of codes or games, or a pattern such as ``"0.??"`` (each ``?`` any octal digit; any
        hexadecimal digit with ``hexadecimal=True``). Board games (``[gr.cram(r, c) for ...]``)
        get a row each too: status ``"solved"`` and the start's Grundy ``value``, searched on one
        thread each (``max_n`` does not apply; ``timeout`` does).
    max_n : int, optional
        The most values examined per game (default ``DEFAULT_MAX_N``, 2**16).
    executor : optional
        Where the games run: a Dask ``distributed.Client`` or any ``concurrent.futures.Executor``
        (give a ``ProcessPoolExecutor`` the "spawn" or "forkserver" context: a process forked from
        one that has computed already inherits the core's thread pool without its threads). By
        default, ``threads`` threads of this process (default: one per core). The table is the
        same either way. Dask retries the games of a worker that dies, so the survey completes.
    threads : int, optional
        Games computed at once in-process (default: one per core; never more threads than games).
    progress : bool or None
        True: a progress bar; False: none; None: one after about a second.
    store : str or path-like, optional
        A SQLite file (created if missing) that receives each finished row as it arrives, in its
        own transaction: a killed driver loses only the games in flight. A rerun reads the store
        and computes only the games missing from it, and those unproven at a smaller ``max_n``
        (or stopped by a shorter ``timeout``), which resume from their checkpoints.
        :func:`load_survey` reads a store.
    timeout : float, optional
        Seconds per game; a game that takes longer gets a row with status ``"timeout"`` and the
        survey goes on. None or ``float("inf")``: no limit.
    hexadecimal : bool, default False
        Expand a pattern's ``?`` over the hexadecimal digits 0-F.
    checkpoints : bool, str or path-like, optional
        A folder for the values of unproven games, so that a rerun with a larger ``max_n`` resumes
        them (saved every 30 s while a game runs, and when it stops; removed once a period is
        proven). Default: ``<store>.checkpoints`` beside the store, none without a store; False:
        none. On a cluster the folder must be one the workers can write (a shared file system).

    Returns
    -------
    pandas.DataFrame
        Columns: code, status (see ``STATUSES``), preperiod, period, saltus, proven, max_value,
        mask, rare_count, last_rare, checked_to (values examined), value (a board game's), seconds,
        same_as, error.
        ``df.attrs``: ``interrupted``, ``max_n``, ``computed`` (games computed by this call).

    Raises
    ------
    ArgumentTypeError
        When ``codes`` is neither a pattern nor an iterable, a game is neither a code nor a game, a
        game given by a Python callable is to run on an ``executor`` or go to a ``store``, or
        ``max_n``, ``executor``, ``threads``, ``progress``, ``timeout``, ``hexadecimal``, ``store`` or
        ``checkpoints`` has the wrong type (a TypeError).
    ArgumentError
        When ``max_n`` is negative, ``threads`` is not positive, ``timeout`` is not a positive
        number, a pattern expands to more than ``MAX_PATTERN_GAMES`` codes, or ``checkpoints`` is
        True (a ValueError); before any game runs.
    TooLargeError
        When ``max_n`` is above 2**62: no machine stores that many values (a ValueError and an
        OverflowError).
    CodeError
        When ``codes`` is a pattern that matches no valid code (in a list, a code that does not
        parse gets a row with its error instead).
    MissingFileError
        When the folder of ``store`` does not exist (a FileNotFoundError).
    InvalidFileError
        When ``store`` is a file that is not a survey store (a ValueError); the file is left as
        it was.
    FilePermissionError
        When ``store`` cannot be written (a PermissionError).

    See Also
    --------
    survey_summary : The classes of equal games, and the unproven ones.
    load_survey : The table a store holds.

    Notes
    -----
    ``same_as`` names the first earlier game of the table whose values agree with this one's over
    the range both examined (the smaller ``checked_to``). Workers send back digests of prefixes of
    the values (``fingerprint``), never the values; two games are reported equal when the
    256-bit BLAKE2b digests of their whole common range agree (computed for that range, not
    sampled). "Exactly" means exactly up to a hash collision: for values that differ, the chance that
    the digests agree is about 2**-256 per pair, far below that of a hardware error in a
    direct comparison. Games that errored or timed out have no ``same_as``.

    Ctrl-C returns the rows finished so far (``df.attrs["interrupted"]`` is True); with a store,
    they are in it. No game of the survey goes on after it returns: games that run see the survey's
    stop signal within about 50 ms, in this process or in worker processes on this machine (and
    write their checkpoints, so that a rerun resumes them); the others are cancelled, Dask futures
    included. A game that fails with an error of the package (:class:`grundy.GrundyError`: a bad
    code, a search limit, a looping rule) or of its rule (``GAME_ERRORS``: ValueError,
    ArithmeticError, MemoryError, RecursionError) gets a row with its ``error`` and the survey goes
    on; any other exception (a bug) propagates, after the survey's other games are stopped.

    Examples
    --------
    >>> import grundy as gr
    >>> df = gr.survey("0.?7", max_n=2**10, progress=False)
    >>> int(df.loc[df.code == "0.77", "period"].item())
    12
    >>> df = gr.survey("0.2?", max_n=2**10, progress=False)
    >>> df.loc[df.code == "0.23", "same_as"].item()  # 0.22 and 0.23 have the same values
    '0.22'
    """
    max_n = _check_max_n(max_n)
    timeout = _check_timeout(timeout)
    threads = _check_threads(threads)
    progress = _check_progress(progress)
    hexadecimal = as_flag(hexadecimal, "hexadecimal")
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise ArgumentTypeError(
            "executor must be a Dask distributed.Client or a concurrent.futures.Executor (None: in-process), "
            f"not {type(executor).__name__}"
        )
    if not (checkpoints is None or isinstance(checkpoints, (bool, str, os.PathLike))):
        raise ArgumentTypeError(f"checkpoints must be a folder, True, False or None, not {type(checkpoints).__name__}")
    if isinstance(codes, str):
        items: list[Any] = expand(codes, hexadecimal=hexadecimal)
        _check_pattern(codes, items)
    elif isinstance(codes, Iterable):
        items = list(codes)
    else:
        raise ArgumentTypeError(
            f"codes must be a pattern such as '0.??' or a list of codes and games, not {type(codes).__name__}"
        )
    specs = [_spec(c) for c in items]
    if executor is not None and any(s[0] == "object" for s in specs):
        raise ArgumentTypeError("games given by Python callables can only be surveyed in-process (executor=None)")

    # Identify every game (validating codes) before anything is submitted; each distinct game runs once.
    labels: list[str] = []
    work: dict[str, tuple[tuple[Any, ...], dict[str, Any] | None]] = {}
    results: dict[str, tuple[dict[str, Any], list[list[Any]] | None]] = {}
    for s in specs:
        label, rule, error = _identify(s)
        labels.append(label)
        if error is not None:
            results[label] = ({"code": label, "status": "error", "error": error, "seconds": 0.0}, None)
        elif label not in work:
            work[label] = (s, rule)

    st: Store | None = None
    ck: str | None = None
    if store is not None:

        if any(rule is None for _, rule in work.values()):
            raise ArgumentTypeError("games given by Python callables cannot be stored: their rules cannot be rebuilt")
        st = Store(store)
        st.set_order(list(dict.fromkeys(labels)))
        for r in st.rows(list(work)):
            if _final(r, max_n, timeout):
                results[r["code"]] = ({c: r[c] for c in r if c in COLUMNS}, r["fingerprint"])
        if checkpoints is None:
            checkpoints = st.path + ".checkpoints"
    if checkpoints is not None and checkpoints is not False:
        if checkpoints is True:
            raise ArgumentError("checkpoints=True needs a folder: give a path, or a store (the folder goes beside it)")
        ck = _checkpoint_folder(checkpoints)
    todo = [(label, s, rule) for label, (s, rule) in work.items() if label not in results]

    own = executor is None
    if own:
        executor = concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(threads or os.cpu_count() or 1,
                                                                                 len(todo))))
    bar = Bar(progress, "survey", " games", total=len(todo), scale=False)
    interrupted = False
    computed = 0
    pending = iter(todo)
    inflight: dict[Any, tuple[str, dict[str, Any] | None]] = {}
    finished = _Finished()
    stop = _StopSignal()

    def submit_more() -> None:
        for label, s, rule in itertools.islice(pending, MAX_IN_FLIGHT - len(inflight)):
            path = None if ck is None or rule is None else os.path.join(ck, _checkpoint_name(label))
            f = executor.submit(survey_one, s, max_n, timeout, path, stop)
            inflight[f] = (label, rule)
            finished.add(f)

    def digest(asked: list[tuple[int, int]]) -> list[str]:
        tasks = [(work[labels[i]][0], c) for i, c in asked]
        if interrupted:  # the executor may be gone: compute the few digests here
            return [_prefix_digest(s, c) for s, c in tasks]
        return [f.result() for f in [executor.submit(_prefix_digest, s, c) for s, c in tasks]]

    try:
        try:
            submit_more()
            while inflight:
                stop_now = False
                for f in finished.ready(inflight):
                    label, rule = inflight.pop(f)
                    if isinstance(f.exception(), KeyboardInterrupt):  # Ctrl-C seen by a worker
                        stop_now = True
                        continue
                    row, fp = f.result()  # any other exception of a worker propagates
                    results[label] = (row, fp)
                    computed += 1
                    if st is not None:
                        st.put(row, rule, fp, max_n=max_n, timeout=timeout)
                    bar.update(computed)
                if stop_now:
                    raise KeyboardInterrupt
                submit_more()
        except KeyboardInterrupt:
            interrupted = True
            warnings.warn(f"survey interrupted: {len(results)} of {len(work)} games finished", stacklevel=2)
        finally:
            bar.close()
            if inflight:
                # However the loop ended, no game of this survey goes on: the games that run see
                # the stop signal (within about 50 ms), the others are cancelled.
                stop.stop()
                _cancel(list(inflight))
                if own:
                    executor.shutdown(wait=True, cancel_futures=True)
                else:
                    _wait_stopped(list(inflight))
            finished.close()
        shown = [i for i, label in enumerate(labels) if label in results]
        rows = [dict(results[labels[i]][0]) for i in shown]
        same = _same_as(
            [labels[i] for i in shown],
            [results[labels[i]][1] for i in shown],
            lambda asked: digest([(shown[k], c) for k, c in asked]),
        )
    finally:
        stop.stop()
        if own:
            executor.shutdown(wait=False, cancel_futures=True)
        if st is not None:
            st.close()
    for r, same_as in zip(rows, same, strict=True):
        r["same_as"] = same_as
    df = _frame(rows, COLUMNS)
    df.attrs.update(interrupted=interrupted, max_n=max_n, computed=computed)
    return df


def _check_pattern(pattern: str, codes: list[str]) -> None:
    """CodeError unless some code of ``pattern`` parses: a pattern is one argument, not a list of games.

    Stops at the first code that parses (the first, for any usable pattern).
    """
    first: CodeError | None = None
    for code in codes:
        try:
            _core.parse_code(code)
            return
        except CodeError as e:
            first = first or e
    assert first is not None  # a pattern expands to at least one code
    if codes == [pattern]:  # no holes: the code's own error
        raise first
    raise CodeError(
        f"the pattern {_short(pattern)} matches no valid code; the first, {_short(codes[0])}: {first}",
        code=pattern,
        position=first.position,
    )


def load_survey(path: str | os.PathLike[str]) -> pd.DataFrame:
    """A survey store (:func:`survey` ``store=``) as a DataFrame: one row per game it holds.

    Games appear in the order of the last survey that used the store, then any others (codes that
    do not parse are not stored). Besides the
    columns of :func:`survey` (``same_as`` recomputed from the stored fingerprints over this
    order), it has ``max_n`` and ``timeout`` (what the game ran under) and ``computed`` (how many
    times a survey computed the game: 1 unless it was resumed with a larger ``max_n`` or timeout).

    Parameters
    ----------
    path : str or path-like
        The store.

    Returns
    -------
    pandas.DataFrame
        One row per game, with the columns of :func:`survey` and ``max_n``, ``timeout``,
        ``computed``.

    Raises
    ------
    ArgumentTypeError
        If ``path`` is not a file path (a TypeError).
    MissingFileError
        If there is no such file (a FileNotFoundError).
    InvalidFileError
        If the file is not a survey store, or one of another version (a ValueError). The file is
        left as it was.
    FilePermissionError
        If SQLite cannot read the file (a PermissionError).

    Notes
    -----
    Loading never writes: the file is opened read-only (and, unless a survey is writing it or was
    killed while writing, immutable, with no ``-wal`` or ``-shm`` file made beside it), so a store
    that is read-only, another user's, or on a read-only mount loads as it is. A store written by an
    older grundy without some columns loads with those columns missing.

    Examples
    --------
    >>> import grundy as gr, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "s.sqlite")
    >>> _ = gr.survey(["0.77", "0.137"], max_n=2**10, store=path, progress=False)
    >>> df = gr.load_survey(path)
    >>> df.code.tolist(), df.period.tolist(), df.computed.tolist()
    (['0.77', '0.137'], [12, 34], [1, 1])
    """
    if not isinstance(path, (str, os.PathLike)):
        raise ArgumentTypeError(f"path must be a file path, not {type(path).__name__}")
    if not os.path.isfile(path):
        raise MissingFileError(f"no survey store at {os.fspath(path)}")
    from ..io import game_from_rule

    st = Store(path, read_only=True)
    try:
        rows = st.rows()
        rank = {c: i for i, c in enumerate(st.order())}
    finally:
        st.close()
    rows.sort(key=lambda r: rank.get(r["code"], len(rank)))  # stable: the rest keep the store's order

    def digest(asked: list[tuple[int, int]]) -> list[str]:
        out = []
        for i, c in asked:
            game = cast(Game, game_from_rule(rows[i]["rule"]))
            out.append(fingerprint(game.values(c, progress=False), [c])[0][1])
        return out

    same = _same_as([r["code"] for r in rows], [r["fingerprint"] for r in rows], digest)
    for r, s in zip(rows, same, strict=True):
        r["same_as"] = s
    return _frame(rows, COLUMNS + ["max_n", "timeout", "computed"])

