"""Build dist/: the page, its Python in one archive, and the vendored runtime.

    python3 scripts/build_site.py        # after `npm ci`

dist/ is self-contained: any static host serves it as it is
(``python3 -m http.server -d dist``). PyScript and Pyodide come from
node_modules (installed from the npm registry by package-lock.json); nothing
is fetched from anywhere else, and nothing built here is committed.

The tab gets ``python-files.tar.gz``: the engine modules named in
ENGINE_MODULES (no others: the command-line modules stay out), the page
package, the bytecode of the page modules the start-up snapshot has not
imported, and the bytecode of PyScript's own ``pyscript`` package (compiled
by the page's own Pyodide; PyScript writes that package's sources at start,
and Python then uses the bytecode instead of compiling them). The page's
start module writes these files into the interpreter's home before app.py
runs. The build fails if a listed module is missing, or if anything shipped
imports an engine module that is not listed or is command-line only.
"""

from __future__ import annotations

import ast
import gzip
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
PYSCRIPT = ROOT / "node_modules" / "@pyscript" / "core" / "dist"
PYODIDE = ROOT / "node_modules" / "pyodide"
#: The interpreter files the page loads; Pyodide's package wheels are not needed.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
#: The engine modules the tab needs, and only those.
ENGINE_MODULES = ("__init__", "errors", "steps", "table", "argv",
                  "read.__init__", "read.readers", "read.conll", "read.delimited",
                  "read.json_rows", "read.fields", "read.files", "read.record_stream",
                  "method.__init__", "method.tokenize", "method.index", "method.match",
                  "method.template", "method.settings", "method.similar", "method.tokenize_arrow",
                  "method.similar_arrow", "method.window_filter_plain",
                  "report.__init__", "report.summary", "report.export", "report.result",
                  "report.definitions", "report.scores", "report.clean_split",
                  "report.contamination", "report.explore", "report.shared_windows",
                  "run.__init__", "run.check", "run.warm", "run.stream", "run.suite")
#: Shipped engine modules the snapshot does not import: the streamed check and the
#: suite, which the tab imports only when several test sets are picked (their
#: standard modules, bz2, lzma, csv..., stay out of the start too).
ENGINE_LAZY = ("read.files", "read.record_stream", "method.tokenize_arrow",
               "method.similar_arrow", "method.window_filter_plain", "run.stream", "run.suite")
#: Engine modules the tab cannot import (numpy): never shipped; a shipped module may
#: try to import one only where it falls back when it is missing.
TAB_LACKS = ("method.window_filter",)
#: Called in the build-time snapshot once its modules are imported: the tables the
#: engine builds on first use are then made before the tab starts.
WARM_UP = "ngram_core.run.warm.warm_caches"
#: Engine modules for the command line only; shipping or importing one in the tab is an error.
COMMAND_ONLY = ("__main__", "cli", "decontaminate", "flags", "terminal", "run.distributed",
                "write.__init__", "write.outputs", "write.cleaned")
#: The page's own Python: the whole ngram_page package.
PAGE_PACKAGE = "ngram_page"
#: Sent gzipped (the start module unpacks them in the tab); the plain files stay as
#: the fallback.
GZIPPED = ("pyodide.asm.wasm", "pyodide.asm.mjs")
#: The page's interpreter module, which starts Pyodide from the snapshot, and the
#: page's first script, whose workers get the snapshot and Pyodide's big files
#: ready off the page's thread (see the files): source -> name in vendor/pyodide.
START_FILES = {"start-pyodide.mjs": "start.mjs", "pyodide-early.js": "early.js"}
SNAPSHOT_SCRIPT = ROOT / "scripts" / "make-snapshot.mjs"
BYTECODE_SCRIPT = ROOT / "scripts" / "compile-bytecode.mjs"
#: Standard modules PyScript's own Python (the pyscript package) imports before
#: app.py runs, imported into the snapshot too (html.entities took 60-90 ms).
PYSCRIPT_IMPORTS = ("html", "html.entities")
#: Modules the tab provides (not standard modules): never in the standard modules the
#: snapshot imports (the page modules that import them are: see snapshot_page_modules).
BROWSER_ONLY = ("js", "pyodide", "pyodide_js", "pyscript")
#: The page's Python files, as index.html's early.js script names them.
PYTHON_FILES = "python-files.tar.gz"
#: PyScript's own Python package, as its build leaves it (a module whose default
#: export maps each file of the package to its text).
PYSCRIPT_PACKAGE = ROOT / "node_modules" / "@pyscript" / "core" / "src" / "stdlib" / "pyscript.js"
#: A fixed time for archive entries, so the same sources give the same bytes.
ARCHIVE_TIME = 1577836800          # 2020-01-01


