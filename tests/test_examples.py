"""The example notebooks run top to bottom on a real kernel, and print what the theory says.

Every ``examples/*.ipynb`` is executed (with nbclient, in a temporary folder so that the files the
notebooks write stay out of the repository); the notebooks named in CHECKS have their outputs
checked too, by cell tag.
"""

from functools import reduce
from operator import xor
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

import grundy as gr

import oracle

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
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
    assert "<" in out.data("wythoff-plot", "text/html")


CHECKS = {
    "beyond_heaps.ipynb": check_beyond_heaps,
    "nim_and_mex.ipynb": check_nim_and_mex,
    "subtraction_games.ipynb": check_subtraction_games,
    "grundys_game.ipynb": check_grundys_game,
    "periodicity.ipynb": check_periodicity,
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
