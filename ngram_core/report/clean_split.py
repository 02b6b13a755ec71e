r"""The clean split: file A without its contaminated rows, and those rows, in A's own format.

Which rows go (:func:`rows_to_drop`): with ``main``, the rows flagged, the
rows duplicating a whole B row and the short rows contained in one; with a
published definition (``gpt3``, ``palm``, ``llama2``, ``gpt4``, ``tulu3``),
the rows it calls dirty (llama2: its dirty subset). Every other row is kept,
short and blank rows included. :func:`split_file` writes both files:

* JSONL and plain text: each row's bytes as they were, with its own line
  ending (a paragraph keeps the blank lines after it; JSONL's blank lines,
  which are no rows, are left out of both files);
* CSV and TSV: the header record, then each record's bytes as they were
  (a quoted record may span several lines);
* JSON: the document again with the array that holds the rows cut down to
  the kept (or the dropped) items, everything around them kept; the rows'
  array is written one item per line (compact, ``ensure_ascii=False``), the
  objects and arrays leading to it indented by two spaces, everything else
  compact. A single object read as one row is written as it is (one line),
  or as ``[]`` when it is dropped.

Both files have A's encoding, and a byte-order mark at the start of A starts
each. Read again with the same options (the same JSON records path, CSV
delimiter and header), the clean file gives exactly the kept rows::

    >>> from ngram_core.read.readers import read_table
    >>> data = b'id,text\r\n1,"two\nlines"\r\n2,kept\r\n'
    >>> split = split_file(data, read_table(data, "a.csv"), {0})
    >>> split.clean, split.dirty
    (b'id,text\r\n2,kept\r\n', b'id,text\r\n1,"two\nlines"\r\n')

Standard library only; nothing here prints.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Collection, Iterator, Sequence
from typing import NamedTuple

from .definitions import NAMES, Definitions
from ..read.delimited import csv_problem, quotes_read_as_text
from ..errors import InputError
from ..read.json_rows import json_arrays_steps
from ..method.match import CHECKABLE, RowMatch
from ..read.readers import decode_bytes
from .summary import flag_rule
from ..steps import Pacer, run_steps
from ..table import LINE_BREAK, Table, repair_surrogates

#: What ``--clean-by`` accepts.
CLEAN_BY = ("main", *NAMES)
#: The formats a clean split can be written in (not Parquet: it has no text to cut).
SPLIT_FORMATS = ("json", "jsonl", "csv", "tsv", "text")

_BOMS = {"utf-8": b"\xef\xbb\xbf", "utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff"}
_SURROGATE = re.compile("[\ud800-\udfff]")


class Split(NamedTuple):
    """The two files' bytes and how many rows each holds."""
    clean: bytes
    dirty: bytes
    kept: int
    dropped: int


# --- which rows go ---------------------------------------------------------------------

def main_drop(matches: Sequence[RowMatch], threshold: float) -> set[int]:
    """The 0-based A rows the main check removes: flagged at ``threshold``,
    duplicating a whole B row, or (short) contained whole in a B row."""
    flagged = flag_rule(threshold)
    return {m.row for m in matches
            if flagged(m) or m.duplicate_of is not None or m.contained_in is not None}


def rows_to_drop(clean_by: str, matches: Sequence[RowMatch], threshold: float,
                 definitions: Definitions | None = None) -> set[int]:
    """The 0-based A rows to drop for ``--clean-by`` (one of :data:`CLEAN_BY`)."""
    if clean_by not in CLEAN_BY:
        raise InputError("clean-by", f"must be one of {', '.join(CLEAN_BY)}, not {clean_by!r}")
    if clean_by == "main":
        return main_drop(matches, threshold)
    if definitions is None:
        raise ValueError(f"--clean-by {clean_by} needs the definitions computed")
    return definitions.dirty_rows(clean_by)


def kept_considered(clean_by: str, matches: Sequence[RowMatch], drop: Collection[int],
                    definitions: Definitions | None = None) -> int:
    """Of the rows the clean split keeps, those ``clean_by`` considers (``main``: the
    checkable rows): the ones a score table's clean group can count (when they have a
    score). The rest (too short for the rule, blank) are kept and counted in no group.

    >>> from ngram_core.method.match import RowMatch, CHECKABLE, SHORT
    >>> matches = [RowMatch(0, CHECKABLE, 20), RowMatch(1, SHORT, 3), RowMatch(2, CHECKABLE, 20)]
    >>> kept_considered("main", matches, {2})
    1
    """
    if clean_by == "main":
        considered = [m.status == CHECKABLE for m in matches]
    elif definitions is None:
        raise ValueError(f"--clean-by {clean_by} needs the definitions computed")
    else:
        considered = definitions[clean_by].considered
    return sum(1 for r, yes in enumerate(considered) if yes and r not in drop)


