"""End to end: the built page in headless Chromium, as a person uses it.

Every test opens dist/ from a local server, waits on the page's explicit
markers (``data-ready``, ``data-runs``, ``data-busy``), never on sleeps, and
fails on any request to another origin, any request after the engine is
ready, console errors, page errors or PyScript errors (see tests/browser.py).
"""

from __future__ import annotations

import csv
import io
import json

import pytest

from browser import open_page, page, runs, site, wait_for_run  # noqa: F401 (fixtures)
from conftest import FIXTURES
from test_page_support import (EXAMPLE_B, change, chosen, counted, drop, load_pair, loads, put,
                               table_rows, wait_for_loads)

from ngram_core import Settings, run_check
from ngram_core.report.export import RowFiles
from ngram_core.read.files import load_rows


def test_worked_example_is_shown_on_first_load(page):
    assert page.inner_text("#flagged-figure") == "66.7%"
    assert page.inner_text("#headline") == (
        "2 of 3 checkable rows share at least one 13-token sequence with the other file, at "
        "n = 13 and a 0 percent threshold. 1 row is shorter than 13 tokens and 0 are blank, so "
        "they sit outside every denominator.")
    assert page.is_visible("#example-note")
    assert page.inner_text("#settings-line").startswith(
        "test-set.json checked against training-corpus.json at n = 13 with a 0 percent threshold.")
    assert page.inner_text("#layers-words") == (        # L1+L3+L4 in words
        "L1+L3+L4: format characters (soft hyphens, zero-width spaces) dropped, compatibility "
        "forms folded (NFKC: full-width letters, ligatures), lower-cased, in that order, "
        "token by token.")
    c = counted(page)
    assert (c["Rows flagged"], c["Rows checkable"], c["Overall dirty-token share"],
            c["Rows shorter than 13 tokens"], c["Rows with no text"]) == ("2", "3", "31.3%", "1", "0")
    assert table_rows(page) == [["a1", "18", "72.2%", "13", "1", "b1"],
                                ["a2", "40", "32.5%", "13", "1", "b2"],
                                ["a4", "25", "0.0%", "0", "0", "none"]]
    assert page.inner_text("#a-name") == "test-set.json"
    assert page.inner_text("#a-rows") == "4" and page.inner_text("#b-format") == "JSON"
    assert (page.inner_text("#a-tokens"), page.inner_text("#a-short")) == ("93", "1")
    assert "Engine ready" in page.inner_text("#engine-status")


def test_selected_row_highlights_only_what_its_best_b_row_supplied(page):
    assert page.locator("#pane-a-text mark").all_inner_texts() == [
        "In 1969 the Apollo 11 mission landed the first humans on the Moon"]
    assert page.locator("#pane-b-text mark").all_inner_texts() == [
        "in 1969 the Apollo 11 mission landed the first humans on the Moon"]
    # select the second row with the keyboard
    page.focus("#rows-table tbody tr:nth-child(2) td:first-child")
    page.keyboard.press("Enter")
    page.wait_for_selector('body[data-selected="1"]', state="attached")
    assert page.inner_text("#pane-a-title") == "test-set.json, row a2 (question)"
    assert page.inner_text("#pane-b-title") == "training-corpus.json, row b2 (text)"
    assert page.locator("#pane-a-text mark").all_inner_texts() == [
        "energy from sunlight splits water and the plant stores that energy as sugar"]
    assert page.get_attribute("#rows-table tbody tr:nth-child(2)", "aria-selected") == "true"
    page.click("#rows-table tbody tr:nth-child(3) td:first-child")
    page.wait_for_selector('body[data-selected="2"]', state="attached")
    assert page.locator("#pane-a-text mark").count() == 0
    assert "no row shares a 13-token sequence" in page.inner_text("#pane-b-title")


