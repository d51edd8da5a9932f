"""Sphinx configuration for the grundy documentation.

Build with ``sphinx-build -q -n -W --keep-going -b html docs docs/_build/html`` after installing the
package with its ``docs`` extra (``pip install -e ".[docs]"``); ``-n`` (nitpicky) makes every
cross-reference that does not resolve an error, as in ``.ci/run``.

Two things are generated at build time, so that they never fall behind the code:

* ``api/index.rst``: one autosummary entry per name in ``grundy.__all__`` (autosummary then writes a
  page for each under ``api/generated/``), so a name added to ``__all__`` is documented without
  touching the docs;
* ``examples/``: a copy of the notebooks in the repository's ``examples/`` folder, which myst-nb
  executes and renders with their outputs.
"""

from __future__ import annotations

import inspect
import shutil
from pathlib import Path

import grundy

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

project = "grundy"
author = "the grundy developers"
copyright = "the grundy developers"  # noqa: A001 (Sphinx's name)
release = grundy.__version__
version = release

extensions = [
    "myst_nb",  # MyST Markdown pages and executed notebooks
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",  # numpydoc sections (Parameters, Returns, Raises, Examples)
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints", "check_site.py"]
# _templates/autosummary/class.rst: class pages with a table of methods and no table of attributes.
templates_path = ["_templates"]

# The theme: furo (maintained, light and dark modes, a searchable sidebar, little JavaScript).
html_theme = "furo"
html_title = f"grundy {release}"
html_static_path = ["_static"]
# An icon of three Nim heaps; without one, browsers request /favicon.ico and log a 404.
html_favicon = "_static/favicon.svg"

# numpydoc docstrings through napoleon (tests/api/test_numpydoc.py checks their sections).
napoleon_google_docstring = False
napoleon_numpy_docstring = True
# The return type on a line of its own ("Return type"), as autodoc writes it from the annotation
# where a docstring has no Returns section: one style on every page, never the type twice.
napoleon_use_rtype = True
napoleon_preprocess_types = True

autosummary_generate = True
autosummary_imported_members = True
# inherited-members: a subclass's page shows the methods it inherits from the package's classes
# (Subtraction.values from Game), not those of Python's own (object, BaseException).
autodoc_default_options = {
    "members": True,
    "member-order": "bysource",
    "show-inheritance": True,
    "inherited-members": "object,BaseException",
}
autodoc_typehints = "description"
autodoc_typehints_description_target = "documented_params"
autodoc_preserve_defaults = True

intersphinx_mapping = {
    "python": ("https://docs.python.org/3", None),
    "numpy": ("https://numpy.org/doc/stable", None),
}
# The build must not depend on the network: intersphinx inventories are fetched only when asked.
if not __import__("os").environ.get("GRUNDY_DOCS_INTERSPHINX"):
    intersphinx_mapping = {}

# The build is nitpicky (sphinx-build -n): every cross-reference must resolve. These are the
# exceptions: types of other projects (no intersphinx inventory offline, and none for some even
# online), names that type hints spell through an import alias or a TYPE_CHECKING import, and the
# package's private classes that public signatures or bases mention.
nitpick_ignore = [
    ("py:obj", "True"),
    ("py:obj", "False"),
    *(
        ("py:class", name)
        for name in (
            # numpydoc's words for kinds of objects, which name no class.
            "iterable",
            "hashable",
            "callable",
            "sequence",
            "path-like",
            "array_like",
            "numpy.ndarray",
            "numpy.dtype",  # in the type of an array attribute: ndarray[tuple[Any, ...], dtype[Any]]
            "pandas.DataFrame",
            "pd.DataFrame",
            "matplotlib.axes.Axes",
            "Axes",
            "networkx.DiGraph",
            "os.PathLike",
            "collections.abc.Hashable",
            "collections.abc.Iterator",
            "ValueTable",
            # What a public signature or base names from inside the packages: a mixin and a protocol.
            "grundy.games.heap.display.HeapGameDisplay",
            "grundy.games.graph.loopy.LabelledGraph",
            "grundy.games.state.grid.GridGame",
        )
    ),
]
# Classes of private modules (grundy._ui.display, ...).
nitpick_ignore_regex = [("py:class", r"grundy(\.[a-z]+)*\._[a-z_]+\.[A-Za-z_]+")]
myst_enable_extensions = ["colon_fence", "dollarmath", "deflist"]
myst_heading_anchors = 3

# Notebooks are executed at build time (they are stored without outputs), each in its own
# temporary folder so that files they write stay out of the tree.
nb_execution_mode = "force"
nb_execution_in_temp = True
nb_execution_timeout = 300
nb_execution_raise_on_error = True
nb_merge_streams = True


#: The API reference's sections: the package each name is defined in (``grundy.__all__`` is grouped
#: the same way), in the order of ARCHITECTURE.md's layers, top first.
_SECTIONS = {
    "games": ("grundy.games", "Games: the kinds of game"),
    "play": ("grundy.play", "Play: sums, positions, moves and outcomes"),
    "analysis": ("grundy.analysis", "Analysis: periodicity, sparse space, misère quotients"),
    "io": ("grundy.io", "Files: save and load"),
    "surveys": ("grundy.surveys", "Surveys: families of games"),
    "exceptions": ("grundy.exceptions", "Exceptions"),
    "other": ("grundy", "Version"),
}


#: Constants have no module of their own: their section is given here.
_CONSTANTS = {"DEFAULT_MAX_N": "analysis", "__version__": "other"}


def _section(name: str) -> str:
    obj = getattr(grundy, name)
    if name in _CONSTANTS:
        return _CONSTANTS[name]
    module = getattr(obj, "__module__", "grundy")
    for key, (package, _) in _SECTIONS.items():
        if key != "other" and (module == package or module.startswith(package + ".")):
            return key
    return "other"


def write_api_index() -> None:
    """Write ``api/index.rst``: every public name of ``grundy.__all__``, by the package it lives in."""
    groups: dict[str, list[str]] = {key: [] for key in _SECTIONS}
    for name in grundy.__all__:
        groups[_section(name)].append(name)
    lines = [
        ".. This file is generated by docs/conf.py from grundy.__all__; do not edit it.",
        "",
        "API reference",
        "=============",
        "",
        "Every public name of the package, importable as ``grundy.NAME`` (``import grundy as gr``),",
        "by the package it lives in (see :doc:`../architecture`). This list is generated from",
        "``grundy.__all__`` at build time.",
        "",
        ".. currentmodule:: grundy",
        "",
    ]
    for key, (_, title) in _SECTIONS.items():
        if not groups[key]:
            continue
        lines += [title, "-" * len(title), "", ".. autosummary::", "   :toctree: generated", ""]
        lines += [f"   {name}" for name in sorted(groups[key], key=str.lower)]
        lines.append("")
    out = HERE / "api" / "index.rst"
    out.parent.mkdir(exist_ok=True)
    text = "\n".join(lines)
    if not out.exists() or out.read_text() != text:
        out.write_text(text)


def copy_notebooks() -> None:
    """Copy ``examples/*.ipynb`` into ``docs/examples/`` (a generated folder) for myst-nb."""
    dest = HERE / "examples"
    dest.mkdir(exist_ok=True)
    sources = sorted((ROOT / "examples").glob("*.ipynb"))
    for old in dest.glob("*.ipynb"):
        if not (ROOT / "examples" / old.name).exists():
            old.unlink()
    for nb in sources:
        target = dest / nb.name
        if not target.exists() or target.read_bytes() != nb.read_bytes():
            shutil.copyfile(nb, target)


def _attribute_docs(name: str) -> list[str] | None:
    """The ``#:`` comment above ``name``'s assignment in the package's modules, if any."""
    import pkgutil

    from sphinx.pycode import ModuleAnalyzer

    for info in pkgutil.iter_modules(grundy.__path__, "grundy."):
        try:
            docs = ModuleAnalyzer.for_module(info.name).find_attr_docs()
        except Exception:  # an extension module has no source to analyse
            continue
        if ("", name) in docs:
            return list(docs[("", name)])
    return None


def document_data(app, what, name, obj, options, lines) -> None:  # noqa: ANN001 (Sphinx's hook)
    """Give public constants their own description, not the docstring of their type (int, str).

    Autodoc documents ``grundy.DEFAULT_MAX_N`` from ``grundy/__init__.py``, where it is only
    imported, so the ``#:`` comment where it is defined is looked up here.
    """
    if what != "data" or not name.startswith("grundy."):
        return
    short = name.removeprefix("grundy.")
    if short == "__version__":
        new = ["The version of the installed package, as in its metadata (for example ``'0.1.0'``)."]
    else:
        new = _attribute_docs(short) or []
    if lines and type(obj).__doc__ and "\n".join(lines).strip() == inspect.cleandoc(type(obj).__doc__).strip():
        lines[:] = new
    elif not lines:
        lines[:] = new


def setup(app) -> None:  # noqa: ANN001
    app.connect("autodoc-process-docstring", document_data)


write_api_index()
copy_notebooks()
