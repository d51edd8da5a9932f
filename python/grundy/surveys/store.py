"""The results store of a survey: one SQLite file, one row per game, written as each game finishes.

Why SQLite: a survey finishes its games one at a time, for hours, and must lose nothing but the games
in flight when its driver is killed. SQLite (in Python's standard library, so no new dependency)
commits each row in its own transaction, and a transaction that was not committed leaves no trace;
in write-ahead-log mode other processes read the file while the survey writes it. Parquet cannot
append a row without rewriting the file (or keeping a directory of part files), and a rewrite
interrupted by a kill loses the file.

The ``games`` table holds the columns of :data:`grundy.surveys.runner.COLUMNS` (except ``same_as``, which
depends on the order of the games asked for and is recomputed from the fingerprints) and, per game:
the rule (JSON, to rebuild the game), the ``max_n`` and ``timeout`` it ran under, its fingerprint
(JSON), ``computed``, how many times a survey computed it (the tests count recomputations with
it), and ``extra`` (JSON: what the atlas records of a board's run, such as its nodes and machine).
The ``meta`` table records the order of the games of the last survey.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
import urllib.parse
from typing import Any

from ..exceptions import ArgumentTypeError, FilePermissionError, InvalidFileError, MissingFileError

#: Bumped when the layout changes; a store of another version is refused.
STORE_VERSION = 1

#: The stored columns of a row, in order (the table's ``same_as`` is not stored).
STORED = [
    "code",
    "status",
    "preperiod",
    "period",
    "saltus",
    "proven",
    "max_value",
    "mask",
    "rare_count",
    "last_rare",
    "checked_to",
    "value",
    "seconds",
    "error",
]

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    code TEXT PRIMARY KEY,
    status TEXT NOT NULL,
    preperiod INTEGER, period INTEGER, saltus INTEGER, proven INTEGER,
    max_value INTEGER, mask INTEGER, rare_count INTEGER, last_rare INTEGER, checked_to INTEGER,
    value INTEGER, seconds REAL, error TEXT,
    rule TEXT, max_n INTEGER NOT NULL, timeout REAL, fingerprint TEXT,
    computed INTEGER NOT NULL DEFAULT 1, finished REAL NOT NULL, extra TEXT
);
INSERT OR IGNORE INTO meta VALUES ('version', '{STORE_VERSION}');
"""

#: Every column of ``games`` with the type an older store lacking it gets (``ALTER TABLE ... ADD``);
#: a store needs only ``code`` and ``status`` to be read, the rest read as missing.
_COLUMNS = {
    **{c: "INTEGER" for c in STORED},
    "code": "TEXT",
    "status": "TEXT",
    "seconds": "REAL",
    "error": "TEXT",
    "rule": "TEXT",
    "max_n": "INTEGER",
    "timeout": "REAL",
    "fingerprint": "TEXT",
    "computed": "INTEGER NOT NULL DEFAULT 1",
    "finished": "REAL",
    "extra": "TEXT",
}
_REQUIRED = ("code", "status")


def _uri(path: str, immutable: bool) -> str:
    """A read-only SQLite URI for ``path`` (``immutable``: no locks, no ``-wal``/``-shm`` files made)."""
    quoted = urllib.parse.quote(os.path.abspath(path))
    return f"file:{quoted}?mode=ro" + ("&immutable=1" if immutable else "")


def _open_read_only(path: str) -> sqlite3.Connection:
    """A connection that cannot write ``path`` nor create files beside it.

    While a survey writes the store (or after one was killed) its write-ahead log ``<path>-wal``
    holds the latest rows, and a read-only connection reads them through it. Without a log the
    file is complete, and opened immutable: SQLite then takes no lock and makes no ``-wal`` or
    ``-shm`` file, so that a store in a read-only folder (or of another user) is read as it is.
    """
    return sqlite3.connect(_uri(path, not os.path.exists(path + "-wal")), uri=True, timeout=60)