def test_controls_recompute(page):
    before = runs(page)
    page.click("#n-8")
    wait_for_run(page, before)
    assert "at n = 8" in page.inner_text("#headline")
    assert page.input_value("#n") == "8"
    assert "n=8" in page.url
    before = runs(page)
    page.fill("#threshold", "50")
    wait_for_run(page, before)
    assert page.inner_text("#headline").startswith("1 of 4 checkable rows have at least 50 percent")
    before = runs(page)
    page.click("#more-settings > summary")         # the folded matching settings
    page.check("#mode-strict")
    wait_for_run(page, before)
    assert page.is_disabled("#layer-L1")
    assert "Tokens split on whitespace only" in page.inner_text("#settings-line")
    assert page.inner_text("#layers-words") == ""           # strict: no layers to explain
    assert "mode=strict" in page.url


def test_shared_link_opens_with_its_settings(site):
    base, browser = site
    context = browser.new_context()
    page, watch = open_page(context, base, "?n=8&threshold=10&mode=loose&layers=L1,L2")
    assert page.input_value("#n") == "8" and page.input_value("#threshold") == "10"
    assert page.is_checked("#layer-L2") and not page.is_checked("#layer-L3")
    assert "at n = 8 and a 10 percent threshold" in page.inner_text("#headline")
    assert "normalized with L1+L2." in page.inner_text("#settings-line")
    assert page.inner_text("#layers-words") == (
        "L1+L2: lower-cased, accents stripped, in that order, token by token.")
    assert not watch.problems(page)
    context.close()


@pytest.mark.parametrize("a_file, b_file, expected", [
    ("contaminated.jsonl", "corpus.txt", [["t-2", "100.0%"], ["t-1", "84.2%"], ["t-5", "0.0%"]]),
    ("questions.json", "corpus.csv", [["q1", "72.7%"], ["q2", "0.0%"]]),   # title, context, question
])
def test_upload_formats(page, a_file, b_file, expected):
    load_pair(page, FIXTURES / a_file, FIXTURES / b_file)
    assert [row[:3:2] for row in table_rows(page)] == expected
    assert not page.is_visible("#example-note")
    assert page.inner_text("#a-name") == a_file and page.inner_text("#b-name") == b_file


def test_field_selection(page):
    load_pair(page, FIXTURES / "questions.json", FIXTURES / "corpus.csv")
    assert chosen(page, "#b-text-field") == ["body"]
    assert page.input_value("#b-id-field") == "doc_id"
    assert [r[0] for r in table_rows(page)] == ["q1", "q2"]
    before = runs(page)
    page.select_option("#a-id-field", "title")
    wait_for_run(page, before)
    assert [r[0] for r in table_rows(page)] == ["Fox", "Planets"]
    before = runs(page)
    page.select_option("#a-text-field", ["context", "question"])
    wait_for_run(page, before)
    assert "a_field=context" in page.url and "a_field=question" in page.url
    assert [r[1] for r in table_rows(page)] == ["22", "18"]


def test_downloaded_csv_equals_the_command(page, tmp_path):
    load_pair(page, FIXTURES / "contaminated.jsonl", FIXTURES / "corpus.csv")
    change(page, lambda: page.fill("#n", "9"))
    with page.expect_download() as info:
        page.click("#download-csv")
    # named after the files and the settings, not always ngram-overlap-n13.csv
    assert info.value.suggested_filename == "ngram-overlap_contaminated_vs_corpus_n9.csv"
    downloaded = (tmp_path / "page.csv")
    info.value.save_as(downloaded)
    a = load_rows([str(FIXTURES / "contaminated.jsonl")])
    b = load_rows([str(FIXTURES / "corpus.csv")])
    expected = run_check(a, b, Settings(n=9), b_files=RowFiles((0,), ("corpus.csv",))).csv()
    assert downloaded.read_bytes() == expected.encode("utf-8")
    assert list(csv.reader(io.StringIO(expected)))[1][1] in ("t-1", "t-2")


def test_over_the_bound_is_refused_and_the_last_result_kept(page):
    page.set_input_files("#file-b", files=[{"name": "huge.jsonl", "mimeType": "text/plain",
                                            "buffer": b"x" * 2_000_001}])
    page.wait_for_selector("#b-error:not(:empty)")
    message = page.inner_text("#b-error")
    assert "huge.jsonl" in message and "2,000,001 bytes" in message
    assert "2,000,000 bytes" in message and "1 byte over" in message
    assert "2.00 MB" not in message              # not "2.00 MB ... at most 2 MB"
    assert page.is_visible("#stale")
    assert page.inner_text("#stale") == (
        f"Out of date: file B, huge.jsonl, was refused: {message.rstrip('.')}. Showing your "
        f"last valid result; update the inputs below to recompute.")
    assert page.inner_text("#flagged-figure") == "66.7%"
    assert page.inner_text("#b-name") == "Refused: huge.jsonl"


