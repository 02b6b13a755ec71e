"""Every table at 356 px (#45): on a 375 px phone, with a 1,200-row multiple-choice
set, two training files and three test sets (one broken), no element is wider than
the window, no table cell cuts its text, and file names break at their parts; a
row tapped shows its text, its shared part marked, within the screen. Real
Chromium on a touch screen."""

from __future__ import annotations

from browser import open_page, site  # noqa: F401 (fixture)
from test_page_a11y import assert_no_axe_violation
from test_page_support import counted, load_real_size_suite

#: Elements past the window's sides, and table cells whose text is cut (wider than
#: the cell, or a cell wider than its table's box), at most 20 of each.
OVERFLOWS = """() => {
  const width = document.documentElement.clientWidth, out = [];
  // a table's headings kept for screen readers only, while its rows are cards
  const offscreen = (e) => { const head = e.closest('thead');
    return head && getComputedStyle(head).clipPath === 'inset(50%)'; };
  const name = (e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className} `
    + `"${(e.innerText || '').slice(0, 30)}"`;
  for (const e of document.querySelectorAll('body *')) {
    const r = e.getBoundingClientRect();
    if (!r.width || !r.height || e.closest('.skip') || offscreen(e)) continue;
    if (r.left < -1 || r.right > width + 1) out.push(`past the window: ${name(e)} `
        + `${Math.round(r.left)}..${Math.round(r.right)}`);
  }
  for (const e of document.querySelectorAll('td, th')) {
    if (!e.getBoundingClientRect().width || offscreen(e)) continue;
    if (e.scrollWidth > e.clientWidth + 1) out.push(`cut: ${name(e)}`);
  }
  return [document.documentElement.scrollWidth, out.slice(0, 40)];
}"""


def test_every_table_fits_a_phone_with_real_size_files(site):
    base, browser = site
    context = browser.new_context(viewport={"width": 375, "height": 812}, has_touch=True,
                                  is_mobile=True)
    page, watch = open_page(context, base)
    load_real_size_suite(page)
    assert page.inner_text("#rows-count").startswith("Rows 1\u201350 of 1,200")
    assert counted(page)["Rows checkable"] == "1,200"       # as every other count: 1,200
    # a test set refused: the kept figure is out of date, said right above it
    gap = page.evaluate("""() => { const s = document.getElementById('stale')
        .getBoundingClientRect(), f = document.getElementById('flagged-figure')
        .getBoundingClientRect(); return Math.max(f.top - s.bottom, s.top - f.bottom); }""")
    assert page.is_visible("#stale") and gap < 40, gap
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    scroll_width, overflows = page.evaluate(OVERFLOWS)
    assert overflows == [], "\n".join(overflows)
    assert scroll_width <= 375
    # every row of A shown, the flagged ones first: the B file column too
    page.select_option("#rows-show", "all")
    page.wait_for_function("document.querySelector('#rows-count').innerText.includes('1,200')")
    scroll_width, overflows = page.evaluate(OVERFLOWS)
    assert overflows == [], "\n".join(overflows)
    assert scroll_width <= 375
    assert_no_axe_violation(page)
    # a row tapped: its A text, with the first passage it shares, within one screen
    # (2,098 px below the window, before)
    first = "#rows-table tbody tr:first-child td:first-child"
    page.locator(first).scroll_into_view_if_needed()
    row_id = page.inner_text(first).strip()
    page.tap(first)
    page.wait_for_function("document.getElementById('panes').classList.contains('open')")
    assert page.inner_text("#pane-a-title").startswith(f"mc_dev.jsonl, row {row_id}")
    in_screen = """e => { const r = e.getBoundingClientRect();
        return r.top >= 0 && r.top < window.innerHeight && r.height > 0; }"""
    assert page.eval_on_selector("#pane-a-text", in_screen)
    assert page.eval_on_selector("#pane-a-text mark", in_screen)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert not watch.problems(page)
    context.close()


