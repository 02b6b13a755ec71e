"""A CSV, a TSV or a JSON array read a piece at a time gives the records of the file
read whole: the same fields, records, line numbers and notes, in order, whatever the
size of a piece; where it cannot be read so, it says so and the whole reading decides
(#34: memory set by A on any B)."""

from __future__ import annotations

import gzip
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from ngram_core.errors import InputError
from ngram_core.read.files import read_path_table
from ngram_core.read.record_stream import (NotStreamable, delimited_layout, delimited_tables,
                                      head_table, json_array_tables)
from ngram_core.table import ReadOptions

CELLS = st.text(alphabet='ab ,;\t|"\n\r\u00e9', max_size=8)
SETTINGS = settings(max_examples=250, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


def whole(path, fmt):
    """The whole reading: its table, or its error's words."""
    try:
        table = read_path_table(str(path), ReadOptions(format=fmt, role="b"))
    except InputError as e:
        return str(e)
    return table


def pieced(path, fmt, piece_chars):
    try:
        layout = delimited_layout(str(path), ReadOptions(format=fmt, role="b"))
    except InputError as e:
        return str(e)
    if layout is None:
        return None
    tables = list(delimited_tables(str(path), layout, piece_chars))
    return tables


def same_records(expected, tables):
    records = [r for t in tables for r in t.records]
    lines = [n for t in tables for n in t.lines]
    assert records == expected.records
    assert lines == expected.lines
    for t in tables:
        assert t.fields == expected.fields and t.notes == expected.notes
        assert (t.format, t.delimiter, t.header) == (expected.format, expected.delimiter,
                                                     expected.header)


def csv_text(rows, delimiter, quote_all, preamble, crlf):
    def cell(c):
        if quote_all or any(ch in c for ch in (delimiter, '"', "\n", "\r")):
            return '"' + c.replace('"', '""') + '"'
        return c
    end = "\r\n" if crlf else "\n"
    head = "Export of the data" + end + end if preamble else ""
    return head + "".join(delimiter.join(cell(c) for c in row) + end for row in rows)


@SETTINGS
@given(st.lists(st.lists(CELLS, min_size=3, max_size=3), min_size=1, max_size=12),
       st.sampled_from([",", "\t", ";"]), st.booleans(), st.booleans(), st.booleans(),
       st.integers(1, 40), st.booleans())
def test_quoted_delimited_files_read_in_pieces_give_the_whole_files_records(
        tmp_path, rows, delimiter, quote_all, preamble, crlf, piece_chars, compressed):
    rows = [["id", "text", "label"]] + rows
    text = csv_text(rows, delimiter, quote_all, preamble, crlf)
    fmt = "tsv" if delimiter == "\t" else "csv"
    path = tmp_path / (f"b.{fmt}.gz" if compressed else f"b.{fmt}")
    data = text.encode()
    path.write_bytes(gzip.compress(data) if compressed else data)
    expected, got = whole(path, fmt), pieced(path, fmt, piece_chars)
    if isinstance(expected, str):          # refused whole: refused alike, or read whole
        assert got in (expected, None)
        return
    assert got is not None
    same_records(expected, got)


LINE = st.lists(st.text(alphabet='ab "\u00e9', max_size=6), min_size=2, max_size=2)


@SETTINGS
@given(st.lists(LINE, min_size=1, max_size=10), st.sampled_from(["\t", ","]),
       st.integers(1, 30), st.booleans())
def test_files_whose_quotes_are_text_read_in_pieces_as_whole(tmp_path, rows, delimiter,
                                                             piece_chars, blank_lines):
    """Lines of as many separators, quotes anywhere (GLUE's TSVs): the whole file
    decides whether quotes are quoting, and every piece is read as it decided."""
    lines = [delimiter.join(["id", "text"])] + [delimiter.join(r) for r in rows]
    if blank_lines:
        lines.insert(2, "")
    fmt = "tsv" if delimiter == "\t" else "csv"
    path = tmp_path / f"b.{fmt}"
    path.write_text("\n".join(lines) + "\n")
    expected, got = whole(path, fmt), pieced(path, fmt, piece_chars)
    if isinstance(expected, str):
        assert got in (expected, None)
        return
    assert got is not None
    same_records(expected, got)


def test_a_lone_quote_far_into_a_file_makes_every_line_text_as_read_whole(tmp_path):
    """The quote that joins lines lies past the first MiB: read in pieces, the records
    before it are already read as the whole file is, quotes as text."""
    body = "".join(f"{i}\tsentence number {i} of the file\n" for i in range(60_000))
    path = tmp_path / "b.tsv"
    path.write_text("id\ttext\n" + body + '60000\t"a lone quote\n60001\tlast\n')
    assert path.stat().st_size > 2**21
    expected = whole(path, "tsv")
    assert "quotes read as text" in expected.notes[-1]
    same_records(expected, pieced(path, "tsv", 1 << 16))


def test_a_broken_quoted_record_is_told_as_the_whole_reading_tells_it(tmp_path):
    path = tmp_path / "b.csv"
    path.write_text('id,text\n1,"fine"\n2,"open quote, "then" more\n3,x,y\n')
    assert pieced(path, "csv", 10) == whole(path, "csv")


def test_a_file_that_is_not_utf8_is_left_to_the_whole_reading(tmp_path):
    path = tmp_path / "b.csv"
    path.write_bytes("id,text\n1,caf\u00e9 au lait\n".encode("cp1252"))
    assert pieced(path, "csv", 10) is None
    assert whole(path, "csv").notes[0] == "not UTF-8: read as Windows-1252"


JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                           lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(alphabet="abc", max_size=3), inner,
                                             max_size=3), max_leaves=8)
