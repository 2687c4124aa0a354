"""The package's layers, checked from its import graph.

files -> timeline -> findings -> verdict -> report: a module may import its own
layer and the layers below it, never one above. Imports inside functions count
too (a lazy import is still a dependency). ``correlator.ingest`` (the package)
is ingest's public face; its stage modules are ingest's own business.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# Each layer, by module prefix, and what it may import of correlator and parsers.
# "correlator.ingest" alone means the package's public names, not its modules.
ALLOWED: dict[str, set[str]] = {
    "correlator": set(),  # __version__ and the package map
    "correlator.output": set(),
    "correlator.progress": set(),  # progress bars: any step may report to them
    "correlator.synth": set(),
    "correlator.verdict": set(),
    "correlator.timeline": {"correlator.timeline", "correlator.output"},
    # where tasks run (a process pool, Ray): knows nothing of what they do
    "correlator.engine": {"correlator.engine"},
    "correlator.ingest": {"correlator.ingest.*", "correlator.timeline", "correlator.output", "correlator.progress",
                          "correlator.engine", "parsers"},
    "correlator.target": {"correlator.ingest", "correlator.timeline"},
    "correlator.analysis": {
        "correlator.analysis", "correlator.timeline", "correlator.target", "correlator.verdict", "correlator.ingest",
        "correlator.progress",
    },
    "correlator.report": {
        "correlator.report", "correlator.verdict", "correlator.analysis", "correlator.target",
        "correlator.timeline", "correlator.ingest", "correlator.output",
    },
    "correlator.batch": {
        "correlator.batch", "correlator.analysis", "correlator.report", "correlator.target",
        "correlator.timeline", "correlator.verdict", "correlator.ingest", "correlator.output", "correlator.progress",
        "correlator.engine",
    },
    # watch follows files with ingest's own stages (its reader, discovery and per-file parser),
    # not only its public face, and asks analyze for verdicts
    "correlator.watch": {
        "correlator.watch", "correlator.ingest", "correlator.ingest.*", "correlator.analysis", "correlator.target",
        "correlator.timeline", "correlator.verdict", "correlator.output", "correlator.progress",
    },
    "correlator.cli": {"correlator.*", "parsers"},
    "correlator.__main__": {"correlator.cli", "correlator.ingest.workers"},
    "parsers": {"parsers"},
}
ALWAYS = {"correlator"}  # __version__


def module_name(path: Path, root: Path = REPO) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, root: Path = REPO) -> set[str]:
    """Every correlator / parsers module ``path`` imports, at any depth of its code."""
    tree = ast.parse(path.read_text(), str(path))
    own = module_name(path, root)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            for a in node.names:
                # `from correlator.ingest import workers` imports a module; `import ingest` a name
                candidate = f"{base}.{a.name}"
                found.add(candidate if _is_module(candidate, root) else base)
    return {m for m in found if m.split(".")[0] in ("correlator", "parsers")}


def _is_module(name: str, root: Path) -> bool:
    p = root.joinpath(*name.split("."))
    return p.with_suffix(".py").is_file() or (p / "__init__.py").is_file()


def layer_of(module: str) -> str:
    return max((k for k in ALLOWED if module == k or module.startswith(k + ".")), key=len)


def allowed(importer: str, imported: str) -> bool:
    if imported in ALWAYS:
        return True
    for rule in ALLOWED[layer_of(importer)]:
        if rule.endswith(".*"):
            if imported.startswith(rule[:-1]) or imported == rule[:-2]:
                return True
        elif rule == "correlator.ingest":
            if imported == rule:  # the public package only
                return True
        elif imported == rule or imported.startswith(rule + "."):
            return True
    return False


def graph(root: Path = REPO) -> dict[str, set[str]]:
    files = [*root.joinpath("correlator").rglob("*.py"), *root.joinpath("parsers").rglob("*.py")]
    return {module_name(f, root): imports_of(f, root) for f in files}


def violations(g: dict[str, set[str]]) -> list[str]:
    return sorted(f"{a} imports {b}" for a, deps in g.items() for b in deps if not allowed(a, b))


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Import circles among the modules (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in g.get(v, ()):
            # a package's __init__ is imported with each of its modules: not an edge back
            if w not in g or v.startswith(w + "."):
                continue
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
                found.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return found


def test_no_layer_imports_one_above_it():
    assert violations(graph()) == []


def test_no_import_circle():
    assert cycles(graph()) == []


def test_every_module_belongs_to_a_layer():
    for module in graph():
        assert layer_of(module), module


def test_every_package_says_its_stage_and_what_it_may_import():
    for init in REPO.joinpath("correlator").glob("*/__init__.py"):
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        assert "May import" in doc or "Nothing below imports it" in doc, init


@pytest.mark.parametrize(
    ("importer", "planted"),
    [
        ("correlator/ingest/fold.py", "from correlator.analysis.analyze import analyze"),
        ("correlator/ingest/classify.py", "import correlator.report.text"),
        ("correlator/target.py", "from correlator.batch.run import run_batch"),
        ("correlator/analysis/analyze.py", "from correlator.ingest.read import iter_line_batches"),
        ("correlator/report/html.py", "from correlator.ingest.classify import classify"),
        ("correlator/batch/run.py", "from correlator.cli import main"),
        ("correlator/timeline/schema.py", "from correlator.ingest import ingest"),
    ],
)
def test_a_planted_violation_is_caught(tmp_path, importer, planted):
    copy = tmp_path / "repo"
    for top in ("correlator", "parsers"):
        for f in REPO.joinpath(top).rglob("*.py"):
            dest = copy / f.relative_to(REPO)
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_text(f.read_text())
    target = copy / importer
    # inside a function, as a lazy import would be
    target.write_text(target.read_text() + f"\n\ndef _planted():\n    {planted}\n")
    assert violations(graph(copy)), planted


def test_a_planted_circle_is_caught():
    g = graph()
    g["correlator.timeline.schema"] = g["correlator.timeline.schema"] | {"correlator.timeline.shapes"}
    g["correlator.timeline.shapes"] = g["correlator.timeline.shapes"] | {"correlator.timeline.schema"}
    assert ["correlator.timeline.schema", "correlator.timeline.shapes"] in cycles(g)
