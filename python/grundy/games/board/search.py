"""Running a board game's search: the progress bar with its notes, and checkpoints to stop and resume.

:func:`run` calls one of the core's searches (``value``, ``is_zero``, ``winning``) with the one
progress bar (:class:`~grundy._ui.progress.Bar`), counting nodes (tqdm shows their rate), its note
the table's fill and what the search has settled of the root's options in the question it asks
now. With a ``checkpoint`` path it first resumes from the file when there is one, writes the
search's tables to it every ``checkpoint_every`` seconds while it runs and when Ctrl-C stops it,
and last with the answer. A write holds up the thread that makes it (an 8 GiB table took about 80 s
on a cloud machine's disk), so the interval stretches to :data:`WRITE_SHARE` times the last write's
time when that is longer: writing then takes at most about a twentieth of a long search.

A checkpoint is the core's table file (``nimber_search::checkpoint``: magic, format version, the
record below, the entries streamed in blocks, a CRC-32 of it all), whose record is UTF-8 JSON:
``{"format": "grundy.board_search", "format_version": 1, "package_version": ..., "rule": {...}
(the game, as :func:`grundy.save` writes it), "game": "cram(5, 9)", "position": "0x1ff...",
"nodes": ..., "seconds": ..., "cpu_seconds": ..., "sittings": ..., "result": null or {"value": 3} or {"outcome": "N"} or
{"winning": ["0x...", ...], "target": 0}, "created": ...}``.
It is written as :func:`grundy.save` writes (a temporary file in the same folder, fsynced, renamed
over the old one: a kill during the write leaves the previous checkpoint whole), entry by entry from
the table (no copy of it in memory). A file that is not a whole checkpoint, is corrupted, or holds
another game's or position's search raises :class:`~grundy.InvalidFileError` and is left as it is.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from ... import _core
from ..._ui.display import byte_count
from ..._ui.progress import _check_threads
from ..._validate import _short
from ...exceptions import ArgumentError, ArgumentTypeError, InvalidFileError
from ...io import checkpoint as _files

#: A :class:`~grundy.BoardGame` (not imported: the game imports this module).
BoardGame = Any

FORMAT_NAME = "grundy.board_search"
FORMAT_VERSION = 1
#: Seconds between two checkpoints by default.
CHECKPOINT_EVERY = 600.0
#: The least interval between two checkpoints, in times the last write took.
WRITE_SHARE = 20.0

#: What makes the bar of the board searches run in this context, in place of the game's own (None:
#: the game's). A survey's worker puts its watch here (its deadline and stop signal, never drawn), so
#: the caller's game object is never patched and other threads are not affected.
BAR: ContextVar[Callable[[], Any] | None] = ContextVar("grundy_board_bar", default=None)


def run(
    game: BoardGame,
    method: str,
    *args: Any,
    threads: Any = None,
    checkpoint: Any = None,
    every: Any = CHECKPOINT_EVERY,
) -> Any:
    """``game._core.<method>(*args, progress, threads)`` with the bar, and the checkpoint when given."""
    k = _check_threads(threads)
    watch = game._core.watch()
    make = BAR.get()  # a survey's watch, in its worker
    bar = game._bar() if make is None else make()
    ck = None if checkpoint is None else Checkpoint(game, method, args, checkpoint, every)
    if ck is not None:
        done = ck.resume()
        if done is not None:
            return done

    stopped = False  # the caller stopped the search from the progress function (a survey's deadline)

    def progress(done: int, total: int) -> None:
        nonlocal stopped
        if getattr(bar, "mode", None) is not False:
            try:
                bar.update(done, note=note(watch))
            except BaseException:
                stopped = True
                raise
        if ck is not None:
            ck.tick(watch, done)

    try:
        result = getattr(game._core, method)(*args, progress, k)
    except BaseException as e:
        # Stopped by Ctrl-C or by its caller, the search has stopped every thread: its tables are
        # whole, and the checkpoint lets the same call resume. (Not after an error of the search.)
        if ck is not None and (stopped or isinstance(e, KeyboardInterrupt)):
            ck.write(watch, int(game._core.stats()["nodes"]))
        raise
    finally:
        bar.close()
    if ck is not None:
        ck.write(watch, int(game._core.stats()["nodes"]), result)
    return result


def note(watch: Any) -> str:
    """The bar's note: the table's fill, and the root's options settled in the question under way."""
    entries, capacity, nbytes = watch.table()
    used = nbytes * entries // max(capacity, 1)
    s = f"table {entries / max(capacity, 1):.0%} full ({entries:,} entries, {byte_count(used)})"
    r = watch.root()
    if r is None or not r["options"]:
        return s
    asked = r["asked"]
    asked_s = str(asked.bit_length() - 1) if asked & (asked - 1) == 0 else f"one of {_bits(asked)}"
    worth = " ".join(f"{v}:{c}" for v, c in enumerate(r["values"]) if c)
    if r["outside"]:
        worth += f"{', ' if worth else ''}{r['outside']} others"
    s += f"; root: is G {asked_s}? {r['settled']}/{r['options']} options settled"
    return s + (f" (values {worth})" if worth else "")


