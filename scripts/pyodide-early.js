// The first script of the page (copied next to pyodide.mjs by the build as
// early.js). No matching logic here: it starts two workers that fetch, unpack
// and compile Pyodide's big files and the page's Python files while the page
// is still being parsed (the script's data-python-files attribute names the
// latter), and keeps their answers for start.mjs:
//
//   globalThis.pyodideEarly.get(name)  a promise of the workers' value for name
//                                      (rejected if a worker could not make it;
//                                      each name is asked for once)
//   globalThis.pyodideEarly.resources() a promise of [{name, encodedBodySize}]
//                                      for the files the workers fetched
//
// Each worker runs `workerMain` below, sent as a blob: (no request, so its own
// requests start at once) and posts one message per file, {name, value} or
// {name, error}:
//   "factory"   pyodide.asm.mjs's text, as a Blob of JavaScript
//   "wasm"      the WebAssembly module, compiled as its bytes are unpacked
//   "snapshot length"  the snapshot's length in bytes, from its header
//   "snapshot"  the memory snapshot, put back together (see `unsparse`)
//   "python_stdlib.zip", "pyodide-lock.json"   their bytes
//   "python-files"  the page's own Python files, [[path, bytes], ...]
//   "resources of PART"  the size as sent of every file it fetched (its last)
// The unpacking (about 30 MB out of 10 MB sent) then costs the page's thread
// nothing, and it starts before the page has parsed its own scripts.
//
// Without workers (or DecompressionStream) nothing is set: start.mjs then
// starts Pyodide the plain way, and says the page's Python files are missing.
(() => {
  "use strict";
  if (typeof Worker !== "function" || typeof DecompressionStream !== "function") return;

  // Runs in a worker, on its own: it sees only `config` ({part, base, files}).
  const workerMain = (config) => {
    const here = (name) => new URL(name, config.base).href;

    const requested = [];                  // every address fetched here
    const fetched = async (url) => {
      requested.push(url);
      const response = await fetch(url);
      if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
      return response;
    };

    const gunzipped = async (url) =>
      (await fetched(url)).body.pipeThrough(new DecompressionStream("gzip"));
    const gunzippedBytes = async (url) => new Response(await gunzipped(url)).arrayBuffer();

    // The snapshot from its file, as its bytes are unpacked: the pages
    // make-snapshot.mjs kept, each put in its place in zeroed memory (the format
    // is described there). `announce(length)` is called as soon as the header
    // gives the snapshot's length, long before the last page is in.
    const unsparse = async (stream, announce) => {
      const reader = stream.getReader();
      let head = new Uint8Array(0);        // the header, until it is whole
      let memory = null;
      let pages, page, length;
      let placed = 0;                      // bytes of kept pages placed so far
      const place = (bytes) => {
        for (let i = 0; i < bytes.length;) {
          const kept = Math.floor(placed / page);
          if (kept >= pages.length) throw new Error("a damaged snapshot file");
          const within = placed - kept * page;
          const size = Math.min(page, length - pages[kept] * page);   // the last may be short
          const count = Math.min(size - within, bytes.length - i);
          memory.set(bytes.subarray(i, i + count), pages[kept] * page + within);
          i += count;
          placed += count;
        }
      };
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (memory) {
          place(value);
          continue;
        }
        const joined = new Uint8Array(head.length + value.length);
        joined.set(head);
        joined.set(value, head.length);
        head = joined;
        if (head.length < 16) continue;
        const word = new DataView(head.buffer);
        if (word.getUint32(0, true) !== 0x3153474e) throw new Error("not a snapshot file");
        length = word.getUint32(4, true);
        page = word.getUint32(8, true);
        const count = word.getUint32(12, true);
        // every kept page lies inside the snapshot
        if (!length || !page || count > Math.ceil(length / page)) {
          throw new Error("a damaged snapshot file");
        }
        const end = 16 + 4 * count;
        if (head.length < end) continue;
        pages = new Uint32Array(head.buffer.slice(16, end));
        memory = new Uint8Array(length);
        announce(length);
        place(head.subarray(end));
      }
      const expected = pages ? pages.reduce(
        (sum, index) => sum + Math.min(page, length - index * page), 0) : -1;
      if (placed !== expected) throw new Error("a damaged snapshot file");
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

    // Two workers share the work (one per part): the snapshot, the longest to
    // unpack, has one to itself.
    const PARTS = {
      snapshot: () => {
        let announce;
        const length = new Promise((resolve) => { announce = resolve; });
        const memory = gunzipped(here("snapshot.bin.gz"))
          .then((stream) => unsparse(stream, announce));
        // the length is known before the memory is whole; a failure before it is
        // both answers' failure
        return [send("snapshot length", Promise.race([length, memory]).then(() => length)
                  .then((value) => [value])),
                send("snapshot", memory.then((whole) => [whole, [whole.buffer]]))];
      },
      // First pyodide.asm.mjs (small: the page imports it before anything else
      // can start) and the files Pyodide reads before its binary is linked (the
      // standard library, the lock file: not compressed, so they cost this
      // thread little), then the binary and the page's Python files.
      runtime: () => {
        const factory = send("factory", gunzippedBytes(here("pyodide.asm.mjs.gz"))
          .then((bytes) => [new Blob([bytes], { type: "text/javascript" })]));
        const plain = ["python_stdlib.zip", "pyodide-lock.json"].map((name) => send(name,
          fetched(here(name)).then((response) => response.arrayBuffer())
            .then((bytes) => [bytes, [bytes]])));
        return [factory, ...plain, factory.then(() => Promise.all([
          send("wasm", gunzipped(here("pyodide.asm.wasm.gz"))
            .then((stream) => WebAssembly.compileStreaming(
              new Response(stream, { headers: { "Content-Type": "application/wasm" } })))
            .then((module) => [module])),
          send("python-files", gunzippedBytes(config.files)
            .then((buffer) => [untar(buffer), [buffer]])),
        ]))];
      },
    };

    const jobs = PARTS[config.part]();
    // A file's timing entry can come a moment after its job is done (the
    // binary's compile may end first): the sizes are sent once all are in.
    const recorded = () => requested.every((url) => performance.getEntriesByName(url).length);
    const allRecorded = () => new Promise((resolve) => {
      if (recorded()) return resolve();
      const observer = new PerformanceObserver(() => {
        if (recorded()) {
          observer.disconnect();
          resolve();
        }
      });
      observer.observe({ type: "resource" });
    });
    Promise.all(jobs).then(allRecorded).then(() => postMessage({
      name: `resources of ${config.part}`,
      value: performance.getEntriesByType("resource").map(
        (entry) => ({ name: entry.name, encodedBodySize: entry.encodedBodySize })),
    }));
  };

  const PARTS = ["snapshot", "runtime"];  // one worker each
  // name -> {promise, resolve, reject}; an entry is let go once it has been both
  // answered and asked for, so this keeps no file after start.mjs has it.
  const answers = new Map();
  let failure = null;                    // once the worker failed, every answer is this
  const answer = (name) => {
    if (!answers.has(name)) {
      const entry = {};
      entry.promise = new Promise((resolve, reject) => Object.assign(entry, { resolve, reject }));
      entry.promise.catch(() => {});     // each failure is handled where it is awaited
      if (failure) entry.reject(failure);
      answers.set(name, entry);
    }
    return answers.get(name);
  };
  const settle = (name, how, value) => {
    const entry = answer(name);
    entry[how](value);
    if (entry.asked) answers.delete(name);
    else entry.settled = true;
  };
  const ask = (name) => {
    const entry = answer(name);
    if (entry.settled) answers.delete(name);
    else entry.asked = true;
    return entry.promise;
  };
  const script = document.currentScript;
  const files = new URL(script.dataset.pythonFiles, document.baseURI).href;
  const base = new URL(".", script.src).href;
  const workers = [];
  try {
    for (const part of PARTS) {
      const source = `"use strict";(${workerMain})(${JSON.stringify({ part, base, files })});`;
      const address = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
      workers.push(new Worker(address));
    }
  } catch (_) {
    for (const worker of workers) worker.terminate();
    return;
  }
  for (const worker of workers) {
    worker.onmessage = ({ data: { name, value, error } }) => {
      if (error === undefined) settle(name, "resolve", value);
      else settle(name, "reject", new Error(error));
      if (name.startsWith("resources")) worker.terminate();     // its last message
    };
    worker.onerror = (event) => {
      event.preventDefault();
      failure = new Error(`the start-up worker failed (${event.message || "no message"})`);
      for (const entry of answers.values()) entry.reject(failure);
      for (const each of workers) each.terminate();
    };
  }
  globalThis.pyodideEarly = {
    get: ask,
    resources: () => Promise.all(PARTS.map((part) => ask(`resources of ${part}`)))
      .then((lists) => lists.flat()),
  };
})();
