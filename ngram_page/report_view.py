"""Drawing the contamination report: the published definitions (table and chart), the
dirty-share histogram, the score impact and the clean split's line.

Every figure and sentence comes from the engine (``ngram_core.report.contamination``,
``ngram_core.report.scores``) or from :mod:`ngram_page.charts` and
:mod:`ngram_page.results_file`; this module only puts them in the page, as
text. Definitions and their parameters are shown in words
(:func:`~ngram_page.charts.definition_label`,
:func:`~ngram_page.charts.parameter_words`), the JSON summary's names in small
print or a ``title``. Each cell of the definitions table carries its column's
name in ``data-label``, so on a phone (CSS) each row reads as a card of
labelled lines. The charts are SVG built element by element here, with no
library: two bar charts need a few rectangles and labels, and drawing them
from Python adds no byte to the page and no request.
"""

from __future__ import annotations

from ngram_core.errors import visible

from ngram_core.report.clean_split import CLEAN_BY
from ngram_core.report.contamination import definitions_table
from ngram_core.report.definitions import DESCRIPTIONS, NAMES
from ngram_core.method.match import CHECKABLE
from ngram_core.report.scores import impact_table

from .charts import (COUNT_WORDS, MARKER_LABEL_Y, SHARE_LEFT, SHARE_RIGHT, TEXT_BELOW, WIDTH,
                     Chart, Share, bar_label, definition_label, definition_title, value_place,
                     definitions_chart, impact_label, parameter_words, share_bands,
                     share_histogram, value_position)
from .dom import create, el, fill_options, fill_table, js, set_text

SVG = "http://www.w3.org/2000/svg"


def _svg(tag: str, text: str = "", class_name: str = "", **attributes):
    """An SVG element; attribute names with ``_`` for ``-``; ``text`` as text."""
    element = js.document.createElementNS(SVG, tag)
    if class_name:
        element.setAttribute("class", class_name)
    for name, value in attributes.items():
        element.setAttribute(name.replace("_", "-"), str(value))
    if text:
        element.textContent = visible(text)
    return element


def draw_chart(svg_id: str, chart: Chart) -> None:
    """Draw a chart into an ``<svg role="img">``: its title and description (the text
    alternative, also shown as the figure's caption), bars, values, ticks, marker.

    The histogram's threshold line is drawn over the bars and under their counts
    (which have a white halo); its label sits in the strip above every count."""
    svg = el(svg_id)
    svg.replaceChildren()
    svg.setAttribute("viewBox", f"0 0 {WIDTH} {chart.height:g}")
    svg.append(_svg("title", chart.title, id=f"{svg_id}-title"))
    svg.append(_svg("desc", chart.description, id=f"{svg_id}-desc"))
    set_text(f"{svg_id}-caption", chart.description)
    if chart.marker is None:
        for bar in chart.bars:
            svg.append(_svg("rect", x=f"{bar.x:.1f}", y=f"{bar.y:.1f}", width=f"{bar.width:.1f}",
                            height=f"{bar.height:.1f}", class_name="bar"))
            middle = bar.y + bar.height / 2 + 4
            svg.append(_svg("text", bar.label, x=f"{bar.x - 6:.1f}", y=f"{middle:.1f}",
                            text_anchor="end"))
            x, anchor = value_place(bar)
            svg.append(_svg("text", bar.value, x=f"{x:.1f}", y=f"{middle:.1f}",
                            text_anchor=anchor,
                            class_name="value" if anchor == "start" else "value inside"))
        return
    bottom = max(bar.y + bar.height for bar in chart.bars)
    for bar in chart.bars:
        svg.append(_svg("rect", x=f"{bar.x:.1f}", y=f"{bar.y:.1f}", width=f"{bar.width:.1f}",
                        height=f"{bar.height:.1f}", class_name="bar"))
    for left, right in ((chart.bars[0].x - 1, chart.bars[0].x + chart.bars[0].width + 1),
                        (chart.bars[1].x - 1, chart.bars[-1].x + chart.bars[-1].width + 1)):
        svg.append(_svg("line", x1=f"{left:.1f}", x2=f"{right:.1f}", y1=f"{bottom:.1f}",
                        y2=f"{bottom:.1f}", class_name="axis"))
    for x, label in chart.ticks:
        svg.append(_svg("text", label, x=f"{x:.1f}", y=f"{bottom + 14:.1f}",
                        text_anchor="middle", class_name="tick"))
    svg.append(_svg("text", "dirty-token share, percent", x=f"{(SHARE_LEFT + SHARE_RIGHT) / 2:.0f}",
                    y=f"{bottom + 28:.1f}", text_anchor="middle"))
    svg.append(_svg("line", x1=f"{chart.marker:.1f}", x2=f"{chart.marker:.1f}",
                    y1=f"{MARKER_LABEL_Y + TEXT_BELOW + 1}", y2=f"{bottom:.1f}",
                    class_name="marker"))
    for bar in chart.bars:
        x, y = value_position(bar)
        svg.append(_svg("text", bar.value, x=f"{x:.1f}", y=f"{y:.1f}", text_anchor="middle",
                        class_name="value"))
    anchor = "end" if chart.marker > WIDTH / 2 else "start"
    shift = -4 if anchor == "end" else 4
    svg.append(_svg("text", chart.marker_label, x=f"{chart.marker + shift:.1f}",
                    y=f"{MARKER_LABEL_Y}", text_anchor=anchor, class_name="marker-label"))


