"""Surveys: known rows, patterns, same_as from fingerprints, error and timeout rows, the store."""

import concurrent.futures
import multiprocessing
import os
import sqlite3

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy as gr
from grundy.surveys.runner import COLUMNS, _same_as, expand, fingerprint

# Published: Berlekamp, Conway & Guy, Winning Ways, ch. 4 (preperiod, period; saltus 0).
KNOWN = {"0.77": (71, 12), "0.137": (52, 34), "0.45": (498, 20), "0.156": (3479, 349)}


def none(x):
    return None if pd.isna(x) else x


def naive_same_as(codes, arrays):
    """The first earlier game whose values agree over the range both examined, by comparing arrays."""
    out = []
    for i, v in enumerate(arrays):
        match = None
        if v is not None:
            for j in range(i):
                w = arrays[j]
                if w is None:
                    continue
                c = min(len(v), len(w))
                if c and np.array_equal(v[:c], w[:c]):
                    match = codes[j]
                    break
        out.append(match)
    return out


def test_known_rows():
    df = gr.survey(list(KNOWN), progress=False)
    assert list(df.columns) == COLUMNS
    for code, (pre, per) in KNOWN.items():
        row = df[df.code == code].iloc[0]
        assert (row.preperiod, row.period, row.saltus, bool(row.proven)) == (pre, per, 0, True)
        assert row.status == "proven"
        assert row.checked_to >= 2 * pre + 2 * per
        assert pd.isna(row.error)
    kayles = df[df.code == "0.77"].iloc[0]
    assert kayles.max_value == 8
    assert kayles.rare_count + 0 >= 1 and kayles.last_rare < kayles.checked_to


def test_pattern_expansion():
    codes = expand("0.??")
    assert len(codes) == 64 and codes[0] == "0.00" and codes[-1] == "0.77"
    assert len(set(codes)) == 64
    assert expand("4.?") == [f"4.{d}" for d in range(8)]
    assert expand("0.77") == ["0.77"]
    hexa = expand("0.?", hexadecimal=True)
    assert hexa == [f"0.{d:X}" for d in range(16)]
    assert len(expand("4.???")) == 512 and expand("4.???")[-1] == "4.777"
    with pytest.raises(ValueError):
        expand("0." + "?" * 9)
    with pytest.raises(ValueError):
        expand("0." + "?" * 6, hexadecimal=True)
    with pytest.raises(TypeError):
        expand("0.?", hexadecimal="yes")
    with pytest.raises(TypeError):
        gr.survey([3.5])


def test_hexadecimal_and_four_families():
    hexa = gr.survey("0.?", hexadecimal=True, max_n=2**11, progress=False)
    assert len(hexa) == 16 and hexa.code.tolist()[10:] == ["0.A", "0.B", "0.C", "0.D", "0.E", "0.F"]
    assert hexa.error.isna().all()
    # 0.F: remove one token, leave 0-3 heaps; compare each row with the game computed directly.
    for _, r in hexa.iterrows():
        p = gr.TakeAndBreak(r.code).periodicity(max_n=2**11)
        assert (none(r.period), bool(r.proven)) == (p.period, p.proven)
    four = gr.survey("4.?", max_n=2**11, progress=False)
    assert four.code.tolist() == [f"4.{d}" for d in range(8)]
    assert four.error.isna().all()
    for _, r in four.iterrows():
        p = gr.TakeAndBreak(r.code).periodicity(max_n=2**11)
        assert (none(r.period), none(r.preperiod), bool(r.proven)) == (p.period, p.preperiod, p.proven)


