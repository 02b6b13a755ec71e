"""Stage 1: bytes of a file -> a :class:`Table` of records -> a list of :class:`Row`.

Formats: JSON (an array of objects or strings, or an object holding such an
array), JSONL/NDJSON, CSV and TSV (header row, quoted fields may hold
newlines), and plain text (one row per line). The format comes from the file
name's extension and is sniffed from the content when the extension is missing
or wrong (a ``.json`` file holding one object per line is read as JSONL).
Text is UTF-8 with or without a BOM; UTF-16 with a BOM is read too.

Every problem raises :class:`~ngram_core.errors.InputError` naming the file and
the line (or row), never a bare parser exception::

    >>> t = read_table(b'[{"id": "q1", "question": "Who?"}]', "a.json")
    >>> t.format, t.fields
    ('json', ['id', 'question'])
    >>> select_rows(t)[0]
    Row(number=1, id='q1', text='Who?')
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from .errors import InputError
from .steps import Pacer, run_steps

#: Names a text field usually has, most likely first (matched case-insensitively).
TEXT_FIELD_NAMES = ("text", "question", "prompt", "input", "content", "sentence",
                    "instruction", "query", "problem", "passage", "document",
                    "code", "context", "body", "premise", "article", "goal")
#: Names an id field usually has; any other ``*_id`` / ``*id`` field comes next.
ID_FIELD_NAMES = ("id", "_id", "uid", "uuid", "task_id", "question_id", "qid",
                  "doc_id", "example_id", "idx", "index", "key")

FORMAT_BY_EXTENSION = {
    ".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".jsonlines": "jsonl",
    ".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".txt": "text", ".text": "text",
}
FORMATS = ("json", "jsonl", "csv", "tsv", "text")

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_OTHER_BREAKS = re.compile("[\v\f\x1c\x1d\x1e\x85\u2028\u2029]")


def split_lines(text: str) -> list[str]:
    r"""Split at ``\r\n``, ``\r`` or ``\n`` only, not at the other breaks that
    ``str.splitlines`` knows; a final break leaves a last empty piece::

        >>> split_lines("a\r\nb\u2028c\rd\n")
        ['a', 'b\u2028c', 'd', '']
    """
    if _OTHER_BREAKS.search(text):
        return _LINE_BREAK.split(text)
    lines = text.splitlines()
    if text.endswith(("\n", "\r")):
        lines.append("")
    return lines


_SURROGATE = re.compile("[\ud800-\udfff]")
_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_BINARY_MAGIC = (
    (b"\x89PNG", "a PNG image"), (b"PK\x03\x04", "a zip archive"),
    (b"\x1f\x8b", "a gzip archive"), (b"%PDF", "a PDF document"),
    (b"\xff\xd8\xff", "a JPEG image"), (b"GIF8", "a GIF image"),
    (b"PAR1", "a Parquet file"), (b"\x28\xb5\x2f\xfd", "a zstd archive"),
    (b"SQLite format 3", "an SQLite database"), (b"\x7fELF", "a program"),
)


@dataclass
class Table:
    """The records of one file before any field is chosen.

    ``records`` are dicts from field name to the parsed value (strings for
    CSV, TSV and text; any JSON value for JSON and JSONL). ``lines`` gives the
    1-based line each record starts on, for messages.
    """
    source: str
    format: str
    fields: list[str]
    records: list[dict]
    lines: list[int] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.records)


class Row(NamedTuple):
    """One row to check: its 1-based number in its file, its id and its text.

    A row is *blank* when its text is empty or only whitespace (a missing or
    null field gives the empty string).
    """
    number: int
    id: str
    text: str

    @property
    def blank(self) -> bool:
        return not self.text or self.text.isspace()


# --- bytes -> str ---------------------------------------------------------

def decode_text(data: bytes, source: str) -> str:
    """Decode a file's bytes: UTF-8 (BOM optional) or UTF-16 with a BOM.

    Binary files, NUL bytes and invalid UTF-8 raise an InputError with the
    line of the first bad byte.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as e:
            raise InputError(source, f"starts with a UTF-16 byte-order mark but is not "
                                     f"valid UTF-16 ({e.reason}); save it as UTF-8") from None
        return _without_nul(text, source)
    for magic, what in _BINARY_MAGIC:
        if data.startswith(magic):
            raise InputError(source, f"looks like {what}, not a text file")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise InputError(source, f"is not valid UTF-8 (byte 0x{data[e.start]:02x} at "
                                 f"column {column}); save it as UTF-8", line=line) from None
    return _without_nul(text, source)


