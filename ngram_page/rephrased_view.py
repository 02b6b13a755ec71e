"""The rows that look rephrased from file B: each with its most similar B row, both
texts side by side, the words both hold that few rows of A hold marked; each opens
in the explorer, which can list them.

Which rows, in which order, is :func:`ngram_core.report.explore.listed_rows` (the
``rephrased`` kind, the most similar first); the words marked are
:func:`ngram_core.method.similar.telling_terms`. Nothing is computed here.
"""

from __future__ import annotations

from ngram_core.method.similar import term_ranges, term_rows_steps, telling_terms
from ngram_core.report.explore import RowView, listed_rows
from ngram_core.report.summary import number, rephrase_rule

from .dom import create, el, fill_marked, found, mark, set_text
from .panes import b_file
from .text import word_end

#: Rows shown at a time.
SHOWN = 10
#: Characters of each text shown in the list (the explorer's panes show it whole).
TEXT_CHARS = 600


def opening(text: str, width: int = TEXT_CHARS) -> tuple[str, str]:
    """The first ``width`` characters of ``text`` (back to the last whole word) and
    what follows them on the page (an ellipsis when the text goes on)::

        >>> opening("one two three", width=9), opening("one two", width=9)
        (('one two', '\u2026'), ('one two', ''))
    """
    if len(text) <= width:
        return text, ""
    return text[:word_end(text, width)].rstrip(), "\u2026"


class RephrasedView:
    """The list of the rows the rephrase lens marks, for the result shown.

    ``on_show(row)``: list the marked rows in the explorer and open row ``row``."""

    def __init__(self, on_show):
        self.on_show = on_show
        self.rows: list[int] = []
        self.shown = 0
        self.result = None
        self.df = None                   # A's term rows, computed once per result's A

    async def draw(self, result, runner) -> None:
        """The list for a new result (A's term counts computed in steps, once per A)."""
        self.result = result
        box = el("rephrased")
        s = result.summary
        box.hidden = s.rephrase_threshold is None          # the lens did not run
        el("rephrased-list").replaceChildren()
        self.shown = 0
        if box.hidden:
            self.rows = []
            return
        rule = rephrase_rule(result.settings)
        self.rows = listed_rows(result.matches, result.a_rows, RowView("rephrased", "",
                                                                       "similarity"),
                                result.settings.threshold, rephrased=rule)
        if self.rows:
            await self.term_rows(result, runner)
        self._add(SHOWN)
        mark("rephrasedRows", str(len(self.rows)))

    async def term_rows(self, result, runner):
        """How many rows of A hold each term, and how many hold any (computed in
        steps once per file A, for the list and the panes)."""
        if self.df is None or self.df[0] is not result.a_rows:
            texts = [row.text for row in result.a_rows]
            self.df = (result.a_rows, await runner.drive(term_rows_steps(texts), None))
        return self.df[1]

    def _add(self, count: int) -> None:
        """The next ``count`` rows drawn; the status and the More button said again."""
        result = self.result
        listing = el("rephrased-list")
        first = self.shown
        self.shown = min(len(self.rows), first + count)
        df, a_rows_with_terms = self.df[1] if self.df is not None else ({}, 0)
        for position in range(first, self.shown):
            row = self.rows[position]
            match = result.matches[row]
            a_row, b = result.a_rows[row], match.similar_b_row
            b_row = result.b_rows[b]
            telling = telling_terms(a_row.text, b_row.text, df, a_rows_with_terms)
            item = create("li")
            item.value = position + 1
            b_name = b_file(result, b)
            title = (f"Row {a_row.id} and B row {result.b_id(b)}"
                     + (f" ({b_name})" if b_name else "")
                     + f": similarity {match.similarity:.3f}")
            heading = create("h3", title, file_text=True)
            item.append(heading)
            pair = create("div", "", "rephrased-pair")
            for side, text in (("A", a_row.text), ("B", b_row.text)):
                shown, more = opening(text)    # a 2 MB row: only its opening read
                paragraph = create("p", "", "", file_text=True)
                paragraph.setAttribute("aria-label", f"Row of file {side}")
                fill_marked(paragraph, shown, term_ranges(shown, telling))
                if more:
                    paragraph.append(more)
                pair.append(paragraph)
            item.append(pair)
            button = create("button", "Show in the rows")
            button.type = "button"
            button.setAttribute("data-row", str(row))
            button.setAttribute("aria-label", f"Show in the rows: row {a_row.id}")
            item.append(button)
            listing.append(item)
        self.say_shown()
        if first and first < self.shown:
            listing.children.item(first).querySelector("button").focus()

    def say_shown(self) -> None:
        s, count, shown = self.result.summary, len(self.rows), self.shown
        at = f"similarity {number(s.rephrase_threshold)} or more"
        if not count:
            text = f"No row of file A looks rephrased from a row of file B ({at})."
        else:
            found = count - s.rephrased_unflagged     # flagged, duplicates, contained
            text = (f"{count:,} {'row' if count == 1 else 'rows'} of file A "
                    f"{'looks' if count == 1 else 'look'} rephrased from rows of file B "
                    f"({at}), the most similar first"
                    + (f"; the n-gram test finds {found:,} of them too" if found else "")
                    + "."
                    + (f" Rows 1\u2013{shown:,} shown." if shown < count else ""))
        set_text("rephrased-status", text)
        remaining = min(SHOWN, count - shown)
        el("rephrased-more").hidden = remaining <= 0
        set_text("rephrased-more", f"Show {remaining:,} more row{'s' if remaining > 1 else ''}")

    def clicked(self, event) -> None:
        button = event.target.closest("button")
        if not found(button):
            return
        if str(button.id) == "rephrased-more":
            self._add(SHOWN)
        elif button.hasAttribute("data-row"):
            self.on_show(int(str(button.getAttribute("data-row"))))