def test_same_as_agrees_with_arrays_on_64_games():
    df = gr.survey("0.3??", max_n=2**12, progress=False)
    assert len(df) == 64
    arrays = [gr.TakeAndBreak(c).values(n) for c, n in zip(df.code, df.checked_to, strict=True)]
    got = [None if pd.isna(x) else x for x in df.same_as]
    assert got == naive_same_as(df.code.tolist(), arrays)
    assert df.same_as.notna().sum() > 10  # the family has many equal games: the check is not vacuous
    assert len(set(df.checked_to)) > 1  # and games examined to different ranges


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_same_as_from_fingerprints_matches_arrays(data):
    """Random value arrays sharing prefixes, of random lengths (powers of two and not)."""
    k = data.draw(st.integers(1, 8))
    base = np.random.default_rng(data.draw(st.integers(0, 2**32))).integers(0, 4, 3000, dtype=np.uint32)
    arrays = []
    for _ in range(k):
        n = data.draw(st.sampled_from([0, 1, 5, 1024, 1500, 2048, 2100, 3000]))
        v = base[:n].copy()
        flip = data.draw(st.one_of(st.none(), st.integers(0, 2999)))
        if flip is not None and flip < n:
            v[flip] += 1
        arrays.append(v.astype(data.draw(st.sampled_from([np.uint8, np.uint16, np.uint32]))))
    codes = [f"g{i}" for i in range(k)]
    asked = []

    def digest(pairs):
        asked.extend(pairs)
        return [fingerprint(arrays[i][:c], [c])[0][1] for i, c in pairs]

    got = _same_as(codes, [fingerprint(a) for a in arrays], digest)
    assert got == naive_same_as(codes, arrays)
    for i, c in asked:  # only ranges a fingerprint lacks are computed
        assert c < len(arrays[i]) and c & (c - 1)


def test_bad_code_gets_an_error_row():
    df = gr.survey(["0.77", "0.7x", "0..1", "0.77"], max_n=2**10, progress=False)
    assert df.code.tolist() == ["0.77", "0.7x", "0..1", "0.77"]
    assert pd.isna(df.error[0]) and df.status[0] == "proven"
    assert "position 3" in df.error[1] and df.error[1].startswith("CodeError")
    assert df.status[1] == df.status[2] == "error"
    assert pd.isna(df.period[1]) and pd.isna(df.same_as[1])
    assert df.same_as[3] == "0.77"  # a repeated game is the same as its first occurrence
    assert df.attrs["computed"] == 1  # and it is computed once


def test_unexpected_errors_propagate():
    def boom(n, k):
        raise RuntimeError("a bug, not a game error")

    with pytest.raises(RuntimeError, match="a bug"):
        gr.survey(["0.77", gr.Subtraction(allowed=boom)], max_n=2**10, threads=1, progress=False)


def test_games_and_callables_in_process():
    df = gr.survey([gr.kayles(), gr.Subtraction([1, 2, 3]), gr.Subtraction(allowed=lambda n, k: k in (1, 4))],
                   max_n=2**11, progress=False)
    assert df.period.tolist() == [12, 4, 5]
    assert df.proven.tolist() == [True, True, False]
    assert df.status.tolist() == ["proven", "proven", "observed"]
    with pytest.raises(TypeError):
        with concurrent.futures.ThreadPoolExecutor(1) as ex:
            gr.survey([gr.Subtraction(allowed=lambda n, k: True)], executor=ex)


def test_timeout_row():
    # Remove a square: no period, and as a Python callable slow per value.
    slow = gr.Subtraction(allowed=lambda n, k: int(k**0.5) ** 2 == k)
    df = gr.survey([slow, "0.77"], max_n=2**20, timeout=2, threads=1, progress=False)
    assert df.status.tolist() == ["timeout", "proven"]
    assert "timeout" in df.error[0] and pd.isna(df.error[1])
    assert 0 < df.checked_to[0] < 2**20 and pd.isna(df.proven[0])
    with pytest.raises(ValueError):
        gr.survey(["0.77"], timeout=0)
    with pytest.raises(TypeError):
        gr.survey(["0.77"], timeout="1")


def test_interrupt_keeps_finished_rows():
    def stop(n, k):
        raise KeyboardInterrupt

    with pytest.warns(UserWarning, match="interrupted"):
        df = gr.survey(["0.77", gr.Subtraction(allowed=stop), "0.137"], max_n=2**10, threads=1, progress=False)
    assert df.attrs["interrupted"]
    assert "0.77" in df.code.tolist()
    assert len(df) < 3


