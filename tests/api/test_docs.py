"""The built documentation site documents every public name.

``.ci/run`` builds the site (``sphinx-build -q -n -W --keep-going -b html docs docs/_build/html``), then
runs this file with ``GRUNDY_DOCS_REQUIRE=1``, so in CI these tests never skip. Elsewhere they skip,
saying so, when no site has been built; point ``GRUNDY_DOCS_HTML`` at a site built elsewhere to
check that one.
"""

import os
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

import grundy

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(os.environ.get("GRUNDY_DOCS_HTML", ROOT / "docs" / "_build" / "html"))

BUILT = (SITE / "api" / "index.html").exists()
# .ci/run sets GRUNDY_DOCS_REQUIRE=1 after building the site: there a missing site is a failure.
if os.environ.get("GRUNDY_DOCS_REQUIRE") and not BUILT:
    raise RuntimeError(f"GRUNDY_DOCS_REQUIRE is set but no documentation is built at {SITE}")
BUILD = "sphinx-build -q -n -W --keep-going -b html docs docs/_build/html"  # as in .ci/run
needs_site = pytest.mark.skipif(not BUILT, reason=f"the documentation is not built at {SITE} ({BUILD})")


class Anchors(HTMLParser):
    """The ids and link targets of an HTML page."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.hrefs: set[str] = set()
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        d = dict(attrs)
        if d.get("id"):
            self.ids.add(d["id"])
        if tag == "a" and d.get("href"):
            self.hrefs.add(d["href"])


def page(path: str) -> str:
    return (SITE / path).read_text(encoding="utf-8")


@needs_site
@pytest.mark.parametrize("name", grundy.__all__)
def test_every_public_name_has_an_api_page(name):
    # The page's object description carries the anchor id "grundy.NAME" (Sphinx's target for it).
    path = f"api/generated/grundy.{name}.html"
    assert (SITE / path).exists(), f"grundy.{name} has no page in the API reference"
    anchors = Anchors(page(path))
    assert f"grundy.{name}" in anchors.ids, f"{path} does not document grundy.{name}"


@needs_site
def test_the_api_index_links_every_public_name():
    hrefs = Anchors(page("api/index.html")).hrefs
    linked = {m.group(1) for h in hrefs if (m := re.match(r"generated/grundy\.([^#]+)\.html", h))}
    missing = sorted(set(grundy.__all__) - linked)
    assert not missing, f"names of grundy.__all__ missing from the API index: {missing}"


@needs_site
def test_public_names_document_themselves_not_their_type():
    # A constant must not be described by the docstring of int or str (autodoc's fallback).
    for name in grundy.__all__:
        obj = getattr(grundy, name)
        if callable(obj):
            continue
        text = page(f"api/generated/grundy.{name}.html")
        first_line = (type(obj).__doc__ or "").strip().splitlines()[0]
        assert first_line not in text, f"grundy.{name} is described by the docstring of {type(obj).__name__}"


@needs_site
def test_every_notebook_is_rendered_with_outputs():
    notebooks = sorted((ROOT / "examples").glob("*.ipynb"))
    assert notebooks
    for nb in notebooks:
        path = SITE / "examples" / f"{nb.stem}.html"
        assert path.exists(), f"{nb.name} is not rendered"
        assert "cell_output" in path.read_text(encoding="utf-8"), f"{nb.name} is rendered without outputs"


@needs_site
def test_the_guide_pages_are_built():
    for md in sorted((ROOT / "docs" / "guide").glob("*.md")):
        assert (SITE / "guide" / f"{md.stem}.html").exists(), f"docs/guide/{md.name} is not in the built site"


def test_the_docs_build_command_is_the_one_ci_runs():
    # The README and this file show the build command of .ci/run (nitpicky -n included), not an
    # older one. Needs the checkout: the wheel check runs a copy of tests/ without .ci/ or README.md.
    ci, readme = ROOT / ".ci" / "run", ROOT / "README.md"
    if not (ci.exists() and readme.exists()):
        pytest.skip("not run from a checkout (no .ci/run or README.md)")
    commands = re.findall(r"^\s*(sphinx-build .*)$", ci.read_text(encoding="utf-8"), re.MULTILINE)
    assert len(commands) == 1, commands
    command = commands[0].strip()
    assert " -n " in command and " -W " in command
    assert command in readme.read_text(encoding="utf-8"), f"README.md does not show {command!r}"
    assert command in (__doc__ or ""), f"tests/api/test_docs.py's docstring does not show {command!r}"
