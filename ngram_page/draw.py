"""Drawing a result: the summary figures, the counted table, the rows table, the short
duplicates and the two panes. Every sentence comes from ``ngram_core.report``."""

from __future__ import annotations

from ngram_core.match import SHORT
from ngram_core.report import (cap_notice, counted_table, flag_rule, flagged_figure, headline,
                               percent, settings_line)

from .dom import create, el, fill_marked, set_text

ROWS_SHOWN = 200               # rows drawn in the table (and short duplicates listed)


async def summary(result, names, example: bool, runner) -> None:
    """The flagged figure, the headline, the settings line, the cap notice."""
    s = result.summary
    set_text("flagged-figure", flagged_figure(s))
    set_text("headline", headline(s))
    el("example-note").hidden = not example
    set_text("settings-line", settings_line(*names, s, result.tokenizer.description))
    notice = cap_notice(s)
    set_text("cap-notice", notice)
    el("cap-notice").hidden = not notice
    await runner.turn("figures")
    counted(s)


def counted(s) -> None:
    """The table of what the run counted."""
    body = el("counted").tBodies.item(0)
    body.replaceChildren()
    for measure, value in counted_table(s):
        row = body.insertRow()
        row.insertCell().textContent = measure
        cell = row.insertCell()
        cell.textContent = value
        cell.className = "num"


async def rows(result, runner) -> None:
    """The first ROWS_SHOWN checkable rows, worst first, each a button that selects it."""
    body = el("rows-table").tBodies.item(0)
    body.replaceChildren()
    is_flagged_row = flag_rule(result.settings.threshold)
    for index, match in enumerate(result.ordered[:ROWS_SHOWN]):
        await runner.turn("table")
        row = body.insertRow()
        row.dataset.index = str(index)
        row.setAttribute("aria-selected", "false")
        if is_flagged_row(match):
            row.className = "flagged"
        button = create("button")
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


async def short_duplicates(result, runner) -> None:
    """The rows too short to check that equal a whole B row (at most ROWS_SHOWN)."""
    short = []
    for count, match in enumerate(result.matches):
        if match.status == SHORT and match.duplicate_of is not None:
            short.append(match)
            if len(short) == ROWS_SHOWN:
                break
        if count % 4096 == 0:
            await runner.turn("duplicates")
    box, items = el("short-duplicates"), el("short-duplicates-list")
    items.replaceChildren()
    box.hidden = not short
    for match in short:
        items.append(create("li", f"A row {result.a_rows[match.row].id} = "
                                  f"B row {result.b_rows[match.duplicate_of].id}"))


def selected_row(index) -> None:
    """Mark row ``index`` of the drawn table as the selected one (None: no row)."""
    body = el("rows-table").tBodies.item(0)
    for i in range(body.rows.length):
        row = body.rows.item(i)
        row.setAttribute("aria-selected", "true" if str(index) == row.dataset.index else "false")


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
        b_title, b_text = f"{b_name}, row {b_row.id}", b_row.text
    fill_panes(f"{a_name}, row {a_row.id}", a_row.text, ranges[0], b_title, b_text, ranges[1])


def fill_panes(a_title, a_text, a_ranges, b_title, b_text, b_ranges) -> None:
    set_text("pane-a-title", a_title)
    set_text("pane-b-title", b_title)
    fill_marked(el("pane-a-text"), a_text, a_ranges)
    fill_marked(el("pane-b-text"), b_text, b_ranges)
