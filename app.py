"""The page's Python: reads the inputs, runs ngram_core a step at a time, draws the result.

This is the only Python file that touches the DOM. Every piece of text that
comes from a file (row text, ids, field names, file names) is put on the page
as text (``textContent``, ``createTextNode``, ``option.text``), never as HTML.
The check runs on the main thread in small steps with ``await
asyncio.sleep(0)`` between them, so the tab keeps answering and a run can be
cancelled; a new change cancels the run in progress.
"""

import asyncio
import contextlib
import gc
import time

import js

APP_STARTED = js.performance.now()     # for the benchmark: when app.py began

from pyodide.ffi import create_once_callable, create_proxy, to_js
from pyscript import document, window

from ngram_core import CheckCache, InputError, Settings, check_steps
from ngram_core.readers import detect_id_field, detect_text_fields_steps, read_table_steps, \
    select_rows_steps
from ngram_core.report import (cap_notice, counted_table, flag_rule, flagged_figure, headline,
                               percent, settings_line)

IMPORTED = js.performance.now()
MAX_BYTES = 2_000_000          # 2 MB per file, stated on the page
ROWS_SHOWN = 200
FOLD_FIELDS = 500             # more fields than this: the field lists start folded
LIST_FIELDS = 1000            # at most this many fields (and the chosen ones) are listed
EXAMPLES = {"a": "./static/examples/test-set.json", "b": "./static/examples/training-corpus.json"}
STEP_SECONDS = 0.02            # give the browser a turn at least this often
DEBOUNCE_SECONDS = 0.15

_proxies = []                  # event handlers must outlive this module's code


def el(element_id):
    return document.getElementById(element_id)


def read_number(input_id, kind, low, high, rule):
    """The number in an input, or None after showing the rule next to it."""
    text = str(el(input_id).value).strip()
    try:
        value = kind(text)
        if not low <= value <= high:
            raise ValueError
    except ValueError:
        set_text(f"{input_id}-error", f"{rule} (it is {text or 'empty'}).")
        return None
    set_text(f"{input_id}-error", "")
    return value


@contextlib.contextmanager
def collection_paused():
    """No garbage collection while reading or checking, then freeze what survived.

    A full collection over a few hundred thousand rows takes longer than the
    tab may stall. Frozen objects are skipped by later collections; reference
    counting still frees them when the page lets go of them.
    """
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def read_query():
    """The page URL's settings as {name: [values]} (a shared link's n, mode, fields...)."""
    params = js.URLSearchParams.new(window.location.search)
    query = {}
    for name in list(params.keys()):
        query.setdefault(str(name), [str(v) for v in params.getAll(name)])
    return query


def show_page_error(message):
    box = el("page-error")
    box.textContent = message
    box.hidden = False


def spawn(coroutine):
    """Run a coroutine as a task; an unexpected error is shown on the page, not lost."""
    task = asyncio.ensure_future(coroutine)

    def done(finished):
        if finished.cancelled():
            return
        error = finished.exception()
        if error is not None:
            show_page_error(f"Something went wrong: {type(error).__name__}: {error}. "
                            f"The last valid result is still shown.")
            js.console.error(str(error))

    task.add_done_callback(done)
    return task


def on(target, event, handler):
    proxy = create_proxy(handler)
    _proxies.append(proxy)
    (el(target) if isinstance(target, str) else target).addEventListener(event, proxy)


def set_text(element_id, text):
    el(element_id).textContent = text


def human_size(size):
    if size < 1000:
        return f"{size} bytes"
    if size < 1_000_000:
        return f"{size / 1000:.1f} kB ({size:,} bytes)"
    return f"{size / 1_000_000:.2f} MB ({size:,} bytes)"