def split_names(name: str, clean_by: str = "main") -> tuple[str, str]:
    """Download names for the two files, naming the rule that made them (none for
    ``main``, the check's own): ``"dev.jsonl"`` by llama2 ->
    ``("dev.clean.by-llama2.jsonl", "dev.contaminated.by-llama2.jsonl")``.

    >>> split_names("data/test.set.csv"), split_names("rows", "gpt4")
    (('test.set.clean.csv', 'test.set.contaminated.csv'), ('rows.clean.by-gpt4', 'rows.contaminated.by-gpt4'))
    """
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    rule = "" if clean_by == "main" else f".by-{clean_by}"
    stem, dot, ext = base.rpartition(".")
    if not dot or not stem:
        return f"{base}.clean{rule}", f"{base}.contaminated{rule}"
    return f"{stem}.clean{rule}.{ext}", f"{stem}.contaminated{rule}.{ext}"


# --- the split ---------------------------------------------------------------------------

def split_file(data: bytes, table: Table, drop: Collection[int]) -> Split:
    """:func:`split_file_steps` run to the end."""
    return run_steps(split_file_steps(data, table, drop))


def split_file_steps(data: bytes, table: Table, drop: Collection[int]):
    """Cut A's bytes into the clean file and the contaminated file.

    ``data``: A's bytes as read (decompressed); ``table``: the Table the
    readers made of them (its format, lines, header, records path);
    ``drop``: 0-based row numbers (A's rows are the table's records, in
    order). Yields rows done, returns a :class:`Split`.
    """
    if table.format not in SPLIT_FORMATS:
        raise InputError(table.source, f"is {table.format}: the clean split is written for "
                                       f"JSON, JSONL, CSV, TSV and text files only")
    text, encoding = decode_bytes(data, table.source)
    codec = encoding
    bom = b""
    if encoding == "utf-16":
        codec = "utf-16-be" if data.startswith(b"\xfe\xff") else "utf-16-le"
        bom = _BOMS[codec]
    elif encoding == "utf-8" and data.startswith(_BOMS["utf-8"]):
        bom = _BOMS["utf-8"]
    dropped = {r for r in drop if 0 <= r < len(table.records)}
    if table.format == "json":
        clean, dirty = yield from _json_steps(text, table, dropped)
        return Split(bom + _encode_json(clean, codec), bom + _encode_json(dirty, codec),
                     len(table.records) - len(dropped), len(dropped))
    if table.format == "jsonl":
        head, ranges = "", _jsonl_ranges(text, table)
    elif table.format == "text":
        head, ranges = "", _text_ranges(text, table)
    else:
        head, ranges = _delimited_ranges(text, table)
    clean_parts, dirty_parts = [head], [head]
    pacer = Pacer()
    for r, (start, end) in enumerate(ranges):
        (dirty_parts if r in dropped else clean_parts).append(text[start:end])
        if pacer.due():
            yield r
    return Split(bom + "".join(clean_parts).encode(codec),
                 bom + "".join(dirty_parts).encode(codec),
                 len(ranges) - len(dropped), len(dropped))


def _line_starts(text: str) -> list[int]:
    r"""The offset each line starts at, lines ending at ``\r\n``, ``\r`` or ``\n`` as the
    readers split them (a final line break starts one more, empty, line)."""
    return [0] + [m.end() for m in LINE_BREAK.finditer(text)]


def _mismatch(table: Table, what: str) -> InputError:
    return InputError(table.source, f"cannot be split: {what} (was the file changed since "
                                    f"it was read?)")


def _jsonl_ranges(text: str, table: Table) -> list[tuple[int, int]]:
    """Each record's line, with its own line ending."""
    starts = _line_starts(text)
    if len(table.lines) != len(table.records) or any(n > len(starts) for n in table.lines):
        raise _mismatch(table, "its lines and its rows differ")
    return [(starts[n - 1], starts[n] if n < len(starts) else len(text)) for n in table.lines]


def _text_ranges(text: str, table: Table) -> list[tuple[int, int]]:
    """Each row from its first line up to the next row's (a line, a paragraph with
    the blank lines after it, or the whole file); the last to the end."""
    starts = _line_starts(text)
    if len(table.lines) != len(table.records) or any(n > len(starts) for n in table.lines):
        raise _mismatch(table, "its lines and its rows differ")
    firsts = [starts[n - 1] for n in table.lines]
    if len(table.records) == 1 and table.lines == [1]:
        return [(0, len(text))]
    return list(zip(firsts, firsts[1:] + [len(text)]))


