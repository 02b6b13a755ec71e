"""Several test sets in slot A (#35): the page's table of each one against file B is
what `ngram-overlap decontaminate` finds on the same files, and picking one shows
its check as a single test set's. Real Chromium, both widths."""

from __future__ import annotations

import io
import json
from urllib.parse import urlparse

import pytest

from browser import open_page, runs, site, wait_for_run  # noqa: F401 (fixture)
from conftest import FIXTURES
from test_page_a11y import assert_no_axe_violation
from test_page_support import PAGE_FIXTURES, put, real_size_files

from ngram_core.decontaminate import main as decontaminate_main
from ngram_core.report.summary import percent
from ngram_page.suite_view import holding_text

EVALS = [FIXTURES / "contaminated.jsonl", PAGE_FIXTURES / "squad.json",
         PAGE_FIXTURES / "prompts.jsonl"]
TRAIN = [FIXTURES / "corpus.txt", PAGE_FIXTURES / "squad-corpus.jsonl"]


def suite_cells(page):
    return page.eval_on_selector("#suite-table tbody", """body => [...body.rows].map(
        (row) => [...row.cells].map((c) => c.innerText.trim()))""")


def the_command(tmp_path) -> dict:
    out, err = io.StringIO(), io.StringIO()
    assert decontaminate_main(["--evals", *map(str, EVALS), "--train", *map(str, TRAIN),
                               "--out", str(tmp_path / "cleaned"), "--json"], out, err) == 0, \
        err.getvalue()
    return json.loads(out.getvalue())


@pytest.mark.parametrize("width", [1280, 375])
def test_several_test_sets_give_the_commands_table_and_each_opens_its_own_check(
        site, width, tmp_path):
    base, browser = site
    context = browser.new_context(viewport={"width": width, "height": 812})
    page, watch = open_page(context, base)
    assert page.is_hidden("#suite")                    # one test set: no table
    before = runs(page)
    put(page, "a", *EVALS)
    put(page, "b", *TRAIN)
    wait_for_run(page, before)
    page.wait_for_function("document.body.dataset.suite === '3'"
                           " && document.body.dataset.busy === '0'")
    report = the_command(tmp_path)
    holding = {(f["eval"], f["training"]): f["training_rows"] for f in report["found"]}
    expected = [[path.name, f"{e['rows']:,}", f"{e['checkable']:,}", f"{e['flagged']:,}",
                 percent(e["flagged_share"]), f"{e['contained']:,}", f"{e['rephrased']:,}",
                 holding_text(tuple(holding[e["file"], str(t)] for t in TRAIN),
                              tuple(t.name for t in TRAIN))]
                for path, e in zip(EVALS, report["evals"])]
    assert suite_cells(page) == expected
    assert [row[3] for row in expected] == ["2", "2", "0"]       # the fixture's leaks
    assert page.inner_text("#suite-status").startswith("2 of 3 test sets have rows found")
    # the first test set is shown below as its own check: the table's figure
    assert page.inner_text("#a-name") == "contaminated.jsonl"
    assert page.inner_text("#flagged-figure") == expected[0][4]
    pressed = page.eval_on_selector_all("#suite-table button",
                                        "bs => bs.map((b) => b.getAttribute('aria-pressed'))")
    assert pressed == ["true", "false", "false"]
    # picking another shows its check, the table unchanged
    before = runs(page)
    page.click("#suite-table button[data-eval='1']")
    wait_for_run(page, before)
    assert page.inner_text("#a-name") == "squad.json"
    assert page.inner_text("#flagged-figure") == expected[1][4]
    assert page.get_attribute("#suite-table button[data-eval='1']", "aria-pressed") == "true"
    assert suite_cells(page) == expected
    assert page.inner_text("#command-line").startswith("ngram-overlap squad.json ")
    page.click("#suite-table tbody tr:first-child td:nth-child(2)")   # no button: nothing
    assert page.inner_text("#a-name") == "squad.json" and not watch.problems(page)
    assert_no_axe_violation(page)
    # the link names every test set, the one shown first; opened elsewhere, it asks for
    # them, and once they are picked the same test set is shown with the table
    link = urlparse(page.url)
    assert link.fragment == ("a_file=squad.json&a_file=contaminated.jsonl&a_file=prompts.jsonl"
                             "&b_file=corpus.txt&b_file=squad-corpus.jsonl")
    fresh = browser.new_context(viewport={"width": width, "height": 812})
    other, other_watch = open_page(fresh, base, f"?{link.query}#{link.fragment}", example=False)
    assert "file A squad.json, contaminated.jsonl, prompts.jsonl" in other.inner_text("#headline")
    before = runs(other)
    put(other, "a", EVALS[1], EVALS[0], EVALS[2])
    put(other, "b", *TRAIN)
    wait_for_run(other, before)
    other.wait_for_function("document.body.dataset.suite === '3'"
                            " && document.body.dataset.busy === '0'")
    assert other.inner_text("#a-name") == "squad.json"
    assert other.inner_text("#flagged-figure") == expected[1][4]
    assert sorted(suite_cells(other)) == sorted(expected)
    assert not other_watch.problems(other)
    fresh.close()
    # one test set picked again: the table goes
    before = runs(page)
    put(page, "a", EVALS[2])
    wait_for_run(page, before)
    assert page.is_hidden("#suite") and page.inner_text("#a-name") == "prompts.jsonl"
    assert not watch.problems(page)
    context.close()


