"""The row explorer: every row of file A, fifty to a page, shown by kind, searched,
sorted, and walked from the keyboard as one grid.

Which rows, in which order, is :func:`ngram_core.report.explore.listed_rows`; this
module only draws a page of them and follows the controls. The table is the
ARIA grid pattern: one cell holds ``tabindex="0"`` (one Tab stop however many
rows there are), the arrow keys move between cells and rows, Page Up / Page
Down between pages, Home / End to a row's ends (with Ctrl: the page's first
or last row). The row holding the focus is the selected one and shows in the
panes; Enter (or a click) also opens the panes on a narrow screen.

A row's *position* is its place in the listed rows (0 = the first row of the
first page); ``body[data-selected]`` holds the selected row's position.
"""

from __future__ import annotations

from ngram_core.report.definitions import DESCRIPTIONS
from ngram_core.report.explore import (DIRTY_UNDER, HOLDING, SHOWS, SORTS, RowView,
                                       listed_rows, page_bounds, status_words)
from ngram_core.method.match import CHECKABLE
from ngram_core.report.summary import flag_rule, percent, rephrase_rule

from .dom import bring_into_view, el, fill_options, fill_rows, found, set_text
from .text import shorten
from .panes import b_file

PAGE_ROWS = 50
DASH = "\u2013"
# Sort options: each column both ways; the value is "<column>:<desc|asc>".
SORT_OPTIONS = [(f"{key}:{'desc' if down else 'asc'}",
                 f"{words}, {'high to low' if down else 'low to high'}"
                 if key not in ("worst", "row", "id", "b_row") else
                 (f"{words}" if down == default else f"{words}, reversed"))
                for key, (words, default) in SORTS.items()
                for down in ((default, not default))]


def sort_choice(value: str) -> tuple[str, bool]:
    """``"share:asc"`` -> ``("share", False)``."""
    column, _, direction = value.partition(":")
    return column, direction != "asc"


