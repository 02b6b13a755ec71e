"""The page's pure helpers, in CPython without a browser: links, excerpts, sizes, the build.

The page modules import in CPython (their browser names are None here), so
what they compute from plain strings is tested like any other code; what they
do to the DOM is tested end to end in tests/test_page.py.
"""

from __future__ import annotations

import importlib
import pkgutil
import zipfile

import pytest

import ngram_page
from ngram_core import Settings
from ngram_core.index import N_DEFAULT, N_MAX, N_MIN
from ngram_core.tokenize import DEFAULT_LAYERS, LAYERS
from ngram_page import controls, dom
from ngram_page.text import (PANE_CHARS, excerpt, excerpt_note, fields_summary, format_label,
                             human_size, timing_line, too_big)
from ngram_page.urlstate import (FieldChoice, LinkControls, build_query, field_choice,
                                 link_controls, parse_query)
from scripts import build_site


# --- every module imports without a browser ------------------------------------------

def test_every_page_module_imports_in_cpython():
    names = [m.name for m in pkgutil.iter_modules(ngram_page.__path__)]
    assert {"urlstate", "text", "dom", "controls", "slots", "runner", "draw", "download", "page"} <= set(names)
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
    loose = build_query(13, 0.0, "loose", ("L1", "L3", "L4"), {})
    assert loose == "?n=13&threshold=0&mode=loose&layers=L1%2CL3%2CL4"
    strict = build_query(8, 12.5, "strict", ("L1",), {
        "a": FieldChoice(["my text", "q&a"], True, None),
        "b": FieldChoice(None, True, "doc~id*")})
    assert strict == "?n=8&threshold=12.5&mode=strict&a_field=my+text&a_field=q%26a&a_id=&b_id=doc%7Eid*"
    # a detected slot adds nothing
    assert build_query(9, 5.0, "strict", (), {"a": FieldChoice(), "b": FieldChoice()}) == \
        "?n=9&threshold=5&mode=strict"


HOSTILE_FIELDS = ["text", "a b", "q&a=1", "50%+", "<img src=x onerror=alert(1)>", "${x}",
                  "é漢字😀", "#frag?x", "~*-._"]


@pytest.mark.parametrize("settings", [Settings(), Settings(n=N_MIN, mode="strict", threshold=100),
                                      Settings(n=N_MAX, layers=("L2",), threshold=33.3)])
def test_a_link_round_trips_settings_and_fields(settings):
    a = FieldChoice(HOSTILE_FIELDS[1:4], True, HOSTILE_FIELDS[4])
    b = FieldChoice(HOSTILE_FIELDS[5:], True, None)              # row numbers
    search = build_query(settings.n, settings.threshold, settings.mode, settings.layers,
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
    link = link_controls(parse_query("?n=40&threshold=abc&mode=STRICT&layers=l1,+L2+,,L9"))
    assert link == LinkControls(n="40", threshold="abc", strict=False,
                                layers=frozenset({"L1", "L2"}))
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


def test_too_big_names_the_file_its_size_and_the_bound():
    assert too_big("huge.jsonl", 2_000_001, 2_000_000) == (
        "huge.jsonl is 2.00 MB (2,000,001 bytes); the page reads files of at most 2 MB "
        "(2,000,000 bytes). Nothing of it was read: use the ngram-overlap command for larger "
        "files.")


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
    html = (build_site.ROOT / "index.html").read_text("utf-8")
    # the static page (shown before Python is ready) agrees with the engine
    assert f'<label for="n" id="n-label">{controls.N_LABEL}</label>' in html
    assert f'id="n" min="{N_MIN}" max="{N_MAX}" step="1" value="{N_DEFAULT}"' in html
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
    assert {"cli", "__main__", "distributed", "files"} <= set(build_site.COMMAND_ONLY)
    shipped = [*build_site.engine_files(), *build_site.page_files(), build_site.ROOT / "app.py"]
    build_site.check_imports(shipped)                    # the real tree passes


def test_the_build_refuses_a_missing_or_unlisted_module(monkeypatch, tmp_path):
    monkeypatch.setattr(build_site, "ENGINE_MODULES", (*build_site.ENGINE_MODULES, "nowhere"))
    with pytest.raises(build_site.BuildError, match="nowhere"):
        build_site.engine_files()
    monkeypatch.undo()
    without_check = [p for p in build_site.engine_files() if p.stem != "check"]
    with pytest.raises(build_site.BuildError, match="ngram_core.check"):
        build_site.check_imports(without_check)          # __init__ imports it
    fake = tmp_path / "ngram_page"
    fake.mkdir()
    (fake / "bad.py").write_text("from ngram_core.cli import main\nfrom . import other\n")
    assert build_site.imported(fake / "bad.py") == {("ngram_core", "cli"), ("ngram_page", "other")}


def test_write_zip_is_reproducible(tmp_path):
    paths = build_site.page_files()
    for name in ("one.zip", "two.zip"):
        build_site.write_zip(tmp_path / name, "ngram_page", paths)
    assert (tmp_path / "one.zip").read_bytes() == (tmp_path / "two.zip").read_bytes()
    with zipfile.ZipFile(tmp_path / "one.zip") as z:
        assert sorted(z.namelist()) == sorted(f"ngram_page/{p.name}" for p in paths)
