"""End to end: the page defects found while reading real files (#9), one test each.

Field choices and a link's fields that survive; the threshold kept exactly as
typed; the same file picked again; no result mixing a person's file with the
worked example; a row selection that shows; narrow screens; and the small
ones (no share without checkable rows, no alarm red for 0.0 %, right-to-left
text, UTF-16 without a byte-order mark, the announced summary).
"""

from __future__ import annotations

import json

from browser import open_page, page, runs, site, wait_for_run  # noqa: F401 (fixtures)
from conftest import FIXTURES
from test_page_support import (EXAMPLE_A, EXAMPLE_B, change, chosen, counted, load_pair, loads,
                               put, table_rows, wait_for_loads)

APOLLO = "In 1969 the Apollo 11 mission landed the first humans on the Moon"


def jsonl(rows) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode()


def test_field_choices_stay_when_a_new_file_with_the_same_fields_is_loaded(page):
    load_pair(page, FIXTURES / "questions.json", FIXTURES / "corpus.csv")
    change(page, lambda: page.select_option("#a-text-field", ["context", "question"]))
    change(page, lambda: page.select_option("#a-id-field", "title"))
    assert [r[:2] for r in table_rows(page)] == [["Fox", "22"], ["Planets", "18"]]
    # the same fields in a new file (fixed on disk, saved under another name)
    data = (FIXTURES / "questions.json").read_bytes().replace(b"Planets", b"Planeten")
    before = runs(page)
    put(page, "a", ("questions-v2.json", data))
    wait_for_run(page, before)
    assert chosen(page, "#a-text-field") == ["context", "question"]      # in field order
    assert [r[:2] for r in table_rows(page)] == [["Fox", "22"], ["Planeten", "18"]]
    assert "a_field=context" in page.url and "a_id=title" in page.url
    # a file without those fields is read with detection, and the link says so
    before = runs(page)
    put(page, "a", FIXTURES / "contaminated.jsonl")
    wait_for_run(page, before)
    assert "a_field" not in page.url and "a_id" not in page.url


def test_a_links_fields_stay_in_the_address_while_the_example_runs(site):
    base, browser = site
    context = browser.new_context()
    query = "?n=13&threshold=0&mode=loose&a_field=question&a_field=context&a_id=title"
    page, watch = open_page(context, base, query)
    # the example has `question` only: it is checked on that, and the link keeps every field
    assert chosen(page, "#a-text-field") == ["question"]
    assert page.inner_text("#flagged-figure") == "66.7%"
    assert "a_field=question&a_field=context&a_id=title" in page.url
    load_pair(page, FIXTURES / "questions.json", FIXTURES / "corpus.csv")
    assert chosen(page, "#a-text-field") == ["context", "question"]
    assert chosen(page, "#a-id-field") == ["title"]
    assert [r[:2] for r in table_rows(page)] == [["Fox", "22"], ["Planets", "18"]]
    assert not watch.problems(page)
    context.close()


def test_the_link_keeps_the_threshold_exactly_as_typed(site):
    base, browser = site
    context = browser.new_context()
    page, watch = open_page(context, base, "?threshold=33.33334")
    assert page.input_value("#threshold") == "33.33334"
    assert "threshold=33.33334&" in page.url                      # not 33.3333
    change(page, lambda: page.fill("#threshold", "1e-7"))
    assert "threshold=1e-7&" in page.url
    assert not watch.problems(page)
    context.close()


def test_the_same_file_picked_again_is_read_again(page, tmp_path):
    path = tmp_path / "fixed.jsonl"
    path.write_bytes(b'{"id": "x", "text": "broken\n')
    put(page, "a", path)
    assert "fixed.jsonl, line 1" in page.inner_text("#a-error")
    # the input is emptied after each read, so choosing the same path fires a change
    assert page.input_value("#file-a") == ""
    path.write_bytes(jsonl([{"id": "x", "text": APOLLO + " and came back."}]))
    before = runs(page)
    page.set_input_files("#file-b", str(EXAMPLE_B))
    put(page, "a", path)
    wait_for_run(page, before)
    assert page.inner_text("#a-error") == "" and table_rows(page)[0][0] == "x"
    assert page.input_value("#file-a") == "" and page.input_value("#file-b") == ""


