r"""Stage 1: bytes of a file -> a :class:`Table` of flat records.

Formats: JSON (an array of objects or strings, or an object holding such
arrays at any depth), JSONL/NDJSON, delimited text (comma, semicolon, tab or
pipe; with or without a header row; quoted fields may hold newlines) and plain
text (one row per line; per block of lines between blank lines, when asked or
when the file is made of such blocks, as LogiQA's items are, and then the
Table's notes say so; or the whole file). This module decodes
the bytes, picks the format and hands the text to the format's reader:
:mod:`~ngram_core.read.json_rows`, :mod:`~ngram_core.read.delimited`, or the plain-text
reader here. The format comes from the file name's extension and
is sniffed from the content when the extension is missing or wrong (a
``.json`` file holding one object per line is read as JSONL). Text is UTF-8
with or without a BOM, UTF-16 with a BOM, or Windows-1252 when it is not UTF-8
but plainly reads as Windows-1252 (the Table's notes say so).

A record's fields are its leaf paths joined with ``.``; a list of scalars is
one field, its values joined with a newline, and so is each key path inside a
list of objects (:func:`~ngram_core.table.flatten_record`). A JSON document's rows are the items
of one of its arrays (:func:`read_table`'s ``records``). Which field is the
text and which the id, and the Rows, are :mod:`ngram_core.read.fields`' business.

Every problem raises :class:`~ngram_core.errors.InputError` naming the file and
the line (or row), never a bare parser exception::

    >>> t = read_table(b'[{"id": "q1", "question": {"stem": "Who?", "choices": ['
    ...                b'{"text": "Me", "label": "A"}, {"text": "You", "label": "B"}]}}]',
    ...                "a.json")
    >>> t.fields
    ['id', 'question.stem', 'question.choices.text', 'question.choices.label']
    >>> t.records[0]["question.choices.text"], t.list_fields
    ('Me\nYou', ['question.choices.text', 'question.choices.label'])
    >>> t = read_table(b"id;text\r\n1;Hello, world\r\n", "a.csv")
    >>> t.format, t.delimiter, t.header, t.notes
    ('csv', ';', True, ['semicolon-separated, first row read as the header'])
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from .conll import conll_layout, conll_rows_steps
from .delimited import DELIMITERS, consistent_delimiter, read_delimited_steps, tab_table
from ..errors import InputError
from .json_rows import parses_as_json, read_json_steps, read_jsonl_steps
from ..steps import Pacer, run_steps
from ..table import LINE_BREAK, TEXT_ROWS, ReadOptions, Table, split_lines

FORMAT_BY_EXTENSION = {
    ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".jsonlines": "jsonl",
    ".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".txt": "text", ".text": "text",
    ".conll": "text", ".conllu": "text", ".conllx": "text",
}
FORMATS = ("json", "jsonl", "csv", "tsv", "text")
ROLES = (None, "a", "b")


_SAVE_AS_TEXT = "save it as CSV or JSON Lines"
_TO_THE_COMMAND = "or give it to the ngram-overlap command under a name ending in {}"
#: A file's first bytes -> what it is, and what to do instead (the page reads text;
#: the command reads Parquet and compressed files by their names).
_BINARY_MAGIC = (
    (b"\x89PNG", "a PNG image", ""), (b"%PDF", "a PDF document", ""),
    (b"\xff\xd8\xff", "a JPEG image", ""), (b"GIF8", "a GIF image", ""),
    (b"PK\x03\x04", "a zip archive", "unzip it and choose the file inside"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an Office document (such as .xls)",
     _SAVE_AS_TEXT),
    (b"\x1f\x8b", "a gzip archive", "decompress it, " + _TO_THE_COMMAND.format(".gz")),
    (b"\x28\xb5\x2f\xfd", "a zstd archive", "decompress it, " + _TO_THE_COMMAND.format(".zst")),
    (b"\xfd7zXZ\x00", "an xz archive", "decompress it, " + _TO_THE_COMMAND.format(".xz")),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive", "extract it and choose the file inside"),
    (b"\x04\x22\x4d\x18", "an LZ4 archive", "decompress it (lz4 -d)"),
    (b"PAR1", "a Parquet file", f"{_SAVE_AS_TEXT}, " + _TO_THE_COMMAND.format(".parquet")),
    (b"SQLite format 3", "an SQLite database", "export the table as CSV"),
    (b"\x7fELF", "a program", ""),
)


#: Apache Arrow's file format begins with ARROW1; its stream format (Hugging Face
#: datasets' save_to_disk and cache files, ``data-00000-of-00001.arrow``) with a
#: continuation marker, and is told by its name.
_ARROW = ("an Arrow file (as Hugging Face datasets' save_to_disk writes)",
          "save it as JSON Lines (dataset.to_json), " + _TO_THE_COMMAND.format(".arrow"))
_ARROW_NAMES = (".arrow", ".feather")

#: bzip2: "BZh", the block size (1-9), then a block's or the end's own magic.
_BZIP2 = re.compile(rb"BZh[1-9](?:\x31\x41\x59\x26\x53\x59|\x17\x72\x45\x38\x50\x90)")

#: A zip holding a workbook: by its name, or by the names inside (Excel, OpenDocument).
_WORKBOOKS = (".xlsx", ".xlsm", ".ods")
_WORKBOOK_MARKS = (b"xl/", b"opendocument.spreadsheet")


def _binary_kind(data: bytes, source: str) -> tuple[str, str] | None:
    """What a binary file is and what to do with it, from its first bytes (a zip
    holding a workbook is a spreadsheet), or None for a file that may be text::

        >>> _binary_kind(b"PK\x03\x04" + bytes(26) + b"xl/workbook.xml", "export")
        ('a spreadsheet workbook', 'save it as CSV or JSON Lines')
    """
    if data.startswith(b"ARROW1") or (data.startswith(b"\xff\xff\xff\xff")
                                       and source.lower().endswith(_ARROW_NAMES)):
        return _ARROW
    if _BZIP2.match(data):
        return "a bzip2 archive", "decompress it, " + _TO_THE_COMMAND.format(".bz2")
    for magic, what, instead in _BINARY_MAGIC:
        if data.startswith(magic):
            if magic == b"PK\x03\x04" and (source.lower().endswith(_WORKBOOKS)
                                         or any(m in data[:65536] for m in _WORKBOOK_MARKS)):
                return "a spreadsheet workbook", _SAVE_AS_TEXT
            return what, instead
    return None


def refuse_binary(data: bytes, source: str) -> None:
    """Raise the InputError for a file whose first bytes say it is no text (an image,
    an archive, a Parquet file), with what to do instead; return for any other::

        >>> refuse_binary(b"\\x1f\\x8b\\x08", "test.jsonl.gz")
        Traceback (most recent call last):
        ngram_core.errors.InputError: test.jsonl.gz: looks like a gzip archive, not a text file: decompress it, or give it to the ngram-overlap command under a name ending in .gz
    """
    kind = _binary_kind(data, source)
    if kind:
        what, instead = kind
        raise InputError(source, f"looks like {what}, not a text file"
                                 + (f": {instead}" if instead else ""))


# --- bytes -> str ---------------------------------------------------------

#: The byte-order marks of UTF-16, little- and big-endian: such a file's line
#: break is two bytes, ``0A 00`` or ``00 0A``, at an even offset.
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def is_utf16(head: bytes) -> bool:
    """Whether a file's first bytes are UTF-16's byte-order mark."""
    return head.startswith(UTF16_BOMS)


_UTF8_BOM = b"\xef\xbb\xbf"
#: C0 controls other than tab, line feed and carriage return, and DEL.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_UTF8_SEQUENCE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}"
                            rb"|[\xf0-\xf4][\x80-\xbf]{3}")
_NON_ASCII = re.compile("[^\x00-\x7f]")
#: Accented letters that are words on their own (French à, Spanish ó, ...).
_LONE_LETTERS = frozenset("àáèéíòóúùÀÁÈÉÓÒ")


def decode_text(data: bytes, source: str) -> str:
    """A file's bytes as text (see :func:`decode_bytes`)."""
    return decode_bytes(data, source)[0]


