"""Hostile and broken input in the page: nothing breaks, nothing leaks, nothing is lost.

Runs the built page in headless Chromium (see tests/browser.py): every request
is recorded and any request to another origin, or after the engine is ready,
fails the test.
"""

from __future__ import annotations

import json

import pytest

from browser import TIMEOUT_MS, page, runs, site, wait_for_run  # noqa: F401 (fixtures)
from conftest import FIXTURES
from bad_files import BAD_FILES, where
from test_page_support import EXAMPLE_A, EXAMPLE_B, load_pair, loads, wait_for_loads

from benchmarks import pathological  # the same inputs the benchmark measures


def put(page, slot, name, data):
    """Pick one file (name, bytes) in a slot and wait until the slot has read it."""
    before = loads(page)
    page.set_input_files(f"#file-{slot}", files=[{"name": name, "mimeType": "text/plain",
                                                  "buffer": data}])
    wait_for_loads(page, before)


def test_every_malformed_file_is_named_and_the_last_result_kept(page):
    load_pair(page, EXAMPLE_A, EXAMPLE_B)       # the person's own files from here on
    for case in BAD_FILES:
        if case.fields is not None:
            continue            # the page detects the text field; the chosen-field case is below
        name, data = case.name, case.data
        for slot in ("a", "b"):
            put(page, slot, name, data)
            page.wait_for_function(
                f"document.getElementById('{slot}-error').textContent.startsWith({name!r})")
            message = page.inner_text(f"#{slot}-error")
            assert case.needle in message, message
            assert message.startswith(where(case)), message
            assert page.is_visible("#stale")
            assert page.inner_text("#flagged-figure") == "66.7%"
            # the slot's file is picked again so the next file starts from a valid page
            before = runs(page)
            page.set_input_files(f"#file-{slot}", str(EXAMPLE_A if slot == "a" else EXAMPLE_B))
            wait_for_run(page, before)
            assert page.is_hidden("#stale")


def test_lone_surrogate_escape_renders(page):
    load_pair(page, ("surrogate.json",
                     b'[{"id": "s\\ud800", "text": "In 1969 the Apollo 11 mission landed the '
                     b'first humans on the Moon \\udfff again"}]'), EXAMPLE_B)
    assert page.inner_text("#rows-table tbody tr:first-child td:first-child") == "s\ufffd"
    assert "Moon \ufffd again" in page.inner_text("#pane-a-text")


def test_hostile_field_and_file_names_render_as_text(page):
    header = '"<img src=x onerror=window.__pwned=1>",id,"${window.__pwned=1}"\n'
    body = '"the quick brown fox jumps over the lazy dog near the quiet river bank at dawn",1,x\n'
    load_pair(page, EXAMPLE_A, ("<script>window.__pwned=1</script>.csv", (header + body).encode()))
    names = ["<img src=x onerror=window.__pwned=1>", "id", "${window.__pwned=1}"]
    assert page.eval_on_selector("#b-text-field", "s => [...s.options].map(o => o.value)") == names
    options = page.locator("#b-text-field option").all_inner_texts()
    assert [o.split(" \u2014 ")[0] for o in options] == names
    assert options[0].endswith('"the quick brown fox jumps over\u2026"')
    assert page.inner_text("#b-name") == "<script>window.__pwned=1</script>.csv"
    assert "<script>window.__pwned=1</script>.csv" in page.inner_text("#settings-line")
    put(page, "a", '<img src=x onerror="window.__pwned=1">.json', b"[1, 2]")
    page.wait_for_selector("#a-error:not(:empty)")
    assert page.inner_text("#a-error").startswith('<img src=x onerror="window.__pwned=1">.json')
    assert page.locator("img").count() == 0 and page.locator("body script").count() <= 1
    assert page.evaluate("window.__pwned") is None


