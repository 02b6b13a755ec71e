// Build step (run by scripts/build_site.py): each zip of Python sources gets
// its modules' bytecode beside them (__pycache__/NAME.TAG.pyc), compiled by the
// Pyodide the page loads, so the tab imports them without compiling.
//
//   node scripts/compile-bytecode.mjs ARCHIVE.zip [ARCHIVE.zip ...]   (rewritten in place)
//
// The .pyc files are "unchecked hash" ones (PEP 552): Python uses them without
// comparing them with the sources, whose times change when the tab unpacks
// them; both come from the same build, so they always agree.
import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const archives = process.argv.slice(2);
const pyodide = await loadPyodide();
const ADD_BYTECODE = `
import compileall, os, py_compile, shutil, zipfile

def add_bytecode(path, time):
    shutil.rmtree("/tmp/src", ignore_errors=True)
    with zipfile.ZipFile(path) as z:
        z.extractall("/tmp/src")
    if not compileall.compile_dir("/tmp/src", quiet=2,
                                  invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH):
        raise SystemExit("a module did not compile")
    names = sorted(os.path.relpath(os.path.join(d, f), "/tmp/src")
                   for d, _, files in os.walk("/tmp/src") for f in files)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name in names:
            info = zipfile.ZipInfo(name, time)
            info.compress_type = zipfile.ZIP_DEFLATED
            with open(os.path.join("/tmp/src", name), "rb") as f:
                z.writestr(info, f.read())
`;
pyodide.runPython(ADD_BYTECODE);
for (const archive of archives) {
  pyodide.FS.writeFile("/tmp/archive.zip", readFileSync(archive));
  pyodide.runPython(`add_bytecode("/tmp/archive.zip", (2020, 1, 1, 0, 0, 0))`);
  writeFileSync(archive, pyodide.FS.readFile("/tmp/archive.zip"));
}
console.log(`bytecode added to ${archives.length} archive(s)`);
