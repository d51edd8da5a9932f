"""The results store of a survey: one SQLite file, one row per game, written as each game finishes.

Why SQLite: a survey finishes its games one at a time, for hours, and must lose nothing but the games
in flight when its driver is killed. SQLite (in Python's standard library, so no new dependency)
commits each row in its own transaction, and a transaction that was not committed leaves no trace;
in write-ahead-log mode other processes read the file while the survey writes it. Parquet cannot
append a row without rewriting the file (or keeping a directory of part files), and a rewrite
interrupted by a kill loses the file.

The ``games`` table holds the columns of :data:`grundy._survey.COLUMNS` (except ``same_as``, which
depends on the order of the games asked for and is recomputed from the fingerprints) and, per game:
the rule (JSON, to rebuild the game), the ``max_n`` and ``timeout`` it ran under, its fingerprint
(JSON) and ``computed``, how many times a survey computed it (the tests count recomputations with
it). The ``meta`` table records the order of the games of the last survey.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from typing import Any

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
    seconds REAL, error TEXT,
    rule TEXT, max_n INTEGER NOT NULL, timeout REAL, fingerprint TEXT,
    computed INTEGER NOT NULL DEFAULT 1, finished REAL NOT NULL
);
INSERT OR IGNORE INTO meta VALUES ('version', '{STORE_VERSION}');
"""


class Store:
    """An open results store (a SQLite file), created if missing.

    Parameters
    ----------
    path : str or os.PathLike
        The file. Its folder must exist.

    Raises
    ------
    grundy.InvalidFileError
        If the file is not a survey store of this version.

    Examples
    --------
    >>> import os, tempfile
    >>> from grundy._survey_store import Store
    >>> st = Store(os.path.join(tempfile.mkdtemp(), "s.sqlite"))
    >>> st.put({"code": "0.77", "status": "proven", "period": 12}, None, None, max_n=1024, timeout=None)
    >>> st.rows()[0]["period"], st.rows()[0]["computed"]
    (12, 1)
    >>> st.close()
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"store must be a file path, not {type(path).__name__}")
        self.path = os.fspath(path)
        folder = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(folder):
            raise FileNotFoundError(f"the store's folder {folder} does not exist")
        from .exceptions import InvalidFileError

        try:
            # isolation_level=None: no implicit transactions; each put() is its own BEGIN/COMMIT.
            self.db = sqlite3.connect(self.path, timeout=60, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a committed row survives the death of this process (only a
            # power cut may lose the last rows), at a fraction of FULL's fsyncs.
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.executescript(_SCHEMA)
            (version,) = self.db.execute("SELECT value FROM meta WHERE key='version'").fetchone()
        except sqlite3.DatabaseError as e:
            raise InvalidFileError(f"{self.path} is not a survey store: {e}") from None
        if version != str(STORE_VERSION):
            self.db.close()
            raise InvalidFileError(f"{self.path} is a survey store of version {version}, not {STORE_VERSION}")

    def put(self, row: dict[str, Any], rule: Any, fingerprint: Any, *, max_n: int, timeout: float | None) -> None:
        """Writes (or replaces) one game's row in its own transaction, counting the computation."""
        vals = [_plain(row.get(c)) for c in STORED]
        extra = [json.dumps(rule), max_n, timeout, json.dumps(fingerprint), time.time()]
        names = STORED + ["rule", "max_n", "timeout", "fingerprint", "finished"]
        update = ", ".join(f"{c}=excluded.{c}" for c in names[1:])
        self.db.execute(
            f"INSERT INTO games ({', '.join(names)}) VALUES ({', '.join('?' * len(names))}) "
            f"ON CONFLICT(code) DO UPDATE SET {update}, computed=computed+1",
            vals + extra,
        )

    def rows(self, codes: list[str] | None = None) -> list[dict[str, Any]]:
        """Every stored row (or those of ``codes``) as dicts, the fingerprint and rule decoded."""
        cur = self.db.execute("SELECT * FROM games ORDER BY rowid")
        names = [d[0] for d in cur.description]
        out = []
        wanted = None if codes is None else set(codes)
        for rec in cur:
            d = dict(zip(names, rec, strict=True))
            if wanted is not None and d["code"] not in wanted:
                continue
            d["fingerprint"] = json.loads(d["fingerprint"]) if d["fingerprint"] else None
            d["rule"] = json.loads(d["rule"]) if d["rule"] else None
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
