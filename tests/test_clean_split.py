"""The clean split: exact bytes worked out by hand, and for every fixture and any set
of dropped rows, both files read again by the readers give exactly their rows."""

import json

import pytest
from conftest import FIXTURES
from hypothesis import given, settings, strategies as st

from ngram_core import Row, Settings, run_check
from ngram_core.report.clean_split import (CLEAN_BY, main_drop, rows_to_drop, split_file,
                                    split_names)
from ngram_core.report.definitions import compute_definitions
from ngram_core.errors import InputError
from ngram_core.read.readers import read_table
from ngram_core.table import Table

REPORT = FIXTURES / "report"
#: fixture -> the read options it is read (and read again) with
CASES = {
    "split.csv": {}, "split.jsonl": {}, "split.txt": {},
    "paragraphs.txt": {"text_rows": "paragraph"}, "squad.json": {}, "array.json": {},
    "utf16.jsonl": {}, "cp1252.csv": {}, "test-set.jsonl": {},
}


def read(name: str, **options) -> tuple[bytes, Table]:
    data = (REPORT / name).read_bytes()
    return data, read_table(data, name, **options)


def read_again(data: bytes, name: str, table: Table, **options) -> Table:
    """The output read with the options that reproduce the original reading."""
    if table.format in ("csv", "tsv"):
        options = {**options, "delimiter": table.delimiter, "header": table.header}
    if table.format == "json" and table.records_path is not None:
        options = {**options, "records": table.records_path}
    return read_table(data, name, format=table.format, **options)


# --- by hand --------------------------------------------------------------------------

def test_csv_records_keep_their_bytes_line_endings_and_the_bom():
    data, table = read("split.csv")
    split = split_file(data, table, {1, 4})
    bom, head = b"\xef\xbb\xbf", b"id,text,score\r\n"
    assert split.clean == bom + head + (
        b'1,"alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu",1\r\n'
        b'3,"and a CRLF\r\ninside",1\n'
        b'4,caf\xc3\xa9 cr\xc3\xa8me,0\r')
    assert split.dirty == bom + head + (
        b'2,"a quoted record\nover two lines, with ""quotes""",0\r\n'
        b'5,last record without a line ending,1')
    assert (split.kept, split.dropped) == (3, 2)


def test_jsonl_lines_keep_their_endings_and_blank_lines_go():
    data, table = read("split.jsonl")
    split = split_file(data, table, {1, 3})
    lines = data.split(b"\n")
    assert split.clean == lines[0] + b"\n" + b'{"id": "j3", "text": ""}\r\n'
    assert split.dirty == lines[1] + b"\n" + b'{"id": "j4", "text": "no final line break"}'


def test_text_lines_and_paragraphs():
    data, table = read("split.txt")                 # first, "", third, fourth, last
    split = split_file(data, table, {2, 4})
    assert split.clean == b"first line\r\n\r\nfourth\n"
    assert split.dirty == b"third line after an empty one\rlast"
    data, table = read("paragraphs.txt", text_rows="paragraph")
    assert table.lines == [3, 7, 9]
    split = split_file(data, table, {1})
    assert split.clean == b"One paragraph\nwrapped.\n\n\nThird\r\nand last.\n"
    assert split.dirty == b"Second one.\n  \n"


def test_a_json_array_is_written_one_item_per_line():
    data, table = read("array.json")
    split = split_file(data, table, {0, 2})
    assert split.clean.decode() == ('[\n  {"id": "a2", "text": "second"},\n'
                                    '  {"id": "a4", "text": "fourth"}\n]\n')
    assert split.dirty.decode() == ('[\n  {"id": "a1", "text": "café \\\\u escapes \\ud800 lone", '
                                    '"n": 1.5},\n  "a bare string row"\n]\n')
    assert json.loads(split.dirty)[0]["text"] == "café \\u escapes \ud800 lone"


def test_a_nested_json_keeps_everything_around_the_rows():
    data, table = read("squad.json")
    split = split_file(data, table, {1, 3})
    clean = json.loads(split.clean)
    assert clean["version"] == "v2.0"
    assert [[[q["id"] for q in p["qas"]] for p in d["paragraphs"]] for d in clean["data"]] == \
        [[["s1"], ["s3"]], [[]]]
    assert clean["data"][1]["paragraphs"][0]["context"] == "The Sun is a star \U0001F31E."
    dirty = read_table(split.dirty, "d.json", records="data.paragraphs.qas")
    assert [r["id"] for r in dirty.records] == ["s2", "s4"]
    assert dirty.records[0]["data.paragraphs.context"] == \
        "The Moon is Earth's only natural satellite."
    assert split.clean.decode().splitlines()[:4] == ["{", '  "version": "v2.0",', '  "data": [',
                                                     "    {"]


