"""What a user sees of a board: its regions (against a flood fill written here), its drawing and its card."""

import numpy as np
import pytest

import grundy as gr

MIB = 1 << 20


def neighbours(game):
    """Each cell's (vertex's) neighbours, written from the game's own description: grid cells or edges."""
    n = game.num_cells
    near = {i: set() for i in range(n)}
    if game._edges is not None:
        for u, v in game._edges:
            near[u].add(v)
            near[v].add(u)
        return near
    rows, cols = game.shape if game.shape is not None else (1, n)
    for i in range(n):
        r, c = divmod(i, cols)
        near[i] = {rr * cols + cc for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
                   if 0 <= rr < rows and 0 <= cc < cols}
    return near


def flood_fill(game, free):
    """The connected sets of free cells, by a plain breadth-first search, ordered by their first cell."""
    near, cells, out = neighbours(game), {i for i in range(game.num_cells) if free >> i & 1}, []
    while cells:
        todo, region = [min(cells)], set()
        while todo:
            i = todo.pop()
            if i in region:
                continue
            region.add(i)
            todo.extend(j for j in near[i] if j in cells)
        cells -= region
        out.append(sum(1 << i for i in region))
    return out


GAMES = {
    "cram": lambda: gr.cram(4, 6, memory=MIB),
    "node_kayles grid": lambda: gr.node_kayles(grid=(3, 5), memory=MIB),
    "arc_kayles grid": lambda: gr.arc_kayles(grid=(4, 4), memory=MIB),
    "node_kayles path": lambda: gr.node_kayles(path=14, memory=MIB),
    "arc_kayles cycle": lambda: gr.arc_kayles(cycle=12, memory=MIB),
    "node_kayles graph": lambda: gr.node_kayles([(i, (3 * i + 1) % 13) for i in range(13) if i != 6] + [(0, 5)],
                                                memory=MIB),
    "arc_kayles graph": lambda: gr.arc_kayles({"a": ["b", "c"], "b": ["c"], "d": ["e"], "f": []}, memory=MIB),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_components_are_the_connected_regions_and_their_values_xor(name):
    game = GAMES[name]()
    rng = np.random.default_rng(11)
    for _ in range(40):
        keep = rng.random(game.num_cells) < rng.uniform(0.3, 1.0)
        free = sum(1 << i for i in range(game.num_cells) if keep[i])
        position = gr.BoardState(game, free)
        regions = game.components(position)
        assert [r.free for r in regions] == flood_fill(game, free)
        assert all(r.game == game for r in regions)
        total = 0
        for r in regions:
            total ^= r.value()
        assert total == position.value()


def test_chomp_is_one_region():
    g = gr.chomp(3, 4, memory=MIB)
    for s in [g.start, *g.options()]:
        assert g.components(s) == [s]


def test_the_guides_board_is_two_regions_worth_3_and_1():
    cram = gr.cram(4, 6, memory=MIB)
    board = cram.state([[0, 1, 0, 1, 0, 0], [0, 0, 0, 1, 0, 0], [0, 0, 0, 1, 1, 0], [0, 0, 0, 1, 0, 0]])
    assert [r.value() for r in cram.components(board)] == [3, 1] and board.value() == 2


def test_a_block_is_one_region_and_a_lone_cell_is_a_region_worth_0():
    cram = gr.cram(3, 3, memory=MIB)
    assert [str(r) for r in cram.components(cram.state([[0, 0, 1], [0, 0, 1], [1, 1, 1]]))] == ["..#\n..#\n###"]
    lone = cram.components(cram.state([[0, 1, 0], [1, 1, 1], [0, 1, 1]]))
    assert [r.free.bit_count() for r in lone] == [1, 1, 1] and [r.value() for r in lone] == [0, 0, 0]
    assert cram.components(cram.state(np.ones((3, 3), dtype=bool))) == []


def test_print_draws_the_board_and_repr_stays():
    g = gr.cram(3, 4)
    assert repr(g) == "cram(3, 4)"
    assert str(g) == "cram(3, 4)\n....\n....\n...."
    assert str(gr.node_kayles(cycle=5)) == repr(gr.node_kayles(cycle=5))


def test_the_card_and_the_bar_name_the_board_by_its_size():
    shown = []
    for game, name in [
        (gr.cram(4, 9), "Cram 4 x 9"),
        (gr.chomp(3, 4), "Chomp 3 x 4"),
        (gr.node_kayles(grid=(4, 31)), "Node Kayles on the 4 x 31 grid"),
        (gr.node_kayles(path=10), "Node Kayles path=10"),  # a path, not the 1 x 10 grid it is stored as
    ]:
        assert name in game._repr_html_()
        shown.append(game._bar().desc)
    assert shown[0] == "Cram 4 x 9: searching"


def test_the_card_shows_the_table_used_not_reserved():
    g = gr.cram(3, 4, memory=64 * MIB)
    assert "0 bytes used (0 entries) of 64.0 MiB" in g._repr_html_()
    g.value()
    st = g.stats()
    assert st["table_bytes"] > 60 * MIB and 0 < st["table_entries"] < 100  # reserved, against a few entries
    used = st["table_bytes"] * st["table_entries"] // st["table_capacity"]
    assert f"{used:,} bytes used ({st['table_entries']} entries) of 64.0 MiB" in g._repr_html_()


def test_node_kayles_on_a_path_is_0137_not_007():
    dawson = gr.TakeAndBreak("0.137").values(61).tolist()
    assert [gr.node_kayles(path=n, memory=MIB).value() for n in range(1, 61)] == dawson[1:]
    assert gr.TakeAndBreak("0.137").value(30) != gr.dawsons_kayles().value(30)  # the two differ at 30


def test_a_path_of_no_vertex_says_so():
    with pytest.raises(gr.ArgumentError, match="a path has at least one vertex"):
        gr.node_kayles(path=0)
