"""The atlas (python -m grundy atlas): rows written, resumed, out of budget kept as such, the results page."""

import itertools
import sqlite3

import pandas as pd
import pytest

import grundy as gr
from grundy.__main__ import main
from grundy.surveys import atlas as atlas_module
from grundy.surveys import results as results_module
from grundy.surveys.atlas import COLUMNS, Board, atlas, parse_boards
from grundy.surveys.results import load_atlas, results_markdown

MIB = 1 << 20


def fresh(b):
    """The board's value from a game of its own (another table), as a user would ask it."""
    return b.build(MIB).value(threads=1)


def test_rows_are_written_with_their_values_and_provenance(tmp_path):
    path = tmp_path / "a.sqlite"
    boards = parse_boards(["nk:3x3-6", "cram:2-3x4"])
    df = atlas(boards, budget=30, store=path, memory=MIB, progress=False)
    assert list(df.columns) == COLUMNS
    assert df.board.tolist() == ["3 x 3", "3 x 4", "3 x 5", "3 x 6", "2 x 4", "3 x 4"]
    assert df.game.tolist() == ["Node Kayles"] * 4 + ["Cram"] * 2
    assert df.value.tolist() == [fresh(b) for b in boards]
    assert (df.status == "solved").all() and (df.budget == 30).all() and (df.threads == 1).all()
    assert df.published.tolist()[:4] == [1, 0, 3, 3] and df.agrees.tolist()[:4] == [True] * 4
    assert df.published.isna().tolist()[4:] == [True, True] and df.agrees.isna().tolist()[4:] == [True, True]
    assert (df.nodes >= 0).all() and (df.seconds >= 0).all() and (df.cpu_seconds >= 0).all()
    assert df.machine.str.contains("cores").all() and df.commit.str.len().gt(0).all()
    assert df.command.tolist()[0] == "python -m grundy atlas nk:3x3 --budget 30 --threads 1 --memory 1M"
    assert df.checked.all()  # boards of at most 20 cells
    assert df.attrs["computed"] == 6 and not df.attrs["interrupted"] and df.attrs["disagreements"] == []
    # The store is a survey store: load_survey reads it too.
    assert gr.load_survey(path).value.tolist() == df.value.tolist()
    everywhere = atlas([Board("cram", 2, 5)], budget=30, store=path, threads=None, progress=False)
    assert everywhere.command[0] == "python -m grundy atlas cram:2x5 --budget 30 --threads 0"


def test_a_row_s_command_names_the_table_s_memory_when_one_was_given(tmp_path):
    # The command reproduces the run: a table of another size searches another number of nodes.
    path = tmp_path / "atlas.sqlite"
    for memory, text in [(8 << 30, "8G"), (1 << 20, "1M"), (3_000_000, "3000000")]:
        df = atlas([Board("node_kayles", 2, 3)], budget=30, store=path, memory=memory, progress=False)
        assert df.command[0] == f"python -m grundy atlas nk:2x3 --budget 30 --threads 1 --memory {text}"
        path.unlink()


def test_a_rerun_skips_the_boards_done(tmp_path):
    path = tmp_path / "a.sqlite"
    first = atlas(parse_boards("nk:3x1-5"), budget=30, store=path, progress=False)
    again = atlas(parse_boards("nk:3x1-7"), budget=30, store=path, progress=False)
    assert again.attrs["computed"] == 2
    pd.testing.assert_frame_equal(first, again.iloc[:5])
    assert (gr.load_survey(path).computed == 1).all()  # no board searched twice
    assert atlas(parse_boards("nk:3x1-7"), budget=30, store=path, progress=False).attrs["computed"] == 0


def test_a_board_over_budget_is_stored_as_such_and_rerun_only_with_a_larger_budget(tmp_path):
    path = tmp_path / "a.sqlite"
    slow = [Board("cram", 5, 7), Board("cram", 2, 2)]  # Cram 5 x 7 takes a second or more on one thread
    df = atlas(slow, budget=0.05, store=path, progress=False)
    assert df.status.tolist() == ["timeout", "solved"] and pd.isna(df.value[0]) and df.budget[0] == 0.05
    assert df.nodes[0] > 0  # how far it got
    assert df.progress[0].startswith("table ") and "root: is G" in df.progress[0]  # the search's last note
    assert pd.isna(df.progress[1])
    assert atlas(slow, budget=0.05, store=path, progress=False).attrs["computed"] == 0
    assert atlas(slow, budget=0.01, store=path, progress=False).attrs["computed"] == 0
    more = atlas(slow, budget=120, store=path, progress=False)
    assert more.attrs["computed"] == 1 and more.status.tolist() == ["solved", "solved"]
    assert more.value[0] == 1 and more.published[0] == 1 and more.budget[0] == 120  # Beling's table
    assert gr.load_survey(path).computed.tolist() == [2, 1]