def test_no_result_mixes_a_persons_file_with_the_example(page):
    put(page, "a", FIXTURES / "contaminated.jsonl")
    # slot B asks for a file; the example's result is still the one shown, marked stale
    assert page.is_visible("#b-needed")
    assert page.inner_text("#b-needed").startswith("Load file B, the training data, to check "
                                                   "your file A")
    assert page.inner_text("#b-name") == "\u2013"
    assert page.inner_text("#flagged-figure") == "66.7%" and page.is_visible("#stale")
    assert runs(page) == 1
    # a B file that fails keeps the example's result, never A against the example
    put(page, "b", FIXTURES / "malformed.jsonl")
    assert "malformed.jsonl, line 2" in page.inner_text("#b-error")
    assert page.inner_text("#flagged-figure") == "66.7%" and runs(page) == 1
    assert page.inner_text("#settings-line").startswith("test-set.json checked against "
                                                        "training-corpus.json")
    before = runs(page)
    put(page, "b", FIXTURES / "corpus.txt")
    wait_for_run(page, before)
    assert page.is_hidden("#b-needed") and page.is_hidden("#stale")
    assert page.inner_text("#settings-line").startswith("contaminated.jsonl checked against "
                                                        "corpus.txt")
    assert page.is_hidden("#example-note")


def in_view(page, selector) -> bool:
    return page.eval_on_selector(selector, """e => { const r = e.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight && r.height > 0; }""")


def test_selecting_a_row_shows_it(page):
    # a click anywhere on a row selects it, and the panes come into view
    page.set_viewport_size({"width": 900, "height": 500})
    row = "#rows-table tbody tr:nth-child(2)"
    page.eval_on_selector(row, "r => r.scrollIntoView({block: 'end'})")
    assert not in_view(page, "#pane-a-text mark")
    page.click(f"{row} td:nth-child(3)")
    page.wait_for_selector('body[data-selected="1"]', state="attached")
    assert page.get_attribute(row, "aria-selected") == "true"
    assert in_view(page, "#pane-a-text mark") and in_view(page, "#pane-b-text mark")
    # wide screens: the panes sit beside the table
    page.set_viewport_size({"width": 1400, "height": 800})
    page.eval_on_selector("#rows-table", "t => t.scrollIntoView({block: 'end'})")
    page.click("#rows-table tbody tr:nth-child(1) td:nth-child(6)")
    page.wait_for_selector('body[data-selected="0"]', state="attached")
    table, pane = (page.locator(s).bounding_box() for s in ("#rows-table", "#pane-a"))
    assert pane["x"] >= table["x"] + table["width"]
    assert in_view(page, "#pane-a-text mark")
    # a long row: the excerpt starts at a word, and the pane shows its first highlight
    filler = "xx " + "abcdefghi " * 3000                # 30,003 characters before the match
    long_row = {"id": "long", "text": filler + APOLLO + " again. " + "klmnopq " * 3000}
    before = runs(page)
    put(page, "a", ("long.jsonl", jsonl([long_row])))
    page.set_input_files("#file-b", str(EXAMPLE_B))
    wait_for_run(page, before)
    text = page.inner_text("#pane-a-text")
    note, shown = [line for line in text.split("\n") if line][:2]
    assert note.startswith("[Characters 25,") and shown.startswith("abcdefghi ")
    assert page.eval_on_selector("#pane-a-text", "e => e.scrollTop") > 0
    assert page.eval_on_selector("#pane-a-text", """e => {
        const m = e.querySelector("mark").getBoundingClientRect(), p = e.getBoundingClientRect();
        return m.top >= p.top && m.bottom <= p.bottom; }""")