def test_escape_sequences_in_ids_and_names_are_shown_not_hidden(page):
    """#34: an id or a field name holding a control character shows it as ``\x1b``,
    as the command's terminal does; the row's own text in the panes keeps its bytes."""
    text = "the quick brown fox jumps over the lazy dog near the quiet river bank at dawn"
    a = "".join(json.dumps({"id": f"q\x1b[8m{i}", "question": f"{text} {i}"}) + "\n"
                for i in range(2))
    b = json.dumps({"id": "b\x1b]52;c;aGk=\x07", "text\x1b[2J": text}) + "\n"
    load_pair(page, ("a.jsonl", a.encode()), ("b.jsonl", b.encode()))
    ids = page.locator("#rows-table tbody span.id").all_inner_texts()
    assert "q\\x1b[8m0" in ids and "b\\x1b]52;c;aGk=\\x07" in ids        # A's and B's ids
    options = page.locator("#b-text-field option").all_inner_texts()
    assert any(o.startswith("text\\x1b[2J \u2014") for o in options)
    assert "\x1b" not in page.inner_text("#settings-line") + page.inner_text("#rows-table")


def test_a_right_to_left_override_in_names_and_ids_is_shown_not_applied(page):
    """A file named ``test<U+202E>gnp.jsonl`` would show as ``testlnosj.png`` and turn
    the rest of every sentence naming it around: names, field names and ids show
    the override as ``\\u202e``, as the command shows a control character; only a
    row's own text in the panes keeps it."""
    text = "the quick brown fox jumps over the lazy dog near the quiet river bank at dawn"
    a = "".join(json.dumps({"id": f"q\u202e{i}", "question": f"{text} {i}"}) + "\n"
                for i in range(2))
    b = json.dumps({"id": "b\u2067x", "text\u202d": text}) + "\n"
    load_pair(page, ("a.jsonl", a.encode()), ("train\u202egnp.jsonl", b.encode()))
    shown = page.evaluate("""() => {
        const panes = [...document.querySelectorAll('#pane-a-text, #pane-b-text')];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        let out = '';
        while (walker.nextNode()) {
            const node = walker.currentNode;
            if (!panes.some(p => p.contains(node))) out += node.textContent + '\\n';
        }
        return out;
    }""")
    for control in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069":
        assert control not in shown, hex(ord(control))
    assert "train\\u202egnp.jsonl" in page.inner_text("#settings-line")
    ids = page.locator("#rows-table tbody span.id").all_inner_texts()
    assert "q\\u202e0" in ids and "b\\u2067x" in ids


@pytest.mark.parametrize("case", list(pathological.CASES))
def test_pathological_inputs_at_the_bound(page, case):
    a, a_name, b, b_name = pathological.CASES[case]()
    assert len(a) <= 2_000_000 and len(b) <= 2_000_000
    load_pair(page, (a_name, a), (b_name, b), timeout=TIMEOUT_MS * 2)
    counted = dict(tuple(r.split("\t")) for r in
                   page.locator("#counted tbody tr").all_inner_texts())
    if case == "one row of 2 MB":
        assert page.inner_text("#flagged-figure") == "100.0%"
        assert counted["Overall dirty-token share"] == "100.0%"
        assert page.locator("#pane-a-text mark").count() == 1
    elif case == "2 MB of one word repeated":
        assert page.inner_text("#flagged-figure") == "100.0%"
        assert page.inner_text("#cap-notice").startswith(
            "1 window shared with the test set occurs more than 32 times in the training file")
    elif case == "200,000 one-word rows":
        assert page.inner_text("#a-rows") == "200,000"
        assert page.inner_text("#flagged-figure") == "–"
        assert counted["Rows shorter than 13 tokens"] == "200,000"
        assert counted["Rows duplicating a whole B row"] == "200,000 (200,000 short)"
        page.select_option("#rows-show", "duplicates")
        assert page.inner_text("#rows-count") == "Rows 1\u201350 of 200,000."
        assert page.locator("#rows-table tbody tr").count() == 50
    elif case == "one 2 MB token":
        assert counted["Rows shorter than 13 tokens"] == "1"
        assert counted["Rows duplicating a whole B row"] == "1 (1 short)"
    elif case == "10,000 CSV columns":
        assert page.inner_text("#b-rows") == "95"
        assert page.inner_text("#flagged-figure") == "100.0%"      # the sentence column, c0
        assert page.locator("#b-text-field option").count() == 1_000
        assert page.locator("#b-id-field option").count() == 1_001
        assert "listing 1,000 of 10,000" in page.inner_text("#b-fields-summary")
    assert page.is_hidden("#stale")


