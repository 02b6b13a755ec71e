"""End to end: real files read as their authors meant them, in the page as by the command (#9).

Each fixture under tests/fixtures/page/ is shaped like an export people check
(a crawl CSV with url,title,contents; ARC's nested JSONL; SQuAD; a JSON of
splits; a European Excel CSV with a byte-order mark and CRLF; a headerless
CSV; a JSON with ``data`` beside a 40-item list; several training files). The
page must pick the same fields and rows as the command and save the same CSV
bytes. Tests wait on the page's markers, never on sleeps (tests/browser.py).
"""

from __future__ import annotations

import re

import pytest

from browser import open_page, page, runs, site, wait_for_run  # noqa: F401 (fixtures)
from conftest import FIXTURES
from test_page_support import (PAGE_FIXTURES, change, chosen, command, download, drop,
                               load_pair, loads, option_values, put, table_rows, wait_for_loads)

UNSPACED = FIXTURES / "unspaced"
REAL = FIXTURES / "real"          # the engine's fixtures of the same shapes
SHAPES = FIXTURES / "shapes"

# (A, B files, command options, what the person does in the page before comparing)
AGREEMENT = {
    "url,title,contents CSV": ("prompts.jsonl", ["pages.csv"], [], None),
    "ARC nested JSONL, wrapped text by paragraph": (
        "arc.jsonl", ["science-notes.txt"], ["--b-text-rows", "paragraph"],
        lambda page: page.select_option("#b-text-rows", "paragraph")),
    "SQuAD JSON, question chosen": (
        "squad.json", ["squad-corpus.jsonl"], ["--a-field", "question"],
        lambda page: page.select_option("#a-text-field", ["question"])),
    "splits in one JSON": ("splits.json", ["splits.json"], [], None),
    "semicolon CSV with BOM and CRLF, headerless CSV": (
        "questions-fr.csv", ["documents-headerless.csv"], [], None),
    "JSON data beside a 40-item list": ("intents.json", ["intents-train.jsonl"], [], None),
    "several B files": ("prompts.jsonl", ["b-part-1.jsonl", "b-part-2.csv", "b-part-3.txt"],
                        [], None),
    "Chinese": (UNSPACED / "zh_test.jsonl", [UNSPACED / "zh_train.jsonl"], [], None),
    "HellaSwag JSONL, Doc ID,Texte CSV": (REAL / "hellaswag-val.jsonl",
                                         [REAL / "documents-fr.csv"], [], None),
    "Windows-1252 CSV, Excel CSV": (REAL / "windows-1252.csv", [REAL / "excel-semicolon.csv"],
                                    [], None),
    "CoNLL-2003 token per line": (SHAPES / "conll2003/eng.testb",
                                  [SHAPES / "conll2003/news.jsonl"], [], None),
    "CoNLL-U with sentence ids": (SHAPES / "ud-french/fr_news-ud-test.conllu",
                                  [SHAPES / "ud-french/web.jsonl"], [], None),
    "SNLI beside its parse trees": (SHAPES / "snli/snli_1.0_test.jsonl",
                                    [SHAPES / "snli/web.jsonl"], [], None),
    "MRPC's .txt that is a TSV": (SHAPES / "mrpc/msr_paraphrase_test.txt",
                                  [SHAPES / "mrpc/web.jsonl"], [], None),
    "MS MARCO by columns": (SHAPES / "msmarco/dev_v2.1.json", [SHAPES / "msmarco/web.jsonl"],
                            [], None),
    "a spreadsheet's title above the header": ("prompts-titled.csv", ["pages.csv"], [], None),
    # the reading of #33: contained fields, a file's field order, chats, documents, templates
    "multiple choice, a question found whole": (SHAPES / "mc-web/test.jsonl",
                                                [SHAPES / "mc-web/web.jsonl"], [], None),
    "SVAMP in its file order": (SHAPES / "svamp-order/SVAMP.json",
                                [SHAPES / "svamp-order/web.jsonl"], [], None),
    # the reading of #43: two chat schemas in one file, a system prompt that differs
    "messages and ShareGPT rows in one file": (SHAPES / "chat-mix/eval.jsonl",
                                               [SHAPES / "chat-mix/train.jsonl"], [], None),
    "one chat schema's field chosen in a mix": (
        SHAPES / "chat-mix/eval.jsonl", [SHAPES / "chat-mix/train.jsonl"],
        ["--b-field", "messages.content"],
        lambda page: page.select_option("#b-text-field", ["messages.content"])),
    "a chat with label replies": (SHAPES / "chat-labels/eval.jsonl",
                                  [SHAPES / "chat-labels/train.jsonl"], [], None),
    "a text dump of documents": (SHAPES / "text-dump/bbh.json",
                                 [SHAPES / "text-dump/pile-dump.txt"], [], None),
    "eval requests with a template": (SHAPES / "eval-requests/batch.jsonl",
                                      [SHAPES / "eval-requests/finetune.jsonl"], [], None),
}


