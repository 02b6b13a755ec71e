"""The two panes: a row of A and its best B row side by side, the shared text marked,
under a line of that row's figures.

On a wide screen the panes sit beside the row explorer and stay in view; on a
narrower one, a row the person opens (a click, or Enter in the table) shows
them over the page, next to nothing else, with "Back to the rows", which
returns to the row (Escape too).
"""

from __future__ import annotations

from ngram_core.report.explore import row_figures
from ngram_core.method.match import contained_field
from ngram_core.table import fields_label

from .dom import el, fill_marked, js, set_text, show_first_mark
from .text import shorten

NARROW = "(max-width: 63.99rem)"      # below this the panes are not beside the table


def b_file(result, b_row: int) -> str | None:
    """The file B row ``b_row`` came from, when B is several files."""
    files = result.b_files
    return files.name_of(b_row) if files is not None and files.several else None


#: An id longer than this many characters is shown cut short over the panes (the
#: table's title and the CSV keep it whole): a 10,000-character id would fill a phone.
ID_SHOWN = 80


def shown_id(ident: str) -> str:
    """An id as the panes' headings show it: whole, or cut to :data:`ID_SHOWN`."""
    return ident if len(ident) <= ID_SHOWN else shorten(ident, ID_SHOWN)


def _pane_title(name: str, row, fields) -> str:
    """``"test.json, row q1 (context + question)"``: the file, the row's id and the
    fields its text was read from (its own parts, else the file's)."""
    read = [part[0] for part in row.parts] or list(fields)
    return f"{name}, row {shown_id(row.id)}" + (f" ({fields_label(read)})" if read else "")


def figures(result, match) -> None:
    """The line of the row's own figures over the panes (blank: no row)."""
    if match is None:
        set_text("pane-figures", "")
        return
    a_id = result.a_rows[match.row].id
    b = match.b_row
    set_text("pane-figures", f"Row {shown_id(a_id)}: " + row_figures(
        match, lambda r: shown_id(result.b_id(r)), b_file(result, b) if b is not None else None,
        contained_field(result.a_rows[match.row], match)) + ".")


def panes(result, names, match, ranges) -> None:
    """Row ``match`` of A and its best B row side by side, ``ranges`` marked in each."""
    figures(result, match)
    if match is None:
        fill("No checkable row", "", [], "", "", [])
        return
    a_name, b_name = names
    a_row = result.a_rows[match.row]
    if match.b_row is None:
        what = (f"no row shares a {result.settings.n}-token sequence with this one"
                if match.status == "checkable" else "this row is too short to be checked")
        b_title, b_text = f"{b_name}: {what}", ""
    else:
        b_row = result.b_rows[match.b_row]
        b_title = _pane_title(b_file(result, match.b_row) or b_name, b_row,
                              result.summary.b_fields)
        b_text = b_row.text
    fill(_pane_title(a_name, a_row, result.summary.a_fields), a_row.text, ranges[0],
         b_title, b_text, ranges[1])


def similar_panes(result, names, match, a_ranges, b_ranges) -> None:
    """A row the rephrase lens marks, sharing no window, and its most similar B row,
    the words both hold that few rows of A hold marked in each."""
    a_name, b_name = names
    a_row, b = result.a_rows[match.row], match.similar_b_row
    set_text("pane-figures", f"Row {shown_id(a_row.id)}: " + row_figures(
        match, lambda r: shown_id(result.b_id(r)), None)
             + f"; it looks rephrased from B row {shown_id(result.b_id(b))}, similarity "
               f"{match.similarity:.3f}.")
    fill(_pane_title(a_name, a_row, result.summary.a_fields), a_row.text, a_ranges,
         _pane_title(b_file(result, b) or b_name, result.b_rows[b], result.summary.b_fields)
         + f": most similar in its words ({match.similarity:.3f})",
         result.b_rows[b].text, b_ranges)


def short_panes(result, names, match, b_row: int, a_range, b_range) -> None:
    """A row and the B row it duplicates or that holds it (or one of its fields)
    whole, each marked."""
    figures(result, match)
    a_name, b_name = names
    a_row, row = result.a_rows[match.row], result.b_rows[b_row]
    fill(_pane_title(a_name, a_row, result.summary.a_fields), a_row.text, [a_range],
         _pane_title(b_file(result, b_row) or b_name, row, result.summary.b_fields),
         row.text, [b_range])


def fill(a_title, a_text, a_ranges, b_title, b_text, b_ranges) -> None:
    set_text("pane-a-title", a_title)
    set_text("pane-b-title", b_title)
    for side, text, ranges in (("a", a_text, a_ranges), ("b", b_text, b_ranges)):
        element = el(f"pane-{side}-text")
        fill_marked(element, text, ranges)
        show_first_mark(element)


def narrow() -> bool:
    return bool(js.window.matchMedia(NARROW).matches)


def open_over_page() -> None:
    """On a narrow screen: the panes over the page, the way back in focus."""
    el("panes").classList.add("open")
    js.document.body.classList.add("panes-open")
    el("panes").scrollTop = 0
    el("panes-back").focus()


def close() -> bool:
    """Close the panes opened over the page; False if they were not open."""
    if not el("panes").classList.contains("open"):
        return False
    el("panes").classList.remove("open")
    js.document.body.classList.remove("panes-open")
    return True
