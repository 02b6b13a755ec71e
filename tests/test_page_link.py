"""A link is a check to repeat (#37): it names the files it was made with (in its
fragment, which no request carries), and opened without them the page shows no
figure as a result: it asks for them by name, with the link's settings in place,
and once they are picked the link's check is drawn. Real Chromium, both widths."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from browser import open_page, site  # noqa: F401 (fixture)
from conftest import FIXTURES
from test_page_support import load_pair, table_rows


@pytest.mark.parametrize("width", [1280, 375])
def test_a_link_opened_without_its_files_asks_for_them_and_shows_no_figure(site, width):
    base, browser = site
    # a check made on the page: its link names the files and the settings
    maker = browser.new_context(viewport={"width": width, "height": 812})
    page, watch = open_page(maker, base, "?n=8&threshold=0&mode=loose")
    load_pair(page, FIXTURES / "contaminated.jsonl", FIXTURES / "corpus.txt")
    figure = page.inner_text("#flagged-figure")
    assert urlparse(page.url).fragment == "a_file=contaminated.jsonl&b_file=corpus.txt"
    # the view: sorted by tokens, ascending, the second row open
    page.select_option("#rows-sort", "tokens:asc")
    page.wait_for_selector('body[data-selected="0"]', state="attached")
    page.click("#rows-table tbody tr:nth-child(2) td:nth-child(2)")
    page.wait_for_selector('body[data-selected="1"]', state="attached")
    listed = table_rows(page)
    link = urlparse(page.url)
    assert link.fragment.startswith("a_file=contaminated.jsonl&b_file=corpus.txt&sort=tokens%3Aasc&row=")
    assert "n=8" in link.query and not watch.problems(page)
    maker.close()
    # a colleague opens it in a fresh browser: no figure, the files asked for by name
    fresh = browser.new_context(viewport={"width": width, "height": 812})
    page, watch = open_page(fresh, base, f"?{link.query}#{link.fragment}", example=False)
    assert page.get_attribute("body", "data-asked") == "files"
    assert page.inner_text("#flagged-figure") == "\u2013"
    headline = page.inner_text("#headline")
    assert "file A contaminated.jsonl and file B corpus.txt" in headline
    assert "Pick the same files" in headline
    assert not page.is_visible("#example-note")
    assert page.input_value("#n") == "8"                       # the link's settings
    assert page.inner_text("#a-name") == "\u2013" and page.is_disabled("#copy-link")
    assert page.get_attribute("body", "data-runs") == "0"      # nothing was checked
    # the same files picked: the link's check, the same figure
    load_pair(page, FIXTURES / "contaminated.jsonl", FIXTURES / "corpus.txt")
    assert page.inner_text("#flagged-figure") == figure
    assert "at n = 8" in page.inner_text("#headline")
    # and the same view: the sort, the rows in that order, the same row open
    page.wait_for_selector('body[data-selected="1"]', state="attached")
    assert page.input_value("#rows-sort") == "tokens:asc" and table_rows(page) == listed
    assert urlparse(page.url).fragment == link.fragment
    # no request carried a file's name: the fragment never leaves the tab
    for request in watch.requests:
        assert "contaminated" not in request.url and "corpus.txt" not in request.url
    assert not watch.problems(page)
    fresh.close()


def test_the_worked_example_names_no_files_in_its_link(site):
    base, browser = site
    context = browser.new_context()
    page, watch = open_page(context, base)
    assert page.inner_text("#flagged-figure") == "66.7%"
    assert urlparse(page.url).fragment == ""
    assert page.get_attribute("body", "data-asked") is None
    assert not watch.problems(page)
    context.close()


@pytest.mark.parametrize("width", [1280, 375])
def test_a_link_knows_its_test_set_by_name_and_names_other_files(site, width):
    """(#45) A link made with several test sets, the second shown, opened with the same
    files picked in another order, shows that test set; opened with other files, it
    names them above the first figure (and in the bar) and does not apply its view."""
    from test_page_support import PAGE_FIXTURES, put
    from browser import runs, wait_for_run

    evals = [FIXTURES / "contaminated.jsonl", PAGE_FIXTURES / "squad.json",
             PAGE_FIXTURES / "prompts.jsonl"]
    train = [FIXTURES / "corpus.txt", PAGE_FIXTURES / "squad-corpus.jsonl"]
    base, browser = site
    fragment = ("a_file=squad.json&a_file=contaminated.jsonl&a_file=prompts.jsonl"
                "&b_file=corpus.txt&b_file=squad-corpus.jsonl&sort=tokens%3Aasc")
    context = browser.new_context(viewport={"width": width, "height": 812})
    page, watch = open_page(context, base, f"?n=13&threshold=0&mode=loose#{fragment}",
                            example=False)
    assert page.inner_text("#a-needed") == ("Pick file A as the link asks: squad.json, "
                                            "contaminated.jsonl, prompts.jsonl.")
    before = runs(page)
    put(page, "a", evals[2], evals[0], evals[1])         # squad.json picked last
    put(page, "b", *train)
    wait_for_run(page, before)
    page.wait_for_function("document.body.dataset.suite === '3'"
                           " && document.body.dataset.busy === '0'")
    assert page.inner_text("#a-name") == "squad.json"
    assert page.get_attribute("#suite-table button[data-eval='2']", "aria-pressed") == "true"
    assert page.input_value("#rows-sort") == "tokens:asc"
    assert page.is_hidden("#link-notice")
    assert urlparse(page.url).fragment.startswith("a_file=squad.json&")
    assert not watch.problems(page)
    context.close()
    # other files than the link names: named above the first figure, its view not applied
    context = browser.new_context(viewport={"width": width, "height": 812})
    page, watch = open_page(context, base, f"?n=13&threshold=0&mode=loose#{fragment}",
                            example=False)
    load_pair(page, PAGE_FIXTURES / "arc.jsonl", train)
    notice = page.inner_text("#link-notice")
    assert notice.startswith("This link was made with file A squad.json, contaminated.jsonl, "
                             "prompts.jsonl; you picked arc.jsonl.")
    assert page.evaluate("""() => document.getElementById('link-notice')
        .compareDocumentPosition(document.getElementById('flagged-figure'))
        & Node.DOCUMENT_POSITION_FOLLOWING""")
    assert page.input_value("#rows-sort") != "tokens:asc"
    assert not watch.problems(page)
    context.close()


def test_links_within_the_page_keep_the_link_s_files(site):
    """"Skip to the files and settings" and "How?" move the view and the focus; the
    address keeps its fragment (the files' names), so "Copy link" still copies a link
    naming them, and reloading asks for the same files."""
    base, browser = site
    context = browser.new_context(viewport={"width": 1280, "height": 812})
    page, watch = open_page(context, base, "?n=8&threshold=0&mode=loose")
    load_pair(page, FIXTURES / "contaminated.jsonl", FIXTURES / "corpus.txt")
    fragment = urlparse(page.url).fragment
    assert fragment.startswith("a_file=contaminated.jsonl&b_file=corpus.txt")
    page.focus("a.skip")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement.id === 'inputs'")
    page.click("a[href='#method']")
    page.wait_for_function("document.activeElement.id === 'method'")
    assert urlparse(page.url).fragment == fragment
    assert 0 <= page.evaluate("document.getElementById('method').getBoundingClientRect().top")\
        < page.evaluate("innerHeight")                                    # in view
    assert not watch.problems(page)
    context.close()


def test_a_link_whose_test_set_shares_its_name_says_it_cannot_tell_them_apart(site):
    """Two test sets named test.jsonl (mmlu/test.jsonl and arc/test.jsonl): the table
    tells them apart by their place, and a link showing the second, opened with both
    picked, says that it names files by name only instead of showing the first as if
    it were the link's check."""
    import json
    from test_page_support import put
    from browser import runs, wait_for_run

    def rows(prefix, count):
        return "".join(json.dumps({"id": f"{prefix}{i}", "question": f"{prefix} question {i} "
                                   "about the river and the mill near the old town square "
                                   "where the farmers sell their grain"}) + "\n"
                       for i in range(count)).encode()
    first, second = ("test.jsonl", rows("m", 10)), ("test.jsonl", rows("k", 6))
    train = ("train.jsonl", "".join(json.dumps({"text": "intro k question 0 about the river "
                                                "and the mill near the old town square where "
                                                "the farmers sell their grain"}) + "\n"
                                    for _ in range(2)).encode())
    base, browser = site
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page, watch = open_page(context, base, example=False)
    before = runs(page)
    put(page, "a", first, second)
    put(page, "b", train)
    wait_for_run(page, before)
    page.wait_for_function("document.body.dataset.suite === '2'"
                           " && document.body.dataset.busy === '0'")
    names = page.eval_on_selector_all("#suite-table tbody tr td:first-child",
                                      "cs => cs.map((c) => c.innerText.trim())")
    assert names == ["test.jsonl (1 of 2)", "test.jsonl (2 of 2)"]
    before = runs(page)
    page.click("#suite-table button[data-eval='1']")
    wait_for_run(page, before)
    page.wait_for_function("document.body.dataset.busy === '0'")
    link = page.url
    context.close()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page, watch = open_page(context, base, "?" + link.split("?", 1)[1], example=False)
    before = runs(page)
    put(page, "a", first, second)
    put(page, "b", train)
    wait_for_run(page, before)
    page.wait_for_function("document.body.dataset.busy === '0'")
    notice = page.inner_text("#link-notice")
    assert notice.startswith("This link shows the test set test.jsonl, and 2 of the test sets "
                             "you picked are named so"), notice
    assert not watch.problems(page)
    context.close()


def test_a_link_naming_no_layer_says_so_and_keeps_the_layers(site):
    """``layers=L9`` (a typo) neither unticks every layer silently nor changes the
    figure: the layers stay as they are, and the layers' box says what the link named."""
    base, browser = site
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page, watch = open_page(context, base, "?n=13&threshold=0&mode=loose&layers=L9")
    assert page.inner_text("#flagged-figure") == "66.7%"
    assert [page.is_checked(f"#layer-L{i}") for i in range(1, 5)] == [True, False, True, True]
    assert page.inner_text("#layers-error").startswith("This link names the layer L9, which "
                                                       "is none of L1, L2, L3, L4")
    assert not watch.problems(page)
    context.close()
