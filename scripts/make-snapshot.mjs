// Build step (run by scripts/build_site.py): a memory snapshot of Pyodide with
// the modules the page's Python imports already imported (the standard ones,
// and the engine's from ngram_core.zip, unpacked where the tab unpacks it),
// gzipped for the tab (scripts/start-pyodide.mjs unpacks and starts from it).
//
//   node scripts/make-snapshot.mjs OUT.gz [ARCHIVE.zip ...] module [module ...]
//
// Made with the same Pyodide the page loads (node_modules/pyodide), in Node.js:
// a snapshot only fits the interpreter version that made it.
import { gzipSync } from "node:zlib";
import { readFileSync, writeFileSync } from "node:fs";
import { loadPyodide } from "pyodide";

const [out, ...names] = process.argv.slice(2);
const archives = names.filter((name) => name.endsWith(".zip"));
const modules = names.filter((name) => !name.endsWith(".zip"));
if (!out) {
  console.error("usage: node scripts/make-snapshot.mjs OUT.gz module [module ...]");
  process.exit(2);
}
const pyodide = await loadPyodide({ _makeSnapshot: true });
for (const archive of archives) pyodide.unpackArchive(new Uint8Array(readFileSync(archive)), "zip");
pyodide.runPython(`import importlib\nfor name in ${JSON.stringify(modules)}:\n    importlib.import_module(name)`);
const snapshot = pyodide.makeMemorySnapshot();
writeFileSync(out, gzipSync(snapshot, { level: 9 }));
console.log(`snapshot: ${snapshot.length} bytes, ${modules.length} modules imported`);