def test_other_encodings_are_kept():
    data, table = read("utf16.jsonl")
    split = split_file(data, table, {0})
    assert split.clean == b"\xff\xfe" + '{"id": 2, "text": "row two ü"}\r\n'.encode("utf-16-le")
    data, table = read("cp1252.csv")
    split = split_file(data, table, {1})
    assert split.clean == "id;text\r\n1;café crème brûlée\r\n".encode("cp1252")


def test_a_single_object_and_parquet():
    data = b'{"q": {"text": "one object, one row"}}'
    table = read_table(data, "one.json")
    assert table.records_path is None
    assert split_file(data, table, set()).clean == data + b"\n"
    assert split_file(data, table, {0}) == (b"[]\n", data + b"\n", 0, 1)
    parquet = Table("a.parquet", "parquet", ["text"], [{"text": "x"}])
    with pytest.raises(InputError, match="JSON, JSONL, CSV, TSV and text files only"):
        split_file(b"PAR1", parquet, set())


def test_a_table_that_does_not_fit_the_bytes_is_refused():
    data, table = read("split.csv")
    other = (REPORT / "cp1252.csv").read_bytes()
    with pytest.raises(InputError, match="cannot be split"):
        split_file(other, table, set())


def test_split_names():
    assert split_names("test.jsonl") == ("test.clean.jsonl", "test.contaminated.jsonl")
    # each rule's files are told apart by name (six rules saved as one name before)
    assert split_names("test.jsonl", "llama2") == ("test.clean.by-llama2.jsonl",
                                                   "test.contaminated.by-llama2.jsonl")


# --- which rows go ----------------------------------------------------------------------

BASE = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu"


def test_rows_to_drop_main_and_definitions():
    a = [Row(1, "1", BASE),                                   # flagged
         Row(2, "2", "Hello world"),                          # short, duplicates B row 2
         Row(3, "3", "one two three four five six seven eight"),  # short, contained in B row 3
         Row(4, "4", "nothing shared with the training data at all here"),
         Row(5, "5", ""), Row(6, "6", "tiny")]
    b = [Row(1, "b1", BASE), Row(2, "b2", "hello, world"),
         Row(3, "b3", "zero one two three four five six seven eight nine")]
    result = run_check(a, b, Settings())
    assert main_drop(result.matches, 0.0) == {0, 1, 2}
    definitions = compute_definitions(a, b)
    assert rows_to_drop("palm", result.matches, 0.0, definitions) == {0, 2}
    assert rows_to_drop("llama2", result.matches, 0.0, definitions) == {0}
    assert rows_to_drop("gpt4", result.matches, 0.0, definitions) == {0, 2}   # case kept
    assert CLEAN_BY == ("main", "gpt3", "palm", "llama2", "gpt4", "tulu3")
    with pytest.raises(InputError, match="clean-by"):
        rows_to_drop("bogus", result.matches, 0.0, definitions)


# --- any drop set, read again ------------------------------------------------------------

@pytest.mark.parametrize("name", CASES)
@settings(max_examples=40, deadline=None)
@given(drop=st.sets(st.integers(0, 12)))
def test_both_files_read_again_give_exactly_their_rows(name, drop):
    options = CASES[name]
    data, table = read(name, **options)
    split = split_file(data, table, drop)
    dropped = {r for r in drop if r < len(table.records)}
    kept_records = [rec for r, rec in enumerate(table.records) if r not in dropped]
    dropped_records = [rec for r, rec in enumerate(table.records) if r in dropped]
    assert (split.kept, split.dropped) == (len(kept_records), len(dropped_records))
    for output, records in ((split.clean, kept_records), (split.dirty, dropped_records)):
        if data.startswith(b"\xef\xbb\xbf"):
            assert output.startswith(b"\xef\xbb\xbf")
        if records and any(value != "" for rec in records for value in rec.values()):
            again = read_again(output, name, table, **options)
            assert again.records == records
            assert again.encoding == table.encoding or table.encoding == "windows-1252"
        else:
            with pytest.raises(InputError):          # no rows, or only empty lines
                read_again(output, name, table, **options)
