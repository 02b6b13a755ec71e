"""The bad files: one table that drives both tests/test_readers.py and
tests/test_hostile_input.py.

Each case is a file name (its extension picks the format; names are unique:
they are the test ids and the file names the command is given), its bytes,
a fragment the one-line message must contain, and where the message must say
the problem is: ``line`` or ``row``, or neither (both None: the message names
the file only). ``fields`` are the text fields asked for (None: detected).

test_readers asserts what ``read_rows`` raises; test_hostile_input asserts
that the command exits 2 with one line naming the file (and the line).
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import zipfile
from typing import NamedTuple


class BadFile(NamedTuple):
    name: str
    data: bytes
    needle: str
    line: int | None = None
    row: int | None = None
    fields: tuple[str, ...] | None = None
    command_needle: str | None = None   # what the command says instead (it reads the format)


def _workbook() -> bytes:
    """The first parts of an .xlsx file (a zip of XML parts)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as book:
        book.writestr("[Content_Types].xml", "<Types/>" * 200)
        book.writestr("xl/workbook.xml", "<workbook/>")
    return out.getvalue()


BAD_FILES = (
    # --- not text, or not UTF-8 ---
    BadFile("bom-then-bad-utf8.json", b'\xef\xbb\xbf[{"text": "ok"}, \xff]', "not valid UTF-8",
            line=1),
    BadFile("bad-utf8.txt", b"ok\nbad \xff here\n", "not valid UTF-8", line=2),
    BadFile("bad-utf8-pair.txt", b"fine\nbad \xc3\x28 here\n", "not valid UTF-8", line=2),
    BadFile("utf16-no-bom.json", '[{"text": "x"}]'.encode("utf-16-le"), "NUL", line=1),
    BadFile("utf16-no-bom-array.json", "[1]".encode("utf-16-le"), "NUL", line=1),
    BadFile("nul.txt", b"one\ntwo\x00three\n", "NUL", line=2),
    BadFile("nul-first-line.txt", b"abc\x00def", "NUL", line=1),
    BadFile("image.txt", b"\x89PNG\r\n\x1a\n" + bytes(range(256)), "PNG image"),
    BadFile("short-image.txt", b"\x89PNG\r\n\x1a\n\x00\x00", "PNG image"),
    BadFile("archive.jsonl", b"PK\x03\x04" + bytes(100), "zip archive"),
    BadFile("short-archive.jsonl", b"PK\x03\x04\x14\x00", "zip archive"),
    # a workbook, an old .xls, Parquet and gzip where text is read: named, with a way out
    BadFile("scores.xlsx", _workbook(), "a spreadsheet workbook, not a text file: save it as CSV"),
    BadFile("workbook-saved-as.csv", _workbook(), "spreadsheet workbook"),
    BadFile("scores.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(512), "save it as CSV"),
    BadFile("parquet-named.jsonl", b"PAR1" + bytes(64) + b"PAR1",
            "Parquet file, not a text file: save it as CSV or JSON Lines, or give it to the "
            "ngram-overlap command under a name ending in .parquet"),
    # Hugging Face datasets' save_to_disk (Arrow's stream format) and Arrow's file format
    BadFile("data-00000-of-00001.arrow", b"\xff\xff\xff\xff\x88\x00\x00\x00" + bytes(136),
            "Arrow file (as Hugging Face datasets' save_to_disk writes), not a text file: "
            "save it as JSON Lines (dataset.to_json), or give it to the ngram-overlap command "
            "under a name ending in .arrow",
            command_needle="is not a readable Arrow file ("),
    BadFile("table.feather", b"ARROW1\x00\x00" + bytes(64) + b"ARROW1", "Arrow file",
            command_needle="is not a readable Arrow file ("),
    BadFile("gzip-named.jsonl", gzip.compress(b'{"text": "a"}\n', mtime=0),
            "gzip archive, not a text file: decompress it"),
    # a compressed file under a name that does not say so: named by its first bytes (#35)
    BadFile("bzip2-named.jsonl", bz2.compress(b'{"text": "a"}\n'),
            "bzip2 archive, not a text file: decompress it"),
    BadFile("xz-named.csv", lzma.compress(b"id,text\n1,a\n"),
            "xz archive, not a text file: decompress it"),
    BadFile("train.jsonl.lz4", b"\x04\x22\x4d\x18" + bytes(32), "LZ4 archive, not a text file"),
    BadFile("empty.json", b"", "is empty"),
    BadFile("empty.csv", b"", "is empty"),
    BadFile("whitespace-only.txt", b"  \n \n", "is empty"),
    # --- JSON ---
    BadFile("truncated.json", b'[{"text": "a"},\n{"text": "b"', "not valid JSON", line=2),
    BadFile("truncated-indented.json", b'[{"text": "a"},\n {"text": "b"', "not valid JSON",
            line=2),
    BadFile("trailing-comma.json", b'[{"text": "a"},\n{"text": "b"},]', "not valid JSON",
            line=2),
    BadFile("trailing-comma-one-line.json", b'[{"text": "a"},]', "not valid JSON", line=1),
    BadFile("we\u00efrd <b>.json", b'[{"text": "a"},]', "not valid JSON", line=1),
    BadFile("number.json", b"12345", "top level of the JSON is a number"),
    BadFile("number-42.json", b"42", "the top level of the JSON is a number"),
    BadFile("item-is-a-number.json", b'[{"text": "a"}, 7]', "item 2 is a number", row=2),
    BadFile("deep.json", b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
            "nested more than 100 levels deep"),
    BadFile("deep-arrays.json", b"[" * 100000 + b"]" * 100000, "nested more than 100 levels deep"),
    # --- JSON Lines ---
    BadFile("bad-line.jsonl", b'{"text": "a"}\n{"text": "b"}\n{"text": \n{"text": "d"}\n',
            "not valid JSON Lines", line=3),
    BadFile("unclosed-line.jsonl", b'{"text": "a"}\n{"text": "b"\n{"text": "c"}\n',
            "not valid JSON Lines", line=2),
    BadFile("number-line.jsonl", b'{"text": "a"}\n7\n', "this line is a number", line=2),
    # --- CSV ---
    BadFile("ragged.csv", b"id,text\r\n1,a\r\n2,b,c\r\n", "has 3 fields", line=3),
    BadFile("extra-field.csv", b"id,text\n1,a\n2,b,extra\n", "has 3 fields where the header has 2",
            line=3),
    BadFile("titled.csv", b"Quiz questions (March)\n1,first\n2,second\n",
            "has 2 fields where the header has 1 (a title line above the header? delete it)",
            line=2),
    BadFile("header-only.csv", b"id,text\n", "header row but no rows"),
    BadFile("duplicate-columns.csv", b"text,id,text\n1,2,3\n", "two columns named 'text'",
            line=1),
    BadFile("duplicate-text-columns.csv", b"id,text,text\n1,a,b\n", "two columns named 'text'",
            line=1),
    # --- the text field asked for ---
    BadFile("no-field.jsonl", b'{"a": 1}\n{"b": 2}\n', "has no field 'text'", fields=("text",)),
    BadFile("null-field.jsonl", b'{"text": null}\n{"b": 2}\n',
            "no row has a value in the text field", fields=("text",)),
)

assert len({case.name for case in BAD_FILES}) == len(BAD_FILES), "case names must be unique"


def where(case: BadFile, name: str | None = None) -> str:
    """What the message starts with, before ``": "``: the file and the line or row."""
    name = case.name if name is None else name
    if case.line is not None:
        return f"{name}, line {case.line}"
    if case.row is not None:
        return f"{name}, row {case.row}"
    return name