def decode_bytes(data: bytes, source: str) -> tuple[str, str]:
    """Decode a file's bytes: ``(text, encoding)``.

    UTF-8 (BOM optional) or UTF-16 with a BOM; bytes that are not UTF-8 but
    read plainly as Windows-1252 (:func:`windows_1252`) are read as that.
    Binary files, NUL bytes, UTF-16 without a BOM and other bytes raise an
    InputError with the line of the first bad byte::

        >>> decode_bytes(b"caf\\xe9", "a.txt")
        ('café', 'windows-1252')
    """
    if is_utf16(data):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as e:
            raise InputError(source, f"starts with a UTF-16 byte-order mark but is not "
                                     f"valid UTF-16 ({e.reason}); save it as UTF-8") from None
        return _without_nul(text, source), "utf-16"
    refuse_binary(data, source)
    if looks_like_utf16(data):
        at = data.find(b"\x00")
        raise InputError(source, "looks like UTF-16 text without a byte-order mark (a NUL "
                                 "byte in every other position); save it as UTF-8",
                         line=data.count(b"\n", 0, at) + 1)
    bom = data.startswith(_UTF8_BOM)
    try:
        text = data[3:].decode("utf-8") if bom else data.decode("utf-8")
    except UnicodeDecodeError as e:
        fallback = None if bom else windows_1252(data)
        if fallback is None:
            raise _not_utf8(data, e.start + 3 * bom, source) from None
        return fallback, "windows-1252"
    return _without_nul(text, source), "utf-8"


