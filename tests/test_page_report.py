"""End to end: the contamination report in the page agrees with the command (#11).

The published definitions' table and chart (names and parameters in words,
the JSON's names in small print and tooltips; cards on a 375 px phone with no
sideways scroll), the rows table's definitions column, the score impact from a
field of A and from a results file (an lm-evaluation-harness samples file
joined by row number as it is; a file matching no row says why and draws no
table), the two files of the clean split (byte-identical to
``--clean-out``/``--dirty-out``), the histogram with its "no match" bar, its
threshold and the flag rule in words, both charts' text alternatives at 375
px, and nothing requested after ready. Tests wait on the body's markers
(``data-reported`` = the run whose report is drawn, ``data-scored``), never on
sleeps.
"""

from __future__ import annotations

import contextlib
import io
import json
import os

import pytest

from browser import page, site, open_page  # noqa: F401 (fixtures)
from conftest import FIXTURES
from test_page_support import change, download, load_pair, loads, wait_for_loads

from ngram_core import cli
from ngram_core.report.contamination import DEFINITIONS_HEADER, definitions_table
from ngram_core.report.definitions import NAMES, compute_definitions
from ngram_core.read.fields import read_rows
from ngram_core.report.scores import impact_table
from ngram_page.charts import (COUNT_WORDS, NO_MATCH, SHARE_LEFT, SHARE_RIGHT, definition_label,
                               definition_title, impact_label, parameter_words)

REPORT = FIXTURES / "report"
PAGE = FIXTURES / "page"
A, B = REPORT / "test-set.jsonl", REPORT / "training.jsonl"
#: lm-evaluation-harness's case: ARC-like questions with their own acc, the samples
#: lm-eval writes for them (doc_id = 0-based row, in any order), and samples of
#: another split (doc_id 100 to 105: no row of A).
LM_A, LM_B = REPORT / "lm-eval-test.jsonl", REPORT / "lm-eval-train.jsonl"
LM_A_NUMBERED = REPORT / "lm-eval-test-numbered.jsonl"     # ids 1 to 6: not doc_id's 0 to 5
SAMPLES = REPORT / "lm-eval-samples.jsonl"
OTHER_SPLIT = REPORT / "lm-eval-samples-other-split.jsonl"


def wait_for_report(page):
    """Wait until the report of the last run is drawn."""
    page.wait_for_function("document.body.dataset.reported === document.body.dataset.runs"
                           " && document.body.dataset.busy === '0'")


def json_summary(*argv, cwd=REPORT) -> dict:
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out):
            code = cli.main([*map(str, argv), "--json"], out, err)
    finally:
        os.chdir(old)
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue())


def body_rows(page, table: str) -> list[tuple[str, ...]]:
    return [tuple(cells) for cells in page.eval_on_selector_all(
        f"{table} tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))")]


def in_words(lines) -> list[tuple[str, ...]]:
    """The command's score table as the page words it: the first cell in words."""
    return [(impact_label(line[0])[0], *line[1:]) for line in lines]


def scored(page, action):
    """Do something that redraws the score impact, and wait until it is drawn."""
    before = int(page.get_attribute("body", "data-scored") or 0)
    action()
    page.wait_for_function(f"Number(document.body.dataset.scored) > {before}")


def pick_results(page, path):
    """Pick a results file and wait until its scores are drawn (nothing else chosen)."""
    before = loads(page)
    scored(page, lambda: page.set_input_files("#file-r", str(path)))
    wait_for_loads(page, before)


