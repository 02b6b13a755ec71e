"""The one door to the browser: the DOM helpers every other page module uses.

The browser-only imports are here and nowhere else in ngram_page: in CPython
(the unit tests) ``js`` and the pyodide names are ``None`` and nothing here is
called. Untrusted text (file contents, ids, field and file names) only ever
goes in as text: ``textContent``, ``createTextNode``, ``Option`` text, never HTML;
and, but in the panes that show a row's own text, with its control characters
made visible (``\x1b``: :func:`~ngram_core.errors.visible`), as the command
shows them.

Every listener is added once, at start, for the page's life (ngram_page.start wires
them): each handler's proxy is made here and lives as long as the page, so
nothing holds a list of proxies to destroy. (``pyodide.ffi.wrappers`` does
the same for listeners that come and go, but importing it compiles its
source at start: 25 ms of the tab's first second.)
"""

from __future__ import annotations

from ngram_core.errors import visible

from .text import excerpt, excerpt_note

try:
    import js
    from pyodide.ffi import create_once_callable, create_proxy, jsnull, to_js
except ImportError:            # CPython: the modules import, the helpers are not called
    js = create_once_callable = create_proxy = jsnull = to_js = None

IN_BROWSER = js is not None


def found(value) -> bool:
    """False for what a DOM look-up returns when nothing matches (JavaScript's null)."""
    return value is not None and value is not jsnull


def el(element_id: str):
    return js.document.getElementById(element_id)


def set_text(element_id: str, text: str) -> None:
    el(element_id).textContent = visible(text)


def on(target, event: str, handler) -> None:
    """Call ``handler(event)`` on each ``event`` of an element (or an element's id),
    for the page's life."""
    element = el(target) if isinstance(target, str) else target
    element.addEventListener(event, create_proxy(handler))


def set_timeout(action, ms: int) -> None:
    """Call ``action()`` once, ``ms`` milliseconds from now."""
    js.setTimeout(create_once_callable(action), ms)


def mark(name: str, value: str) -> None:
    """Set a ``data-*`` marker on <body> (tests and benchmarks wait on these)."""
    setattr(js.document.body.dataset, name, value)


def create(tag: str, text: str = "", class_name: str = "", file_text: bool = False):
    """A new element holding ``text`` as text; ``file_text``: the text comes from a
    file (an id, a name), so its direction is its own (``dir="auto"``)."""
    element = js.document.createElement(tag)
    if class_name:
        element.className = class_name
    if text:
        element.textContent = visible(text)
    if file_text:
        element.dir = "auto"
    return element


def js_object(values: dict):
    """A plain JavaScript object (for options such as scrollIntoView's)."""
    return to_js(values, dict_converter=js.Object.fromEntries)


def fill_options(select, values: list, labels: list, chosen: list, blank_label=None) -> None:
    """Fill a <select> in one go (a file may have 10,000 fields): option texts
    ``labels``, values ``values``; ``blank_label`` adds a first option of value ""."""
    js.ngramFillOptions(select, to_js(values), to_js([visible(label) for label in labels]),
                        to_js(chosen), blank_label)


def fill_rows(body, rows: list, labels: list[str] | None = None) -> None:
    """Replace a table body with ``rows`` in one call (boot.js's ``ngramFillRows``):
    each ``[position, flagged, [[text, kind], ...]]``, every text set as text;
    ``labels``: each column's name, kept on its cells (``data-label``) for the
    cards a phone shows."""
    shown = [[position, flagged, [[visible(text), kind] for text, kind in cells]]
             for position, flagged, cells in rows]
    js.ngramFillRows(body, to_js(shown), to_js(labels or []))


def append_breakable(element, text: str) -> None:
    """Append a name from a file to ``element`` as text, breakable after each path
    separator, underscore, dot or hyphen (boot.js's ``ngramAppendBreakable``)."""
    js.ngramAppendBreakable(element, visible(text))


def fill_table(table_id: str, lines, numeric_from: int = 1) -> None:
    """Replace a table's body with ``lines`` of text cells; columns from
    ``numeric_from`` on are right-aligned numbers."""
    body = el(table_id).tBodies.item(0)
    body.replaceChildren()
    for line in lines:
        row = body.insertRow()
        for i, value in enumerate(line):
            cell = row.insertCell()
            cell.textContent = visible(value)
            if i >= numeric_from:
                cell.className = "num"


def bring_into_view(element_id: str, block: str = "nearest") -> None:
    """Scroll the page the least needed to show an element (nothing if it is shown);
    ``block="center"``: to the middle of the window (a message to read)."""
    el(element_id).scrollIntoView(js_object({"block": block}))


def show_first_mark(element) -> None:
    """Scroll a pane's own text (not the page) so its first highlight is in view."""
    first = element.querySelector("mark")
    if not found(first):
        element.scrollTop = 0
        return
    element.scrollTop = max(0, first.offsetTop - element.clientHeight // 4)


def show_page_error(message: str) -> None:
    box = el("page-error")
    box.textContent = visible(message)
    box.hidden = False


def log_error(message: str) -> None:
    js.console.error(message)


def now_ms() -> float:
    """The page's clock (ms since navigation), as the benchmark reads it."""
    return js.performance.now()


def fill_marked(element, text: str, ranges) -> None:
    """Put text into an element as text nodes, with <mark> around each [start, end).

    A row longer than PANE_CHARS is shown as an excerpt, with a note saying
    which characters are shown, so a 2 MB row does not stall the page's layout.
    """
    element.replaceChildren()
    start, end, ranges = excerpt(text, ranges)
    if (start, end) != (0, len(text)):
        element.append(create("span", excerpt_note(start, end, len(text)), "excerpt-note"))
        text = text[start:end]
    document = js.document
    position = 0
    for first, stop in ranges:
        if first > position:
            element.append(document.createTextNode(text[position:first]))
        mark_element = document.createElement("mark")
        mark_element.textContent = text[first:stop]
        element.append(mark_element)
        position = stop
    if position < len(text):
        element.append(document.createTextNode(text[position:]))


def wasm_bytes() -> int:
    """The size of the interpreter's WebAssembly memory (for the benchmark), or 0."""
    try:
        import pyodide_js
        return int(pyodide_js._module.HEAP8.length)
    except Exception:            # not every runtime exposes it; the page works without
        return 0