def _without_nul(text: str, source: str) -> str:
    at = text.find("\x00")
    if at >= 0:
        line = len(_LINE_BREAK.findall(text, 0, at)) + 1
        raise InputError(source, "contains a NUL character: this looks like a binary "
                                 "file, not text", line=line)
    return text


def _clean(s: str) -> str:
    """Replace lone surrogates (JSON can spell them as \\ud800) by U+FFFD.

    One code point stays one code point, so character offsets are unchanged.
    """
    return _SURROGATE.sub("\ufffd", s) if _SURROGATE.search(s) else s


# --- str -> Table -----------------------------------------------------------

def format_from_name(name: str) -> str | None:
    """The format an extension names, or None: ``"dev.ndjson"`` -> ``"jsonl"``."""
    lower = name.lower()
    for ext, fmt in FORMAT_BY_EXTENSION.items():
        if lower.endswith(ext):
            return fmt
    return None


def read_table(data: bytes, name: str, format: str | None = None) -> Table:
    """Read a whole file into a Table; ``format`` forces one of FORMATS."""
    return run_steps(read_table_steps(data, name, format))


def read_table_steps(data: bytes, name: str, format: str | None = None):
    """:func:`read_table` as a generator: yields records read, returns the Table."""
    if format is not None and format not in FORMATS:
        raise InputError(name, f"unknown format {format!r}; use one of {', '.join(FORMATS)}")
    text = decode_text(data, name)
    if not text.strip():
        raise InputError(name, "is empty: it has no rows")
    fmt = format or _sniff(text, format_from_name(name))
    reader = {"json": _read_json, "jsonl": _read_jsonl, "csv": _read_delimited,
              "tsv": _read_delimited, "text": _read_text}[fmt]
    table = yield from reader(text, name, fmt)
    if not table.records:
        raise InputError(name, "has no rows")
    return table


def _sniff(text: str, by_extension: str | None) -> str:
    """Pick the format from the content, trusting the extension where it fits."""
    head = text.lstrip()
    if head[:1] in ("[", "{"):
        first_line = _LINE_BREAK.split(head, 1)[0]
        if by_extension == "jsonl":
            return "json" if head[:1] == "[" and _parses(head) else "jsonl"
        if head[:1] == "{" and first_line.strip() != head.strip() and _parses(first_line):
            return "jsonl"
        if by_extension in (None, "json") or _parses(head):
            return "json"
    if by_extension in ("json", "jsonl"):
        return by_extension      # not JSON at all: let its reader say where
    first_line = _LINE_BREAK.split(text, 1)[0]
    if by_extension in ("csv", "tsv"):
        if "\t" in first_line and "," not in first_line:
            return "tsv"
        if "," in first_line and "\t" not in first_line:
            return "csv"
        return by_extension
    if by_extension == "text":
        return "text"
    if "\t" in first_line:
        return "tsv"
    if "," in first_line and _consistent_csv(text):
        return "csv"
    return "text"


#: Deepest JSON nesting read. Deeper documents are refused before parsing:
#: in the browser the parser's recursion would overflow the WebAssembly stack
#: and kill the interpreter, taking the page with it.
MAX_JSON_DEPTH = 100
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_EMPTY_PAIR = re.compile(r"\[\]|\{\}")


def json_too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when brackets outside strings nest deeper than ``limit``.

    Each pass deletes the innermost ``[]``/``{}`` pairs, so a document of depth
    d empties in d passes: ``json_too_deep("[[1]]", 1)`` is True.
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    for _ in range(limit):
        inner = _EMPTY_PAIR.sub("", brackets)
        if inner == brackets or not inner:
            return False          # empty: shallow enough; stuck: unbalanced, json says so
        brackets = inner
    return bool(brackets)


def _loads(text: str):
    """json.loads, refusing nesting deeper than MAX_JSON_DEPTH first."""
    if json_too_deep(text):
        raise RecursionError
    return json.loads(text)


def _parses(text: str) -> bool:
    try:
        _loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def _consistent_csv(text: str) -> bool:
    sample = list(zip(range(20), csv.reader(io.StringIO(text[:65536], newline=""))))
    widths = {len(r) for _, r in sample[:-1] if r} or {len(sample[0][1])}
    return len(widths) == 1 and widths.pop() >= 2


def _json_error(name: str, e: Exception, line_offset: int = 0) -> InputError:
    if isinstance(e, json.JSONDecodeError):
        return InputError(name, f"is not valid JSON: {e.msg} (column {e.colno})",
                          line=e.lineno + line_offset)
    if isinstance(e, RecursionError):
        return InputError(name, f"is not usable JSON: nested more than {MAX_JSON_DEPTH} "
                                f"levels deep",
                          line=(line_offset + 1) if line_offset else None)
    return InputError(name, f"is not usable JSON: {e}",
                      line=(line_offset + 1) if line_offset else None)


