"""The built documentation site documents every public name.

``.ci/run`` builds the site (``sphinx-build -W --keep-going -b html docs docs/_build/html``), then
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

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("GRUNDY_DOCS_HTML", ROOT / "docs" / "_build" / "html"))

BUILT = (SITE / "api" / "index.html").exists()
# .ci/run sets GRUNDY_DOCS_REQUIRE=1 after building the site: there a missing site is a failure.
if os.environ.get("GRUNDY_DOCS_REQUIRE") and not BUILT:
    raise RuntimeError(f"GRUNDY_DOCS_REQUIRE is set but no documentation is built at {SITE}")
pytestmark = pytest.mark.skipif(
    not BUILT, reason=f"the documentation is not built at {SITE} (sphinx-build -b html docs docs/_build/html)"
)


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


@pytest.mark.parametrize("name", grundy.__all__)
def test_every_public_name_has_an_api_page(name):
    # The page's object description carries the anchor id "grundy.NAME" (Sphinx's target for it).
    path = f"api/generated/grundy.{name}.html"
    assert (SITE / path).exists(), f"grundy.{name} has no page in the API reference"
    anchors = Anchors(page(path))
    assert f"grundy.{name}" in anchors.ids, f"{path} does not document grundy.{name}"


def test_the_api_index_links_every_public_name():
    hrefs = Anchors(page("api/index.html")).hrefs
    linked = {m.group(1) for h in hrefs if (m := re.match(r"generated/grundy\.([^#]+)\.html", h))}
    missing = sorted(set(grundy.__all__) - linked)
    assert not missing, f"names of grundy.__all__ missing from the API index: {missing}"


def test_public_names_document_themselves_not_their_type():
    # A constant must not be described by the docstring of int or str (autodoc's fallback).
    for name in grundy.__all__:
        obj = getattr(grundy, name)
        if callable(obj):
            continue
        text = page(f"api/generated/grundy.{name}.html")
        first_line = (type(obj).__doc__ or "").strip().splitlines()[0]
        assert first_line not in text, f"grundy.{name} is described by the docstring of {type(obj).__name__}"


def test_every_notebook_is_rendered_with_outputs():
    notebooks = sorted((ROOT / "examples").glob("*.ipynb"))
    assert notebooks
    for nb in notebooks:
        path = SITE / "examples" / f"{nb.stem}.html"
        assert path.exists(), f"{nb.name} is not rendered"
        assert "cell_output" in path.read_text(encoding="utf-8"), f"{nb.name} is rendered without outputs"


def test_the_guide_pages_are_built():
    for md in sorted((ROOT / "docs" / "guide").glob("*.md")):
        assert (SITE / "guide" / f"{md.stem}.html").exists(), f"docs/guide/{md.name} is not in the built site"
