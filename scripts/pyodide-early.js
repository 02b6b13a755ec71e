// The first script of the page (copied next to pyodide.mjs by the build as
// early.js). No matching logic here: it starts the workers that fetch, unpack
// and compile Pyodide's big files and the page's Python files (early-worker.js;
// the script's data-python-files attribute names the latter) while the page is
// still being parsed, and keeps their answers for start.mjs:
//
//   globalThis.pyodideEarly.get(name)  a promise of the worker's value for name
//                                      (rejected if the worker could not make it)
//   globalThis.pyodideEarly.resources() a promise of [{name, encodedBodySize}]
//                                      for the files the workers fetched
//
// Without workers (or DecompressionStream) nothing is set: start.mjs then
// starts Pyodide the plain way, and says the page's Python files are missing.
(() => {
  "use strict";
  if (typeof Worker !== "function" || typeof DecompressionStream !== "function") return;
  const PARTS = ["snapshot", "runtime"];  // one worker each (see early-worker.js)
  const answers = new Map();             // name -> {promise, resolve, reject}
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
  const script = document.currentScript;
  const files = new URL(script.dataset.pythonFiles, document.baseURI).href;
  const workers = [];
  try {
    for (const part of PARTS) {
      const address = new URLSearchParams({ part, files });
      workers.push(new Worker(new URL(`early-worker.js#${address}`, script.src)));
    }
  } catch (_) {
    for (const worker of workers) worker.terminate();
    return;
  }
  for (const worker of workers) {
    worker.onmessage = ({ data: { name, value, error } }) => {
      if (error === undefined) answer(name).resolve(value);
      else answer(name).reject(new Error(error));
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
    get: (name) => answer(name).promise,
    resources: () => Promise.all(PARTS.map((part) => answer(`resources of ${part}`).promise))
      .then((lists) => lists.flat()),
  };
})();
