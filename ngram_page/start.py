"""The page's start: read the worked example, wire the controls, mark ready, check.

app.py (the file index.html runs) only calls :func:`start`; the work is here, in
the page package, so the tab imports it as bytecode made by the build instead of
compiling it as it starts. This reads the worked example (static/boot.js
requested it as the page started), connects each control's events to the Page,
writes the ready markers the tests and the benchmark wait on, then checks the
example (or reads the files picked meanwhile).
"""

from __future__ import annotations

from ngram_core import InputError

from . import report_view
from .controls import CONTROL_IDS
from .dom import el, js, mark, now_ms, on, set_text
from .page import Page
from .runner import spawn
from .slots import READ_CONTROLS

#: The two file slots.
SLOTS = ("a", "b")


def files_picked() -> bool:
    """Whether a file input holds a file the page has not read (picked or dropped
    before its listener was connected; the page empties an input once read)."""
    return any(el(f"file-{key}").files.length for key in SLOTS)


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
    on("suite-table", "click", page.suite.clicked)
    on("review", "click", page.review.clicked)
    on("rephrased", "click", page.rephrased.clicked)
    on("rows-table", "click", explorer.clicked)
    on("rows-table", "keydown", explorer.keydown)
    on(el("rows-table").tHead, "click", explorer.header_clicked)
    for control in ("rows-show", "rows-sort"):
        on(control, "change", lambda event: explorer.controls_changed())
    on("rows-search", "input", lambda event: explorer.controls_changed())
    on("rows-prev", "click", lambda event: explorer.turn_page(-1, from_pager=True))
    on("rows-next", "click", lambda event: explorer.turn_page(1, from_pager=True))
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


async def start(app_started: float, imported: float):
    """Wire the page, mark the engine ready, then check the worked example (or the files
    picked meanwhile: then the example is not loaded at all; or, opened from a link
    naming its files, ask for them). ``app_started`` and
    ``imported``: when app.py began and when its imports were done (page clock, ms),
    for the benchmark."""
    page = Page()
    page.open_link()
    page.verdict.watch()
    report_view.describe_definitions()
    # a link naming its files asks for them: the worked example's figure is not its result
    asking = bool(page.linked) and not files_picked()
    examples = {} if files_picked() or asking else await example_files()
    wire(page)
    # From here a file picked is read by its listener; one picked before fired its
    # change event with nobody listening, so the check below reads it instead of the
    # example (asked after wire: a file picked while the example arrived counts too).
    if files_picked():
        examples = {}
    if asking and not files_picked():
        page.ask_for_linked_files()
    # Every request the page makes is done: from here on it makes none.
    set_text("engine-status", "Engine ready: Python is running in this tab.")
    mark("boot", f"app.py started {app_started / 1000:.2f} s, imports done "
                 f"{imported / 1000:.2f} s, ready {now_ms() / 1000:.2f} s")
    js.window.__readyAt = now_ms()
    mark("ready", "1")
    if examples:
        loaded = [await page.load_bytes(key, [example], example=True)
                  for key, example in examples.items()]
        if all(loaded):
            page.recompute()
    else:
        for key in SLOTS:
            await page.file_chosen(key)          # picked before the engine was ready
    return page

