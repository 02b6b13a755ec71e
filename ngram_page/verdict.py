"""The verdict: the flagged figure and its sentences first on the page, and the bar
that keeps them in view.

The verdict block sits straight after the introduction: the figure, its
sentence, the settings sentence with the fields read, the notices, the
"out of date" mark, "Copy link" and the command line. The bar (``#verdict-bar``,
at the top of the window; on a phone in its own place after the introduction,
sticking to the top once scrolled to) repeats the figure, a short sentence, the
files and fields read, n, the flag rule and the mode whenever the verdict
block is not wholly in view, and it is where a check's progress and its
Cancel button show. Every sentence comes from ``ngram_core.report.summary``.
"""

from __future__ import annotations

from ngram_core.method.tokenize import layers_words
from ngram_core.read.fields import unchecked_text_notice
from ngram_core.report.summary import (brief, cap_notice, flagged_figure, headline, reading_brief,
                               settings_line)

from .dom import IN_BROWSER, el, js, js_object, mark, set_text

if IN_BROWSER:
    from pyodide.ffi import create_proxy


class Verdict:
    """The verdict block and its bar: what they show, and when the bar is needed."""

    def __init__(self):
        self.drawn = False       # a result is shown
        self.busy = False
        self.in_view = {"summary": True, "settings-line": True}
        self._observer = self._proxy = None     # the observer and its callback, kept

    def watch(self) -> None:
        """Show the bar whenever the figure or the settings sentence leaves the window
        (an IntersectionObserver: no work while the page scrolls)."""
        def seen(entries, observer=None):
            for entry in entries:
                self.in_view[str(entry.target.id)] = bool(entry.intersectionRatio >= 0.99)
            self._bar()

        self._proxy = create_proxy(seen)        # the observer calls it for the page's life
        self._observer = js.IntersectionObserver.new(self._proxy,
                                                     js_object({"threshold": [0, 0.99, 1]}))
        for element_id in self.in_view:
            self._observer.observe(el(element_id))

    def _bar(self) -> None:
        out_of_view = not all(self.in_view.values())
        el("verdict-bar").hidden = not (self.busy or (self.drawn and out_of_view))

    def show(self, result, names, example: bool) -> None:
        """The figure, its sentences and the notices of a new result, in both places."""
        s = result.summary
        figure = flagged_figure(s)
        flagged = "flagged" if s.flagged else ""          # alarm red only for a flag
        for element_id, base in (("flagged-figure", "figure"), ("bar-figure", "bar-figure")):
            element = el(element_id)
            element.textContent = figure
            element.className = f"{base} {flagged}".strip()
        set_text("headline", headline(s))
        set_text("bar-sentence", brief(s))
        set_text("bar-read", settings_first(reading_brief(*names, s), s.n))
        el("example-note").hidden = not example
        set_text("settings-line", settings_line(*names, s, result.tokenizer.description))
        set_text("layers-words", layers_words(result.settings.layers, result.settings.mode))
        notice = cap_notice(s)
        set_text("cap-notice", notice)
        el("cap-notice").hidden = not notice
        for button in ("copy-link", "copy-command"):
            el(button).disabled = False
        self.drawn = True
        self._bar()

    def ask(self, sentence: str) -> None:
        """No result to show yet, and why (a link's files to pick): no figure, the
        sentence in its place, nothing to copy."""
        for element_id, base in (("flagged-figure", "figure"), ("bar-figure", "bar-figure")):
            el(element_id).textContent = "\u2013"
            el(element_id).className = base
        set_text("headline", sentence)
        for element_id in ("bar-sentence", "bar-read", "settings-line", "layers-words"):
            set_text(element_id, "")
        el("example-note").hidden = True
        for button in ("copy-link", "copy-command"):
            el(button).disabled = True
        self.drawn = False
        self._bar()

    def unchecked_text(self, result, sides) -> None:
        """Under the figure, when nothing was flagged: each file's text fields the check
        left out (``sides``: ``(role, chosen fields, other text fields)`` per file), and
        where to choose them."""
        notices = []
        for role, chosen, others in [] if result.summary.flagged else sides:
            notice = unchecked_text_notice(role, chosen, others)
            if notice:
                notices.append(f"{notice} Choose {others[0].name} in file {role}'s text field "
                               "list to check it.")
        set_text("fields-notice", " ".join(notices))
        el("fields-notice").hidden = not notices

    def stale(self, on: bool, why: str = "") -> None:
        """Mark the result shown as out of date, saying ``why`` (a file refused, a value
        out of range, a run cancelled): on the figure itself, in the block and the bar."""
        on = on and self.drawn
        el("stale").hidden = not on
        el("bar-stale").hidden = not on
        if on:
            set_text("stale", stale_sentence(why))
        mark("stale", "1" if on else "0")

    def working(self, on: bool) -> None:
        """A check runs: its progress and Cancel show in the bar, whatever is in view."""
        self.busy = on
        el("work").hidden = not on
        self._bar()

    def command(self, line: str) -> None:
        """The command line that gives the shown result from the same files."""
        set_text("command-line", line)


def settings_first(brief: str, n: int) -> str:
    """The bar's line of what was read, the settings first: on a phone the line is cut
    at the screen's edge, and the files are named in their slots (the settings are
    nowhere else in view)::

        >>> settings_first("A: t.json (q) · B: b.jsonl (text) · n = 13 · flag at any shared window · loose matching", 13)
        'n = 13 · flag at any shared window · loose matching · A: t.json (q) · B: b.jsonl (text)'
    """
    files, sep, settings = brief.rpartition(f" · n = {n} · ")
    return f"n = {n} · {settings} · {files}" if sep else brief


def stale_sentence(why: str) -> str:
    """What the out-of-date mark says::

        >>> stale_sentence("file B, huge.jsonl, is over the 2 MB bound")
        'Out of date: file B, huge.jsonl, is over the 2 MB bound. Showing your last valid result; update the inputs below to recompute.'
    """
    head = f"Out of date: {why}. " if why else ""
    return f"{head}Showing your last valid result; update the inputs below to recompute."


def show_progress(progress) -> None:
    el("progress").value = progress.fraction
    set_text("stage", f"Working: {progress.stage} ({progress.fraction:.0%})")


async def copy_text(text: str, what: str) -> None:
    """Put ``text`` on the clipboard and say so (or say how to copy it by hand)."""
    try:
        await js.navigator.clipboard.writeText(text)
        set_text("copied", f"{what} copied.")
    except Exception:            # no clipboard permission: the text stays selectable
        set_text("copied", f"The browser did not allow copying: select the {what.lower()} "
                           "and copy it.")
    mark("copied", what)
