"""Drawing a result: the summary figures, the counted table, the rows table, the short
duplicates and contained rows, the ignored n-grams and the two panes. Every sentence
about the result comes from ``ngram_core.report``."""

from __future__ import annotations

from ngram_core.fields import unchecked_text_notice
from ngram_core.match import SHORT
from ngram_core.report import (cap_notice, counted_table, field_table, flag_rule,
                               flagged_figure, headline, percent, settings_line)
from ngram_core.table import fields_label

from .dom import create, el, fill_marked, fill_table, set_text, show_first_mark
from .text import ignored_line, ignored_summary, window_words, words_by_id

ROWS_SHOWN = 200               # rows drawn in the table (and short rows listed)
DIRTY_SHARE = "Overall dirty-token share"


def b_file(result, b_row: int) -> str | None:
    """The file B row ``b_row`` came from, when B is several files."""
    files = result.b_files
    return files.name_of(b_row) if files is not None and files.several else None


async def summary(result, names, example: bool, runner) -> None:
    """The flagged figure, the headline, the settings line, the notices, the counts."""
    s = result.summary
    figure = el("flagged-figure")
    figure.textContent = flagged_figure(s)
    figure.className = "figure flagged" if s.flagged else "figure"   # red only for a flag
    set_text("headline", headline(s))
    el("example-note").hidden = not example
    set_text("settings-line", settings_line(*names, s, result.tokenizer.description))
    notice = cap_notice(s)
    set_text("cap-notice", notice)
    el("cap-notice").hidden = not notice
    await runner.turn("figures")
    counted(s)
    by_field = field_table(s)
    fill_table("fields-table", by_field)
    el("fields-box").hidden = not by_field
    ignored(result)


def unchecked_text(result, sides) -> None:
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


def counted(s) -> None:
    """The table of what the run counted."""
    fill_table("counted", [(measure, "\u2013" if measure == DIRTY_SHARE and not s.tokens
                                 else value)       # no checkable row: no share, not 0.0%
                           for measure, value in counted_table(s)])


def ignored(result) -> None:
    """The n-grams the frequency filter ignored, most training rows first, as words."""
    s = result.summary
    box, items = el("ignored-box"), el("ignored-list")
    items.replaceChildren()
    box.hidden = not (s.max_b_rows is not None and s.windows_ignored)
    if box.hidden:
        return
    box.open = False
    set_text("ignored-summary", ignored_summary(s.windows_ignored, s.max_b_rows))
    words = words_by_id(result.tokenizer.vocabulary, [key for _, key in result.most_repeated])
    for rows, key in result.most_repeated:
        items.append(create("li", ignored_line(window_words(key, words), rows), file_text=True))


async def rows(result, runner) -> None:
    """The first ROWS_SHOWN checkable rows, worst first; a click anywhere on a row
    selects it, and its id is a button for the keyboard."""
    body = el("rows-table").tBodies.item(0)
    body.replaceChildren()
    several = result.b_files is not None and result.b_files.several
    el("b-file-col").hidden = not several
    is_flagged_row = flag_rule(result.settings.threshold)
    for index, match in enumerate(result.ordered[:ROWS_SHOWN]):
        await runner.turn("table")
        row = body.insertRow()
        row.dataset.index = str(index)
        row.setAttribute("aria-selected", "false")
        if is_flagged_row(match):
            row.className = "flagged"
        a_id = result.a_rows[match.row].id
        button = create("button", a_id, "row", file_text=True)
        button.type = "button"
        button.title = a_id
        row.insertCell().append(button)
        for value in (str(match.tokens), percent(match.share), str(match.span),
                      str(match.windows)):
            cell = row.insertCell()
            cell.textContent = value
            cell.className = "num"
        b_id = result.b_rows[match.b_row].id if match.b_row is not None else "none"
        cell = row.insertCell()
        cell.append(create("span", b_id, "id", file_text=match.b_row is not None))
        cell.title = b_id
        if several:
            name = b_file(result, match.b_row) if match.b_row is not None else ""
            cell = row.insertCell()
            cell.append(create("span", name, "id", file_text=True))
            cell.title = name
    more = len(result.ordered) - ROWS_SHOWN
    el("rows-more").hidden = more <= 0
    if more > 0:
        set_text("rows-more", f"{more:,} more checkable rows are not drawn here; the CSV "
                              f"has every one.")