ITEMS = st.lists(st.dictionaries(st.sampled_from(["id", "text", "meta", "tags"]), JSON_VALUES,
                                 min_size=1, max_size=4), min_size=1, max_size=10)


@SETTINGS
@given(ITEMS, st.sampled_from([None, 0, 2]), st.integers(1, 60), st.booleans())
def test_a_json_array_read_item_by_item_gives_the_whole_arrays_records(
        tmp_path, items, indent, piece_chars, compressed):
    text = json.dumps(items, indent=indent, ensure_ascii=indent is None)
    path = tmp_path / ("b.json.gz" if compressed else "b.json")
    path.write_bytes(gzip.compress(text.encode()) if compressed else text.encode())
    expected = whole(path, "json")
    try:
        tables = list(json_array_tables(str(path), piece_chars))
    except NotStreamable:
        assert isinstance(expected, str)
        return
    except InputError as e:                 # an item that is no record: told alike
        assert str(e) == expected
        return
    records = [r for t in tables for r in t.records]
    assert records == expected.records
    assert head_table(iter(tables), 10**6).fields == expected.fields
    assert all(t.notes == expected.notes for t in tables)


@pytest.mark.parametrize("text", ['[{"text": "a"}, {"text": "b"', '[{"text": "a"}] x',
                                  '[{"text": "a"},, {"text": "b"}]', '[]',
                                  "[" * 150 + "]" * 150, '{"data": [{"text": "a"}]}'])
def test_a_json_file_that_is_no_whole_array_is_left_to_the_whole_reading(tmp_path, text):
    path = tmp_path / "b.json"
    path.write_text(text)
    with pytest.raises(NotStreamable):
        list(json_array_tables(str(path), 4))


@pytest.mark.parametrize("shape", ["csv", "tsv.gz", "json"])
def test_a_csv_or_json_array_training_file_streams_to_the_pages_bytes(tmp_path, shape):
    """Streamed in pieces of 1 MiB (3 MB of B here) or indexed whole as on the page:
    the same summary, the same CSVs, the same b_ids (ids missing past the first 200
    rows: the row's number in the file)."""
    import random

    from ngram_core import Settings, run_check
    from ngram_core.run.distributed import check_distributed
    from ngram_core.read.files import fields_of, load_rows_by_file

    rng = random.Random(11)
    words = [f"w{i}" for i in range(3000)]
    a_texts = [" ".join(rng.choice(words) for _ in range(40)) for _ in range(30)]
    a_path = tmp_path / "a.jsonl"
    a_path.write_text("".join(json.dumps({"id": f"a{i}", "text": t}) + "\n"
                              for i, t in enumerate(a_texts)))
    docs = []
    for i in range(12_000):
        text = " ".join(rng.choice(words) for _ in range(40))
        if i % 1000 == 999:
            text += "\n" + a_texts[i // 1000]           # a quoted line break, then a leak
        docs.append({"id": f"d{i}" if i < 5000 or i % 3 else "", "text": text})
    if shape == "json":
        b_path = tmp_path / "b.json"
        b_path.write_text(json.dumps(docs, indent=1))
    else:
        sep = "\t" if shape.startswith("tsv") else ","
        body = f"id{sep}text\n" + "".join(
            f'{d["id"]}{sep}"{d["text"]}"\n' for d in docs)
        b_path = tmp_path / f"b.{shape}"
        b_path.write_bytes(gzip.compress(body.encode()) if shape.endswith(".gz")
                           else body.encode())
    assert b_path.stat().st_size > 2**20 or shape.endswith(".gz")
    a_rows = load_rows_by_file([str(a_path)], ["text"])[0]
    b_rows, b_files, b_reads = load_rows_by_file([str(b_path)], None, None,
                                                 ReadOptions(role="b"))
    s = Settings(n=8)
    indexed = run_check(a_rows, b_rows, s, b_files, fields=(["text"], fields_of(b_reads)))
    streamed = check_distributed(None, a_rows, [str(b_path)], s, a_fields=["text"])
    assert indexed.summary.flagged == 12
    assert streamed.summary.as_dict() == indexed.summary.as_dict()
    assert streamed.rows_csv() == indexed.rows_csv()
    assert streamed.csv() == indexed.csv()
    assert streamed.b_reads[0].notes == b_reads[0].notes
