"""Surveys of board games: a row per board with the start's value, in the store, resumable after kill -9."""

import signal
import subprocess
import sys

import pandas as pd
import pytest
from test_survey_faults import stored_rows, wait_for_rows

import grundy as gr

MIB = 1 << 20


def _family():
    """Fast boards, one that takes a second or more on one thread (Cram 5 x 7), then fast ones again."""
    fast = [gr.cram(r, c) for r in range(1, 5) for c in range(2, 7)]
    late = [gr.node_kayles(grid=(r, c)) for r in (2, 3) for c in range(3, 7)] + [gr.chomp(3, c) for c in (3, 4, 5)]
    return fast, gr.cram(5, 7), late + [gr.node_kayles(path=20), gr.arc_kayles(cycle=11)]


def test_a_survey_of_boards_gives_their_values():
    fast, _, late = _family()
    games = fast[:6] + late + ["0.77"]
    df = gr.survey(games, progress=False, threads=2)
    boards = df.iloc[:-1]
    assert (boards.status == "solved").all() and boards.error.isna().all() and boards.same_as.isna().all()
    assert boards.code.tolist() == [repr(g) for g in fast[:6] + late]
    # Each value as the game itself finds it, on a fresh game (another table).
    want = [type(g)(g.kind, **_args(g)).value() for g in fast[:6] + late]
    assert boards.value.tolist() == want
    assert df.iloc[-1].period == 12 and pd.isna(df.iloc[-1].value)


def _args(g):
    kind, spec, grid, labels, edges, _, _ = g._args
    return {"spec": spec, "grid": grid, "labels": labels, "edges": edges, "memory": MIB}


def test_board_rows_are_stored_and_not_computed_again(tmp_path):
    path = str(tmp_path / "b.sqlite")
    fast, _, late = _family()
    first = gr.survey(fast[:4], store=path, progress=False)
    again = gr.survey(fast[:4] + late[:2], store=path, progress=False)
    assert again.attrs["computed"] == 2
    pd.testing.assert_frame_equal(first.drop(columns="seconds"), again.iloc[:4].drop(columns="seconds"))
    stored = gr.load_survey(path)
    assert stored.code.tolist() == [repr(g) for g in fast[:4] + late[:2]] and (stored.computed == 1).all()
    assert stored.value.tolist() == again.value.tolist()


def test_a_board_past_its_timeout_gets_a_timeout_row():
    df = gr.survey([gr.cram(5, 7), gr.cram(2, 2)], timeout=0.05, progress=False, threads=1)
    assert df.status.tolist() == ["timeout", "solved"] and pd.isna(df.value[0]) and df.value[1] == 0
    assert "timeout" in df.error[0]


def test_a_board_whose_labels_are_not_data_is_surveyed_in_process_only(tmp_path):
    odd = gr.node_kayles({frozenset({1}): [frozenset({2})]}, memory=MIB)
    assert gr.survey([odd], progress=False).value.tolist() == [1]  # an edge: one move takes both ends
    with pytest.raises(gr.ArgumentTypeError, match="cannot be stored"):
        gr.survey([odd], store=str(tmp_path / "s.sqlite"), progress=False)


@pytest.mark.slow
def test_sigkill_of_a_board_survey_then_rerun_loses_nothing(tmp_path):
    path = str(tmp_path / "boards.sqlite")
    fast, slow, late = _family()
    family = "[gr.cram(r, c) for r in range(1, 5) for c in range(2, 7)] + [gr.cram(5, 7)] + " + (
        "[gr.node_kayles(grid=(r, c)) for r in (2, 3) for c in range(3, 7)] + [gr.chomp(3, c) for c in (3, 4, 5)]"
        " + [gr.node_kayles(path=20), gr.arc_kayles(cycle=11)]"
    )
    script = f"import grundy as gr\ngr.survey({family}, store={path!r}, threads=1, progress=False)\n"
    games = [*fast, slow, *late]
    assert eval(family, {"gr": gr}) == games  # the child surveys this family
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        wait_for_rows(path, len(fast), proc)  # every fast board stored: Cram 5 x 7 is being searched
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    before = stored_rows(path)
    assert len(fast) <= before < len(games)  # killed midway
    resumed = gr.survey(games, store=path, progress=False, threads=1)
    assert resumed.attrs["computed"] == len(games) - before  # the stored boards are not searched again
    assert (gr.load_survey(path).computed == 1).all()  # each board searched exactly once in all
    fresh = gr.survey(games, progress=False, threads=1)
    pd.testing.assert_frame_equal(resumed.drop(columns="seconds"), fresh.drop(columns="seconds"))
    assert (resumed.status == "solved").all()
