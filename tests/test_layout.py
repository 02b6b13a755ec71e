"""The stage is the folder (#36): the engine's modules grouped by the stage they serve,
imports only downward, no circle, and a package root of a few modules."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "ngram_core"
#: Layers, lowest first: a module imports only from its own layer or those below.
LAYERS = [
    ("shapes", {"errors", "steps", "table"}),
    ("method", {"method"}),                 # rows -> tokens -> windows -> matches
    ("read", {"read"}),                     # bytes and paths -> tables -> rows
    ("report", {"report", "write"}),        # matches -> figures; files a run writes
    ("run", {"run"}),                       # a whole check: in memory, streamed, on Dask
    ("front", {"__init__", "__main__", "argv", "cli", "decontaminate", "flags", "terminal"}),
]


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE).with_suffix("").parts)


def layer_of(name: str) -> int:
    head = name.split(".")[0]
    for rank, (_, members) in enumerate(LAYERS):
        if head in members:
            return rank
    raise AssertionError(f"ngram_core.{name} is in no layer")


def imports_of(path: Path) -> set[str]:
    """The ngram_core modules a module imports (relative or absolute), by name."""
    package = module_name(path).split(".")[:-1]     # a module's package (its folder)
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
                parts = [*base, *(node.module.split(".") if node.module else [])]
            elif node.module and node.module.startswith("ngram_core."):
                parts = node.module.split(".")[1:]
            else:
                continue
            found.add(resolve(parts))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("ngram_core."):
                    found.add(resolve(alias.name.split(".")[1:]))
    return {name for name in found if name}


def resolve(parts: list[str]) -> str:
    """The module a dotted path inside the package names (a package: its __init__)."""
    for end in range(len(parts), 0, -1):
        if (PACKAGE.joinpath(*parts[:end]).with_suffix(".py")).is_file():
            return ".".join(parts[:end])
    if parts and (PACKAGE.joinpath(*parts) / "__init__.py").is_file():
        return ".".join(parts) + ".__init__"
    return "__init__" if not parts else ""


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def test_the_engines_folders_are_its_stages_and_its_root_is_small():
    folders = sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__")
    assert folders == ["method", "read", "report", "run", "write"]
    root = sorted(p.stem for p in PACKAGE.glob("*.py"))
    assert len(root) <= 10, root
    for folder in folders:
        doc = ast.get_docstring(ast.parse((PACKAGE / folder / "__init__.py").read_text()))
        assert doc and "Contract" in doc, f"ngram_core/{folder}/__init__.py states no contract"


def test_imports_only_go_down_the_stages():
    upward = []
    for name, path in MODULES.items():
        for imported in imports_of(path):
            if layer_of(imported) > layer_of(name):
                upward.append(f"ngram_core.{name} imports ngram_core.{imported}")
    assert not upward, "\n".join(upward)


def test_no_import_circle():
    graph = {name: imports_of(path) - {name} for name, path in MODULES.items()}
    state: dict[str, int] = {}

    def visit(name: str, trail: list[str]) -> None:
        state[name] = 1
        for other in sorted(graph.get(name, ())):
            if state.get(other) == 1:
                raise AssertionError(" -> ".join([*trail, name, other]))
            if other not in state:
                visit(other, [*trail, name])
        state[name] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [])


def test_the_package_imports_from_outside_the_checkout(tmp_path):
    done = subprocess.run([sys.executable, "-c", "import ngram_core, ngram_overlap, "
                           "ngram_core.run.stream, ngram_core.write.cleaned"],
                          cwd=tmp_path, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
