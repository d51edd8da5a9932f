"""SIGINT (Ctrl-C, as Jupyter's interrupt sends it: to the process alone) and SIGKILL at random
moments of long computations run in a subprocess (issue 32).

After the signal the process exits within ``EXIT_WITHIN`` seconds and no process it started keeps
running; where the target saves its state (a checkpoint, a survey store), a rerun resumes from it and
gives the same results as a clean run, with nothing finished lost or computed twice.
"""

from __future__ import annotations

import signal
import sqlite3

import numpy as np
import pandas as pd
import pytest
from conftest import rng, signal_target

import grundy as gr

pytestmark = pytest.mark.slow

SIGNALS = [pytest.param(signal.SIGINT, id="SIGINT"), pytest.param(signal.SIGKILL, id="SIGKILL")]

# -- values and periodicity ----------------------------------------------------------------------------
PERIOD_CODE, PERIOD_MAX_N = "0.6", 2**20  # no period: the search runs to max_n (1 to 3 s)


@pytest.fixture(scope="module")
def clean_periodicity():
    g = gr.TakeAndBreak(PERIOD_CODE)
    p = g.periodicity(max_n=PERIOD_MAX_N, progress=False)
    return p, g.values(p.checked_to, progress=False)


@pytest.mark.parametrize("sig", SIGNALS)
def test_values(tmp_path, sig):
    code = "started()\ngr.grundys_game().values(2**26, progress=False)\n"
    signal_target(tmp_path, code, sig, (0.05, 1.5), f"values-{sig.name}")


@pytest.mark.parametrize("sig", SIGNALS)
def test_periodicity_with_a_checkpoint(tmp_path, sig, clean_periodicity):
    path = tmp_path / "ck.npz"
    code = (
        f"g = gr.TakeAndBreak({PERIOD_CODE!r})\n"
        "started()\n"
        f"g.periodicity(max_n={PERIOD_MAX_N}, checkpoint={str(path)!r}, checkpoint_every=0.1, progress=False)\n"
    )
    # From its first checkpoint (after 0.1 s) on: a moment of the search, not of its start.
    signal_target(tmp_path, code, sig, (0.0, 0.3), f"periodicity-{sig.name}", path.exists)
    p, values = clean_periodicity
    if sig == signal.SIGINT:
        assert path.exists()  # Ctrl-C writes a last checkpoint
    if path.exists():  # what the file holds is right (a kill leaves the old file or the new one)
        saved = gr.load(path)
        assert np.array_equal(saved.values(saved.computed), values[: saved.computed])
    g = gr.TakeAndBreak(PERIOD_CODE)
    assert g.periodicity(max_n=PERIOD_MAX_N, checkpoint=path, progress=False) == p
    assert np.array_equal(g.values(p.checked_to), values)


# -- surveys with a store --------------------------------------------------------------------------------
FAMILY, SURVEY_MAX_N = "0.1??", 2**13  # 64 games: about a second on one thread


@pytest.fixture(scope="module")
def clean_survey():
    return gr.survey(FAMILY, max_n=SURVEY_MAX_N, progress=False)


def stored_rows(store):
    """Rows in the store now, read as another process would (0 before it has any)."""
    try:
        with sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0


def check_store_resumes(store, clean):
    resumed = gr.survey(FAMILY, max_n=SURVEY_MAX_N, store=store, progress=False)
    pd.testing.assert_frame_equal(resumed.drop(columns="seconds"), clean.drop(columns="seconds"))
    assert (gr.load_survey(store).computed == 1).all()  # no finished game was computed twice


def after_rows(store, name):
    """Ready once a random number of the family's rows (seeded) are stored: a moment of the survey
    whatever the machine's speed."""
    rows = rng(f"{name}-rows").randrange(1, 48)
    return lambda: stored_rows(store) >= rows


@pytest.mark.parametrize("sig", SIGNALS)
def test_survey_in_process(tmp_path, sig, clean_survey):
    store = tmp_path / "s.sqlite"
    code = f"started()\ngr.survey({FAMILY!r}, max_n={SURVEY_MAX_N}, store={str(store)!r}, threads=2, progress=False)\n"
    name = f"survey-{sig.name}"
    signal_target(tmp_path, code, sig, (0.0, 0.02), name, after_rows(store, name))
    check_store_resumes(store, clean_survey)


@pytest.mark.parametrize("sig", SIGNALS)
def test_survey_in_worker_processes(tmp_path, sig, clean_survey):
    store = tmp_path / "s.sqlite"
    code = (
        "import concurrent.futures, multiprocessing\n"
        "ctx = multiprocessing.get_context('spawn')\n"
        "with concurrent.futures.ProcessPoolExecutor(2, mp_context=ctx) as ex:\n"
        "    list(ex.map(abs, range(2)))  # the workers are up\n"
        "    started()\n"
        f"    gr.survey({FAMILY!r}, max_n={SURVEY_MAX_N}, store={str(store)!r}, executor=ex, progress=False)\n"
    )
    # Signalled once rows are stored, so that both workers have had games (a ProcessPoolExecutor
    # whose owner is killed before any survey game reached a worker leaves that worker waiting for
    # work: CPython's behaviour, with no grundy code in the worker to notice).
    name = f"survey-processes-{sig.name}"
    signal_target(tmp_path, code, sig, (0.0, 0.02), name, after_rows(store, name))
    check_store_resumes(store, clean_survey)


# -- misère quotients and state games ------------------------------------------------------------------
@pytest.mark.parametrize("sig", SIGNALS)
def test_misere_quotient(tmp_path, sig):
    code = "started()\ngr.misere_quotient(gr.dawsons_kayles(), 34, progress=False)\n"  # minutes, or never
    signal_target(tmp_path, code, sig, (0.05, 1.5), f"misere-quotient-{sig.name}")


@pytest.mark.parametrize("sig", SIGNALS)
def test_state_game(tmp_path, sig):
    # Clear one set bit of a 20-bit word: 2^20 states, several seconds of exploration.
    code = (
        "g = gr.StateGame(lambda s: [s & ~(1 << i) for i in range(20) if s >> i & 1], progress=False)\n"
        "started()\n"
        "g.value(2**20 - 1)\n"
    )
    signal_target(tmp_path, code, sig, (0.05, 0.8), f"state-game-{sig.name}")
