"""Reviewing matches (#37): the passages most shared with file B list a licence line
before the leak; each shows the rows holding it in the explorer, and leaving one out
gives the command's bytes with that passage left out; the link keeps it and the
copied command line carries it. Real Chromium, both widths."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest

from browser import open_page, runs, site, wait_for_run  # noqa: F401 (fixture)
from test_page_a11y import assert_no_axe_violation
from ngram_page.text import shorten
from test_page_support import (PAGE_FIXTURES, command, download, load_pair, real_size_files,
                               table_rows)

A, B = PAGE_FIXTURES / "licensed-questions.jsonl", PAGE_FIXTURES / "licensed-pages.jsonl"
LICENCE = ("Licensed under the Creative Commons Attribution Share Alike licence, version four "
           "point zero")
#: (#45) the passage listed: the whole run of text A's rows share with B, not a window of it
LICENCE_RUN = LICENCE + ", international"


def review_rows(page):
    return page.eval_on_selector("#review-table tbody", """body => [...body.rows].map(
        (row) => [...row.cells].slice(0, 3).map((c) => c.innerText.trim()))""")


@pytest.mark.parametrize("width", [1280, 375])
def test_a_licence_line_is_seen_first_shown_and_left_out_as_the_command_does(
        site, width, tmp_path):
    base, browser = site
    context = browser.new_context(viewport={"width": width, "height": 812})
    page, watch = open_page(context, base)
    load_pair(page, A, B)
    assert page.inner_text("#flagged-figure") == "100.0%"          # the licence, everywhere
    page.click("#review-summary")
    listed = review_rows(page)
    assert listed[0] == [LICENCE_RUN, "6", "8"]        # the most rows of A first
    assert any(row[0].startswith("The committee met") and row[1:] == ["1", "1"]
               for row in listed)                                   # the leak: one row
    assert_no_axe_violation(page)
    # the rows holding it, in the explorer
    page.click("#review-table tbody tr:first-child button[data-show]")
    assert page.input_value("#rows-show") == "holding"
    assert sorted(r[0] for r in table_rows(page)) == ["q1", "q2", "q3", "q4", "q5", "q6"]
    # left out: checked again without it; the same bytes as the command's
    before = runs(page)
    page.click("#review-table tbody tr:first-child button[data-leave]")
    wait_for_run(page, before)
    page.wait_for_function("document.body.dataset.busy === '0'")
    assert page.inner_text("#flagged-figure") == "16.7%"            # the leak alone
    assert page.input_value("#rows-show") == "checkable"            # the old rows' filter goes
    assert page.inner_text("#left-out-list").startswith(LICENCE_RUN)
    assert f"--leave-out-text '{LICENCE_RUN}'" in page.inner_text("#command-line")
    assert parse_qs(urlparse(page.url).query)["leave_out"] == [LICENCE_RUN]
    _, csv_bytes, rows_bytes = command([A.name, B.name, "--leave-out-text", LICENCE_RUN], tmp_path)
    assert download(page, "#download-csv", tmp_path)[1] == csv_bytes
    assert download(page, "#download-rows-csv", tmp_path)[1] == rows_bytes
    assert "Left out as asked: 1 passage, found in 6 rows of A." in \
        page.inner_text("#settings-line")
    assert_no_axe_violation(page)
    # put back: the first figure again
    before = runs(page)
    page.click("#left-out-list button")
    wait_for_run(page, before)
    assert page.inner_text("#flagged-figure") == "100.0%"
    assert "leave_out" not in urlparse(page.url).query
    assert not watch.problems(page)
    context.close()


def test_a_link_with_a_passage_left_out_opens_with_it_left_out(site):
    base, browser = site
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    query = "?" + "&".join(["n=13", "threshold=0", "mode=loose",
                            "leave_out=" + LICENCE.replace(" ", "+").replace(",", "%2C")])
    page, watch = open_page(context, base, query, example=False)
    load_pair(page, A, B)
    assert page.inner_text("#flagged-figure") == "16.7%"
    page.click("#review-summary")
    assert page.inner_text("#left-out-list").startswith(LICENCE)
    assert not watch.problems(page)
    context.close()


@pytest.mark.parametrize("width", [1280, 375])
def test_the_review_lists_distinct_passages_and_pages_past_ten(site, width):
    """(#45) On a 1,200-row multiple-choice set with 120 questions leaked into two
    training files: each entry is a different text (no two share an n-token window:
    the windows of one sentence are one passage), and the list pages past ten."""
    files = real_size_files()
    base, browser = site
    context = browser.new_context(viewport={"width": width, "height": 812})
    page, watch = open_page(context, base)
    load_pair(page, ("mc_dev.jsonl", files["mc_dev.jsonl"]),
              [(name, files[name]) for name in ("train_web.jsonl", "train_books.jsonl")])
    page.wait_for_function("document.body.dataset.reviewed === '120'")
    page.click("#review-summary")

    def shown():
        return page.eval_on_selector("#review-table tbody", """body => [...body.rows]
            .filter((row) => !row.hidden).map((row) => row.cells[0].innerText.trim())""")

    first = shown()
    assert len(first) == 10
    assert page.inner_text("#review-status").startswith("The 120 passages of A found in file B")
    page.click("#review-more")
    listed = shown()
    assert len(listed) == 20 and listed[:10] == first
    assert page.evaluate("""() => document.activeElement.closest('tr')
        === document.querySelector('#review-table tbody').rows[10]""")
    windows = [{tuple(text.split()[i:i + 13]) for i in range(len(text.split()) - 12)}
               for text in listed]
    assert all(windows)
    for i, one in enumerate(windows):            # pairwise: no window shared
        for other in windows[i + 1:]:
            assert not one & other
    for _ in range(11):
        if page.is_hidden("#review-more"):
            break
        page.click("#review-more")
    assert len(shown()) == 120 and page.is_hidden("#review-more")
    assert_no_axe_violation(page)
    assert not watch.problems(page)
    context.close()


IN_VIEW = """() => { const shown = (id) => { const e = document.getElementById(id);
    if (!e || e.closest('[hidden]')) return null; const r = e.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight ? e.innerText : null; };
  return shown('bar-change') || shown('change-line'); }"""


@pytest.mark.parametrize("width", [1280, 375])
def test_the_change_is_told_in_view_and_nothing_changed_only_for_equal_bytes(
        site, width, tmp_path):
    """(#45) After each change of a control, made where the control is (the verdict
    out of view), what moved is in view; "nothing changed" exactly when the rows CSV's
    bytes are equal (a passage left out that keeps every flag still moves a row's
    dirty share); a threshold typed in several runs, then left, keeps its line."""
    base, browser = site
    context = browser.new_context(viewport={"width": width, "height": 812},
                                  accept_downloads=True)
    page, watch = open_page(context, base)
    load_pair(page, A, B)
    page.click("#review-summary")
    before_bytes = download(page, "#download-rows-csv", tmp_path)[1]
    saw = []

    def changed(action):
        nonlocal before_bytes
        before = runs(page)
        action()
        wait_for_run(page, before)
        page.wait_for_function("document.body.dataset.busy === '0'")
        line = page.evaluate(IN_VIEW)
        assert line, "the change line is not in view"
        after_bytes = download(page, "#download-rows-csv", tmp_path)[1]
        assert ("nothing changed" in line) == (after_bytes == before_bytes), line
        before_bytes = after_bytes
        saw.append(line)
        return line

    page.eval_on_selector("#threshold", "e => e.scrollIntoView({block: 'center'})")
    line = changed(lambda: (page.fill("#threshold", "1"), page.keyboard.press("Tab")))
    assert line.startswith("threshold 0% → 1%: nothing changed")
    # the leak left out: the row stays flagged (the licence), its dirty share falls
    leak = page.eval_on_selector("#review-table tbody", """body => [...body.rows].findIndex(
        (row) => row.cells[0].innerText.includes('The committee met'))""")
    assert leak > 0
    line = changed(lambda: page.click(
        f"#review-table tbody tr:nth-child({leak + 1}) button[data-leave]"))
    assert line.startswith("passages left out 0 → 1: rows flagged unchanged (100.0%); "
                           "dirty tokens ") and line.endswith("the figures of 1 row changed.")
    # a threshold typed a key at a time, each a run, then left (a run more, nothing moved)
    page.eval_on_selector("#threshold", "e => e.scrollIntoView({block: 'center'})")
    page.click("#threshold", click_count=3)
    for key in "25":                               # the focus stays in the field
        before = runs(page)
        page.keyboard.type(key)
        wait_for_run(page, before)
        page.wait_for_function("document.body.dataset.busy === '0'")
        typed = page.evaluate(IN_VIEW)
        assert typed and typed.startswith(f"threshold {'1% → 2%' if key == '2' else '2% → 25%'}")
    before = runs(page)
    page.keyboard.press("Tab")                     # the change event: the same settings again
    wait_for_run(page, before)
    page.wait_for_function("document.body.dataset.busy === '0'")
    assert page.evaluate(IN_VIEW) == typed         # held, not hidden
    # a value out of range: no line from before beside its message
    page.fill("#n", "3")
    page.wait_for_function("document.body.dataset.stale === '1'")
    assert page.is_hidden("#change-line") and page.is_hidden("#bar-change")
    assert not watch.problems(page)
    context.close()


@pytest.mark.parametrize("width", [1280, 375])
def test_after_leave_out_and_put_back_the_focus_stays_on_the_passage(site, width):
    """(#45) The button pressed is gone once the list is drawn again: after Leave out the
    focus is on the passage's Put back, after Put back on its Leave out again, never
    on the page's body."""
    base, browser = site
    context = browser.new_context(viewport={"width": width, "height": 812})
    page, watch = open_page(context, base)
    load_pair(page, A, B)
    page.click("#review-summary")
    before = runs(page)
    page.focus("#review-table tbody tr:first-child button[data-leave]")
    page.keyboard.press("Enter")
    wait_for_run(page, before)
    page.wait_for_function("document.body.dataset.busy === '0'")
    label = "document.activeElement.getAttribute('aria-label')"
    assert page.evaluate(label) == f"Put back: {shorten(LICENCE_RUN, 60)}"
    before = runs(page)
    page.keyboard.press("Enter")
    wait_for_run(page, before)
    page.wait_for_function("document.body.dataset.busy === '0'")
    assert page.evaluate(label) == f"Leave out: {shorten(LICENCE_RUN, 60)}"
    assert not watch.problems(page)
    context.close()