def test_malformed_file_names_line_and_keeps_the_last_result(page):
    page.set_input_files("#file-a", str(FIXTURES / "malformed.jsonl"))
    page.wait_for_selector("#a-error:not(:empty)")
    assert "malformed.jsonl, line 2" in page.inner_text("#a-error")
    assert page.is_visible("#stale")
    assert page.inner_text("#flagged-figure") == "66.7%"
    # out-of-range n: message next to the input, result kept
    page.fill("#n", "40")
    page.wait_for_selector("#n-error:not(:empty)")
    assert "from 5 to 25" in page.inner_text("#n-error")
    assert table_rows(page)[0][0] == "a1"
    # good files bring the page back
    page.fill("#n", "13")
    load_pair(page, FIXTURES / "contaminated.jsonl", EXAMPLE_B)
    assert page.is_hidden("#stale") and page.inner_text("#a-error") == ""


def test_hostile_text_renders_as_text(page):
    hostile = (FIXTURES / "hostile.jsonl").read_bytes()
    load_pair(page, ("<img src=x onerror=alert(1)>.jsonl", hostile),
              FIXTURES / "contaminated.jsonl")
    assert page.evaluate("window.__pwned") is None
    assert page.locator("#result img, #result script, #inputs img").count() == 0
    assert "<img src=x onerror=alert(1)>" in [r[0] for r in table_rows(page)]
    assert page.inner_text("#a-name") == "<img src=x onerror=alert(1)>.jsonl"
    assert page.inner_text("#settings-line").startswith("<img src=x onerror=alert(1)>.jsonl")
    assert page.inner_text("#pane-a-title") .startswith("<img src=x onerror=alert(1)>.jsonl")
    assert "${window.__pwned=1}" in page.inner_text("#pane-a-text")
    page.click("#rows-table tbody tr:nth-child(2) td:first-child")
    page.wait_for_selector('body[data-selected="1"]', state="attached")
    assert "row <img src=x onerror=alert(1)> (" in page.inner_text("#pane-a-title")
    assert "<script>window.__pwned = 1</script>" in page.inner_text("#pane-a-text")
    assert page.evaluate("window.__pwned") is None


def test_hostile_text_inside_a_highlighted_span_stays_text(page):
    load_pair(page, FIXTURES / "hostile.jsonl", FIXTURES / "hostile-b.jsonl")
    ids = [r[0] for r in table_rows(page)]
    index = ids.index("in-the-span")
    page.click(f"#rows-table tbody tr:nth-child({index + 1}) td:first-child")
    page.wait_for_selector(f'body[data-selected="{index}"]', state="attached")
    marks = page.locator("#pane-a-text mark").all_inner_texts()
    assert any("<img src=x onerror=window.__pwned=1>" in m for m in marks)
    assert any("<script>window.__pwned=1</script>" in m
               for m in page.locator("#pane-b-text mark").all_inner_texts())
    assert "row <b>bold</b> (" in page.inner_text("#pane-b-title")
    assert page.locator("#result img, #result script, #result b").count() == 0
    assert page.evaluate("window.__pwned") is None


CONTRAST = """() => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const background = (el) => {
    for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const worst = [];
  for (const el of document.querySelectorAll("body *")) {
    if (!el.checkVisibility() || el.disabled || el.closest("[disabled]")) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const fg = lum(rgb(getComputedStyle(el).color).slice(0, 3)), bg = lum(background(el));
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    if (ratio < 4.5) worst.push(el.tagName + "#" + el.id + " " + ratio.toFixed(2));
  }
  return worst;
}"""