def test_the_definitions_table_and_chart_are_the_commands(page):
    load_pair(page, A, [B])
    wait_for_report(page)
    summary = json_summary(A, B, "--definitions")
    shown = body_rows(page, "#definitions-table")
    expected = definitions_table(compute_definitions(read_rows(A.read_bytes(), A.name),
                                                     read_rows(B.read_bytes(), B.name)))
    assert [line[3:] for line in shown] == [line[3:] for line in expected]   # the figures
    assert len(shown) == len(NAMES)
    rows = page.locator("#definitions-table tbody tr")
    for i, name in enumerate(NAMES):
        figures, row = summary["definitions"][name], rows.nth(i)
        # the name in words, the JSON's name in small print
        assert row.locator("td .definition").text_content() == definition_label(name)
        assert row.locator("td .json-name").text_content() == f"JSON: {name}"
        assert shown[i][1] == COUNT_WORDS[name]
        # each parameter in words, the JSON's name and value in its tooltip
        items = row.locator("ul.params li")
        words = [w for w, _ in parameter_words(name, figures["parameters"])]
        assert items.all_text_contents() == words
        assert [items.nth(j).get_attribute("title") for j in range(items.count())] == \
            [f"{key} = {value}" for key, value in figures["parameters"].items()]
        assert not any("_" in w or w.endswith(f"= {v}")
                       for w, v in zip(words, figures["parameters"].values()))
        assert shown[i][3] == f"{figures['considered']:,}"
        assert shown[i][4].split(" ")[0] == f"{figures['dirty']:,}"
    assert "n for these files: " + str(summary["definitions"]["gpt3"]["parameters"]["n"]) \
        in shown[0][2]
    assert "ignore n-grams in more than 10 training rows" in shown[0][2]
    # every cell carries its column's name for the phone's cards
    labels = page.eval_on_selector_all("#definitions-table tbody td", "cells => cells.map("
                                       "c => c.dataset.label)")
    assert labels == list(DEFINITIONS_HEADER) * len(NAMES)
    # the chart: one bar for the check, one per definition, words for a screen reader
    chart = page.locator("#definitions-chart")
    assert chart.get_attribute("role") == "img"
    assert chart.locator("rect").count() == 1 + len(NAMES)
    desc = chart.locator("desc").text_content()
    assert desc == page.inner_text("#definitions-chart-caption")
    assert "the check above (n = 13): " in desc
    for name in ("GPT-3", "PaLM", "Llama 2", "GPT-4", "Tülu 3"):
        assert name in desc
    gpt3 = summary["definitions"]["gpt3"]
    assert f"({gpt3['dirty']:,} of {gpt3['considered']:,} rows)" in desc
    # the clean split's choice and the notes name the definitions in words too
    options = page.eval_on_selector_all("#clean-by option", "os => os.map(o => [o.value, "
                                        "o.textContent, o.title])")
    assert [o[0] for o in options] == ["main", *NAMES]
    assert options[1][1:] == [definition_label("gpt3"), "--clean-by gpt3"]
    assert options[0][1].startswith("the check above")
    about = page.locator("#definitions-about li").first
    assert about.locator("strong").text_content().startswith(definition_label("gpt3"))
    # the rows table says which definitions call each row dirty, when asked
    first = page.locator("#rows-table tbody tr").first.locator("td.defs")
    assert not first.is_visible()
    page.check("#show-definitions")
    assert first.is_visible() and first.text_content() == ", ".join(
        definition_title(n) for n in NAMES)                                   # q1: every one


