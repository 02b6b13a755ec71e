r"""A delimited file (CSV, TSV) or a JSON array of records, read a piece at a time.

Contract: the records of a file read here, piece after piece, are the records
:func:`~ngram_core.read.readers.read_table` gives for the whole file, in order, with
the same fields, line numbers and notes; only whole records go in a piece (a
quoted field's line breaks stay inside its record), and a piece holds about
``piece_chars`` characters of text, so memory is set by the piece, not the file.
Where the file cannot be read so (not UTF-8, a NUL character, a JSON document
that is not an array, a broken one), the layout is None or the reading raises
:class:`NotStreamable`: the file is then read whole, as it always was, and says
what is wrong with it exactly as before.

A delimited file is read twice: once line by line to decide what the whole
reading decides over the whole text (are quotes quoting, or text: see
:func:`~ngram_core.read.delimited.read_delimited_steps`), then record by record::

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "b.csv")
    >>> _ = open(path, "w", newline="").write('id,text\r\n1,"two\nlines"\r\n2,three\r\n')
    >>> layout = delimited_layout(path, ReadOptions(format="csv"))
    >>> layout.literal, layout.notes
    (False, ('comma-separated, first row read as the header',))
    >>> [(t.records, t.lines) for t in delimited_tables(path, layout, piece_chars=4)]
    [([{'id': '1', 'text': 'two\nlines'}], [2]), ([{'id': '2', 'text': 'three'}], [4])]

A JSON array is read item by item (its items are the rows, as the whole
reading has them); each piece's items are numbered in the whole array::

    >>> path = os.path.join(tempfile.mkdtemp(), "b.json")
    >>> _ = open(path, "w").write('[{"text": "a"},\n {"text": "b"}, {"text": "c"}]')
    >>> [[r["text"] for r in t.records] for t in json_array_tables(path, piece_chars=20)]
    [['a', 'b'], ['c']]
"""

from __future__ import annotations

import codecs
import csv
import json
import sys
from collections.abc import Iterator
from typing import NamedTuple

from .delimited import (Dialect, EvenLines, delimited_notes, detect_dialect,
                        literal_records, quoted_records)
from ..errors import InputError
from .files import read_file_bytes, text_lines
from .json_rows import MAX_JSON_DEPTH, array_items_table, json_too_deep
from ..table import ReadOptions, Table

#: Bytes of a file's start from which its dialect is decided (as from the whole
#: text: :func:`~ngram_core.read.delimited.detect_dialect` reads its first 64 KiB).
HEAD_BYTES = 1 << 20


class NotStreamable(Exception):
    """The file is to be read whole (it is not what a piece-by-piece reading reads)."""


class DelimitedLayout(NamedTuple):
    """How a whole delimited file is read, decided before its records are."""
    encoding: str                 # "utf-8", or "utf-8-sig" with a byte-order mark
    format: str                   # "csv" or "tsv", as the whole reading names it
    dialect: Dialect
    literal: bool                 # quotes read as text, each line one record
    notes: tuple[str, ...]


def _head_text(path: str) -> tuple[str, str] | None:
    """The first MiB of a file as text, cut at a whole character, and its encoding;
    None when it is not UTF-8."""
    data = read_file_bytes(path, HEAD_BYTES)
    encoding = "utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8"
    try:
        return codecs.getincrementaldecoder(encoding)().decode(data, final=False), encoding
    except UnicodeDecodeError:
        return None


def _without_break(line: str) -> str:
    if line.endswith("\r\n"):
        return line[:-2]
    return line[:-1] if line.endswith(("\n", "\r")) else line


def _after_preamble(lines: Iterator[str], skipped: int, blank: str) -> Iterator[str]:
    """``lines`` with the first ``skipped`` of them replaced by ``blank`` ones."""
    for number, line in enumerate(lines):
        yield blank if number < skipped else line


class _AnyFieldSize:
    """The csv module's field size limit lifted while a file is read (a field as
    long as the file is a field; the whole reading lifts it to the text's length)."""

    def __enter__(self) -> None:
        self.old = csv.field_size_limit()
        csv.field_size_limit(sys.maxsize)

    def __exit__(self, *exc: object) -> None:
        csv.field_size_limit(self.old)


