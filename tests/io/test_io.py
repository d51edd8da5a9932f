"""Saving and loading games, the file format, damaged files, checkpoints and resuming."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import grundy as gr
from grundy import io as gio
from grundy.games.heap import run as _run

import oracle


def _with_values(game, n, period=False):
    game.values(n)
    if period:
        game.periodicity(max_n=4 * n)
    return game


def _rewrite(path, **changes):
    """Rewrites a saved file with some entries changed (``meta=`` a function on the metadata dict),
    recomputing the checksum unless ``sha256=`` is given."""
    with np.load(path, allow_pickle=False) as z:
        entries = {k: z[k] for k in z.files}
    meta = json.loads(entries["metadata"].tobytes())
    if "meta" in changes:
        changes.pop("meta")(meta)
    values = changes.pop("values", entries["values"])
    meta_bytes = json.dumps(meta).encode()
    digest = changes.pop("sha256", gio._checkpoint._digest(meta_bytes, values))
    with open(path, "wb") as f:
        np.savez_compressed(
            f,
            values=values,
            metadata=np.frombuffer(meta_bytes, dtype=np.uint8),
            sha256=np.frombuffer(digest.encode(), dtype=np.uint8),
        )


# -- round trips ----------------------------------------------------------------------------------
def test_round_trip_take_and_break_with_proven_period(tmp_path):
    g = _with_values(gr.kayles(), 3000, period=True)
    path = tmp_path / "kayles.npz"
    gr.save(g, path)
    h = gr.load(path)
    assert isinstance(h, gr.TakeAndBreak) and h == g and h.name == "Kayles"
    assert h.computed == g.computed  # cached: nothing to compute
    assert np.array_equal(h.values(g.computed), g.values(g.computed))
    p, q = g.known_periodicity, h.known_periodicity
    assert (q.preperiod, q.period, q.saltus, q.proven, q.checked_to, q.certificate) == (
        p.preperiod,
        p.period,
        p.saltus,
        p.proven,
        p.checked_to,
        p.certificate,
    )
    assert np.array_equal(q.base, p.base) and len(q.base) == p.period
    # The proven period is in use again: far values without any search.
    assert h.value(10**18) == g.value(10**18)
    # And the loaded game extends like a fresh one.
    assert np.array_equal(h.values(5000), gr.kayles().values(5000))


@pytest.mark.parametrize(
    "make",
    [
        lambda: gr.Subtraction([2, 5, 7]),
        lambda: gr.Subtraction.squares(),
        lambda: gr.Subtraction.all_but([1, 2]),
        lambda: gr.Subtraction.at_most_half(),
        lambda: gr.Subtraction.proper_divisors(),
        lambda: gr.TakeAndBreak("0.1[37]"),  # a repeated group: replayed on load
        lambda: gr.TakeAndBreak("0.4F"),  # three heaps: replayed on load
    ],
)
def test_round_trip_builtin_rules(tmp_path, make):
    g = _with_values(make(), 700, period=True)
    path = tmp_path / "g.npz"
    gr.save(g, path)
    h = gr.load(path)
    assert type(h) is type(g) and h == g and h.computed == g.computed
    assert h.known_periodicity == g.known_periodicity
    assert np.array_equal(h.values(900), make().values(900))


def test_round_trip_of_values_needing_32_bits(tmp_path):
    g = _with_values(gr.nim(), 70_000)
    gr.save(g, tmp_path / "nim.npz")
    h = gr.load(tmp_path / "nim.npz")
    assert h.values(70_000).dtype == np.uint32
    assert np.array_equal(h.values(70_010), np.arange(70_010))


def test_round_trip_without_a_period_and_without_values(tmp_path):
    g = gr.grundys_game()
    gr.save(g, tmp_path / "empty.npz")
    assert gr.load(tmp_path / "empty.npz").computed == 0
    p = g.periodicity(max_n=2048)
    assert p.period is None
    gr.save(g, tmp_path / "none.npz")
    q = gr.load(tmp_path / "none.npz").known_periodicity
    assert q.period is None and q.checked_to == p.checked_to and q.certificate == p.certificate


def test_the_file_is_plain_numpy_with_documented_metadata(tmp_path):
    g = _with_values(gr.TakeAndBreak("0.137"), 500, period=True)
    gr.save(g, tmp_path / "d.npz")
    with np.load(tmp_path / "d.npz", allow_pickle=False) as z:
        assert sorted(z.files) == ["metadata", "sha256", "values"]
        meta = json.loads(z["metadata"].tobytes())
        assert np.array_equal(z["values"], g.values(g.computed))
        assert z["sha256"].tobytes().decode() == gio._checkpoint._digest(z["metadata"].tobytes(), z["values"])
    assert meta["format"] == "grundy.game" and meta["format_version"] == gio.FORMAT_VERSION
    assert meta["rule"] == {"type": "take_and_break", "code": "0.137"}
    assert meta["count"] == g.computed and meta["package_version"] == gr.__version__
    per = meta["periodicity"]
    assert (per["preperiod"], per["period"], per["proven"]) == (52, 34, True)  # Winning Ways ch. 4


def test_rules_given_as_callables_cannot_be_saved(tmp_path):
    for g in (gr.Subtraction(allowed=lambda n, k: k <= 2), gr.HeapGame(lambda n: [(n - 1,)] if n else [])):
        g.values(10)
        with pytest.raises(TypeError, match="callable.*numpy.save"):
            gr.save(g, tmp_path / "x.npz")
        with pytest.raises(TypeError, match="callable"):
            g.values(20, checkpoint=tmp_path / "x.npz")
    assert not os.listdir(tmp_path)
    with pytest.raises(TypeError, match="numpy.save"):
        gr.save(np.arange(3), tmp_path / "a.npz")


def test_saving_is_atomic_and_leaves_no_temporary_files(tmp_path):
    path = tmp_path / "k.npz"
    gr.save(_with_values(gr.kayles(), 100), path)
    gr.save(_with_values(gr.kayles(), 300), path)  # replaces
    assert os.listdir(tmp_path) == ["k.npz"]
    assert gr.load(path).computed == 300
    with pytest.raises(FileNotFoundError):
        gr.save(gr.kayles(), tmp_path / "no" / "such" / "dir.npz")
    assert os.listdir(tmp_path) == ["k.npz"]


# -- damaged files --------------------------------------------------------------------------------
@pytest.fixture
def saved(tmp_path):
    g = _with_values(gr.TakeAndBreak("0.07"), 400, period=True)
    path = tmp_path / "g.npz"
    gr.save(g, path)
    return g, path


def test_every_flipped_byte_is_caught_or_harmless(saved, tmp_path):
    g, path = saved
    data = path.read_bytes()
    want = g.values(g.computed)
    bad = tmp_path / "bad.npz"
    caught = 0
    for i in range(len(data)):
        bad.write_bytes(data[:i] + bytes([data[i] ^ 0x5A]) + data[i + 1 :])
        try:
            h = gr.load(bad)
        except ValueError:
            caught += 1
            continue
        # Zip fields nothing reads (timestamps, ...) may change: the values never do.
        assert h.computed == g.computed and np.array_equal(h.values(h.computed), want), f"byte {i}"
        assert h.known_periodicity == g.known_periodicity
    assert caught > len(data) // 2


def test_truncated_files_are_caught(saved, tmp_path):
    _, path = saved
    data = path.read_bytes()
    bad = tmp_path / "cut.npz"
    for n in (0, 1, 10, len(data) // 2, len(data) - 22, len(data) - 1):
        bad.write_bytes(data[:n])
        with pytest.raises(ValueError, match="not a valid grundy file"):
            gr.load(bad)


def test_wrong_checksum_is_caught(saved):
    _, path = saved
    _rewrite(path, sha256="0" * 64)
    with pytest.raises(ValueError, match="checksum"):
        gr.load(path)


def test_changed_values_with_the_old_checksum_are_caught(saved):
    g, path = saved
    with np.load(path) as z:
        values, digest = z["values"].copy(), z["sha256"].tobytes().decode()
    values[200] ^= 1
    _rewrite(path, values=values, sha256=digest)
    with pytest.raises(ValueError, match="checksum"):
        gr.load(path)


@pytest.mark.parametrize("version", [gio.FORMAT_VERSION + 1, 0, "1", None])
def test_unknown_format_versions_are_refused(saved, version):
    _, path = saved
    _rewrite(path, meta=lambda m: m.__setitem__("format_version", version))
    with pytest.raises(ValueError, match="version"):
        gr.load(path)


def test_newer_version_says_to_upgrade(saved):
    _, path = saved
    _rewrite(path, meta=lambda m: m.__setitem__("format_version", 99))
    with pytest.raises(ValueError, match="upgrade grundy"):
        gr.load(path)


def test_values_of_another_rule_are_refused_even_with_a_valid_checksum(saved):
    _, path = saved
    # Dawson's Kayles' values relabelled as Kayles, checksum recomputed: the rule disagrees.
    _rewrite(path, meta=lambda m: m.update(rule={"type": "take_and_break", "code": "0.77"}, periodicity=None))
    with pytest.raises(ValueError, match="disagrees with the rule"):
        gr.load(path)


def test_a_false_period_is_refused_even_with_a_valid_checksum(saved):
    _, path = saved

    def lie(m):
        m["periodicity"]["period"] += 1

    _rewrite(path, meta=lie)
    with pytest.raises(ValueError, match="periodicity"):
        gr.load(path)


@pytest.mark.parametrize(
    "rule",
    [{"type": "take_and_break", "code": "0.9x"}, {"type": "octal"}, {"type": "subtraction", "kind": "finite"}, []],
)
def test_bad_rules_are_refused(saved, rule):
    _, path = saved
    _rewrite(path, meta=lambda m: m.update(rule=rule))
    with pytest.raises(ValueError, match="rule"):
        gr.load(path)


def test_count_and_metadata_must_agree(saved):
    _, path = saved
    _rewrite(path, meta=lambda m: m.update(count=m["count"] + 1))
    with pytest.raises(ValueError, match="count"):
        gr.load(path)


def test_other_files_are_refused(tmp_path):
    np.save(tmp_path / "plain.npy", np.arange(5))
    (tmp_path / "text.npz").write_text("hello")
    np.savez(tmp_path / "other.npz", values=np.arange(5))
    for name in ("plain.npy", "text.npz", "other.npz"):
        with pytest.raises(ValueError, match="not a valid grundy file"):
            gr.load(tmp_path / name)
    with pytest.raises(FileNotFoundError):
        gr.load(tmp_path / "missing.npz")
    with pytest.raises(TypeError):
        gr.load(3.5)


# -- checkpoints ----------------------------------------------------------------------------------
def test_checkpoint_written_and_reused(tmp_path, monkeypatch):
    path = tmp_path / "ck.npz"
    v = gr.TakeAndBreak("0.137").values(2000, checkpoint=path)
    assert gr.load(path).computed == 2000
    want = gr.TakeAndBreak("0.137").values(2500)
    starts = []
    ensure = _run.Run.ensure
    monkeypatch.setattr(
        _run.Run, "ensure", lambda self, n, *a: (starts.append(self.game.computed), ensure(self, n, *a))
    )
    g = gr.TakeAndBreak("0.137")
    assert np.array_equal(g.values(2000, checkpoint=path), v)
    assert np.array_equal(g.values(2500, checkpoint=path), want)
    assert starts == [2000, 2000]  # both calls started from the file's values
    assert gr.load(path).computed == 2500


def test_checkpoint_of_another_rule_is_refused(tmp_path):
    path = tmp_path / "ck.npz"
    gr.kayles().values(100, checkpoint=path)
    with pytest.raises(ValueError, match=r"0\.77.*not of TakeAndBreak\('0\.137'\)"):
        gr.TakeAndBreak("0.137").values(100, checkpoint=path)
    with pytest.raises(ValueError, match="another"):
        gr.Subtraction([1, 2]).periodicity(checkpoint=path)
    assert gr.load(path).computed == 100  # untouched


def test_damaged_checkpoint_is_refused_not_overwritten(tmp_path):
    path = tmp_path / "ck.npz"
    path.write_bytes(b"PK\x03\x04 garbage")
    with pytest.raises(ValueError, match="not a valid grundy file"):
        gr.kayles().values(100, checkpoint=path)
    assert path.read_bytes() == b"PK\x03\x04 garbage"


def test_checkpoint_disagreeing_with_computed_values_is_refused(tmp_path):
    path = tmp_path / "ck.npz"
    gr.save(_with_values(gr.kayles(), 200), path)
    with np.load(path) as z:
        values = z["values"].copy()
    values[5] ^= 1  # a consistent file (checksum recomputed) whose early values are wrong
    _rewrite(path, values=values)
    g = _with_values(gr.kayles(), 50)
    with pytest.raises(ValueError, match="disagree"):
        g.values(300, checkpoint=path)


def test_periodicity_checkpoint_records_the_result(tmp_path, monkeypatch):
    path = tmp_path / "p.npz"
    p = gr.TakeAndBreak("0.156").periodicity(checkpoint=path)
    assert gr.load(path).known_periodicity == p
    calls = []
    monkeypatch.setattr(_run.Run, "ensure", lambda self, n: calls.append(n))
    q = gr.TakeAndBreak("0.156").periodicity(checkpoint=path)  # read off the file: nothing computed
    assert q == p and np.array_equal(q.base, p.base) and calls == []


def test_checkpoint_arguments_are_checked(tmp_path):
    g = gr.kayles()
    with pytest.raises(ValueError, match="checkpoint_every"):
        g.values(10, checkpoint=tmp_path / "a.npz", checkpoint_every=0)
    with pytest.raises(TypeError, match="checkpoint_every"):
        g.values(10, checkpoint=tmp_path / "a.npz", checkpoint_every="often")
    with pytest.raises(TypeError, match="checkpoint must be a file path"):
        g.values(10, checkpoint=3)
    with pytest.raises(TypeError, match="progress"):
        g.values(10, progress="yes")
    with pytest.raises(FileNotFoundError, match="folder"):
        g.values(10, checkpoint=tmp_path / "missing" / "a.npz")



def test_file_errors_are_in_the_family(tmp_path):
    """Issue 32, fault 7: save, load and checkpoints raised plain TypeError and FileNotFoundError."""
    cases = [
        (lambda: gr.save(3, tmp_path / "a.npz"), gr.ArgumentTypeError, TypeError),
        (lambda: gr.save(gr.kayles(), 3), gr.ArgumentTypeError, TypeError),
        (lambda: gr.load(None), gr.ArgumentTypeError, TypeError),
        (lambda: gr.load(tmp_path / "missing.npz"), gr.MissingFileError, FileNotFoundError),
        (lambda: gr.save(gr.kayles(), tmp_path / "no" / "a.npz"), gr.MissingFileError, FileNotFoundError),
        (lambda: gr.kayles().values(10, checkpoint=tmp_path / "no" / "a.npz"), gr.MissingFileError, FileNotFoundError),
        (lambda: gio.game_from_rule(["take_and_break"]), gr.ArgumentTypeError, TypeError),
        (lambda: gio.game_from_rule({"type": "chess"}), gr.ArgumentError, ValueError),
        (lambda: gio.game_from_rule({"type": "take_and_break", "code": "0.7"}, name=3), gr.ArgumentTypeError,
         TypeError),
    ]
    for call, cls, builtin in cases:
        with pytest.raises(cls) as e:
            call()
        assert isinstance(e.value, builtin)
    assert os.listdir(tmp_path) == []
    path = tmp_path / "ro.npz"
    gr.save(gr.kayles(), path)
    os.chmod(path, 0o444)
    with pytest.raises(gr.FilePermissionError, match="read-only") as e:
        gr.kayles().values(10, checkpoint=path)
    assert isinstance(e.value, PermissionError)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root reads and writes whatever the modes")
def test_unreadable_files_and_unwritable_folders_are_in_the_family(tmp_path):
    path = tmp_path / "k.npz"
    gr.save(gr.kayles(), path)
    os.chmod(path, 0)
    try:
        with pytest.raises(gr.FilePermissionError):
            gr.load(path)
    finally:
        os.chmod(path, 0o644)
    folder = tmp_path / "ro"
    folder.mkdir()
    os.chmod(folder, 0o555)
    try:
        with pytest.raises(gr.FilePermissionError):
            gr.save(gr.kayles(), folder / "k.npz")
        with pytest.raises(gr.FilePermissionError):
            gr.kayles().values(10, checkpoint=folder / "k.npz")
    finally:
        os.chmod(folder, 0o755)


_KILLED = textwrap.dedent(
    """
    import sys
    import grundy as gr
    print("start", flush=True)
    # The exact engine: slow enough to be killed mid-run.
    gr.TakeAndBreak(sys.argv[1], engine="exact").values(int(sys.argv[2]), checkpoint=sys.argv[3],
                                                        checkpoint_every=0.05, progress=False,
                                                        from_period=False)
    print("finished", flush=True)
    """
)


def test_sigkill_mid_run_resumes_to_identical_values(tmp_path, monkeypatch):
    code, n = "0.137", 100_000
    path = tmp_path / "ck.npz"
    p = subprocess.Popen([sys.executable, "-c", _KILLED, code, str(n), str(path)], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "start"
    deadline = time.monotonic() + 60
    while not path.exists() and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    os.kill(p.pid, signal.SIGKILL)
    p.communicate(timeout=30)
    assert p.returncode == -signal.SIGKILL, "the run ended before it could be killed; use a larger n"
    done = gr.load(path).computed  # the file is complete: written atomically
    assert 0 < done < n

    starts = []
    ensure = _run.Run.ensure
    monkeypatch.setattr(
        _run.Run, "ensure", lambda self, m, *a: (starts.append(self.game.computed), ensure(self, m, *a))
    )
    resumed = gr.TakeAndBreak(code, engine="exact").values(n, checkpoint=path)
    assert starts == [done]  # resumed from the checkpoint, not from scratch
    monkeypatch.undo()
    assert np.array_equal(resumed, gr.TakeAndBreak(code).values(n))
    assert gr.load(path).computed == n


def test_ctrl_c_writes_a_checkpoint(tmp_path):
    path = tmp_path / "ck.npz"
    script = textwrap.dedent(
        """
        import sys
        import grundy as gr
        g = gr.TakeAndBreak("0.77", engine="exact")
        print("start", flush=True)
        try:
            g.values(10**7, checkpoint=sys.argv[1], progress=True, from_period=False)
        except KeyboardInterrupt:
            print(g.computed, flush=True)
        """
    )
    p = subprocess.Popen([sys.executable, "-c", script, str(path)], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "start"
    time.sleep(1.0)
    os.kill(p.pid, signal.SIGINT)
    out, _ = p.communicate(timeout=30)
    computed = int(out.split()[0])
    g = gr.load(path)
    assert g.computed == computed > 0
    assert np.array_equal(g.values(computed), gr.kayles().values(computed))


def test_checkpoint_is_rebuilt_exactly_for_subtraction_rules(tmp_path):
    path = tmp_path / "s.npz"
    gr.Subtraction.at_most_half().values(3000, checkpoint=path)
    want = oracle.subtraction(lambda n, k: k <= n // 2, 3100)
    assert gr.Subtraction.at_most_half().values(3100, checkpoint=path).tolist() == want


def test_sparse_engine_resumes_from_a_checkpoint(tmp_path):
    path = tmp_path / "grundy.npz"
    gr.grundys_game().values(50_000, checkpoint=path)
    resumed = gr.grundys_game().values(120_000, checkpoint=path)
    assert np.array_equal(resumed, gr.grundys_game().values(120_000))
    assert np.array_equal(resumed[:20_000], gr.TakeAndBreak("4!.0", engine="exact").values(20_000))


def test_loading_rebuilds_the_sparse_engine_without_replaying(tmp_path):
    """Issue 32, fault 6: gr.load replayed every value one by one (slower than computing them).

    Counted, not timed: the core reports progress while it replays, and now it replays nothing
    but the last few values, so a progress callback given to the seeding is never called.
    """
    path = tmp_path / "g.npz"
    g = gr.grundys_game()
    g.values(2**17)
    gr.save(g, path)
    calls = []
    values = gio._checkpoint._read(path)[1]
    fresh = gr.grundys_game()
    fresh._core.seed(np.ascontiguousarray(values, dtype=np.uint32), progress=lambda done, total: calls.append(done))
    assert calls == []
    assert np.array_equal(fresh.values(2**17 + 5000), gr.grundys_game().values(2**17 + 5000))


def _unchanged(path):
    st = os.stat(path)
    return path.read_bytes(), st.st_mtime_ns, st.st_mode, sorted(os.listdir(path.parent))


def test_read_only_files_load_and_stay_unchanged(tmp_path):
    path = tmp_path / "k.npz"
    gr.save(_with_values(gr.kayles(), 500, period=True), path)
    os.chmod(path, 0o444)
    before = _unchanged(path)
    g = gr.load(path)
    assert g.computed >= 500 and g.known_periodicity.period == 12
    assert _unchanged(path) == before


def test_a_read_only_checkpoint_is_refused_before_computing_and_left_unchanged(tmp_path):
    path = tmp_path / "ck.npz"
    gr.grundys_game().values(3000, checkpoint=path)
    os.chmod(path, 0o444)
    before = _unchanged(path)
    g = gr.grundys_game()
    for call in (lambda: g.values(6000, checkpoint=path), lambda: g.periodicity(max_n=6000, checkpoint=path)):
        with pytest.raises(PermissionError, match="read-only"):
            call()
        assert _unchanged(path) == before and g.computed == 0
    os.chmod(path, 0o644)  # writable again: it resumes
    assert np.array_equal(g.values(6000, checkpoint=path), gr.grundys_game().values(6000))
