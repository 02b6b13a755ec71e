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

from dataclasses import dataclass, field

from .definitions import Definitions
from .export import csv_text, rows_csv_text
from ..table import RowFiles
from ..method.match import RowMatch
from ..table import Row
from .summary import Summary, rephrase_rule, worst_first
from ..method.settings import Settings
from ..method.tokenize import Tokenizer


@dataclass
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
