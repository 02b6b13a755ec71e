"""The page's pure helpers, in CPython without a browser: links, excerpts, sizes, the build.

The page modules import in CPython (their browser names are None here), so
what they compute from plain strings is tested like any other code; what they
do to the DOM is tested end to end in tests/test_page.py.
"""

from __future__ import annotations

import importlib
import pkgutil
import tarfile

import pytest

import ngram_page
from ngram_core import Settings
from ngram_core.method.index import N_DEFAULT, N_MAX, N_MIN
from ngram_core.method.tokenize import DEFAULT_LAYERS, LAYERS
from ngram_page import controls, dom
from ngram_core.read.readers import read_table
from ngram_core.method.settings import SHORT_MIN_DEFAULT
from ngram_page.slots import ReadChoice, fitting
from ngram_page.text import (PANE_CHARS, array_label, download_name, excerpt, excerpt_note,
                             field_label, fields_summary, file_line, format_label, human_size,
                             id_label, ignored_line, ignored_summary, needs_file, safe_part,
                             several_names, timing_line, too_big, window_words,
                             words_by_id)
from ngram_page.urlstate import (FieldChoice, LinkControls, applicable, asked_choice,
                                 build_query, field_choice, link_controls, parse_query)
from scripts import build_site


# --- every module imports without a browser ------------------------------------------

def test_every_page_module_imports_in_cpython():
    names = [m.name for m in pkgutil.iter_modules(ngram_page.__path__)]
    assert {"urlstate", "text", "dom", "controls", "slots", "runner", "verdict", "counts", "explorer", "panes",
            "download", "page"} <= set(names)
    for name in names:
        module = importlib.import_module(f"ngram_page.{name}")
        assert module.__doc__ and module.__doc__.strip(), f"ngram_page.{name} has no docstring"
    assert dom.IN_BROWSER is False and dom.js is None


# --- the shared link ------------------------------------------------------------------

def test_parse_query_keeps_repeats_in_order_and_blank_values():
    query = parse_query("?n=8&a_field=question&a_field=context&a_id=&b_id")
    assert query == {"n": ["8"], "a_field": ["question", "context"], "a_id": [""], "b_id": [""]}
    assert parse_query("n=8") == {"n": ["8"]}              # the "?" is optional
    assert parse_query("") == {} and parse_query("?") == {}


def test_parse_query_decodes_like_url_search_params():
    # "+" is a space, %2B a plus; a bad escape stays as written; bad UTF-8 becomes U+FFFD
    assert parse_query("?a+b=c+d%2B&x=%zz&y=%FF") == {"a b": ["c d+"], "x": ["%zz"], "y": ["\ufffd"]}
    assert parse_query("?a=b=c") == {"a": ["b=c"]}


def test_build_query_writes_the_form_urlencoded_link():
    loose = build_query(13, "0", "loose", ("L1", "L3", "L4"), {})
    assert loose == "?n=13&threshold=0&mode=loose&layers=L1%2CL3%2CL4"
    strict = build_query(8, "12.5", "strict", ("L1",), {
        "a": FieldChoice(["my text", "q&a"], True, None),
        "b": FieldChoice(None, True, "doc~id*")})
    assert strict == "?n=8&threshold=12.5&mode=strict&a_field=my+text&a_field=q%26a&a_id=&b_id=doc%7Eid*"
    # a detected slot adds nothing
    assert build_query(9, "5", "strict", (), {"a": FieldChoice(), "b": FieldChoice()}) == \
        "?n=9&threshold=5&mode=strict"


def test_the_link_carries_the_threshold_exactly_as_typed():
    # 33.33334 used to become 33.3333 (format "g"): the link opened on another value
    for typed in ("33.33334", "1e-5", "0.000001", "12.50", " 7 "):
        query = parse_query(build_query(13, typed, "loose", (), {}))
        assert query["threshold"] == [typed.strip()]
        assert float(link_controls(query).threshold) == float(typed)