def short_rows(result):
    """The short rows that equal a whole B row, and those contained in one (each list
    at most ROWS_SHOWN long)."""
    duplicates, contained = [], []
    for match in result.matches:
        if match.status == SHORT:
            if match.duplicate_of is not None and len(duplicates) < ROWS_SHOWN:
                duplicates.append(match)
            if match.contained_in is not None and len(contained) < ROWS_SHOWN:
                contained.append(match)
    return duplicates, contained


def _b_row_name(result, b_row: int) -> str:
    name = b_file(result, b_row)
    return f"B row {result.b_rows[b_row].id}" + (f" ({name})" if name else "")


async def short_lists(result, runner, duplicates, contained) -> None:
    """List the short duplicates and, beside them, the contained short rows; each
    entry is a button that shows both rows in the panes."""
    for kind, matches, box in (("duplicate", duplicates, "short-duplicates"),
                               ("contained", contained, "contained-rows")):
        items = el(f"{box}-list")
        items.replaceChildren()
        el(box).hidden = not matches
        for i, match in enumerate(matches):
            await runner.turn(kind)
            a_id = result.a_rows[match.row].id
            if kind == "duplicate":
                text = f"A row {a_id} = {_b_row_name(result, match.duplicate_of)}"
            else:
                text = (f"A row {a_id} ({match.tokens} tokens) is inside "
                        f"{_b_row_name(result, match.contained_in)}")
            button = create("button", text, "row", file_text=True)
            button.type = "button"
            button.dataset.kind = kind
            button.dataset.index = str(i)
            item = create("li")
            item.append(button)
            items.append(item)
    el("short-lists").hidden = not (duplicates or contained)


def selected_row(index) -> None:
    """Mark row ``index`` of the drawn table as the selected one (None: no row)."""
    body = el("rows-table").tBodies.item(0)
    for i in range(body.rows.length):
        row = body.rows.item(i)
        row.setAttribute("aria-selected", "true" if str(index) == row.dataset.index else "false")


def selected_short(kind, index) -> None:
    """Mark entry ``index`` of a short-row list as selected (kind None: none)."""
    for name in ("duplicate", "contained"):
        items = el(f"{'short-duplicates' if name == 'duplicate' else 'contained-rows'}-list")
        buttons = items.querySelectorAll("button")
        for i in range(buttons.length):
            pressed = name == kind and str(i) == str(index)
            buttons.item(i).setAttribute("aria-pressed", "true" if pressed else "false")


def _pane_title(name: str, row, fields) -> str:
    """``"test.json, row q1 (context + question)"``: the file, the row's id and the
    fields its text was read from (its own parts, else the file's)."""
    read = [part[0] for part in row.parts] or list(fields)
    return f"{name}, row {row.id}" + (f" ({fields_label(read)})" if read else "")


def panes(result, names, match, ranges) -> None:
    """Row ``match`` of A and its best B row side by side, ``ranges`` marked in each."""
    if match is None:
        fill_panes("No checkable row", "", [], "", "", [])
        return
    a_name, b_name = names
    a_row = result.a_rows[match.row]
    if match.b_row is None:
        b_title = f"{b_name}: no row shares a {result.settings.n}-token sequence with this one"
        b_text = ""
    else:
        b_row = result.b_rows[match.b_row]
        b_title = _pane_title(b_file(result, match.b_row) or b_name, b_row,
                              result.summary.b_fields)
        b_text = b_row.text
    fill_panes(_pane_title(a_name, a_row, result.summary.a_fields), a_row.text, ranges[0],
               b_title, b_text, ranges[1])


def short_panes(result, names, match, b_row: int, a_range, b_range) -> None:
    """A short row and the B row it duplicates or lies in, each marked."""
    a_name, b_name = names
    a_row, row = result.a_rows[match.row], result.b_rows[b_row]
    fill_panes(_pane_title(a_name, a_row, result.summary.a_fields), a_row.text, [a_range],
               _pane_title(b_file(result, b_row) or b_name, row, result.summary.b_fields),
               row.text, [b_range])


def fill_panes(a_title, a_text, a_ranges, b_title, b_text, b_ranges) -> None:
    set_text("pane-a-title", a_title)
    set_text("pane-b-title", b_title)
    for side, text, ranges in (("a", a_text, a_ranges), ("b", b_text, b_ranges)):
        element = el(f"pane-{side}-text")
        fill_marked(element, text, ranges)
        show_first_mark(element)
