"""Surveys that lose their driver or a worker midway: the table comes out the same, and nothing
finished is computed twice."""

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time

import pandas as pd
import pytest

import grundy as gr

FAMILY = "0.1??"  # 64 games: a few seconds on one thread
MAX_N = 2**13


def stored_rows(path):
    """Rows in the store now (0 before the file exists); read as another process would."""
    if not os.path.exists(path):
        return 0
    try:
        with sqlite3.connect(path, timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.OperationalError:  # the table is not created yet
        return 0


def wait_for_rows(path, count, proc=None, limit=120):
    t = time.monotonic()
    while stored_rows(path) < count:
        assert proc is None or proc.poll() is None, "the survey ended before it could be killed"
        assert time.monotonic() - t < limit, "the survey made no progress"
        time.sleep(0.02)


def test_sigkill_of_the_driver_then_rerun(tmp_path):
    path = str(tmp_path / "s.sqlite")
    script = (
        "import grundy as gr\n"
        f"gr.survey({FAMILY!r}, max_n={MAX_N}, store={path!r}, threads=1, progress=False)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        wait_for_rows(path, 8, proc)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    before = stored_rows(path)
    total = len(set(gr.TakeAndBreak(c).code for c in gr.surveys.runner.expand(FAMILY)))
    assert 8 <= before < total  # killed midway
    resumed = gr.survey(FAMILY, max_n=MAX_N, store=path, progress=False)
    assert resumed.attrs["computed"] == total - before  # the finished games are not recomputed
    assert (gr.load_survey(path).computed == 1).all()  # every game computed exactly once in all
    fresh = gr.survey(FAMILY, max_n=MAX_N, progress=False)
    pd.testing.assert_frame_equal(resumed.drop(columns="seconds"), fresh.drop(columns="seconds"))


def test_ctrl_c_keeps_the_finished_rows_in_the_store(tmp_path):
    path = str(tmp_path / "s.sqlite")

    def interrupt():
        wait_for_rows(path, 3)
        os.kill(os.getpid(), signal.SIGINT)

    t = threading.Thread(target=interrupt)
    t.start()
    with pytest.warns(UserWarning, match="interrupted"):
        df = gr.survey(FAMILY, max_n=MAX_N, store=path, threads=1, progress=False)
    t.join()
    assert df.attrs["interrupted"] and 3 <= len(df) < 64
    stored = gr.load_survey(path)
    assert set(df.code) <= set(stored.code)
    assert df.attrs["computed"] <= len(stored)


def test_dask_worker_killed_mid_survey(tmp_path):
    distributed = pytest.importorskip("distributed")
    codes = gr.surveys.runner.expand(FAMILY) + ["0.7x", gr.Subtraction([1, 3, 4])]
    path = str(tmp_path / "s.sqlite")
    killed = []
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        pids = client.run(os.getpid)
        assert len(pids) == 2

        def kill_one():
            wait_for_rows(path, 5)
            pid = next(iter(pids.values()))
            os.kill(pid, signal.SIGKILL)
            killed.append(stored_rows(path))

        t = threading.Thread(target=kill_one)
        t.start()
        remote = gr.survey(codes, max_n=MAX_N, executor=client, store=path, progress=False)
        t.join()
        assert pids[next(iter(pids))] not in client.run(os.getpid).values()  # that worker is gone
    assert killed and killed[0] < len(remote) - 1  # it died while games were left
    local = gr.survey(codes, max_n=MAX_N, progress=False)
    pd.testing.assert_frame_equal(local.drop(columns="seconds"), remote.drop(columns="seconds"))


def test_waiting_on_dask_futures_does_not_grow_the_driver():
    """The survey's wait loop polls many times per game: each poll must cost no lasting memory.

    ``distributed.wait(..., timeout=)`` in a loop kept a task per pending future at each call (about
    150 kB per call with 64 futures), so a long survey's driver grew to gigabytes.
    """
    import tracemalloc

    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        finished = gr.surveys.runner._Finished()
        slow = {client.submit(time.sleep, 3 + i / 1000, pure=False): i for i in range(64)}
        for f in slow:
            finished.add(f)
        finished.ready(slow)  # the first call may allocate for good (imports, the iterator)
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            for _ in range(40):
                assert finished.ready(slow) == []
            grown = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        assert grown < 500_000, f"{grown} bytes kept by 40 polls"
        client.cancel(list(slow))
        finished.close()
        quick = gr.surveys.runner._Finished()
        futures = {client.submit(abs, -i, pure=False): i for i in range(8)}
        for f in futures:
            quick.add(f)
        seen: list = []
        deadline = time.monotonic() + 30
        while len(seen) < len(futures) and time.monotonic() < deadline:
            seen += quick.ready({f: futures[f] for f in futures if f not in seen})
        assert sorted(f.result() for f in seen) == list(range(8))


# -- Ctrl-C stops every game of the survey (issue 32, fault 3) --------------------------------------
LONG = ["0.6", "0.77"]  # 0.6 has no period: at 2^27 it runs for minutes

IN_PROCESS = f"gr.survey({LONG!r}, max_n=2**27, store={{store!r}}, threads=2, progress=False)"
IN_WORKERS = (
    "import concurrent.futures, multiprocessing\n"
    "with concurrent.futures.ProcessPoolExecutor(2, mp_context=multiprocessing.get_context('spawn')) as ex:\n"
    f"    df = gr.survey({LONG!r}, max_n=2**27, store={{store!r}}, executor=ex, progress=False)\n"
)


@pytest.mark.parametrize("target", [IN_PROCESS, IN_WORKERS], ids=["threads", "worker-processes"])
def test_ctrl_c_stops_the_games_in_flight(tmp_path, target):
    """After Ctrl-C the survey returns and no game goes on: the interpreter exits at once (it waited
    for the thread computing 0.6, and a worker process went on computing it)."""
    import psutil

    store = str(tmp_path / "s.sqlite")
    script = "import warnings\nwarnings.simplefilter('ignore')\nimport grundy as gr\n" + target.format(store=store)
    proc = subprocess.Popen([sys.executable, "-c", script], start_new_session=True)
    try:
        wait_for_rows(store, 1, proc)  # 0.77 is stored; 0.6 runs
        time.sleep(0.3)
        family = psutil.Process(proc.pid).children(recursive=True)
        proc.send_signal(signal.SIGINT)  # the driver alone, as Jupyter's interrupt
        assert proc.wait(timeout=10) == 0  # the survey returned its table, and the script ended
        _, alive = psutil.wait_procs(family, timeout=5)
        assert not alive
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert stored_rows(store) == 1


def test_a_survey_stopped_by_an_error_stops_its_other_games():
    """An unexpected error of one game propagates at once: the game in flight (0.6, for minutes)
    does not keep the interpreter from exiting."""
    script = (
        "import grundy as gr\n"
        "def boom(n, k):\n"
        "    raise RuntimeError('a bug, not a game error')\n"
        "gr.survey(['0.6', gr.Subtraction(allowed=boom)], max_n=2**27, threads=2, progress=False)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "RuntimeError: a bug" in done.stderr


def test_ctrl_c_stops_the_games_on_a_dask_cluster(tmp_path):
    """Dask cannot stop a running task when its future is cancelled: the game sees the survey's stop
    signal instead, so the worker is free at once (it computed 0.6 for minutes)."""
    distributed = pytest.importorskip("distributed")
    path = str(tmp_path / "s.sqlite")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:

        def interrupt():
            wait_for_rows(path, 1)
            time.sleep(0.3)
            os.kill(os.getpid(), signal.SIGINT)

        t = threading.Thread(target=interrupt)
        t.start()
        with pytest.warns(UserWarning, match="interrupted"):
            df = gr.survey(["0.77", "0.6"], max_n=2**27, executor=client, store=path, progress=False)
        t.join()
        assert df.attrs["interrupted"] and df.code.tolist() == ["0.77"]
        assert client.submit(abs, -1, pure=False).result(timeout=30) == 1  # the one worker thread is free
