"""Saving and loading board games (their rule and the values found) and what cannot be saved, saying why."""

import json

import numpy as np
import pytest

import grundy as gr
from grundy import io as gio

MIB = 1 << 20


def _positions(game, rng, k):
    """``k`` random positions of a board game (masks of a board, removed vertices of a graph)."""
    if game.kind == "chomp":
        return [game.start] + game.options()[:k]
    if game.shape is not None and game.kind == "cram":
        return [game.state(rng.random(game.shape) < 0.25) for _ in range(k)]
    return [game.state([x for x in game.labels if rng.random() < 0.25]) for _ in range(k)]


GAMES = [
    lambda: gr.cram(4, 5, memory=MIB),
    lambda: gr.chomp(3, 4, memory=MIB),
    lambda: gr.node_kayles(grid=(3, 4), memory=MIB),
    lambda: gr.node_kayles(path=12, memory=MIB),
    lambda: gr.arc_kayles(cycle=9, memory=MIB),
    lambda: gr.node_kayles({"a": ["b", "c"], "b": ["c", "d"], "d": ["e"], "f": []}, memory=MIB),
    lambda: gr.arc_kayles([((0, 0), (0, 1)), ((0, 1), (1, 1)), ((1, 1), (5, 5)), ((5, 5), (0, 0))], memory=MIB),
]


@pytest.mark.parametrize("make", GAMES, ids=range(len(GAMES)))
def test_board_round_trip_keeps_the_rule_and_the_values_found(tmp_path, make):
    g = make()
    states = _positions(g, np.random.default_rng(3), 6)
    found = {s.free: s.value() for s in states}
    path = tmp_path / "board.npz"
    gr.save(g, path)
    h = gr.load(path)
    assert h == g and repr(h) == repr(g) and h.labels == g.labels and type(h.labels[0]) is type(g.labels[0])
    # The values travel: asking for them searches nothing; other positions are searched as on the original.
    assert {s.free: h.value(s) for s in states} == found
    assert h.stats()["nodes"] == 0
    fresh = make()
    assert [h.value(o) for o in h.options()] == [fresh.value(o) for o in fresh.options()]


def test_a_board_file_is_plain_numpy_with_positions(tmp_path):
    g = gr.cram(3, 4, memory=MIB)
    want = [g.value(), g.value([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]])]
    gr.save(g, tmp_path / "c.npz")
    with np.load(tmp_path / "c.npz", allow_pickle=False) as z:
        meta = json.loads(z["metadata"].tobytes())
        values = z["values"].tolist()
    assert meta["rule"] == {"type": "board", "kind": "cram", "spec": "3, 4", "grid": [3, 4], "labels": None,
                            "edges": None}
    assert meta["positions"] == [hex(2**12 - 1), hex(2**12 - 2)] and values == want


def _rewrite_positions(path, positions):
    with np.load(path, allow_pickle=False) as z:
        entries = {k: z[k] for k in z.files}
    meta = json.loads(entries["metadata"].tobytes())
    meta["positions"] = positions
    meta_bytes = json.dumps(meta).encode()
    digest = gio._checkpoint._digest(meta_bytes, entries["values"])
    with open(path, "wb") as f:
        np.savez_compressed(f, values=entries["values"], metadata=np.frombuffer(meta_bytes, np.uint8),
                            sha256=np.frombuffer(digest.encode(), np.uint8))


@pytest.mark.parametrize("positions", [[hex(2**13)], ["zz"], [5], [hex(1), hex(3)]])
def test_positions_that_do_not_fit_the_board_are_refused(tmp_path, positions):
    g = gr.cram(3, 4, memory=MIB)
    g.value()
    path = tmp_path / "c.npz"
    gr.save(g, path)
    _rewrite_positions(path, positions)
    with pytest.raises(gr.InvalidFileError, match="positions"):
        gr.load(path)


def test_a_damaged_board_file_is_refused(tmp_path):
    g = gr.node_kayles(path=9, memory=MIB)
    g.value()
    path = tmp_path / "n.npz"
    gr.save(g, path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(gr.InvalidFileError):
        gr.load(path)


def test_what_cannot_be_saved_says_why(tmp_path):
    def moves(n):
        return [n - 1] if n else []

    with pytest.raises(gr.ArgumentTypeError, match="Python function .*moves.* no file"):
        gr.save(gr.StateGame(moves), tmp_path / "s.npz")
    with pytest.raises(gr.ArgumentTypeError, match="<lambda>"):
        gr.save(gr.StateGame(lambda s: [], batch=False), tmp_path / "s.npz")
    with pytest.raises(gr.ArgumentTypeError, match="TwoHeapGame"):
        gr.save(gr.wythoff(), tmp_path / "w.npz")
    with pytest.raises(gr.ArgumentTypeError, match="labels"):
        gr.save(gr.node_kayles({frozenset({1}): [2]}, memory=MIB), tmp_path / "f.npz")
    assert not list(tmp_path.iterdir())  # nothing written
