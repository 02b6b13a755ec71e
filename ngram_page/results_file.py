"""The optional third slot: a file of model results, joined to file A to weigh the scores.

A results file is read by the same readers as A and B (JSONL, CSV, TSV, JSON,
text) within the same 2 MB bound; the person picks which of its fields holds
the score and which holds the key (by default the field named like an id,
``doc_id`` in lm-evaluation-harness's samples). Without a results file, the
score may come from a field of A itself. :func:`score_source` turns the
choices into the engine's :class:`~ngram_core.report.contamination.ScoreSource`.

:func:`score_view` computes the scores and what the page says before the
table: where they come from and how many rows of A the results matched; when
no row matched, or no row has a score, why, and what to choose instead (the
page then draws no table). An lm-evaluation-harness samples file (``doc_id``
with ``doc``, ``target``, ``arguments``, ``resps``, ``filtered_resps``) joins
by row number even when A has ids: its ``doc_id`` is A's 0-based row index::

    >>> lm_eval_samples(["doc_id", "doc.question", "target", "resps", "acc"])
    True
    >>> lm_eval_samples(["doc_id", "score"]), matched_count(["matched 1,234 of 2,000 rows of A"])
    (False, 1234)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from ngram_core import InputError
from ngram_core.report.contamination import ScoreSource, a_has_id, score_column
from ngram_core.read.fields import id_like_field
from ngram_core.read.readers import read_table_steps
from ngram_core.report.scores import ScoreColumn, join_key
from ngram_core.table import LM_EVAL_KEY, Table, lm_eval_samples, value_text

from .dom import el, fill_options, set_text
from .slots import LIST_FIELDS
from .text import human_size, shorten, too_big

#: Field names (the last part of a path, any case) taken for the score at first.
SCORE_NAMES = ("acc", "accuracy", "score", "correct", "is_correct", "exact_match", "em")
NO_FIELD = "(none)"


def guess_score_field(fields: list[str]) -> str:
    """The first field named like a score, top-level fields first (an
    lm-evaluation-harness sample's ``acc`` before a ``doc.correct`` of its
    document), or "" (the person picks one).

    >>> guess_score_field(["doc_id", "doc.correct", "acc"]), guess_score_field(["id", "text"])
    ('acc', '')
    """
    for nested in (False, True):
        for name in fields:
            if ("." in name) == nested and name.rsplit(".", 1)[-1].lower() in SCORE_NAMES:
                return name
    return ""


def score_source(a_field: str, results: Table | None, results_field: str,
                 results_key: str) -> ScoreSource:
    """What the score controls say: a results file when one is loaded (its score field
    chosen or not), else A's field; "" everywhere means not chosen.

    >>> score_source("acc", None, "", "")
    ScoreSource(field='acc', results=None, results_field=None, results_key=None)
    >>> score_source("", None, "", "").wanted
    False
    """
    if results is not None:
        return ScoreSource(results=results, results_field=results_field or None,
                           results_key=results_key or None)
    return ScoreSource(field=a_field or None)


def describe_source(source: ScoreSource) -> str:
    """``'field acc of file A'`` or ``'field acc of results.jsonl, joined by doc_id'``."""
    if source.results is None:
        return f"field {source.field} of file A"
    key = source.results_key or id_like_field(source.results) or "?"
    return f"field {source.results_field} of {source.results.source}, joined by {key}"


EXAMPLES = 3                  # values quoted in a sentence, at most


def matched_count(notes: Sequence[str]) -> int | None:
    """The rows of A a results file matched, from the engine's first note."""
    found = re.match(r"matched ([\d,]+) of ", notes[0]) if notes else None
    return int(found.group(1).replace(",", "")) if found else None