def histogram(result) -> None:
    """The checkable rows with no match, then the others in ten bands of dirty-token
    share, with the threshold; the numbers table holds the same rows."""
    checkable = [(m.dirty, m.tokens) for m in result.matches if m.status == CHECKABLE]
    counts = share_bands(checkable)
    el("histogram-box").hidden = not checkable
    if not checkable:
        return
    draw_chart("histogram", share_histogram(counts, result.settings.threshold,
                                            result.settings.n))
    fill_table("histogram-table", [(bar_label(b), f"{c:,}") for b, c in enumerate(counts)])


def _labelled_row(body, labels: list[str]):
    """A new row of ``body``; its cells get ``data-label`` from ``labels`` (the phone's
    cards show it before each cell)."""
    row = body.insertRow()
    cells = []
    for label in labels:
        cell = row.insertCell()
        cell.dataset.label = label
        cells.append(cell)
    return cells


def _column_names(table_id: str) -> list[str]:
    head = el(table_id).tHead.rows.item(0).cells
    return [" ".join(str(head.item(i).textContent).split()) for i in range(head.length)]


def definitions(result) -> None:
    """The published definitions' table and chart (the row explorer fills its own column).

    Figures are the command's (``definitions_table``); the name, what it counts and
    its parameters are in words, the JSON's names in small print and tooltips."""
    d = result.definitions
    body = el("definitions-table").tBodies.item(0)
    body.replaceChildren()
    labels = _column_names("definitions-table")
    for x, line in zip(d, definitions_table(d)):
        name_cell, counts_cell, parameters_cell, *figures = _labelled_row(body, labels)
        name_cell.append(create("span", definition_label(x.name), "definition"))
        name_cell.append(js.document.createTextNode(" "))
        small = create("small", f"JSON: {x.name}", "json-name")
        small.title = f"The name the JSON summary and --clean-by use: {x.name}"
        name_cell.append(small)
        counts_cell.textContent = COUNT_WORDS.get(x.name, line[1])
        items = create("ul", "", "params")
        for words, code in parameter_words(x.name, x.parameters):
            item = create("li", words)
            item.title = code
            items.append(item)
        parameters_cell.append(items)
        for cell, text in zip(figures, line[3:]):
            cell.textContent = text
            cell.className = "num"
    s = result.summary
    main = Share(f"{definition_title('main')} (n = {s.n})", s.flagged, s.checkable)
    shares = [main, *(Share(definition_title(x.name), x.dirty_count, x.considered_count)
                      for x in d)]
    draw_chart("definitions-chart", definitions_chart(shares))
    el("definitions-box").hidden = False


def describe_definitions() -> None:
    """What each definition counts and where it departs from its paper, and the clean
    split's choice of rule (once, at start), in words; each option's ``title`` is the
    name ``--clean-by`` takes."""
    labels = [f"{definition_title('main')}: flagged rows, duplicates and contained rows",
              *(definition_label(name) + (", its dirty subset" if name == "llama2" else "")
                for name in NAMES)]
    select = el("clean-by")
    fill_options(select, list(CLEAN_BY), labels, ["main"])
    for i in range(select.options.length):
        option = select.options.item(i)
        option.title = f"--clean-by {option.value}"
    items = el("definitions-about")
    items.replaceChildren()
    for name in NAMES:
        about = DESCRIPTIONS[name]
        item = create("li")
        item.append(create("strong", f"{definition_label(name)}. "))
        item.append(js.document.createTextNode(
            f"{about.source}. Counts {about.counts}. {about.rule} Departs: {about.departs} "))
        item.append(create("small", f"JSON: {name}", "json-name"))
        items.append(item)