def holds_utf8(data: bytes) -> bool:
    """Whether bytes hold a UTF-8 multi-byte sequence: text written as UTF-8, which
    Windows-1252 never reads plainly (see :func:`windows_1252`)::

        >>> holds_utf8("café".encode()), holds_utf8(b"caf\\xe9"), holds_utf8(b"plain")
        (True, False, False)
    """
    return _UTF8_SEQUENCE.search(data) is not None


def not_utf8(data: bytes, source: str) -> InputError:
    """The refusal of bytes that are not UTF-8, naming the line of the first bad byte
    (``data`` must hold one)::

        >>> print(not_utf8(b"ok\\nbad \\xff", "b.jsonl"))
        b.jsonl, line 2: is not valid UTF-8 (byte 0xff at column 5); save it as UTF-8
    """
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        return _not_utf8(data, e.start, source)
    raise ValueError("the bytes are UTF-8")


def _not_utf8(data: bytes, at: int, source: str) -> InputError:
    line = data.count(b"\n", 0, at) + 1
    column = at - (data.rfind(b"\n", 0, at) + 1) + 1
    return InputError(source, f"is not valid UTF-8 (byte 0x{data[at]:02x} at column "
                              f"{column}); save it as UTF-8", line=line)


def looks_like_utf16(data: bytes, sample: int = 4096) -> bool:
    """True when, in the first ``sample`` bytes, at least half (and two) of the
    odd (or even) positions are NUL and no even (or odd) one is: ASCII text in
    UTF-16 with no byte-order mark. ``"[1]".encode("utf-16-le")`` -> True;
    ``b"ab\\x00c"`` -> False.
    """
    head = data[:sample - sample % 2]
    pairs = len(head) // 2
    if pairs < 2:
        return False
    even, odd = head[0::2].count(0), head[1::2].count(0)
    enough = max(2, pairs / 2)
    return (odd >= enough and even == 0) or (even >= enough and odd == 0)


def windows_1252(data: bytes) -> str | None:
    """The bytes as Windows-1252 text when that reading is plainly right, else None.

    Right means: every byte is defined in Windows-1252; no control character
    but tab, CR and LF; no valid UTF-8 multi-byte sequence (that would be
    UTF-8 with damage, not another encoding); and every non-ASCII letter
    touches another letter or digit, or is one of the accented letters that
    are words on their own (``à``). So ``"caf\\xe9"`` reads as ``café`` and
    ``"bad \\xff here"`` (a lone ``ÿ``) is refused.
    """
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        return None
    if _CONTROL.search(text) or holds_utf8(data):
        return None
    for m in _NON_ASCII.finditer(text):
        c, at = m.group(), m.start()
        if not c.isalpha() or c in _LONE_LETTERS:
            continue
        before = text[at - 1] if at else " "
        after = text[at + 1] if at + 1 < len(text) else " "
        if not (before.isalnum() or after.isalnum()):
            return None
    return text


def _without_nul(text: str, source: str) -> str:
    at = text.find("\x00")
    if at >= 0:
        line = len(LINE_BREAK.findall(text, 0, at)) + 1
        raise InputError(source, "contains a NUL character: this looks like a binary "
                                 "file, not text", line=line)
    return text


