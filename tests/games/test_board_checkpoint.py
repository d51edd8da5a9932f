"""Long board searches: the progress note, and checkpoints to stop and resume (``value(checkpoint=)``).

A search stopped (here by a bar that raises KeyboardInterrupt after some nodes, as Ctrl-C does; or by
kill -9 of a process) and resumed from its checkpoint gives the value of a fresh search, in fewer
nodes; a file that is not a whole checkpoint of the game and position raises InvalidFileError and is
left as it was. The file's own format (round trip, truncation, corrupt bytes, foreign files, a write
beside a parallel search) is tested in Rust (``nimber_search::checkpoint``).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

import grundy as gr
from grundy.games.board import search as board_search

MIB = 1 << 20


class _Stop:
    """A bar that stops the search (as Ctrl-C does) once it has searched ``after`` nodes."""

    def __init__(self, after: int) -> None:
        self.after, self.seen = after, 0

    def update(self, done: int, **_: object) -> None:
        self.seen = done
        if done >= self.after:
            raise KeyboardInterrupt

    def close(self, *_: object) -> None:
        pass


def _fresh(make, method="value", threads=1):
    g = make()
    r = getattr(g, method)(threads=threads)
    return r, g.stats()["nodes"]


def _interrupted(make, path, after, method="value", threads=1):
    g = make()
    g._bar = lambda: _Stop(after)
    with pytest.raises(KeyboardInterrupt):
        getattr(g, method)(threads=threads, checkpoint=path)
    assert os.path.exists(path)
    return g


@pytest.mark.parametrize("threads", [1, 2])
def test_a_stopped_search_resumes_with_the_same_value_in_fewer_nodes(tmp_path, threads):
    def make():
        return gr.cram(5, 7, memory=16 * MIB)

    want, nodes = _fresh(make, threads=threads)
    path = tmp_path / "cram57.ckpt"
    _interrupted(make, path, nodes // 3, threads=threads)
    g = make()
    assert g.value(threads=threads, checkpoint=path) == want
    assert 0 < g.stats()["nodes"] < nodes
    # The answer is in the file now: the same call answers without a search, and so does outcome().
    again = make()
    assert again.value(checkpoint=path) == want and again.outcome(checkpoint=str(path)) == ("P" if want == 0 else "N")
    assert again.stats()["nodes"] == 0


def test_outcome_resumes_too(tmp_path):
    def make():
        return gr.cram(5, 7, memory=16 * MIB)

    want, nodes = _fresh(make, "outcome")
    path = tmp_path / "cram57.ckpt"
    _interrupted(make, path, nodes // 2, "outcome")
    g = make()
    assert g.outcome(threads=1, checkpoint=path) == want
    assert g.stats()["nodes"] < nodes


def test_winning_options_resume_and_are_answered_from_the_file(tmp_path):
    def make():
        return gr.cram(5, 7, memory=16 * MIB)

    g = make()
    want = g.winning_options(threads=1)
    nodes = g.stats()["nodes"]
    path = tmp_path / "cram57.ckpt"
    _interrupted(make, path, nodes // 2, "winning_options")
    g = make()
    assert g.winning_options(threads=1, checkpoint=path) == want
    assert 0 < g.stats()["nodes"] < nodes
    assert board_search.record(path)["result"]["target"] == 0
    g = make()
    assert g.winning_options(threads=1, checkpoint=path) == want and g.stats()["nodes"] == 0  # from the file
    # Another target is not answered by the file, but its table serves: fewer nodes than fresh.
    fresh = make()
    other = fresh.winning_options(target=1, threads=1)
    g = make()
    assert g.winning_options(target=1, threads=1, checkpoint=path) == other
    assert g.stats()["nodes"] < fresh.stats()["nodes"]


_CHILD = """
import sys, grundy as gr
g = gr.cram(5, 8, memory=64 << 20)
print(g.value(threads=1, checkpoint=sys.argv[1], checkpoint_every=0.2), flush=True)
"""


def test_kill_9_during_a_run_then_resume(tmp_path):
    want, nodes = _fresh(lambda: gr.cram(5, 8, memory=64 * MIB))
    path = tmp_path / "cram58.ckpt"
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(path)], stdout=subprocess.PIPE)
    try:
        # Wait for a second checkpoint (the first may come before much is searched), then kill.
        deadline = time.monotonic() + 60
        first = None
        while time.monotonic() < deadline and child.poll() is None:
            if os.path.exists(path):
                m = os.stat(path).st_mtime_ns
                if first is None:
                    first = m
                elif m != first:
                    break
            time.sleep(0.02)
        assert child.poll() is None, "the search ended before it could be killed"
        child.send_signal(signal.SIGKILL)
    finally:
        child.wait()
    g = gr.cram(5, 8, memory=64 * MIB)
    assert g.value(threads=1, checkpoint=path) == want
    assert g.stats()["nodes"] < nodes
    # No temporary file left behind by the writes (the one a kill interrupted aside).
    assert [p.name for p in tmp_path.iterdir() if not p.name.startswith(".")] == ["cram58.ckpt"]


def _checkpoint_of(path, make=lambda: gr.cram(4, 5, memory=MIB)):
    g = make()
    g.value(checkpoint=path)
    return path.read_bytes()


def _refused(path, make=lambda: gr.cram(4, 5, memory=MIB), match=None):
    before = path.read_bytes()
    g = make()
    with pytest.raises(gr.InvalidFileError, match=match):
        g.value(checkpoint=path)
    assert path.read_bytes() == before  # left as it was
    assert g.value() == make().value()  # the game still answers right


def test_corrupt_truncated_and_foreign_files_are_refused_and_left_alone(tmp_path):
    path = tmp_path / "c.ckpt"
    good = _checkpoint_of(path)
    for i in (len(good) // 2, len(good) - 6, 20):
        bad = bytearray(good)
        bad[i] ^= 0x10
        path.write_bytes(bytes(bad))
        _refused(path, match="not a valid grundy file")
    for cut in (0, 10, len(good) // 2, len(good) - 1):
        path.write_bytes(good[:cut])
        _refused(path, match="not a valid grundy file")
    path.write_bytes(b"hello, not a checkpoint")
    _refused(path, match="not a grundy search checkpoint")
    gr.save(gr.kayles(), path)  # a grundy file, but no checkpoint
    _refused(path, match="not a grundy search checkpoint")
    # Another game's checkpoint, and another position's.
    path.write_bytes(good)
    _refused(path, make=lambda: gr.cram(4, 4, memory=MIB), match="holds a search of cram")
    g = gr.cram(4, 5, memory=MIB)
    before = path.read_bytes()
    with pytest.raises(gr.InvalidFileError, match="another position"):
        g.value([[1, 0, 0, 0, 0]] + [[0] * 5] * 3, checkpoint=path)
    assert path.read_bytes() == before


def test_a_failed_write_leaves_the_previous_checkpoint_whole(tmp_path):
    path = tmp_path / "c.ckpt"
    good = _checkpoint_of(path)
    g = gr.cram(4, 5, memory=MIB)
    ck = board_search.Checkpoint(g, "value", (int(g._core.start),), path, 600)

    class Broken:
        def write(self, f, meta):
            f.write(b"GRUNDYTT half a file")
            raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        ck.write(Broken(), 0)
    assert path.read_bytes() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.ckpt"]


def test_a_slow_write_stretches_the_interval_to_twenty_times_its_time(tmp_path, monkeypatch):
    # A write holds up a search's thread (an 8 GiB table: about 80 s), so the next one waits
    # WRITE_SHARE times as long when that is more than checkpoint_every; a quick one restores it.
    clock = [1000.0]

    class Clock:  # the module's clock only (``time`` itself is left alone)
        monotonic = staticmethod(lambda: clock[0])
        process_time, strftime, gmtime = time.process_time, time.strftime, time.gmtime

    monkeypatch.setattr(board_search, "time", Clock)
    g = gr.cram(3, 3, memory=MIB)
    ck = board_search.Checkpoint(g, "value", (int(g._core.start),), tmp_path / "c.ckpt", 10)
    writes = []

    class Table:
        cost = 2.0

        def write(self, f, meta):
            f.write(meta)
            writes.append(clock[0])
            clock[0] += self.cost

    table = Table()

    def at(seconds_after_the_last):
        clock[0] = ck.last + seconds_after_the_last
        ck.tick(table, 0)
        return len(writes)

    assert at(10) == 1  # the first write, after checkpoint_every: it takes 2 s
    assert ck.interval == 40 == board_search.WRITE_SHARE * 2
    assert at(39.9) == 1
    table.cost = 0.1
    assert at(40) == 2  # a quick one: back to checkpoint_every
    assert ck.interval == 10
    assert at(9.9) == 2
    assert at(10) == 3
    assert (tmp_path / "c.ckpt").exists()


def test_checkpoint_arguments_are_checked(tmp_path):
    g = gr.cram(3, 3, memory=MIB)
    with pytest.raises(gr.ArgumentError):
        g.value(checkpoint=tmp_path / "x", checkpoint_every=0)
    with pytest.raises(gr.ArgumentTypeError):
        g.value(checkpoint=tmp_path / "x", checkpoint_every="often")
    with pytest.raises(gr.ArgumentTypeError):
        g.value(checkpoint=3)
    with pytest.raises(gr.FilePermissionError, match="cannot be written"):  # as a heap game's checkpoint
        g.value(checkpoint=tmp_path / "no" / "such" / "folder")


def test_the_progress_note_shows_the_table_and_the_root():
    g = gr.cram(5, 6, memory=4 * MIB)
    watch = g._core.watch()
    assert watch.root() is None
    assert board_search.note(watch).startswith("table 0% full (0 entries")
    g.value(threads=1)
    root = watch.root()
    assert root["cells"] == int(g._core.start) and root["options"] == len(g.options())
    assert root["settled"] <= root["options"] and sum(root["values"]) + root["outside"] == root["settled"]
    entries, capacity, nbytes = watch.table()
    assert entries == g.stats()["table_entries"] and nbytes <= 4 * MIB
    text = board_search.note(watch)
    assert f"{entries:,} entries" in text and f"/{root['options']} options settled" in text
    # The bar, drawn: its note comes with the node counts.
    seen = []

    class Bar:
        mode = True

        def update(self, done, note=None):
            seen.append(note)

        def close(self, *_):
            pass

    h = gr.cram(5, 7, memory=4 * MIB)
    h._bar = Bar
    h.value(threads=1)
    assert seen and all(n.startswith("table ") for n in seen)


class _SlowFile:
    """A binary file that reads slowly, as a file of gigabytes does (1 KiB a read, 2 ms: seconds here)."""

    def __init__(self, f):
        self.f = f

    def read(self, n=-1):
        time.sleep(0.002)
        return self.f.read(min(n, 1024) if n >= 0 else 1024)

    def seek(self, *a):
        return self.f.seek(*a)

    def tell(self):
        return self.f.tell()

    def __enter__(self):
        return self

    def __exit__(self, *a):
        self.f.close()


@pytest.mark.parametrize("stage", ["header", "load"])
def test_ctrl_c_stops_a_long_checkpoint_read_and_leaves_the_file(tmp_path, monkeypatch, stage):
    import _thread
    import threading

    from grundy.io import checkpoint as files

    path = str(tmp_path / "c.ckpt")
    _interrupted(lambda: gr.cram(5, 7, memory=16 * MIB), path, after=100_000)
    before = open(path, "rb").read()
    assert len(before) > 1 << 20
    opened = files._open
    monkeypatch.setattr(files, "_open", lambda p: _SlowFile(opened(p)))
    header = gr._core.checkpoint_header
    if stage == "load":  # the header read at full speed: the interrupt comes while the tables load
        monkeypatch.setattr(gr._core, "checkpoint_header", lambda f: header(f.f))
    g = gr.cram(5, 7, memory=16 * MIB, progress=False)
    threading.Timer(0.3, _thread.interrupt_main).start()
    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        g.value(threads=1, checkpoint=path)
    assert time.monotonic() - t0 < 1.5  # a whole slow read of the file takes over 2 s
    assert open(path, "rb").read() == before  # left as it was
    assert g.stats()["table_entries"] == 0  # nothing half loaded
    monkeypatch.undo()
    assert g.value(threads=1, checkpoint=path) == _fresh(lambda: gr.cram(5, 7, memory=16 * MIB))[0]
