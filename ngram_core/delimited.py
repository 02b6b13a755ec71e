r"""Delimited text (CSV, TSV, semicolon- and pipe-separated) -> a
:class:`~ngram_core.table.Table`.

The separator is detected among comma, semicolon, tab and pipe, and whether
the first row is a header (a headerless file gets ``column_1``,
``column_2``, ...); quoted fields may hold separators and line breaks. What
was detected is stated in the table's notes::

    >>> table = run_steps(read_delimited_steps("id;text\r\n1;Hello, world\r\n", "a.csv",
    ...                                         "csv", ReadOptions()))
    >>> table.delimiter, table.header, table.records
    (';', True, [{'id': '1', 'text': 'Hello, world'}])
"""

from __future__ import annotations

import csv
import io

from .errors import InputError
from .steps import Pacer, run_steps
from .table import (ID_FIELD_NAMES, ID_SUFFIXES, PLAIN_NUMBER, TEXT_FIELD_NAMES, ReadOptions, Table,
                    repair_surrogates)

#: The field separators detected in delimited files, with the names notes use.
DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}

# --- delimited text -----------------------------------------------------------

_SAMPLE_CHARS = 1 << 16
_SAMPLE_RECORDS = 20
#: Header cells that name a column for sure (with TEXT/ID_FIELD_NAMES, lower case).
COLUMN_NAMES = ("label", "labels", "title", "url", "source", "answer", "answers",
                "category", "name", "date", "split", "target", "output", "response",
                "completion", "choices", "score", "lang", "language", "subject", "topic",
                "tags", "contents", "summary", "description")
_KNOWN_COLUMNS = frozenset(TEXT_FIELD_NAMES + ID_FIELD_NAMES + COLUMN_NAMES)


def sample_rows(text: str, delimiter: str) -> list[list[str]]:
    """The first 20 non-blank records of a delimited text, quotes respected.

    Read from the first 64 KiB only; a record cut there is left out.
    """
    head = text[:_SAMPLE_CHARS]
    rows: list[list[str]] = []
    try:
        for cells in csv.reader(io.StringIO(head, newline=""), delimiter=delimiter):
            if cells and cells != [""]:
                rows.append(cells)
            if len(rows) > _SAMPLE_RECORDS:
                break
    except csv.Error:
        pass                       # the sample ends at the first broken record
    if len(text) > len(head) and len(rows) <= _SAMPLE_RECORDS and len(rows) > 1:
        rows.pop()                 # the last record may be cut at the sample's end
    return rows[:_SAMPLE_RECORDS]


def _consistency(rows: list[list[str]]) -> float:
    """Share of rows as wide as the first (0 when the first has under 2 fields)."""
    if not rows or len(rows[0]) < 2:
        return 0.0
    return sum(len(r) == len(rows[0]) for r in rows) / len(rows)


def detect_delimiter(text: str, preferred: str = ",") -> str:
    """The separator among comma, semicolon, tab and pipe that splits the first
    20 records most consistently into the same number (2 or more) of fields;
    ties go to ``preferred``, then to that order. A file no separator splits
    is one column, read with ``preferred``::

        >>> detect_delimiter('id;text\\n1;"a; b, c"\\n2;d, e\\n')
        ';'
    """
    best, best_score = preferred, 0.0
    for d in (preferred,) + tuple(d for d in DELIMITERS if d != preferred):
        score = _consistency(sample_rows(text, d))
        if score > best_score:
            best, best_score = d, score
    return best


def consistent_delimiter(text: str) -> str | None:
    """A separator splitting every sampled record alike into 2 or more fields, or None."""
    for d in DELIMITERS:
        if _consistency(sample_rows(text, d)) == 1.0:
            return d
    return None


def _label_like(cell: str) -> bool:
    return cell == "" or (len(cell) <= 64 and "\n" not in cell and "\r" not in cell
                          and not PLAIN_NUMBER.fullmatch(cell))


def _column_differs(name: str, values: list[str]) -> bool:
    """True when a column's later cells are not like its first: mostly numbers
    under a word; mostly three words or more under a one-word label; or on
    average at least twice as long and 12 characters longer."""
    values = [v.strip() for v in values if v.strip()]
    if not values or name in values:
        return False
    if sum(bool(PLAIN_NUMBER.fullmatch(v)) for v in values) * 2 >= len(values):
        return True
    if len(name.split()) == 1 and sum(len(v.split()) >= 3 for v in values) * 2 >= len(values):
        return True
    mean = sum(map(len, values)) / len(values)
    return mean >= max(2 * len(name), len(name) + 12)


