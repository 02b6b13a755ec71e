// The interpreter module index.html names (copied next to pyodide.mjs by the build).
// No matching logic here: this only starts Pyodide faster, with the same engine.
//
//  1. Pyodide starts from a memory snapshot made at build time
//     (scripts/make-snapshot.mjs): the interpreter is up and the standard
//     modules the engine uses are imported, instead of starting CPython here.
//  2. The WebAssembly binary, its JavaScript half (pyodide.asm.mjs) and the
//     snapshot are sent gzipped and unpacked in the tab (DecompressionStream),
//     so the page sends fewer bytes than it did with the plain files and no
//     snapshot; the snapshot's file leaves out its pages of zeros.
//  3. Every download starts, and the binary compiles, as soon as this module
//     is evaluated: boot.js imports it while PyScript is still loading (a
//     module runs once, so PyScript's own import later finds it under way).
//
// When a file cannot be fetched or used, Pyodide starts as it would without
// it: same interpreter, same results, later.
import { loadPyodide as startPyodide, version } from "./pyodide.mjs";

export { version };

const here = (name) => new URL(name, import.meta.url).href;
const WASM = here("pyodide.asm.wasm");
// Files Pyodide fetches itself while it starts, fetched here at once instead.
const EARLY = [here("python_stdlib.zip"), here("pyodide-lock.json")];

const gunzipped = async (url) => {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
  return response.body.pipeThrough(new DecompressionStream("gzip"));
};

const bytesOf = async (url) => {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
  return response.arrayBuffer();
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

const quiet = (promise) => {
  promise.catch(() => {});                  // each failure is handled where it is awaited
  return promise;
};

// Begun now, side by side: the binary unpacked and compiled as it arrives, the
// factory, the snapshot's answer (its bytes unpacked while the binary compiles)
// and the files Pyodide asks for next.
const early = {
  wasm: quiet(gunzipped(`${WASM}.gz`).then((stream) => WebAssembly.compileStreaming(
    new Response(stream, { headers: { "Content-Type": "application/wasm" } })))),
  factory: quiet(gzippedFactory()),
  snapshot: quiet(gunzipped(here("snapshot.bin.gz"))),
  files: new Map(EARLY.map((url) => [url, quiet(bytesOf(url))])),
};

// While Pyodide starts, its request for the binary is answered with a marker
// and its instantiation uses the module compiled above; its requests for the
// early files are answered from their bytes. Anything unavailable goes the
// plain way (the plain binary, fetched and compiled by Pyodide).
const withEarlyFiles = async (start) => {
  const plainFetch = globalThis.fetch;
  const plainInstantiate = WebAssembly.instantiateStreaming;
  const compiled = new WeakSet();
  globalThis.fetch = (resource, init) => {
    const url = resource instanceof Request ? resource.url : String(resource);
    const plain = () => plainFetch(resource, init);
    if (url === WASM) {
      return early.wasm.then(() => {
        const marker = new Response(new Uint8Array(0));
        compiled.add(marker);
        return marker;
      }, plain);
    }
    const bytes = early.files.get(url);
    return bytes ? bytes.then((buffer) => new Response(buffer.slice(0)), plain) : plain();
  };
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const response = await source;
    if (!compiled.has(response)) return plainInstantiate(response, imports);
    const module = await early.wasm;
    return { module, instance: await WebAssembly.instantiate(module, imports) };
  };
  try {
    return await start();
  } finally {
    globalThis.fetch = plainFetch;
    WebAssembly.instantiateStreaming = plainInstantiate;
  }
};

// The snapshot from its file: the pages make-snapshot.mjs kept, put back in
// place in zeroed memory (the format is described there).
const unsparse = (buffer) => {
  const word = new Uint32Array(buffer, 0, 4);
  const [magic, length, page, count] = word;
  if (magic !== 0x3153474e) throw new Error("not a snapshot file");
  const memory = new Uint8Array(length);
  const pages = new Uint32Array(buffer, 16, count);
  let at = 16 + 4 * count;
  for (const index of pages) {
    const size = Math.min(page, length - index * page);
    memory.set(new Uint8Array(buffer, at, size), index * page);
    at += size;
  }
  if (at !== buffer.byteLength) throw new Error("a damaged snapshot file");
  return memory;
};

export async function loadPyodide(options = {}) {
  // Only the snapshot's answer is awaited before starting (a missing file is
  // known at once).
  const body = await early.snapshot.catch(() => null);
  const snapshot = body && quiet(new Response(body).arrayBuffer().then(unsparse));
  const createPyodideModule = await early.factory.catch(() => undefined);
  const start = { ...options, ...(createPyodideModule ? { createPyodideModule } : {}) };
  if (snapshot) {
    try {
      return await withEarlyFiles(() => startPyodide({ ...start, _loadSnapshot: snapshot }));
    } catch (error) {
      console.info(`Starting Python without its snapshot (${error && error.message}).`);
    }
  }
  return withEarlyFiles(() => startPyodide(start));
}