# --- str -> Table -----------------------------------------------------------

def format_from_name(name: str) -> str | None:
    """The format an extension names, or None: ``"dev.ndjson"`` -> ``"jsonl"``."""
    lower = name.lower()
    for ext, fmt in FORMAT_BY_EXTENSION.items():
        if lower.endswith(ext):
            return fmt
    return None


def read_table(data: bytes, name: str, format: str | None = None, *, role: str | None = None,
               records: str | None = None, delimiter: str | None = None,
               header: bool | None = None, text_rows: str | None = None) -> Table:
    """Read a whole file into a Table (see :func:`read_table_steps`)."""
    return run_steps(read_table_steps(data, name, format, role=role, records=records,
                                      delimiter=delimiter, header=header, text_rows=text_rows))


def read_table_steps(data: bytes, name: str, format: str | None = None, *,
                     role: str | None = None, records: str | None = None,
                     delimiter: str | None = None, header: bool | None = None,
                     text_rows: str | None = None):
    """:func:`read_table` as a generator: yields records read, returns the Table.

    The keyword arguments are :class:`~ngram_core.table.ReadOptions`' fields
    (``read_table(data, name, **options._asdict())``); None detects.
    """
    options = _options(name, ReadOptions(format, role, records, delimiter, header, text_rows))
    text, encoding = decode_bytes(data, name)
    if not text.strip():
        raise InputError(name, "is empty: it has no rows")
    fmt = format or _sniff(text, format_from_name(name), options.delimiter, options.text_rows)
    _check_options_fit(name, fmt, options)
    reader = {"json": read_json_steps, "jsonl": read_jsonl_steps, "csv": read_delimited_steps,
              "tsv": read_delimited_steps, "text": read_text_steps}[fmt]
    try:
        table = yield from reader(text, name, fmt, options)
    except InputError as e:
        if not _tabs_guessed(name, format, fmt, options):
            raise
        # a .txt whose first records are a table of tabs and a later one is not: its lines
        table = yield from read_text_steps(text, name, "text", options)
        table.notes.append("read as text: its tabs do not make a table throughout ("
                           + (f"line {e.line}: " if e.line else "") + f"{e.message})")
    if not table.records:
        raise InputError(name, "has no rows")
    table.encoding = encoding
    if encoding == "windows-1252":
        table.notes.insert(0, "not UTF-8: read as Windows-1252")
    elif encoding == "utf-16":
        table.notes.insert(0, "read as UTF-16 (its byte-order mark says so)")
    return table


def _tabs_guessed(name: str, format: str | None, fmt: str, options: ReadOptions) -> bool:
    """Whether a file named as text is read as TSV only because its start is a table
    of tabs (:func:`~ngram_core.read.delimited.tab_table`), nothing about it chosen."""
    return (fmt == "tsv" and format is None and format_from_name(name) == "text"
            and options.delimiter is None and options.header is None)


def _options(name: str, options: ReadOptions) -> ReadOptions:
    """Check the options; a delimiter's name becomes its character."""
    if options.format is not None and options.format not in FORMATS:
        raise InputError(name, f"unknown format {options.format!r}; use one of "
                               f"{', '.join(FORMATS)}")
    if options.role not in ROLES:
        raise InputError(name, f"unknown role {options.role!r}; use 'a' (test set) or 'b' "
                               f"(training)")
    delimiter = options.delimiter
    if delimiter is not None:
        by_name = {v: k for k, v in DELIMITERS.items()}
        delimiter = by_name.get(delimiter.lower(), delimiter) if delimiter else delimiter
        if len(delimiter) != 1 or delimiter in "\"\r\n":
            raise InputError(name, f"cannot split fields at {delimiter!r}; use one character "
                                   f"such as comma, semicolon, tab or pipe")
    if options.header not in (None, True, False):
        raise InputError(name, f"header must be True, False or None, not {options.header!r}")
    if options.text_rows not in (None, *TEXT_ROWS):
        raise InputError(name, f"text rows must be one of {', '.join(TEXT_ROWS)}, "
                               f"not {options.text_rows!r}")
    return options._replace(delimiter=delimiter)