def quoted(values: Iterable, count: int = EXAMPLES) -> str:
    """The first ``count`` distinct values as text, each quoted and shortened::

        >>> quoted([0, 1, 1, None, "a very long key that goes on and on and on", 3])
        '“0”, “1”, “a very long key that goes on…”'
    """
    seen: list[str] = []
    for value in values:
        if value is None:
            continue
        text = value_text(value) if not isinstance(value, str) else value
        if text not in seen:
            seen.append(text)
            if len(seen) == count:
                break
    return ", ".join(f"\u201c{shorten(text, 32)}\u201d" for text in seen)


def sentence(note: str) -> str:
    return f"{note[0].upper()}{note[1:]}." if note else ""


def no_match_words(results: str, key: str, keys: str, by_row: bool, a_ids: str,
                   rows: int, lm_eval: bool = False) -> str:
    """Why no row of A matched a results file, and what to choose instead.

    ``keys``/``a_ids``: a few of the results' keys and of A's ids (quoted);
    ``by_row``: A's rows were joined by row number; ``rows``: A's rows;
    ``lm_eval``: the file is lm-evaluation-harness samples::

        >>> no_match_words("r.jsonl", "key", "", False, "", 4)[:62]
        'No row of file A matched: no row of r.jsonl has a value in its'
    """
    if not keys:
        return (f"No row of file A matched: no row of {results} has a value in its key field "
                f"{key}. Choose its key field: the field holding each row's id (doc_id in "
                f"lm-evaluation-harness samples).")
    if lm_eval:
        return (f"No row of file A matched: lm-evaluation-harness's doc_id counts the rows of "
                f"the split it evaluated from 0, and the doc_ids of {results} ({keys}) are not "
                f"row numbers of file A (0 to {max(rows - 1, 0):,}): they are another task's "
                f"or split's samples. Choose the samples file of the task and split that file "
                f"A holds, or, as file A, that split in the order lm-evaluation-harness read it.")
    if by_row:
        return (f"No row of file A matched: file A's rows are joined by their row number "
                f"(0 to {max(rows - 1, 0):,}), and the key field {key} of {results} holds "
                f"other values ({keys}). Choose the id field of file A that holds these keys, "
                f"or the key field of {results} that holds file A's row numbers.")
    return (f"No row of file A matched: file A's rows are joined by their id ({a_ids}), and "
            f"the key field {key} of {results} holds other values ({keys}). Choose the key "
            f"field of {results} that holds file A's ids, or the id field of file A that holds "
            f"its keys.")


def no_score_words(field: str, where: str, values: str, matched: int | None) -> str:
    """Why no row has a score (``values``: a few of the field's values, quoted)::

        >>> no_score_words("label", "file A", "“yes”, “no”", None)
        'No row of file A has a score in field label: its values (“yes”, “no”) are not numbers or true/false. Choose a score field that holds numbers or true/false.'
    """
    rows = ("No row of file A" if matched is None
            else f"None of the {matched:,} matched rows of file A")
    held = (f"its values ({values}) are not numbers or true/false" if values
            else "it is empty in every row")
    of = "" if where == "file A" else f" of {where}"
    return (f"{rows} has a score in field {field}{of}: {held}. Choose a score field that "
            f"holds numbers or true/false.")


class ScoreView(NamedTuple):
    """The scores of A's rows (None: none to weigh), what the page says before the
    table, and, when there is no table, why and what to choose instead."""
    column: ScoreColumn | None
    before: str
    empty: str = ""


def _column(result, a_table: Table, a_id_field: str | None,
            source: ScoreSource) -> tuple[ScoreColumn, bool]:
    """The engine's scores, and whether A's rows were joined by row number (an
    lm-evaluation-harness samples file always is: see
    :func:`ngram_core.report.scores.lm_eval_samples`)."""
    column = score_column(result, a_table, a_id_field, source)
    by_row = not a_has_id(a_table, a_id_field) or any(
        note.startswith("joined by row number") for note in column.notes)
    return column, by_row