def described(stderr: str):
    """What the command said it read: {(role, file name): (rows, text fields, id field,
    the reader's notes joined with "; ")}."""
    found = {}
    line = r"^(A|B) (\S+): ([\d,]+) rows?, text from (.+?), id from ([^;]+?)(?:; (.*))?\.$"
    for m in re.finditer(line, stderr, re.M):
        found[(m[1], m[2].rsplit("/", 1)[-1])] = (int(m[3].replace(",", "")), m[4], m[5],
                                                  m[6] or "")
    return found


def notes(page, slot) -> str:
    return "; ".join(page.locator(f"#{slot}-notes li").all_inner_texts())


@pytest.mark.parametrize("case", list(AGREEMENT))
def test_the_page_and_the_command_agree(page, case, tmp_path):
    a, b_files, options, action = AGREEMENT[case]
    a_path = a if not isinstance(a, str) else PAGE_FIXTURES / a
    b_paths = [b if not isinstance(b, str) else PAGE_FIXTURES / b for b in b_files]
    load_pair(page, a_path, b_paths)
    if action is not None:
        change(page, lambda: action(page))
    assert all(p.parent == a_path.parent for p in b_paths)
    stderr, csv_bytes, rows_bytes = command(   # the files named as the page names them
        [a_path.name, *[p.name for p in b_paths], *options], tmp_path, cwd=a_path.parent)
    said = described(stderr)
    rows, text, ident, read = said[("A", a_path.name)]
    assert notes(page, "a") == read
    assert page.inner_text("#a-rows") == f"{rows:,}"
    assert " + ".join(chosen(page, "#a-text-field")) == text
    assert (chosen(page, "#a-id-field") or [""])[0] == ("" if ident == "(row numbers)" else ident)
    if len(b_paths) == 1:
        rows, text, ident, read = said[("B", b_paths[0].name)]
        # rows unread are counted by the check: the page says so under the slot, after it
        assert notes(page, "b") == "; ".join(n for n in read.split("; ")
                                             if not re.match(r"[\d,]+ rows? unread: ", n))
        assert page.inner_text("#b-rows") == f"{rows:,}"
        assert " + ".join(chosen(page, "#b-text-field")) == text
    else:                                   # several B files, read in order as one
        assert page.inner_text("#b-name") == f"{len(b_paths)} files"
        assert page.inner_text("#b-rows") == f"{sum(said[('B', p.name)][0] for p in b_paths):,}"
        items = page.locator("#b-files li").all_inner_texts()
        assert [item.split(":")[0] for item in items] == [p.name for p in b_paths]
    name, data = download(page, "#download-csv", tmp_path)
    assert data == csv_bytes
    b_part = b_paths[0].stem + (f"+{len(b_paths) - 1}" if len(b_paths) > 1 else "")
    assert name == f"ngram-overlap_{a_path.stem}_vs_{b_part}_n13.csv"
    name, data = download(page, "#download-rows-csv", tmp_path)
    assert data == rows_bytes
    assert name.startswith("ngram-overlap-rows_")
    if case == "several B files":
        assert csv_bytes.splitlines()[0].endswith(b",duplicate_of,b_file")
        # the table and the panes name each best B row's file; b_row counts across files
        assert page.inner_text("#b-file-col") == "B file"
        assert [r[0] for r in table_rows(page)][:3] == ["p1", "p4", "p2"]
        assert [r[6] for r in table_rows(page)][:3] == ["b-part-1.jsonl", "b-part-3.txt",
                                                        "b-part-2.csv"]
        assert page.inner_text("#pane-b-title").startswith("b-part-1.jsonl, row x2 (")
        assert "prompts.jsonl checked against b-part-1.jsonl and 2 more files" in \
            page.inner_text("#settings-line")
    else:
        assert page.is_hidden("#b-file-col")
        assert b",b_file" not in csv_bytes.splitlines()[0]
    if case == "one chat schema's field chosen in a mix":    # the other rows: unread, said
        assert "221 rows unread: their text is only in fields not read (conversations.value" \
            in stderr
        assert page.inner_text("#b-warning").startswith(
            "221 rows unread: their text is only in fields not read (conversations.value")
    if case == "Chinese":                   # each Han character is a token: rows flag
        assert page.inner_text("#flagged-figure") != "0.0%"
    if case == "eval requests with a template":     # named where the result is read
        assert "left out as the file's template" in page.inner_text("#settings-line")
    if case == "multiple choice, a question found whole":
        assert "found whole in a row of the other file" in page.inner_text("#headline")


