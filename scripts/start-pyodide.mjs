// The interpreter module index.html names (copied next to pyodide.mjs by the build).
// No matching logic here: this only starts Pyodide faster, with the same engine.
//
//  1. Pyodide starts from a memory snapshot made at build time
//     (scripts/make-snapshot.mjs): the interpreter is up and the standard
//     modules the engine uses are imported, instead of starting CPython here.
//  2. The WebAssembly binary, its JavaScript half (pyodide.asm.mjs) and the
//     snapshot are sent gzipped and unpacked in the tab, so the page sends
//     fewer bytes than it did with the plain files and no snapshot; the
//     snapshot's file leaves out its pages of zeros.
//  3. All of that is done off the page's thread, from the page's first line:
//     early.js (the first script of index.html) starts two workers that
//     fetch, unpack and compile these files and keeps their answers in
//     globalThis.pyodideEarly; this module takes them from there.
//  4. The page's own Python files (its package, the engine, and bytecode for
//     PyScript's own package) come in one archive, unpacked in a worker and
//     written into the interpreter's home here, before PyScript runs app.py.
//  5. Pyodide starts as soon as this module is evaluated, not when PyScript
//     asks for it, and its binary is linked while the snapshot is still being
//     unpacked: PyScript gets the interpreter already started.
//
// When a runtime file cannot be fetched or used, Pyodide starts as it would
// without it: same interpreter, same results, later. The page's Python files
// have no such fallback: without them the page says it could not start.
import { loadPyodide as startPyodide, version } from "./pyodide.mjs";

export { version };

const here = (name) => new URL(name, import.meta.url).href;
const WASM = here("pyodide.asm.wasm");
// Files Pyodide fetches itself while it starts, answered from the worker's bytes.
const EARLY_FILES = ["python_stdlib.zip", "pyodide-lock.json"];

const quiet = (promise) => {
  promise.catch(() => {});                  // each failure is handled where it is awaited
  return promise;
};

// pyodide.asm.mjs from the worker's Blob, imported from a blob: URL of this
// page (Pyodide takes the module's factory as `createPyodideModule`).
const importedFactory = async (source) => {
  const url = URL.createObjectURL(source);
  try {
    return (await import(url)).default;
  } finally {
    URL.revokeObjectURL(url);
  }
};

// Pyodide runs Python on WebAssembly's switched stacks (JSPI) when the browser
// offers WebAssembly.Suspending: every callback of a JS promise that Python
// awaited then runs on a stack of its own. Chromium 156's renderer crashed now
// and then at start with such a stack in use (SIGSEGV in a stack scan that ran
// past the top of the switched stack, seen in its crash dumps). The page uses
// nothing JSPI gives (no run_sync, no synchronous waits on promises), so it is
// hidden here, before Pyodide's module is loaded and looks for it: Pyodide
// takes the path it takes in a browser without JSPI. Same interpreter, same
// results.
const hideStackSwitching = () => {
  for (const name of ["Suspending", "Suspender", "promising"]) {
    try {
      delete WebAssembly[name];
    } catch (error) {}                      // not configurable: Pyodide may use it
  }
};

hideStackSwitching();

// The workers' answers (see early.js); without them, none: the plain start.
const unavailable = () => quiet(Promise.reject(new Error("no start-up worker")));
const answer = (name) => (globalThis.pyodideEarly ? globalThis.pyodideEarly.get(name)
                                                   : unavailable());
const early = {
  wasm: answer("wasm"),
  factory: quiet(answer("factory").then(importedFactory)),
  snapshotLength: answer("snapshot length"),
  snapshot: answer("snapshot"),
  files: new Map(EARLY_FILES.map((name) => [here(name), answer(name)])),
  pythonFiles: answer("python-files"),
};

// The page's Python files written under the interpreter's working folder.
const written = async (pyodide) => {
  const { FS } = pyodide;
  const files = await early.pythonFiles.catch((error) => {
    throw new Error(`the page's Python files could not be loaded (${error.message})`);
  });
  const folders = new Set([""]);            // each folder made once (a top-level file: "")
  for (const [path, bytes] of files) {
    const folder = path.slice(0, Math.max(path.lastIndexOf("/"), 0));
    if (!folders.has(folder)) {
      FS.mkdirTree(folder);
      folders.add(folder);
    }
    FS.writeFile(path, bytes);
  }
  return pyodide;
};

