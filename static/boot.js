// Start-up glue that must work before Python is ready. No matching logic here.
//  1. A watchdog: PyScript reports a failed interpreter or file load only to the
//     console, so any such failure before the engine is ready is shown on the page.
//  2. The worked example's files, requested as the page starts.
//  3. Drag and drop onto the file slots: a dropped file is put into the slot's
//     <input type="file">, where the page's Python reads it (at once, or when it starts).
//  4. Links within the page ("Skip to the files", "How?") move the view and the focus
//     without touching the address's fragment, which holds a shared link's files.
(() => {
  "use strict";
  const LIMIT_MS = 60000;
  const isReady = () => document.body && document.body.dataset.ready === "1";
  const show = (message) => {
    const box = document.getElementById("page-error");
    if (box) {
      box.textContent = message;
      box.hidden = false;
    }
    const status = document.getElementById("engine-status");
    if (status && !isReady()) status.textContent = "The Python engine did not start.";
    document.documentElement.dataset.failed = "1";
  };
  const fail = (message) => {
    if (isReady() || document.documentElement.dataset.failed) return;
    show("The Python engine could not start: " + message +
         ". Reload the page; if this persists, the site is missing files.");
  };
  // Evaluate the start module now, while PyScript loads (early.js's workers are
  // already fetching): it imports pyodide.asm.mjs as soon as a worker has it.
  // PyScript imports the same module (its config's interpreter) and finds it
  // evaluated. Its failures are reported where PyScript imports it.
  import(new URL("./vendor/pyodide/start.mjs", document.baseURI).href).catch(() => {});
  // The worked example's two small files, requested now rather than when the
  // page's Python runs, so they have arrived by then (ngram_page/start.py reads
  // them unless files were picked before the engine was ready).
  // One promise for both, resolved to [{key, url, ok, status, buffer}].
  window.ngramExamples = Promise.all(
    [["a", "./static/examples/test-set.json"], ["b", "./static/examples/training-corpus.json"]]
      .map(([key, url]) => fetch(url).then(async (response) => ({
        key, url, ok: response.ok, status: response.status,
        buffer: response.ok ? await response.arrayBuffer() : new ArrayBuffer(0),
      }))));
  // For the benchmark: when the interpreter was up, before app.py ran.
  addEventListener("py:ready", () => { window.__pyReadyAt = performance.now(); });
  // app.py starts its work as a task and returns at once, so py:done says nothing
  // about readiness; its own exceptions appear as PyScript's .py-error.
  addEventListener("unhandledrejection", (event) => {
    const reason = event.reason;
    const text = String((reason && reason.message) || reason);
    if (isReady()) show("Something went wrong: " + text);
    else fail(text);
  });
  addEventListener("error", (event) => {
    const target = event.target;
    if (target && target !== window && (target.src || target.href)) {
      fail("could not load " + (target.src || target.href));
    } else if (!isReady() && event.message) {
      fail(event.message);
    }
  }, true);
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        // a missing .gz (the start-up snapshot, a gzipped runtime file) has a fallback
        if (entry.responseStatus >= 400 && !/\.gz$/.test(new URL(entry.name).pathname)) {
          fail("HTTP " + entry.responseStatus + " for " + entry.name);
        }
      }
    }).observe({ type: "resource", buffered: true });
  } catch (_) { /* older browsers: the time limit below still applies */ }
  setTimeout(() => fail("it was not ready after " + LIMIT_MS / 1000 + " seconds"), LIMIT_MS);

  const wireDrop = (zone) => {
    const input = document.getElementById(zone.dataset.input);
    zone.addEventListener("dragover", (event) => {
      event.preventDefault();
      zone.classList.add("over");
    });
    zone.addEventListener("dragleave", () => zone.classList.remove("over"));
    zone.addEventListener("drop", (event) => {
      event.preventDefault();
      zone.classList.remove("over");
      if (!event.dataTransfer || !event.dataTransfer.files.length) return;
      input.files = event.dataTransfer.files;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    });
  };
  // Fill a <select> with options in one go (a file may have 10,000 fields):
  // app.py passes plain lists, so no per-option call crosses into Python.
  // Option(text, value) sets text, never HTML.
  window.ngramFillOptions = (select, values, labels, chosen, blankLabel) => {
    const picked = new Set(chosen);
    const fragment = document.createDocumentFragment();
    if (blankLabel !== undefined && blankLabel !== null) {
      fragment.append(new Option(blankLabel, "", false, picked.has("")));
    }
    values.forEach((value, i) => {
      fragment.append(new Option(labels[i], value, false, picked.has(value)));
    });
    select.replaceChildren(fragment);
  };

  // Fill the row explorer's body with one page of rows in one go: app.py passes
  // plain lists, [position, flagged, [[text, kind], ...]] a row, so a page of 50
  // rows of 9 cells is one call into JavaScript, not 2,500. Text is set as text.
  // kind: "id" (text from a file: its own direction, whole on hover), "num",
  // "status", "defs" or "" (the cell's class).
  // Text from a file (an id, a file name) as text, with a line-break opportunity
  // after each path separator, underscore, dot or hyphen, so a narrow column
  // breaks a name at its parts, not letter by letter.
  const appendBreakable = (element, text) => {
    for (const part of text.split(/(?<=[\/\\_.\-])/)) {
      element.append(document.createTextNode(part), document.createElement("wbr"));
    }
    element.lastChild?.remove();
  };
  window.ngramAppendBreakable = appendBreakable;

  // labels: each column's name, shown above its value when the rows are cards (a phone)
  window.ngramFillRows = (body, rows, labels) => {
    const fragment = document.createDocumentFragment();
    for (const [position, flagged, cells] of rows) {
      const row = document.createElement("tr");
      row.dataset.position = String(position);
      row.setAttribute("aria-rowindex", String(position + 2));   // the heading is row 1
      row.setAttribute("aria-selected", "false");
      if (flagged) row.className = "flagged";
      cells.forEach(([text, kind], column) => {
        const cell = document.createElement("td");
        cell.tabIndex = -1;
        if (labels && labels[column]) cell.dataset.label = labels[column];
        if (kind === "id") {
          const span = document.createElement("span");
          span.className = "id";
          span.dir = "auto";
          span.title = text;
          appendBreakable(span, text);
          cell.append(span);
        } else {
          if (kind) cell.className = kind;
          cell.textContent = text;
        }
        row.append(cell);
      });
      fragment.append(row);
    }
    body.replaceChildren(fragment);
  };

  addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll(".drop[data-input]").forEach(wireDrop);
  });

  // A link to a place on the page would replace the fragment (#a_file=...&b_file=...)
  // with its own (#inputs), and "Copy link" would copy a link naming no files.
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest('a[href^="#"]');
    if (!link || event.defaultPrevented) return;
    const target = document.getElementById(decodeURIComponent(link.hash.slice(1)));
    if (!target) return;
    event.preventDefault();
    const details = target.closest("details");
    if (details && !details.open) details.open = true;
    target.scrollIntoView({ block: "start" });
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  });
})();