class Explorer:
    """The rows of the result shown, the view asked for, the page and the focused cell.

    ``on_select(position, by_person)`` is called when the row in focus changes
    (``by_person``: a click or Enter, which also opens the panes on a phone).
    """

    def __init__(self, on_select):
        self.on_select = on_select
        self.result = None
        self.view = RowView(show="checkable")   # the product description's table
        self.rows: list[int] = []        # the listed A rows (0-based), in order
        self.page = 0
        self.position = 0                # the focused row's position in self.rows
        self.column = 0
        self.definitions = None
        self.rephrased = lambda match: False     # the lens's rule for the result drawn
        #: the rows holding a passage picked in the review, and its text (None: none)
        self.holding: tuple[set[int], str] | None = None

    # --- the controls -----------------------------------------------------------

    def offer_choices(self) -> None:
        """The Show and Sort by lists (Show gains the definitions when they are computed)."""
        shows = list(SHOWS)
        labels = list(SHOWS.values())
        if self.definitions is not None:
            for d in self.definitions:
                shows.append(DIRTY_UNDER + d.name)
                labels.append(f"Dirty under {definition_title(d.name)}")
        if self.holding is not None:
            shows.append(HOLDING)
            labels.append(holding_title(self.holding[1]))
        chosen = self.view.show if self.view.show in shows else "all"
        fill_options(el("rows-show"), shows, labels, [chosen])
        sort = f"{self.view.sort}:{'desc' if self._descending() else 'asc'}"
        fill_options(el("rows-sort"), [v for v, _ in SORT_OPTIONS],
                     [w for _, w in SORT_OPTIONS], [sort])

    def _descending(self) -> bool:
        d = self.view.descending
        return SORTS[self.view.sort][1] if d is None else d

    def controls_changed(self) -> None:
        """Show, search or sort changed: list again from the first page."""
        show = str(el("rows-show").value) or "all"
        column, descending = sort_choice(str(el("rows-sort").value) or "worst:desc")
        self.view = RowView(show, str(el("rows-search").value), column, descending)
        self._from_the_top()

    def apply_link(self, show: str | None, sort: str | None, search: str) -> None:
        """The view a link names, for the next result shown (a kind of row the page does
        not offer, or a column it does not sort by, is left as it opens)."""
        column, descending = sort_choice(sort) if sort else ("worst", None)
        if column not in SORTS:
            column, descending = "worst", None
        el("rows-search").value = search
        self.view = RowView(show if show in SHOWS else "checkable", search, column, descending)

    def link_view(self) -> tuple[str | None, str | None, str]:
        """The view shown, as a link names it: ``(show, sort, search)``, None where it
        is as the page opens."""
        view = self.view
        descending = self._descending()
        sort = None if view.sort == "worst" and descending == SORTS["worst"][1] else \
            f"{view.sort}:{'desc' if descending else 'asc'}"
        show = None if view.show in ("checkable", HOLDING) else view.show
        return show, sort, view.search

    def show_holding(self, rows: set[int], text: str) -> None:
        """List the rows holding a passage (from the review), from the first page."""
        self.holding = (rows, text)
        self.view = self.view._replace(show=HOLDING)
        self.offer_choices()
        self._from_the_top()

    def open_row_among(self, show: str, row: int) -> None:
        """List the rows of kind ``show`` and open A row ``row`` among them (its page
        drawn, its cell in focus, its panes brought into view). The rows that look
        rephrased come in the list's order, the most similar first, unless the person
        sorted the rows some other way."""
        view = self.view._replace(show=show)
        if show == "rephrased" and view.sort == "worst" and \
                (view.descending is None or view.descending == SORTS["worst"][1]):
            view = view._replace(sort="similarity", descending=True)
        self.view = view
        self.offer_choices()
        self.page = self.position = 0
        self.relist()
        if row in self.rows:
            self.move_to(self.rows.index(row), by_person=True)
        else:
            self.on_select(0 if self.rows else None, False)

    def _from_the_top(self) -> None:
        """A new view: listed again from the first page, the panes following the list."""
        self.page = self.position = 0
        self.relist()
        self.on_select(0 if self.rows else None, False)

    def header_clicked(self, event) -> None:
        """A click on a column's heading sorts by it (again: the other way)."""
        cell = event.target.closest("th[data-sort]")
        if not found(cell) or self.result is None:
            return
        column = str(cell.dataset.sort)
        descending = (not self._descending() if column == self.view.sort
                      else SORTS[column][1])
        el("rows-sort").value = f"{column}:{'desc' if descending else 'asc'}"
        self.controls_changed()

    # --- the rows ---------------------------------------------------------------

    def show(self, result) -> None:
        """A new result: the same view over its rows, from the first page."""
        self.result = result
        self.definitions = None
        if self.holding is not None:          # the rows of another result's passage
            self.holding = None
            if self.view.show == HOLDING:
                self.view = self.view._replace(show="checkable")
        self.page = self.position = 0
        self.offer_choices()
        el("b-file-col").hidden = not self._several()
        self.relist()

    def definitions_ready(self, definitions) -> None:
        """The published definitions are computed: offer them, fill their column."""
        self.definitions = definitions
        self.offer_choices()
        if self.view.show.startswith(DIRTY_UNDER):
            self.relist()
        else:
            self.draw()

    def relist(self) -> None:
        result = self.result
        if result is None:
            return
        dirty_under = self.definitions.dirty_rows if self.definitions is not None else None
        self.rows = listed_rows(result.matches, result.a_rows, self.view,
                                result.settings.threshold, dirty_under,
                                self.holding[0] if self.holding is not None else None,
                                rephrase_rule(result.settings))
        self.position = min(self.position, max(0, len(self.rows) - 1))
        self.draw()

    def _several(self) -> bool:
        files = self.result.b_files
        return files is not None and files.several

    def draw(self) -> None:
        """Draw the page holding the focused row: its cells, the count, the pager."""
        result = self.result
        total = len(self.rows)
        self.page = self.position // PAGE_ROWS
        start, end = page_bounds(total, self.page, PAGE_ROWS)
        flagged = flag_rule(result.settings.threshold)
        self.rephrased = rephrase_rule(result.settings)
        several = self._several()
        rows = []
        for position in range(start, end):
            match = result.matches[self.rows[position]]
            is_flagged = flagged(match)
            rows.append([position, is_flagged, self._cells(match, is_flagged, several)])
        labels = ["Row", "Tokens", "Dirty", "Span", "Windows", "Best B row",
                  *(["B file"] if several else []), "Status", "Dirty under"]
        fill_rows(el("rows-table").tBodies.item(0), rows, labels)
        table = el("rows-table")
        table.setAttribute("aria-rowcount", str(total + 1))
        pages = max(1, -(-total // PAGE_ROWS))
        set_text("rows-page", f"Page {self.page + 1:,} of {pages:,}")
        el("rows-prev").disabled = self.page == 0
        el("rows-next").disabled = self.page + 1 >= pages
        everything = len(result.matches)
        if not total:
            count = f"No row of the {everything:,} matches."
        else:
            count = f"Rows {start + 1:,}\u2013{end:,} of {total:,}"
            count += (f" (of {everything:,} rows of file A)." if total != everything else ".")
        set_text("rows-count", count)
        set_text("rows-title", view_title(self.view))
        headings = el("rows-table").tHead.querySelectorAll("th[data-sort]")
        for i in range(headings.length):
            heading = headings.item(i)
            if str(heading.dataset.sort) == self.view.sort:
                heading.setAttribute("aria-sort",
                                     "descending" if self._descending() else "ascending")
            else:
                heading.removeAttribute("aria-sort")
        self._roving()

    def _cells(self, match, is_flagged: bool, several: bool):
        result = self.result
        a_id = result.a_rows[match.row].id
        checkable = match.status == CHECKABLE
        status = status_words(match, is_flagged, result.b_id, self.rephrased(match))
        texts = [(a_id, True), (f"{match.tokens:,}", False),
                 (percent(match.share) if checkable else DASH, False),
                 (f"{match.span:,}" if checkable else DASH, False),
                 (f"{match.windows:,}" if checkable else DASH, False)]
        b = match.b_row
        texts.append((result.b_id(b), True) if b is not None else ("none", False))
        if several:
            texts.append((b_file(result, b) or "", True) if b is not None else ("", False))
        texts.append((status, False))
        if self.definitions is not None:
            defs = ", ".join(definition_title(n) for n in self.definitions.dirty_names(match.row))
            texts.append((defs or "none", False))
        else:
            texts.append(("", False))
        cells = []
        for i, (text, from_file) in enumerate(texts):
            kind = ("id" if from_file else "num" if i in (1, 2, 3, 4) else
                    "status" if i == len(texts) - 2 else "defs" if i == len(texts) - 1 else "")
            cells.append([text, kind])
        return cells

    def _cell(self, position: int, column: int):
        body = el("rows-table").tBodies.item(0)
        start = self.page * PAGE_ROWS
        if not (start <= position < start + body.rows.length):
            return None
        row = body.rows.item(position - start)
        return row.cells.item(min(column, row.cells.length - 1))

    def _roving(self) -> None:
        """Exactly one cell of the grid takes Tab: the focused row's, in the column
        last used; the selected row is marked."""
        body = el("rows-table").tBodies.item(0)
        for i in range(body.rows.length):
            row = body.rows.item(i)
            row.setAttribute("aria-selected",
                             "true" if str(self.position) == row.dataset.position else "false")
        previous = body.querySelector('td[tabindex="0"]')
        if found(previous):
            previous.setAttribute("tabindex", "-1")
        cell = self._cell(self.position, self.column)
        if cell is not None:
            cell.setAttribute("tabindex", "0")

    # --- moving ---------------------------------------------------------------

    def move_to(self, position: int, column: int | None = None, focus: bool = True,
                by_person: bool = False) -> None:
        """Focus row ``position`` (drawing its page if needed) and select it."""
        if not self.rows:
            return
        position = max(0, min(position, len(self.rows) - 1))
        if column is not None:
            self.column = column
        page = position // PAGE_ROWS
        self.position = position
        if page != self.page:
            self.draw()
        else:
            self._roving()
        if focus:
            cell = self._cell(position, self.column)
            if cell is not None and not cell.getClientRects().length:   # a hidden column
                self.column = last_shown(cell.parentElement)
                self._roving()
                cell = self._cell(position, self.column)
            if cell is not None:
                cell.focus()
        self.on_select(position, by_person)

    def turn_page(self, step: int, focus: bool = False, from_pager: bool = False) -> None:
        """The next (1) or previous (-1) page, its first row in focus; from the pager
        below the table, the page is scrolled back to the list's top, so its first
        rows are in view (not a page's height above)."""
        start, _ = page_bounds(len(self.rows), self.page + step, PAGE_ROWS)
        self.move_to(start, focus=focus)
        if from_pager:
            bring_into_view("rows-count", "start")

    def clicked(self, event) -> None:
        """A click on a cell focuses and opens its row; on a row between its cells (a
        phone's row is a card, with gaps between its values), its first cell."""
        cell = event.target.closest("td")
        row = event.target.closest("tr[data-position]")
        if not found(row):
            return
        self.move_to(int(row.dataset.position), int(cell.cellIndex) if found(cell) else 0,
                     by_person=True)

    def keydown(self, event) -> None:
        """The grid's keys (see the module's docstring); others pass through."""
        if not self.rows or not found(event.target.closest("tbody")):
            return
        key = str(event.key)
        ctrl = bool(event.ctrlKey or event.metaKey)
        row, cell = event.target.closest("tr[data-position]"), event.target.closest("td")
        if found(row) and found(cell):           # the cell in focus, wherever it came from
            self.position, self.column = int(row.dataset.position), int(cell.cellIndex)
        position, column = self.position, self.column
        row_cells = self._cell(position, 0)
        last_column = last_shown(row_cells.parentElement) if row_cells is not None else 0
        page_start, page_end = page_bounds(len(self.rows), self.page, PAGE_ROWS)
        moves = {
            "ArrowDown": (position + 1, column), "ArrowUp": (position - 1, column),
            "ArrowRight": (position, min(column + 1, last_column)),
            "ArrowLeft": (position, max(column - 1, 0)),
            "Home": (page_start, 0) if ctrl else (position, 0),
            "End": (page_end - 1, last_column) if ctrl else (position, last_column),
            "PageDown": (min(page_end, len(self.rows) - 1), column),
            "PageUp": (max(page_start - PAGE_ROWS, 0), column),
        }
        if key in moves:
            event.preventDefault()
            self.move_to(*moves[key])
        elif key in ("Enter", " "):
            event.preventDefault()
            self.move_to(position, by_person=True)

    def focus_selected(self) -> None:
        """Back from the panes: the focus returns to the selected row."""
        cell = self._cell(self.position, self.column)
        if cell is not None:
            cell.focus()


def last_shown(row) -> int:
    """The last cell of a row that is shown (a column hidden, as "Dirty under" until
    asked for, cannot take the focus): End goes there, so the focus and the panes
    stay on the same row."""
    cells = row.cells
    for i in range(cells.length - 1, 0, -1):
        if cells.item(i).getClientRects().length:
            return i
    return 0


def view_title(view: RowView) -> str:
    """The explorer's heading: ``"Every checkable row, worst first."`` by default."""
    if view.show.startswith(DIRTY_UNDER):
        what = f"Rows dirty under {definition_title(view.show[len(DIRTY_UNDER):])}"
    elif view.show == HOLDING:
        what = "Rows holding the passage picked in the review"
    else:
        what = {"checkable": "Every checkable row", "all": "Every row of file A"}.get(
            view.show, SHOWS.get(view.show, view.show))
    column, default = SORTS[view.sort]
    descending = default if view.descending is None else view.descending
    order = {"worst": "worst first", "row": "in file order"}.get(view.sort, f"by {column.lower()}")
    if view.sort not in ("worst", "row"):
        order += ", high to low" if descending else ", low to high"
    elif descending != default:
        order += ", reversed"
    found_text = f" holding \u201c{view.search.strip()}\u201d" if view.search.strip() else ""
    return f"{what}{found_text}, {order}."


def holding_title(text: str) -> str:
    """The Show list's entry for the rows holding a passage.

    >>> holding_title("licensed under the Apache License")
    'Rows holding “licensed under the Apache License”'
    """
    return f"Rows holding \u201c{shorten(text, 60)}\u201d"


def definition_title(name: str) -> str:
    """A published definition's name in words (``gpt3`` -> ``GPT-3``)."""
    return DESCRIPTIONS[name].title if name in DESCRIPTIONS else name