def test_what_was_read_is_said_beside_the_slot_and_can_be_changed(page):
    # a JSON holding `data` beside a 40-item list: read from data, the list offered
    load_pair(page, PAGE_FIXTURES / "intents.json", PAGE_FIXTURES / "intents-train.jsonl")
    assert "rows are the 4 items of `data`; other arrays: `label_names` (40)" in \
        page.inner_text("#a-notes")
    assert option_values(page, "#a-records") == ["data", "label_names"]
    assert chosen(page, "#a-records") == ["data"]
    assert page.locator("#a-records option").all_inner_texts() == [
        "data \u2014 4 items (objects)", "label_names \u2014 40 items (strings)"]
    # each field says what it holds; the hint for choosing several is shown
    assert page.locator("#a-text-field option").all_inner_texts() == [
        'text \u2014 16 tokens/row \u2014 "wake me up at seven tomorrow\u2026"',
        'label \u2014 1 token/row, numbers \u2014 "0"']
    assert "hold Ctrl" in page.inner_text("#a-fields-hint") and page.is_visible("#a-fields-hint")
    # rows, tokens and rows shorter than n, counted by the check
    assert (page.inner_text("#a-rows"), page.inner_text("#a-tokens"),
            page.inner_text("#a-short-label"), page.inner_text("#a-short")) == (
        "4", "64", "Shorter than 13 tokens", "0")
    assert page.inner_text("#a-warning") == ""
    # the other array: read again; 40 one-token rows cannot match, and the slot says so
    change(page, lambda: page.select_option("#a-records", "label_names"))
    assert page.inner_text("#a-rows") == "40" and chosen(page, "#a-records") == ["label_names"]
    assert page.inner_text("#a-warning").startswith(
        "40 of 40 rows of text are shorter than 13 tokens: nothing can match in them.")
    change(page, lambda: page.select_option("#a-records", "data"))
    assert page.inner_text("#a-rows") == "4"

    # a semicolon CSV with a byte-order mark and CRLF; a headerless CSV
    load_pair(page, PAGE_FIXTURES / "questions-fr.csv", PAGE_FIXTURES / "documents-headerless.csv")
    assert page.inner_text("#a-notes") == "semicolon-separated, first row read as the header"
    assert page.inner_text("#b-notes") == ("comma-separated, no header row: fields named "
                                           "column_1 to column_3")
    assert page.locator("#a-delimiter option").all_inner_texts() == [
        "detect (found: semicolon)", "comma", "semicolon", "tab", "pipe"]
    assert chosen(page, "#a-delimiter") == [""]
    assert page.is_checked("#a-header") and not page.is_checked("#b-header")
    assert option_values(page, "#a-text-field") == ["id", "question", "answer"]
    assert page.inner_text("#flagged-figure") == "66.7%"
    # the first row is not a header after all: read again, fields column_1...
    change(page, lambda: page.uncheck("#a-header"))
    assert page.inner_text("#a-rows") == "4"
    assert option_values(page, "#a-text-field") == ["column_1", "column_2", "column_3"]
    assert "no header row" in page.inner_text("#a-notes")
    # a wrong separator is refused next to the slot; the last valid result stays
    before = loads(page)
    page.select_option("#a-delimiter", ",")
    wait_for_loads(page, before)
    assert "has 2 fields where the first row has 1" in page.inner_text("#a-error")
    assert page.is_visible("#stale") and page.inner_text("#a-rows") == "4"
    change(page, lambda: page.select_option("#a-delimiter", ";"))
    change(page, lambda: page.check("#a-header"))
    assert page.inner_text("#a-error") == "" and page.is_hidden("#stale")
    assert chosen(page, "#a-text-field") == ["question"]
    # headerless after all? the B file's first row is a header: it loses its first row
    change(page, lambda: page.check("#b-header"))
    assert page.inner_text("#b-rows") == "2"

    # a file where no field holds text: said, and its fields kept to choose from
    put(page, "b", ("ids.csv", b"id,url\nd1,https://example.org/a\nd2,https://example.org/b\n"))
    assert page.inner_text("#b-error").startswith(
        "ids.csv: has no field that holds text: its fields are 'id' (ids), 'url' (URLs)")
    assert option_values(page, "#b-text-field") == ["id", "url"]
    assert page.is_visible("#stale")
    change(page, lambda: page.select_option("#b-text-field", ["url"]))
    assert page.inner_text("#b-error") == "" and page.inner_text("#flagged-figure") == "0.0%"