class BuildError(Exception):
    pass


#: The script tag that loads PyScript (index.html).
PYSCRIPT_ENTRY = '<script type="module" src="./vendor/pyscript/core.js"></script>'


def pyscript_core_chunk(entry: str) -> str:
    """The module PyScript's entry module (core.js) only re-exports, by file name:
    ``export{p as MPWorker,...}from"./core-C9KDLldu.js";`` -> ``core-C9KDLldu.js``
    (the name carries a hash of the version's contents)."""
    found = set(re.findall(r'from\s*"\./(core-[\w-]+\.js)"', entry))
    if len(found) != 1:
        raise BuildError(f"PyScript's core.js re-exports {len(found)} core chunks, not one")
    return found.pop()


def with_core_preload(html: str, chunk: str) -> str:
    """index.html with PyScript's core chunk preloaded beside its entry module, so
    both are requested as the page is parsed, not the chunk once core.js has
    arrived and been parsed (about 0.1 s later in a trace)."""
    if html.count(PYSCRIPT_ENTRY) != 1:
        raise BuildError("index.html does not load PyScript's core.js once")
    link = f'<link rel="modulepreload" href="./vendor/pyscript/{chunk}">'
    return html.replace(PYSCRIPT_ENTRY, f"{link}\n{PYSCRIPT_ENTRY}")


def engine_files() -> list[pathlib.Path]:
    """ngram_core/<name>.py for each of ENGINE_MODULES; a missing one is an error."""
    listed_command = sorted(set(ENGINE_MODULES) & set(COMMAND_ONLY))
    if listed_command:
        raise BuildError(f"ENGINE_MODULES lists command-line modules: {listed_command}")
    paths = [module_path("ngram_core", name) for name in ENGINE_MODULES]
    missing = [str(p.relative_to(ROOT)) for p in paths if not p.is_file()]
    if missing:
        raise BuildError(f"ENGINE_MODULES names modules that do not exist: {missing}")
    return paths


def page_files() -> list[pathlib.Path]:
    paths = sorted((ROOT / PAGE_PACKAGE).glob("*.py"))
    if not any(p.name == "__init__.py" for p in paths):
        raise BuildError(f"{PAGE_PACKAGE}/__init__.py is missing")
    return paths


def module_path(package: str, module: str) -> pathlib.Path:
    """``("ngram_core", "read.fields")`` -> ngram_core/read/fields.py."""
    return ROOT / package / (module.replace(".", "/") + ".py")