def test_give_up_skips_the_rest_of_a_family_after_boards_out_of_budget(tmp_path):
    boards = [Board("cram", 5, 7), Board("cram", 5, 8), Board("cram", 2, 3)]
    df = atlas(boards, budget=0.05, store=tmp_path / "a.sqlite", progress=False, give_up=1)
    assert df.board.tolist() == ["5 x 7", "2 x 3"] and df.attrs["computed"] == 2


def test_the_results_page_holds_every_row_and_reads_back(tmp_path):
    path, page = tmp_path / "a.sqlite", tmp_path / "results.md"
    atlas([Board("cram", 5, 7)], budget=0.05, store=path, progress=False)
    atlas(parse_boards(["nk:3x1-4", "cram:3x3-4"]), budget=30, store=path, progress=False)
    results_markdown(path, page)
    text = page.read_text()
    assert "## Node Kayles, 3 x n" in text and "## Cram, 3 x n" in text and "## Cram, 5 x n" in text
    assert "## Cram, n x n" in text and text.count("| 3 x 3 |") == 4  # squares: in their rows and the squares
    assert "- **Node Kayles 3 x n**: solved for n = 1-4. Second method: n = 1-4; published: n = 1-4 (all agree)" in text
    assert "| 5 x 7 | > 0.05 s |" in text and "| 3 x 4 | 0 | 0 | yes | solved |" in text
    assert "| timeout: table " in text  # how far the search out of time got
    assert "`python -m grundy atlas nk:3x2 --budget 30 --threads 1`" in text
    back, stored = load_atlas(page), load_atlas(path)
    same = ["game", "board", "status", "progress", "value", "published", "agrees", "checked", "nodes", "budget",
            "threads", "machine", "commit", "date", "command"]  # fmt: skip
    pd.testing.assert_frame_equal(back[same], stored[same])
    assert ((back.seconds - stored.seconds).abs() <= 0.005 * stored.seconds).all()  # 3 digits
    assert ((back.cpu_seconds - stored.cpu_seconds).abs() <= 0.005 * stored.cpu_seconds).all()
    # A page written before the sittings column (each table says its columns) reads the same.
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(results_module, "_SHOWN", [c for c in results_module._SHOWN if c != "sittings"])
        results_markdown(path, page)
    assert "| sittings |" not in page.read_text() and len(load_atlas(page)) == len(back)
    pd.testing.assert_frame_equal(load_atlas(page)[same + ["sittings"]], back[same + ["sittings"]])


