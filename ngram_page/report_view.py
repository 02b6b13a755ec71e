"""Drawing the contamination report: the published definitions (table, chart, the rows
table's column), the dirty-share histogram, the score impact and the clean split's line.

Every figure and sentence comes from the engine (``ngram_core.contamination``,
``ngram_core.scores``) or from :mod:`ngram_page.charts`; this module only puts
them in the page, as text. The charts are SVG built element by element here,
with no library: two bar charts need a few rectangles and labels, and drawing
them from Python adds no byte to the page and no request.
"""

from __future__ import annotations

from ngram_core.clean_split import CLEAN_BY
from ngram_core.contamination import definitions_table
from ngram_core.definitions import DESCRIPTIONS, NAMES
from ngram_core.match import CHECKABLE
from ngram_core.report import number
from ngram_core.scores import impact_table

from .charts import (BANDS, WIDTH, Chart, Share, band_label, definitions_chart, share_bands,
                     share_histogram)
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
        element.textContent = text
    return element


def draw_chart(svg_id: str, chart: Chart) -> None:
    """Draw a chart into an ``<svg role="img">``: its title and description (the text
    alternative, also shown as the figure's caption), bars, values, ticks, marker."""
    svg = el(svg_id)
    svg.replaceChildren()
    svg.setAttribute("viewBox", f"0 0 {WIDTH} {chart.height:g}")
    svg.append(_svg("title", chart.title, id=f"{svg_id}-title"))
    svg.append(_svg("desc", chart.description, id=f"{svg_id}-desc"))
    set_text(f"{svg_id}-caption", chart.description)
    histogram = chart.marker is not None
    for bar in chart.bars:
        svg.append(_svg("rect", x=f"{bar.x:.1f}", y=f"{bar.y:.1f}", width=f"{bar.width:.1f}",
                        height=f"{bar.height:.1f}", class_name="bar"))
        if histogram:
            svg.append(_svg("text", bar.value, x=f"{bar.x + bar.width / 2:.1f}",
                            y=f"{bar.y - 3:.1f}", text_anchor="middle", class_name="value"))
        else:
            middle = bar.y + bar.height / 2 + 4
            svg.append(_svg("text", bar.label, x=f"{bar.x - 6:.1f}", y=f"{middle:.1f}",
                            text_anchor="end"))
            svg.append(_svg("text", bar.value, x=f"{bar.x + bar.width + 4:.1f}",
                            y=f"{middle:.1f}", class_name="value"))
    if histogram:
        bottom = max(bar.y + bar.height for bar in chart.bars)
        svg.append(_svg("line", x1=chart.bars[0].x - 1, x2=chart.bars[-1].x + chart.bars[-1].width
                        + 1, y1=f"{bottom:.1f}", y2=f"{bottom:.1f}", class_name="axis"))
        for x, label in chart.ticks:
            svg.append(_svg("text", label, x=f"{x:.1f}", y=f"{bottom + 14:.1f}",
                            text_anchor="middle"))
        svg.append(_svg("text", "dirty-token share, percent", x=f"{WIDTH / 2:.0f}",
                        y=f"{bottom + 28:.1f}", text_anchor="middle"))
        svg.append(_svg("line", x1=f"{chart.marker:.1f}", x2=f"{chart.marker:.1f}", y1="14",
                        y2=f"{bottom:.1f}", class_name="marker"))
        anchor = "end" if chart.marker > WIDTH / 2 else "start"
        shift = -4 if anchor == "end" else 4
        svg.append(_svg("text", chart.marker_label, x=f"{chart.marker + shift:.1f}", y="12",
                        text_anchor=anchor, class_name="marker-label"))


def histogram(result) -> None:
    """The dirty-token share of the checkable rows, in ten bands, with the threshold."""
    checkable = [(m.dirty, m.tokens) for m in result.matches if m.status == CHECKABLE]
    counts = share_bands(checkable)
    el("histogram-box").hidden = not checkable
    if not checkable:
        return
    zero = sum(1 for dirty, _ in checkable if not dirty)
    draw_chart("histogram", share_histogram(counts, result.settings.threshold, zero))
    fill_table("histogram-table", [(band_label(b), f"{counts[b]:,}") for b in range(BANDS)])


def definitions(result) -> None:
    """The published definitions' table and chart, and the rows table's column."""
    d = result.definitions
    fill_table("definitions-table", definitions_table(d), numeric_from=3)
    s = result.summary
    main = Share(f"this check (n = {s.n}, ≥ {number(s.threshold)}%)", s.flagged, s.checkable)
    shares = [main, *(Share(DESCRIPTIONS[x.name].title, x.dirty_count, x.considered_count)
                      for x in d)]
    draw_chart("definitions-chart", definitions_chart(shares))
    body = el("rows-table").tBodies.item(0)
    for i in range(body.rows.length):
        row = body.rows.item(i)
        match = result.ordered[int(row.dataset.index)]
        cell = row.insertCell()
        cell.className = "defs"
        cell.textContent = ", ".join(d.dirty_names(match.row)) or "none"
    el("definitions-box").hidden = False


def describe_definitions() -> None:
    """What each definition counts and where it departs from its paper, and the clean
    split's choice of rule (once, at start)."""
    labels = ["the check above: flagged rows, duplicates and contained rows",
              *(f"{DESCRIPTIONS[name].title} ({name})" + (", its dirty subset"
                                                          if name == "llama2" else "")
                for name in NAMES)]
    fill_options(el("clean-by"), list(CLEAN_BY), labels, ["main"])
    items = el("definitions-about")
    items.replaceChildren()
    for name in NAMES:
        about = DESCRIPTIONS[name]
        item = create("li")
        item.append(create("strong", f"{about.title} ({name}). "))
        item.append(js.document.createTextNode(
            f"{about.source}. Counts {about.counts}. {about.rule} Departs: {about.departs}"))
        items.append(item)


def clear_definitions() -> None:
    """No definitions (yet) for the result shown."""
    el("definitions-box").hidden = True
    el("definitions-table").tBodies.item(0).replaceChildren()


def impact(figures: dict | None, source: str, notes: list[str]) -> None:
    """The score impact table (None: no scores chosen), the source and the notes."""
    box = el("impact-box")
    box.hidden = figures is None
    if figures is None:
        return
    fill_table("impact-table", impact_table(figures))
    without = figures["rows_without_score"]
    said = [f"Scores: {source}. {figures['rows_with_score']:,} rows of file A have a score"
            + (f"; {without:,} have none and are left out of every figure." if without
               else ".")]
    said += [f"{note[0].upper()}{note[1:]}." for note in notes]
    set_text("impact-notes", " ".join(said))


def split_line(kept: int, dropped: int, clean_by: str) -> None:
    rule = "the check above" if clean_by == "main" else DESCRIPTIONS[clean_by].title
    set_text("split-line", f"By {rule}: the clean test set keeps {kept:,} rows; "
                           f"{dropped:,} rows go to the contaminated file.")