def test_most_rows_shorter_than_n_name_the_longer_fields(page):
    load_pair(page, PAGE_FIXTURES / "prompts.jsonl", PAGE_FIXTURES / "pages.csv")
    assert chosen(page, "#b-text-field") == ["title", "contents"]        # not the url
    assert page.inner_text("#flagged-figure") == "75.0%"
    change(page, lambda: page.select_option("#b-text-field", ["title"]))
    assert page.inner_text("#b-short") == "4"
    assert page.inner_text("#b-warning") == (
        "4 of 4 rows of title are shorter than 13 tokens: nothing can match in them. "
        "Longer fields: contents (26 tokens per row). Choose contents in the text field list "
        "to read it.")
    assert page.inner_text("#flagged-figure") == "0.0%"


def test_a_wrapped_text_file_is_read_by_paragraph_when_asked(page):
    load_pair(page, PAGE_FIXTURES / "arc.jsonl", PAGE_FIXTURES / "science-notes.txt")
    assert page.inner_text("#flagged-figure") == "0.0%"
    assert chosen(page, "#b-text-rows") == ["line"]
    assert "may read better one row per paragraph" in page.inner_text("#b-warning")
    change(page, lambda: page.select_option("#b-text-rows", "paragraph"))
    assert page.inner_text("#b-rows") == "3" and page.inner_text("#flagged-figure") == "50.0%"
    assert page.inner_text("#b-warning") == ""
    change(page, lambda: page.select_option("#b-text-rows", "file"))
    assert page.inner_text("#b-rows") == "1"
    assert page.is_hidden("#a-text-rows-box") and page.is_hidden("#b-dialect-box")


