// The worker scripts/pyodide-early.js starts as the page begins (copied next to
// pyodide.mjs by the build as early-worker.js). No matching logic here: it only
// gets Pyodide's big files ready off the page's thread.
//
// Each file is fetched, unpacked (DecompressionStream) and made ready here, and
// posted to the page as one message {name, value} or {name, error}:
//   "wasm"      the WebAssembly module, compiled as its bytes are unpacked
//   "factory"   pyodide.asm.mjs's text, as a Blob of JavaScript
//   "snapshot"  the memory snapshot, put back together (see `unsparse`)
//   "python_stdlib.zip", "pyodide-lock.json"   their bytes
//   "python-files"  the page's own Python files, [[path, bytes], ...], from the
//               gzipped tar named by the address's `files` parameter
//   "resources" the size as sent of every file fetched here (for the benchmark)
// The unpacking (about 30 MB out of 10 MB sent) then costs the page's thread
// nothing, and it starts before the page has parsed its own scripts.
"use strict";

const here = (name) => new URL(name, self.location.href).href;

const fetched = async (url) => {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
  return response;
};

const gunzipped = async (url) =>
  (await fetched(url)).body.pipeThrough(new DecompressionStream("gzip"));

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

// The regular files of an uncompressed tar (ustar): [[path, bytes], ...], the
// bytes views of `buffer`.
const untar = (buffer) => {
  const text = (bytes) => new TextDecoder().decode(bytes).replace(/\0.*$/s, "");
  const files = [];
  for (let at = 0; at + 512 <= buffer.byteLength;) {
    const header = new Uint8Array(buffer, at, 512);
    if (header.every((byte) => byte === 0)) break;           // the end of the archive
    const name = text(header.subarray(0, 100));
    const prefix = text(header.subarray(345, 500));
    const size = parseInt(text(header.subarray(124, 136)).trim(), 8);
    const kind = String.fromCharCode(header[156] || 48);     // "0": a regular file
    if (!Number.isFinite(size) || at + 512 + size > buffer.byteLength) {
      throw new Error("a damaged archive");
    }
    if (kind === "0") files.push([prefix ? `${prefix}/${name}` : name,
                                  new Uint8Array(buffer, at + 512, size)]);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
};

// `job` resolves to [value, transferables]; its answer is posted either way.
const send = (name, job) => job.then(
  ([value, transfer = []]) => postMessage({ name, value }, transfer),
  (error) => postMessage({ name, error: String((error && error.message) || error) }));

// Two workers share the work (early.js starts one per part, named in the
// address's fragment, `#part=runtime&files=URL`): the snapshot, the longest to
// unpack, has one to itself.
const address = new URLSearchParams(self.location.hash.slice(1));
const PARTS = {
  snapshot: () => [
    send("snapshot", gunzipped(here("snapshot.bin.gz"))
      .then((stream) => new Response(stream).arrayBuffer())
      .then((buffer) => {
        const memory = unsparse(buffer);
        return [memory, [memory.buffer]];
      })),
  ],
  runtime: () => [
    send("factory", gunzipped(here("pyodide.asm.mjs.gz"))
      .then((stream) => new Response(stream).arrayBuffer())
      .then((bytes) => [new Blob([bytes], { type: "text/javascript" })])),
    send("wasm", gunzipped(here("pyodide.asm.wasm.gz"))
      .then((stream) => WebAssembly.compileStreaming(
        new Response(stream, { headers: { "Content-Type": "application/wasm" } })))
      .then((module) => [module])),
    send("python-files", gunzipped(address.get("files"))
      .then((stream) => new Response(stream).arrayBuffer())
      .then((buffer) => [untar(buffer), [buffer]])),
    ...["python_stdlib.zip", "pyodide-lock.json"].map((name) => send(name,
      fetched(here(name)).then((response) => response.arrayBuffer())
        .then((bytes) => [bytes, [bytes]]))),
  ],
};

const jobs = PARTS[address.get("part")]();
Promise.all(jobs).then(() => postMessage({
  name: `resources of ${address.get("part")}`,
  value: performance.getEntriesByType("resource").map(
    (entry) => ({ name: entry.name, encodedBodySize: entry.encodedBodySize })),
}));