def _check_options_fit(name: str, fmt: str, options: ReadOptions) -> None:
    if fmt in ("json", "jsonl", "text") and (options.delimiter or options.header is not None):
        raise InputError(name, f"is read as {fmt.upper()}: a delimiter and a header row "
                               f"apply to CSV and TSV files only")
    if fmt != "json" and options.records:
        raise InputError(name, f"is read as {fmt.upper()}: choosing the array the rows are "
                               f"in ({options.records!r}) applies to a JSON document only")
    if fmt != "text" and options.text_rows not in (None, "line"):
        raise InputError(name, f"is read as {fmt.upper()}: rows by {options.text_rows} "
                               f"apply to plain-text files only")


def holds_json_lines(text: str) -> bool:
    """Whether a file's text (its start, whole lines) is JSON Lines, whatever its name:
    an object on its first line, and more after it (C4's shards and
    ``Dataset.to_json``'s files are named ``.json``)::

        >>> holds_json_lines('{"a": 1}\\n{"a": 2}\\n'), holds_json_lines('{"a": [1,\\n 2]}')
        (True, False)
    """
    head = text.lstrip()
    first_line = LINE_BREAK.split(head, 1)[0]
    return head[:1] == "{" and first_line.strip() != head.strip() and \
        parses_as_json(first_line)


def json_format(text: str, by_extension: str | None) -> str | None:
    """``"json"`` or ``"jsonl"`` when a file's text (its start, whole lines) is JSON,
    whatever its name says (None: it is not), as every reader decides it::

        >>> json_format('{"a": 1}\\n', "csv"), json_format('{"a": 1}\\n{"a": 2}', "json")
        ('json', 'jsonl')
    """
    head = text.lstrip()
    if head[:1] not in ("[", "{"):
        return None
    if by_extension == "jsonl":
        return "json" if head[:1] == "[" and parses_as_json(head) else "jsonl"
    if holds_json_lines(head):
        return "jsonl"
    if by_extension in (None, "json") or parses_as_json(head):
        return "json"
    return None


def _sniff(text: str, by_extension: str | None, delimiter: str | None = None,
           text_rows: str | None = None) -> str:
    """Pick the format from the content, trusting the extension where it fits; a
    file not named as JSON, CSV or TSV is text when ``text_rows`` says how to
    cut it (a ``.txt`` of tabs read by line)."""
    found = json_format(text, by_extension) if not delimiter else None
    if found is not None:
        return found
    if by_extension in ("json", "jsonl"):
        return by_extension      # not JSON at all: let its reader say where
    if delimiter:
        return "tsv" if delimiter == "\t" else "csv"
    if by_extension in ("csv", "tsv"):
        return by_extension      # the reader detects the delimiter
    if text_rows is not None:
        return "text"
    if conll_layout(split_lines(text[:SNIFF_CHARS])) is not None:
        return "text"            # a token-per-line file, tabs between its columns or not
    if by_extension == "text":
        return "tsv" if tab_table(text) else "text"
    first_line = LINE_BREAK.split(text, 1)[0]
    if "\t" in first_line:
        return "tsv"
    found = consistent_delimiter(text)
    if found is not None:
        return "tsv" if found == "\t" else "csv"
    return "text"


# --- plain text -----------------------------------------------------------------

#: How :func:`made_of_blocks` tells a file of blocks from a file of lines.
BLOCKS_MIN = 3
BLOCK_SHARE = 2 / 3
BLOCK_LINES_MAX = 40
_BLOCKS_NOTE = "one row per block of lines between blank lines"
_CONLL_NOTE = "one row per sentence of a token-per-line (CoNLL) file"
#: Characters of a file's start that :func:`_sniff` looks at for a token-per-line file.
SNIFF_CHARS = 1 << 16