def test_privacy_over_a_whole_session(page, tmp_path):
    """Load, pick both files, change every control, select rows, download the CSV."""
    watch = page.watch
    secret_a = (FIXTURES / "contaminated.jsonl").read_bytes()
    load_pair(page, ("secret-test-set.jsonl", secret_a), FIXTURES / "corpus.csv")
    page.click("#more-settings > summary")                # the folded matching settings
    for action in (lambda: page.click("#n-8"), lambda: page.fill("#threshold", "5"),
                   lambda: page.check("#layer-L2"), lambda: page.uncheck("#layer-L4"),
                   lambda: page.check("#mode-strict"), lambda: page.check("#mode-loose"),
                   lambda: page.click("#n-13"), lambda: page.fill("#n", "9"),
                   lambda: page.fill("#short-min", "5"), lambda: page.check("#max-b-rows-on"),
                   lambda: page.select_option("#b-delimiter", ","),
                   lambda: page.select_option("#b-id-field", "source"),
                   lambda: page.select_option("#a-text-field", ["prompt", "answer"]),
                   lambda: page.select_option("#b-id-field", ""),
                   lambda: page.set_input_files("#file-b", [str(FIXTURES / "corpus.csv"),
                                                            str(FIXTURES / "corpus.txt")])):
        before = runs(page)
        action()
        wait_for_run(page, before)
    for i in range(page.locator("#rows-table tbody tr").count()):
        page.click(f"#rows-table tbody tr:nth-child({i + 1}) td:nth-child(2)")
        page.wait_for_selector(f'body[data-selected="{i}"]', state="attached")
    # the explorer and the copy buttons work in the tab too
    page.select_option("#rows-show", "all")
    page.select_option("#rows-sort", "tokens:asc")
    page.fill("#rows-search", "the")
    page.click("#copy-command")
    page.wait_for_selector("body[data-copied]", state="attached")
    for button, header in (("#download-csv", "a_row,a_id,"),
                           ("#download-rows-csv", "a_row,a_id,status")):
        with page.expect_download() as info:
            page.click(button)
        info.value.save_as(tmp_path / "out.csv")
        assert (tmp_path / "out.csv").read_text().startswith(header)
    # nothing went anywhere but the page's own origin, and nothing at all after ready
    assert not watch.foreign, watch.foreign
    assert not watch.after_ready, watch.after_ready
    secrets = ["secret-test-set", "corpus.csv", "quick brown fox", "t-1", "doc_id", "prompt"]
    for request in watch.requests:
        carried = request.url + str(request.headers) + (request.post_data or "")
        for secret in secrets:
            assert secret not in carried, (secret, request.url)


def test_json_nested_to_the_limit_is_read_and_deeper_refused(page):
    deep = b"[" * 98 + b"1" + b"]" * 98          # 100 levels with the row array and object
    put(page, "a", "deep-ok.json", b'[{"text": "still fine", "x": ' + deep + b"}]")
    assert page.inner_text("#a-rows") == "1" and page.inner_text("#a-error") == ""
    put(page, "a", "too-deep.json", b'[{"text": "x", "x": [' + deep + b"]}]")
    assert "nested more than 100 levels deep" in page.inner_text("#a-error")