def test_the_link_carries_short_rows_and_the_frequency_filter_when_set():
    plain = build_query(13, "0", "strict", (), {})
    assert "short_min" not in plain and "max_b_rows" not in plain   # defaults: not written
    search = build_query(13, "0", "strict", (), {}, short_min=0, max_b_rows=10)
    assert search == "?n=13&threshold=0&mode=strict&short_min=0&max_b_rows=10"
    link = link_controls(parse_query(search))
    assert (link.short_min, link.max_b_rows) == ("0", "10")
    assert build_query(13, "0", "strict", (), {}, short_min=SHORT_MIN_DEFAULT) == plain
    assert link_controls(parse_query("?n=8")).max_b_rows is None      # off unless asked


HOSTILE_FIELDS = ["text", "a b", "q&a=1", "50%+", "<img src=x onerror=alert(1)>", "${x}",
                  "é漢字😀", "#frag?x", "~*-._"]


@pytest.mark.parametrize("settings", [Settings(), Settings(n=N_MIN, mode="strict", threshold=100),
                                      Settings(n=N_MAX, layers=("L2",), threshold=33.3)])
def test_a_link_round_trips_settings_and_fields(settings):
    a = FieldChoice(HOSTILE_FIELDS[1:4], True, HOSTILE_FIELDS[4])
    b = FieldChoice(HOSTILE_FIELDS[5:], True, None)              # row numbers
    search = build_query(settings.n, repr(settings.threshold), settings.mode, settings.layers,
                         {"a": a, "b": b})
    assert search.isascii() and " " not in search
    query = parse_query(search)
    link = link_controls(query)
    layers = tuple(layer for layer in LAYERS if layer in link.layers) if link.layers else ()
    back = Settings(n=int(link.n), threshold=float(link.threshold),
                    mode="strict" if link.strict else "loose",
                    layers=layers if not link.strict else settings.layers)
    assert back == settings
    assert field_choice(query, "a", HOSTILE_FIELDS) == a
    assert field_choice(query, "b", HOSTILE_FIELDS) == b


def test_link_controls_reads_what_a_person_may_type():
    link = link_controls(parse_query("?n=40&threshold=abc&mode=STRICT&layers=l1,+L2+,,"))
    assert link == LinkControls(n="40", threshold="abc", strict=False,
                                layers=frozenset({"L1", "L2"}))
    # a layer that is none: the layers are left as they are, and it is said
    assert link_controls(parse_query("?layers=l1,L9")) == LinkControls(unknown_layers=("L9",))
    assert link_controls({}) == LinkControls()          # no link: every control left alone
    assert link_controls(parse_query("?mode=strict")).strict
    assert link_controls(parse_query("?layers=")).layers == frozenset()   # untick every layer


def test_field_choice_keeps_only_fields_the_file_has():
    query = parse_query("?a_field=gone&a_field=text&a_id=gone&b_id=")
    fields = ["id", "text"]
    assert field_choice(query, "a", fields) == FieldChoice(["text"], False, None)
    assert field_choice(query, "b", fields) == FieldChoice(None, True, None)   # row numbers
    assert field_choice(parse_query("?a_id=id"), "a", fields) == FieldChoice(None, True, "id")
    assert field_choice(parse_query("?a_field=gone"), "a", fields) == FieldChoice()


def test_a_links_fields_are_kept_whatever_file_is_shown():
    # what the link asked for survives a file without those fields (the worked example)
    query = parse_query("?a_field=question&a_field=context&a_id=qid&b_id=")
    asked = asked_choice(query, "a")
    assert asked == FieldChoice(["question", "context"], True, "qid")
    assert asked_choice(query, "b") == FieldChoice(None, True, None)
    assert applicable(asked, ["id", "text"]) == FieldChoice()          # example: detected
    assert applicable(asked, ["qid", "context", "x"]) == FieldChoice(["context"], True, "qid")
    assert applicable(FieldChoice(None, True, None), ["x"]) == FieldChoice(None, True, None)


# --- excerpts -------------------------------------------------------------------------

def test_a_short_row_is_shown_whole():
    text = "x" * PANE_CHARS
    assert excerpt(text, [(0, 3), (10, 20)]) == (0, PANE_CHARS, [(0, 3), (10, 20)])
    assert excerpt("", []) == (0, 0, [])


