"""End to end: the contamination report in the page agrees with the command (#11).

The published definitions' table and chart, the rows table's definitions
column, the score impact from a field of A and from a results file, the two
files of the clean split (byte-identical to ``--clean-out``/``--dirty-out``),
the histogram with its threshold, both charts' text alternatives at 375 px,
and nothing requested after ready. Tests wait on the body's markers
(``data-reported`` = the run whose report is drawn), never on sleeps.
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
from ngram_core.contamination import definitions_table
from ngram_core.definitions import NAMES, compute_definitions
from ngram_core.fields import read_rows
from ngram_core.scores import impact_table

REPORT = FIXTURES / "report"
PAGE = FIXTURES / "page"
A, B = REPORT / "test-set.jsonl", REPORT / "training.jsonl"


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


def test_the_definitions_table_and_chart_are_the_commands(page):
    load_pair(page, A, [B])
    wait_for_report(page)
    summary = json_summary(A, B, "--definitions")
    shown = body_rows(page, "#definitions-table")
    expected = definitions_table(compute_definitions(read_rows(A.read_bytes(), A.name),
                                                     read_rows(B.read_bytes(), B.name)))
    assert shown == expected
    for line, name in zip(shown, NAMES):
        figures = summary["definitions"][name]
        assert line[0].endswith(f"({name})")
        assert line[3] == f"{figures['considered']:,}"
        assert line[4].split(" ")[0] == f"{figures['dirty']:,}"
    # the chart: one bar for the check, one per definition, words for a screen reader
    chart = page.locator("#definitions-chart")
    assert chart.get_attribute("role") == "img"
    assert chart.locator("rect").count() == 1 + len(NAMES)
    desc = chart.locator("desc").text_content()
    assert desc == page.inner_text("#definitions-chart-caption")
    for name in ("GPT-3", "PaLM", "Llama 2", "GPT-4", "Tülu 3"):
        assert name in desc
    gpt3 = summary["definitions"]["gpt3"]
    assert f"({gpt3['dirty']:,} of {gpt3['considered']:,} rows)" in desc
    # the rows table says which definitions call each row dirty, when asked
    first = page.locator("#rows-table tbody tr").first.locator("td.defs")
    assert not first.is_visible()
    page.check("#show-definitions")
    assert first.is_visible() and first.text_content() == ", ".join(NAMES)   # q1: every one


def test_the_histogram_counts_every_checkable_row_and_draws_the_threshold(page):
    load_pair(page, A, [B])
    change(page, lambda: page.fill("#threshold", "40"))
    wait_for_report(page)
    summary = json_summary(A, B, "--threshold", "40")
    histogram = page.locator("#histogram")
    assert histogram.locator("rect").count() == 10
    counts = [int(c.replace(",", "")) for _, c in body_rows(page, "#histogram-table")]
    assert sum(counts) == summary["checkable"]
    assert histogram.locator(".marker-label").text_content() == "threshold 40%"
    x = float(histogram.locator("line.marker").get_attribute("x1"))
    assert x == pytest.approx(40 + 310 * 0.4)
    desc = histogram.locator("desc").text_content()
    assert f"the {summary['checkable']:,} checkable rows" in desc and "40%" in desc


def test_score_impact_from_a_field_of_a_and_from_a_results_file(page):
    load_pair(page, A, [B])
    wait_for_report(page)
    assert page.locator("#impact-box").is_hidden()          # no scores chosen
    before = int(page.get_attribute("body", "data-scored"))
    page.select_option("#score-field", "correct")
    page.wait_for_function(f"Number(document.body.dataset.scored) > {before}")
    expected = json_summary(A, B, "--score-field", "correct")["scores"]
    assert body_rows(page, "#impact-table") == impact_table(expected)
    # a results file joined by lm-evaluation-harness's doc_id: A's 0-based row index
    change(page, lambda: page.select_option("#a-id-field", ""))
    wait_for_report(page)
    before = loads(page)
    page.set_input_files("#file-r", str(REPORT / "results.jsonl"))
    wait_for_loads(page, before)
    assert page.is_disabled("#score-field")                 # the results file's scores win
    assert page.input_value("#results-field") == "acc"
    before = int(page.get_attribute("body", "data-scored"))
    page.select_option("#results-key", "doc_id")
    page.wait_for_function(f"Number(document.body.dataset.scored) > {before}")
    expected = json_summary(A, B, "--scores", "results.jsonl", "--scores-field", "acc",
                            "--scores-key", "doc_id", "--a-id-field", "")["scores"]
    assert expected["rows_with_score"] == 3
    assert body_rows(page, "#impact-table") == impact_table(expected)
    notes = page.inner_text("#impact-notes")
    assert "3 rows of file A have a score" in notes
    assert f"{expected['rows_without_score']:,} have none" in notes
    # without the results file, the score comes from A's field again
    page.click("#results-clear")
    assert page.is_enabled("#score-field") and page.is_disabled("#results-field")
    assert page.locator("#impact-box").is_visible()


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
    assert page.watch.after_ready == []                     # downloads are blob: URLs


def test_the_report_reads_at_375_pixels(site):
    base, browser = site
    context = browser.new_context(viewport={"width": 375, "height": 800})
    try:
        pg, watch = open_page(context, base)
        wait_for_report(pg)
        for chart in ("#histogram", "#definitions-chart"):
            box = pg.locator(chart).bounding_box()
            assert 0 < box["width"] <= 375
            labelled = pg.get_attribute(chart, "aria-labelledby").split()
            assert [pg.locator(f"#{i}").count() for i in labelled] == [1, 1]
            assert pg.locator(f"#{labelled[1]}").text_content().strip()
        assert pg.evaluate("document.documentElement.scrollWidth") <= 375   # no sideways scroll
        assert not watch.problems(pg)
    finally:
        context.close()