def detect_header(rows: list[list[str]]) -> bool:
    """Whether the first of the sampled records is a header row.

    A lone record is a header (a file of only a header has no rows). Else the
    first record is a header when every cell is a short label (empty, or at
    most 64 characters on one line and not a number) and either some cell is
    a usual column name (``text``, ``id``, ``label``, ``*_id``...) or, with
    its labels all different, some column's later cells differ from its label
    (:func:`_column_differs`)::

        >>> detect_header([["Doc ID", "Texte"], ["d1", "Le chat dort sur le canapé du salon."]])
        True
        >>> detect_header([["d1", "Le chat dort."], ["d2", "Le chien aboie."]])
        False
    """
    if len(rows) < 2:
        return True
    cells = [c.strip() for c in rows[0]]
    if not any(cells) or not all(map(_label_like, cells)):
        return False
    lower = [c.lower() for c in cells if c]
    if any(c in _KNOWN_COLUMNS or c.endswith(ID_SUFFIXES) for c in lower):
        return True
    if len(set(lower)) < len(lower):
        return False
    return any(_column_differs(c, [r[j] for r in rows[1:] if j < len(r)])
               for j, c in enumerate(cells) if c)


def _dialect_note(delimiter: str, width: int, header: bool) -> str:
    what = f"{DELIMITERS.get(delimiter, repr(delimiter))}-separated" if width > 1 \
        else "one column"
    if header:
        return f"{what}, first row read as the header"
    return f"{what}, no header row: fields named column_1" + \
        (f" to column_{width}" if width > 1 else "")


def read_delimited_steps(text: str, name: str, fmt: str, options: ReadOptions):
    preferred = "\t" if fmt == "tsv" else ","
    delimiter = options.delimiter or detect_delimiter(text, preferred)
    sample = sample_rows(text, delimiter)
    has_header = detect_header(sample) if options.header is None else options.header
    old_limit = csv.field_size_limit()
    csv.field_size_limit(max(old_limit, len(text) + 1))
    try:
        fields, records, lines = yield from _delimited_records(text, name, delimiter,
                                                               has_header)
    finally:
        csv.field_size_limit(old_limit)
    if has_header and fields and not records:
        raise InputError(name, "has a header row but no rows under it")
    return Table(name, "tsv" if delimiter == "\t" else "csv", fields, records, lines,
                 delimiter=delimiter, header=has_header,
                 notes=[_dialect_note(delimiter, len(fields), has_header)])


def _delimited_records(text: str, name: str, delimiter: str, has_header: bool):
    """The fields, records and start lines of a delimited text; blank records skipped."""
    what = {"\t": "TSV", ",": "CSV"}.get(delimiter, f"{DELIMITERS.get(delimiter, 'delimited')}"
                                                     f"-separated text")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    fields: list[str] | None = None
    records: list[dict] = []
    lines: list[int] = []
    start, pacer = 1, Pacer()
    try:
        for cells in reader:
            if not cells or cells == [""]:
                start = reader.line_num + 1
                continue
            if fields is None:
                fields = _header(cells, name, start) if has_header else \
                    [f"column_{i}" for i in range(1, len(cells) + 1)]
                if has_header:
                    start = reader.line_num + 1
                    continue
            if len(cells) != len(fields):
                raise InputError(name, f"has {len(cells)} fields where the "
                                       f"{'header' if has_header else 'first row'} has "
                                       f"{len(fields)}", line=start)
            records.append(dict(zip(fields, cells)))
            lines.append(start)
            if pacer.due():
                yield len(records)
            start = reader.line_num + 1
    except csv.Error as e:
        raise InputError(name, f"is not valid {what}: {e}", line=start) from None
    return fields or [], records, lines


def _header(cells: list[str], name: str, line: int = 1) -> list[str]:
    header: list[str] = []
    seen: dict[str, int] = {}
    for i, cell in enumerate(cells, 1):
        label = repair_surrogates(cell.strip()) or f"column_{i}"
        if label in seen:
            raise InputError(name, f"has two columns named {label!r} (columns {seen[label]} "
                                   f"and {i}); rename one so the text field is unambiguous",
                             line=line)
        seen[label] = i
        header.append(label)
    return header


