"""The shape of the package, read from its source: layers, no import cycle, room sizes.

ARCHITECTURE.md (at the root of the checkout) describes the layers; these tests keep it true. Every
import counts: at module level, inside functions and under ``TYPE_CHECKING``.
"""

import ast
import importlib
import re
from pathlib import Path

import pytest

import grundy

PACKAGE = Path(grundy.__file__).resolve().parent
CHECKOUT = Path(__file__).resolve().parents[2]

#: Bottom to top: a module may import modules of its own layer's package and of layers below.
LAYERS = [
    ("foundation", ["grundy.exceptions", "grundy._validate", "grundy._core"]),
    ("ui", ["grundy._ui"]),
    ("play", ["grundy.play"]),
    ("analysis", ["grundy.analysis"]),
    ("io", ["grundy.io"]),
    ("games", ["grundy.games"]),
    ("surveys", ["grundy.surveys"]),
    ("api", ["grundy"]),  # the package root and the command line
]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    out = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    out["grundy._core"] = PACKAGE / "_core.pyi"
    return out


MODULES = _modules()


def _imports(name: str, path: Path) -> set[str]:
    """The grundy modules ``name`` imports, wherever the import statement stands."""
    if path.suffix == ".pyi":
        return set()
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in MODULES]
            found.update(subs)
            if len(subs) < len(node.names):
                found.add(target)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _layer(module: str) -> int:
    best, rank = -1, None
    for i, (_, roots) in enumerate(LAYERS):
        for root in roots:
            if (module == root or module.startswith(root + ".")) and len(root) > best:
                best, rank = len(root), i
    assert rank is not None, f"{module} belongs to no layer of LAYERS"
    return rank


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_checker_sees_every_kind_of_import():
    # Inside a function (graph -> loopy was one), under TYPE_CHECKING, relative and absolute.
    assert "grundy.games.graph.loopy" in GRAPH["grundy.games.graph.game"]
    assert "grundy.games.heap.game" in GRAPH["grundy.games.heap.take_and_break"]
    assert "grundy.analysis.quotient_build" in GRAPH["grundy.games.heap.components"]
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle():
    assert _cycles(GRAPH) == []


def test_layers_import_only_downward():
    upward = [
        f"{m} ({LAYERS[_layer(m)][0]}) imports {t} ({LAYERS[_layer(t)][0]})"
        for m, targets in GRAPH.items()
        for t in targets
        if _layer(t) > _layer(m)
    ]
    assert upward == []


def test_no_python_module_over_600_lines():
    big = {name: n for name, path in MODULES.items() if (n := len(path.read_text(encoding="utf-8").splitlines())) > 600}
    assert big == {}


@pytest.mark.skipif(not (CHECKOUT / "src").is_dir(), reason="needs the checkout's Rust sources")
def test_no_rust_source_over_1000_lines():
    big = {
        str(p.relative_to(CHECKOUT)): n
        for p in (CHECKOUT / "src").rglob("*.rs")
        if p.stem != "tests" and (n := len(p.read_text(encoding="utf-8").splitlines())) > 1000
    }
    assert big == {}


def test_one_module_imports_tqdm():
    imports_tqdm = re.compile(r"^\s*(from|import) tqdm", re.M)
    sources = {m: p.read_text(encoding="utf-8") for m, p in MODULES.items() if p.suffix == ".py"}
    users = sorted(m for m, text in sources.items() if imports_tqdm.search(text))
    assert users == ["grundy._ui.progress"]


def test_one_misere_limit():
    defines = re.compile(r"^MISERE_MAX_POSITIONS\s*=", re.M)
    sources = {m: p.read_text(encoding="utf-8") for m, p in MODULES.items() if p.suffix == ".py"}
    defined = sorted(m for m, text in sources.items() if defines.search(text))
    assert defined == ["grundy.play.misere"]


@pytest.mark.skipif(not (CHECKOUT / "ARCHITECTURE.md").exists(), reason="needs the checkout's ARCHITECTURE.md")
def test_architecture_md_lists_the_layers_in_order():
    text = (CHECKOUT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d) \| ([^|]+) \|", text, re.M)
    listed = [(int(n), sorted(re.findall(r"`(grundy[\w.]*)`", cell))) for n, cell in rows]
    assert listed == [(i, sorted(roots)) for i, (_, roots) in enumerate(LAYERS)]


# -- the module paths of before the packages are gone (CHANGELOG.md, Unreleased) ------------------
@pytest.mark.parametrize(
    "path",
    ["loopy", "graph", "heap_game", "state_game", "two_heap", "position", "periodicity", "misere_quotient"],
)
def test_old_module_paths_are_gone(path):
    assert not (PACKAGE / f"{path}.py").exists()
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"grundy.{path}")


def test_all_is_grouped_and_complete():
    assert len(grundy.__all__) == len(set(grundy.__all__))
    for name in grundy.__all__:
        assert hasattr(grundy, name), name