def test_long_names_and_ids_fit_a_small_phone(site):
    """A long file name, field name and id (no space to break at) wrap or are cut
    short on a 320 px phone: nothing is wider than the window, and a 10,000-character
    id does not make a card thousands of pixels tall."""
    import json
    from test_page_support import put
    from browser import runs, wait_for_run

    text = ("the quick brown fox jumps over the lazy dog near the quiet river bank at dawn "
            "while the old miller counts his sacks of grain")
    field = "question_stem_with_supporting_context_and_more_words"
    a = "".join(json.dumps({"id": ("x" * 10000 if i == 0 else f"q{i}"),
                            field: f"{text} {i}"}) + "\n" for i in range(6)).encode()
    b = "".join(json.dumps({"id": "b" * 10000, "text": f"intro {text} {i}"}) + "\n"
                for i in range(3)).encode()
    base, browser = site
    context = browser.new_context(viewport={"width": 320, "height": 640}, has_touch=True,
                                  is_mobile=True)
    page, watch = open_page(context, base)
    put(page, "a", ("mmlu_high_school_macroeconomics_test_with_supporting_context.jsonl", a))
    before = runs(page)
    put(page, "b", ("common_crawl_2024_snapshot_part_00017_of_01024_deduplicated.jsonl", b))
    wait_for_run(page, before)
    page.wait_for_function("document.body.dataset.busy === '0'")
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    page.select_option("#rows-show", "all")
    scroll_width, overflows = page.evaluate(OVERFLOWS)
    assert overflows == [], "\n".join(overflows)
    assert scroll_width <= 320
    assert page.locator("#rows-table tbody tr").count() == 6
    tallest = page.evaluate("Math.max(...[...document.querySelectorAll('#rows-table tbody tr')]"
                            ".map(r => r.getBoundingClientRect().height))")
    assert tallest < 640, tallest
    # a click between a card's values (on the row, no cell) opens its panes too
    gap = page.evaluate("""() => { const tr = document.querySelector('#rows-table tbody tr');
        tr.scrollIntoView({block: 'center'}); const r = tr.getBoundingClientRect();
        for (let y = r.top + 2; y < r.bottom - 2; y += 2)
            for (let x = r.left + 2; x < r.right - 2; x += 2)
                if (document.elementFromPoint(x, y) === tr) return [x, y];
        return null; }""")
    assert gap is not None
    page.mouse.click(*gap)
    page.wait_for_function("document.getElementById('panes').classList.contains('open')")
    assert len(page.inner_text("#pane-figures")) < 400
    assert page.evaluate("document.getElementById('pane-a-text').getBoundingClientRect().top") \
        < 640                                                    # its text in the first screen
    assert not watch.problems(page)
    context.close()


def test_a_refused_test_set_with_a_long_name_fits_a_small_phone(site):
    """A test set refused among others, its name one long word of underscores: its
    refusal, the table's line and the out-of-date mark break it, and the page is no
    wider than a 320 px phone."""
    from test_page_support import PAGE_FIXTURES, put
    from browser import runs, wait_for_run
    from conftest import FIXTURES

    base, browser = site
    context = browser.new_context(viewport={"width": 320, "height": 640}, has_touch=True,
                                  is_mobile=True)
    page, watch = open_page(context, base)
    before = runs(page)
    put(page, "a", PAGE_FIXTURES / "arc.jsonl",
        ("mmlu_high_school_european_history_test_with_supporting_context.jsonl", b"{bad\n"))
    put(page, "b", FIXTURES / "corpus.txt")
    wait_for_run(page, before)
    page.wait_for_function("document.body.dataset.busy === '0'")
    assert page.is_visible("#a-refused") and page.is_visible("#stale")
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    scroll_width, overflows = page.evaluate(OVERFLOWS)
    assert overflows == [], "\n".join(overflows)
    assert scroll_width <= 320
    assert not watch.problems(page)
    context.close()