def _record(value, name: str, what: str, **where) -> dict:
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        return {"text": value}
    kind = {list: "an array", bool: "a boolean", int: "a number", float: "a number",
            type(None): "null"}.get(type(value), type(value).__name__)
    raise InputError(name, f"{what} is {kind}; each row must be an object or a string",
                     **where)


def _read_json(text: str, name: str, fmt: str):
    yield 0
    try:
        value = _loads(text)
    except (ValueError, RecursionError) as e:
        raise _json_error(name, e) from None
    if isinstance(value, dict):
        arrays = [(k, v) for k, v in value.items() if isinstance(v, list)
                  and v and all(isinstance(x, (dict, str)) for x in v)]
        if not arrays:
            if any(isinstance(v, (str, list)) for v in value.values()) or not value:
                raise InputError(name, "is a JSON object that holds no array of rows; "
                                       "expected an array of objects or strings")
            arrays = [("", [value])]      # a single object is a single row
        value = max(arrays, key=lambda kv: len(kv[1]))[1]
    if not isinstance(value, list):
        _record(value, name, "the top level of the JSON")
    records, pacer = [], Pacer()
    for i, v in enumerate(value, 1):
        records.append(_record(v, name, f"item {i}", row=i))
        if pacer.due():
            yield len(records)
    fields = yield from _fields_steps(records)
    return Table(name, fmt, fields, records, [])


def _read_jsonl(text: str, name: str, fmt: str):
    records, lines, pacer = [], [], Pacer()
    for number, line in enumerate(split_lines(text), 1):
        if pacer.due():
            yield len(records)
        if not line.strip():
            continue
        try:
            value = _loads(line)
        except (ValueError, RecursionError) as e:
            if isinstance(e, json.JSONDecodeError):
                raise InputError(name, f"is not valid JSON Lines: {e.msg} (column {e.colno})",
                                 line=number) from None
            raise _json_error(name, e, number - 1) from None
        records.append(_record(value, name, "this line", line=number))
        lines.append(number)
    fields = yield from _fields_steps(records)
    return Table(name, fmt, fields, records, lines)


def _read_delimited(text: str, name: str, fmt: str):
    delimiter = "\t" if fmt == "tsv" else ","
    old_limit = csv.field_size_limit()
    csv.field_size_limit(max(old_limit, len(text) + 1))
    try:
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
        header, records, lines, start = None, [], [], 1
        pacer = Pacer()
        try:
            for cells in reader:
                if not cells or cells == [""] and header is not None:
                    start = reader.line_num + 1
                    continue
                if header is None:
                    header = _header(cells, name)
                elif len(cells) != len(header):
                    raise InputError(name, f"has {len(cells)} fields where the header has "
                                           f"{len(header)}", line=start)
                else:
                    records.append(dict(zip(header, cells)))
                    lines.append(start)
                    if pacer.due():
                        yield len(records)
                start = reader.line_num + 1
        except csv.Error as e:
            raise InputError(name, f"is not valid {fmt.upper()}: {e}", line=start) from None
    finally:
        csv.field_size_limit(old_limit)
    if header is not None and not records:
        raise InputError(name, "has a header row but no rows under it")
    return Table(name, fmt, header or [], records, lines)


def _header(cells: list[str], name: str) -> list[str]:
    header, seen = [], {}
    for i, cell in enumerate(cells, 1):
        label = _clean(cell.strip()) or f"column_{i}"
        if label in seen:
            raise InputError(name, f"has two columns named {label!r} (columns {seen[label]} "
                                   f"and {i}); rename one so the text field is unambiguous",
                             line=1)
        seen[label] = i
        header.append(label)
    return header


def _read_text(text: str, name: str, fmt: str):
    yield 0
    lines = split_lines(text)
    if lines and lines[-1] == "":
        lines.pop()                       # a final line break ends the last row
    records, pacer = [], Pacer()
    for line in lines:
        records.append({"text": line})
        if pacer.due():
            yield len(records)
    return Table(name, fmt, ["text"], records, list(range(1, len(lines) + 1)))


