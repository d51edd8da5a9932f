"""The example notebooks run top to bottom on a real kernel, and print what the theory says.

Every ``examples/*.ipynb`` is executed (with nbclient, in a temporary folder so that the files the
notebooks write stay out of the repository); the notebooks named in CHECKS have their outputs
checked too, by cell tag.
"""

import re
from functools import cache, reduce
from operator import xor
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

import grundy as gr

import oracle

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))


class Outputs:
    """The outputs of an executed notebook, by cell tag."""

    def __init__(self, nb):
        self.cells = {}
        for cell in nb.cells:
            for tag in cell.metadata.get("tags", []):
                self.cells[tag] = cell

    def text(self, tag):
        """Everything the cell printed to stdout."""
        return "".join(o.text for o in self.cells[tag].outputs if o.output_type == "stream" and o.name == "stdout")

    def data(self, tag, mime):
        """The cell's displayed data of one MIME type, concatenated."""
        outs = self.cells[tag].outputs
        return "".join(o.data.get(mime, "") for o in outs if o.output_type in ("execute_result", "display_data"))


def check_nim_and_mex(out):
    # DESIGN.md: heaps [10, 12, 5] have nim-sum 3; take 1 from 10, leaving [9, 12, 5].
    assert out.text("nim-sum").strip() == "nim-sum of [10, 12, 5] = 3"
    assert out.text("winning-move").strip() == "take 1 from the heap of 10, leaving [9, 12, 5] (nim-sum 0)"
    assert out.text("bouton").strip().endswith("True")
    assert out.text("mex").splitlines() == ["2 0 0", str(list(range(12))), "agrees with grundy: True"]
    assert "Kayles" in out.data("kayles", "text/html")
    kayles = oracle.take_and_break("0.77", 8)
    values = [kayles[r] for r in (3, 5, 7)]
    assert out.text("kayles-sum").strip() == f"G of the rows [3, 5, 7]: {values}; nim-sum {reduce(xor, values)}"
    # Each printed move leaves the whole position with nim-sum 0.
    for line in out.text("kayles-move").splitlines():
        row = int(line.split("row of ")[1].split(":")[0])
        a, b = (int(x) for x in line.split("rows of ")[1].split(" and "))
        rest = [kayles[r] for r in (3, 5, 7) if r != row]
        assert reduce(xor, rest) ^ kayles[a] ^ kayles[b] == 0
    assert out.text("kayles-move")
    assert out.text("graph").strip() == "{'start': 0, 'a': 2, 'b': 1, 'end': 0}"
    assert "GameGraph" in out.data("graph", "text/html")


def check_subtraction_games(out):
    # Remove 1, 2 or 3: G(n) = n mod 4.
    assert out.text("s123").splitlines()[-1] == "preperiod 0, period 4, proven True"
    assert out.text("by-hand").splitlines()[-1] == "agrees with grundy: True"
    for line in out.text("periods").splitlines():
        s = [int(x) for x in line.split("[")[1].split("]")[0].split(",")]
        pre = int(line.split("preperiod")[1].split(",")[0])
        per = int(line.split("period")[2].split(",")[0])
        g = oracle.subtraction(lambda n, k, s=s: k in s, 2 * (pre + per) + 50)
        assert all(g[n + per] == g[n] for n in range(pre, len(g) - per)), line
    assert "background" in out.data("table", "text/html")
    assert out.data("plot", "image/png")
    text = out.text("infinite")
    squares = oracle.subtraction(lambda n, k: int(k**0.5) ** 2 == k, 60)
    assert f"below 60: {[n for n, v in enumerate(squares) if v == 0]}" in text
    assert "the exponent of 2 in n: True" in text
    assert "period=2, saltus=1, proven=False" in text
    assert out.text("save").splitlines()[-1] == "same values: True"