def score_view(result, a_table: Table, a_id_field: str | None,
               source: ScoreSource) -> ScoreView:
    """The scores from ``source`` for the result shown, and the page's sentences about
    them; raises InputError (naming the file) when a field is missing."""
    column, by_row = _column(result, a_table, a_id_field, source)
    scored = sum(score is not None for score in column.scores)
    results = source.results
    if results is None:
        field = source.field or ""
        before = f"Scores from {describe_source(source)}."
        if not scored:
            values = quoted(record.get(field) for record in a_table.records)
            return ScoreView(None, before, no_score_words(field, "file A", values, None))
        return ScoreView(column, before)
    matched = matched_count(column.notes)
    if matched is None:
        said = [f"Scores from {describe_source(source)}.",
                *(sentence(note) for note in column.notes[:1])]
    else:
        said = [f"Scores from {describe_source(source)}: matched {matched:,} of "
                f"{len(result.a_rows):,} rows of file A."]
    said += [sentence(note) for note in column.notes[1:]]
    before = " ".join(said)
    key = source.results_key or id_like_field(results) or "?"
    if matched == 0:
        keys = quoted(join_key(record.get(key)) for record in results.records)
        a_ids = quoted(row.id for row in result.a_rows)
        lm_eval = by_row and key == LM_EVAL_KEY and lm_eval_samples(results.fields)
        return ScoreView(None, before, no_match_words(results.source, key, keys, by_row, a_ids,
                                                      len(result.a_rows), lm_eval))
    if not scored:
        field = source.results_field or ""
        values = quoted(record.get(field) for record in results.records)
        return ScoreView(None, before, no_score_words(field, results.source, values, matched))
    return ScoreView(column, before)


class ResultsFile:
    """The results slot (the table read, or None) and the score field lists."""

    def __init__(self):
        self.table: Table | None = None
        self.a_fields: list[str] | None = None   # A's fields offered for the score

    def fields(self) -> list[str]:
        return self.table.fields if self.table is not None else []

    def refuse(self, name: str, size: int, limit: int) -> None:
        set_text("r-error", too_big(name, size, limit))

    async def load(self, runner, name: str, data: bytes) -> bool:
        """Read a results file (False after saying why not: the slot keeps what it had)."""
        try:
            table = await runner.drive(read_table_steps(data, name))
        except InputError as e:
            set_text("r-error", f"{e}. Choose another file.")
            return False
        self.table = table
        set_text("r-error", "")
        set_text("r-name", f"{name}: {human_size(len(data))}, {len(table):,} rows")
        fields = table.fields[:LIST_FIELDS]
        fill_options(el("results-field"), fields, fields, [guess_score_field(fields)],
                     "(choose the score field)")
        detected = id_like_field(table)
        fill_options(el("results-key"), fields, fields, [""],
                     f"(detected: {detected})" if detected else "(choose the key field)")
        self.enable(True)
        return True

    def clear(self) -> None:
        self.table = None
        set_text("r-name", "")
        set_text("r-error", "")
        for select in ("results-field", "results-key"):
            el(select).replaceChildren()
        self.enable(False)

    def enable(self, on: bool) -> None:
        for control in ("results-field", "results-key", "results-clear"):
            el(control).disabled = not on
        el("score-field").disabled = on      # a results file's scores win over A's field

    def offer_a_fields(self, fields: list[str]) -> None:
        """Offer A's fields as the score field (at most LIST_FIELDS of them, as the
        slots list them), keeping the one chosen when A has it; the same fields
        again are left as they are."""
        if fields == self.a_fields:
            return
        self.a_fields = list(fields)
        select = el("score-field")
        chosen = str(select.value)
        listed = fields[:LIST_FIELDS]
        if chosen in fields and chosen not in listed:
            listed = [*listed, chosen]
        fill_options(select, listed, listed, [chosen if chosen in fields else ""], NO_FIELD)

    def source(self) -> ScoreSource:
        return score_source(str(el("score-field").value), self.table,
                            str(el("results-field").value), str(el("results-key").value))