def test_accessible_labels_contrast_and_narrow_screens(page):
    unlabeled = page.evaluate("""() => [...document.querySelectorAll("input, select, button")]
        .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute("aria-label")
                        && !el.textContent.trim())
        .map((el) => el.id)""")
    assert unlabeled == []
    assert page.evaluate(CONTRAST) == []                       # WCAG AA: 4.5:1 for text
    page.set_viewport_size({"width": 375, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    # the focus ring stands out from the page: non-text contrast of at least 3:1
    page.focus("#download-csv")
    ring = page.evaluate("""() => {
      const el = document.activeElement, c = getComputedStyle(el).outlineColor;
      const [r, g, b] = (c.match(/[\\d.]+/g) || []).map(Number);
      const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
      const l = 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
      return (1.05) / (l + 0.05);
    }""")
    assert ring >= 3, ring
    # the table and the panes work from the keyboard alone
    page.focus("#rows-table tbody tr:nth-child(2) td:first-child")
    page.keyboard.press("Space")
    page.wait_for_selector('body[data-selected="1"]', state="attached")
    # on the phone the panes opened over the page, the way back first, then the panes
    assert page.evaluate("document.activeElement.id") == "panes-back"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "pane-a-text"
    assert page.get_attribute("#pane-a-text", "tabindex") == "0"


@pytest.mark.parametrize("width", [1280, 375])
def test_a_long_row_scrolls_in_its_pane_from_the_keyboard(page, width):
    """(#37) The scrolling text of a pane takes the focus, and the arrow keys scroll it,
    not the window (on a phone, the panes' own layer)."""
    page.set_viewport_size({"width": width, "height": 812})
    long_b = " ".join(f"Filler sentence {i} about rivers and stones." for i in range(300))
    rows = [{"id": "a1", "text": "In 1969 the Apollo 11 mission landed the first humans on "
                                 "the Moon and returned them safely home."}]
    load_pair(page, ("a.jsonl", "".join(json.dumps(r) + "\n" for r in rows).encode()),
              ("b.jsonl", (json.dumps({"id": "b1", "text": long_b + " In 1969 the Apollo 11 "
                                       "mission landed the first humans on the Moon and "
                                       "returned them safely home."}) + "\n").encode()))
    page.wait_for_selector('body[data-selected="0"]', state="attached")
    page.focus("#pane-b-text")
    window, top = page.evaluate("scrollY"), page.eval_on_selector("#pane-b-text", "e => e.scrollTop")
    page.keyboard.press("PageUp")
    page.wait_for_function(f"document.getElementById('pane-b-text').scrollTop < {top}")
    assert page.evaluate("scrollY") == window                  # the pane moved, the window not


def test_files_dropped_on_the_slots_are_read(page):
    drop(page, "a", [("dropped.txt", "In 1969 the Apollo 11 mission landed the first humans on "
                                     "the Moon and came back.\n")])
    assert page.inner_text("#a-name") == "dropped.txt" and page.is_visible("#b-needed")
    before = runs(page)
    drop(page, "b", [("one.txt", "Nothing in common here, only a line about tea.\n"),
                     ("two.txt", EXAMPLE_B.read_text())])       # several files on B
    wait_for_run(page, before)
    assert page.inner_text("#b-name") == "2 files"
    assert table_rows(page)[0][:3] == ["1", "16", "81.2%"]
    assert table_rows(page)[0][6] == "two.txt"


@pytest.mark.parametrize("held", [
    "**/app.py",                          # before the page's Python runs at all
    "**/static/examples/test-set.json",   # while it waits for the worked example
])
def test_files_picked_before_the_engine_is_ready_are_used(site, held):
    base, browser = site
    context = browser.new_context()
    page = context.new_page()
    routes = []                # the request is answered only once the file is picked
    page.route(held, lambda route: routes.append(route))
    with page.expect_request(held):
        page.goto(base + "/")
    if "examples" in held:     # the page's Python has started and waits for the example
        page.wait_for_selector("#definitions-about > *", state="attached", timeout=60_000)
    assert "Loading the Python engine" in page.inner_text("#engine-status")
    page.set_input_files("#file-a", str(FIXTURES / "contaminated.jsonl"))
    assert len(routes) == 1
    routes[0].continue_()
    page.wait_for_selector('body[data-ready="1"]', state="attached", timeout=60_000)
    wait_for_loads(page, 0)
    # the worked example is not loaded at all: slot B asks for a file
    assert page.inner_text("#a-name") == "contaminated.jsonl"
    assert page.is_visible("#b-needed") and page.inner_text("#b-name") == "\u2013"
    assert runs(page) == 0 and page.inner_text("#flagged-figure") == "\u2013"
    before = loads(page)
    page.set_input_files("#file-b", str(FIXTURES / "corpus.txt"))
    wait_for_loads(page, before)
    wait_for_run(page, 0)
    assert page.inner_text("#b-name") == "corpus.txt"
    assert page.is_hidden("#example-note")
    context.close()


@pytest.mark.parametrize("missing, named", [
    ("pyodide.asm.wasm*", "pyodide.asm.wasm"),   # gzipped and plain: no start is possible
    ("python-files.tar.gz", "Python files"),      # the page's own Python: no fallback
])
def test_a_runtime_that_fails_to_load_is_reported_on_the_page(site, missing, named):
    base, browser = site
    context = browser.new_context()
    page = context.new_page()
    page.route(f"**/{missing}", lambda route: route.fulfill(status=404, body="missing"))
    page.goto(base + "/")
    page.wait_for_selector("#page-error:not([hidden])", timeout=60_000)
    assert "could not start" in page.inner_text("#page-error")
    assert named in page.inner_text("#page-error")
    assert "did not start" in page.inner_text("#engine-status")
    context.close()


def test_a_long_check_can_be_cancelled(page):
    from benchmarks import pathological
    a, a_name, b, b_name = pathological.same_word_everywhere()
    put(page, "a", (a_name, a))
    before = runs(page)
    # press Cancel the moment the check starts (Playwright's own polling is slowed
    # by the busy page, and the check might end before it saw it start)
    page.evaluate("""() => new MutationObserver((changes, observer) => {
        if (document.body.dataset.busy === "1") {
            observer.disconnect();
            document.getElementById("cancel").click();
        }
    }).observe(document.body, {attributes: true, attributeFilter: ["data-busy"]})""")
    page.set_input_files("#file-b", files=[{"name": b_name, "mimeType": "text/plain",
                                            "buffer": b}])
    page.wait_for_selector("#stage:text('Cancelled.')", state="attached")
    page.wait_for_selector('body[data-busy="0"]', state="attached")
    assert runs(page) == before
    assert page.is_visible("#stale")
    assert page.inner_text("#flagged-figure") == "66.7%"    # the example's, never A against it


@pytest.mark.parametrize("width", [1280, 375])
def test_every_change_of_the_controls_says_what_moved(page, width):
    """(#37) A line under the figure says what a change moved, and that nothing did."""
    page.set_viewport_size({"width": width, "height": 812})
    assert page.is_hidden("#change-line")                     # the first check: nothing to compare
    change(page, lambda: page.fill("#n", "8"))
    figure = page.inner_text("#flagged-figure")
    assert figure != "66.7%"
    assert page.inner_text("#change-line").startswith(f"n 13 → 8: rows flagged 66.7% → {figure}")
    change(page, lambda: page.fill("#threshold", "1"))
    assert page.inner_text("#change-line") == (
        f"threshold 0% → 1%: nothing changed ({figure} of "
        f"{counted(page)['Rows checkable']} checkable rows flagged).")
    load_pair(page, FIXTURES / "contaminated.jsonl", FIXTURES / "corpus.txt")
    assert page.is_hidden("#change-line")                     # other files: no comparison


def test_the_matching_texts_sit_side_by_side_on_a_wide_screen(page):
    """(#37) The introduction's "side by side": at 1280 px the two panes share a line."""
    page.set_viewport_size({"width": 1280, "height": 800})
    a, b = (page.locator(f"#pane-{k}").bounding_box() for k in "ab")
    assert abs(a["y"] - b["y"]) < 1 and a["x"] + a["width"] <= b["x"]
    page.set_viewport_size({"width": 375, "height": 800})     # a phone: one above the other
    a, b = (page.locator(f"#pane-{k}").bounding_box() for k in "ab")
    assert a["y"] + a["height"] <= b["y"]