// Pyodide's linker puts each JavaScript function that C code calls through a
// pointer (about 260 of them) into the binary's function table by wrapping it in
// a tiny WebAssembly module of its own, compiled on the page's thread one at a
// time. Those modules differ only by the function's signature, so while Pyodide
// starts each distinct one is compiled once: the same bytes give the same module.
const SMALL_MODULE = 256;                   // bytes; the binary itself is 9.6 MB
const compiledOnce = (plainModule) => {
  const modules = new Map();
  function Module(bytes) {
    if (!new.target) return plainModule(bytes);          // throws, as the plain one does
    const view = ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset,
                                                            bytes.byteLength)
      : bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : null;
    if (!view || view.length > SMALL_MODULE) return new plainModule(bytes);
    const key = view.join(",");
    if (!modules.has(key)) modules.set(key, new plainModule(bytes));
    return modules.get(key);
  }
  Object.setPrototypeOf(Module, plainModule);              // Module.exports(), .imports()
  Module.prototype = plainModule.prototype;                // instanceof still holds
  return Module;
};

// While Pyodide starts, its request for the binary is answered with a marker
// and its instantiation uses the module the worker compiled; its requests for the
// early files are answered from their bytes. Anything unavailable goes the
// plain way (the plain binary, fetched and compiled by Pyodide).
const withEarlyFiles = async (start) => {
  const plainFetch = globalThis.fetch;
  const plainInstantiate = WebAssembly.instantiateStreaming;
  const plainModule = WebAssembly.Module;
  const compiled = new WeakSet();
  WebAssembly.Module = compiledOnce(plainModule);
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
    WebAssembly.Module = plainModule;
  }
};

// Pyodide is given a zeroed memory of the snapshot's length as its snapshot (the
// length sets the size of the memory it makes), so the binary is instantiated
// and linked while the snapshot is still being unpacked; the module's factory
// fills that memory with the snapshot once it is whole, just before Pyodide
// restores it. Pyodide keeps its options for the page's life, so once it has
// started (or failed to) `release` lets those 31 MB go: the interpreter has
// its own copy.
const fromSnapshot = (createModule, length) => {
  const snapshot = new Uint8Array(length);
  const create = createModule
    ?? (async (settings) => (await import(here("pyodide.asm.mjs"))).default(settings));
  return {
    options: {
      _loadSnapshot: snapshot,
      createPyodideModule: async (settings) => {
        const module = await create(settings);
        const whole = await early.snapshot;
        if (whole.length !== length) throw new Error("the snapshot's length changed");
        snapshot.set(whole);
        return module;
      },
    },
    release: () => structuredClone(snapshot.buffer, { transfer: [snapshot.buffer] }),
  };
};

// How the interpreter started, on the page's root element (for the tests and the
// benchmark): "snapshot", or "plain" when a file it needs could not be used.
const startedFrom = (how) => { document.documentElement.dataset.interpreterStart = how; };

// Pyodide started from the workers' files (or the plain way) and the page's Python
// files written. The workers' answers are let go once it has started (the
// snapshot alone is 31 MB; the interpreter holds its own copy).
const started = async (options) => {
  try {
    const createPyodideModule = await early.factory.catch(() => undefined);
    const length = await early.snapshotLength.catch(() => 0);
    if (length) {
      const snapshot = fromSnapshot(createPyodideModule, length);
      try {
        const pyodide = await written(await withEarlyFiles(
          () => startPyodide({ ...options, ...snapshot.options })));
        startedFrom("snapshot");
        return pyodide;
      } catch (error) {
        console.info(`Starting Python without its snapshot (${error && error.message}).`);
      } finally {
        snapshot.release();
      }
    }
    const pyodide = await written(await withEarlyFiles(() => startPyodide(
      { ...options, ...(createPyodideModule ? { createPyodideModule } : {}) })));
    startedFrom("plain");
    return pyodide;
  } finally {
    early.snapshot = early.pythonFiles = null;
    early.files.clear();
  }
};

// Pyodide starts as soon as this module is evaluated (static/boot.js imports it
// as the page starts), not when PyScript asks for it: PyScript first loads its
// own modules and storage, and the interpreter's start needs none of that.
const FOLDER = here(".");
const pyodide = quiet(started({ indexURL: FOLDER }));

// What PyScript passes when its config names no packages: this folder, and its
// handlers of Python's output, which are set on the started interpreter.
const STREAMS = ["stdout", "stderr"];

// Called once, by PyScript: the interpreter started above.
export async function loadPyodide(options = {}) {
  const { indexURL = FOLDER, ...rest } = options;
  const others = Object.keys(rest).filter((name) => !STREAMS.includes(name));
  const folder = new URL(`${indexURL}/`.replace(/\/\/$/, "/"), document.baseURI).href;
  if (others.length || folder !== FOLDER) {
    throw new Error(`the interpreter module cannot apply ${others.join(", ") || "indexURL"}`);
  }
  const ready = await pyodide;
  if (rest.stdout) ready.setStdout({ batched: rest.stdout });
  if (rest.stderr) ready.setStderr({ batched: rest.stderr });
  return ready;
}