def command_csv(tmp_path, *argv) -> list[dict]:
    out, err = io.StringIO(), io.StringIO()
    path = tmp_path / "rows.csv"
    old = os.getcwd()
    os.chdir(REPORT)
    try:
        assert cli.main([*map(str, argv), "--csv", str(path)], out, err) == 0, err.getvalue()
    finally:
        os.chdir(old)
    import csv
    with path.open(newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


#: SVG boxes of the threshold's label and of every count, in the SVG's units.
BOXES = """svg => {
    const box = (e) => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
    return {label: box(svg.querySelector('.marker-label')),
            values: [...svg.querySelectorAll('text.value')].map(box),
            ticks: [...svg.querySelectorAll('text.tick')].map(box),
            view: svg.viewBox.baseVal.width};
}"""


def overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("threshold, rule", [
    ("0", "A row is flagged when it shares at least one 13-token window with file B."),
    ("40", "A row is flagged when it shares a 13-token window with file B and its dirty-token "
           "share is at least 40%."),
    ("95", "A row is flagged when it shares a 13-token window with file B and its dirty-token "
           "share is at least 95%."),
])
def test_the_histogram_counts_every_checkable_row_and_draws_the_threshold(page, tmp_path,
                                                                          threshold, rule):
    load_pair(page, LM_A, [LM_B])
    if threshold != "0":
        change(page, lambda: page.fill("#threshold", threshold))
    wait_for_report(page)
    rows = command_csv(tmp_path, LM_A.name, LM_B.name, "--threshold", threshold)
    histogram = page.locator("#histogram")
    assert histogram.locator("rect").count() == 11          # "no match", then ten bands
    table = body_rows(page, "#histogram-table")
    assert [label for label, _ in table] == [NO_MATCH] + [f"{b}–{b + 10}%"
                                                          for b in range(0, 100, 10)]
    counts = [int(c.replace(",", "")) for _, c in table]
    assert sum(counts) == len(rows)                          # every checkable row, once
    assert counts[0] == sum(r["windows"] == "0" for r in rows) > 0      # no shared window
    for band in range(10):                                   # the rest by their share
        assert counts[band + 1] == sum(r["windows"] != "0" and min(
            9, int(r["dirty_tokens"]) * 10 // int(r["tokens"])) == band for r in rows)
    caption = page.inner_text("#histogram-caption")
    assert caption.endswith(rule)
    assert histogram.locator("desc").text_content() == caption
    assert f"no match (no 13-token window shared with file B): {counts[0]}" in caption
    label = "flagged: any shared window" if threshold == "0" else \
        f"flagged at {threshold}% or more"
    assert histogram.locator(".marker-label").text_content() == label
    x = float(histogram.locator("line.marker").get_attribute("x1"))
    assert x == pytest.approx(SHARE_LEFT + (SHARE_RIGHT - SHARE_LEFT) * float(threshold) / 100,
                              abs=0.05)
    if threshold == "0":                      # between the "no match" bar and the bands
        first, second = (histogram.locator("rect").nth(i) for i in (0, 1))
        assert float(first.get_attribute("x")) + float(first.get_attribute("width")) < x \
            < float(second.get_attribute("x"))
    # the label meets no bar's count and no tick, and stays inside the drawing
    boxes = histogram.evaluate(BOXES)
    assert len(boxes["values"]) == 11 and len(boxes["ticks"]) == 7
    assert not any(overlap(boxes["label"], v) for v in boxes["values"])
    # the tallest bar's count is at the top whatever the data: the label is above it
    assert boxes["label"][3] < min(v[1] for v in boxes["values"])
    assert 0 <= boxes["label"][0] and boxes["label"][2] <= boxes["view"] and boxes["label"][1] >= 0
    ticks = sorted(boxes["ticks"])
    assert not any(overlap(a, b) for a, b in zip(ticks, ticks[1:]))    # "no match" and "0"
    assert all(0 <= t[0] and t[2] <= boxes["view"] for t in ticks)      # "100" not cut off


def test_score_impact_from_a_field_of_a_and_from_a_results_file(page):
    load_pair(page, A, [B])
    wait_for_report(page)
    assert page.locator("#impact-box").is_hidden()          # no scores chosen
    assert page.inner_text("#score-join") == ""
    scored(page, lambda: page.select_option("#score-field", "correct"))
    expected = json_summary(A, B, "--score-field", "correct")["scores"]
    assert body_rows(page, "#impact-table") == in_words(impact_table(expected))
    assert page.inner_text("#score-join") == "Scores from field correct of file A."
    first = page.locator("#impact-table tbody td").first
    assert (first.text_content(), first.get_attribute("title")) == \
        ("the check above", "scores.main in the JSON summary")
    # a results file joined by lm-evaluation-harness's doc_id: A's 0-based row index
    change(page, lambda: page.select_option("#a-id-field", ""))
    wait_for_report(page)
    pick_results(page, REPORT / "results.jsonl")
    assert page.is_disabled("#score-field")                 # the results file's scores win
    assert page.input_value("#results-field") == "acc"
    scored(page, lambda: page.select_option("#results-key", "doc_id"))
    expected = json_summary(A, B, "--scores", "results.jsonl", "--scores-field", "acc",
                            "--scores-key", "doc_id", "--a-id-field", "")["scores"]
    assert expected["rows_with_score"] == 3
    assert body_rows(page, "#impact-table") == in_words(impact_table(expected))
    join = page.inner_text("#score-join")
    assert join.startswith("Scores from field acc of results.jsonl, joined by doc_id: "
                           "matched 3 of 4 rows of file A.")
    notes = page.inner_text("#impact-notes")
    assert "3 rows of file A have a score" in notes
    assert f"{expected['rows_without_score']:,} has none" in notes
    # a results file whose score field cannot be told: the table kept, out of date
    table = body_rows(page, "#impact-table")
    before = loads(page)
    page.set_input_files("#file-r", files=[{"name": "other.jsonl", "mimeType": "text/plain",
                                            "buffer": b'{"tid": 1, "sc": 0.5}\n'
                                                      b'{"tid": 2, "sc": 1.0}\n'}])
    wait_for_loads(page, before)
    page.wait_for_selector("#score-error:not(:empty)")
    assert page.inner_text("#score-error").endswith("The table below is of the scores read "
                                                    "before.")
    assert body_rows(page, "#impact-table") == table
    assert page.get_attribute("#impact-box", "data-stale") == "1"
    assert page.get_attribute("#score-join", "data-stale") == "1"
    # without the results file, the score comes from A's field again
    page.click("#results-clear")
    assert page.is_enabled("#score-field") and page.is_disabled("#results-field")
    assert page.locator("#impact-box").is_visible()
    assert page.get_attribute("#impact-box", "data-stale") == "0"


def rendered_text(page) -> list[list[str]]:
    """The score table as drawn: every cell's text, row by row."""
    return page.eval_on_selector_all("#impact-table tbody tr", "rows => rows.map(r => "
                                     "[...r.cells].map(c => c.innerText))")


@pytest.mark.parametrize("a", [LM_A, LM_A_NUMBERED])
def test_lm_evaluation_harness_samples_join_by_row_number_as_they_are(page, a):
    load_pair(page, a, [LM_B])
    wait_for_report(page)
    # A's own acc field: the reference table
    scored(page, lambda: page.select_option("#score-field", "acc"))
    from_a = rendered_text(page)
    assert len(from_a) == 1 + len(NAMES) + 1 and all(all(row[:4]) for row in from_a)
    assert page.inner_text("#impact-notes").startswith("6 rows of file A have a score.")
    # the samples lm-eval wrote for the same rows: picked, nothing else chosen
    pick_results(page, SAMPLES)
    assert page.input_value("#results-field") == "acc" and page.input_value("#results-key") == ""
    assert rendered_text(page) == from_a                     # the same figures, cell by cell
    join = page.locator("#score-join")
    assert join.inner_text().startswith(
        "Scores from field acc of lm-eval-samples.jsonl, joined by doc_id: matched 6 of 6 rows "
        "of file A. Joined by row number")
    # said before the table
    assert join.evaluate("(p, t) => !!(p.compareDocumentPosition(t) & "
                         "Node.DOCUMENT_POSITION_FOLLOWING)",
                         page.locator("#impact-table").element_handle())
    if a == LM_A:            # A's ids are not numbers: the command joins the same rows
        summary = json_summary(a, LM_B, "--scores", SAMPLES.name, "--scores-field", "acc")
        assert body_rows(page, "#impact-table") == in_words(impact_table(summary["scores"]))


def test_samples_that_match_no_row_say_why_and_draw_no_table(page):
    load_pair(page, LM_A, [LM_B])
    wait_for_report(page)
    pick_results(page, SAMPLES)
    assert page.locator("#impact-table tbody tr").count() == 1 + len(NAMES) + 1
    pick_results(page, OTHER_SPLIT)                          # samples of another split
    assert page.locator("#impact-table tbody tr").count() == 0
    assert page.locator("#impact-box").is_hidden()
    join = page.inner_text("#score-join")
    assert "matched 0 of 6 rows of file A." in join
    assert ("No row of file A matched: lm-evaluation-harness's doc_id counts the rows of the "
            "split it evaluated from 0, and the doc_ids of lm-eval-samples-other-split.jsonl "
            "(\u201c100\u201d, \u201c101\u201d, \u201c102\u201d) are not row numbers of file "
            "A (0 to 5)") in join
    assert "Choose the samples file of the task and split that file A holds" in join
    # a key field that matches nothing in a plain results file: why, and what to choose
    scored(page, lambda: page.select_option("#results-key", "doc_hash"))
    assert page.locator("#impact-table tbody tr").count() == 0
    join = page.inner_text("#score-join")
    assert "No row of file A matched: file A's rows are joined by their id " \
           "(\u201cMercury_7175875\u201d" in join
    assert "Choose the key field of lm-eval-samples-other-split.jsonl that holds file A's ids" \
        in join
    # a score field with no number: no table either
    scored(page, lambda: page.click("#results-clear"))
    scored(page, lambda: page.select_option("#score-field", "answerKey"))
    assert page.locator("#impact-box").is_hidden()
    assert page.inner_text("#score-join") == (
        "Scores from field answerKey of file A. No row of file A has a score in field "
        "answerKey: its values (\u201cC\u201d, \u201cB\u201d, \u201cD\u201d) are not numbers "
        "or true/false. Choose a score field that holds numbers or true/false.")


@pytest.mark.parametrize("a, b, clean_by", [
    (A, B, "main"),
    (A, B, "llama2"),
    (PAGE / "questions-fr.csv", PAGE / "documents-headerless.csv", "gpt4"),  # BOM, CRLF
    (PAGE / "squad.json", PAGE / "squad-corpus.jsonl", "main"),              # nested JSON
])
def test_the_clean_split_is_the_commands_byte_for_byte(page, tmp_path, a, b, clean_by):
    load_pair(page, a, [b])
    wait_for_report(page)
    page.select_option("#clean-by", clean_by)
    (tmp_path / "page").mkdir()
    clean_name, clean = download(page, "#download-clean", tmp_path / "page")
    dirty_name, dirty = download(page, "#download-dirty", tmp_path / "page")
    stem, ext = a.name.rsplit(".", 1)
    rule = "" if clean_by == "main" else f".by-{clean_by}"      # named by the rule
    assert (clean_name, dirty_name) == (f"{stem}.clean{rule}.{ext}",
                                        f"{stem}.contaminated{rule}.{ext}")
    out = tmp_path / "command"
    out.mkdir()
    summary = json_summary(a.name, b.name, "--clean-by", clean_by, "--clean-out",
                           out / "clean", "--dirty-out", out / "dirty", cwd=a.parent)
    assert clean == (out / "clean").read_bytes()
    assert dirty == (out / "dirty").read_bytes()
    assert clean and (dirty or summary["flagged"] == 0)
    line = page.inner_text("#split-line")
    kept = len(read_rows(clean, a.name)) if clean.strip() else 0
    assert f"keeps {kept:,} rows" in line
    # (#37) reconciled with the score table: the kept rows the rule considers
    if clean_by == "main":
        considered = summary["checkable"] - summary["flagged"] - summary["contained_unflagged"]
    else:
        d = summary["definitions"][clean_by]
        considered = d["considered"] - (d["dirty"] if clean_by != "llama2" else
                                        len(read_rows(dirty, a.name)) if dirty.strip() else 0)
    assert f"Of the rows kept, {considered:,} " \
        f"{'is a row' if considered == 1 else 'are rows'} this rule considers" in line
    if clean_by == "llama2":       # llama2 keeps its not-dirty rows; its clean ones: < 20 %
        clean = summary["definitions"]["llama2"]["clean"]
        assert f"not-dirty group (of them, the {clean:,} under 20 % in its clean group)" in line
    else:
        assert "score table\u2019s clean group" in line
    assert page.watch.after_ready == []                     # downloads are blob: URLs


#: Words of the table's cells drawn on more than one line (a word cut mid-word), and
#: whether the table holds a scroller or a tabindex.
CUT_WORDS = r"""table => {
    const cut = [];
    const walker = document.createTreeWalker(table.tBodies[0], NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of node.data.matchAll(/[^\s\u2013-]+/g)) {
            const range = document.createRange();
            range.setStart(node, m.index);
            range.setEnd(node, m.index + m[0].length);
            const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
            if (tops.size > 1) cut.push(m[0]);
        }
    }
    return cut;
}"""


def test_the_report_reads_at_375_pixels(site):
    base, browser = site
    context = browser.new_context(viewport={"width": 375, "height": 812})
    try:
        pg, watch = open_page(context, base)
        wait_for_report(pg)
        for chart in ("#histogram", "#definitions-chart"):
            box = pg.locator(chart).bounding_box()
            assert 0 < box["width"] <= 375
            labelled = pg.get_attribute(chart, "aria-labelledby").split()
            assert [pg.locator(f"#{i}").count() for i in labelled] == [1, 1]
            assert pg.locator(f"#{labelled[1]}").text_content().strip()
        # the published definitions: one card per definition, each line under its
        # column's name, nothing wider than the table, no scroller and no tabindex
        table = pg.locator("#definitions-table")
        width, client = table.evaluate("t => [t.scrollWidth, t.clientWidth]")
        assert 0 < width <= client <= 375
        cards = pg.locator("#definitions-table tbody tr")
        assert cards.count() == len(NAMES)
        assert cards.first.evaluate("r => getComputedStyle(r).display") == "block"
        befores = pg.eval_on_selector_all("#definitions-table tbody td", "cells => cells.map("
                                          "c => getComputedStyle(c, '::before').content)")
        assert befores == [f'"{name}"' for name in DEFINITIONS_HEADER] * len(NAMES)
        assert pg.eval_on_selector_all("#definitions-table tbody td", "cells => cells.every("
                                       "c => c.scrollWidth <= c.clientWidth)")
        assert table.evaluate(CUT_WORDS) == []                  # no word cut over two lines
        assert table.evaluate("t => { for (let e = t; e; e = e.parentElement) { const s = "
                              "getComputedStyle(e).overflowX; if (e !== document.documentElement"
                              " && (s === 'auto' || s === 'scroll')) return false; } return "
                              "!t.closest('[tabindex]'); }")
        # the scores, from A's field: cards too, and no sideways scroll
        load_pair(pg, A, [B])
        wait_for_report(pg)
        scored(pg, lambda: pg.select_option("#score-field", "correct"))
        assert pg.locator("#impact-table tbody tr").count() == 1 + len(NAMES) + 1
        impact = pg.locator("#impact-table")
        assert impact.evaluate("t => t.scrollWidth <= t.clientWidth")
        assert pg.evaluate("document.documentElement.scrollWidth") <= 375   # no sideways scroll
        assert not watch.problems(pg)
    finally:
        context.close()


@pytest.mark.parametrize("width", [1280, 375])
def test_the_words_a_reader_needs_at_both_widths(site, width):
    """(#37) The normalization named in words, the clean split's count reconciled with
    the score table, the relative difference defined: at both widths."""
    base, browser = site
    context = browser.new_context(viewport={"width": width, "height": 812})
    page, watch = open_page(context, base)
    wait_for_report(page)
    assert page.inner_text("#layers-words").startswith(
        "L1+L3+L4: format characters (soft hyphens, zero-width spaces) dropped, ")
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    # the worked example: 1 of the 2 rows kept is too short for the check (a3)
    assert page.inner_text("#split-line") == (
        "By the check above: the clean test set keeps 2 rows; 2 rows go to the contaminated "
        "file. Of the rows kept, 1 is a row this rule considers: only those, when they have a "
        "score, are in the score table\u2019s clean group; the other 1 (too short for it, or "
        "blank) is kept and counted in no group.")
    assert "(clean \u2212 all) / all" in page.inner_text("#impact-table thead")
    assert not watch.problems(page)
    context.close()