def test_slot_a_takes_several_test_sets_and_each_b_file_is_bounded(page):
    assert page.get_attribute("#file-b", "multiple") is not None
    put(page, "b", PAGE_FIXTURES / "b-part-1.jsonl", ("huge.jsonl", b"x" * 2_000_001))
    message = page.inner_text("#b-error")
    assert message.startswith("huge.jsonl is 2,000,001 bytes, 1 byte over")
    # (#37) the slot names the files refused, the mark on the result says why in the
    # same words, and the message is in view where the files were picked
    assert page.inner_text("#b-name") == "Refused: huge.jsonl"      # (#45) only the refused
    assert "The 1 other file picked with it was not read" in message
    assert message.rstrip(".") in page.inner_text("#stale")
    assert page.eval_on_selector("#b-error", """e => { const r = e.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight; }""")
    assert page.inner_text("#flagged-figure") == "66.7%"          # the last valid result
    # two test sets dropped on A: each is a test set of the suite, the first is shown
    assert page.get_attribute("#file-a", "multiple") is not None
    drop(page, "a", [(name, (PAGE_FIXTURES / name).read_text()) for name in
                     ("prompts.jsonl", "arc.jsonl")])
    assert page.inner_text("#a-error") == "" and page.inner_text("#a-name") == "prompts.jsonl"
    assert page.is_visible("#suite") and page.inner_text("#suite-status") == (
        "2 test sets in file A: each is checked against file B once both files are read.")
    put(page, "b", PAGE_FIXTURES / "b-part-1.jsonl")
    page.wait_for_function("document.body.dataset.suite === '2'"
                           " && document.body.dataset.busy === '0'")
    assert page.eval_on_selector_all("#suite-table tbody button",
                                     "bs => bs.map((b) => b.innerText.trim())") \
        == ["prompts.jsonl", "arc.jsonl"]
    # several B files, the first twice: read in the order given, rows numbered across them
    load_pair(page, PAGE_FIXTURES / "prompts.jsonl",
              [PAGE_FIXTURES / "b-part-3.txt", PAGE_FIXTURES / "b-part-1.jsonl"])
    assert page.inner_text("#b-name") == "2 files" and page.inner_text("#b-rows") == "4"
    assert page.locator("#b-files li").all_inner_texts() == [
        "b-part-3.txt: 157 bytes, plain text, 2 rows, 28 tokens, 1 shorter than 13 tokens",
        "b-part-1.jsonl: 260 bytes, JSONL, 2 rows, 37 tokens, 0 shorter than 13 tokens"]
    assert [r[0] for r in table_rows(page)][:2] == ["p1", "p4"]
    assert [r[5:] for r in table_rows(page)][:2] == [["x2", "b-part-1.jsonl"],
                                                     ["2", "b-part-3.txt"]]


def test_squad_reads_every_text_field_and_each_field_has_its_figures(page):
    # SQuAD: the questions leaked, not the passages; the default reads both
    load_pair(page, PAGE_FIXTURES / "squad.json", PAGE_FIXTURES / "squad-corpus.jsonl")
    assert page.inner_text("#flagged-figure") == "50.0%"
    assert sorted(chosen(page, "#a-text-field")) == ["answers.text", "data.paragraphs.context",
                                                     "question"]         # the list's order
    assert page.inner_text("#settings-line").endswith(
        "Text read: data.paragraphs.context + question + answers.text of A; text of B.")
    assert page.is_visible("#fields-table")
    rows = [[c.strip() for c in r.split("\t")]
            for r in page.locator("#fields-table tbody tr").all_inner_texts()]
    assert rows == [["data.paragraphs.context", "140", "0.0%", "0 of 4"],
                    ["question", "62", "51.6%", "2 of 4"],
                    ["answers.text", "10", "0.0%", "0 of 4"]]
    assert page.inner_text("#pane-a-title").endswith(
        "(data.paragraphs.context + question + answers.text)")


