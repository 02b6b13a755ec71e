"""End to end: the method's new rules in the page (#10): the frequency filter, contained
short rows, the every-row CSV, and the rules stated in "How this is calculated".

Tests wait on the page's markers, never on sleeps (see tests/browser.py).
"""

from __future__ import annotations

import json

from browser import open_page, page, site  # noqa: F401 (fixtures)
from test_page_support import change, command, counted, download, load_pair, table_rows

BOILERPLATE = ("This file is licensed under the Creative Commons Attribution Share Alike "
               "license version four point zero")


def jsonl(rows) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in rows).encode()


def boilerplate_files():
    b = [{"id": f"d{i}", "text": f"Document {i}. {BOILERPLATE}. Topic {i} follows here."}
         for i in range(12)]
    b.append({"id": "leak", "text": "Exam: a train leaves the station at noon at sixty mph "
                                    "and a second train leaves an hour later at eighty."})
    a = [{"id": "quotes-licence", "text": f"Note that {BOILERPLATE}, as everywhere."},
         {"id": "leaked", "text": "A train leaves the station at noon at sixty mph and a "
                                  "second train leaves an hour later at eighty."}]
    return ("a.jsonl", jsonl(a)), ("b.jsonl", jsonl(b))


def test_ngrams_in_many_training_rows_can_be_ignored(page):
    a, b = boilerplate_files()
    load_pair(page, a, b)
    assert page.inner_text("#flagged-figure") == "100.0%"
    assert page.is_hidden("#ignored-box") and "max_b_rows" not in page.url
    assert page.is_disabled("#max-b-rows")
    page.click("#more-settings > summary")                    # the folded matching settings
    change(page, lambda: page.check("#max-b-rows-on"))        # GPT-3's rule: more than 10
    assert page.input_value("#max-b-rows") == "10" and not page.is_disabled("#max-b-rows")
    assert page.inner_text("#flagged-figure") == "50.0%"
    assert [r[0] for r in page.locator("#rows-table tbody tr.flagged").all_inner_texts()] == ["l"]
    # the windows of A ignored (B's "... zero. Topic" is in all 12 too, but not in A)
    assert counted(page)["Windows ignored (in more than 10 B rows)"] == "4"
    assert "max_b_rows=10" in page.url
    # the ignored n-grams, as words, on request
    assert page.inner_text("#ignored-summary").startswith(
        "4 n-grams were ignored: each occurs in more than 10 training rows.")
    assert page.is_hidden("#ignored-list")
    page.click("#ignored-summary")
    items = page.locator("#ignored-list li").all_inner_texts()
    words = BOILERPLATE.lower().split()
    windows = {" ".join(words[i:i + 13]) for i in range(len(words) - 12)}
    assert len(items) == 4
    assert {item.split("\u201d")[0].lstrip("\u201c") for item in items} == windows
    assert all(item.endswith("\u2014 in 12 training rows") for item in items)
    # more than 12: nothing is ignored
    change(page, lambda: page.fill("#max-b-rows", "12"))
    assert page.inner_text("#flagged-figure") == "100.0%" and page.is_hidden("#ignored-box")
    page.fill("#max-b-rows", "0")
    page.wait_for_selector("#max-b-rows-error:not(:empty)")
    assert "1 or more" in page.inner_text("#max-b-rows-error")
    change(page, lambda: page.uncheck("#max-b-rows-on"))
    assert "max_b_rows" not in page.url and page.inner_text("#max-b-rows-error") == ""


def test_a_link_turns_the_filter_and_short_rows_on(site):
    base, browser = site
    context = browser.new_context()
    page, watch = open_page(context, base, "?max_b_rows=3&short_min=9")
    assert page.is_checked("#max-b-rows-on") and page.input_value("#max-b-rows") == "3"
    assert page.input_value("#short-min") == "9"
    assert counted(page)["Windows ignored (in more than 3 B rows)"] == "0"
    assert counted(page)["Short rows of 9+ tokens contained in a B row"] == "0"
    assert "max_b_rows=3" in page.url and "short_min=9" in page.url
    assert not watch.problems(page)
    context.close()


