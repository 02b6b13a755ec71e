"""The optional third slot: a file of model results, joined to file A to weigh the scores.

A results file is read by the same readers as A and B (JSONL, CSV, TSV, JSON,
text) within the same 2 MB bound; the person picks which of its fields holds
the score and which holds the key (by default the field named like an id,
``doc_id`` in lm-evaluation-harness's samples). Without a results file, the
score may come from a field of A itself. :func:`score_source` turns the
choices into the engine's :class:`~ngram_core.contamination.ScoreSource`.
"""

from __future__ import annotations

from ngram_core import InputError
from ngram_core.contamination import ScoreSource
from ngram_core.fields import id_like_field
from ngram_core.readers import read_table_steps
from ngram_core.table import Table

from .dom import el, fill_options, set_text
from .slots import LIST_FIELDS
from .text import human_size, too_big

#: Field names (the last part of a path, any case) taken for the score at first.
SCORE_NAMES = ("acc", "accuracy", "score", "correct", "is_correct", "exact_match", "em")
NO_FIELD = "(none)"


def guess_score_field(fields: list[str]) -> str:
    """The first field named like a score, or "" (the person picks one).

    >>> guess_score_field(["doc_id", "resps", "acc"]), guess_score_field(["id", "text"])
    ('acc', '')
    """
    for name in fields:
        if name.rsplit(".", 1)[-1].lower() in SCORE_NAMES:
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