def test_a_clean_result_names_the_text_fields_it_left_out_as_the_command_does(page, tmp_path):
    # the passage alone, chosen: nothing flagged, and the questions are named
    load_pair(page, PAGE_FIXTURES / "squad.json", PAGE_FIXTURES / "squad-corpus.jsonl")
    change(page, lambda: page.select_option("#a-text-field", ["data.paragraphs.context"]))
    assert page.inner_text("#flagged-figure") == "0.0%"
    assert page.is_hidden("#fields-table")
    stderr, _, _ = command(["squad.json", "squad-corpus.jsonl", "--a-field",
                            "data.paragraphs.context"], tmp_path)
    said = [line for line in stderr.splitlines() if line.startswith("Note: squad.json: ")]
    sentence = ("Nothing was flagged in data.paragraphs.context, the text of file A checked. "
                "File A also holds question (16 tokens per row), not checked: a leak of it "
                "would not show here.")
    assert said == [f"Note: squad.json: {sentence} Check question with --a-field question."]
    assert page.inner_text("#fields-notice") == (
        f"{sentence} Choose question in file A's text field list to check it.")
    # doing what it says shows the leak, and the notice goes
    change(page, lambda: page.select_option("#a-text-field", ["question"]))
    assert page.inner_text("#flagged-figure") == "66.7%"
    assert page.is_hidden("#fields-notice")


SHAPES = FIXTURES / "shapes"


@pytest.mark.parametrize("case, a, b", [
    ("korsts", "korsts/sts-test.tsv", "korsts/sts-train.tsv"),
    ("logiqa-en", "logiqa-en/Test.txt", "logiqa-en/web.txt"),
    ("hf-instruct", "hf-instruct/train_polite.jsonl", "hf-instruct/web.jsonl"),
])
def test_real_shaped_files_read_on_the_page_as_the_command_reads_them(page, tmp_path, case,
                                                                       a, b):
    """Literal-quote TSVs with a repeating id (B reads A's fields), text blocks and a fixed
    instruction: the page's reading, words and CSV are the command's."""
    a_path, b_path = SHAPES / a, SHAPES / b
    load_pair(page, a_path, b_path)
    stderr, csv_bytes, _ = command([a_path.name, b_path.name], tmp_path, cwd=a_path.parent)
    said = described(stderr)
    rows, text, ident, read = said[("A", a_path.name)]
    assert " + ".join(chosen(page, "#a-text-field")) == text
    assert notes(page, "a") == read
    assert page.inner_text("#a-rows") == f"{rows:,}"
    b_text = said[("B", b_path.name)][1]
    assert " + ".join(chosen(page, "#b-text-field")) == b_text
    assert download(page, "#download-csv", tmp_path)[1] == csv_bytes
    if case == "korsts":                           # same schema: B reads A's two fields
        assert text == b_text == "sentence1 + sentence2" and ident == "(row numbers)"
        assert "the id field 'id' repeats" in read and "quotes read as text" in read
    elif case == "logiqa-en":
        assert "one row per block of lines between blank lines" in read
        assert chosen(page, "#a-text-rows") == ["paragraph"]
    else:
        assert "instruction holds the same text in nearly every row" in read
        assert text == "input + output"


def test_a_broken_training_file_among_several_is_the_one_named_refused(page):
    """Three training files picked, the second broken: the slot names it alone, its
    message names its line and says the other two were not read; the last result
    stays."""
    good = ("web.jsonl", b'{"text": "a line of the web"}\n')
    broken = ("broken.jsonl", b'{"text": "one"}\n{"text": "two"}\n{"text": \n')
    put(page, "b", good, broken, ("more.jsonl", b'{"text": "more text"}\n'))
    message = page.inner_text("#b-error")
    assert message.startswith("broken.jsonl, line 3")
    assert "The 2 other files picked with it were not read: file B is read as one." in message
    assert page.inner_text("#b-name") == "Refused: broken.jsonl"
    assert "file B, broken.jsonl, was refused" in page.inner_text("#stale")
    assert page.inner_text("#flagged-figure") == "66.7%"