def test_a_disagreement_with_a_published_value_is_loud(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(atlas_module.PUBLISHED, ("node_kayles", 3, 4), (1, "a wrong table"))
    path, page = tmp_path / "a.sqlite", tmp_path / "r.md"
    with pytest.warns(UserWarning, match="3 x 4: the search says 0, the published value is 1"):
        df = atlas(parse_boards("nk:3x3-4"), budget=30, store=path, progress=False)
    assert df.agrees.tolist() == [True, False] and df.attrs["disagreements"] == ["3 x 4"]
    again = atlas(parse_boards("nk:3x3-4"), budget=30, store=path, progress=False)  # stored: still said
    assert again.attrs["computed"] == 0 and again.attrs["disagreements"] == ["3 x 4"]
    results_markdown(path, page)
    assert "**Disagrees with the published value: 3 x 4.**" in page.read_text()
    assert "| 3 x 4 | **0 (disagrees)** |" in page.read_text()
    with pytest.warns(UserWarning):
        status = main(["atlas", "nk:3x4", "--store", str(tmp_path / "b.sqlite")])
    assert status == 3 and "DISAGREES WITH a wrong table (1)" in capsys.readouterr().err


def test_ctrl_c_keeps_the_rows_stored(tmp_path):
    def stop(row):
        if row["board"] == "3 x 2":
            raise KeyboardInterrupt

    path = tmp_path / "a.sqlite"
    with pytest.warns(UserWarning, match="interrupted"):
        df = atlas(parse_boards("nk:3x1-5"), budget=30, store=path, progress=False, report=stop)
    assert df.attrs["interrupted"] and df.board.tolist() == ["3 x 1", "3 x 2"]
    assert atlas(parse_boards("nk:3x1-5"), budget=30, store=path, progress=False).attrs["computed"] == 3


def test_the_command_line_writes_the_store_and_the_page(tmp_path, capsys):
    path, page = tmp_path / "a.sqlite", tmp_path / "r.md"
    args = ["atlas", "nk:3x1-3", "cram:sq:2", "--budget", "30", "--store", str(path), "--markdown", str(page)]
    assert main([*args, "--memory", "1M"]) == 0
    out = capsys.readouterr()
    assert "Node Kayles 3 x 3: 1" in out.err and "agrees with OEIS A316632 (1)" in out.err
    assert "3 x 3" in out.out and page.exists()
    assert load_atlas(page).board.tolist() == ["2 x 2", "3 x 1", "3 x 2", "3 x 3"]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 4
    assert main(["atlas", "cram:5x7", "--budget", "0.05", "--store", str(path)]) == 0  # out of budget: no verdict
    err = capsys.readouterr().err
    assert "Cram 5 x 7: > 0.05 s (timeout)" in err and "DISAGREES" not in err and "agrees" not in err


@pytest.mark.parametrize(
    "spec, message",
    [
        ("go:3x3", "the game is nk"),
        ("nk:3", "GAME:ROWSxCOLS"),
        ("nk:3x0-2", "range of sizes"),
        ("nk:3xa", "not a number"),
        ("cram:12x12", "at most 128"),
    ],
)
def test_bad_families_are_refused(spec, message):
    with pytest.raises(gr.ArgumentError, match=message):
        parse_boards(spec)
    assert main(["atlas", spec]) == 2


def test_bad_arguments_are_refused(tmp_path):
    with pytest.raises(gr.ArgumentTypeError):
        parse_boards(3)
    with pytest.raises(gr.ArgumentTypeError):
        atlas(["nk:3x3"], store=tmp_path / "a.sqlite")
    with pytest.raises(gr.ArgumentError):
        atlas(parse_boards("nk:3x3"), budget=-1, store=tmp_path / "a.sqlite")


def test_a_row_names_its_commit_or_else_the_version(monkeypatch):
    import shutil
    import subprocess

    here = atlas_module.Path(atlas_module.__file__).parent
    git = shutil.which("git")
    head = git and subprocess.run([git, "rev-parse", "--short=12", "HEAD"], cwd=here, capture_output=True, text=True)
    if head and head.returncode == 0:  # a checkout (not the installed wheel)
        assert atlas_module.commit().removesuffix("-dirty") == head.stdout.strip()

    def no_git(*args, **kwargs):
        raise FileNotFoundError("git")

    monkeypatch.setattr(atlas_module.subprocess, "run", no_git)
    assert atlas_module.commit() == f"grundy {gr.__version__}"
    assert atlas_module.machine().startswith(f"{atlas_module.os.cpu_count()} cores, ")


def test_a_negative_budget_is_refused_not_taken_for_no_limit(tmp_path, capsys):
    # 0 means no limit; a negative budget is a mistake, refused before any board is searched.
    path = tmp_path / "n.sqlite"
    assert main(["atlas", "nk:3x1", "--budget", "-5", "--store", str(path)]) == 2
    assert "positive number of seconds" in capsys.readouterr().err


def test_a_board_with_a_checkpoint_resumes_sitting_after_sitting_until_solved(tmp_path):
    path, folder = tmp_path / "a.sqlite", tmp_path / "ck"
    board = [Board("cram", 5, 7)]  # 0.4 s or more on one thread: several sittings of 0.1 s
    ck = folder / "cram-5x7.ckpt"
    seen, summarised = [], False
    for _ in range(200):
        df = atlas(board, budget=0.1, store=path, progress=False, checkpoints=folder)
        assert df.attrs["computed"] == 1  # the same budget again: resumed, not skipped
        seen.append((df.status[0], int(df.nodes[0]), float(df.seconds[0]), int(df.sittings[0]), df.cpu_seconds[0]))
        if df.status[0] == "solved":
            break
        assert ck.exists()  # written when the budget ran out
        if df.sittings[0] == 2:  # the summary gives the seconds of both sittings, not the budget
            results_markdown(path, tmp_path / "b.md")
            assert f"n = 7 ({df.seconds[0]:,.0f} s in 2 sittings)" in (tmp_path / "b.md").read_text()
            summarised = True
    assert len(seen) >= 3 and seen[-1][0] == "solved" and summarised
    assert [s[3] for s in seen] == list(range(1, len(seen) + 1))  # each row counts the sittings so far
    assert all(a[1] <= b[1] and a[2] < b[2] for a, b in itertools.pairwise(seen))  # nodes and seconds add up
    assert all(a[4] < b[4] for a, b in itertools.pairwise(seen))  # and so does the CPU time
    assert 0 < seen[-1][4] <= 4 * seen[-1][2]  # one thread: no more CPU than its wall time (and the file reads)
    assert df.value[0] == fresh(board[0])
    assert not ck.exists()  # removed once solved
    # The command that computes the row again says to resume: its budget is the last sitting's.
    assert df.command[0].endswith("--budget 0.1 --threads 1 --checkpoints atlas-checkpoints")
    page = tmp_path / "a.md"
    results_markdown(path, page)
    again = load_atlas(page)
    assert again.sittings[0] == len(seen) and again.command[0] == df.command[0]
    # Solved: not searched again, checkpoints or not.
    assert atlas(board, budget=0.1, store=path, progress=False, checkpoints=folder).attrs["computed"] == 0


def test_atlas_checkpoints_must_be_a_path(tmp_path):
    with pytest.raises(gr.ArgumentTypeError, match="checkpoints"):
        atlas([Board("cram", 2, 2)], store=tmp_path / "a.sqlite", checkpoints=3)
    (tmp_path / "f").write_text("")
    with pytest.raises(gr.ArgumentError, match="must be a folder"):
        atlas([Board("cram", 2, 2)], store=tmp_path / "a.sqlite", checkpoints=tmp_path / "f")