class Slot:
    """One file slot (A or B): what was read, which fields are chosen, what went wrong."""

    def __init__(self, key):
        self.key = key
        self.name = None
        self.table = None
        self.example = False
        self.text_fields = None      # None: detected
        self.id_field = None
        self.id_chosen = False       # the user picked the id field (maybe "row number")
        self.rows = None
        self.rows_key = None
        self.detected_text = []      # detected once per file: a file may have 10,000 columns
        self.detected_id = ""
        self.error = ""

    def show_error(self, message):
        self.error = message
        set_text(f"{self.key}-error", message)

    def chosen_text_fields(self):
        return self.text_fields or self.detected_text

    def chosen_id_field(self):
        """The id field, or "" for row numbers (None would mean "detect")."""
        if self.id_chosen:
            return self.id_field or ""
        return self.detected_id


class Page:
    def __init__(self):
        self.slots = {"a": Slot("a"), "b": Slot("b")}
        self.result = None           # the last valid CheckResult
        self.cache = CheckCache()    # tokens and index kept between checks
        self.resumed = time.perf_counter()
        self.longest = (0.0, "")     # the longest Python step of the last run, for the benchmark
        self.result_names = ("", "")
        self.selected = None         # index into result.ordered
        self.task = None             # the check in progress
        self.pending = None          # the debounce timer task
        self.runs = 0
        self.query = read_query()

    # --- settings ------------------------------------------------------------

    def read_settings(self):
        """Settings from the controls, or None after saying what is wrong next to them."""
        n = read_number("n", int, 5, 25, "n must be a whole number from 5 to 25")
        threshold = read_number("threshold", float, 0, 100,
                                "The threshold must be a percentage from 0 to 100")
        mode = "strict" if el("mode-strict").checked else "loose"
        el("layers").disabled = mode == "strict"
        layers = tuple(layer for layer in ("L1", "L2", "L3", "L4") if el(f"layer-{layer}").checked)
        if n is None or threshold is None:
            return None
        return Settings(n=n, mode=mode, layers=layers, threshold=threshold)

    def apply_query(self):
        """Open with the settings a shared link carries (files never travel in a URL)."""
        q = self.query
        if "n" in q:
            el("n").value = q["n"][0]
        if "threshold" in q:
            el("threshold").value = q["threshold"][0]
        if q.get("mode", [""])[0] == "strict":
            el("mode-strict").checked = True
        if "layers" in q:
            chosen = {part.strip().upper() for part in q["layers"][0].split(",")}
            for layer in ("L1", "L2", "L3", "L4"):
                el(f"layer-{layer}").checked = layer in chosen

    def update_url(self, settings):
        params = [("n", settings.n), ("threshold", f"{settings.threshold:g}"),
                  ("mode", settings.mode)]
        if settings.mode == "loose":
            params.append(("layers", ",".join(settings.layers)))
        for key, slot in self.slots.items():
            for field in slot.text_fields or []:
                params.append((f"{key}_field", field))
            if slot.id_chosen:
                params.append((f"{key}_id", slot.id_field or ""))
        query = js.URLSearchParams.new()
        for name, value in params:
            query.append(name, str(value))
        search = "?" + str(query.toString())
        if search != str(window.location.search):     # the browser saves form state on
            window.history.replaceState(None, "", search)  # each change: skip a no-op

    def stale(self, on):
        el("stale").hidden = not (on and self.result is not None)

    # --- files -----------------------------------------------------------------

    async def load_bytes(self, key, name, data, example=False):
        slot = self.slots[key]
        try:
            with collection_paused():
                table = await self.drive(read_table_steps(data, name))
        except InputError as e:
            slot.show_error(f"{e}. Choose another file.")
            self.stale(True)
            return False
        slot.show_error("")
        slot.name, slot.table, slot.example = name, table, example
        slot.rows, slot.rows_key = None, None
        slot.detected_text = await self.drive(detect_text_fields_steps(table))
        slot.detected_id = detect_id_field(table) or ""
        query_fields = [f for f in self.query.get(f"{key}_field", []) if f in table.fields]
        slot.text_fields = query_fields or None
        query_id = self.query.get(f"{key}_id")
        slot.id_chosen = bool(query_id) and (query_id[0] in table.fields or query_id[0] == "")
        slot.id_field = (query_id[0] or None) if slot.id_chosen else None
        set_text(f"{key}-name", name)
        set_text(f"{key}-size", human_size(len(data)))
        set_text(f"{key}-format", table.format.upper() if table.format != "text" else "plain text")
        set_text(f"{key}-rows", f"{len(table):,}")
        await self.fill_field_lists(key)
        return True

    async def fill_field_lists(self, key):
        """Offer every field in the two lists (a file may have 10,000 columns)."""
        slot = self.slots[key]
        text_select, id_select = el(f"{key}-text-field"), el(f"{key}-id-field")
        el(f"{key}-fields-box").open = False           # no layout while it fills
        # A <select> of thousands of options blocks the tab for a second (the
        # browser's work, not Python's): list the first LIST_FIELDS, plus any chosen.
        chosen_text, chosen_id = slot.chosen_text_fields(), slot.chosen_id_field()
        listed = slot.table.fields[:LIST_FIELDS]
        shown = set(listed)
        listed += [f for f in dict.fromkeys([*chosen_text, chosen_id]) if f and f not in shown]
        names = to_js(listed)
        js.ngramFillOptions(text_select, names, to_js(chosen_text), None)
        js.ngramFillOptions(id_select, names, to_js([chosen_id]), "(row number)")
        await self.breathe("field lists")
        for select in (text_select, id_select):
            select.disabled = False
        count = len(slot.table.fields)
        el(f"{key}-fields-box").open = count <= FOLD_FIELDS
        summary = "Fields"
        if count > LIST_FIELDS:
            summary = (f"Fields (listing {len(listed):,} of {count:,}; the ngram-overlap "
                       f"command takes any field by name)")
        elif count > FOLD_FIELDS:
            summary = f"Fields ({count:,})"
        set_text(f"{key}-fields-summary", summary)

    async def file_chosen(self, key):
        self.resumed = time.perf_counter()
        self.longest = (0.0, "")
        files = el(f"file-{key}").files
        if not files.length:
            return
        file = files.item(0)
        name, size = str(file.name), int(file.size)
        if size > MAX_BYTES:
            self.slots[key].show_error(
                f"{name} is {human_size(size)}; the page reads files of at most 2 MB "
                f"({MAX_BYTES:,} bytes). Nothing of it was read: use the ngram-overlap "
                f"command for larger files.")
            self.stale(True)
            return
        buffer = await file.arrayBuffer()
        data = buffer.to_py().tobytes()
        if await self.load_bytes(key, name, data):
            self.recompute()             # a new file: no need to wait for more typing

    def fields_changed(self, key):
        slot = self.slots[key]
        if slot.table is None:
            return
        text_select = el(f"{key}-text-field")
        chosen = [text_select.options.item(i).value for i in range(text_select.options.length)
                  if text_select.options.item(i).selected]
        if not chosen:
            slot.show_error("Choose at least one text field.")
            self.stale(True)
            return
        slot.text_fields = chosen
        slot.id_field = str(el(f"{key}-id-field").value) or None
        slot.id_chosen = True
        slot.rows, slot.rows_key = None, None
        slot.show_error("")
        self.schedule()

    # --- the check ---------------------------------------------------------------

    async def breathe(self, where):
        """Give the browser a turn, noting the longest stretch Python held the thread."""
        held = time.perf_counter() - self.resumed
        if held > self.longest[0]:
            self.longest = (held, where)
        await asyncio.sleep(0)
        self.resumed = time.perf_counter()

    async def turn(self, where):
        """Breathe if Python has held the thread for STEP_SECONDS already."""
        if time.perf_counter() - self.resumed >= STEP_SECONDS:
            await self.breathe(where)

    async def drive(self, steps, show=None):
        """Run a step generator to its end, giving the browser a turn every STEP_SECONDS."""
        while True:
            try:
                progress = next(steps)
            except StopIteration as stop:
                return stop.value
            if time.perf_counter() - self.resumed >= STEP_SECONDS:
                if show is not None:
                    show(progress)
                await self.breathe(getattr(progress, "stage", None) or steps.__name__)

    def schedule(self):
        """Recompute soon: the latest change wins, a run in progress is cancelled."""
        if self.pending is not None and not self.pending.done():
            self.pending.cancel()
        self.pending = spawn(self._debounced())

    async def _debounced(self):
        await asyncio.sleep(DEBOUNCE_SECONDS)
        self.recompute()

    def recompute(self):
        self.longest = (0.0, "")
        settings = self.read_settings()
        if settings is None or any(s.table is None or s.error for s in self.slots.values()):
            self.stale(True)
            return
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = spawn(self.run(settings))

    async def rows_of(self, slot):
        key = (tuple(slot.chosen_text_fields()), slot.chosen_id_field())
        if slot.rows is None or slot.rows_key != key:
            slot.rows = await self.drive(select_rows_steps(slot.table, *key))
            slot.rows_key = key
        return slot.rows

    async def run(self, settings):
        started = self.resumed = time.perf_counter()
        work = el("work")
        work.hidden = False
        document.body.dataset.busy = "1"
        try:
            with collection_paused():
                rows = {}
                for key, slot in self.slots.items():
                    try:
                        rows[key] = await self.rows_of(slot)
                        await self.turn(f"rows {key}")
                    except InputError as e:
                        slot.show_error(str(e))
                        self.stale(True)
                        document.body.dataset.busy = "0"
                        return
                result = await self.drive(
                    check_steps(rows["a"], rows["b"], settings, self.cache), self.show_progress)
        except asyncio.CancelledError:
            set_text("stage", "Cancelled.")
            document.body.dataset.busy = "0"
            raise
        finally:
            work.hidden = True
        await self.turn("checked")
        self.result = result
        self.result_names = (self.slots["a"].name, self.slots["b"].name)
        self.stale(False)
        self.update_url(settings)
        await self.turn("url")
        computed = time.perf_counter()
        try:
            await self.render()
        finally:
            document.body.dataset.busy = "0"
        done = time.perf_counter()
        await self.breathe("drawing")
        held, where = self.longest
        document.body.dataset.timing = (f"check {computed - started:.3f} s, draw "
                                        f"{done - computed:.3f} s, longest Python step "
                                        f"{held * 1000:.0f} ms ({where})")

    def show_progress(self, progress):
        el("progress").value = progress.fraction
        set_text("stage", f"Working: {progress.stage} ({progress.fraction:.0%})")

    def cancel(self):
        if self.task is not None and not self.task.done():
            self.task.cancel()
            self.stale(True)

    # --- drawing -----------------------------------------------------------------

    async def render(self):
        result, s = self.result, self.result.summary
        document.body.dataset.selected = "none"
        set_text("flagged-figure", flagged_figure(s))
        set_text("headline", headline(s))
        el("example-note").hidden = not all(slot.example for slot in self.slots.values())
        set_text("settings-line", settings_line(*self.result_names, s,
                                                result.tokenizer.description))
        notice = cap_notice(s)
        set_text("cap-notice", notice)
        el("cap-notice").hidden = not notice
        await self.turn("figures")
        self.render_counted(s)
        await self.breathe("summary")
        await self.render_rows()
        await self.render_short_duplicates()
        el("download-csv").disabled = False
        await self.select(0 if result.ordered else None)
        await self.breathe("panes")
        self.runs += 1
        document.body.dataset.runs = str(self.runs)
        document.body.dataset.wasmBytes = str(wasm_bytes())

    def render_counted(self, s):
        body = el("counted").tBodies.item(0)
        body.replaceChildren()
        for measure, value in counted_table(s):
            row = body.insertRow()
            row.insertCell().textContent = measure
            cell = row.insertCell()
            cell.textContent = value
            cell.className = "num"

    async def render_rows(self):
        result = self.result
        body = el("rows-table").tBodies.item(0)
        body.replaceChildren()
        is_flagged_row = flag_rule(result.settings.threshold)
        for index, match in enumerate(result.ordered[:ROWS_SHOWN]):
            if time.perf_counter() - self.resumed > STEP_SECONDS:
                await self.breathe("table")
            row = body.insertRow()
            row.dataset.index = str(index)
            row.setAttribute("aria-selected", "false")
            if is_flagged_row(match):
                row.className = "flagged"
            button = document.createElement("button")
            button.type = "button"
            button.className = "row"
            button.textContent = result.a_rows[match.row].id
            button.dataset.index = str(index)
            row.insertCell().append(button)
            b_id = result.b_rows[match.b_row].id if match.b_row is not None else "none"
            for value in (str(match.tokens), percent(match.share), str(match.span),
                          str(match.windows)):
                cell = row.insertCell()
                cell.textContent = value
                cell.className = "num"
            row.insertCell().textContent = b_id
        more = len(result.ordered) - ROWS_SHOWN
        el("rows-more").hidden = more <= 0
        if more > 0:
            set_text("rows-more", f"{more:,} more checkable rows are not drawn here; the CSV "
                                  f"has every one.")

    async def render_short_duplicates(self):
        result = self.result
        short = []
        for count, match in enumerate(result.matches):
            if match.status == "short" and match.duplicate_of is not None:
                short.append(match)
                if len(short) == ROWS_SHOWN:
                    break
            if count % 4096 == 0 and time.perf_counter() - self.resumed > STEP_SECONDS:
                await self.breathe("duplicates")
        box, items = el("short-duplicates"), el("short-duplicates-list")
        items.replaceChildren()
        box.hidden = not short
        for match in short:
            item = document.createElement("li")
            item.textContent = (f"A row {result.a_rows[match.row].id} = "
                                f"B row {result.b_rows[match.duplicate_of].id}")
            items.append(item)

    async def select(self, index):
        """Show row ``index`` of the ordered table and its best B row, highlighted."""
        self.selected = index
        body = el("rows-table").tBodies.item(0)
        for i in range(body.rows.length):
            row = body.rows.item(i)
            row.setAttribute("aria-selected", "true" if str(index) == row.dataset.index else "false")
        if index is None:
            self.fill_panes("No checkable row", "", [], "", "", [])
        else:
            result = self.result
            match = result.ordered[index]
            ranges = await self.drive(result.highlight_steps(match))
            if self.selected != index or self.result is not result:
                return                   # another row or run came meanwhile
            a_row = result.a_rows[match.row]
            a_name, b_name = self.result_names
            if match.b_row is None:
                b_title = (f"{b_name}: no row shares a {result.settings.n}-token sequence "
                           f"with this one")
                b_text = ""
            else:
                b_row = result.b_rows[match.b_row]
                b_title, b_text = f"{b_name}, row {b_row.id}", b_row.text
            self.fill_panes(f"{a_name}, row {a_row.id}", a_row.text, ranges[0],
                            b_title, b_text, ranges[1])
        document.body.dataset.selected = "" if index is None else str(index)

    def fill_panes(self, a_title, a_text, a_ranges, b_title, b_text, b_ranges):
        set_text("pane-a-title", a_title)
        set_text("pane-b-title", b_title)
        fill_marked(el("pane-a-text"), a_text, a_ranges)
        fill_marked(el("pane-b-text"), b_text, b_ranges)

    def row_clicked(self, event):
        target = event.target
        index = getattr(target.dataset, "index", None) if target.dataset else None
        if index is not None:
            spawn(self.select(int(index)))

    def download_csv(self, event):
        if self.result is None:
            return
        data = self.result.csv().encode("utf-8")
        options = to_js({"type": "text/csv;charset=utf-8"}, dict_converter=js.Object.fromEntries)
        blob = js.Blob.new(to_js([to_js(data)]), options)
        url = js.URL.createObjectURL(blob)
        link = document.createElement("a")
        link.href = url
        link.download = f"ngram-overlap-n{self.result.settings.n}.csv"
        document.body.append(link)
        link.click()
        link.remove()
        window.setTimeout(create_once_callable(lambda: js.URL.revokeObjectURL(url)), 10_000)