def _delimited_ranges(text: str, table: Table) -> tuple[str, list[tuple[int, int]]]:
    """The header record's text, and each record's lines, found by reading the text
    again with the csv module as the reader did (blank records skipped); a file
    read with quotes as text has one record per line, cut as JSONL's are."""
    if quotes_read_as_text(table):
        lines = _jsonl_ranges(text, table)
        return (text[:lines[0][0]] if lines else text) if table.header else "", lines
    starts = _line_starts(text)

    def cut(first: int, last: int) -> tuple[int, int]:
        """Lines first..last (1-based, inclusive) as a range of the text."""
        return starts[first - 1], starts[last] if last < len(starts) else len(text)

    delimiter = table.delimiter or ("\t" if table.format == "tsv" else ",")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    old_limit = csv.field_size_limit()
    csv.field_size_limit(max(old_limit, len(text) + 1))
    head = ""
    ranges: list[tuple[int, int]] = []
    first_lines: list[int] = []
    start, header_pending = 1, bool(table.header)
    try:
        for cells in reader:
            last = reader.line_num
            if cells and cells != [""]:
                if header_pending:
                    head_start, head_end = cut(start, last)
                    head = text[head_start:head_end]
                    header_pending = False
                else:
                    ranges.append(cut(start, last))
                    first_lines.append(start)
            start = last + 1
    except csv.Error as e:
        raise _mismatch(table, f"not valid CSV ({csv_problem(e, delimiter)})") from None
    finally:
        csv.field_size_limit(old_limit)
    if first_lines != table.lines or len(ranges) != len(table.records):
        raise _mismatch(table, "its records are not where the reader found them")
    return head, ranges


# --- JSON -------------------------------------------------------------------------------

def _json_steps(text: str, table: Table, dropped: set[int]):
    """The clean and the dirty JSON texts."""
    document = json.loads(text)
    if table.records_path is None:                 # one object (or string) read as one row
        whole = _dumps(document) + "\n"
        return ("[]\n", whole) if 0 in dropped else (whole, "[]\n")
    found = yield from json_arrays_steps(document)
    keys: tuple = ()
    if table.records_path != "" or not isinstance(document, list):
        chosen = next((info for info in found.values()
                       if info.path == table.records_path and info.usable and info.items), None)
        if chosen is None:
            raise _mismatch(table, f"it has no array of rows at `{table.records_path}`")
        keys = chosen.keys
    counter = iter(range(len(table.records) + 1))
    clean = _write(document, keys, 0, "", counter, dropped, keep=True)
    total = next(counter)
    if total != len(table.records):
        raise _mismatch(table, "its rows and the records read differ")
    counter = iter(range(total + 1))
    dirty = _write(document, keys, 0, "", counter, dropped, keep=False)
    return clean + "\n", dirty + "\n"


def _dumps(value) -> str:
    """Compact JSON, non-ASCII as it is, lone surrogates escaped (they cannot be encoded)."""
    out = json.dumps(value, ensure_ascii=False)
    return _SURROGATE.sub(lambda m: "\\u%04x" % ord(m.group()), out) if _SURROGATE.search(out) \
        else out


def _child_key(node: dict, key: str) -> str | None:
    """The key of ``node`` the readers follow for the path part ``key``."""
    if key in node and node[key] is not None:
        return key
    return next((k for k in node if repair_surrogates(k) == key), None)


def _write(node, keys: tuple, depth: int, indent: str, counter: Iterator[int],
           dropped: set[int], keep: bool) -> str:
    """``node`` as JSON text, the arrays at ``keys`` holding only the kept (``keep``)
    or only the dropped items; rows are numbered by ``counter`` in the readers' order."""
    inner = indent + "  "
    if depth == len(keys) and isinstance(node, list):
        items = [_dumps(item) for item in node if (next(counter) in dropped) != keep]
        return "[\n" + ",\n".join(inner + item for item in items) + "\n" + indent + "]" \
            if items else "[]"
    if isinstance(node, list) and depth < len(keys):
        parts = [_write(item, keys, depth, inner, counter, dropped, keep)
                 if isinstance(item, dict) else _dumps(item) for item in node]
        return "[\n" + ",\n".join(inner + p for p in parts) + "\n" + indent + "]" \
            if parts else "[]"
    if isinstance(node, dict) and depth < len(keys):
        follow = _child_key(node, keys[depth])
        parts = [_dumps(k) + ": " + (_write(v, keys, depth + 1, inner, counter, dropped, keep)
                                     if k == follow else _dumps(v)) for k, v in node.items()]
        return "{\n" + ",\n".join(inner + p for p in parts) + "\n" + indent + "}" \
            if parts else "{}"
    return _dumps(node)


def _encode_json(text: str, codec: str) -> bytes:
    """JSON text in A's encoding; a character Windows-1252 lacks (from a ``\\u``
    escape in A) is written as an escape again."""
    try:
        return text.encode(codec)
    except UnicodeEncodeError:
        return re.sub(r"[^\x00-\x7f]", lambda m: _escape(m.group()), text).encode(codec)


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x10000:
        return "\\u%04x" % code
    code -= 0x10000
    return "\\u%04x\\u%04x" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF))