def read_text_steps(text: str, name: str, fmt: str, options: ReadOptions):
    r"""Plain text: one row per line, per block of lines, per sentence of a
    token-per-line (CoNLL) file, or the whole file.

    ``options.text_rows`` says which: ``"line"``, ``"paragraph"`` (a block of
    non-blank lines between blank or whitespace-only lines, kept with its
    inner line breaks), ``"conll"`` or ``"file"``. None detects: a
    token-per-line file (see :mod:`ngram_core.read.conll`) is read one row per
    sentence; a file made of blocks of
    similar shape (:func:`made_of_blocks`: LogiQA's items of an answer line, a
    passage, a question and four options; a prose document's wrapped
    paragraphs too, whose n-grams then run across line breaks) is read one row
    per block and the Table's notes say so, with the count and the median size;
    any other file (one item per line, a blank line after every line, a long
    list with a blank line or two somewhere) one row per line, blank lines
    included. A row's line (``Table.lines``) is where it starts; a final line
    break ends the last row::

        >>> text = "A wrapped\nline.\n\n  \nNext one.\n"
        >>> t = run_steps(read_text_steps(text, "b.txt", "text", ReadOptions(text_rows="paragraph")))
        >>> [r["text"] for r in t.records], t.lines
        (['A wrapped\nline.', 'Next one.'], [1, 5])
        >>> items = "B\nA passage.\nWhy?\nA. x\nB. y\n\n" * 3
        >>> t = run_steps(read_text_steps(items, "a.txt", "text", ReadOptions()))
        >>> t.records[1]["text"], t.lines
        ('B\nA passage.\nWhy?\nA. x\nB. y', [1, 7, 13])
        >>> print(*t.notes)  # doctest: +NORMALIZE_WHITESPACE
        one row per block of lines between blank lines (3 blocks of 5 lines);
        choose lines to read one row per line
        >>> t = run_steps(read_text_steps(items, "a.txt", "text", ReadOptions(text_rows="line")))
        >>> len(t.records), t.notes
        (18, [])
    """
    yield 0
    if options.text_rows == "file":
        return Table(name, fmt, ["text"], [{"text": text}], [1])
    lines = split_lines(text)
    if lines and lines[-1] == "":
        lines.pop()                       # a final line break ends the last row
    notes = [MARKUP_NOTE] if looks_like_markup(lines) else []
    layout = conll_layout(lines) if options.text_rows in (None, "conll") else None
    if layout is not None or options.text_rows == "conll":
        sentences = yield from conll_rows_steps(lines, layout)
        if layout is not None and options.text_rows is None:
            words = ("its '# text' lines or its words" if layout.column else
                     "the words of its first column")
            notes = [f"{_CONLL_NOTE} ({len(sentences):,} sentences, read from {words}); "
                     f"choose lines to read one row per line"]
        if sentences and all(s.sent_id for s in sentences):
            return Table(name, fmt, ["sent_id", "text"],
                         [{"sent_id": s.sent_id, "text": s.text} for s in sentences],
                         [s.line for s in sentences], notes=notes)
        return Table(name, fmt, ["text"], [{"text": s.text} for s in sentences],
                     [s.line for s in sentences], notes=notes)
    blocks = None
    if options.text_rows != "line":
        blocks = yield from _blocks_steps(lines)
        if options.text_rows is None:
            typical = made_of_blocks([size for _, size in blocks])
            if typical is None:
                blocks = None
            else:
                about = "" if all(size == typical for _, size in blocks) else "about "
                notes.append(f"{_BLOCKS_NOTE} ({len(blocks):,} blocks of {about}{typical:,} "
                             f"lines); choose lines to read one row per line")
    rows: Iterable[str]
    if blocks is not None:
        starts = [first + 1 for first, _ in blocks]
        rows = ("\n".join(lines[first:first + size]) for first, size in blocks)
    else:
        starts, rows = list(range(1, len(lines) + 1)), lines
    records, pacer = [], Pacer()
    for row in rows:
        records.append({"text": row})
        if pacer.due():
            yield len(records)
    return Table(name, fmt, ["text"], records, starts, notes=notes)


_TAG_LINE = re.compile(r"\s*</?[A-Za-z][\w.:-]*[^>]*>")
MARKUP_NOTE = ("most lines begin with a tag such as <Question>: this looks like XML or "
               "HTML, read as plain text with its tags")


def looks_like_markup(lines: list[str], sample: int = 1000) -> bool:
    """Whether more than half of the first ``sample`` non-blank lines begin with a
    markup tag (ASDiv's XML, an HTML dump): read as text, the tags are tokens and
    each line is a row, which the reading should say::

        >>> looks_like_markup(["<Problem>", "  <Body>Tom has 5 apples.</Body>", "</Problem>"])
        True
        >>> looks_like_markup(["x < y holds", "<b> alone", "plain", "text"])
        False
    """
    seen = tagged = 0
    for line in lines:
        if not line.strip():
            continue
        seen += 1
        tagged += bool(_TAG_LINE.match(line))
        if seen >= sample:
            break
    return seen > 0 and tagged * 2 >= seen + 1


