"""Rows that look rephrased, on the page (#46): the headline says how many more rows
look rephrased; a section lists them, the most similar first, both texts side by
side with the words both hold that few rows of A hold marked; each opens in the
explorer, which lists them; the lens's threshold is a control the link and the
command line carry, and the rows CSV is the command's byte for byte. Real
Chromium, both widths, on test items of our own rewritten in other words
(tests/rephrase_data.py) among items of the same style."""

from __future__ import annotations

import csv
import io
import json
from urllib.parse import parse_qs, urlparse

import pytest

from browser import open_page, runs, site, wait_for_run  # noqa: F401 (fixture)
from rephrase_data import dev_set
from test_page_a11y import assert_no_axe_violation
from test_page_support import command, download, load_pair


def write_files(folder):
    """A test set of 40 math items and a training file of 80 items of the same style
    holding the rewrites (every kind at once) of half of them."""
    a_texts, b_texts, truth = dev_set("math", "all", a_count=40, negatives=80)
    a, b = folder / "math-test.jsonl", folder / "sft-mix.jsonl"
    a.write_text("".join(json.dumps({"id": f"q{i}", "question": t}) + "\n"
                         for i, t in enumerate(a_texts)))
    b.write_text("".join(json.dumps({"text": t}) + "\n" for t in b_texts))
    return a, b, truth


def rephrased_rows(rows_csv: bytes) -> list[dict]:
    """The rows CSV's rows the lens marks, the most similar first (file order on ties)."""
    rows = list(csv.DictReader(io.StringIO(rows_csv.decode())))
    marked = [r for r in rows if r["rephrased"] == "true"]
    return sorted(marked, key=lambda r: -float(r["similarity"]))


@pytest.mark.parametrize("width", [1280, 375])
def test_rows_that_look_rephrased_are_listed_opened_and_set_as_the_command_does(
        site, width, tmp_path):
    a, b, truth = write_files(tmp_path)
    _, _, rows_bytes = command([a.name, b.name], tmp_path, cwd=tmp_path)
    marked = rephrased_rows(rows_bytes)
    assert len(marked) >= 10                  # the lens finds the rewrites n-grams miss
    base, browser = site
    context = browser.new_context(viewport={"width": width, "height": 812})
    page, watch = open_page(context, base)
    load_pair(page, a, b)
    page.wait_for_function("document.body.dataset.busy === '0'")
    # page = command, the lens's columns too
    assert download(page, "#download-rows-csv", tmp_path)[1] == rows_bytes
    unflagged = sum(r["flagged"] != "true" for r in marked)
    assert f"{unflagged} more rows look rephrased from rows of the other file" in \
        page.inner_text("#headline")
    # the list: every marked row, the most similar first, both texts, shared words marked
    page.click("#rephrased-summary")
    assert page.get_attribute("body", "data-rephrased-rows") == str(len(marked))
    assert page.inner_text("#rephrased-status").startswith(
        f"{len(marked)} rows of file A look rephrased from rows of file B (similarity 0.5 "
        f"or more), the most similar first")
    entries = page.locator("#rephrased-list > li")
    assert entries.count() == min(10, len(marked))
    first = marked[0]
    assert page.inner_text("#rephrased-list > li:first-child h3") == (
        f"Row {first['a_id']} and B row {first['similar_b_row']}: similarity "
        f"{first['similarity']}")
    a_marks, b_marks = (page.eval_on_selector_all(
        f"#rephrased-list > li:first-child p:nth-child({k}) mark",
        "marks => marks.map((m) => m.textContent.toLowerCase())") for k in (1, 2))
    assert a_marks and b_marks and set(a_marks) == set(b_marks)   # words both rows hold
    assert not {"the", "a", "of"} & set(a_marks)                   # stop words are not marked
    if len(marked) > 10:
        page.click("#rephrased-more")
        assert entries.count() == min(20, len(marked))
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    assert_no_axe_violation(page)                 # (at both widths: this one again after)
    page.set_viewport_size({"width": width, "height": 812})
    # opened in the explorer, among the rows that look rephrased, with its similar B row
    unshared = next(r for r in marked if r["windows"] == "0")
    position = marked.index(unshared)
    if position >= entries.count():
        pytest.fail("a marked row sharing no window is listed past the rows shown")
    page.click(f"#rephrased-list > li:nth-child({position + 1}) button")
    page.wait_for_function("document.body.dataset.selected !== ''"
                           " && document.body.dataset.selected !== 'none'")
    assert page.input_value("#rows-show") == "rephrased"
    assert page.inner_text("#pane-a-title").startswith(f"math-test.jsonl, row {unshared['a_id']}")
    assert page.inner_text("#pane-b-title").endswith(
        f"most similar in its words ({unshared['similarity']})")
    assert page.eval_on_selector_all("#pane-b-text mark", "m => m.length") > 0
    assert page.inner_text("#pane-figures").endswith(
        f"it looks rephrased from B row {unshared['similar_b_row']}, similarity "
        f"{unshared['similarity']}.")
    listed = page.eval_on_selector_all("#rows-table tbody tr", "rows => rows.map((r) => "
                                       "r.innerText)")
    assert len(listed) == min(50, len(marked))
    assert page.input_value("#rows-sort") == "similarity:desc"     # as the list: the most
    assert listed[0].split()[0] == marked[0]["a_id"]               # similar first
    assert sum(f"looks rephrased from B row {r['similar_b_row']} (similarity "
               f"{r['similarity']})" in line for r in marked for line in listed
               if line.split()[0] == r["a_id"]) == sum(r["flagged"] != "true" for r in marked)
    if width < 1024:                          # opened over the page: back to the rows
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.click("#panes-back")
    # the threshold, a control: the link and the command line carry it, the change is told
    before = runs(page)
    page.fill("#rephrase-threshold", "0.8")
    wait_for_run(page, before)
    page.wait_for_function("document.body.dataset.busy === '0'")
    assert parse_qs(urlparse(page.url).query)["rephrase"] == ["0.8"]
    assert page.inner_text("#command-line").endswith("--rephrase-threshold 0.8")
    _, _, stricter = command([a.name, b.name, "--rephrase-threshold", "0.8"], tmp_path,
                             cwd=tmp_path)
    assert download(page, "#download-rows-csv", tmp_path)[1] == stricter
    fewer = len(rephrased_rows(stricter))
    assert fewer < len(marked)
    change = page.inner_text("#change-line")
    assert change.startswith("rephrase similarity 0.5 → 0.8: ")
    assert f"rows that look rephrased {len(marked)} → {fewer}" in change
    # the link opens with it
    page.goto(page.url)
    page.wait_for_selector('body[data-ready="1"]', state="attached")
    assert page.input_value("#rephrase-threshold") == "0.8"
    assert not watch.problems(page)
    context.close()
