"""The row explorer in real Chromium: every row of a 7,000-row test set reachable by
paging, kind, search and sort; the grid one Tab stop, walked with the arrow keys;
on a phone, a row's panes open next to it with a way back."""

from __future__ import annotations

import json
import random

import pytest

from browser import page, site  # noqa: F401 (fixtures)
from test_page_support import counted, load_pair, table_rows

WORDS = ("river stone light paper garden window letter silver market orange winter "
         "planet engine quiet forest bridge candle mirror yellow thunder").split()


def big_pair(rows: int = 7000):
    """A test set of ``rows`` rows (every 97th leaked into B, every 500th short) and B."""
    rng = random.Random(7)
    sentence = lambda k: " ".join(rng.choice(WORDS) for _ in range(k))  # noqa: E731
    a, b = [], []
    for i in range(rows):
        text = sentence(5 if i % 500 == 0 else 14 + i % 7)
        if i % 97 == 0 and i % 500:
            b.append({"id": f"b{len(b)}", "text": "Training: " + text + " end."})
        a.append({"id": f"q{i}", "question": text})
    b.extend({"id": f"b{len(b) + j}", "text": sentence(30)} for j in range(200))
    encode = lambda items: "".join(json.dumps(x) + "\n" for x in items).encode()  # noqa: E731
    return ("big-test.jsonl", encode(a)), ("train.jsonl", encode(b))


@pytest.fixture
def big(page):
    a, b = big_pair()
    load_pair(page, a, b, timeout=120_000)
    return page


def ids_on_page(page):
    return [r[0] for r in table_rows(page)]


def test_every_row_of_7000_is_reachable_by_paging_kind_search_and_sort(big):
    page = big
    page.select_option("#rows-show", "all")
    assert page.inner_text("#rows-count") == "Rows 1\u201350 of 7,000."
    seen = ids_on_page(page)
    while page.is_enabled("#rows-next"):
        page.click("#rows-next")
        page.wait_for_function(f"!document.querySelector('#rows-table tbody').innerText"
                               f".startsWith({json.dumps(seen[-50])})")
        seen.extend(ids_on_page(page))
    assert len(seen) == 7000 and set(seen) == {f"q{i}" for i in range(7000)}
    assert page.inner_text("#rows-page") == "Page 140 of 140"
    # each kind: as many rows as the run counted
    c = counted(page)
    page.select_option("#rows-show", "flagged")
    flagged = int(c["Rows flagged"].replace(",", ""))
    assert flagged > 0
    assert page.inner_text("#rows-count").endswith(f"of {flagged:,} (of 7,000 rows of file A).")
    assert all(r[-1] == "flagged" for r in page.eval_on_selector(
        "#rows-table tbody", "b => [...b.rows].map(r => [r.querySelector('.status').innerText])"))
    page.select_option("#rows-show", "unchecked")
    assert page.inner_text("#rows-count").endswith(
        f"of {int(c['Rows shorter than 13 tokens']):,} (of 7,000 rows of file A).")
    # search by id (or text): exactly the rows holding it
    page.select_option("#rows-show", "all")
    page.fill("#rows-search", "q6999")
    page.wait_for_function("document.querySelector('#rows-count').innerText.includes('of 1 ')")
    assert ids_on_page(page) == ["q6999"]
    page.wait_for_function("document.querySelector('#pane-figures').textContent"
                           ".startsWith('Row q6999: ')")                # the panes follow
    page.fill("#rows-search", "")
    # sort by a column, both ways; a click on its heading turns it round
    page.select_option("#rows-sort", "tokens:asc")
    tokens = [int(r[1]) for r in table_rows(page)]
    assert tokens == sorted(tokens) and tokens[0] == 5
    assert page.get_attribute("#rows-table th[data-sort='tokens']", "aria-sort") == "ascending"
    page.click("#rows-table th[data-sort='tokens']")
    assert page.get_attribute("#rows-table th[data-sort='tokens']", "aria-sort") == "descending"
    assert int(table_rows(page)[0][1]) == 20
    page.select_option("#rows-sort", "id:asc")
    assert ids_on_page(page)[:3] == ["q0", "q1", "q2"]            # q2 before q10


