"""Browser benchmark (not a test): the built page in Debian's Chromium.

Prints, as Markdown tables:
  * navigation to engine ready and to the worked example's result, cold (a fresh
    profile: nothing of the page cached) and warm (cached files). A cold start
    opens the page in a browser that has finished starting, as a person's
    browser has; the same start with the page opened as the browser is
    launched (its own start-up work on the same cores) is printed beside it;
  * a 2 MB x 2 MB check, from picking file B to the table drawn, against the
    same core in CPython; then to the contamination report drawn (the five
    published definitions computed after the table), against the check plus
    ``--definitions`` in CPython; and the longest main-thread stall over both;
  * with --pathological, the same figures for each pathological input at the
    2 MB bound, plus the size of the interpreter's WebAssembly memory;
  * the page's first result cold against Pyodide's bare start from the same
    snapshot (#48): a page of the benchmark's own, served beside the built
    files, that starts the interpreter as the page's loader does (the same
    workers, snapshot and files) and runs one line of Python, nothing else; a
    fresh profile each, in turns with the page's cold start.

Run with `make dist` done: `.venv/bin/python -m benchmarks.bench_browser`.
The longest stall is the longest gap between ticks of a 5 ms timer on the
page's main thread (a blocked thread cannot tick), cross-checked with the
browser's long-task entries.
"""

from __future__ import annotations

import argparse
import base64
import datetime
import os
import pathlib
import platform
import statistics
import sys
import tempfile
import time

from playwright.sync_api import sync_playwright

from benchmarks import pathological
from benchmarks.corpus import make_pair, to_jsonl
from ngram_core import Settings, read_rows, run_check
from ngram_core.report.contamination import definitions_steps_for
from ngram_core.steps import run_steps
from scripts.chromium import CHROMIUM, CHROMIUM_ARGS, DIST, READY, TIMEOUT_MS, serve_dist

BOUND = 2_000_000
STALL_PROBE = """() => {
  window.__gaps = {max: 0, last: performance.now(), long: 0, input: 0, events: 0};
  addEventListener("pointermove", () => { window.__gaps.events += 1; });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries())
        window.__gaps.input = Math.max(window.__gaps.input, e.processingStart - e.startTime);
    }).observe({type: "event", durationThreshold: 16});
  } catch (e) {}
  window.__tick = setInterval(() => {
    const now = performance.now();
    window.__gaps.max = Math.max(window.__gaps.max, now - window.__gaps.last);
    window.__gaps.last = now;
  }, 5);
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__gaps.long = Math.max(window.__gaps.long, e.duration);
    }).observe({type: "longtask"});
  } catch (e) {}
}"""


def machine() -> str:
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{os.cpu_count()} cores, {cpu}, Python {platform.python_version()}"