PANE_CHARS = 20_000           # a longer row is shown around its first highlight


def excerpt(text, ranges):
    """A window of at most PANE_CHARS characters of a long row, and the ranges in it.

    Returns ``(start, end, ranges shifted to the window)``; short rows are whole.
    """
    if len(text) <= PANE_CHARS:
        return 0, len(text), ranges
    centre = ranges[0][0] if ranges else 0
    start = max(0, min(centre - PANE_CHARS // 4, len(text) - PANE_CHARS))
    end = start + PANE_CHARS
    inside = [(max(s, start) - start, min(e, end) - start) for s, e in ranges
              if s < end and e > start]
    return start, end, inside


def wasm_bytes():
    """The size of the interpreter's WebAssembly memory (for the benchmark), or 0."""
    try:
        import pyodide_js
        return int(pyodide_js._module.HEAP8.length)
    except Exception:            # not every runtime exposes it; the page works without
        return 0


def fill_marked(element, text, ranges):
    """Put text into an element as text nodes, with <mark> around each [start, end).

    A row longer than PANE_CHARS is shown as an excerpt, with a note saying
    which characters are shown, so a 2 MB row does not stall the page's layout.
    """
    element.replaceChildren()
    start, end, ranges = excerpt(text, ranges)
    if (start, end) != (0, len(text)):
        note = document.createElement("span")
        note.className = "excerpt-note"
        note.textContent = (f"[Characters {start + 1:,} to {end:,} of {len(text):,}, around the "
                            f"first highlight.]\n")
        element.append(note)
        text = text[start:end]
    position = 0
    for first, stop in ranges:
        if first > position:
            element.append(document.createTextNode(text[position:first]))
        mark = document.createElement("mark")
        mark.textContent = text[first:stop]
        element.append(mark)
        position = stop
    if position < len(text):
        element.append(document.createTextNode(text[position:]))


async def fetch_bytes(url):
    response = await js.fetch(url)
    if not response.ok:
        raise InputError(url, f"could not be loaded (HTTP {response.status})")
    buffer = await response.arrayBuffer()
    return buffer.to_py().tobytes()


def wire(page):
    for key in ("a", "b"):
        on(f"file-{key}", "change", lambda event, key=key: spawn(page.file_chosen(key)))
        on(f"{key}-text-field", "change", lambda event, key=key: page.fields_changed(key))
        on(f"{key}-id-field", "change", lambda event, key=key: page.fields_changed(key))
    for control in ("n", "threshold", "mode-loose", "mode-strict", "layer-L1", "layer-L2",
                    "layer-L3", "layer-L4"):
        on(control, "input", lambda event: page.schedule())
        on(control, "change", lambda event: page.schedule())

    def preset(event):
        el("n").value = event.target.dataset.n
        page.schedule()

    on("n-8", "click", preset)
    on("n-13", "click", preset)
    on("cancel", "click", lambda event: page.cancel())
    on("rows-table", "click", page.row_clicked)
    on("download-csv", "click", page.download_csv)


async def start():
    """Wire the page, mark the engine ready, then check the worked example (or files picked)."""
    page = Page()
    page.apply_query()
    examples = {}
    for key, url in EXAMPLES.items():
        if not el(f"file-{key}").files.length:
            examples[key] = (url.rsplit("/", 1)[-1], await fetch_bytes(url))
    wire(page)
    # Every request the page makes is done: from here on it makes none.
    set_text("engine-status", "Engine ready: Python is running in this tab.")
    document.body.dataset.boot = (f"app.py started {APP_STARTED / 1000:.2f} s, imports done "
                                  f"{IMPORTED / 1000:.2f} s, ready {js.performance.now() / 1000:.2f} s")
    window.__readyAt = js.performance.now()
    document.body.dataset.ready = "1"
    for key in EXAMPLES:
        if key in examples:
            await page.load_bytes(key, *examples[key], example=True)
        else:
            await page.file_chosen(key)          # picked before the engine was ready
    page.recompute()
    return page


PAGE = spawn(start())
