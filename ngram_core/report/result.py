"""What every engine hands back: :class:`Report`, and the files written from it.

The single-machine check (:class:`~ngram_core.run.check.CheckResult`) and the
streamed check, here or on Dask (:class:`~ngram_core.run.stream.StreamedResult`), both extend
it; the command prints and writes from a Report without knowing which engine
made it::

    >>> from ngram_core import Row, Settings, run_check
    >>> rows = [Row(1, "x", "one two three four five")]
    >>> run_check(rows, rows, Settings(n=5)).csv().splitlines()[1]
    '1,x,5,5,1.0,true,5,1,1,x,0,23,0,23,1'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .definitions import Definitions
from .export import csv_text, rows_csv_text
from ..read.fields import ShortCount, count_files_steps
from ..steps import run_steps
from ..table import RowFiles
from ..method.match import RowMatch
from ..table import Row
from .summary import Summary, rephrase_rule, worst_first
from ..method.settings import Settings
from ..method.tokenize import Tokenizer

if TYPE_CHECKING:                 # the page's start reads no file from disk
    from ..read.files import FileRead


@dataclass(repr=False)
class Report:
    """The rows of A, one match per row, the summary, and where B's rows came from.

    ``ordered`` (the checkable rows, worst first) is derived from ``matches``.
    Each engine says how a B row number becomes its id (:meth:`b_id`).
    """
    settings: Settings
    a_rows: list[Row]
    tokenizer: Tokenizer
    matches: list[RowMatch]          # one per A row, in file order
    summary: Summary
    ordered: list[RowMatch] = field(init=False, repr=False)
    b_files: RowFiles | None = field(default=None, kw_only=True)
    #: The published definitions, when an engine computed them with the check.
    definitions: Definitions | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        self.ordered = worst_first(self.matches)

    def __repr__(self) -> str:
        """A line, not the rows (a notebook prints a value typed alone: a test set's
        and a training set's texts would be megabytes)."""
        s = self.summary
        return (f"<{type(self).__name__}: {s.flagged:,} of {s.checkable:,} checkable rows "
                f"flagged, {s.rows:,} rows of A, {s.b_rows:,} of B, n={s.n}>")

    def b_id(self, b_row: int) -> str:
        """The id of B row ``b_row`` (0-based, counted across all B files)."""
        raise NotImplementedError

    def csv(self) -> str:
        """The CSV of every checkable row (the same bytes from every engine)."""
        return csv_text(self.ordered, self.a_rows, self.b_id, self.settings.threshold,
                        self.b_files)

    def rows_csv(self) -> str:
        """The CSV of every A row in file order, blank and short rows included (with
        the published definitions computed, a column more for each)."""
        return rows_csv_text(self.matches, self.a_rows, self.b_id, self.settings.threshold,
                             self.b_files, self.definitions,
                             rephrase_rule(self.settings) if self.settings.rephrase else None)



def b_file_counts(result: Report, b_reads: Sequence[FileRead]
                  ) -> list[tuple[FileRead, ShortCount]]:
    """Each B file as read, with its rows' counts (blank and short), counted over
    every row by the check: from B's tokens when indexed whole, by the walk when
    streamed (``b_counts``)."""
    b = getattr(result, "b", None)           # B indexed whole: counted from its tokens
    if b is not None:
        starts = result.b_files.starts if result.b_files else (0,)
        b_counts = run_steps(count_files_steps(b.rows, b.offsets, starts, result.summary.n))
    else:                                    # B streamed: counted by the walk
        b_counts = getattr(result, "b_counts", [])
    return list(zip(b_reads, b_counts))


def training_accounts(result: Report, b_reads: Sequence[FileRead]) -> list[dict]:
    """Per training file: its rows = rows searched + rows with no text + rows unread
    (their text only in fields not read, named: ``unread_in``); ``--json``'s
    ``training_files``."""
    return [{"file": read.path, "rows": count.rows, "searched": count.rows - count.blank,
             "no_text": count.blank - read.unread, "unread": read.unread,
             "unread_in": list(read.unread_in)}
            for read, count in b_file_counts(result, b_reads)]