def check_grundys_game(out):
    assert out.text("by-hand").splitlines()[-1] == "agrees with grundy: True"
    assert "Grundy&#x27;s game" in out.data("display", "text/html") or "Grundy's game" in out.data(
        "display", "text/html"
    )
    assert out.text("period").startswith("Periodicity(period=None")
    assert "rare" in out.data("sparse", "text/html")
    lines = out.text("sparse-check").splitlines()
    s = gr.grundys_game().sparse_space(2**15)
    assert lines[0] == f"mask {s.mask:#b}: {s.rare_count} rare of {2**15} heap sizes, the last at {s.last_rare}"
    assert lines[1:] == ["rare positions follow the definition: True", "common XOR common is rare: True"]
    assert out.data("plot", "image/png") and out.data("plot-sparse", "image/png")


def check_periodicity(out):
    # Published periods (Winning Ways ch. 4; Gangolli and Plambeck 1989), as in test_periodicity.
    assert out.text("kayles").splitlines()[0] == "Kayles: preperiod 71, period 12, proven True"
    assert "Guy and Smith" in out.text("kayles")
    assert "proven" in out.data("kayles-display", "text/html")
    far = out.text("far").split()  # G(10**18) = v = G(same) = v
    same = int(far[4][2:-1])
    assert 71 <= same < 71 + 12 and (10**18 - same) % 12 == 0
    assert far[2] == far[6] == str(oracle.take_and_break("0.77", same + 1)[same])
    published = {"0.07": (53, 34), "0.137": (52, 34), "0.45": (498, 20), "0.156": (3479, 349)}
    for line in out.text("octal").splitlines():
        code = line.split()[0]
        assert f"preperiod {published[code][0]:5}, period {published[code][1]:4}, proven True" in line
    assert out.text("016").splitlines()[0] == "0.16: preperiod 105351, period 149459, proven True"
    assert out.data("plot-016", "image/png")


def check_beyond_heaps(out):
    # Node Kayles on paths is Dawson's chess 0.137; Wythoff's P-positions are the Beatty pairs;
    # rows of Wythoff are additively periodic (observed); linear Cram is Dawson's Kayles 0.07.
    lines = out.text("node-kayles").splitlines()
    assert lines[:2] == [str(oracle.take_and_break("0.137", 20)), "agrees with 0.137: True"]
    assert out.text("wythoff-p").splitlines()[-1] == "P-positions match the Beatty pairs: True"
    assert "row 1: preperiod 0, period 3, saltus 3, proven False" in out.text("wythoff-rows")
    assert "agrees with 0.07: True" in out.text("cram")
    assert out.text("cram-builtin").startswith("gr.cram agrees with the StateGame: True")
    # The fast ways to write a rule (one call per state with split parts, value by search; a numpy
    # batch rule) give the frozenset Cram's values.
    assert "agrees with the frozenset Cram: True" in out.text("cram-fast")
    assert "tabulation agrees with the search: True" in out.text("cram-batch")
    assert "<" in out.data("wythoff-plot", "text/html")


def check_board_games(out):
    # Linear Cram is 0.07, even x even Cram boards are 0 (symmetry), Node Kayles on a path is 0.137 and
    # on a cycle one move from a path; every winning move leaves a P-position; Chomp bars are N.
    assert out.text("cram-families").splitlines()[1:] == [
        "agrees with 0.07: True",
        "2 x n boards: " + str([1, 0] * 10),
        "even x even are 0: True",
    ]
    assert "<table" in out.data("cram-table", "text/html")
    lines = out.text("node-kayles-paths").splitlines()
    assert lines[0] == f"paths P_1..P_40: {oracle.take_and_break('0.137', 41)[1:]}"
    assert lines[1] == "agrees with 0.137: True" and lines[3] == "G(C_n) = mex{G(P_{n-3})}: True"
    assert out.text("any-graph").splitlines()[-1] == "Arc Kayles on a grid is Cram: True"
    assert "every one leaves a P-position: True" in out.text("mid-game")
    assert out.text("sum").splitlines()[-1] == "nim-sum after it: 0"
    assert out.text("chomp").startswith("every bar up to 6 x 7 but 1 x 1 is an N-position: True")