def test_store_rerun_computes_nothing_and_larger_max_n_resumes(tmp_path):
    path = tmp_path / "s.sqlite"
    family = expand("0.1?") + ["0.7x"]
    fresh = gr.survey(family, max_n=2**11, progress=False)
    a = gr.survey(family, max_n=2**11, store=path, progress=False)
    pd.testing.assert_frame_equal(a.drop(columns="seconds"), fresh.drop(columns="seconds"))
    assert a.attrs["computed"] == len(fresh) - 1  # the bad code is no computation
    b = gr.survey(family, max_n=2**11, store=path, progress=False)
    assert b.attrs["computed"] == 0
    pd.testing.assert_frame_equal(a, b)  # seconds included: the rows come from the store
    stored = gr.load_survey(path)  # codes that do not parse are not stored
    assert stored.code.tolist() == a.code.tolist()[:-1]
    pd.testing.assert_frame_equal(stored[COLUMNS], a[:-1])
    # Unproven games keep checkpoints; a larger max_n resumes just those.
    unproven = a[a.status == "max_n"].code.tolist()
    assert unproven
    ck = os.listdir(f"{path}.checkpoints")
    assert len(ck) == len(unproven)
    c = gr.survey(family, max_n=2**13, store=path, progress=False)
    assert c.attrs["computed"] == len(unproven)
    larger = gr.survey(family, max_n=2**13, progress=False)
    for code in unproven:
        r, f = c.set_index("code").loc[code], larger.set_index("code").loc[code]
        assert (r.status, r.period, r.proven) == (f.status, f.period, f.proven)
        assert r.checked_to >= 2**11
    assert gr.load_survey(path).set_index("code").loc[unproven, "computed"].tolist() == [2] * len(unproven)


def test_store_refuses_what_it_cannot_hold(tmp_path):
    with pytest.raises(TypeError, match="callables"):
        gr.survey([gr.Subtraction(allowed=lambda n, k: True)], store=tmp_path / "s.sqlite")
    bad = tmp_path / "not.sqlite"
    bad.write_bytes(b"this is not a database" * 100)
    with pytest.raises(gr.InvalidFileError):
        gr.survey(["0.77"], store=bad)
    with pytest.raises(gr.InvalidFileError):
        gr.load_survey(bad)
    with pytest.raises(FileNotFoundError):
        gr.load_survey(tmp_path / "missing.sqlite")
    with pytest.raises(FileNotFoundError):
        gr.survey(["0.77"], store=tmp_path / "no" / "s.sqlite")


def test_store_is_readable_while_written(tmp_path):
    path = tmp_path / "s.sqlite"
    gr.survey(["0.77"], max_n=2**10, store=path, progress=False)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("SELECT code, computed FROM games").fetchall() == [("0.77", 1)]


def test_summary_groups_equal_games():
    df = gr.survey("0.3??", max_n=2**11, progress=False)
    s = gr.survey_summary(df)
    assert s.games == 64 and s.errors == 0
    assert s.proven == int((df.status == "proven").sum()) and s.proven + s.unproven == 64
    assert int(s.classes["size"].sum()) == 64
    for _, c in s.classes.iterrows():
        for m in c.members:
            sa = df.set_index("code").at[m, "same_as"]
            assert m == c.code or sa == c.code
    assert sorted(s.unproven_games.code) == sorted(df[df.status != "proven"].code)
    assert (s.unproven_games.checked_to > 0).all()
    assert "classes of equal games" in str(s)
    with pytest.raises(ValueError):
        gr.survey_summary(pd.DataFrame({"x": [1]}))


def test_executor_table_equals_in_process():
    codes = ["0.77", "0.137", "0.7x", "0.15", "0.51"]
    a = gr.survey(codes, max_n=2**12, progress=False)
    # "spawn": a forked child would inherit rayon's thread pool without its threads.
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=ctx) as ex:
        b = gr.survey(codes, max_n=2**12, executor=ex, progress=False)
    pd.testing.assert_frame_equal(a.drop(columns="seconds"), b.drop(columns="seconds"))


def test_cli_survey_with_store(tmp_path, capsys):
    from grundy.__main__ import main

    path = tmp_path / "s.sqlite"
    assert main(["survey", "0.?", "--hex", "--max-n", "1024", "--store", str(path)]) == 0
    out = capsys.readouterr().out
    assert "0.F" in out and "status" in out
    assert len(gr.load_survey(path)) == 16
    assert main(["survey", "0.?", "--max-n", "1024", "--timeout", "0"]) == 2


