"""Helpers shared by the page's end-to-end tests (this module holds no tests).

Loading files into the slots, waiting on the page's markers (``data-runs``,
``data-busy``, ``data-loads``, ``data-selected``; never a sleep), reading the
drawn tables, saving the downloads, and running the ``ngram-overlap`` command
on the same files for comparison.
"""

from __future__ import annotations

import contextlib
import io
import os
import pathlib

from browser import runs, wait_for_run
from conftest import FIXTURES, ROOT

from ngram_core import cli

PAGE_FIXTURES = FIXTURES / "page"
EXAMPLE_A = ROOT / "static" / "examples" / "test-set.json"
EXAMPLE_B = ROOT / "static" / "examples" / "training-corpus.json"


def loads(page) -> int:
    return int(page.get_attribute("body", "data-loads") or 0)


def wait_for_loads(page, before: int, timeout=None):
    """Wait until a slot finished reading (or refusing) files after `before` reads."""
    page.wait_for_function(f"Number(document.body.dataset.loads || 0) > {before}",
                           timeout=timeout)


def as_files(items):
    """Paths, or (name, bytes) pairs, as Playwright's set_input_files takes them."""
    if not any(isinstance(item, tuple) for item in items):
        return [str(item) for item in items]
    # Playwright takes paths or buffers, not both: a path is sent as its bytes
    return [{"name": item[0], "mimeType": "text/plain", "buffer": item[1]}
            if isinstance(item, tuple) else
            {"name": item.name, "mimeType": "text/plain", "buffer": item.read_bytes()}
            for item in items]


def put(page, slot, *items, timeout=None):
    """Pick files in a slot's input and wait until the slot has read them (no run wait)."""
    before = loads(page)
    page.set_input_files(f"#file-{slot}", as_files(items))
    wait_for_loads(page, before, timeout)


def load_pair(page, a, b, timeout=None):
    """Load file A, then file B (one item or a list), and wait for the check of both.

    B read, its check is under way (``data-busy`` is 1 until that check ends,
    whatever run A's file started and B's cancelled or outran)."""
    before = runs(page)
    put(page, "a", *(a if isinstance(a, list) else [a]), timeout=timeout)
    put(page, "b", *(b if isinstance(b, list) else [b]), timeout=timeout)
    if timeout is None:
        wait_for_run(page, before)
    else:
        page.wait_for_function(f"Number(document.body.dataset.runs) > {before}"
                               " && document.body.dataset.busy === '0'", timeout=timeout)


def change(page, action):
    """Do something that recomputes, and wait for the check."""
    before = runs(page)
    action()
    wait_for_run(page, before)


def table_rows(page):
    """The explorer's page of rows as text, cell by cell (the Status column left out)."""
    return page.eval_on_selector("#rows-table tbody", """body => [...body.rows].map(
        (row) => [...row.cells].filter((c) => !c.classList.contains("status")
                                              && getComputedStyle(c).display !== "none")
                               .map((c) => c.innerText.trim()))""")


def counted(page):
    return dict(tuple(r.split("\t")) for r in page.locator("#counted tbody tr").all_inner_texts())


def chosen(page, select):
    """The values of a <select>'s chosen options."""
    return page.eval_on_selector(select, "s => [...s.selectedOptions].map(o => o.value)")


def option_values(page, select):
    return page.eval_on_selector(select, "s => [...s.options].map(o => o.value)")


def download(page, button, tmp_path):
    """Click a download button: (the file's suggested name, its bytes)."""
    with page.expect_download() as info:
        page.click(button)
    path = tmp_path / info.value.suggested_filename
    info.value.save_as(path)
    return info.value.suggested_filename, path.read_bytes()


def command(args, tmp_path, cwd=PAGE_FIXTURES):
    """Run ngram-overlap in ``cwd`` with both CSV files: (stderr, csv bytes, rows csv bytes)."""
    out, err = io.StringIO(), io.StringIO()
    csv_path, rows_path = tmp_path / "command.csv", tmp_path / "command-rows.csv"
    old = pathlib.Path.cwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out):
            code = cli.main([*args, "--definitions", "--csv", str(csv_path), "--rows-csv",
                             str(rows_path)],
                            stdout=out, stderr=err)
    finally:
        os.chdir(old)
    assert code == 0, err.getvalue()
    return err.getvalue(), csv_path.read_bytes(), rows_path.read_bytes()


def drop(page, slot, files):
    """Drop files [(name, text), ...] on a slot, as a person dragging them does; waits
    until the slot has read them."""
    before = loads(page)
    page.evaluate("""([slot, files]) => {
        const transfer = new DataTransfer();
        for (const [name, text] of files)
            transfer.items.add(new File([text], name, {type: "text/plain"}));
        const zone = document.getElementById("drop-" + slot);
        for (const type of ["dragover", "drop"])
            zone.dispatchEvent(new DragEvent(type, {dataTransfer: transfer, bubbles: true,
                                                    cancelable: true}));
    }""", [slot, files])
    wait_for_loads(page, before)


def load_real_size_suite(page) -> None:
    """Pick :func:`real_size_files`' three test sets (one broken) in slot A and its two
    training files in slot B, and wait until the table of test sets is computed."""
    files = real_size_files()
    put(page, "a", *[(name, files[name]) for name in ("mc_dev.jsonl", "bbh_broken.json",
                                                      "qa_test.csv")])
    before = runs(page)
    put(page, "b", *[(name, files[name]) for name in ("train_web.jsonl", "train_books.jsonl")])
    wait_for_run(page, before)
    page.wait_for_function("document.body.dataset.suite === '3'"
                           " && document.body.dataset.busy === '0'")


def real_size_files(seed: int = 45) -> dict[str, bytes]:
    """Files of a real test set's size, made up: a multiple-choice set of 1,200 rows
    (every tenth question planted in the training files), a CSV test set of 300
    rows, a broken JSON test set and two training files."""
    import json
    import random

    rng = random.Random(seed)
    vocabulary = [f"{rng.choice('bcdfgklmnprstvz')}{rng.choice('aeiou')}"
                  f"{rng.choice('bcdfgklmnprstvz')}{rng.choice('aeiou')}{i}" for i in range(3000)]

    def words(count: int) -> str:
        return " ".join(rng.choice(vocabulary) for _ in range(count))

    questions = [words(rng.randint(14, 40)) for _ in range(1200)]
    mc = "".join(json.dumps({"id": f"mc-{i:04d}", "question": q,
                             "choices": [words(3) for _ in range(4)], "answer": "B"}) + "\n"
                 for i, q in enumerate(questions))
    qa_rows = [(f"qa-{i}", words(rng.randint(15, 30)), words(2)) for i in range(300)]
    qa = "id,question,answer\n" + "".join(f"{i},{q},{a}\n" for i, q, a in qa_rows)
    web = [words(rng.randint(40, 120)) for _ in range(700)]
    books = [words(rng.randint(60, 160)) for _ in range(400)]
    for i in range(0, 1200, 10):                    # every tenth question leaked
        (web if i % 20 else books)[rng.randrange(400)] += " " + questions[i] + " " + words(5)
    for i in range(0, 300, 25):
        web[rng.randrange(700)] += " " + qa_rows[i][1]
    return {
        "mc_dev.jsonl": mc.encode(),
        "qa_test.csv": qa.encode(),
        "bbh_broken.json": b'[{"input": "What is the answer", "target": ',
        "train_web.jsonl": "".join(json.dumps({"text": t}) + "\n" for t in web).encode(),
        "train_books.jsonl": "".join(json.dumps({"text": t}) + "\n" for t in books).encode(),
    }
