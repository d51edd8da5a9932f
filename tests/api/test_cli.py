"""The command line: python -m grundy values|period|sparse."""

import io
import json
import subprocess
import sys

import numpy as np
import pytest

import grundy as gr
from grundy.__main__ import main


def run(*args):
    return subprocess.run([sys.executable, "-m", "grundy", *args], capture_output=True, text=True)


def call(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_values_json_and_npy(capsys):
    code, out, err = call(capsys, "values", "0.77", "30", "--format", "json")
    assert code == 0 and err == ""
    assert json.loads(out) == {"game": "0.77", "values": gr.kayles().values(30).tolist()}
    args = [sys.executable, "-m", "grundy", "values", "S1,2,3", "9", "--format", "npy"]
    p = subprocess.run(args, capture_output=True)
    assert np.load(io.BytesIO(p.stdout)).tolist() == gr.Subtraction([1, 2, 3]).values(9).tolist()


def test_period_json_matches_the_library():
    p = run("period", "0.137", "--json")
    assert p.returncode == 0 and p.stderr == ""
    d = json.loads(p.stdout)
    want = gr.TakeAndBreak("0.137").periodicity()
    assert d == {
        "game": "0.137",
        "preperiod": want.preperiod,
        "period": want.period,
        "saltus": want.saltus,
        "proven": want.proven,
        "checked_to": want.checked_to,
        "certificate": want.certificate,
    }


def test_period_text_and_max_n(capsys):
    code, out, _ = call(capsys, "period", "S2,5,7")
    p = gr.Subtraction([2, 5, 7]).periodicity()
    assert code == 0 and f"period {p.period} from n = {p.preperiod} (proven)" in out
    assert f"one period: {' '.join(map(str, p.base))}" in out
    code, out, _ = call(capsys, "period", "4!.0", "--max-n", "1024", "--json")
    d = json.loads(out)
    assert code == 0 and d["period"] is None and d["checked_to"] == 1024 and not d["proven"]


def test_sparse_json_matches_the_library(capsys):
    code, out, _ = call(capsys, "sparse", "4!.0", "3000", "--json")
    s = gr.grundys_game().sparse_space(3000)
    d = json.loads(out)
    assert code == 0
    assert (d["mask"], d["rare_count"], d["common_count"], d["last_rare"]) == (
        s.mask,
        s.rare_count,
        s.common_count,
        s.last_rare,
    )
    assert d["rare_positions"] == s.rare_positions.tolist() and d["rare_values"] == list(s.rare_values)
    code, out, _ = call(capsys, "sparse", "4!.0", "3000")
    assert code == 0 and f"{s.rare_count} rare of 3,000" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["period", "0.9x", "--json"], "position 3"),
        (["sparse", "S1,x", "10"], "bad subtraction set"),
        (["values", "S0", "10"], "removing no tokens"),
        (["values", "", "10"], "error"),
    ],
)
def test_bad_games_fail_cleanly(args, message):
    p = run(*args)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith("error: ") and message in p.stderr
    assert "Traceback" not in p.stderr


@pytest.mark.parametrize(
    "args",
    [["values", "0.77", "-3"], ["values", "0.77", "many"], ["period", "0.77", "--max-n", "x"], ["frobnicate"], []],
)
def test_bad_arguments_fail_with_usage(args):
    p = run(*args)
    assert p.returncode == 2 and p.stdout == "" and "usage:" in p.stderr and "Traceback" not in p.stderr


@pytest.mark.parametrize("args", [[], ["values"], ["period"], ["sparse"], ["moves"], ["survey"]])
def test_help_everywhere(args):
    p = run(*args, "--help")
    assert p.returncode == 0 and p.stdout.startswith("usage: python -m grundy")


def test_checkpoint_option(tmp_path, capsys):
    path = tmp_path / "k.npz"
    code, out, _ = call(capsys, "values", "0.77", "300", "--checkpoint", str(path))
    assert code == 0 and gr.load(path).computed == 300
    code, out, _ = call(capsys, "period", "0.77", "--checkpoint", str(path), "--json")
    assert code == 0 and gr.load(path).known_periodicity.period == json.loads(out)["period"]
    code, _, err = call(capsys, "values", "0.137", "10", "--checkpoint", str(path))
    assert code == 2 and "not of TakeAndBreak('0.137')" in err


def test_moves_prints_winning_moves(capsys):
    code, out, err = call(capsys, "moves", "0.[3]", "10", "12", "5")
    assert code == 0 and out.strip() == "component 0: 10 -> 9"
    code, out, _ = call(capsys, "moves", "0.[3]", "9", "12", "5")
    assert code == 0 and "P-position" in out
    code, out, err = call(capsys, "moves", "0.77", "-3")
    assert code == 2 and out == "" and "non-negative" in err


def test_survey_csv(tmp_path, capsys):
    path = tmp_path / "out.csv"
    code, out, err = call(capsys, "survey", "0.?7", "--max-n", "1024", "--csv", str(path))
    assert code == 0 and "8 games" in err
    import pandas as pd

    df = pd.read_csv(path, dtype={"code": str})
    assert df.code.tolist()[-1] == "0.77" and df.period.tolist()[-1] == 12
    code, out, _ = call(capsys, "survey", "0.7?", "--max-n", "1024")
    assert code == 0 and "0.77" in out


def test_version_prints_the_package_version():
    p = run("--version")
    assert p.returncode == 0 and p.stderr == ""
    assert p.stdout.strip() == f"grundy {gr.__version__}"
    from importlib.metadata import version

    assert gr.__version__ == version("grundy")
