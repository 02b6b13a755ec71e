"""What a run says about the files it read, after the result: each file's reading
line, the warnings (rows too short to match) and notes (text fields left out when
nothing matched), and the training rows left unread; the command writes them on
stderr, the library hands them over as ``Result.notes``. Said in sentences a person
reads; the figures are the summary's.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from ..read.fields import ShortCount, longer_fields, short_rows_warning, unchecked_text_notice
from ..read.files import FileRead, arrays_warning, describe_read, unread_warning
from .result import Report, b_file_counts


def run_notes(result: Report, reads: Sequence[tuple[str, FileRead]]) -> list[str]:
    """Every line the command writes on stderr about its files, in its order: each
    file's reading, the short rows' warnings, the text left out, the rows unread."""
    lines = [describe_read(role, read) for role, read in reads]
    lines += short_warnings(result, reads) + unchecked_text_notes(result, reads)
    return lines + closing_warnings([read for role, read in reads if role == "B"])


def closing_warnings(b_reads: Sequence[FileRead]) -> list[str]:
    """A run's last lines: the training rows unread, and those in arrays not read."""
    warning = unread_warning([(read.path, read.unread, read.unread_in) for read in b_reads])
    arrays = arrays_warning(b_reads)
    return ([warning] if warning else []) + (arrays.split("\n") if arrays else [])


def short_warnings(result: Report, reads: Sequence[tuple[str, FileRead]]) -> list[str]:
    """The files whose rows are mostly too short to match, counted over every row by
    the check (A's from its matches, each B file's by the walk past it)."""
    s = result.summary
    counts: list[tuple[str, FileRead, ShortCount]] = [
        ("A", reads[0][1], ShortCount(s.rows, s.blank, s.short, s.n))]
    b_reads = [read for role, read in reads if role == "B"]
    counts += [("B", read, count) for read, count in b_file_counts(result, b_reads)]
    out = []
    for role, read, count in counts:
        longer = longer_fields(list(read.stats), s.n, read.text_fields)
        warning = short_rows_warning(count, read.text_fields, longer)
        side = role.lower()
        if warning and longer:
            warning += f" Read one with --{side}-field {shlex.quote(longer[0].name)}."
        if warning and read.text_rows == "line":
            warning += (f" A text file of documents separated by blank lines reads one row per "
                        f"document with --{side}-text-rows paragraph.")
        if warning:
            out.append(f"Warning: {role} {read.path}: {warning}")
    return out


def unchecked_text_notes(result: Report, reads: Sequence[tuple[str, FileRead]]) -> list[str]:
    """When nothing was flagged, the text fields the check left out, with the flag
    that checks them: for A, and for the first B file holding any (with how many
    other B files do too: B may be hundreds of shards)."""
    if result.summary.flagged:
        return []
    notes = []
    for role in ("A", "B"):
        holding = [read for r, read in reads if r == role and read.other_text]
        if not holding:
            continue
        read = holding[0]
        name = read.other_text[0].name
        notice = unchecked_text_notice(role, read.text_fields, list(read.other_text))
        more = (f" {len(holding) - 1} more B file{'s' if len(holding) > 2 else ''} "
                "hold other text too." if len(holding) > 1 else "")
        notes.append(f"Note: {read.path}: {notice} Check {name} with "
                     f"--{role.lower()}-field {shlex.quote(name)}.{more}")
    return notes