def module_key(path: pathlib.Path) -> tuple[str, str]:
    """ngram_core/read/fields.py -> ``("ngram_core", "read.fields")``."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    return parts[0], ".".join(parts[1:])


def _module_of(package: str, parts: list[str]) -> str:
    """The module a dotted path inside ``package`` names: the shortest prefix that is
    a file of it (``read.fields`` of ``read.fields.select_rows``), else its first part."""
    for end in range(1, len(parts) + 1):
        if module_path(package, ".".join(parts[:end])).is_file():
            return ".".join(parts[:end])
    return parts[0]


def imported(path: pathlib.Path) -> set[tuple[str, str]]:
    """``(package, module)`` for every ngram_core/ngram_page submodule ``path`` may import
    (``module`` dotted within its package: ``read.fields``)."""
    try:
        package = ".".join(path.relative_to(ROOT).parent.parts)
    except ValueError:                     # outside the checkout (a test's made-up package)
        package = path.parent.name
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1]) \
                if node.level else ""
            module = ".".join(filter(None, [base, node.module]))
            # `from pkg import x` may name a submodule x, or a name defined in pkg
            names = [module] + [f"{module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[0] in ("ngram_core", PAGE_PACKAGE) and len(parts) > 1:
                found.add((parts[0], _module_of(parts[0], parts[1:])))
    return found


def check_imports(shipped: list[pathlib.Path]) -> None:
    """Everything shipped imports only shipped modules (never a command-line one)."""
    names = {module_key(p) for p in shipped}
    problems = []
    for path in shipped:
        for package, module in sorted(imported(path)):
            exists = module_path(package, module).is_file()
            if package == "ngram_core" and module in TAB_LACKS:
                continue
            if package == "ngram_core" and module in COMMAND_ONLY:
                problems.append(f"{path.relative_to(ROOT)} imports the command-line module "
                                f"ngram_core.{module}")
            elif exists and (package, module) not in names:
                problems.append(f"{path.relative_to(ROOT)} imports {package}.{module}, which "
                                f"is not shipped (add it to ENGINE_MODULES)")
    if problems:
        raise BuildError("; ".join(problems))


def stdlib_imports(paths: list[pathlib.Path]) -> list[str]:
    """The standard-library modules the shipped Python imports (top-level names),
    to import into the snapshot so the tab need not import them at start."""
    found = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                found.add(node.module)
    names = {name for name in found if name.split(".")[0] in sys.stdlib_module_names}
    return sorted(name for name in names if name.split(".")[0] not in BROWSER_ONLY
                  and name != "__future__")


def _error_lines(stderr: str) -> str:
    """What a failed Node.js script said, without the minified source lines it quotes
    (a Pyodide error quotes a whole line of pyodide.asm.mjs): the lines under 400
    characters, the last 40 of them."""
    lines = [line for line in stderr.splitlines() if len(line) < 400]
    return "\n".join(lines[-40:])


def run_node(script: pathlib.Path, args: list[str], what: str) -> None:
    """``node script args``; a BuildError saying ``what`` failed if it does."""
    try:
        made = subprocess.run(["node", str(script), *args], cwd=ROOT, capture_output=True,
                              text=True)
    except FileNotFoundError as e:
        raise BuildError(f"node is needed to make {what}") from e
    if made.returncode:
        raise BuildError(f"{what} could not be made:\n{_error_lines(made.stderr)}")


def reads_browser_at_import(path: pathlib.Path) -> list[str]:
    """What ``path`` reads from the browser while it is imported (outside function
    bodies): ``js.`` attributes and calls of what it imported from ``.dom``. A
    module imported into the build-time snapshot runs in Node.js, whose values
    would be kept; the ``js`` module itself is fine (Pyodide finds it again in
    the tab, by its path from globalThis)."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    from_dom = {alias.asname or alias.name for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.level and node.module == "dom"
                for alias in node.names}
    found = []

    def visit(node) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for decorator in node.decorator_list:  # decorators run at import
                if isinstance(decorator, ast.Name) and decorator.id in from_dom:
                    found.append(f"line {decorator.lineno}: @{decorator.id}")
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for decorator in getattr(node, "decorator_list", []):
                visit(decorator)
            return                                 # a body runs when called, not at import
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id == "js":
            found.append(f"line {node.lineno}: js.{node.attr}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in from_dom:
            found.append(f"line {node.lineno}: {node.func.id}()")
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def snapshot_page_modules(paths: list[pathlib.Path]) -> list[str]:
    """The page modules to import into the build-time snapshot, so the tab need not
    import them at start: every one that reads nothing from the browser while it is
    imported, nor imports (through other page modules) one that does."""
    local: dict[str, set[str]] = {}
    reaching: set[str] = set()
    for path in paths:
        name = path.stem
        local[name] = set()
        if reads_browser_at_import(path):
            reaching.add(name)
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom) and node.level:  # from . import x / from .x import y
                names = [node.module] if node.module else [alias.name for alias in node.names]
                local[name].update(n.split(".")[0] for n in names)
    changed = True
    while changed:
        changed = False
        for name, imports in local.items():
            if name not in reaching and imports & reaching:
                reaching.add(name)
                changed = True
    return [f"{PAGE_PACKAGE}.{name}" for name in sorted(local)
            if name not in reaching and name != "__init__"]