@pytest.mark.parametrize("first", [0, 7, PANE_CHARS, 3 * PANE_CHARS + 11, 5 * PANE_CHARS - 2])
def test_a_long_row_is_cut_around_its_first_highlight(first):
    text = "".join(chr(ord("a") + i % 26) for i in range(5 * PANE_CHARS))
    ranges = [(first, first + 2), (first + 5, first + 9), (first - 100, first - 90)]
    ranges = [(max(0, s), min(len(text), e)) for s, e in ranges]
    ranges += [(0, 1), (len(text) - 1, len(text))]
    start, end, inside = excerpt(text, ranges)
    assert 0 <= start < end <= len(text) and end - start == PANE_CHARS
    assert start <= first < end                         # the first highlight is shown
    window = text[start:end]
    kept = []
    for s, e in ranges:
        if s < end and e > start:                      # overlaps the window: kept, clipped
            kept.append(text[max(s, start):min(e, end)])
    assert [window[s:e] for s, e in inside] == kept
    assert all(0 <= s <= e <= PANE_CHARS for s, e in inside)


def test_a_range_across_the_window_edge_is_clipped_to_it():
    text = "y" * (3 * PANE_CHARS)
    first = (PANE_CHARS, PANE_CHARS + 1)
    start, end, inside = excerpt(text, [first])
    assert (start, end) == (PANE_CHARS - PANE_CHARS // 4, 2 * PANE_CHARS - PANE_CHARS // 4)
    assert inside == [(PANE_CHARS // 4, PANE_CHARS // 4 + 1)]
    _, _, inside = excerpt(text, [first, (start - 5, start + 5), (end - 5, end + 5),
                                  (start - 9, start), (end, end + 9)])
    assert inside == [(PANE_CHARS // 4, PANE_CHARS // 4 + 1), (0, 5), (PANE_CHARS - 5, PANE_CHARS)]


def test_a_long_excerpt_starts_and_ends_at_a_word_boundary():
    words = " ".join(f"word{i:05d}" for i in range(8000))       # 80,000 characters
    first = words.index("word05000")
    start, end, inside = excerpt(words, [(first, first + 9)])
    assert words[start - 1] == " " and words[start:start + 4] == "word"  # not "rd04..."
    assert " " in (words[end - 1], words[end])                          # not "word0"
    assert end - start <= PANE_CHARS and start <= first < end
    assert [words[start:end][s:e] for s, e in inside] == ["word05000"]
    for shift in range(1, 12):                  # wherever the window would have cut
        start, end, _ = excerpt(words, [(first + shift, first + 9)])
        assert words[start - 1] == " " and " " in (words[end - 1], words[end])
    # without a space near the edge (one long word) the edge stays where it was
    text = "x" * (3 * PANE_CHARS)
    assert excerpt(text, [(PANE_CHARS, PANE_CHARS + 1)])[:2] == (
        PANE_CHARS - PANE_CHARS // 4, 2 * PANE_CHARS - PANE_CHARS // 4)


def test_a_long_row_without_highlights_starts_at_the_beginning():
    assert excerpt("z" * (PANE_CHARS + 1), []) == (0, PANE_CHARS, [])


def test_the_excerpt_note_counts_from_one():
    assert excerpt_note(15_000, 35_000, 2_000_000) == (
        "[Characters 15,001 to 35,000 of 2,000,000, around the first highlight.]\n")


# --- sizes and sentences ----------------------------------------------------------------

@pytest.mark.parametrize("size, text", [
    (0, "0 bytes"), (999, "999 bytes"), (1000, "1.0 kB (1,000 bytes)"),
    (999_999, "1000.0 kB (999,999 bytes)"), (1_000_000, "1.00 MB (1,000,000 bytes)"),
    (2_000_001, "2.00 MB (2,000,001 bytes)")])
def test_human_size(size, text):
    assert human_size(size) == text


def test_too_big_names_the_file_and_both_byte_counts():
    # not "2.00 MB ... at most 2 MB": a file one byte over reads as over
    assert too_big("huge.jsonl", 2_000_001, 2_000_000) == (
        "huge.jsonl is 2,000,001 bytes, 1 byte over the page's bound of 2,000,000 bytes "
        "(2 MB). Nothing of it was read: use the ngram-overlap command for larger files.")
    assert "5,000,000 bytes, 3,000,000 bytes over" in too_big("x", 5_000_000, 2_000_000)


def test_field_options_say_what_each_field_holds():
    assert field_label("contents", 85.2, "Apollo 11 landed on the Moon in July 1969 with three") \
        == 'contents \u2014 85 tokens/row \u2014 "Apollo 11 landed on the Moon in\u2026"'
    assert field_label("url", 4, "https://a.org/1", "url") == \
        'url \u2014 4 tokens/row, URLs \u2014 "https://a.org/1"'
    assert field_label("question.choices.text", 1.25, "Me\nYou", "text", True) == \
        'question.choices.text \u2014 1.2 tokens/row, from a list \u2014 "Me You"'
    assert field_label("empty", 0, "", "empty") == "empty \u2014 0 tokens/row, empty"
    assert field_label("big", 12345.6, "x") == 'big \u2014 12,346 tokens/row \u2014 "x"'
    assert id_label("doc_id", "d1") == 'doc_id \u2014 "d1"' and id_label("n", "") == "n"
    assert array_label("data.paragraphs.qas", 570, True) == \
        "data.paragraphs.qas \u2014 570 items (objects)"
    assert array_label("", 1, False) == "the top-level array \u2014 1 item (strings)"


def test_slot_sentences():
    assert several_names(["a.jsonl"]) == "a.jsonl"
    assert several_names(["a.jsonl", "b.txt"]) == "a.jsonl and 1 more file"
    assert several_names(["a", "b", "c"]) == "a and 2 more files"
    assert file_line("p1.jsonl", 1500, "jsonl", 1) == "p1.jsonl: 1.5 kB (1,500 bytes), JSONL, 1 row"
    assert file_line("p.txt", 10, "text", 3, (40, 2, 13)) == (
        "p.txt: 10 bytes, plain text, 3 rows, 40 tokens, 2 shorter than 13 tokens")
    assert needs_file("b").startswith("Load file B, the training data, to check your file A")
    assert needs_file("a").startswith("Load file A, the test set, to check your file B")


def test_download_names_say_what_was_checked_and_how():
    assert download_name("ngram-overlap", "test.jsonl", ["train.csv"], 13) == \
        "ngram-overlap_test_vs_train_n13.csv"
    assert download_name("ngram-overlap-rows", "my test (v2).JSON", ["p1.jsonl", "p2.jsonl"],
                         8, "33.33334", "strict") == \
        "ngram-overlap-rows_my-test-v2_vs_p1+1_n8_t33.33334_strict.csv"
    assert download_name("ngram-overlap", "=HYPERLINK(1).csv", ["../../etc/passwd"], 13, "0") \
        == "ngram-overlap_HYPERLINK-1_vs_passwd_n13.csv"
    assert safe_part("<img src=x onerror=alert(1)>.json") == "img-src-x-onerror-alert-1"
    assert safe_part("日本語.txt") == "file" and safe_part(".env") == "env"
    assert len(safe_part("x" * 300 + ".csv")) == 40


def test_ignored_windows_read_as_words():
    from array import array
    vocabulary = {"the": 0, "licence": 1, "applies": 2, "unused": 3}
    key = array("I", [0, 1, 2]).tobytes()
    words = words_by_id(vocabulary, [key])
    assert words == {0: "the", 1: "licence", 2: "applies"}
    assert window_words(key, words) == "the licence applies"
    assert ignored_line("the licence applies", 240) == \
        "\u201cthe licence applies\u201d \u2014 in 240 training rows"
    assert ignored_summary(1, 10).startswith("1 n-gram was ignored: each occurs in more than 10")
    assert ignored_summary(1234, 10).startswith("1,234 n-grams were ignored")


@pytest.mark.parametrize("data, name, read, options", [
    (b"id;text\n1;a b c\n", "a.csv", ReadChoice(delimiter=","), {"delimiter": ","}),
    (b"id;text\n1;a b c\n", "a.csv", ReadChoice(delimiter=";"), {}),       # as detected
    (b"id;text\n1;a b c\n", "a.csv", ReadChoice(header=False), {"header": False}),
    (b"id;text\n1;a b c\n", "a.csv", ReadChoice(records="data", text_rows="file"), {}),
    (b'{"data": [{"t": "x"}], "labels": ["a", "b"]}', "d.json", ReadChoice(records="labels"),
     {"records": "labels"}),
    (b'{"data": [{"t": "x"}], "labels": ["a", "b"]}', "d.json", ReadChoice(records="gone"), {}),
    (b'{"data": [{"t": "x"}]}', "d.json", ReadChoice(delimiter=";", header=True), {}),
    (b"one\n\ntwo\n", "t.txt", ReadChoice(text_rows="paragraph"), {"text_rows": "paragraph"}),
    (b"one\n\ntwo\n", "t.txt", ReadChoice(text_rows="line"), {}),
])
def test_read_choices_apply_only_to_the_formats_they_fit(data, name, read, options):
    table = read_table(data, name)
    assert fitting(table, read) == options
    read_table(data, name, **options)           # what fits reads without an error


def test_format_label_and_fields_summary():
    assert [format_label(f) for f in ("json", "csv", "text")] == ["JSON", "CSV", "plain text"]
    assert fields_summary(3, 3, 500, 1000) == "Fields"
    assert fields_summary(501, 501, 500, 1000) == "Fields (501)"
    assert fields_summary(10_000, 1_002, 500, 1000) == (
        "Fields (listing 1,002 of 10,000; the ngram-overlap command takes any field by name)")


def test_timing_line_is_what_the_benchmark_reads():
    assert timing_line(1.23456, 0.5, 0.0456, "match A") == (
        "check 1.235 s, draw 0.500 s, longest Python step 46 ms (match A)")


# --- the controls take the engine's values ----------------------------------------------

def test_controls_use_the_engine_bounds_and_layers():
    assert controls.N_RULE == f"n must be a whole number from {N_MIN} to {N_MAX}"
    assert controls.N_LABEL == f"Window size n, in tokens ({N_MIN} to {N_MAX})"
    assert [c for c in controls.CONTROL_IDS if c.startswith("layer-")] == \
        [f"layer-{layer}" for layer in LAYERS]
    assert {"short-min", "max-b-rows-on", "max-b-rows"} <= set(controls.CONTROL_IDS)
    html = (build_site.ROOT / "index.html").read_text("utf-8")
    # the static page (shown before Python is ready) agrees with the engine
    assert f'<label for="n" id="n-label">{controls.N_LABEL}</label>' in html
    assert f'id="n" min="{N_MIN}" max="{N_MAX}" step="1" value="{N_DEFAULT}"' in html
    assert (f'id="short-min" min="0" max="{controls.SHORT_MIN_MAX}" step="1" '
            f'value="{SHORT_MIN_DEFAULT}"') in html
    assert f'id="max-b-rows" min="1" step="1" value="{controls.MAX_B_ROWS_DEFAULT}"' in html
    for layer in LAYERS:
        checked = " checked" if layer in DEFAULT_LAYERS else ""
        assert f'id="layer-{layer}" value="{layer}"{checked}>' in html


@pytest.mark.parametrize("text, kind, low, high, value", [
    ("13", int, 5, 25, 13), (" 5 ", int, 5, 25, 5), ("25", int, 5, 25, 25), ("26", int, 5, 25, None),
    ("8.5", int, 5, 25, None), ("", int, 5, 25, None), ("0", float, 0, 100, 0.0),
    ("100", float, 0, 100, 100.0), ("nan", float, 0, 100, None), ("inf", float, 0, 100, None),
    ("1e2", float, 0, 100, 100.0), ("-0.1", float, 0, 100, None)])
def test_parse_number(text, kind, low, high, value):
    assert controls.parse_number(text, kind, low, high) == value


# --- the build ships the engine modules the tab needs, and no others ---------------------

def test_the_engine_zip_lists_no_command_line_module():
    assert not set(build_site.ENGINE_MODULES) & set(build_site.COMMAND_ONLY)
    assert {"cli", "__main__", "run.distributed", "decontaminate", "write.outputs"} <= set(
        build_site.COMMAND_ONLY)
    # the suite's modules ship for several test sets in slot A, imported only then
    assert {"run.suite", "read.files"} <= set(build_site.ENGINE_LAZY) <= set(
        build_site.ENGINE_MODULES)
    shipped = [*build_site.engine_files(), *build_site.page_files(), build_site.ROOT / "app.py"]
    build_site.check_imports(shipped)                    # the real tree passes


def test_the_build_refuses_a_missing_or_unlisted_module(monkeypatch, tmp_path):
    monkeypatch.setattr(build_site, "ENGINE_MODULES", (*build_site.ENGINE_MODULES, "nowhere"))
    with pytest.raises(build_site.BuildError, match="nowhere"):
        build_site.engine_files()
    monkeypatch.undo()
    without_check = [p for p in build_site.engine_files() if p.stem != "check"]
    with pytest.raises(build_site.BuildError, match="ngram_core.run.check"):
        build_site.check_imports(without_check)          # __init__ imports it
    fake = tmp_path / "ngram_page"
    fake.mkdir()
    (fake / "bad.py").write_text("from ngram_core.cli import main\nfrom . import other\n")
    assert build_site.imported(fake / "bad.py") == {("ngram_core", "cli"), ("ngram_page", "other")}


def test_the_python_archive_is_reproducible_and_holds_the_stage(tmp_path):
    stage = tmp_path / "stage"
    (stage / "ngram_page" / "__pycache__").mkdir(parents=True)
    for path in build_site.page_files():
        (stage / "ngram_page" / path.name).write_bytes(path.read_bytes())
    (stage / "ngram_page" / "__pycache__" / "dom.cpython-314.pyc").write_bytes(b"\x00" * 700)
    for name in ("one.tar.gz", "two.tar.gz"):
        build_site.write_archive(tmp_path / name, stage)
    assert (tmp_path / "one.tar.gz").read_bytes() == (tmp_path / "two.tar.gz").read_bytes()
    with tarfile.open(tmp_path / "one.tar.gz") as tar:
        names = tar.getnames()
        assert tar.extractfile("ngram_page/__pycache__/dom.cpython-314.pyc").read() == b"\x00" * 700
    assert sorted(names) == names
    assert set(names) == {f"ngram_page/{p.name}" for p in build_site.page_files()} \
        | {"ngram_page/__pycache__/dom.cpython-314.pyc"}


def test_a_page_module_that_reads_the_browser_as_it_imports_stays_out_of_the_snapshot(tmp_path):
    """The snapshot is made in Node.js: a value read from the browser at import would
    be Node's. Such a module (and any page module importing it) is imported in the tab."""
    package = tmp_path / "ngram_page"
    package.mkdir()
    sources = {
        "dom.py": "try:\n    import js\nexcept ImportError:\n    js = None\n"
                  "def now_ms():\n    return js.performance.now()\n",
        "clock.py": "from .dom import now_ms\nIMPORTED = now_ms()\n",
        "agent.py": "from .dom import js\nAGENT = str(js.navigator.userAgent)\n",
        "uses_clock.py": "from . import clock\n",
        "decorated.py": "from .dom import now_ms\n@now_ms\ndef f():\n    pass\n",
        "lazy.py": "from .dom import js, now_ms\ndef later():\n    return js.document, now_ms()\n"
                   "class Later:\n    def at(self):\n        return now_ms()\n",
    }
    for name, text in sources.items():
        (package / name).write_text(text)
    paths = sorted(package.glob("*.py"))
    assert build_site.reads_browser_at_import(package / "clock.py") == ["line 2: now_ms()"]
    assert build_site.reads_browser_at_import(package / "agent.py") == ["line 2: js.navigator"]
    assert build_site.snapshot_page_modules(paths) == ["ngram_page.dom", "ngram_page.lazy"]


def test_every_page_module_is_in_the_snapshot():
    """The page's modules read nothing from the browser as they import, so the tab
    imports none of them at start (about 0.1 s of its first result)."""
    in_snapshot = build_site.snapshot_page_modules(build_site.page_files())
    assert in_snapshot == [f"ngram_page.{p.stem}" for p in build_site.page_files()
                           if p.stem != "__init__"]


def test_the_built_archive_has_bytecode_where_the_tab_would_compile():
    """Bytecode for every page module the snapshot has not imported and for each
    file of PyScript's own package (whose sources PyScript writes at start)."""
    with tarfile.open(build_site.DIST / build_site.PYTHON_FILES) as tar:
        names = set(tar.getnames())
    in_snapshot = set(build_site.snapshot_page_modules(build_site.page_files()))
    for path in build_site.page_files():
        assert f"ngram_page/{path.name}" in names
        cached = any(n.startswith(f"ngram_page/__pycache__/{path.stem}.cpython-") for n in names)
        assert cached == (f"ngram_page.{path.stem}" not in in_snapshot), path.name
    for name in build_site.ENGINE_MODULES:
        assert f"ngram_core/{name.replace('.', '/')}.py" in names
    pyscript = {n for n in names if n.startswith("pyscript/")}
    assert any(n.startswith("pyscript/__pycache__/__init__.cpython-") for n in pyscript)
    assert all(n.startswith("pyscript/__pycache__/") and n.endswith(".pyc") for n in pyscript)


def test_the_built_page_preloads_pyscripts_core_chunk():
    """PyScript's entry module only re-exports a chunk whose name has a hash: the
    build preloads that chunk (it exists in dist), so both are requested at once."""
    entry = 'export{p as MPWorker,q as PyWorker}from"./core-C9KDLldu.js";\n//# sourceMappingURL=x'
    assert build_site.pyscript_core_chunk(entry) == "core-C9KDLldu.js"
    with pytest.raises(build_site.BuildError, match="0 core chunks"):
        build_site.pyscript_core_chunk('export{a}from"./other.js";')
    html = f"<head>\n{build_site.PYSCRIPT_ENTRY}\n</head>"
    assert build_site.with_core_preload(html, "core-X.js") == (
        '<head>\n<link rel="modulepreload" href="./vendor/pyscript/core-X.js">\n'
        f"{build_site.PYSCRIPT_ENTRY}\n</head>")
    with pytest.raises(build_site.BuildError, match="core.js once"):
        build_site.with_core_preload("<head></head>", "core-X.js")
    built = (build_site.DIST / "index.html").read_text("utf-8")
    chunk = build_site.pyscript_core_chunk(
        (build_site.DIST / "vendor" / "pyscript" / "core.js").read_text("utf-8"))
    assert f'<link rel="modulepreload" href="./vendor/pyscript/{chunk}">' in built
    assert (build_site.DIST / "vendor" / "pyscript" / chunk).is_file()


# --- the method section states each rule with an example ----------------------------------

def test_how_this_is_calculated_states_the_new_rules_with_examples():
    html = (build_site.ROOT / "index.html").read_text("utf-8")
    method = html[html.index('<section id="method"'):html.index('<section id="questions"')]
    for example in ("<code>GPT4は日本語</code>", "<code>gpt4</code>", "<code>你好，世界。</code>",
                    "<em>contained</em>", "red planet today",
                    "more than 10 training documents", "more than K training rows",
                    "one row per\n    paragraph", "<code>question.stem</code>",
                    "<code>data.paragraphs.qas</code>", "<code>b_file</code>"):
        assert example in method, example


def test_the_method_sections_examples_are_what_the_engine_does():
    from ngram_core import Row, run_check
    from ngram_core.method.tokenize import Tokenizer
    assert [t for t, _, _ in Tokenizer().tokenize("GPT4は日本語")] == ["gpt4", "は", "日", "本", "語"]
    assert [t for t, _, _ in Tokenizer("strict").tokenize("你好，世界。")] == list("你好，世界。")
    result = run_check([Row(1, "a", "Which planet is known as the red planet today")],
                       [Row(1, "b", "Quiz: which planet is known as the red planet today? Mars.")])
    assert result.matches[0].tokens == 9 and result.summary.contained == 1
    lines = ("Apollo 11 was the spaceflight that first landed", "humans on the Moon, in July 1969.")
    assert [len(Tokenizer().ids(line)) for line in lines] == [8, 7]
