"""The one door to the browser: the DOM helpers every other page module uses.

The browser-only imports are here and nowhere else in ngram_page: in CPython
(the unit tests) ``js`` and the pyodide names are ``None`` and nothing here is
called. Untrusted text (file contents, ids, field and file names) only ever
goes in as text: ``textContent``, ``createTextNode``, ``Option`` text, never HTML.

Event handlers go through Pyodide's ``add_event_listener``, which keeps each
handler's proxy for as long as its element listens (no list of proxies here).
"""

from __future__ import annotations

from .text import excerpt, excerpt_note

try:
    import js
    from pyodide.ffi import create_once_callable, to_js
    from pyodide.ffi.wrappers import add_event_listener, set_timeout
except ImportError:            # CPython: the modules import, the helpers are not called
    js = create_once_callable = to_js = add_event_listener = set_timeout = None

IN_BROWSER = js is not None


def el(element_id: str):
    return js.document.getElementById(element_id)


def set_text(element_id: str, text: str) -> None:
    el(element_id).textContent = text


def on(target, event: str, handler) -> None:
    """Call ``handler(event)`` on each ``event`` of an element (or an element's id)."""
    add_event_listener(el(target) if isinstance(target, str) else target, event, handler)


def mark(name: str, value: str) -> None:
    """Set a ``data-*`` marker on <body> (tests and benchmarks wait on these)."""
    setattr(js.document.body.dataset, name, value)


def create(tag: str, text: str = "", class_name: str = ""):
    """A new element holding ``text`` as text."""
    element = js.document.createElement(tag)
    if class_name:
        element.className = class_name
    if text:
        element.textContent = text
    return element


def show_page_error(message: str) -> None:
    box = el("page-error")
    box.textContent = message
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
