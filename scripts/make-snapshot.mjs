// Build step (run by scripts/build_site.py): a memory snapshot of Pyodide with
// the modules the page's Python imports already imported (the standard ones,
// the engine's and the page's that read nothing from the browser as they are
// imported, from the folder of the page's Python files, mounted where the tab
// writes them; Pyodide finds their `js` module again in the tab by its path),
// gzipped for the tab (scripts/pyodide-early.js unpacks it,
// scripts/start-pyodide.mjs starts from it).
//
//   node scripts/make-snapshot.mjs OUT.gz FOLDER module [module ...] [call:module.function]
//
// A `call:` name is a function called once every module is imported (the
// engine's warm-up: the tables it builds on first use are in the snapshot).
//
// Made with the same Pyodide the page loads (node_modules/pyodide), in Node.js:
// a snapshot only fits the interpreter version that made it.
import { gzipSync } from "node:zlib";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadPyodide } from "pyodide";

// The snapshot without its pages of zeros (about half of it), so the tab
// unpacks half the bytes. Little-endian uint32s: "NGS1", the snapshot's length,
// the page size, the count of pages kept, each kept page's index; then the kept
// pages in that order (the last may be short). pyodide-early.js's `unsparse`
// rebuilds the snapshot byte for byte.
const PAGE = 1 << 16;
const sparse = (memory) => {
  const kept = [];
  for (let start = 0; start < memory.length; start += PAGE) {
    if (memory.subarray(start, start + PAGE).some((byte) => byte !== 0)) kept.push(start / PAGE);
  }
  const header = new Uint32Array([0x3153474e, memory.length, PAGE, kept.length, ...kept]);
  const parts = [new Uint8Array(header.buffer),
                 ...kept.map((index) => memory.subarray(index * PAGE, (index + 1) * PAGE))];
  return Buffer.concat(parts);
};

const [out, folder, ...names] = process.argv.slice(2);
const calls = names.filter((name) => name.startsWith("call:")).map((name) => name.slice(5));
const modules = names.filter((name) => !name.startsWith("call:"));
if (!out || !folder) {
  console.error("usage: node scripts/make-snapshot.mjs OUT.gz FOLDER module [module ...]");
  process.exit(2);
}
const pyodide = await loadPyodide({ _makeSnapshot: true });
// Each folder of FOLDER (ngram_core, ngram_page, ...) appears in the home folder,
// where the tab writes it; only what Python reads from them enters the snapshot.
for (const entry of readdirSync(folder, { withFileTypes: true })) {
  if (!entry.isDirectory()) continue;
  const where = `${pyodide.FS.cwd()}/${entry.name}`;
  pyodide.FS.mkdirTree(where);
  pyodide.mountNodeFS(where, join(folder, entry.name));
}
pyodide.runPython(`import importlib\nfor name in ${JSON.stringify(modules)}:\n    importlib.import_module(name)\n` +
                  `for name in ${JSON.stringify(calls)}:\n` +
                  `    module, function = name.rsplit(".", 1)\n` +
                  `    getattr(importlib.import_module(module), function)()`);
const snapshot = pyodide.makeMemorySnapshot();
const packed = sparse(snapshot);
writeFileSync(out, gzipSync(packed, { level: 9 }));
console.log(`snapshot: ${snapshot.length} bytes (${packed.length} without its zero pages), ` +
            `${modules.length} modules imported`);
