"""Surveys: known rows, patterns, error rows, interruption, and a real Dask cluster."""

import concurrent.futures
import multiprocessing

import pandas as pd
import pytest

import grundy as gr
from grundy._survey import COLUMNS, expand

KNOWN = {"0.77": (71, 12), "0.137": (52, 34), "0.45": (498, 20), "0.156": (3479, 349)}


def test_known_rows():
    df = gr.survey(list(KNOWN), progress=False)
    assert list(df.columns) == COLUMNS
    for code, (pre, per) in KNOWN.items():
        row = df[df.code == code].iloc[0]
        assert (row.preperiod, row.period, row.saltus, bool(row.proven)) == (pre, per, 0, True)
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
    with pytest.raises(ValueError):
        expand("0." + "?" * 9)
    with pytest.raises(TypeError):
        gr.survey([3.5])


def test_pattern_survey_rows_and_same_as():
    df = gr.survey("0.?7", max_n=2**12, progress=False)
    assert df.code.tolist() == ["0.07", "0.17", "0.27", "0.37", "0.47", "0.57", "0.67", "0.77"]
    assert df.set_index("code").loc["0.07", "period"] == 34
    # Each same_as points at an earlier game with equal values over the common range.
    games = {c: gr.TakeAndBreak(c) for c in df.code}
    for _, r in df.iterrows():
        if isinstance(r.same_as, str):
            assert df.code.tolist().index(r.same_as) < df.code.tolist().index(r.code)
            n = min(r.checked_to, df.set_index("code").loc[r.same_as, "checked_to"])
            assert (games[r.code].values(n) == games[r.same_as].values(n)).all()


def test_bad_code_gets_an_error_row():
    df = gr.survey(["0.77", "0.7x", "0..1"], max_n=2**10, progress=False)
    assert df.code.tolist() == ["0.77", "0.7x", "0..1"]
    assert pd.isna(df.error[0])
    assert "position 3" in df.error[1] and "CodeError" in df.error[1]
    assert pd.isna(df.period[1])


def test_games_and_callables_in_process():
    df = gr.survey([gr.kayles(), gr.Subtraction([1, 2, 3]), gr.Subtraction(allowed=lambda n, k: k in (1, 4))],
                   max_n=2**11, progress=False)
    assert df.period.tolist() == [12, 4, 5]
    assert df.proven.tolist() == [True, True, False]
    with pytest.raises(TypeError):
        with concurrent.futures.ThreadPoolExecutor(1) as ex:
            gr.survey([gr.Subtraction(allowed=lambda n, k: True)], executor=ex)


def test_interrupt_keeps_finished_rows():
    def stop(n, k):
        raise KeyboardInterrupt

    with pytest.warns(UserWarning, match="interrupted"):
        df = gr.survey(["0.77", gr.Subtraction(allowed=stop), "0.137"], max_n=2**10, threads=1, progress=False)
    assert df.attrs["interrupted"]
    assert "0.77" in df.code.tolist()
    assert len(df) < 3


def test_executor_table_equals_in_process():
    codes = ["0.77", "0.137", "0.7x", "0.15", "0.51"]
    a = gr.survey(codes, max_n=2**12, progress=False)
    # "spawn": a forked child would inherit rayon's thread pool without its threads.
    ctx = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=ctx) as ex:
        b = gr.survey(codes, max_n=2**12, executor=ex, progress=False)
    pd.testing.assert_frame_equal(a.drop(columns="seconds"), b.drop(columns="seconds"))


def test_dask_cluster_table_equals_in_process():
    distributed = pytest.importorskip("distributed")
    codes = expand("0.?6") + ["0.7x", gr.Subtraction([1, 3, 4])]
    local = gr.survey(codes, max_n=2**12, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        remote = gr.survey(codes, max_n=2**12, executor=client, progress=False)
        assert len(client.scheduler_info()["workers"]) == 2
    pd.testing.assert_frame_equal(local.drop(columns="seconds"), remote.drop(columns="seconds"))