BELOW_BAR = """e => { const r = e.getBoundingClientRect();
    const bar = document.getElementById('verdict-bar');
    const top = bar.hidden ? 0 : Math.max(0, bar.getBoundingClientRect().bottom);
    return r.height > 0 && r.top >= top && r.bottom <= innerHeight; }"""


@pytest.mark.parametrize("width", [1280, 375])
def test_a_broken_test_set_is_refused_by_its_name_and_the_others_checked(site, width, tmp_path):
    """(#45) Three test sets in slot A, the first broken: it is named as refused in the
    slot (in view, below the bar, in its own name, never the tab's temporary path) and
    beside the verdict, the result is marked out of date with why, the slot lists every
    test set, and the other two are each checked as the command checks them."""
    files = real_size_files()
    evals = ["bbh_broken.json", "mc_dev.jsonl", "qa_test.csv"]
    train = ["train_web.jsonl", "train_books.jsonl"]
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    base, browser = site
    context = browser.new_context(viewport={"width": width, "height": 812})
    page, watch = open_page(context, base)
    page.eval_on_selector("#file-a", "e => e.scrollIntoView({block: 'end'})")
    put(page, "a", *[(name, files[name]) for name in evals])
    refusal = page.inner_text("#a-refused")
    assert refusal.startswith("Refused, not checked: bbh_broken.json, line 1")
    assert page.eval_on_selector("#a-refused", BELOW_BAR)
    assert page.inner_text("#a-name") == "mc_dev.jsonl"
    listed = page.eval_on_selector_all("#a-files li", "ls => ls.map((l) => l.innerText)")
    assert [line.split(":")[0] for line in listed] == evals
    assert listed[0].startswith("bbh_broken.json: refused: bbh_broken.json, line 1")
    assert listed[1].endswith("(shown below)") and "1,200 rows" in listed[1]
    before = runs(page)
    put(page, "b", *[(name, files[name]) for name in train])
    wait_for_run(page, before)
    page.wait_for_function("document.body.dataset.suite === '3'"
                           " && document.body.dataset.busy === '0'")
    # the two readable test sets: the command's figures for them
    out, err = io.StringIO(), io.StringIO()
    assert decontaminate_main(["--evals", *(str(tmp_path / e) for e in evals[1:]), "--train",
                               *(str(tmp_path / t) for t in train), "--out",
                               str(tmp_path / "cleaned"), "--json"], out, err) == 0
    report = json.loads(out.getvalue())
    cells = suite_cells(page)
    assert [row[0] for row in cells] == evals
    assert cells[0][1].startswith("Refused, not checked: bbh_broken.json, line 1")
    assert [row[4] for row in (cells[1], cells[2])] == [percent(e["flagged_share"])
                                                        for e in report["evals"]]
    assert [row[3] for row in (cells[1], cells[2])] == [f"{e['flagged']:,}"
                                                        for e in report["evals"]]
    assert page.inner_text("#flagged-figure") == cells[1][4]
    stale = page.inner_text("#stale")
    assert page.is_visible("#stale") and page.is_visible("#bar-stale")
    assert "bbh_broken.json" in stale and "the table checks 2 of 3 test sets" in stale
    assert page.get_attribute("#suite", "data-stale") != "1"    # the table is of these files
    assert "ngram-suite" not in page.inner_text("body")
    assert not watch.problems(page)
    context.close()


