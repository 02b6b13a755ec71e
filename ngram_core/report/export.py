r"""The files a check writes: the CSV of checkable rows and the CSV of every row.

Both are built here once, so the page and the command write the same bytes.
Row numbers are 1-based; character offsets are code-point offsets into the
row's text, half-open ``[start, end)``; a cell is empty where nothing applies.
A cell a spreadsheet would run as a formula is neutralized::

    >>> csv_line([1, neutralize("=HYPERLINK(1)"), "a,b"])
    '1,\'=HYPERLINK(1),"a,b"\n'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from .definitions import CSV_COLUMNS as DEFINITION_COLUMNS
from .definitions import Definitions
from ..method.match import CHECKABLE, RowMatch, contained_field
from ..table import PLAIN_NUMBER, Row, RowFiles  # noqa: F401  (RowFiles, once defined here)
from .summary import flag_rule

#: The checkable-rows CSV (``--csv``); ``b_file`` follows when B is several files.
CSV_COLUMNS = ("a_row", "a_id", "tokens", "dirty_tokens", "dirty_share", "flagged",
               "longest_span", "windows", "b_row", "b_id", "a_span_start", "a_span_end",
               "b_span_start", "b_span_end", "duplicate_of")
#: The every-row CSV's last columns when A was read from several text fields.
MATCHED_FIELDS_COLUMN = "matched_fields"
CONTAINED_FIELD_COLUMN = "contained_field"
#: The every-row CSV (``--rows-csv``).
ROWS_CSV_COLUMNS = ("a_row", "a_id", "status", "tokens", "dirty_tokens", "dirty_share",
                    "flagged", "longest_span", "windows", "b_row", "b_id", "duplicate_of",
                    "contained_in", "contained_b_start", "contained_b_end", "b_file")
#: The every-row CSV's last columns when the rephrase lens ran.
REPHRASE_COLUMNS = ("similar_b_row", "similarity", "rephrased")
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NEEDS_QUOTES = re.compile('[,"\r\n]')


def neutralize(cell: str) -> str:
    """Keep a spreadsheet from running a cell as a formula.

    A cell starting with ``= + - @``, tab or CR gets a leading apostrophe,
    unless it is a plain number: ``"=1+2"`` -> ``"'=1+2"``, ``"-5"`` stays.
    """
    if cell.startswith(_FORMULA_START) and not PLAIN_NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def csv_line(cells: Iterable[object]) -> str:
    r"""One CSV record ending in ``\n``: a cell holding a comma, a double quote,
    ``\r`` or ``\n`` is quoted, its quotes doubled. (Python 3.11's ``csv.writer``
    leaves a lone ``\r`` unquoted when lines end in ``\n`` and 3.12 quotes it, so
    the command and the page would write different bytes.)

    >>> csv_line(["a", 'b"c', "x\ry", 3])
    'a,"b""c","x\ry",3\n'
    """
    out = []
    for cell in cells:
        text = str(cell)
        if _NEEDS_QUOTES.search(text):
            text = '"' + text.replace('"', '""') + '"'
        out.append(text)
    return ",".join(out) + "\n"


def csv_text(ordered: Iterable[RowMatch], a_rows: Sequence[Row], b_id: Callable[[int], str],
             threshold: float, b_files: RowFiles | None = None) -> str:
    """The CSV of every checkable A row, worst first (see CSV_COLUMNS).

    ``b_id(r)`` gives the id of B row ``r`` (0-based). With B read from several
    files, a last column ``b_file`` names the file of ``b_row``.
    """
    several = b_files is not None and b_files.several
    lines = [csv_line(CSV_COLUMNS + (("b_file",) if several else ()))]
    is_flagged_row = flag_rule(threshold)
    no_match: tuple[object, ...] = ("", "", "", "", "", "")    # b_row, b_id, 4 offsets
    for m in ordered:
        matched = no_match
        if m.b_row is not None and m.a_chars is not None and m.b_chars is not None:
            matched = (m.b_row + 1, neutralize(b_id(m.b_row)), *m.a_chars, *m.b_chars)
        cells: tuple[object, ...] = (
            m.row + 1, neutralize(a_rows[m.row].id), m.tokens, m.dirty, repr(m.share),
            "true" if is_flagged_row(m) else "false", m.span, m.windows, *matched,
            "" if m.duplicate_of is None else m.duplicate_of + 1)
        if several:
            cells += (_file_cell(b_files, m.b_row),)
        lines.append(csv_line(cells))
    return "".join(lines)


def rows_csv_text(matches: Iterable[RowMatch], a_rows: Sequence[Row],
                  b_id: Callable[[int], str], threshold: float,
                  b_files: RowFiles | None = None,
                  definitions: Definitions | None = None,
                  rephrased: Callable[[RowMatch], bool] | None = None) -> str:
    """One line per A row in file order, blank, short and checkable alike
    (see ROWS_CSV_COLUMNS).

    ``status`` is checkable, short or blank; ``tokens`` is 0 for a blank row;
    ``dirty_tokens`` to ``b_id`` are filled for checkable rows only, as in the
    checkable-rows CSV; ``duplicate_of`` for any non-blank row equal to a B row;
    the ``contained_`` cells for contained short rows (offsets into the B
    row); ``b_file`` names the file of ``b_row``, or of ``contained_in``. With
    ``definitions``, one column more per published definition (``true``/``false``,
    llama2 its unrounded share; empty where the row is not considered). When
    A was read from several text fields (its rows have ``parts``), two last
    columns: ``matched_fields`` names the fields holding a matched token,
    separated by ``|`` (``context|question``), and ``contained_field`` the
    field shorter than n tokens found whole in the B row ``contained_in``
    (empty when that is the whole row, or nothing is; the ``contained_`` cells
    are then filled for a checkable row too). With ``rephrased`` (the rephrase
    lens ran; it says whether a row is rephrased), three last columns:
    ``similar_b_row`` (1-based, as ``b_row``; empty when no B row is a
    candidate), ``similarity`` (three decimals) and ``rephrased``
    (``true``/``false``, from the unrounded similarity).
    """
    a_rows = list(a_rows)
    by_field = any(row.parts for row in a_rows)
    extra: tuple[str, ...] = DEFINITION_COLUMNS if definitions is not None else ()
    extra += (MATCHED_FIELDS_COLUMN, CONTAINED_FIELD_COLUMN) if by_field else ()
    extra += REPHRASE_COLUMNS if rephrased is not None else ()
    lines = [csv_line(ROWS_CSV_COLUMNS + extra)]
    is_flagged_row = flag_rule(threshold)
    for m in matches:
        checked: tuple[object, ...] = ("",) * 7
        if m.status == CHECKABLE:
            best = ("", "") if m.b_row is None else (m.b_row + 1, neutralize(b_id(m.b_row)))
            checked = (m.dirty, repr(m.share), "true" if is_flagged_row(m) else "false",
                       m.span, m.windows, *best)
        contained: tuple[object, ...] = ("", "", "")
        if m.contained_in is not None and m.contained_chars is not None:
            contained = (m.contained_in + 1, *m.contained_chars)
        file_row = m.b_row if m.b_row is not None else m.contained_in
        lines.append(csv_line((
            m.row + 1, neutralize(a_rows[m.row].id), m.status, m.tokens, *checked,
            "" if m.duplicate_of is None else m.duplicate_of + 1, *contained,
            _file_cell(b_files, file_row),
            *(definitions.cells(m.row) if definitions is not None else ()),
            *((matched_fields(a_rows[m.row], m),
               neutralize(contained_field(a_rows[m.row], m))) if by_field else ()),
            *(rephrase_cells(m, rephrased) if rephrased is not None else ()))))
    return "".join(lines)


def rephrase_cells(m: RowMatch, rephrased: Callable[[RowMatch], bool]) -> tuple[object, ...]:
    """The rephrase lens's three cells of a row::

        >>> rephrase_cells(RowMatch(0, CHECKABLE, 9, similar_b_row=4, similarity=0.61234),
        ...                lambda m: True)
        (5, '0.612', 'true')
        >>> rephrase_cells(RowMatch(0, CHECKABLE, 9), lambda m: False)
        ('', '', 'false')
    """
    if m.similar_b_row is None or m.similarity is None:
        return "", "", "false"
    return m.similar_b_row + 1, f"{m.similarity:.3f}", "true" if rephrased(m) else "false"


def matched_fields(row: Row, m: RowMatch) -> str:
    """The fields of a row holding a matched token, ``|``-separated (``""``: none)::

        >>> row = Row(1, "1", "p\\nq", (("passage", 0, 1), ("question", 2, 3)))
        >>> matched_fields(row, RowMatch(0, CHECKABLE, 2, 1, 2, field_dirty=(1, 1)))
        'passage|question'
    """
    if m.field_dirty is None:
        if m.dirty and len(row.parts) == 1:
            return neutralize(row.parts[0][0])
        return ""
    return neutralize("|".join(name for (name, _, _), d in zip(row.parts, m.field_dirty) if d))


def _file_cell(b_files: RowFiles | None, b_row: int | None) -> str:
    if b_files is None or b_row is None:
        return ""
    return neutralize(b_files.name_of(b_row))
