// Build step (run by scripts/build_site.py): bytecode for the page's Python,
// compiled by the Pyodide the page loads, so the tab imports without compiling.
//
//   node scripts/compile-bytecode.mjs STAGE PYSCRIPT_PACKAGE.js BUNDLE.js [...] MODULE.py [...]
//
// STAGE is the folder of the page's Python files (as the tab gets them). Each
// MODULE.py (a path under STAGE) gets STAGE/<dir>/__pycache__/<name>.<tag>.pyc,
// and so does each file of PyScript's own `pyscript` package (the default
// export of PYSCRIPT_PACKAGE.js: file name -> text), whose sources PyScript
// itself writes into the tab at start: only their bytecode goes into STAGE.
// Each of those texts must appear in a BUNDLE.js (the PyScript the page
// loads), so the bytecode is of the very text PyScript writes.
//
// The .pyc files are "unchecked hash" ones (PEP 552): Python uses them without
// comparing them with the sources, whose times change when the tab writes
// them; both come from the same build, so they always agree.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { loadPyodide } from "pyodide";

const args = process.argv.slice(2);
const [stage, packageModule] = args;
const bundles = args.filter((arg) => arg.endsWith(".js") && arg !== packageModule);
const modules = args.slice(2).filter((arg) => arg.endsWith(".py"));
if (!stage || !packageModule || !bundles.length) {
  console.error("usage: node scripts/compile-bytecode.mjs STAGE PYSCRIPT_PACKAGE.js BUNDLE.js [...] MODULE.py [...]");
  process.exit(2);
}

// PyScript's package as files: "pyscript/__init__.py" -> text (folders nested).
const flatten = (tree, base) => Object.entries(tree).flatMap(([name, value]) =>
  typeof value === "string" ? [[`${base}${name}`, value]] : flatten(value, `${base}${name}/`));
const pyscriptFiles = flatten((await import(pathToFileURL(packageModule).href)).default, "");
const shipped = bundles.map((bundle) => readFileSync(bundle, "utf8")).join("\n");
const unlike = pyscriptFiles.filter(([, text]) => !shipped.includes(JSON.stringify(text)));
if (unlike.length) {
  console.error(`PyScript's bundle does not hold these files as built: ${unlike.map(([n]) => n)}`);
  process.exit(1);
}

const pyodide = await loadPyodide();
pyodide.mountNodeFS("/stage", stage);
pyodide.globals.set("modules", pyodide.toPy(modules));
pyodide.globals.set("pyscript_files", pyodide.toPy(pyscriptFiles));
pyodide.runPython(`
import os, py_compile

def compile_to_cache(path):
    py_compile.compile(path, doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)

for name in modules:
    compile_to_cache(os.path.join("/stage", name))
for name, text in pyscript_files:
    path = os.path.join("/stage", name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    compile_to_cache(path)
    os.remove(path)
`);
console.log(`bytecode for ${modules.length} module(s) and PyScript's ${pyscriptFiles.length} file(s)`);