def clear_definitions() -> None:
    """No definitions (yet) for the result shown."""
    el("definitions-box").hidden = True
    el("definitions-table").tBodies.item(0).replaceChildren()


def impact_stale(on: bool) -> None:
    """Mark the score impact shown (its line and table) as out of date, or no longer:
    a score field chosen next could not be read, and the last table stays."""
    for element_id in ("score-join", "impact-box"):
        el(element_id).dataset.stale = "1" if on else "0"


def impact(figures: dict | None, before: str, empty: str) -> None:
    """The score impact: ``before`` (where the scores come from, the rows matched) and,
    with ``figures``, the table and the rows without a score; without, ``empty`` says
    why and what to choose (no table). All "" and None: no scores chosen."""
    set_text("score-join", " ".join(part for part in (before, empty) if part))
    impact_stale(False)
    box = el("impact-box")
    box.hidden = figures is None
    body = el("impact-table").tBodies.item(0)
    body.replaceChildren()
    if figures is None:
        set_text("impact-notes", "")
        return
    labels = _column_names("impact-table")
    for line in impact_table(figures):
        cells = _labelled_row(body, labels)
        words, name = impact_label(line[0])
        cells[0].textContent = words
        cells[0].title = f"scores.{name} in the JSON summary"
        for cell, text in zip(cells[1:], line[1:]):
            cell.textContent = text
            cell.className = "num"
    scored, without = figures["rows_with_score"], figures["rows_without_score"]
    set_text("impact-notes", f"{scored:,} {'row' if scored == 1 else 'rows'} of file A "
             f"{'has' if scored == 1 else 'have'} a score"
             + (f"; {without:,} {'has' if without == 1 else 'have'} none and "
                f"{'is' if without == 1 else 'are'} left out of every figure." if without
                else "."))


def split_line(kept: int, dropped: int, clean_by: str, considered: int,
               whole_unflagged: int = 0, clean: int | None = None) -> None:
    set_text("split-line", split_sentence(kept, dropped, clean_by, considered, whole_unflagged,
                                          clean))


def split_sentence(kept: int, dropped: int, clean_by: str, considered: int,
                   whole_unflagged: int = 0, clean: int | None = None) -> str:
    """The clean split's counts, reconciled with the score table's clean group (for
    llama2, which drops its dirty rows, its not-dirty group: of it, ``clean`` rows are
    under 20 %, its clean group)::

        >>> split_sentence(1195, 26, "main", 1167)
        'By the check above: the clean test set keeps 1,195 rows; 26 rows go to the contaminated file. Of the rows kept, 1,167 are rows this rule considers: only those, when they have a score, are in the score table\u2019s clean group; the other 28 (too short for it, or blank) are kept and counted in no group.'
        >>> split_sentence(284, 16, "llama2", 284, clean=244).split(". ", 1)[1]
        'Of the rows kept, 284 are rows this rule considers: only those, when they have a score, are in the score table\u2019s not-dirty group (of them, the 244 under 20 % in its clean group).'
    """
    title = definition_title(clean_by)
    line = (f"By {title}: the clean test set keeps {kept:,} rows; {dropped:,} rows go to the "
            f"contaminated file.")
    others = kept - considered
    group = ("clean group" if clean is None else
             f"not-dirty group (of them, the {clean:,} under 20 % in its clean group)")
    line += (f" Of the rows kept, {considered:,} "
             f"{'is a row' if considered == 1 else 'are rows'} this rule considers: only "
             f"those, when they have a score, are in the score table\u2019s {group}")
    line += (f"; the other {others:,} (too short for it, or blank) "
             f"{'is' if others == 1 else 'are'} kept and counted in no group."
             if others else ".")
    if whole_unflagged:
        line += (f" {whole_unflagged:,} {'row' if whole_unflagged == 1 else 'rows'} found whole "
                 f"in a row of B but not flagged {'goes' if whole_unflagged == 1 else 'go'} to "
                 f"the contaminated file here and {'counts' if whole_unflagged == 1 else 'count'}"
                 f" as clean there.")
    return line
