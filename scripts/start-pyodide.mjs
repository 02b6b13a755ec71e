// The interpreter module index.html names (copied next to pyodide.mjs by the build).
// No matching logic here: this only starts Pyodide faster, with the same engine.
//
//  1. Pyodide starts from a memory snapshot made at build time
//     (scripts/make-snapshot.mjs): the interpreter is up and the standard
//     modules the engine uses are imported, instead of starting CPython here.
//  2. The WebAssembly binary, its JavaScript half (pyodide.asm.mjs) and the
//     snapshot are sent gzipped and unpacked in the tab (DecompressionStream),
//     so the page sends fewer bytes than it did with the plain files and no
//     snapshot.
//
// When the snapshot cannot be fetched or used, Pyodide starts as it would
// without it: same interpreter, same results, about two seconds later.
import { loadPyodide as startPyodide, version } from "./pyodide.mjs";

export { version };

const here = (name) => new URL(name, import.meta.url).href;
const WASM = here("pyodide.asm.wasm");

const gunzipped = async (url) => {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
  return response.body.pipeThrough(new DecompressionStream("gzip"));
};

// Pyodide fetches its binary with the global fetch while it starts: answer that
// request from the gzipped copy, fetched early (falling back to the plain file).
let earlyWasm = null;
const withGzippedWasm = async (start) => {
  const plainFetch = globalThis.fetch;
  globalThis.fetch = (resource, init) => {
    const url = resource instanceof Request ? resource.url : String(resource);
    if (url !== WASM) return plainFetch(resource, init);
    const body = earlyWasm || gunzipped(`${WASM}.gz`);
    earlyWasm = null;                       // a stream is read once
    return body.then(
      (stream) => new Response(stream, { headers: { "Content-Type": "application/wasm" } }),
      () => plainFetch(resource, init));
  };
  try {
    return await start();
  } finally {
    globalThis.fetch = plainFetch;
  }
};

// pyodide.asm.mjs from its gzipped copy, imported from a blob: URL of this
// page (Pyodide takes the module's factory as `createPyodideModule`).
const gzippedFactory = async () => {
  const source = await new Response(await gunzipped(here("pyodide.asm.mjs.gz"))).blob();
  const url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  try {
    return (await import(url)).default;
  } finally {
    URL.revokeObjectURL(url);
  }
};

export async function loadPyodide(options = {}) {
  // the downloads run side by side, and beside Pyodide's own; each failure means
  // the plain way. Only the snapshot's answer is awaited before starting (a
  // missing file is known at once); its bytes are unpacked while the binary
  // compiles.
  earlyWasm = gunzipped(`${WASM}.gz`);
  earlyWasm.catch(() => {});
  const factory = gzippedFactory().catch(() => undefined);
  const body = await gunzipped(here("snapshot.bin.gz")).catch(() => null);
  const snapshot = body && new Response(body).arrayBuffer().then((buffer) => new Uint8Array(buffer));
  if (snapshot) snapshot.catch(() => {});   // Pyodide awaits it; a failure is caught below
  const createPyodideModule = await factory;
  const start = { ...options, ...(createPyodideModule ? { createPyodideModule } : {}) };
  if (snapshot) {
    try {
      return await withGzippedWasm(() => startPyodide({ ...start, _loadSnapshot: snapshot }));
    } catch (error) {
      console.info(`Starting Python without its snapshot (${error && error.message}).`);
    }
  }
  return withGzippedWasm(() => startPyodide(start));
}