def test_long_ids_on_a_narrow_screen(page):
    ids = ['=HYPERLINK("http://example.com/a/very/long/path/to/row/1","click")',
           "a-very-long-identifier-without-any-space-" + "x" * 60]
    rows = [{"id": ids[0], "text": APOLLO + " and returned."},
            {"id": ids[1], "text": "Inside a leaf, energy from sunlight splits water and the "
                                   "plant stores that energy as sugar."}]
    load_pair(page, ("long-ids.jsonl", jsonl(rows)), EXAMPLE_B)
    page.set_viewport_size({"width": 375, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    button = page.locator(f"#rows-table tbody span.id[title='{ids[0]}']")
    assert button.get_attribute("title") == ids[0]          # the whole id, on hover
    line = float(button.evaluate("b => parseFloat(getComputedStyle(b).lineHeight)"))
    # (#45) the rows are cards on a phone: the id whole, broken at its parts (after a
    # slash, a dot, a hyphen), not a char a line, and nothing of it cut
    assert button.bounding_box()["height"] / line <= len(ids[0]) / 10
    assert button.evaluate("b => b.closest('td').scrollWidth <= b.closest('td').clientWidth")
    assert button.evaluate("b => getComputedStyle(b).textOverflow") != "ellipsis"
    # every column in the screen, no sideways scroll
    cell = page.locator("#rows-table tbody td[data-label='Best B row']").first.bounding_box()
    assert cell["x"] >= 0 and cell["x"] + cell["width"] <= 375


def test_small_things(page):
    # no checkable row: no share (a dash, not 0.0%); 0.0% is not drawn in alarm red
    short = [{"id": "s1", "text": "a short row"}, {"id": "s2", "text": "another one"}]
    load_pair(page, ("short.jsonl", jsonl(short)), EXAMPLE_B)
    assert page.inner_text("#flagged-figure") == "\u2013"
    assert counted(page)["Overall dirty-token share"] == "\u2013"
    red = "rgb(138, 28, 28)"
    before = runs(page)
    put(page, "a", ("one.jsonl", jsonl([{"id": "o1", "text": "A row of more than thirteen "
                                          "tokens that shares nothing at all with the "
                                          "training file here."}])))
    wait_for_run(page, before)
    assert page.inner_text("#flagged-figure") == "0.0%"
    assert page.eval_on_selector("#flagged-figure", "e => getComputedStyle(e).color") != red
    assert page.inner_text("#headline").startswith(
        "0 of 1 checkable row shares at least one 13-token sequence")
    before = runs(page)
    put(page, "a", EXAMPLE_A)
    wait_for_run(page, before)
    assert page.eval_on_selector("#flagged-figure", "e => getComputedStyle(e).color") == red
    # right-to-left text keeps its own direction in the table and the panes
    arabic = {"id": "\u0645\u062b\u0627\u0644", "text": "\u0647\u0630\u0627 \u0646\u0635 "
              "\u0639\u0631\u0628\u064a \u0637\u0648\u064a\u0644 " * 4}
    before = runs(page)
    put(page, "a", ("rtl.jsonl", jsonl([arabic])))
    wait_for_run(page, before)
    direction = "e => getComputedStyle(e).direction"
    assert page.eval_on_selector("#pane-a-text", direction) == "rtl"
    assert page.eval_on_selector("#rows-table tbody span.id", direction) == "rtl"
    assert page.eval_on_selector("#pane-b-text", direction) == "ltr"
    # UTF-16 without a byte-order mark is named as such
    before = loads(page)
    page.set_input_files("#file-a", files=[{"name": "utf16.json", "mimeType": "text/plain",
                                            "buffer": '[{"text": "x"}]'.encode("utf-16-le")}])
    wait_for_loads(page, before)
    assert "looks like UTF-16 text without a byte-order mark" in page.inner_text("#a-error")
    # only the summary is announced, not the whole result
    assert page.get_attribute("#verdict", "aria-live") is None
    assert page.get_attribute("#summary", "aria-live") == "polite"
    assert page.locator("#verdict [aria-live]").count() == 1
    assert page.locator("#summary #headline").count() == 1
