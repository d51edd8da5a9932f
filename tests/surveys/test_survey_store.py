"""Survey stores that are read-only, of another program, of an older layout, or being written:
loading never writes, and a file that is not a store is refused and left byte for byte as it was
(issue 32, faults 4, 5 and 7)."""

import json
import os
import sqlite3

import pandas as pd
import pytest

import grundy as gr
from grundy.surveys.store import STORE_VERSION

CODES = ["0.77", "0.137", "0.6"]


def snapshot(path):
    """The file's bytes, modification time and mode, and the files of its folder."""
    st = os.stat(path)
    return path.read_bytes(), st.st_mtime_ns, st.st_mode, sorted(os.listdir(path.parent))


@pytest.fixture
def store(tmp_path):
    path = tmp_path / "s.sqlite"
    gr.survey(CODES, max_n=2**10, store=path, checkpoints=False, progress=False)
    return path


@pytest.mark.parametrize("journal", ["wal", "delete"])
def test_loading_writes_nothing(store, journal):
    """Not even the switch to write-ahead logging (a store copied with ``sqlite3 .backup`` or
    ``VACUUM INTO`` has a rollback journal): loading used to rewrite the file's header."""
    with sqlite3.connect(store) as db:
        db.execute(f"PRAGMA journal_mode={journal}")
    db.close()
    before = snapshot(store)
    df = gr.load_survey(store)
    assert df.code.tolist() == CODES
    assert snapshot(store) == before  # no -wal or -shm file made beside it either


def test_a_read_only_store_loads_unchanged(store):
    expected = gr.load_survey(store)
    os.chmod(store, 0o444)
    os.chmod(store.parent, 0o555)
    try:
        before = snapshot(store)
        pd.testing.assert_frame_equal(gr.load_survey(store), expected)
        assert snapshot(store) == before
        with pytest.raises(PermissionError, match="read-only") as e:  # a survey must write: refused, nothing done
            gr.survey(CODES, max_n=2**11, store=store, progress=False)
        assert isinstance(e.value, gr.FilePermissionError)  # issue 32, fault 7: a plain PermissionError
        assert snapshot(store) == before
    finally:
        os.chmod(store.parent, 0o755)
        os.chmod(store, 0o644)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads and writes whatever the modes")
def test_a_store_in_a_read_only_folder_loads(store):
    """Without write permission on the folder, SQLite cannot make the log it needs to open a store
    read-write (the survey's old way of loading)."""
    expected = gr.load_survey(store)
    os.chmod(store.parent, 0o555)
    try:
        pd.testing.assert_frame_equal(gr.load_survey(store), expected)
    finally:
        os.chmod(store.parent, 0o755)


def test_a_store_being_written_is_read_through_its_log(store):
    """A survey that runs (or was killed) keeps its last rows in ``<store>-wal``: they are read."""
    writer = sqlite3.connect(store, isolation_level=None)
    try:
        writer.execute("PRAGMA wal_autocheckpoint=0")  # the rows stay in the log
        writer.execute("UPDATE games SET error='in the log' WHERE code='0.6'")
        assert os.path.getsize(f"{store}-wal") > 0
        before = snapshot(store)
        df = gr.load_survey(store)
        assert df.set_index("code").at["0.6", "error"] == "in the log"
        assert snapshot(store) == before
    finally:
        writer.close()


def other_program_database(path):
    with sqlite3.connect(path) as db:  # a rollback-journal database, as most programs leave them
        db.execute("CREATE TABLE people (name TEXT, age INTEGER)")
        db.execute("INSERT INTO people VALUES ('Ada', 36)")
    db.close()


def survey_tables_of_another_version(path):
    gr.survey(["0.77"], max_n=2**10, store=path, checkpoints=False, progress=False)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value=? WHERE key='version'", (str(STORE_VERSION + 1),))
    db.close()