def delimited_layout(path: str, options: ReadOptions) -> DelimitedLayout | None:
    """Read a delimited file once, line by line, for what its whole reading decides:
    the dialect (from its first MiB) and whether quotes are text. A broken record
    raises the whole reading's InputError; None when the file is to be read whole
    (not UTF-8, a NUL character, no rows)."""
    head = _head_text(path)
    if head is None:
        return None
    text, encoding = head
    fmt = options.format or "csv"
    dialect = detect_dialect(text, fmt, options)
    even = EvenLines(dialect.delimiter)
    quoted = False
    fields: list[str] = []
    records = 0
    problem: InputError | None = None

    def checked() -> Iterator[str]:
        for line in text_lines(path, encoding):
            if "\x00" in line:
                raise NotStreamable         # the whole reading says where
            yield line

    def watched() -> Iterator[str]:         # the lines as the whole reading judges them:
        nonlocal quoted                     # its preamble blank
        for line in _after_preamble(checked(), dialect.skipped, "\n"):
            quoted = quoted or '"' in line
            even.add(_without_break(line))
            yield line

    lines = watched()
    try:
        with _AnyFieldSize():
            for fields, record, _ in quoted_records(lines, path, dialect.delimiter,
                                                    dialect.header):
                records += record is not None
        plain = even.filled() if quoted else None
        literal = plain is not None and records + bool(dialect.header and fields) < plain
    except InputError as e:             # the quoted reading failed: is every line even?
        for _ in lines:
            pass
        problem = e
        plain = even.filled() if quoted else None
        literal = True
    except (NotStreamable, UnicodeDecodeError):
        return None
    if problem is not None and plain is None:
        raise InputError(path, problem.message, line=problem.line)
    if literal:
        fields, records = [], 0
        for fields, record, _ in _literal(path, encoding, dialect):
            records += record is not None
    if not records:
        if dialect.header and fields:
            raise InputError(path, "has a header row but no rows under it")
        return None
    return DelimitedLayout(encoding, "tsv" if dialect.delimiter == "\t" else "csv", dialect,
                           literal, tuple(delimited_notes(dialect, len(fields), literal)))


def _literal(path: str, encoding: str, dialect: Dialect):
    lines = (_without_break(line) for line in text_lines(path, encoding))
    return literal_records(_after_preamble(lines, dialect.skipped, ""), path,
                           dialect.delimiter, dialect.header)


def delimited_tables(path: str, layout: DelimitedLayout, piece_chars: int) -> Iterator[Table]:
    """The records of a delimited file laid out by :func:`delimited_layout`, a Table of
    about ``piece_chars`` characters at a time, each record with its line in the file."""
    dialect = layout.dialect
    if layout.literal:
        records = _literal(path, layout.encoding, dialect)
    else:
        records = quoted_records(_after_preamble(text_lines(path, layout.encoding),
                                                 dialect.skipped, "\n"),
                                 path, dialect.delimiter, dialect.header)

    def table(fields: list[str], piece: list[dict], lines: list[int]) -> Table:
        return Table(path, layout.format, fields, piece, lines, delimiter=dialect.delimiter,
                     header=dialect.header, notes=list(layout.notes), encoding="utf-8")

    piece: list[dict] = []
    lines: list[int] = []
    size = 0
    fields: list[str] = []
    with _AnyFieldSize():
        for fields, record, line in records:
            if record is None:
                continue
            piece.append(record)
            lines.append(line)
            size += sum(map(len, record.values()))
            if size >= piece_chars:
                yield table(fields, piece, lines)
                piece, lines, size = [], [], 0
    if piece:
        yield table(fields, piece, lines)


# --- a JSON array -------------------------------------------------------------------

_SPACE = " \t\n\r"


def is_json_array(path: str) -> bool:
    """Whether a UTF-8 file's first character past white space opens an array."""
    head = _head_text(path)
    return head is not None and head[0].lstrip(_SPACE)[:1] == "["


