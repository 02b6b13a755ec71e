"""Hostile and broken input at the engine and the command: nothing breaks, nothing is lost.

Random bytes and random Unicode (every general category, lone surrogates,
combining sequences, right-to-left text) go through the readers and the
tokenizers; every bad file of tests/bad_files.py makes the command exit with
status 2 and one line naming the file (and line). (What read_rows raises for
the same files is asserted in tests/test_readers.py.)
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import reference
from bad_files import BAD_FILES, where
from ngram_core import InputError, Row, Settings, read_rows, read_table, run_check
from ngram_core.cli import main
from ngram_core.method.match import CHECKABLE
from ngram_core.report.export import CSV_COLUMNS, neutralize
from ngram_core.method.tokenize import LAYERS, Tokenizer, make_normalizer


@pytest.mark.parametrize("case", BAD_FILES, ids=[case.name for case in BAD_FILES])
def test_command_exits_2_and_names_the_file(tmp_path, case):
    bad = tmp_path / case.name
    bad.write_bytes(case.data)
    good = tmp_path / "good.txt"
    good.write_text("a perfectly fine row of text\n")
    out, err = io.StringIO(), io.StringIO()
    args = [str(good), str(bad)]
    for field in case.fields or ():
        args += ["--b-field", field]
    assert main(args, out, err) == 2
    assert out.getvalue() == ""
    message = err.getvalue()
    assert message.startswith(f"ngram-overlap: {where(case, str(bad))}: ")
    assert (case.command_needle or case.needle) in message
    assert message.endswith("\n") and message.count("\n") == 1 and "\r" not in message


def test_utf16_with_bom_and_mixed_line_endings_are_read():
    rows = read_rows("one\r\ntwo\nthree\rfour".encode("utf-16"), "a.txt")
    assert [r.text for r in rows] == ["one", "two", "three", "four"]


def test_lone_surrogates_neither_crash_nor_leak_into_output():
    data = b'[{"id": "x\\ud800", "text": "alpha \\udfff beta gamma delta epsilon"}]'
    rows = read_rows(data, "a.json")
    result = run_check(rows, rows, Settings(n=5))
    csv_bytes = result.csv().encode("utf-8")          # strict UTF-8: no surrogate survives
    assert "x\ufffd" in csv_bytes.decode()
    json.dumps(result.summary.as_dict(), ensure_ascii=False).encode("utf-8")


# --- fuzzing ---------------------------------------------------------------

@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400),
       st.sampled_from(["a.json", "a.jsonl", "a.csv", "a.tsv", "a.txt", "a", "a.bin"]))
def test_readers_return_rows_or_raise_input_error_on_random_bytes(data, name):
    try:
        rows = read_rows(data, name)
    except InputError as e:
        assert str(e).startswith(name)
        return
    for row in rows:
        row.text.encode("utf-8")                      # no lone surrogate reaches a caller
        row.id.encode("utf-8")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5),
                                                                      children, max_size=3),
    max_leaves=10)


@settings(max_examples=300, deadline=None)
@given(st.lists(json_values, max_size=6), st.sampled_from(["a.json", "a.jsonl"]))
def test_readers_on_random_json_documents(values, name):
    if name.endswith("jsonl"):
        data = "\n".join(json.dumps(v) for v in values).encode()
    else:
        data = json.dumps(values).encode()
    try:
        rows = read_rows(data, name)
    except InputError as e:
        assert str(e).startswith(name)
        return
    if name == "a.json":
        assert len(rows) == len(values)
    # (a one-line .jsonl holding an array is sniffed as JSON: a wrong extension)


# every general category, lone surrogates, combining sequences, right-to-left text
any_char = st.characters(codec=None)              # (Hypothesis leaves out surrogates: Cs)
lone_surrogate = st.integers(0xD800, 0xDFFF).map(chr)
combining = st.tuples(st.sampled_from("aeioAEIOנ"), st.sampled_from("\u0301\u0308\u0327\u05b7\u20dd"))
rtl = st.sampled_from(["שלום", "עולם", "مرحبا", "\u200f", "\u202e", "\u2067"])
fuzz_text = st.lists(any_char | lone_surrogate | combining.map("".join) | rtl
                     | st.sampled_from([" ", "\n", "\u00ad", "\u200b"]),
                     max_size=60).map("".join)
layer_sets = st.sets(st.sampled_from(LAYERS)).map(lambda s: tuple(sorted(s)))


@settings(max_examples=500, deadline=None)
@given(fuzz_text, st.sampled_from(["loose", "strict"]), layer_sets)
def test_token_ranges_are_inside_increasing_and_disjoint(text, mode, layers):
    tokens = Tokenizer(mode, layers).tokenize(text)
    previous_end = 0
    for token, start, end in tokens:
        assert previous_end <= start < end <= len(text)
        previous_end = end
        if mode == "loose":
            assert token == make_normalizer(layers)(text[start:end]) != ""
            assert all(reference.in_token_class(c) for c in text[start:end])
        else:
            assert token == text[start:end] and not any(c.isspace() for c in token)
    assert tokens == reference.tokenize(text, mode, layers)


# a row: random text among plain words, so that rows are long enough to check
# and share n-grams
row_text = st.lists(fuzz_text | st.sampled_from(["moon", "apollo", "landing", "1969", "crew"]),
                    max_size=12).map(" ".join)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(fuzz_text, row_text), min_size=1, max_size=4), st.integers(5, 7))
def test_the_whole_check_survives_any_text(rows, n):
    # A is read from a JSON file of random ids and texts (lone surrogates as
    # \ud800 escapes), so random ids reach the CSV; B is the same texts raw
    # (lone surrogates and all) plus a row joining them.
    a_file = json.dumps([{"id": i, "text": t} for i, t in rows]).encode()
    a_rows = read_rows(a_file, "a.json", ["text"], "id")
    texts = [t for _, t in rows]
    b_rows = [Row(k, str(k), t) for k, t in enumerate(texts, 1)]
    b_rows.append(Row(len(texts) + 1, "all", " ".join(texts)))
    result = run_check(a_rows, b_rows, Settings(n=n))
    for m in result.matches:
        assert 0 <= m.dirty <= m.tokens
    text = result.csv()
    text.encode("utf-8")                              # strict: raises on a lone surrogate
    table = list(csv.reader(io.StringIO(text, newline="")))
    assert table[0] == list(CSV_COLUMNS)
    assert all(len(line) == len(CSV_COLUMNS) for line in table)
    checkable = sorted(m.row + 1 for m in result.matches if m.status == CHECKABLE)
    assert sorted(int(line[0]) for line in table[1:]) == checkable   # every checkable row, once
    for line in table[1:]:
        cells = dict(zip(CSV_COLUMNS, line))
        assert cells["a_id"] == neutralize(a_rows[int(cells["a_row"]) - 1].id)
        assert 0 <= int(cells["dirty_tokens"]) <= int(cells["tokens"])
        if cells["b_row"]:
            assert cells["b_id"] == neutralize(b_rows[int(cells["b_row"]) - 1].id)


def test_csv_id_with_a_carriage_return_stays_one_cell():
    rows = read_rows(b'[{"id": "x\\ry", "text": "alpha beta gamma delta epsilon"}]', "a.json")
    table = list(csv.reader(io.StringIO(run_check(rows, rows, Settings(n=5)).csv(), newline="")))
    assert [line[1] for line in table] == ["a_id", "x\ry"]


def test_every_general_category_is_classified_like_the_reference():
    seen = set()
    tok = Tokenizer("loose", ())
    for cp in range(0x110000):
        ch = chr(cp)
        cat = unicodedata.category(ch)
        if cat in seen:
            continue
        seen.add(cat)
        expected = [(ch, 0, 1)] if reference.in_token_class(ch) else []
        assert tok.tokenize(ch) == expected, (hex(cp), cat)
    assert len(seen) == 30