@pytest.mark.parametrize("width", [1280, 375])
def test_a_refused_file_is_named_and_its_message_is_read_where_it_was_picked(site, width):
    """(#37) A broken file picked from its slot: the slot names it, its message is in
    the window at the scroll position the pick leaves, and the mark on the result (the
    last valid one, kept) says the same."""
    base, browser = site
    context = browser.new_context(viewport={"width": width, "height": 812})
    page, watch = open_page(context, base)
    page.eval_on_selector("#file-a", "e => e.scrollIntoView({block: 'end'})")
    put(page, "a", ("broken.json", b'[{"question": "What is"}, {"question": '))
    message = page.inner_text("#a-error")
    assert message.startswith("broken.json")
    assert page.inner_text("#a-name") == "Refused: broken.json"
    assert page.eval_on_selector("#a-error", """e => { const r = e.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= innerHeight; }""")
    assert message.rstrip(".") in page.inner_text("#stale")
    assert page.inner_text("#flagged-figure") == "66.7%"
    assert not watch.problems(page)
    context.close()


@pytest.mark.parametrize("width", [1280, 375])
def test_a_refused_pick_clears_the_old_details_and_names_only_the_refused(site, width):
    """(#45) A slot shows what is in it: a refused pick leaves none of the previous
    file's details, names only the file refused (not a valid one picked with it), and
    its name and message are in view below the bar after the pick; in slot A, a valid
    test set picked with one over the bound is checked, the other named as refused."""
    from test_page_suite import BELOW_BAR

    base, browser = site
    context = browser.new_context(viewport={"width": width, "height": 812})
    page, watch = open_page(context, base)
    load_pair(page, PAGE_FIXTURES / "prompts.jsonl", PAGE_FIXTURES / "b-part-1.jsonl")
    assert page.inner_text("#b-rows") != "\u2013"
    page.eval_on_selector("#file-b", "e => e.scrollIntoView({block: 'end'})")
    put(page, "b", PAGE_FIXTURES / "b-part-2.csv", ("huge.jsonl", b"x" * 2_000_001))
    assert page.inner_text("#b-name") == "Refused: huge.jsonl"
    for part in ("size", "format", "rows", "tokens", "short"):
        assert page.inner_text(f"#b-{part}") == "\u2013", part
    assert page.is_hidden("#b-files") and page.is_hidden("#b-notes")
    assert page.is_hidden("#b-fields-box")
    assert page.eval_on_selector("#b-name", BELOW_BAR)
    assert page.eval_on_selector("#b-error", BELOW_BAR)
    assert page.is_visible("#stale")
    # slot A: a valid test set and one over the bound: only that one is refused
    before = runs(page)
    put(page, "a", PAGE_FIXTURES / "arc.jsonl", ("huge.jsonl", b"x" * 2_000_001),
        ("empty.json", b""))
    refused = page.inner_text("#a-refused").split("\n")       # one line each
    assert len(refused) == 2, refused
    assert refused[0].startswith("Refused, not checked: huge.jsonl is 2,000,001 bytes")
    assert refused[1].startswith("Refused, not checked: empty.json")
    assert "arc.jsonl" not in page.inner_text("#a-refused")
    assert page.inner_text("#a-name") == "arc.jsonl"
    assert page.eval_on_selector("#a-refused", BELOW_BAR)
    # file B picked again, valid: the slot shows it, the check runs
    put(page, "b", PAGE_FIXTURES / "b-part-1.jsonl")
    wait_for_run(page, before)
    page.wait_for_function("document.body.dataset.suite === '3'"
                           " && document.body.dataset.busy === '0'")
    assert page.inner_text("#b-name") == "b-part-1.jsonl" and page.is_visible("#b-fields-box")
    assert "huge.jsonl" in page.inner_text("#stale")
    assert not watch.problems(page)
    context.close()