def _items(path: str, encoding: str) -> Iterator[tuple[object, str]]:
    """The items of the top-level JSON array of a file, one at a time, each with its
    JSON text as it is in the file. Anything the
    whole reading would refuse (a broken item, text after the array, nesting past
    :data:`~ngram_core.read.json_rows.MAX_JSON_DEPTH`) raises :class:`NotStreamable`."""
    decoder = json.JSONDecoder()
    chunks = text_lines(path, encoding)
    buffer, at, ended = "", 0, False

    def more(wanted: int) -> bool:
        """Read at least ``wanted`` more characters; False at the end of the file."""
        nonlocal buffer, at, ended
        got = [buffer[at:]]
        have = 0
        for line in chunks:
            got.append(line)
            have += len(line)
            if have >= wanted:
                break
        else:
            ended = True
        buffer, at = "".join(got), 0
        return have > 0

    def next_char() -> str:
        """The next character past white space ("" at the end), not consumed."""
        nonlocal at
        while True:
            while at < len(buffer) and buffer[at] in _SPACE:
                at += 1
            if at < len(buffer) or ended or not more(1 << 16):
                return buffer[at:at + 1]

    if next_char() != "[":
        raise NotStreamable
    at += 1
    first = True
    while True:
        c = next_char()
        if c == "]" and first:
            at += 1
            break
        if not first:
            if c == "]":
                at += 1
                break
            if c != ",":
                raise NotStreamable
            at += 1
            next_char()
        wanted = 1 << 16
        while True:
            try:
                item, end = decoder.raw_decode(buffer, at)
            except (ValueError, RecursionError):
                item, end = None, -1
            if end > 0 and (end < len(buffer) or ended):
                break                       # a whole item (not one cut by the buffer)
            if ended or not more(max(wanted, len(buffer) - at)):
                raise NotStreamable         # broken: the whole reading says where
            wanted *= 2
        raw = buffer[at:end]
        if json_too_deep(raw, MAX_JSON_DEPTH - 1):
            raise NotStreamable             # the array's bracket is one level more
        yield item, raw
        at = end
        first = False
    if next_char() != "":
        raise NotStreamable                 # text after the array


def json_array_tables(path: str, piece_chars: int = HEAD_BYTES) -> Iterator[Table]:
    """The items of a file's top-level JSON array as records, a Table of about
    ``piece_chars`` characters of JSON at a time (see the module's contract)."""
    head = _head_text(path)
    if head is None:
        raise NotStreamable
    piece: list[object] = []
    size, number = 0, 1
    first = None
    for item, raw in _items(path, head[1]):
        if first is None:
            first = item
        piece.append(item)
        size += len(raw)
        if size >= piece_chars:
            yield array_items_table(path, piece, number, first)
            number += len(piece)
            piece, size = [], 0
    if piece:
        yield array_items_table(path, piece, number, first)
    elif first is None:
        raise NotStreamable                 # an empty array: the whole reading says so


def json_array_raw(path: str) -> Iterator[str]:
    """The JSON text of each item of a file's top-level array, as it is in the file
    (what a cleaned copy keeps); :class:`NotStreamable` where there is no such array."""
    head = _head_text(path)
    if head is None:
        raise NotStreamable
    for _, raw in _items(path, head[1]):
        yield raw


def head_table(tables: Iterator[Table], rows: int) -> Table:
    """The first pieces of a file read here as one Table, as many as hold ``rows``
    records (all of them in a shorter file): the start a file's fields are judged on."""
    head: Table | None = None
    for table in tables:
        if head is None:
            head = table
        else:
            head.records.extend(table.records)
            head.lines.extend(table.lines)
            head.fields = list(dict.fromkeys([*head.fields, *table.fields]))
            head.list_fields = list(dict.fromkeys([*head.list_fields, *table.list_fields]))
            head.role_fields = list(dict.fromkeys([*head.role_fields, *table.role_fields]))
        if len(head.records) >= rows:
            break
    if head is None:
        raise NotStreamable
    return head