def _fields_steps(records: list[dict]):
    """Field names in first-seen order; keys with lone surrogates are repaired."""
    seen: dict[str, None] = {}
    pacer = Pacer()
    for record in records:
        for key in record:
            if key not in seen:
                seen[key] = None
        if pacer.due():
            yield len(seen)
    if any(_SURROGATE.search(key) for key in seen):
        for i, record in enumerate(records):
            records[i] = {_clean(k): v for k, v in record.items()}
        return list(dict.fromkeys(_clean(k) for k in seen))
    return list(seen)


# --- Table -> rows ---------------------------------------------------------

def _is_text(value) -> bool:
    return isinstance(value, str) and bool(value.strip()) and not _NUMBER.fullmatch(value.strip())


def _string_share(table: Table, name: str, sample: int = 200) -> float:
    present = [r[name] for r in table.records[:sample] if r.get(name) is not None]
    if not present:
        return 0.0
    return sum(map(_is_text, present)) / len(present)


def detect_id_field(table: Table) -> str | None:
    """The id field: a common name (id, _id, uid, task_id...), else any ``*_id``."""
    by_lower = {f.lower(): f for f in table.fields}
    for name in ID_FIELD_NAMES:
        if name in by_lower:
            return by_lower[name]
    for f in table.fields:
        if f.lower().endswith(("_id", "-id")):
            return f
    return None


def detect_text_fields(table: Table) -> list[str]:
    """The text field: a common name holding mostly text, else the first such field.

    ``{"id": "x1", "label": 3, "question": "Who?"}`` -> ``["question"]``.
    """
    return run_steps(detect_text_fields_steps(table))


def detect_text_fields_steps(table: Table):
    """:func:`detect_text_fields` as steps (a file may have 10,000 columns)."""
    id_field = detect_id_field(table)
    by_lower = {f.lower(): f for f in table.fields}
    for name in TEXT_FIELD_NAMES:
        f = by_lower.get(name)
        if f is not None and _string_share(table, f) >= 0.5:
            return [f]
    candidates = [f for f in table.fields if f != id_field]
    pacer = Pacer()
    for i, f in enumerate(candidates):
        if _string_share(table, f, 50) >= 0.5:
            return [f]
        if pacer.due():
            yield i
    for f in candidates + [id_field]:
        if f is not None and any(isinstance(r.get(f), str) for r in table.records[:1000]):
            return [f]
    return table.fields[:1]


def _as_text(value) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return _clean(value)
    return _clean(json.dumps(value, ensure_ascii=False))


def select_rows(table: Table, text_fields: list[str] | None = None,
                id_field: str | None = None) -> list[Row]:
    """Turn records into Rows (see :func:`select_rows_steps`)."""
    return run_steps(select_rows_steps(table, text_fields, id_field))


def select_rows_steps(table: Table, text_fields: list[str] | None = None,
                      id_field: str | None = None):
    """Turn records into Rows: the chosen text fields joined by a newline, and an id.

    Missing or null text fields are left out of the join; a row with none is
    blank. ``id_field=None`` detects the id field and ``""`` asks for none;
    without one the row number is the id. A field that no record has raises an
    InputError naming the fields the file does have.
    """
    fields = list(text_fields) if text_fields else (yield from detect_text_fields_steps(table))
    if id_field is None:
        id_field = detect_id_field(table)
    elif id_field == "":
        id_field = None                   # asked for row numbers
    elif id_field not in table.fields:
        raise _missing_field(table, id_field, "id")
    for f in fields:
        if f not in table.fields:
            raise _missing_field(table, f, "text")
    rows = []
    any_text = False
    pacer = Pacer()
    for number, record in enumerate(table.records, 1):
        if pacer.due():
            yield number
        parts = [_as_text(record.get(f)) for f in fields if record.get(f) is not None]
        any_text = any_text or bool(parts)
        ident = record.get(id_field) if id_field else None
        rows.append(Row(number, str(number) if ident is None else _as_text(ident),
                        "\n".join(parts)))
    if not any_text:
        raise InputError(table.source, f"no row has a value in the text field "
                                       f"{', '.join(map(repr, fields))}")
    return rows


def _missing_field(table: Table, name: str, role: str) -> InputError:
    shown = ", ".join(repr(_clean(f)) for f in table.fields[:20])
    more = f" and {len(table.fields) - 20} more" if len(table.fields) > 20 else ""
    return InputError(table.source, f"has no field {_clean(name)!r} to use as the {role} "
                                    f"field; its fields are {shown}{more}")


def read_rows(data: bytes, name: str, text_fields: list[str] | None = None,
              id_field: str | None = None, format: str | None = None) -> list[Row]:
    """``read_table`` then ``select_rows``: the one call most callers need."""
    return select_rows(read_table(data, name, format), text_fields, id_field)
