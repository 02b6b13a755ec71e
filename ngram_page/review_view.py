"""The passages most shared with file B, to review before reading rows one by one:
each shows the rows holding it in the explorer, or is left out of the check.

The list is :func:`ngram_core.report.shared_windows.most_shared_steps` of the result
shown; leaving a passage out adds it to the settings' ``leave_out`` (as the
command's ``--leave-out-text``), so the check, the link and the command line all
carry it, and the page's bytes stay the command's.
"""

from __future__ import annotations

from ngram_core.report.shared_windows import SHOWN, SharedWindow, most_shared_steps

from .dom import create, el, found, mark, set_text
from .text import shorten

#: Passages computed for the list, at most (shown SHOWN at a time).
LISTED = 200


def b_rows_text(window: SharedWindow) -> str:
    """Rows of B holding a window, "32+" when B holds it at more positions than the
    index keeps (32 by default).

    >>> b_rows_text(SharedWindow("x", (0,), 3, False))
    '3'
    >>> b_rows_text(SharedWindow("x", (0,), 32, True))
    '32+'
    """
    return f"{window.b_rows:,}+" if window.capped else f"{window.b_rows:,}"


class ReviewView:
    """The list of shared passages of the result shown, and the passages left out.

    ``on_show(rows, text)``: show the explorer's rows holding a passage;
    ``on_leave(text)`` / ``on_put_back(text)``: change the passages left out."""

    def __init__(self, on_show, on_leave, on_put_back):
        self.on_show, self.on_leave, self.on_put_back = on_show, on_leave, on_put_back
        self.windows: list[SharedWindow] = []
        self.left_out: tuple[str, ...] = ()
        self.shown = 0                   # passages shown (the first SHOWN, then more)
        #: where the focus goes once the list is drawn again after Leave out / Put back
        #: (the button that was pressed is gone): ("put-back" | "leave", the passage)
        self.focus_after: tuple[str, str] | None = None

    async def draw(self, result, runner) -> None:
        """The list for a new result (computed in steps: a big file stays responsive)."""
        self.windows = await runner.drive(most_shared_steps(result, LISTED), None)
        self.left_out = result.settings.leave_out
        body = el("review-table").tBodies.item(0)
        body.replaceChildren()
        for k, window in enumerate(self.windows):
            line = body.insertRow()
            line.hidden = k >= SHOWN
            line.insertCell().append(create("q", shorten(window.text, 120), file_text=True))
            for value in (f"{len(window.a_rows):,}", b_rows_text(window)):
                cell = line.insertCell()
                cell.textContent = value
                cell.className = "num"
            actions = line.insertCell()
            for label, kind in (("Show rows", "show"), ("Leave out", "leave")):
                button = create("button", label)
                button.type = "button"
                button.setAttribute(f"data-{kind}", str(k))
                button.setAttribute("aria-label", f"{label}: {shorten(window.text, 60)}")
                actions.append(button)
        self.shown = min(SHOWN, len(self.windows))
        self.say_shown()
        self.draw_left_out()
        self.refocus()
        mark("reviewed", str(len(self.windows)))

    def refocus(self) -> None:
        """After Leave out, the focus on the passage's Put back; after Put back, on its
        Leave out in the list again (else the list's title): never the page's body."""
        if self.focus_after is None:
            return
        kind, text = self.focus_after
        self.focus_after = None
        target = None
        if kind == "put-back" and text in self.left_out:
            target = el("left-out-list").querySelector(
                f'button[data-put-back="{self.left_out.index(text)}"]')
        elif kind == "leave":
            texts = [window.text for window in self.windows]
            if text in texts:
                k = texts.index(text)
                if k >= self.shown:
                    self.shown = min(len(self.windows), k + 1)
                    body = el("review-table").tBodies.item(0)
                    for i in range(self.shown):
                        body.rows.item(i).hidden = False
                    self.say_shown()
                target = el("review-table").querySelector(f'button[data-leave="{k}"]')
        (target if target is not None and found(target) else el("review-summary")).focus()

    def say_shown(self) -> None:
        shared, shown = len(self.windows), self.shown
        more = "" if shown == shared else f" Passages 1\u2013{shown:,} shown."
        set_text("review-status",
                 "No window of file A is found in file B." if not shared else
                 f"The {shared:,}{'+' if shared == LISTED else ''} passages of A found in "
                 f"file B, held by the most rows of A first.{more}"
                 if shared > 1 else "The one passage of A found in file B.")
        remaining = min(SHOWN, shared - shown)
        el("review-more").hidden = remaining <= 0
        set_text("review-more", f"Show {remaining:,} more passage{'s' if remaining > 1 else ''}")

    def more(self) -> None:
        """The next passages shown; the focus on the first of them."""
        body = el("review-table").tBodies.item(0)
        first = self.shown
        self.shown = min(len(self.windows), first + SHOWN)
        for k in range(first, self.shown):
            body.rows.item(k).hidden = False
        self.say_shown()
        if first < self.shown:
            body.rows.item(first).querySelector("button").focus()

    def draw_left_out(self) -> None:
        box, items = el("left-out-box"), el("left-out-list")
        items.replaceChildren()
        box.hidden = not self.left_out
        for k, text in enumerate(self.left_out):
            item = create("li")
            item.append(create("q", shorten(text, 120), file_text=True))
            button = create("button", "Put back")
            button.type = "button"
            button.setAttribute("data-put-back", str(k))
            button.setAttribute("aria-label", f"Put back: {shorten(text, 60)}")
            item.append(" ", button)
            items.append(item)

    def clicked(self, event) -> None:
        button = event.target.closest("button")
        if not found(button):
            return
        if str(button.id) == "review-more":
            self.more()
            return
        show, leave, put_back = (str(button.getAttribute(f"data-{kind}"))
                                 if button.hasAttribute(f"data-{kind}") else None
                                 for kind in ("show", "leave", "put-back"))
        if show is not None and int(show) < len(self.windows):
            window = self.windows[int(show)]
            self.on_show(set(window.a_rows), window.text)
        elif leave is not None and int(leave) < len(self.windows):
            self.focus_after = ("put-back", self.windows[int(leave)].text)
            self.on_leave(self.windows[int(leave)].text)
        elif put_back is not None and int(put_back) < len(self.left_out):
            self.focus_after = ("leave", self.left_out[int(put_back)])
            self.on_put_back(self.left_out[int(put_back)])