def launch(p, profile_dir):
    return p.chromium.launch_persistent_context(
        profile_dir, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


#: The bytes the page received until ready (bodies as sent), and which files: the
#: page's own requests and those of its start-up workers (vendor/pyodide/early.js).
BYTES_SENT = """async () => {
  const entries = [...performance.getEntriesByType("navigation"),
                   ...performance.getEntriesByType("resource"),
                   ...(window.pyodideEarly ? await window.pyodideEarly.resources() : [])];
  return [entries.reduce((sum, e) => sum + e.encodedBodySize, 0),
          entries.map((e) => new URL(e.name).pathname.split("/").pop())];
}"""
SENT: list = []
PYODIDE_DIR = DIST / "vendor" / "pyodide"


#: What the snapshot start fetches instead of Pyodide's plain binary and script.
SNAPSHOT_START = ("snapshot.bin.gz", "pyodide.asm.wasm.gz", "pyodide.asm.mjs.gz", "start.mjs",
                  "early.js")


def _size(name: str) -> int:
    return (PYODIDE_DIR / name).stat().st_size


def plain_start_bytes(sent: int, files: list[str]) -> int:
    """What the same page receives started the plain way (no snapshot, Pyodide's
    files as they are): the snapshot start's files swapped for the plain ones."""
    swapped = [name for name in files if name in SNAPSHOT_START]     # each time fetched
    plain = {name.removesuffix(".gz") for name in swapped if name.startswith("pyodide.asm.")}
    return sent - sum(map(_size, swapped)) + sum(map(_size, plain))


#: Seconds a freshly launched browser is left before the page is opened: Chromium's
#: own start-up (its profile, its built-in pages) keeps both cores busy for about a
#: second after launch (a cold start opened at once: about 0.6 s later here).
SETTLE_S = 2
#: Resolves once the worked example's result is drawn, with when (the page's clock,
#: ms) the interpreter was up, the engine ready and the result drawn. Polled by the
#: page's own timer and awaited through the DevTools protocol: Playwright's waits
#: inject its 330 KB selector engine into the page at its load event, in the middle
#: of the start (0.12 s of the page's thread in a trace).
STARTED = f"""new Promise((resolve, reject) => {{
  const limit = setTimeout(() => reject(new Error("no result drawn")), {TIMEOUT_MS});
  const check = () => {{
    if (window.__firstResultAt === undefined) return setTimeout(check, 10);
    clearTimeout(limit);
    resolve([window.__pyReadyAt, window.__readyAt, window.__firstResultAt]);
  }};
  check();
}})"""


def start_times(page, cdp, url) -> tuple[float, float, float]:
    """Open the page and wait for the worked example's result: navigation start to
    interpreter up (PyScript's py:ready), to engine ready and to the result drawn, s."""
    page.goto(url)
    reply = cdp.send("Runtime.evaluate", {"expression": STARTED, "awaitPromise": True,
                                          "returnByValue": True})
    if "exceptionDetails" in reply:
        raise RuntimeError(f"the page did not start: {reply['exceptionDetails']}")
    interpreter, ready, first = (ms / 1000 for ms in reply["result"]["value"])
    return interpreter, ready, first


#: The bare start (#48): the page's interpreter module and its early workers, the
#: same snapshot, one line of Python; no PyScript, no engine, no page.
BARE_PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>bare start</title>
<script src="./vendor/pyodide/early.js" data-python-files="./python-files.tar.gz"></script>
</head><body>
<script type="module">
import { loadPyodide } from "./vendor/pyodide/start.mjs";
const pyodide = await loadPyodide();
pyodide.runPython("import sys");
window.__bareAt = performance.now();
document.body.dataset.bare = "1";
</script></body></html>
"""


def served_with_bare_page(folder: str):
    """A folder holding links to dist/'s files and the bare start page (bare.html)."""
    for entry in DIST.iterdir():
        os.symlink(entry, os.path.join(folder, entry.name))
    with open(os.path.join(folder, "bare.html"), "w", encoding="utf-8") as f:
        f.write(BARE_PAGE)
    return serve_dist(cache=True, directory=pathlib.Path(folder))


def bare_start(page, url) -> float:
    """Navigation start to Python's first line run on the bare page, s (page clock)."""
    page.goto(url)
    page.wait_for_selector('body[data-bare="1"]', state="attached", timeout=TIMEOUT_MS)
    return page.evaluate("window.__bareAt") / 1000


def time_to_ready(page, url) -> float:
    """Navigation start to the ready marker, on the page's own clock (performance.now)."""
    page.goto(url)
    page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
    return page.evaluate("window.__readyAt") / 1000


def runs(page) -> int:
    return int(page.get_attribute("body", "data-runs"))


def stage(page, name, data):
    """Build a File in the page before timing starts (sending 2 MB to the page is not the check)."""
    page.evaluate("""([name, b64]) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        window.__staged = new File([bytes], name, {type: "text/plain"});
    }""", [name, base64.b64encode(data).decode()])


def pick(page, slot):
    """Pick the staged file in a slot, as a person choosing it does (a change event)."""
    page.evaluate("""(slot) => {
        const input = document.getElementById("file-" + slot);
        const transfer = new DataTransfer();
        transfer.items.add(window.__staged);
        input.files = transfer.files;
        input.dispatchEvent(new Event("change", {bubbles: true}));
    }""", slot)


def timed_check(page, a, a_name, b, b_name, mouse=False):
    """Load A, then time picking B until the table is drawn and until the report (the
    published definitions) is drawn; returns (s, report s, stall ms, long ms), the
    stalls measured over both."""
    # a user's A alone is read, not checked against the example's B: wait for the read
    loads = int(page.evaluate("Number(document.body.dataset.loads || 0)"))
    stage(page, a_name, a)
    pick(page, "a")
    page.wait_for_function(f"Number(document.body.dataset.loads || 0) > {loads} && "
                           "document.body.dataset.busy !== '1'", timeout=TIMEOUT_MS * 3)
    stage(page, b_name, b)
    page.evaluate(STALL_PROBE)
    before = runs(page)
    start = time.perf_counter()
    pick(page, "b")
    drawn = f"Number(document.body.dataset.runs) > {before}"
    reported = (f"{drawn} && document.body.dataset.reported === document.body.dataset.runs"
                " && document.body.dataset.busy === '0'")
    times = []
    for done in (drawn, reported):
        x = 0
        if mouse:
            while not page.evaluate(f"() => {done}"):     # a person moving the mouse meanwhile
                x = (x + 7) % 300
                page.mouse.move(100 + x, 200)
        else:
            page.wait_for_function(done, timeout=TIMEOUT_MS * 3, polling=20)
        times.append(time.perf_counter() - start)
    gaps = page.evaluate("() => { clearInterval(window.__tick); return window.__gaps; }")
    print(f"  ({b_name}: {page.get_attribute('body', 'data-timing')}; "
          f"{page.get_attribute('body', 'data-report-timing')})", file=sys.stderr)
    return times[0], times[1], gaps["max"], max(gaps["long"], gaps["input"])


def cpython_time(a, a_name, b, b_name, repeat=5, definitions=False) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = run_check(read_rows(a, a_name), read_rows(b, b_name), Settings())
        if definitions:
            run_steps(definitions_steps_for(result))
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def pair_at_bound():
    a_texts, b_texts = make_pair(1_800_000, 1_800_000)
    a, b = to_jsonl(a_texts, "a"), to_jsonl(b_texts, "b")
    return a[:a.rindex(b"\n", 0, BOUND) + 1], b[:b.rindex(b"\n", 0, BOUND) + 1]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pathological", action="store_true")
    args = parser.parse_args()
    served = tempfile.TemporaryDirectory()
    base, server = served_with_bare_page(served.name)
    url = base + "/"
    bare = []
    print(f"bench_browser {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC | "
          f"{machine()} | Chromium (Debian) headless | median of {args.runs} runs")
    cold, warm, checks, stalls, longs, interpreter, first = [], [], [], [], [], [], []
    reports, at_launch = [], []
    a, b = pair_at_bound()
    with sync_playwright() as p:
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as profile:     # the bare start, cold
                context = launch(p, profile)
                page = context.new_page()
                time.sleep(SETTLE_S)
                bare.append(bare_start(page, base + "/bare.html"))
                context.close()
            with tempfile.TemporaryDirectory() as profile:     # opened as the browser starts
                context = launch(p, profile)
                page = context.new_page()
                at_launch.append(start_times(page, context.new_cdp_session(page), url))
                context.close()
            with tempfile.TemporaryDirectory() as profile:
                context = launch(p, profile)
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                time.sleep(SETTLE_S)
                up, ready, drawn = start_times(page, cdp, url)
                interpreter.append(up)
                cold.append(ready)
                first.append(drawn)
                SENT.append(page.evaluate(BYTES_SENT))
                how = page.get_attribute("html", "data-interpreter-start")
                print(f"  (cold start from the {how}: {page.get_attribute('body', 'data-boot')})",
                      file=sys.stderr)
                warm.append(start_times(page, cdp, url)[1])
                check, report, _, _ = timed_check(page, a, "a.jsonl", b, "b.jsonl")
                checks.append(check)
                reports.append(report)
                _, _, stall, long = timed_check(page, a, "a2.jsonl", b, "b2.jsonl", mouse=True)
                stalls.append(stall)
                longs.append(long)
                context.close()
        cpython = cpython_time(a, "a.jsonl", b, "b.jsonl")
        check = statistics.median(checks)
        print()
        print(f"| measure | value | target |")
        print(f"|---|---:|---:|")
        print(f"| navigation to engine ready, cold (page clock) | {statistics.median(cold):.2f} s "
              f"| ≤ 1.5 s |")
        print(f"| navigation to the worked example's result drawn, cold | "
              f"{statistics.median(first):.2f} s | ≤ 1.8 s |")
        sent, files = SENT[-1]
        plain = plain_start_bytes(sent, files)
        print(f"| bytes received until ready (from the snapshot) | {sent / 1e6:.2f} MB | "
              f"≤ {plain / 1e6:.2f} MB (the plain start) |")
        print(f"| of which: navigation to interpreter up (PyScript's py:ready), cold | "
              f"{statistics.median(interpreter):.2f} s | |")
        print(f"| cold, the page opened as the browser is launched: ready, result drawn | "
              f"{statistics.median(t[1] for t in at_launch):.2f} s, "
              f"{statistics.median(t[2] for t in at_launch):.2f} s | |")
        print(f"| navigation to engine ready, warm | {statistics.median(warm):.2f} s | |")
        result, bare_s = statistics.median(first), statistics.median(bare)
        print(f"| the worked example's result, cold / Pyodide's bare start from the same "
              f"snapshot, cold (#48) | {result:.2f} s / {bare_s:.2f} s = {result / bare_s:.2f} × "
              f"| ≤ 1.3 × |")
        print(f"| 2 MB × 2 MB check, pick B to table drawn | {check:.2f} s | ≤ 1.5 s |")
        print(f"| same core in CPython (read + check) | {cpython:.2f} s | |")
        print(f"| page / CPython | {check / cpython:.2f} × | ≤ 1.4 × |")
        report = statistics.median(reports)
        cpython_report = cpython_time(a, "a.jsonl", b, "b.jsonl", definitions=True)
        print(f"| the same check + published definitions, pick B to report drawn | "
              f"{report:.2f} s | |")
        print(f"| same core + definitions in CPython (read + check + --definitions) | "
              f"{cpython_report:.2f} s | |")
        print(f"| page / CPython, with definitions | {report / cpython_report:.2f} × | |")
        print(f"| longest main-thread block during the check and its report (long task or input delay) | "
              f"{statistics.median(longs):.0f} ms (worst run {max(longs):.0f} ms) | ≤ 100 ms |")
        print(f"| longest gap between ticks of a 5 ms timer during the check | "
              f"{statistics.median(stalls):.0f} ms | |")
        print(f"\nA: {len(a):,} bytes, B: {len(b):,} bytes of generated JSONL.")
        if args.pathological:
            print()
            print("| pathological input (both files) | check s | + definitions s | longest block ms "
                  "| timer gap ms | wasm MB | result |")
            print("|---|---:|---:|---:|---:|---:|---|")
            with tempfile.TemporaryDirectory() as profile:
                context = launch(p, profile)
                page = context.new_page()
                for name, build in pathological.CASES.items():
                    # a fresh page each time: picking A with the last case's B still in
                    # place would start a check of the two before B is picked
                    time_to_ready(page, url)
                    pa, pa_name, pb, pb_name = build()
                    seconds, report, stall, block = timed_check(page, pa, pa_name, pb, pb_name,
                                                                mouse=True)
                    wasm = int(page.get_attribute("body", "data-wasm-bytes") or 0) / 2**20
                    figure = page.inner_text("#flagged-figure")
                    print(f"| {name} | {seconds:.2f} | {report:.2f} | {block:.0f} | {stall:.0f} "
                          f"| {wasm:.0f} | flagged {figure} |")
                context.close()
    server.shutdown()
    served.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
