"""The page's entry point (index.html runs this file): start, wire the controls, mark ready.

What the page does lives in the ngram_page package, one module per job (see
ngram_page/__init__.py). This file reads the worked example (static/boot.js
requested it as the page started), connects each control's events to the Page,
writes the ready markers the tests and the benchmark wait on, then checks the
example (or reads the files picked meanwhile).
"""

import js

APP_STARTED = js.performance.now()     # for the benchmark: when app.py began
# The worked example was requested as the page started (static/boot.js); it is
# read unless files were picked before the engine was ready.
SLOTS = ("a", "b")
PICKED_EARLY = any(js.document.getElementById(f"file-{key}").files.length for key in SLOTS)

from ngram_core import InputError
from ngram_page.controls import CONTROL_IDS
from ngram_page.dom import el, mark, now_ms, on, set_text
from ngram_page import report_view
from ngram_page.page import Page
from ngram_page.slots import READ_CONTROLS
from ngram_page.runner import spawn

IMPORTED = js.performance.now()


async def example_files() -> dict[str, tuple[str, bytes]]:
    """The worked example's files, fetched by static/boot.js: slot -> (name, bytes);
    an InputError names a file that could not be loaded."""
    files = {}
    for example in await js.window.ngramExamples:
        url = str(example.url)
        if not example.ok:
            raise InputError(url, f"could not be loaded (HTTP {example.status})")
        files[str(example.key)] = (url.rsplit("/", 1)[-1], example.buffer.to_py().tobytes())
    return files


def wire(page):
    """Connect every control's events to what the page does."""
    for key in SLOTS:
        on(f"file-{key}", "change", lambda event, key=key: spawn(page.file_chosen(key)))
        on(f"{key}-text-field", "change", lambda event, key=key: page.fields_changed(key, "text"))
        on(f"{key}-id-field", "change", lambda event, key=key: page.fields_changed(key, "id"))
        for what in READ_CONTROLS:
            on(f"{key}-{what}", "change",
               lambda event, key=key, what=what: page.read_changed(key, what))
    for control in CONTROL_IDS:
        on(control, "input", lambda event: page.schedule())
        on(control, "change", lambda event: page.schedule())

    def preset(event):
        el("n").value = event.target.dataset.n
        page.schedule()

    on("n-8", "click", preset)
    on("n-13", "click", preset)
    on("cancel", "click", lambda event: page.cancel())
    explorer = page.explorer
    on("rows-table", "click", explorer.clicked)
    on("rows-table", "keydown", explorer.keydown)
    on(el("rows-table").tHead, "click", explorer.header_clicked)
    for control in ("rows-show", "rows-sort"):
        on(control, "change", lambda event: explorer.controls_changed())
    on("rows-search", "input", lambda event: explorer.controls_changed())
    on("rows-prev", "click", lambda event: explorer.turn_page(-1))
    on("rows-next", "click", lambda event: explorer.turn_page(1))
    on("panes-back", "click", lambda event: page.panes_closed())
    on("panes", "keydown", lambda event: str(event.key) == "Escape" and page.panes_closed())
    on("copy-link", "click", lambda event: page.copy_link())
    on("copy-command", "click", lambda event: page.copy_command())
    on("download-csv", "click", lambda event: page.download("checkable"))
    on("download-rows-csv", "click", lambda event: page.download("rows"))
    report = page.report
    on("file-r", "change", lambda event: spawn(page.results_chosen()))
    on("results-clear", "click", lambda event: report.results_cleared())
    for control in ("score-field", "results-field", "results-key"):
        on(control, "change", lambda event: report.show_scores())
    on("clean-by", "change", lambda event: report.show_split())
    on("download-clean", "click", lambda event: spawn(report.download_split("clean")))
    on("download-dirty", "click", lambda event: spawn(report.download_split("dirty")))
    on("show-definitions", "change", lambda event: el("rows-table").classList.toggle(
        "with-definitions", bool(event.target.checked)))


async def start():
    """Wire the page, mark the engine ready, then check the worked example (or the files
    picked meanwhile: then the example is not loaded at all)."""
    page = Page()
    page.open_link()
    page.verdict.watch()
    report_view.describe_definitions()
    examples = {} if PICKED_EARLY else await example_files()
    wire(page)
    # Every request the page makes is done: from here on it makes none.
    set_text("engine-status", "Engine ready: Python is running in this tab.")
    mark("boot", f"app.py started {APP_STARTED / 1000:.2f} s, imports done "
                 f"{IMPORTED / 1000:.2f} s, ready {now_ms() / 1000:.2f} s")
    js.window.__readyAt = now_ms()
    mark("ready", "1")
    if examples:
        for key, example in examples.items():
            await page.load_bytes(key, [example], example=True)
        page.recompute()
    else:
        for key in SLOTS:
            await page.file_chosen(key)          # picked before the engine was ready
    return page


PAGE = spawn(start())