def test_timeout_rows_keep_a_checkpoint_and_resume(tmp_path):
    path = tmp_path / "s.sqlite"
    a = gr.survey(["0.106"], max_n=2**24, timeout=1.0, store=path, progress=False)
    assert a.status.tolist() == ["timeout"]
    (ck,) = os.listdir(f"{path}.checkpoints")
    saved = gr.load(os.path.join(f"{path}.checkpoints", ck))
    assert saved.computed == a.checked_to[0] > 0  # the values computed before the timeout were kept
    assert (saved.values(1000) == gr.TakeAndBreak("0.106").values(1000)).all()
    same = gr.survey(["0.106"], max_n=2**24, timeout=1.0, store=path, progress=False)
    assert same.attrs["computed"] == 0  # the same timeout: the row is final
    longer = gr.survey(["0.106"], max_n=2**24, timeout=2.0, store=path, progress=False)
    # Recomputed (more time), starting from the checkpoint: it never ends below where it was.
    assert longer.attrs["computed"] == 1 and longer.checked_to[0] >= a.checked_to[0]


def test_a_failing_game_gets_an_error_row_and_the_survey_goes_on():
    """Issue 32, fault 7: a looping HeapGame aborted the survey with no table."""
    looping = gr.HeapGame(lambda n: [(n,)])
    df = gr.survey(["0.77", looping, "0.07"], max_n=2**10, progress=False)
    assert df.status.tolist() == ["proven", "error", "proven"]
    assert "smaller heaps" in df.error[1]  # the game's own message, after its exception's name
    assert pd.isna(df.error[0]) and pd.isna(df.period[1]) and pd.isna(df.same_as[1])


def test_arguments_are_checked_before_any_game_runs():
    """Issue 32, faults 3 and 9: max_n=2**70 and threads=0 were accepted."""
    def never(n, k):
        raise AssertionError("a game ran")

    games = [gr.Subtraction(allowed=never)]
    with pytest.raises(gr.GrundyError, match="max_n") as e:
        gr.survey(games, max_n=2**70)
    assert isinstance(e.value, ValueError)
    with pytest.raises(ValueError, match="threads"):
        gr.survey(games, threads=0)
    with pytest.raises(TypeError, match="threads"):
        gr.survey(games, threads=1.5)
    for bad in (0, -1.0, float("-inf"), float("nan")):
        with pytest.raises(gr.GrundyError, match="timeout") as e:
            gr.survey(games, timeout=bad)
        assert isinstance(e.value, ValueError)
    with pytest.raises(ValueError, match="nan"):
        gr.survey(games, timeout=float("nan"))


def test_an_infinite_timeout_is_no_timeout():
    """Issue 32, fault 9: timeout=inf was called "not positive"; it means no limit, as None does."""
    a = gr.survey(["0.77", "0.6"], max_n=2**11, timeout=float("inf"), progress=False)
    b = gr.survey(["0.77", "0.6"], max_n=2**11, progress=False)
    pd.testing.assert_frame_equal(a.drop(columns="seconds"), b.drop(columns="seconds"))


def test_a_surveyed_game_object_is_left_as_it_was():
    """The survey ran the caller's game through its own run (deadline, stop signal): once the survey
    is over, that game computes as before (it raised the survey's stop or timeout)."""
    game = gr.Subtraction(allowed=lambda n, k: k in (1, 4))
    gr.survey([game], max_n=2**10, timeout=60, progress=False)
    assert "_run" not in vars(game)
    assert game.values(2000).tolist() == gr.Subtraction([1, 4]).values(2000).tolist()


def test_a_survey_patches_no_game_and_leaves_no_hook_behind():
    """The worker's timed run and board watch live in context variables set for its one game: the
    game objects are never patched (another thread using them is not affected), and the variables
    are back to None after the survey, a timed-out game's included."""
    from grundy.games.board import search
    from grundy.games.heap import run

    heap = gr.Subtraction(allowed=lambda n, k: k in (1, 2))
    board = gr.node_kayles(path=6)
    df = gr.survey([heap, board], max_n=2**10, timeout=60, progress=False)
    assert list(df["status"]) == ["observed", "solved"]  # a rule in Python: no proof of its period
    assert not {"_run", "_bar"} & (set(vars(heap)) | set(vars(board)))  # their methods, not the worker's
    assert run.RUN_FACTORY.get() is None and search.BAR.get() is None
    assert board.value() == gr.TakeAndBreak("0.137").value(6)