def similar_tables(path):
    with sqlite3.connect(path) as db:  # a meta table, but no games
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.execute("INSERT INTO meta VALUES ('version', '1')")
    db.close()


@pytest.mark.parametrize(
    "make",
    [
        other_program_database,
        survey_tables_of_another_version,
        similar_tables,
        lambda p: p.write_bytes(b"a text file, not a database\n" * 200),
        lambda p: p.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 8),  # a damaged header
        lambda p: p.write_bytes(b""),  # empty: no store yet (a survey may create one there)
    ],
    ids=["other-program", "other-version", "similar-tables", "text", "damaged", "empty"],
)
def test_a_file_that_is_not_a_store_is_refused_and_left_as_it_was(tmp_path, make):
    path = tmp_path / "data.db"
    make(path)
    before = snapshot(path)
    with pytest.raises(gr.InvalidFileError, match="survey store"):
        gr.load_survey(path)
    assert snapshot(path) == before
    if path.stat().st_size == 0:
        return
    with pytest.raises(gr.InvalidFileError, match="survey store"):
        gr.survey(["0.77"], max_n=2**10, store=path, progress=False)
    assert snapshot(path) == before


def test_a_survey_creates_its_store_in_an_empty_file(tmp_path):
    path = tmp_path / "s.sqlite"
    path.write_bytes(b"")
    gr.survey(["0.77"], max_n=2**10, store=path, progress=False)
    assert gr.load_survey(path).code.tolist() == ["0.77"]


def test_error_rows_are_stored(tmp_path):
    """A game's error (here its timeout) is a column of the store, like the others."""
    path = tmp_path / "s.sqlite"
    slow = gr.Subtraction.squares()  # no period: runs to max_n unless the timeout stops it
    df = gr.survey([slow, "0.77"], max_n=2**40, timeout=0.5, store=path, checkpoints=False, progress=False)
    stored = gr.load_survey(path)
    assert stored.status.tolist() == df.status.tolist() == ["timeout", "proven"]
    assert stored.error[0] == df.error[0] and stored.error[0].startswith("timeout")
    assert pd.isna(stored.error[1])


def old_layout(path):
    """A store as an older grundy might have left it: no error, computed or finished column."""
    with sqlite3.connect(path) as db:
        db.executescript(f"""
            CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
            INSERT INTO meta VALUES ('version', '{STORE_VERSION}');
            CREATE TABLE games (code TEXT PRIMARY KEY, status TEXT NOT NULL, preperiod INTEGER,
                period INTEGER, saltus INTEGER, proven INTEGER, max_value INTEGER, mask INTEGER,
                rare_count INTEGER, last_rare INTEGER, checked_to INTEGER, seconds REAL, rule TEXT,
                max_n INTEGER NOT NULL, timeout REAL, fingerprint TEXT);
        """)
        db.execute(
            "INSERT INTO games VALUES "
            "('0.77', 'proven', 71, 12, 0, 1, 8, NULL, NULL, NULL, 1024, 0.1, ?, 1024, NULL, ?)",
            (json.dumps({"type": "take_and_break", "code": "0.77"}), json.dumps([[1024, "0" * 64]])),
        )
    db.close()


def test_a_store_of_an_older_layout_loads_and_grows_the_missing_columns(tmp_path):
    path = tmp_path / "old.sqlite"
    old_layout(path)
    before = snapshot(path)
    df = gr.load_survey(path)
    assert snapshot(path) == before
    assert df.code.tolist() == ["0.77"] and df.period.tolist() == [12]
    assert pd.isna(df.error[0]) and df.computed.tolist() == [1]
    # A survey adds the columns and its rows.
    df = gr.survey(["0.77", "0.137"], max_n=2**10, store=path, progress=False)
    assert df.attrs["computed"] == 1  # 0.77 came from the old store
    stored = gr.load_survey(path)
    assert stored.code.tolist() == ["0.77", "0.137"] and stored.period.tolist() == [12, 34]