def _bits(m: int) -> str:
    vals = [i for i in range(m.bit_length()) if m >> i & 1]
    return "{" + ", ".join(map(str, vals[:6])) + (", ..." if len(vals) > 6 else "") + "}"


class Checkpoint:
    """The checkpoint of one search: where, how often, and what it records (see the module's notes)."""

    def __init__(self, game: BoardGame, method: str, args: tuple[Any, ...], path: Any, every: Any) -> None:
        self.path = _files._check_path(path)
        if isinstance(every, bool) or not isinstance(every, (int, float)):
            raise ArgumentTypeError(f"checkpoint_every must be a number of seconds, not {_short(every)}")
        if not every > 0:
            raise ArgumentError(f"checkpoint_every must be positive, not {every!r}")
        _files.check_writable(self.path)
        self.game, self.method, self.every = game, method, float(every)
        self.interval = self.every  # stretched by slow writes (``WRITE_SHARE``)
        self.position = int(args[0])
        self.target = int(args[1]) if method == "winning" else None  # the value the options must have
        self.started = self.last = time.monotonic()
        self.nodes = 0  # nodes of the runs before this one
        self.seconds = 0.0
        # The process's CPU time (all its threads): a sitting paused or starved of cores still
        # says what the search cost; None when a resumed file predates the field.
        self.cpu_started = time.process_time()
        self.cpu: float | None = 0.0
        self.sittings = 1  # the runs so far, this one included

    def _record(self, nodes: int, result: Any) -> bytes:
        if result is not None:
            if self.method == "value":
                result = {"value": int(result)}
            elif self.method == "winning":
                result = {"winning": [hex(int(o)) for o in result], "target": self.target}
            else:
                result = {"outcome": "P" if result else "N"}
        meta = {
            "format": FORMAT_NAME,
            "format_version": FORMAT_VERSION,
            "package_version": _core.__version__,
            "rule": self.game._rule(),
            "game": repr(self.game),
            "position": hex(self.position),
            "nodes": self.nodes + nodes,
            "seconds": round(self.seconds + time.monotonic() - self.started, 3),
            "cpu_seconds": None if self.cpu is None else round(self.cpu + time.process_time() - self.cpu_started, 3),
            "sittings": self.sittings,
            "result": result,
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        return json.dumps(meta, sort_keys=True).encode()

    def tick(self, watch: Any, nodes: int) -> None:
        """From the progress function: a checkpoint when the interval has passed since the last."""
        if time.monotonic() - self.last >= self.interval:
            self.write(watch, nodes)

    def write(self, watch: Any, nodes: int, result: Any = None) -> None:
        """The tables (and the answer, when there is one) to the file, atomically."""
        meta = self._record(nodes, result)
        start = time.monotonic()
        _files._write_atomic(self.path, lambda f: watch.write(f, meta))
        self.last = time.monotonic()
        self.interval = max(self.every, WRITE_SHARE * (self.last - start))

    def resume(self) -> Any:
        """The tables from the file when there is one; its answer when it has the one asked, else None."""
        if not os.path.exists(self.path):
            return None
        with _files._open(self.path) as f:
            header, meta = _read(self.path, f)
            self._check(meta)
            done = _answer(meta.get("result"), self.method, self.target)
            if done is not None:
                return done
            try:
                self.game._core.load_checkpoint(f, header)
            except ValueError as e:
                raise _files._bad(self.path, f"{e}") from None
        self.nodes = int(meta.get("nodes", 0))
        self.seconds = float(meta.get("seconds", 0.0))
        cpu = meta.get("cpu_seconds")  # a file without it predates the field: the total is unknown
        self.cpu = None if cpu is None else float(cpu)
        self.sittings = int(meta.get("sittings", 1)) + 1
        return None

    def _check(self, meta: dict[str, Any]) -> None:
        """The record (of this format, :func:`_read`) is of this game and this position."""
        if meta.get("rule") != self.game._rule():
            raise InvalidFileError(
                f"the checkpoint {self.path} holds a search of {meta.get('game')}, not of {self.game!r}: "
                "give another path, or delete the file to start over"
            )
        if meta.get("position") != hex(self.position):
            raise InvalidFileError(
                f"the checkpoint {self.path} holds a search of another position of {self.game!r} "
                f"({meta.get('position')}, not {hex(self.position)}): give another path, or delete the file"
            )


def _read(path: str, f: Any) -> tuple[Any, dict[str, Any]]:
    """The header of the checkpoint open in ``f`` (the file checked whole) and its checked record.

    The record must be of this format and version: :class:`~grundy.InvalidFileError` naming
    ``path`` if not.
    """
    try:
        header = _core.checkpoint_header(f)
    except ValueError as e:
        raise _files._bad(path, f"{e}") from None
    try:
        meta = json.loads(header[1].decode())
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _files._bad(path, f"its record is not JSON ({e})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT_NAME:
        raise _files._bad(path, f"its record does not describe a {FORMAT_NAME} checkpoint")
    version = meta.get("format_version")
    if version != FORMAT_VERSION:
        raise _files._bad(path, f"its record has format version {version!r}; this grundy reads {FORMAT_VERSION}")
    return header, meta


def record(path: Any) -> dict[str, Any] | None:
    """The record of the checkpoint at ``path`` (None when there is no file), without its tables.

    Its ``nodes``, ``seconds`` and ``cpu_seconds`` (the process's CPU time while it searched, None
    when a sitting did not record it) count every run of the search so far, ``sittings`` those runs.
    Raises :class:`~grundy.InvalidFileError` for a file that is not a board search's checkpoint.

    >>> import os, tempfile, grundy as gr
    >>> path = os.path.join(tempfile.mkdtemp(), "c.ckpt")
    >>> gr.cram(3, 4, progress=False).value(checkpoint=path)
    1
    >>> r = record(path)
    >>> r["result"], r["sittings"]
    ({'value': 1}, 1)
    """
    path = _files._check_path(path)
    if not os.path.exists(path):
        return None
    with _files._open(path) as f:
        meta = _read(path, f)[1]
    meta.setdefault("sittings", 1)
    meta.setdefault("cpu_seconds", None)
    return meta


def _answer(result: Any, method: str, target: int | None = None) -> Any:
    """The answer to ``method`` (for ``winning``, with ``target``) that a checkpoint's result gives, if any."""
    if not isinstance(result, dict):
        return None
    if method == "winning":
        found = result.get("winning")
        if result.get("target") != target or not isinstance(found, list):
            return None
        try:
            return [int(o, 16) for o in found]
        except (TypeError, ValueError):
            return None
    v, outcome = result.get("value"), result.get("outcome")
    if isinstance(v, int) and not isinstance(v, bool):
        return v if method == "value" else v == 0
    if method == "is_zero" and outcome in ("P", "N"):
        return outcome == "P"
    return None