def test_survey_errors_are_in_the_family(tmp_path):
    """Issue 32, fault 7: the survey's own argument checks raised plain TypeError, ValueError,
    FileNotFoundError, or an AttributeError (survey_summary(-1)); progress=-1 was accepted."""
    callable_game = gr.Subtraction(allowed=lambda n, k: True)
    cases = [
        (lambda: gr.survey(-1), gr.ArgumentTypeError, TypeError),
        (lambda: gr.survey(None), gr.ArgumentTypeError, TypeError),
        (lambda: gr.survey([3.5]), gr.ArgumentTypeError, TypeError),
        (lambda: gr.survey(["0.7"], progress=-1), gr.ArgumentTypeError, TypeError),
        (lambda: gr.survey(["0.7"], max_n=2**70), gr.TooLargeError, OverflowError),
        (lambda: gr.survey(["0.7"], max_n=2**63), gr.TooLargeError, ValueError),
        (lambda: gr.survey(["0.7"], timeout="1"), gr.ArgumentTypeError, TypeError),
        (lambda: gr.survey(["0.7"], timeout=-1), gr.ArgumentError, ValueError),
        (lambda: gr.survey(["0.7"], executor=3), gr.ArgumentTypeError, TypeError),
        (lambda: gr.survey(["0.7"], checkpoints=3), gr.ArgumentTypeError, TypeError),
        (lambda: gr.survey(["0.7"], checkpoints=True), gr.ArgumentError, ValueError),
        (lambda: gr.survey("0.?", hexadecimal="yes"), gr.ArgumentTypeError, TypeError),
        (lambda: gr.survey([callable_game], store=tmp_path / "s.sqlite"), gr.ArgumentTypeError, TypeError),
        (lambda: gr.survey(["0.7"], store=3), gr.ArgumentTypeError, TypeError),
        (lambda: gr.survey(["0.7"], store=tmp_path / "no" / "s.sqlite"), gr.MissingFileError, FileNotFoundError),
        (lambda: gr.survey_summary(-1), gr.ArgumentTypeError, TypeError),
        (lambda: gr.survey_summary(pd.DataFrame({"x": [1]})), gr.ArgumentError, ValueError),
        (lambda: gr.load_survey(-1), gr.ArgumentTypeError, TypeError),
        (lambda: gr.load_survey(tmp_path / "missing.sqlite"), gr.MissingFileError, FileNotFoundError),
        (lambda: expand("0." + "?" * 9), gr.ArgumentError, ValueError),
        (lambda: expand(3), gr.ArgumentTypeError, TypeError),
    ]
    for call, cls, builtin in cases:
        with pytest.raises(cls) as e:
            call()
        assert isinstance(e.value, builtin)
    with concurrent.futures.ThreadPoolExecutor(1) as ex:
        with pytest.raises(gr.ArgumentTypeError, match="in-process"):
            gr.survey([callable_game], executor=ex)
    assert os.listdir(tmp_path) == []  # nothing was written


def test_a_pattern_that_matches_no_code_is_refused():
    """A pattern is one argument: when no code of it parses, survey raises its CodeError (in a
    list, each code that does not parse gets an error row instead); it returned a table of errors."""
    with pytest.raises(gr.CodeError) as e:
        gr.survey("x", progress=False)
    assert (e.value.code, e.value.position) == ("x", 0)
    with pytest.raises(gr.CodeError, match="pattern '0.x\\?' matches no valid code") as e:
        gr.survey("0.x?", progress=False)
    assert (e.value.code, e.value.position) == ("0.x?", 2)
    df = gr.survey(["x"], max_n=2**10, progress=False)
    assert df.status.tolist() == ["error"] and df.error[0].startswith("CodeError")


def test_checkpoints_that_name_a_file_are_refused(tmp_path):
    (tmp_path / "f").write_text("")
    with pytest.raises(gr.ArgumentError, match="must be a folder"):
        gr.survey(["0.77"], max_n=64, checkpoints=tmp_path / "f", progress=False)
    assert (tmp_path / "f").read_text() == ""