def test_the_grid_is_one_tab_stop_and_the_keys_walk_it(big):
    page = big
    assert page.locator("#rows-table [tabindex='0']").count() == 1
    page.focus("#rows-table tbody [tabindex='0']")
    page.keyboard.press("ArrowDown")
    page.wait_for_selector('body[data-selected="1"]', state="attached")
    focused = "document.activeElement.closest('tr').dataset.position"
    assert page.evaluate(focused) == "1"
    assert page.get_attribute("#rows-table tbody tr:nth-child(2)", "aria-selected") == "true"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.cellIndex") == 1
    page.keyboard.press("PageDown")                 # the next page, same column
    page.wait_for_selector('body[data-selected="50"]', state="attached")
    assert page.inner_text("#rows-page").startswith("Page 2 of ")
    assert page.evaluate("document.activeElement.cellIndex") == 1
    page.keyboard.press("Control+End")
    page.wait_for_selector('body[data-selected="99"]', state="attached")
    page.keyboard.press("PageUp")
    page.wait_for_selector('body[data-selected="0"]', state="attached")
    assert page.locator("#rows-table [tabindex='0']").count() == 1
    # the panes show the focused row's own figures
    row_id = table_rows(page)[0][0]
    assert page.inner_text("#pane-figures").startswith(f"Row {row_id}: ")
    assert page.inner_text("#pane-a-title").startswith(f"big-test.jsonl, row {row_id} ")
    # Tab leaves the grid at once, to the control after it
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#rows-table')") is None


def test_on_a_phone_a_row_opens_its_panes_next_to_it_with_a_way_back(page):
    page.set_viewport_size({"width": 375, "height": 812})
    row = "#rows-table tbody tr:nth-child(2)"
    page.locator(row).scroll_into_view_if_needed()
    page.click(f"{row} td:first-child")
    page.wait_for_selector('body[data-selected="1"]', state="attached")
    box = page.locator("#pane-a-text").bounding_box()
    assert 0 <= box["y"] < 812                                       # in view at once
    assert "open" in page.get_attribute("#panes", "class")
    assert page.evaluate("document.activeElement.id") == "panes-back"
    assert page.inner_text("#pane-figures").startswith("Row a2: 40 tokens, 32.5% dirty")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.click("#panes-back")
    assert "open" not in (page.get_attribute("#panes", "class") or "")
    assert page.evaluate("document.activeElement.closest('tr').dataset.position") == "1"
    box = page.locator(row).bounding_box()
    assert 0 <= box["y"] < 812                                       # back at the row
    # Enter opens them from the keyboard, Escape closes them
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('#panes').classList.contains('open')")
    page.keyboard.press("Escape")
    page.wait_for_function("!document.querySelector('#panes').classList.contains('open')")


def test_on_a_phone_the_next_page_opens_at_its_first_rows(big):
    """(#37) Next page from the pager below the table: the new page's first row is in
    the window, not a page's height above it."""
    page = big
    page.set_viewport_size({"width": 375, "height": 812})
    page.locator("#rows-next").scroll_into_view_if_needed()
    first = ids_on_page(page)[0]
    page.click("#rows-next")
    page.wait_for_function(f"!document.querySelector('#rows-table tbody').innerText"
                           f".startsWith({json.dumps(first)})")
    box = page.locator("#rows-table tbody tr:first-child").bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 812


@pytest.mark.parametrize("width", [1280, 375])
def test_end_and_ctrl_end_move_the_focus_and_the_panes_together(site, width):
    """(#45) In the default view (the "Dirty under" column hidden), End goes to the row's
    last shown cell and Ctrl+End to the page's last row: the focus and the row the
    panes show stay together."""
    from browser import open_page
    from test_page_support import real_size_files

    files = real_size_files()
    base, browser = site
    context = browser.new_context(viewport={"width": width, "height": 812})
    page, watch = open_page(context, base)
    load_pair(page, ("mc_dev.jsonl", files["mc_dev.jsonl"]),
              [("train_web.jsonl", files["train_web.jsonl"])])
    page.focus("#rows-table tbody [tabindex='0']")
    page.keyboard.press("End")
    focused = """() => { const e = document.activeElement, row = e.closest('tr');
        return row && [row.dataset.position, e.cellIndex, e.getClientRects().length > 0,
                       [...row.cells].filter((c) => c.getClientRects().length).pop()
                       === e]; }"""
    assert page.evaluate(focused) == ["0", 6, True, True]          # Status, the last shown
    page.keyboard.press("Control+End")
    page.wait_for_selector('body[data-selected="49"]', state="attached")
    assert page.evaluate(focused)[0] == "49"
    page.keyboard.press("Control+Home")
    page.wait_for_selector('body[data-selected="0"]', state="attached")
    assert page.evaluate(focused)[:2] == ["0", 0]
    assert not watch.problems(page)
    context.close()