def _check(db: sqlite3.Connection, path: str) -> set[str]:
    """The columns of the store's ``games`` table; InvalidFileError if ``db`` is no survey store.

    Only reads.
    """
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not {"meta", "games"} <= tables:
            what = "an empty file" if os.path.getsize(path) == 0 else "a SQLite file without a survey's tables"
            raise InvalidFileError(f"{path} is not a survey store: {what}")
        rec = db.execute("SELECT value FROM meta WHERE key='version'").fetchone()
        columns = {r[1] for r in db.execute("PRAGMA table_info(games)")}
    except sqlite3.OperationalError as e:  # a file SQLite cannot open (or a log it cannot read)
        raise FilePermissionError(f"cannot read the survey store {path}: {e}") from None
    except sqlite3.DatabaseError as e:  # "file is not a database"
        raise InvalidFileError(f"{path} is not a survey store: {e}") from None
    if rec is None or any(c not in columns for c in _REQUIRED):
        raise InvalidFileError(f"{path} is not a survey store: its tables are not those of grundy.survey")
    if rec[0] != str(STORE_VERSION):
        raise InvalidFileError(f"{path} is a survey store of version {rec[0]}, not {STORE_VERSION}")
    return columns


class Store:
    """An open results store (a SQLite file), created if missing.

    A file that exists is checked before anything is written to it: a file that is not a survey
    store is refused and left as it was.

    Parameters
    ----------
    path : str or os.PathLike
        The file. Its folder must exist.
    read_only : bool, default False
        Open for reading only: nothing is written, neither to the file nor beside it (a store that
        is read-only, or in a read-only folder, can be read). The file must exist.

    Raises
    ------
    grundy.ArgumentTypeError
        If ``path`` is not a file path (a TypeError).
    grundy.MissingFileError
        If the folder does not exist, or the file does not and ``read_only`` is True (a
        FileNotFoundError).
    grundy.InvalidFileError
        If the file is not a survey store of this version.
    grundy.FilePermissionError
        If the store cannot be written (and ``read_only`` is False), or read (a PermissionError).

    Examples
    --------
    >>> import os, tempfile
    >>> from grundy.surveys.store import Store
    >>> st = Store(os.path.join(tempfile.mkdtemp(), "s.sqlite"))
    >>> st.put({"code": "0.77", "status": "proven", "period": 12}, None, None, max_n=1024, timeout=None)
    >>> st.rows()[0]["period"], st.rows()[0]["computed"]
    (12, 1)
    >>> st.close()
    """

    def __init__(self, path: str | os.PathLike[str], *, read_only: bool = False) -> None:
        if not isinstance(path, (str, os.PathLike)):
            raise ArgumentTypeError(f"store must be a file path, not {type(path).__name__}")
        self.path = os.fspath(path)
        folder = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(folder):
            raise MissingFileError(f"the store's folder {folder} does not exist")
        if os.path.exists(self.path) and not os.path.isfile(self.path):
            raise InvalidFileError(f"{self.path} is not a survey store: it is not a file")
        if read_only and not os.path.exists(self.path):
            raise MissingFileError(f"no survey store at {self.path}")
        if read_only or (os.path.isfile(self.path) and os.path.getsize(self.path) > 0):
            # Read-only first, so that a file of another program is refused before any write.
            self.db = _open_read_only(self.path)
            try:
                self.columns = _check(self.db, self.path)
            except BaseException:
                self.db.close()
                raise
            if read_only:
                return
            self.db.close()
            if not os.stat(self.path).st_mode & 0o222:  # made read-only to keep it as it is (root too)
                raise FilePermissionError(f"the survey store {self.path} is read-only; load_survey reads it")
        self._open_for_writing()

    def _open_for_writing(self) -> None:
        try:
            # isolation_level=None: no implicit transactions; each put() is its own BEGIN/COMMIT.
            self.db = sqlite3.connect(self.path, timeout=60, isolation_level=None)
        except sqlite3.OperationalError as e:
            raise FilePermissionError(f"cannot write the survey store {self.path} ({e})") from None
        try:
            self.db.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a committed row survives the death of this process (only a
            # power cut may lose the last rows), at a fraction of FULL's fsyncs.
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("BEGIN IMMEDIATE")
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)
            self.columns = _check(self.db, self.path)
            for c, kind in _COLUMNS.items():  # a store of an older layout gains the columns it lacks
                if c not in self.columns:
                    self.db.execute(f"ALTER TABLE games ADD COLUMN {c} {kind}")
            self.db.execute("COMMIT")
            self.columns = set(_COLUMNS)
        except sqlite3.OperationalError as e:  # a read-only file or folder, a full disk
            self.db.close()
            raise FilePermissionError(
                f"cannot write the survey store {self.path} ({e}); load_survey reads it without writing"
            ) from None
        except BaseException:
            self.db.close()
            raise

    def put(
        self,
        row: dict[str, Any],
        rule: Any,
        fingerprint: Any,
        *,
        max_n: int,
        timeout: float | None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        """Writes (or replaces) one game's row in its own transaction, counting the computation.

        ``extra``: what else the row carries, as JSON (the atlas's nodes, threads, machine, commit).
        """
        vals = [_plain(row.get(c)) for c in STORED]
        more = [json.dumps(rule), max_n, timeout, json.dumps(fingerprint), time.time(), json.dumps(extra)]
        names = STORED + ["rule", "max_n", "timeout", "fingerprint", "finished", "extra"]
        update = ", ".join(f"{c}=excluded.{c}" for c in names[1:])
        self.db.execute(
            f"INSERT INTO games ({', '.join(names)}) VALUES ({', '.join('?' * len(names))}) "
            f"ON CONFLICT(code) DO UPDATE SET {update}, computed=computed+1",
            vals + more,
        )

    def rows(self, codes: list[str] | None = None) -> list[dict[str, Any]]:
        """Every stored row (or those of ``codes``) as dicts, the fingerprint and rule decoded.

        Columns an older store lacks read as None (``computed`` as 1).
        """
        cur = self.db.execute("SELECT * FROM games ORDER BY rowid")
        names = [d[0] for d in cur.description]
        out = []
        wanted = None if codes is None else set(codes)
        blank: dict[str, Any] = {c: None for c in _COLUMNS}
        blank["computed"] = 1
        for rec in cur:
            d = {**blank, **dict(zip(names, rec, strict=True))}
            if wanted is not None and d["code"] not in wanted:
                continue
            d["fingerprint"] = json.loads(d["fingerprint"]) if d["fingerprint"] else None
            d["rule"] = json.loads(d["rule"]) if d["rule"] else None
            d["extra"] = json.loads(d["extra"]) if d["extra"] else None
            d["proven"] = None if d["proven"] is None else bool(d["proven"])
            out.append(d)
        return out

    def set_order(self, codes: list[str]) -> None:
        """Records the order of the games of the current survey (what load_survey shows first)."""
        self.db.execute("INSERT OR REPLACE INTO meta VALUES ('order', ?)", (json.dumps(codes),))

    def order(self) -> list[str]:
        """The games of the last survey, in its order ([] if none was recorded)."""
        rec = self.db.execute("SELECT value FROM meta WHERE key='order'").fetchone()
        return json.loads(rec[0]) if rec else []

    def close(self) -> None:
        """Closes the file."""
        self.db.close()


def _plain(x: Any) -> Any:
    """A value SQLite stores: numpy and pandas scalars become Python ones, missing values None."""
    if x is None:
        return None
    if isinstance(x, bool) or type(x).__name__ == "bool_":
        return int(bool(x))
    if isinstance(x, (int, float, str)):
        return x
    try:
        import pandas as pd

        if pd.isna(x):
            return None
    except (ImportError, TypeError, ValueError):
        pass
    return x.item() if hasattr(x, "item") else x
