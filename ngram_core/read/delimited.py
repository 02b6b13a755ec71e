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

Quotes are CSV quoting, except in a file whose every (non-blank) line holds
the same number of separators, when reading it with quoting fails, or gives
records of another width, or joins lines into one record: then each line is
split at the separator and a quote is only a character, as in many TSVs
(GLUE, KorNLI, KorSTS: pandas' ``quoting=csv.QUOTE_NONE``). The notes say so::

    >>> table = run_steps(read_delimited_steps('id\ttext\n1\t"Hi," she said\n2\tBye\n',
    ...                                         "a.tsv", "tsv", ReadOptions()))
    >>> table.records[0]["text"], table.notes[1]
    ('"Hi," she said', 'quotes read as text (every line has the same number of tabs)')

Lines above the header that are a preamble (a title, ``#`` comments, rows of
empty cells: :func:`preamble_lines`) are not rows, and a note says which.
Messages name a separator in words ("a tab"), never as the raw character.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from ..errors import InputError
from ..steps import Pacer, run_steps
from ..table import (ID_FIELD_NAMES, ID_SUFFIXES, LINE_BREAK, PLAIN_NUMBER, TEXT_FIELD_NAMES,
                    ReadOptions, Table, repair_surrogates, split_lines)

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
    r"""The first 20 non-blank records of a delimited text, quotes respected;
    or its first 20 non-blank lines split at the separator when quotes are
    text there (:func:`_literal_sample`), as in this file of two lines::

        >>> sample_rows('a\t"b\tc\nd\te"\tf\n', "\t")
        [['a', '"b', 'c'], ['d', 'e"', 'f']]

    Read from the first 64 KiB only; a record cut there is left out.
    """
    head = text[:_SAMPLE_CHARS]
    cut = len(text) > len(head)
    rows, ends, broken = _quoted_sample(head, delimiter)
    if '"' in head:
        literal = _literal_sample(head, delimiter, cut, rows, ends, broken)
        if literal is not None:
            return literal
    if cut and len(rows) <= _SAMPLE_RECORDS and len(rows) > 1:
        rows.pop()                 # the last record may be cut at the sample's end
    return rows[:_SAMPLE_RECORDS]


def _quoted_sample(head: str, delimiter: str) -> tuple[list[list[str]], list[int], bool]:
    """Up to 21 non-blank records read with quoting, the line each ends on,
    and whether reading stopped at a broken record."""
    rows: list[list[str]] = []
    ends: list[int] = []
    reader = csv.reader(io.StringIO(head, newline=""), delimiter=delimiter)
    try:
        for cells in reader:
            if cells and cells != [""]:
                rows.append(cells)
                ends.append(reader.line_num)
            if len(rows) > _SAMPLE_RECORDS:
                break
    except csv.Error:
        return rows, ends, True    # the sample ends at the first broken record
    return rows, ends, False


def _literal_sample(head: str, delimiter: str, cut: bool, rows: list[list[str]],
                    ends: list[int], broken: bool) -> list[list[str]] | None:
    """The first 20 non-blank lines of ``head`` split at ``delimiter``, when
    they all split into the same number (2 or more) of fields and the records
    read with quoting (``rows``, ending on lines ``ends``) do not: reading
    broke within those lines, or the records differ in width, or one spans
    several lines. Else None. A last line ``cut`` at the sample's end is left
    out.
    """
    pieces = split_lines(head)
    if cut:
        pieces.pop()
    lines: list[list[str]] = []
    numbers: list[int] = []
    for number, line in enumerate(pieces, 1):
        if line:
            lines.append(line.split(delimiter))
            numbers.append(number)
            if len(lines) == _SAMPLE_RECORDS:
                break
    width = len(lines[0]) if lines else 0
    if width < 2 or any(len(cells) != width for cells in lines):
        return None
    n = min(len(rows), len(lines))
    if (broken and len(rows) < len(lines)) or ends[:n] != numbers[:n] \
            or any(len(cells) != len(rows[0]) for cells in rows[:_SAMPLE_RECORDS]):
        return lines
    return None


def _consistency(rows: list[list[str]]) -> float:
    """Share of rows as wide as the first (0 when the first has under 2 fields)."""
    if not rows or len(rows[0]) < 2:
        return 0.0
    return sum(len(r) == len(rows[0]) for r in rows) / len(rows)


def detect_delimiter(text: str, preferred: str = ",") -> str:
    """The separator among comma, semicolon, tab and pipe that splits the first
    20 records (after any lines above the header, see :func:`preamble_lines`)
    most consistently into the same number (2 or more) of fields; ties go to
    ``preferred``, then to that order. A file no separator splits is one
    column, read with ``preferred``::

        >>> detect_delimiter('id;text\\n1;"a; b, c"\\n2;d, e\\n')
        ';'
    """
    best, best_score = preferred, 0.0
    for d in (preferred,) + tuple(d for d in DELIMITERS if d != preferred):
        rows = sample_rows(text, d)
        score = _consistency(rows[_preamble_records(rows):])
        if score > best_score:
            best, best_score = d, score
    return best


def consistent_delimiter(text: str) -> str | None:
    """A separator splitting every sampled record (after any lines above the
    header) alike into 2 or more fields, or None."""
    for d in DELIMITERS:
        rows = sample_rows(text, d)
        if _consistency(rows[_preamble_records(rows):]) == 1.0:
            return d
    return None


def tab_table(text: str) -> bool:
    r"""Whether a text is a table of tab-separated columns: its first 20
    records (two at least, after any lines above the header) all split at
    tabs into the same number of fields, two or more of them filled somewhere
    (lines that each start with a tab are indented text). A ``.txt`` file that
    is one (MRPC's ``msr_paraphrase_test.txt``, a spreadsheet saved as
    "Unicode text") is read as TSV, not as lines::

        >>> tab_table("Quality\t#1 String\n1\tHe said \"yes\" to it.\n")
        True
        >>> tab_table("A line\twith a tab.\nA line without.\n"), tab_table("\tOne.\n\tTwo.\n")
        (False, False)
    """
    if "\t" not in text[:_SAMPLE_CHARS]:
        return False
    rows = sample_rows(text, "\t")
    rows = rows[_preamble_records(rows):]
    if len(rows) < 2 or _consistency(rows) < 1.0:
        return False
    return sum(any(r[i].strip() for r in rows) for i in range(len(rows[0]))) >= 2


#: At most this many records above a header are a preamble (see :func:`preamble_lines`).
_PREAMBLE_MAX = 5


def _preamble_records(rows: list[list[str]]) -> int:
    """How many of the first sampled records are a preamble above the header:
    each with at most one filled cell (a title, a row of empty cells) or, not
    as wide as the table, a first cell starting with ``#`` (a comment), at
    most 5 of them, followed by two or more records all as wide (2 or more
    fields) of which the first is a header (:func:`detect_header`). 0 when
    there is none: rows numbered ``#1``, ``#2`` are rows."""
    def filled(cells: list[str]) -> int:
        return sum(bool(c.strip()) for c in cells)

    k = 0
    while k < min(len(rows), _PREAMBLE_MAX) and \
            (filled(rows[k]) <= 1 or rows[k][0].lstrip().startswith("#")):
        k += 1
    rest = rows[k:]
    if k == 0 or len(rest) < 2 or _consistency(rest) < 1.0 or not detect_header(rest) or \
            any(filled(r) > 1 and len(r) == len(rest[0]) for r in rows[:k]):
        return 0
    return k


def preamble_lines(text: str, delimiter: str) -> int:
    r"""The number of lines above a table's header that are not part of the
    table: a title, ``#`` comments, rows of empty cells, as spreadsheets and
    export tools write them (see :func:`_preamble_records`). They are not read
    as rows, and the reading says so::

        >>> preamble_lines("Export of 2024-05-01\n\nid,question\nq1,Why is the sky blue?\n", ",")
        2
        >>> preamble_lines("id,question\nq1,Why is the sky blue?\n", ",")
        0
    """
    head = text[:_SAMPLE_CHARS]
    rows, ends, _ = _quoted_sample(head, delimiter)
    if len(text) > len(head) and len(rows) > 1:
        rows, ends = rows[:-1], ends[:-1]        # the last record may be cut
    k = _preamble_records(rows[:_SAMPLE_RECORDS])
    return ends[k - 1] + _blank_lines_after(head, ends[k - 1]) if k else 0


def _blank_lines_after(text: str, line: int) -> int:
    """How many blank lines follow line ``line`` (1-based) of ``text``."""
    count = 0
    for piece in split_lines(text)[line:]:
        if piece.strip():
            break
        count += 1
    return count


def _after_lines(text: str, count: int) -> str:
    """``text`` from the start of line ``count + 1`` on (``""`` when it has fewer lines)."""
    for i, brk in enumerate(LINE_BREAK.finditer(text), 1):
        if i == count:
            return text[brk.end():]
    return ""


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


#: How a note or a message names a separator, one of them and several.
_SEPARATOR_NAMES = {",": ("a comma", "commas"), ";": ("a semicolon", "semicolons"),
                    "\t": ("a tab", "tabs"), "|": ("a pipe", "pipes")}


def separator_name(delimiter: str, plural: bool = False) -> str:
    """A separator in words, for messages and notes: ``"\\t"`` -> ``"a tab"``
    (plural: ``"tabs"``); another character is quoted with its escapes
    (``"':'"``, plural ``"':' separators"``), so no message holds a raw tab."""
    if delimiter in _SEPARATOR_NAMES:
        return _SEPARATOR_NAMES[delimiter][plural]
    return f"{delimiter!r} separators" if plural else repr(delimiter)


def _literal_note(delimiter: str) -> str:
    return f"quotes read as text (every line has the same number of " \
           f"{separator_name(delimiter, True)})"


def quotes_read_as_text(table: Table) -> bool:
    """Whether ``table`` was read with quotes as text, each record one line
    split at its separator (the note says so), as a writer cutting the file
    again by records must know."""
    return table.delimiter is not None and _literal_note(table.delimiter) in table.notes


class Dialect(NamedTuple):
    """How a delimited text is cut, decided from its start (:func:`detect_dialect`)."""
    delimiter: str
    skipped: int                  # lines above the header that are not rows
    header: bool


def detect_dialect(text: str, fmt: str, options: ReadOptions) -> Dialect:
    """The separator, the lines above the header and whether there is a header,
    from the first 64 KiB of ``text`` (after its preamble) only: a file's first MiB
    decides as the whole file does. ``options`` may fix the separator or the header."""
    preferred = "\t" if fmt == "tsv" else ","
    delimiter = options.delimiter or detect_delimiter(text, preferred)
    skipped = preamble_lines(text, delimiter) if options.header is not False else 0
    sample = sample_rows(without_preamble(text, skipped), delimiter)
    has_header = detect_header(sample) if options.header is None else options.header
    return Dialect(delimiter, skipped, has_header)


def without_preamble(text: str, skipped: int) -> str:
    """``text`` with its first ``skipped`` lines blank (line numbers hold: the reader
    skips blank lines)."""
    return "\n" * skipped + _after_lines(text, skipped) if skipped else text


def delimited_notes(dialect: Dialect, width: int, literal: bool) -> list[str]:
    """What the reading of a delimited text says of it."""
    notes = [_dialect_note(dialect.delimiter, width, dialect.header)]
    skipped = dialect.skipped
    if skipped:
        notes.append((f"lines 1-{skipped}, above the header, are not rows" if skipped > 1 else
                      "line 1, above the header, is not a row") + " (a title, comments or empty cells)")
    if literal:
        notes.append(_literal_note(dialect.delimiter))
    return notes


def read_delimited_steps(text: str, name: str, fmt: str, options: ReadOptions):
    """Read a delimited text: detect the separator and the header, then the records.

    Quotes are CSV quoting unless every non-blank line holds the same number
    (1 or more) of separators and reading with quoting fails (a broken quoted
    field, or a record not as wide as the header) or makes fewer records than
    there are lines (a lone ``"`` joining lines into one cell): then each line
    is split at the separator, quotes kept as text, and a note says so. So
    ``1\\t"quoted" start`` under ``id\\ttext`` is read as it is, while
    ``1,"a, b"`` under ``id,text`` (lines of two commas and of one) is still
    the two fields ``1`` and ``a, b``.
    """
    dialect = detect_dialect(text, fmt, options)
    delimiter, has_header = dialect.delimiter, dialect.header
    text = without_preamble(text, dialect.skipped)
    plain = _even_lines(text, delimiter) if '"' in text else None
    old_limit = csv.field_size_limit()
    csv.field_size_limit(max(old_limit, len(text) + 1))
    try:
        fields, records, lines = yield from _collected(
            quoted_records(io.StringIO(text, newline=""), name, delimiter, has_header))
        literal = plain is not None and \
            len(records) + bool(has_header and fields) < plain[1]
    except _Unquotable as e:
        if plain is None:
            raise InputError(e.source, e.message, line=e.line) from None
        literal = True
    finally:
        csv.field_size_limit(old_limit)
    if literal and plain is not None:
        fields, records, lines = yield from _collected(
            literal_records(plain[0], name, delimiter, has_header))
    if has_header and fields and not records:
        raise InputError(name, "has a header row but no rows under it")
    notes = delimited_notes(dialect, len(fields), literal)
    return Table(name, "tsv" if delimiter == "\t" else "csv", fields, records, lines,
                 delimiter=delimiter, header=has_header, notes=notes)


def _even_lines(text: str, delimiter: str) -> tuple[list[str], int] | None:
    """The lines of ``text`` and how many are not empty, when every one that
    is not empty holds the same number (1 or more) of ``delimiter``; else None.
    ``"a\\tb\\n\\nc\\td\\n"`` -> ``(["a\\tb", "", "c\\td", ""], 2)``."""
    lines = split_lines(text)
    even = EvenLines(delimiter)
    for line in lines:
        if not even.add(line):
            return None
    filled = even.filled()
    return (lines, filled) if filled is not None else None


class EvenLines:
    """Whether every non-empty line seen holds the same number (1 or more) of a
    separator, and how many lines were not empty (lines given without their break)."""

    def __init__(self, delimiter: str) -> None:
        self.delimiter = delimiter
        self.count = -1               # separators per line; -1: no line yet
        self.lines = 0                # non-empty lines
        self.even = True

    def add(self, line: str) -> bool:
        """Count one line; False once the lines are not even."""
        if line and self.even:
            n = line.count(self.delimiter)
            if n != self.count:
                if self.count >= 0 or n == 0:
                    self.even = False
                    return False
                self.count = n
            self.lines += 1
        return self.even

    def filled(self) -> int | None:
        """The non-empty lines, when all were even with 1 or more separators; else None."""
        return self.lines if self.even and self.count > 0 else None


class _Unquotable(InputError):
    """A record the csv module cannot read, or not as wide as the first."""


def _collected(records):
    """Gather :func:`quoted_records` or :func:`literal_records` into the fields, the
    records and their lines, yielding progress."""
    fields: list[str] = []
    out: list[dict] = []
    lines: list[int] = []
    pacer = Pacer()
    for fields, record, line in records:
        if record is not None:
            out.append(record)
            lines.append(line)
            if pacer.due():
                yield len(out)
    return fields, out, lines


def quoted_records(lines: Iterable[str], name: str, delimiter: str, has_header: bool
                   ) -> Iterator[tuple[list[str], dict | None, int]]:
    """``(fields, record, line)`` for each record of delimited text read with quoting,
    from its lines with their breaks (``io.StringIO(text, newline="")``, or a file
    opened so), the header first (its record None); blank records (and records of
    empty cells) skipped. A broken record, or one of another width, raises
    :class:`_Unquotable` (an InputError)."""
    what = {"\t": "TSV", ",": "CSV"}.get(delimiter, f"{DELIMITERS.get(delimiter, 'delimited')}"
                                                     f"-separated text")
    reader = csv.reader(lines, delimiter=delimiter, strict=True)
    fields: list[str] | None = None
    start, read = 1, 0
    try:
        for cells in reader:
            if not any(cell.strip() for cell in cells):    # a blank line, or a row of
                start = reader.line_num + 1                 # empty cells (",,,,": a
                continue                                    # spreadsheet's padding)
            if fields is None:
                fields = _header(cells, name, start) if has_header else \
                    [f"column_{i}" for i in range(1, len(cells) + 1)]
                if has_header:
                    yield fields, None, start
                    start = reader.line_num + 1
                    continue
            if len(cells) != len(fields):
                title = len(fields) == 1 and not read     # "Scores, March" over the header
                raise _Unquotable(name, f"has {len(cells)} fields where the "
                                        f"{'header' if has_header else 'first row'} has "
                                        f"{len(fields)}" + (" (a title line above the header? "
                                                            "delete it)" if title else ""),
                                  line=start)
            yield fields, dict(zip(fields, cells)), start
            read += 1
            start = reader.line_num + 1
    except csv.Error as e:
        raise _Unquotable(name, f"is not valid {what}: {csv_problem(e, delimiter)}",
                          line=start) from None


def csv_problem(error: csv.Error, delimiter: str) -> str:
    """The csv module's complaint in words, the separator named, never a raw
    tab: ``'\\t' expected after '"'`` -> a closing quote must be followed by a
    tab or the end of the line (and why quotes were read as quoting)."""
    message = str(error)
    why = f" (quotes are read as text only when every line holds one or more " \
          f"{separator_name(delimiter, True)}, the same number in each)"
    if message.endswith("expected after '\"'"):
        return f"a quote closing a quoted field must be followed by " \
               f"{separator_name(delimiter)} or the end of the line{why}"
    if message == "unexpected end of data":
        return f"a quoted field is still open at the end of the file{why}"
    message = message.replace(f"'{delimiter}'", separator_name(delimiter))
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def literal_records(lines: Iterable[str], name: str, delimiter: str, has_header: bool
                    ) -> Iterator[tuple[list[str], dict | None, int]]:
    """``(fields, record, line)`` for each line (without its break) split at
    ``delimiter``, quotes kept as text (:func:`_even_lines`), the header first (its
    record None); empty lines (and lines of separators only) skipped."""
    fields: list[str] | None = None
    for number, line in enumerate(lines, 1):
        if not line.replace(delimiter, "").strip():      # blank, or only separators
            continue
        cells = line.split(delimiter)
        if fields is None:
            fields = _header(cells, name, number) if has_header else \
                [f"column_{i}" for i in range(1, len(cells) + 1)]
            if has_header:
                yield fields, None, number
                continue
        yield fields, dict(zip(fields, cells)), number


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


