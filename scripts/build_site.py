"""Build dist/: the page, the engine as a zip, and the vendored runtime.

    python3 scripts/build_site.py        # after `npm ci`

dist/ is self-contained: any static host serves it as it is
(``python3 -m http.server -d dist``). PyScript and Pyodide come from
node_modules (installed from the npm registry by package-lock.json); nothing
is fetched from anywhere else, and nothing built here is committed.
"""

from __future__ import annotations

import pathlib
import shutil
import sys
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
DIST = ROOT / "dist"
PYSCRIPT = ROOT / "node_modules" / "@pyscript" / "core" / "dist"
PYODIDE = ROOT / "node_modules" / "pyodide"
#: The interpreter files the page loads; Pyodide's package wheels are not needed.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
#: A fixed time for zip entries, so the same sources give the same bytes.
ZIP_TIME = (2020, 1, 1, 0, 0, 0)


def engine_zip(target: pathlib.Path) -> None:
    """ngram_core/*.py into one zip, unpacked into the tab by PyScript's config."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted((ROOT / "ngram_core").glob("*.py")):
            if path.name == "distributed.py":
                continue                          # Dask runs on the command line only
            info = zipfile.ZipInfo(f"ngram_core/{path.name}", ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes())


def main() -> int:
    for source in (PYSCRIPT, PYODIDE):
        if not source.is_dir():
            print(f"build: {source} is missing; run `npm ci` first", file=sys.stderr)
            return 1
    if DIST.exists():
        shutil.rmtree(DIST)
    DIST.mkdir()
    for name in ("index.html", "app.py"):
        shutil.copy2(ROOT / name, DIST / name)
    shutil.copytree(ROOT / "static", DIST / "static")
    engine_zip(DIST / "ngram_core.zip")
    shutil.copytree(PYSCRIPT, DIST / "vendor" / "pyscript",
                    ignore=shutil.ignore_patterns("*.map"))
    (DIST / "vendor" / "pyodide").mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE / name, DIST / "vendor" / "pyodide" / name)
    size = sum(p.stat().st_size for p in DIST.rglob("*") if p.is_file())
    print(f"build: dist/ ready ({size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
