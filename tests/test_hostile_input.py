"""Hostile and broken input at the engine and the command: nothing breaks, nothing is lost.

Random bytes and random Unicode (every general category, lone surrogates,
combining sequences, right-to-left text) go through the readers and the
tokenizers; every bad file of the list below gets one clear message naming
the file (and line) and the command's exit status 2.
"""

from __future__ import annotations

import io
import json
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import reference
from ngram_core import InputError, Row, Settings, read_rows, read_table, run_check
from ngram_core.cli import main
from ngram_core.tokenize import LAYERS, Tokenizer, make_normalizer

# name, bytes, what the message must say, the line it must name (or None)
BAD_FILES = [
    ("bad-utf8.txt", b"ok\nbad \xff here\n", "not valid UTF-8", 2),
    ("utf16-no-bom.json", '[{"text": "x"}]'.encode("utf-16-le"), "NUL", 1),
    ("truncated.json", b'[{"text": "a"},\n{"text": "b"', "not valid JSON", 2),
    ("trailing-comma.json", b'[{"text": "a"},\n{"text": "b"},]', "not valid JSON", 2),
    ("number.json", b"12345", "top level of the JSON is a number", None),
    ("deep.json", b'{"a":' * 50_000 + b"1" + b"}" * 50_000, "nested more than 100 levels deep", None),
    ("bad-line.jsonl", b'{"text": "a"}\n{"text": "b"}\n{"text": \n{"text": "d"}\n',
     "not valid JSON Lines", 3),
    ("ragged.csv", b"id,text\r\n1,a\r\n2,b,c\r\n", "has 3 fields", 3),
    ("header-only.csv", b"id,text\n", "header row but no rows", None),
    ("duplicate-columns.csv", b"text,id,text\n1,2,3\n", "two columns named 'text'", 1),
    ("nul.txt", b"one\ntwo\x00three\n", "NUL", 2),
    ("image.txt", b"\x89PNG\r\n\x1a\n" + bytes(range(256)), "PNG image", None),
    ("archive.jsonl", b"PK\x03\x04" + bytes(100), "zip archive", None),
    ("empty.csv", b"", "is empty", None),
    ("no-field.jsonl", b'{"a": 1}\n{"b": 2}\n', "has no field 'text'", None),
    ("null-field.jsonl", b'{"text": null}\n{"b": 2}\n', "no row has a value in the text field",
     None),
]


@pytest.mark.parametrize("name, data, needle, line", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_bad_file_gets_one_clear_message(name, data, needle, line):
    with pytest.raises(InputError) as info:
        fields = ["text"] if "field" in name else None
        read_rows(data, name, fields)
    message = str(info.value)
    assert message.startswith(name) and needle in message
    assert "\n" not in message
    if line is not None:
        assert f"{name}, line {line}:" in message


@pytest.mark.parametrize("name, data, needle, line", BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_command_exits_2_and_names_the_file(tmp_path, name, data, needle, line):
    bad = tmp_path / name
    bad.write_bytes(data)
    good = tmp_path / "good.txt"
    good.write_text("a perfectly fine row of text\n")
    out, err = io.StringIO(), io.StringIO()
    args = [str(good), str(bad)] + (["--b-field", "text"] if "field" in name else [])
    assert main(args, out, err) == 2
    assert out.getvalue() == ""
    assert err.getvalue().startswith(f"ngram-overlap: {bad}")
    assert needle in err.getvalue() and err.getvalue().count("\n") == 1


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
any_char = st.characters(codec=None)
combining = st.tuples(st.sampled_from("aeioAEIOנ"), st.sampled_from("\u0301\u0308\u0327\u05b7\u20dd"))
rtl = st.sampled_from(["שלום", "עולם", "مرحبا", "\u200f", "\u202e", "\u2067"])
fuzz_text = st.lists(any_char | combining.map("".join) | rtl | st.sampled_from([" ", "\n", "\u00ad", "\u200b"]),
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


@settings(max_examples=200, deadline=None)
@given(st.lists(fuzz_text, min_size=1, max_size=4), st.integers(5, 7))
def test_the_whole_check_survives_any_text(texts, n):
    rows = [Row(i, str(i), t) for i, t in enumerate(texts, 1)]
    result = run_check(rows, rows + [Row(9, "9", " ".join(texts))], Settings(n=n))
    for m in result.matches:
        assert 0 <= m.dirty <= m.tokens
    result.csv().encode("utf-8", "surrogatepass")


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
