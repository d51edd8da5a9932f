"""The README, as a newcomer reads it: every ``python`` block runs and prints what it says.

The blocks run in order, in one fresh interpreter (a subprocess, in a temporary folder so that the
files they write stay out of the repository), each top-level statement as the interactive
interpreter runs it: what it prints, then the repr of an expression's value. The convention of
the README: comment lines right under a statement, with no blank line between, are what the
interpreter prints for it, checked exactly (``# 6`` under ``kayles.value(70)``). Trailing comments
and comment lines after a blank line are prose. ``bash`` blocks are not run here, but the first
one must stay the two set-up commands, the second of them the one ``.ci/run`` runs.

Needs the checkout: the wheel check of ``.ci/run`` runs a copy of tests/ without README.md, and
these tests skip there, saying so.
"""

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import grundy as gr

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
if not README.exists():
    pytest.skip("not run from a checkout (no README.md)", allow_module_level=True)
TEXT = README.read_text(encoding="utf-8")

# A fenced block: the fence line, then its lines up to the closing fence.
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks(text: str, language: str) -> list[tuple[int, str]]:
    """The fenced blocks of one language: (line of their first line in the file, source)."""
    return [(text.count("\n", 0, m.start(2)) + 1, m.group(2)) for m in FENCE.finditer(text) if m.group(1) == language]


def claims(text: str) -> dict[int, str]:
    """What the file says each statement prints, by the file's line of the statement's last line."""
    found = {}
    for start, source in blocks(text, "python"):
        lines = source.splitlines()
        for node in ast.parse(source).body:
            comment = []
            for line in lines[node.end_lineno :]:
                if not line.startswith("#"):
                    break
                comment.append(line[2:] if line.startswith("# ") else line[1:])
            if comment:
                found[start + node.end_lineno - 1] = "\n".join(comment)
    return found


# Runs in the fresh interpreter: each top-level statement compiled in "single" mode, as the
# interactive interpreter does, so an expression's value is shown by sys.displayhook (its repr).
# Line numbers are the file's, so a failing statement is named by its line of the README.
RUNNER = r"""
import ast, contextlib, io, json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    blocks = json.load(f)
namespace = {"__name__": "__main__"}
printed = {}
try:
    for start, source in blocks:
        tree = ast.parse(source)
        ast.increment_lineno(tree, start - 1)
        for node in tree.body:
            out = io.StringIO()
            try:
                with contextlib.redirect_stdout(out):
                    exec(compile(ast.Interactive([node]), sys.argv[3], "single"), namespace)
            except BaseException:
                print(f"{sys.argv[3]}, line {node.lineno}: {ast.unparse(node)}", file=sys.stderr)
                raise
            finally:
                printed[node.end_lineno] = out.getvalue()
finally:
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        json.dump(printed, f)
"""


def run_blocks(text: str, folder: Path, name: str = "README.md", timeout: float = 300):
    """Run the python blocks of ``text`` in a fresh interpreter in ``folder``: (process, printed by line)."""
    src, out = folder / "blocks.json", folder / "printed.json"
    src.write_text(json.dumps(blocks(text, "python")), encoding="utf-8")
    env = dict(os.environ, MPLBACKEND="Agg")
    # The interpreter imports the grundy this test imports, whatever the folder it runs in.
    package_root = str(Path(gr.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_root, env.get("PYTHONPATH")) if p)
    proc = subprocess.run(
        [sys.executable, "-c", RUNNER, str(src), str(out), name],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    printed = {int(k): v for k, v in json.loads(out.read_text(encoding="utf-8")).items()} if out.exists() else {}
    return proc, printed


def mismatches(text: str, printed: dict[int, str]) -> list[str]:
    """The claims of ``text`` that differ from what was printed (trailing spaces aside)."""

    def norm(s):
        return "\n".join(line.rstrip() for line in s.rstrip("\n").splitlines())

    bad = []
    for line, claim in sorted(claims(text).items()):
        if line not in printed:
            bad.append(f"line {line}: never ran")
        elif norm(printed[line]) != norm(claim):
            bad.append(f"line {line}: the README says\n{claim}\nbut it printed\n{printed[line].rstrip()}")
    return bad


@pytest.fixture(scope="module")
def readme_run(tmp_path_factory):
    return run_blocks(TEXT, tmp_path_factory.mktemp("readme"))


def test_every_python_block_runs_in_one_interpreter(readme_run):
    proc, _ = readme_run
    assert proc.returncode == 0, proc.stderr[-4000:]


def test_the_readme_prints_what_it_says(readme_run):
    proc, printed = readme_run
    assert len(claims(TEXT)) >= 30  # the convention is in use, not lost in an edit
    bad = mismatches(TEXT, printed)
    assert not bad, "\n\n".join(bad) + ("\n\n" + proc.stderr[-2000:] if proc.returncode else "")


def test_a_wrong_claim_or_a_failing_block_is_caught(tmp_path):
    # The checker itself: a claim that differs, a claim under a statement that prints nothing, and
    # state carried from one block to the next.
    text = "```python\nx = 6\nx * 7\n# 41\nx\n# 6\ny = 1\n# 1\n```\n\n```python\nprint(x, 'a')\n# 6 a\n```\n"
    proc, printed = run_blocks(text, tmp_path, name="snippet.md", timeout=60)
    assert proc.returncode == 0, proc.stderr
    bad = mismatches(text, printed)
    assert len(bad) == 2 and bad[0].startswith("line 3:") and bad[1].startswith("line 7:"), bad
    proc, _ = run_blocks("```python\nundefined_name\n```\n", tmp_path, name="snippet.md", timeout=60)
    assert proc.returncode != 0 and "snippet.md, line 2: undefined_name" in proc.stderr


def names(pattern: str) -> list[str]:
    """The names in backticks of the README's text that ``pattern`` (one group) finds, outside the
    parentheses that explain them."""
    found = re.search(pattern, TEXT, re.MULTILINE | re.DOTALL)
    assert found, f"the README has no text matching {pattern!r}"
    return re.findall(r"`([^`]+)`", re.sub(r"\([^()]*\)", "", found.group(1)))


def test_the_survey_columns_are_the_documented_ones(tmp_path):
    # A table with a failing game (its error column set), and the same read back from its store.
    documented = names(r"^Columns: (.*?)\n\n")
    store = tmp_path / "s.sqlite"
    table = gr.survey(["0.77", "0.7x"], max_n=2**8, progress=False, store=store)
    assert table["error"].notna().tolist() == [False, True]
    assert list(table.columns) == documented
    loaded = names(r"`gr\.load_survey\(path\)` gives the columns of the survey\s+table and (.*?);")
    assert list(gr.load_survey(store).columns) == documented + loaded


def test_the_setup_commands_are_two_and_ci_runs_the_second():
    first = [line for line in blocks(TEXT, "bash")[0][1].splitlines() if line.strip()]
    assert len(first) == 2, first
    commands = [line.split("  #")[0].strip() for line in first]
    assert commands[0].startswith("pip install . && ")
    ci = ROOT / ".ci" / "run"
    if ci.exists():
        assert commands[1] in ci.read_text(encoding="utf-8").splitlines(), f".ci/run does not run {commands[1]!r}"
    # The first command's check: Kayles' first 40 values, as the README's first block shows them.
    check = commands[0].removeprefix("pip install . && ").split()
    assert check[:3] == ["python", "-m", "grundy"], check
    out = subprocess.run([sys.executable, *check[1:]], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [str(v) for v in gr.kayles().values(40)]
    assert "0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2]" in TEXT