def vendor_pyodide(target: pathlib.Path, modules: list[str], stage: pathlib.Path) -> None:
    """Pyodide's files, its binary gzipped too, the start files and the snapshot
    (with ``modules`` and the engine's modules imported from ``stage``, the page's
    Python files, seen where the tab writes them)."""
    target.mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE / name, target / name)
    for name in GZIPPED:
        data = (PYODIDE / name).read_bytes()
        (target / f"{name}.gz").write_bytes(gzip.compress(data, 9, mtime=0))
    for source, name in START_FILES.items():
        shutil.copy2(ROOT / "scripts" / source, target / name)
    run_node(SNAPSHOT_SCRIPT, [str(target / "snapshot.bin.gz"), str(stage), *modules,
                               *(f"ngram_core.{name}" for name in ENGINE_MODULES
                                 if not name.endswith("__init__") and name not in ENGINE_LAZY),
                               f"call:{WARM_UP}"],
             "the start-up snapshot")


def stage_python(stage: pathlib.Path, engine: list[pathlib.Path], page: list[pathlib.Path],
                 snapshot_modules: list[str]) -> None:
    """The page's Python files laid out under ``stage`` as the tab gets them: the
    sources, and bytecode (compiled by the page's Pyodide) for the page modules
    not in ``snapshot_modules`` and for PyScript's own package."""
    for path in [*engine, *page]:          # each where it is in the checkout
        target = stage / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
    compiled = [f"{PAGE_PACKAGE}/{path.name}" for path in page
                if f"{PAGE_PACKAGE}.{path.stem}" not in snapshot_modules]
    bundles = sorted(PYSCRIPT.glob("core-*.js"))
    run_node(BYTECODE_SCRIPT, [str(stage), str(PYSCRIPT_PACKAGE), *map(str, bundles), *compiled],
             "the modules' bytecode")


def write_archive(target: pathlib.Path, stage: pathlib.Path) -> None:
    """Every file under ``stage`` into one gzipped tar, sorted, with fixed times
    and owners, so the same files give the same bytes."""
    with open(target, "wb") as raw, \
            gzip.GzipFile("", "wb", 9, raw, mtime=0) as packed, \
            tarfile.open(fileobj=packed, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for path in sorted(p for p in stage.rglob("*") if p.is_file()):
            info = tarfile.TarInfo(path.relative_to(stage).as_posix())
            info.size, info.mtime, info.mode = path.stat().st_size, ARCHIVE_TIME, 0o644
            with open(path, "rb") as data:
                tar.addfile(info, data)


def main() -> int:
    for source in (PYSCRIPT, PYODIDE):
        if not source.is_dir():
            print(f"build: {source} is missing; run `npm ci` first", file=sys.stderr)
            return 1
    try:
        engine, page = engine_files(), page_files()
        check_imports([*engine, *page, ROOT / "app.py"])
    except BuildError as e:
        print(f"build: {e}", file=sys.stderr)
        return 1
    if DIST.exists():
        shutil.rmtree(DIST)
    DIST.mkdir()
    shutil.copy2(ROOT / "app.py", DIST / "app.py")
    shutil.copytree(ROOT / "static", DIST / "static")
    shutil.copytree(PYSCRIPT, DIST / "vendor" / "pyscript",
                    ignore=shutil.ignore_patterns("*.map"))
    eager = [path for path in engine if module_key(path)[1] not in ENGINE_LAZY]
    snapshot_modules = [*stdlib_imports([*eager, *page, ROOT / "app.py"]), *PYSCRIPT_IMPORTS,
                        *snapshot_page_modules(page)]
    try:
        chunk = pyscript_core_chunk((PYSCRIPT / "core.js").read_text(encoding="utf-8"))
        (DIST / "index.html").write_text(
            with_core_preload((ROOT / "index.html").read_text(encoding="utf-8"), chunk),
            encoding="utf-8")
        with tempfile.TemporaryDirectory() as folder:
            stage = pathlib.Path(folder)
            stage_python(stage, engine, page, snapshot_modules)
            write_archive(DIST / PYTHON_FILES, stage)
            vendor_pyodide(DIST / "vendor" / "pyodide", snapshot_modules, stage)
    except BuildError as e:
        print(f"build: {e}", file=sys.stderr)
        return 1
    size = sum(p.stat().st_size for p in DIST.rglob("*") if p.is_file())
    print(f"build: dist/ ready ({size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
