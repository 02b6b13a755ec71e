r"""The contamination report after a check: definitions, score impact, the clean split.

Contract: every function takes a finished check (:class:`~ngram_core.report.result.Report`)
and plain values (A's table and bytes, a :class:`ScoreSource`), and returns
data; nothing here reads a path or writes a file. The command and the page
both compose their report from these, so the same two files give the same
figures and the same split bytes in both:

* :func:`definitions_steps_for` - the five published definitions, computed once
  and kept on the result (a Dask result carries them already);
* :func:`score_column` and :func:`score_report` - per-row scores from a field
  of A or a results file, and the JSON summary's ``scores``;
* :func:`clean_split` - A without the rows ``clean_by`` calls contaminated.

The published definitions are needed when asked for, and whenever scores or
a split by a definition are::

    >>> needs_definitions(False, ScoreSource(), "main")
    False
    >>> needs_definitions(False, ScoreSource(field="acc"), "main")
    True
    >>> needs_definitions(False, ScoreSource(), "gpt3")
    True
"""

from __future__ import annotations

from typing import NamedTuple

from .clean_split import Split, rows_to_drop, split_file_steps
from .definitions import DESCRIPTIONS, UNITS, Definitions, definitions_steps, reusable_tokens
from ..errors import InputError
from ..read.fields import detect_id_field
from .result import Report
from .scores import ScoreColumn, main_groups, score_impact, scores_from_field, scores_from_results
from ..steps import run_steps
from ..table import Table


class ScoreSource(NamedTuple):
    """Where each A row's score comes from: ``field`` of A itself, or the
    ``results`` table joined to A by ``results_key`` (None: the field named
    like an id) holding ``results_field``. Neither: no scores."""
    field: str | None = None
    results: Table | None = None
    results_field: str | None = None
    results_key: str | None = None

    @property
    def wanted(self) -> bool:
        return bool(self.field) or self.results is not None


def needs_definitions(asked: bool, scores: ScoreSource | bool, clean_by: str) -> bool:
    """The definitions are computed when asked for, for scores (every definition
    has a row in the score figures; ``scores``: a source, or whether there will
    be one) and for a split by a definition."""
    wanted = scores.wanted if isinstance(scores, ScoreSource) else scores
    return asked or wanted or clean_by != "main"


def definitions_steps_for(result: Report):
    """Steps that make sure ``result.definitions`` is computed; returns it.

    A single-machine check reuses its own tokens when its tokenizer is the
    definitions' one; a Dask result already carries its definitions.
    """
    if result.definitions is None:
        b_rows = getattr(result, "b_rows", None)
        if b_rows is None:
            raise ValueError("this result has no B rows to compute the definitions on")
        result.definitions = yield from definitions_steps(result.a_rows, b_rows,
                                                          reusable_tokens(result))
    return result.definitions


#: The columns of :func:`definitions_table`.
DEFINITIONS_HEADER = ("Definition", "Counts", "Parameters", "Considered rows", "Dirty rows",
                      "Dirty share")


def definitions_table(definitions: Definitions) -> list[tuple[str, ...]]:
    """The "Published definitions" table's rows (under :data:`DEFINITIONS_HEADER`),
    one per definition; llama2's dirty cell also gives its other subsets. The
    share is rounded here only, for reading ("–" where no row is considered)::

        >>> from ngram_core.report.definitions import compute_definitions
        >>> from ngram_core.table import Row
        >>> words = "w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12"
        >>> d = compute_definitions([Row(1, "a", words), Row(2, "b", "w1")],
        ...                         [Row(1, "x", words)])
        >>> definitions_table(d)[1]
        ('PaLM (palm)', '8-window positions', 'n = 8, min_tokens = 8, dirty_at_percent = 70', '1', '1', '100.0%')
        >>> definitions_table(d)[2][4]
        '1 (not clean 1, clean 1, not dirty 1)'
    """
    lines: list[tuple[str, ...]] = []
    for d in definitions:
        figures = d.as_dict()
        considered, dirty = figures["considered"], figures["dirty"]
        dirty_cell = f"{dirty:,}"
        if d.name == "llama2":
            dirty_cell += (f" (not clean {figures['not_clean']:,}, clean {figures['clean']:,}, "
                           f"not dirty {figures['not_dirty']:,})")
        parameters = ", ".join(f"{key} = {value}" for key, value in d.parameters.items())
        share = f"{100 * dirty / considered:.1f}%" if considered else "\u2013"
        lines.append((f"{DESCRIPTIONS[d.name].title} ({d.name})", UNITS[d.name], parameters,
                      f"{considered:,}", dirty_cell, share))
    return lines


def a_has_id(a_table: Table, id_field: str | None) -> bool:
    """A's rows carry ids (so results join by id, not by 0-based row index):
    an id field was named, or none was named ('' means none) and one is detected."""
    if id_field == "":
        return False
    return id_field is not None or detect_id_field(a_table) is not None


def score_column(result: Report, a_table: Table, id_field: str | None,
                 source: ScoreSource) -> ScoreColumn:
    """One score per A row from ``source``; raises InputError naming the file
    when a field is missing. ``id_field``: A's id field as the user chose it."""
    if source.field:
        return scores_from_field(a_table, source.field)
    if source.results is None:
        raise ValueError("no score source")
    if not source.results_field:
        raise InputError(source.results.source,
                         "needs a score field: the field holding each row's score")
    return scores_from_results(result.a_rows, a_has_id(a_table, id_field), source.results,
                               source.results_field, source.results_key)


def score_report(result: Report, column: ScoreColumn) -> dict:
    """The JSON summary's ``scores`` for this result (with every definition's
    figures when the definitions were computed)."""
    return score_impact(column.scores, main_groups(result.matches, result.settings.threshold),
                        result.definitions)


def drop_rows(result: Report, clean_by: str) -> set[int]:
    """The 0-based A rows ``clean_by`` calls contaminated (see
    :func:`~ngram_core.report.clean_split.rows_to_drop`)."""
    return rows_to_drop(clean_by, result.matches, result.settings.threshold, result.definitions)


def clean_split_steps(result: Report, clean_by: str, a_bytes: bytes, a_table: Table):
    """Steps that write A's clean and contaminated files; returns a :class:`Split`."""
    return (yield from split_file_steps(a_bytes, a_table, drop_rows(result, clean_by)))


def clean_split(result: Report, clean_by: str, a_bytes: bytes, a_table: Table) -> Split:
    """:func:`clean_split_steps` run to the end."""
    return run_steps(clean_split_steps(result, clean_by, a_bytes, a_table))


__all__ = ["DEFINITIONS_HEADER", "Definitions", "ScoreSource", "Split", "a_has_id",
           "clean_split", "clean_split_steps", "definitions_steps_for", "definitions_table",
           "drop_rows", "needs_definitions", "score_column", "score_report"]