def made_of_blocks(sizes: list[int]) -> int | None:
    """The typical (median) block size when blocks of these line counts make a
    file of blocks, else None.

    Blocks of items or documents: at least :data:`BLOCKS_MIN` blocks; at least
    :data:`BLOCK_SHARE` of the lines in blocks of two lines or more (a blank
    line after every line is lines, not blocks); the median block (the middle
    one, the larger of two) of 2 to :data:`BLOCK_LINES_MAX` lines; and either
    blocks of similar shape (at least :data:`BLOCK_SHARE` of the blocks, and of
    the lines, in blocks within a factor of 2 of the median: LogiQA's items) or
    documents of any length, none of them holding half the lines or more (a
    text dump of documents, one per blank-line-separated block; a list of 1,000
    lines with a blank line or two somewhere has one huge block). Linear in the
    number of blocks::

        >>> made_of_blocks([7] * 651), made_of_blocks([3, 5, 4, 1, 6])
        (7, 4)
        >>> made_of_blocks([2, 30, 4, 12, 3, 25, 8, 1, 40, 5])    # documents
        8
        >>> made_of_blocks([1] * 500), made_of_blocks([5, 5, 990]), made_of_blocks([3, 3])
        (None, None, None)
    """
    count = len(sizes)
    if count < BLOCKS_MIN:
        return None
    lines = sum(sizes)
    by_size = Counter(sizes)
    if lines - by_size[1] < BLOCK_SHARE * lines:
        return None
    seen, median = 0, 0
    for size in sorted(by_size):          # few distinct sizes: at most about sqrt(2 * lines)
        seen += by_size[size]
        if seen > count // 2:
            median = size
            break
    if not 2 <= median <= BLOCK_LINES_MAX:
        return None
    near = [size for size in by_size if median <= 2 * size and size <= 2 * median]
    near_blocks = sum(by_size[size] for size in near)
    near_lines = sum(size * by_size[size] for size in near)
    if near_blocks >= BLOCK_SHARE * count and near_lines >= BLOCK_SHARE * lines:
        return median                     # items of one shape
    if max(by_size) * 2 < lines:
        return median                     # documents: no block holds half the file
    return None


def text_rows_read(table: Table) -> str:
    """How detection cut a plain-text Table into rows, as :data:`TEXT_ROWS` names
    it: ``"conll"``, ``"paragraph"`` or ``"line"`` (reading it again the same way
    needs that ``text_rows``)::

        >>> text_rows_read(read_table(b"a\\nb\\n\\nc\\nd\\n\\ne\\nf\\n", "t.txt"))
        'paragraph'
    """
    if table.format == "text" and any(note.startswith(_CONLL_NOTE) for note in table.notes):
        return "conll"
    return "paragraph" if read_by_blocks(table) else "line"


def read_by_blocks(table: Table) -> bool:
    """Whether a plain-text Table was read one row per block because its file was
    detected as made of blocks (its notes say so): reading it again the same way,
    or as the command or the page shows it, needs ``text_rows="paragraph"``.

        >>> read_by_blocks(read_table(b"a\\nb\\n\\nc\\nd\\n\\ne\\nf\\n", "t.txt"))
        True
    """
    return table.format == "text" and any(note.startswith(_BLOCKS_NOTE)
                                          for note in table.notes)


def _blocks_steps(lines: list[str]):
    """Step generator: each block of non-blank lines as (0-based first line, line count).

    Whitespace-only lines are blank. Yields 0 (no record made yet) now and then.
    """
    blocks: list[tuple[int, int]] = []
    previous = -1                         # the last blank line seen
    pacer = Pacer()
    chunk = 1 << 14
    for offset in range(0, len(lines), chunk):
        for i in [offset + j for j, line in enumerate(lines[offset:offset + chunk])
                  if not line or line.isspace()]:
            if i - previous > 1:
                blocks.append((previous + 1, i - previous - 1))
            previous = i
        if pacer.due():
            yield 0
    if len(lines) - previous > 1:
        blocks.append((previous + 1, len(lines) - previous - 1))
    return blocks