SHORT_A = [{"id": "q1", "text": "Which planet is known as the red planet today"},
           {"id": "q2", "text": "Name the largest ocean on Earth"},
           {"id": "q3", "text": "A long question that shares no thirteen token sequence with "
                                "any row of the training file at all."}]
SHORT_B = [{"id": "b1", "text": "Quiz: which planet is known as the red planet today? Mars."},
           {"id": "b2", "text": "name the largest ocean on earth"}]


def test_contained_short_rows_are_listed_and_shown(page, tmp_path):
    load_pair(page, ("short-a.jsonl", jsonl(SHORT_A)), ("short-b.jsonl", jsonl(SHORT_B)))
    assert page.inner_text("#flagged-figure") == "0.0%"
    assert counted(page)["Short rows of 8+ tokens contained in a B row"] == "1"
    assert page.inner_text("#headline").endswith(
        "1 of the short rows is contained whole in a row of the other file.")
    # the explorer lists them under their own kinds, each with its state in words
    page.select_option("#rows-show", "contained")
    assert page.inner_text("#rows-title") == "Rows with a short text (the row or a field) found inside a B row, worst first."
    assert [r[0] for r in table_rows(page)] == ["q1"]
    assert page.inner_text("#rows-table tbody td.status") == "short: inside B row b1"
    page.select_option("#rows-show", "duplicates")
    assert [r[0] for r in table_rows(page)] == ["q2"]
    assert page.inner_text("#rows-table tbody td.status") == "short: equals B row b2"
    # selecting one shows both rows, the whole short row and where it lies in the B row
    page.select_option("#rows-show", "contained")
    page.click("#rows-table tbody tr:first-child td:first-child")
    page.wait_for_selector('body[data-selected="0"]', state="attached")
    assert page.inner_text("#pane-a-title") == "short-a.jsonl, row q1 (text)"
    assert page.inner_text("#pane-b-title") == "short-b.jsonl, row b1 (text)"
    assert page.locator("#pane-a-text mark").all_inner_texts() == [SHORT_A[0]["text"]]
    assert page.locator("#pane-b-text mark").all_inner_texts() == [
        "which planet is known as the red planet today"]
    assert page.get_attribute("#rows-table tbody tr:first-child", "aria-selected") == "true"
    page.select_option("#rows-show", "duplicates")
    page.click("#rows-table tbody tr:first-child td:first-child")
    page.wait_for_function("document.querySelector('#pane-a-title').textContent.includes('q2')")
    assert page.locator("#pane-b-text mark").all_inner_texts() == [SHORT_B[1]["text"]]
    # the every-row CSV carries the contained row, as the command writes it
    (tmp_path / "short-a.jsonl").write_bytes(jsonl(SHORT_A))
    (tmp_path / "short-b.jsonl").write_bytes(jsonl(SHORT_B))
    _, csv_bytes, rows_bytes = command(["short-a.jsonl", "short-b.jsonl"], tmp_path,
                                       cwd=tmp_path)
    name, data = download(page, "#download-rows-csv", tmp_path)
    assert name == "ngram-overlap-rows_short-a_vs_short-b_n13.csv"
    assert data == rows_bytes
    assert b"\n1,q1,short,9,,,,,,,,,1,6,51,short-b.jsonl," in data   # then the definitions
    assert download(page, "#download-csv", tmp_path)[1] == csv_bytes
    # 0 turns the test off, and the link says so
    page.click("#more-settings > summary")
    change(page, lambda: page.fill("#short-min", "0"))
    assert "short_min=0" in page.url
    page.select_option("#rows-show", "contained")
    assert table_rows(page) == [] and page.inner_text("#rows-count").startswith("No row")
    assert "Short rows of 8+ tokens contained in a B row" not in counted(page)
    change(page, lambda: page.fill("#short-min", "10"))           # q1 has 9 tokens
    assert counted(page)["Short rows of 10+ tokens contained in a B row"] == "0"