def test_a_compressed_or_columnar_test_set_among_several_is_refused_as_when_alone(site):
    """Picked with other test sets, a gzip archive, a zstd archive and a Parquet file are
    refused as each is when picked alone (with the way to a file the page reads), not
    read by one path and refused by the other."""
    import gzip
    base, browser = site
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page, watch = open_page(context, base)
    text = (PAGE_FIXTURES / "arc.jsonl").read_bytes()
    binaries = {"arc.jsonl.gz": gzip.compress(text, mtime=0),
                "arc.jsonl.zst": b"\x28\xb5\x2f\xfd" + bytes(20),
                "arc.parquet": b"PAR1" + bytes(20)}
    alone = {}
    for name, data in binaries.items():
        put(page, "a", (name, data))
        page.wait_for_selector("#a-error:not(:empty)")
        alone[name] = page.inner_text("#a-error")
    before = runs(page)
    put(page, "a", PAGE_FIXTURES / "arc.jsonl", *binaries.items())
    put(page, "b", FIXTURES / "corpus.txt")
    wait_for_run(page, before)
    page.wait_for_function("document.body.dataset.busy === '0'")
    refused = page.inner_text("#a-refused").split("\n")
    said = [alone[name].removesuffix(". Choose another file.") for name in binaries]
    assert refused == [f"Refused, not checked: {why}" for why in said], refused
    assert all("looks like" in alone[name] for name in binaries), alone
    assert page.inner_text("#a-name") == "arc.jsonl"
    assert not watch.problems(page)
    context.close()


def test_test_sets_all_refused_keep_the_last_table_with_its_figure(site):
    """Several test sets checked, then several picked that all fail to read: each is
    named as refused, and the last result stays whole, its table of test sets too,
    marked out of date."""
    base, browser = site
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page, watch = open_page(context, base)
    before = runs(page)
    put(page, "a", PAGE_FIXTURES / "arc.jsonl", FIXTURES / "contaminated.jsonl")
    put(page, "b", FIXTURES / "corpus.txt")
    wait_for_run(page, before)
    page.wait_for_function("document.body.dataset.suite === '2'"
                           " && document.body.dataset.busy === '0'")
    table = page.inner_text("#suite-table")
    figure = page.inner_text("#flagged-figure")
    put(page, "a", ("empty.json", b""), ("broken.jsonl", b'{"text": "a"\n'))
    page.wait_for_selector("#a-error:not(:empty)")
    refused = page.inner_text("#a-refused").split("\n")
    assert len(refused) == 2 and "empty.json" in refused[0] and "broken.jsonl" in refused[1]
    assert page.is_visible("#suite") and page.inner_text("#suite-table") == table
    assert page.inner_text("#flagged-figure") == figure and page.is_visible("#stale")
    # the kept table is marked out of date, as the figure is
    assert page.get_attribute("#suite", "data-stale") == "1"
    assert page.evaluate("getComputedStyle(document.querySelector('#suite .table-wrap'))"
                         ".outlineStyle") == "dashed"
    assert not watch.problems(page)
    context.close()