@cache
def kayles_misere_p(rows):
    """Naive misère Kayles: is the sum of these rows (a sorted tuple) a P-position?"""
    if not rows:
        return False  # no move: the player to move wins
    for i, n in enumerate(rows):
        rest = rows[:i] + rows[i + 1 :]
        for take in (1, 2):
            for a in range(n - take + 1):
                left = tuple(sorted(rest + tuple(r for r in (a, n - take - a) if r)))
                if kayles_misere_p(left):
                    return False
    return True


def check_misere_quotients(out):
    # Misère Nim: the tame quotients T1 = <a | a^2 = 1> and T2 (Plambeck and Siegel 2008).
    assert out.text("t1").splitlines()[:2] == ["order 2 presentation <a | a^2 = 1>", "P-portion: ['a']"]
    assert out.text("t2").splitlines()[:3] == [
        "order 6 presentation <a, b | a^2 = 1, b^3 = b>",
        "P-portion: ['a', 'b^2']",
        "pretending: ['1', 'a', 'b', 'ab']",
    ]
    assert "multiplication table" in out.data("t2", "text/html")
    assert "normal values: {'1': 0, 'a': 1, 'b': 2, 'ab': 3, 'b^2': 0, 'ab^2': 1}" in out.text("t2-table")
    assert out.text("t2-check").strip().endswith("agrees with Bouton's misère rule: True")
    # Kayles: MisereSolver's orders 2, 6, 12, 18, 24, 32 (issue 15), 32 from heap 25.
    kayles = out.text("kayles").splitlines()
    assert "order 32" in kayles
    growth = next(line for line in kayles if line.startswith("growth"))
    assert [int(m) for m in re.findall(r", (\d+)\)", growth)] == [2, 6, 12, 18, 24, 32]
    assert "P-portion" in out.data("kayles-display", "text/html")
    # 0.75: period 2 from heap 8, observed at heap 16, proven at heap 21 (the proof needs 2 * 10 + 1).
    periods = out.text("periods").splitlines()
    assert "period 2 from heap 8 (observed only" in periods[0] and "period 2 from heap 8 (proven" in periods[1]
    big = out.text("big").splitlines()
    assert big[0].startswith("100000 heaps: outcome N, winning move component") and big[1] == "after the move: P"
    # Small Kayles sums: the quotient and the search agree with a naive oracle of this file.
    lines = out.text("search").splitlines()
    assert lines[0].endswith("agrees with the search: True")
    checked = 0
    for line in lines[1:]:
        if not line.strip():
            continue
        heaps = [int(x) for x in line.split("]")[0].strip("[").split(",")]
        by_quotient = line.split("quotient ")[1][0]
        by_search = line.split("search ")[1][0]
        assert by_quotient == by_search, line
        if sum(heaps) <= 26:
            want = "P" if kayles_misere_p(tuple(sorted(heaps))) else "N"
            assert by_quotient == want, line
            checked += 1
    assert checked >= 4
    # Subtraction of 1, 2 or 3 in misère play: a single heap n is P exactly when n = 1 (mod 4).
    sub = out.text("subtraction").splitlines()
    assert "period: period 4 from heap 1 (proven" in sub[2]
    assert sub[3:5] == [f"heap {10**6}: N", f"heap {10**6 + 1}: P"]


CHECKS = {
    "beyond_heaps.ipynb": check_beyond_heaps,
    "board_games.ipynb": check_board_games,
    "nim_and_mex.ipynb": check_nim_and_mex,
    "subtraction_games.ipynb": check_subtraction_games,
    "grundys_game.ipynb": check_grundys_game,
    "periodicity.ipynb": check_periodicity,
    "misere_quotients.ipynb": check_misere_quotients,
}


def test_the_examples_are_there():
    assert set(CHECKS) <= {p.name for p in NOTEBOOKS}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path):
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError, naming the cell, when one fails
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert not [o for o in cell.outputs if o.output_type == "error"], cell.source
    check = CHECKS.get(path.name)
    if check is not None:
        check(Outputs(nb))
