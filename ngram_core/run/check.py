"""The whole check, stage by stage, as steps a caller can pause between.

``check_steps`` is a generator: each ``yield`` is a :class:`Progress` (stage,
done, total) and its return value is the :class:`CheckResult`. The page runs
it a step at a time so the tab stays responsive and can be cancelled (stop
iterating); :func:`run_check` runs it to the end for the command line.

    >>> from ngram_core.table import Row
    >>> a = [Row(1, "a1", "one two three four five six")]
    >>> b = [Row(1, "b1", "zero one two three four five six seven")]
    >>> result = run_check(a, b, Settings(n=5))
    >>> result.summary.flagged, result.matches[0].span, result.matches[0].b_row
    (1, 6, 0)
"""

from __future__ import annotations

import sys
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from ..method.index import MOST_REPEATED_KEPT, WindowIndex, build_index_steps, shared_with_steps
from ..method.match import (RowMatch, add_char_offsets_steps, contained_rows, contained_steps, highlight,
                    highlight_steps, match_rows_steps, set_contained, short_pieces)
from ..table import RowFiles
from ..table import Row
from ..report.summary import summarize
from ..report.result import Report
from ..method.settings import Settings
from ..method.similar import SimilarIndex, set_similar
from ..method.template import NO_TEMPLATE, Template, find_template_steps, left_out
from ..steps import relabel, run_steps, stage_fraction
from ..method.tokenize import Tokenizer, TokenizedRows, tokenize_rows_steps

R = TypeVar("R")


@dataclass
class Progress:
    """One step's report: ``stage`` is one of STAGES; done and total in its own units."""
    stage: str
    done: int
    total: int

    @property
    def fraction(self) -> float:
        """Overall progress from 0 to 1, weighting the stages by typical cost."""
        return stage_fraction(_STAGE_SPAN, self.stage, self.done, self.total)


#: The single-machine stages, in order, and the Dask engine's one stage.
STAGES = ("tokenize A", "tokenize B", "index B", "rephrase", "match A", "short rows",
          "offsets", "stream B")
_STAGE_SPAN = {"tokenize A": (0.0, 0.15), "tokenize B": (0.15, 0.15), "index B": (0.3, 0.25),
               "rephrase": (0.55, 0.15), "match A": (0.7, 0.15), "short rows": (0.85, 0.05),
               "offsets": (0.9, 0.1), "stream B": (0.0, 1.0)}


@dataclass(repr=False)
class CheckResult(Report):
    """Everything a single-machine check found, and what the page needs to draw it:
    B's rows, both files' tokens and B's index, for the highlights."""
    b_rows: list[Row]
    a: TokenizedRows
    b: TokenizedRows
    index: WindowIndex
    #: The windows the frequency filter ignored that A holds, most B rows first
    #: (at most MOST_REPEATED_KEPT): (B rows, window key).
    most_repeated: list[tuple[int, bytes]]
    #: A's template, left out of matching (see :mod:`~ngram_core.method.template`).
    template: Template = NO_TEMPLATE

    def b_id(self, b_row: int) -> str:
        return self.b_rows[b_row].id

    def highlight(self, match: RowMatch):
        """``(a_ranges, b_ranges)``: character ranges to mark in the row and its best B row."""
        return highlight(self.a, self.b, self.index, match, self.tokenizer,
                         self.template.masked)

    def highlight_steps(self, match: RowMatch):
        """:meth:`highlight` as steps (the page draws a 2 MB row without freezing)."""
        return highlight_steps(self.a, self.b, self.index, match, self.tokenizer,
                               self.template.masked)


class CheckCache:
    """What a check keeps for the next one, so a change redoes only what it touches.

    Pass the same cache to successive :func:`check_steps` calls (the page does):
    the same row lists (by identity) are not tokenized again, the same B and n
    do not rebuild the index, and a change of threshold alone reuses every
    match. Tokens from both files share the cached tokenizer's vocabulary.
    """

    def __init__(self) -> None:
        self.rules: tuple | None = None        # (mode, layers, backend) the tokenizer applies
        self.tokenizer: Tokenizer | None = None
        self.a_rows: Sequence[Row] | None = None
        self.a: TokenizedRows | None = None
        self.b_rows: Sequence[Row] | None = None
        self.b: TokenizedRows | None = None
        self.index: WindowIndex | None = None
        self.matches: list[RowMatch] | None = None
        self.short_min: int | None = None        # what the matches' contained rows used
        self.shared: set | None = None           # B's capped and ignored windows A holds
        self.template: Template = NO_TEMPLATE
        self.template_rule: tuple | None = None  # (n, keep_template) the template used
        #: the rephrase lens's best B rows, for these A and B rows and passages left out
        #: (None: not run)
        self.similar: dict[int, tuple[float, int]] | None = None
        self.similar_rows: tuple[Sequence[Row], Sequence[Row], tuple[str, ...]] | None = None

    def tokenizer_for(self, settings: Settings) -> Tokenizer:
        rules = (settings.mode, settings.layers, settings.backend)
        if rules != self.rules or self.tokenizer is None:
            self.__init__()  # type: ignore[misc]   # new rules: nothing cached still holds
            self.rules, self.tokenizer = rules, settings.tokenizer()
        return self.tokenizer


def _stage(stage: str, total: int, steps: Generator[int, None, R]) -> Generator[Progress, None, R]:
    """A stage's raw progress numbers re-yielded as Progress."""
    return relabel(steps, lambda done: Progress(stage, done, total))


def check_steps(a_rows: list[Row], b_rows: list[Row], settings: Settings = Settings(),
                cache: CheckCache | None = None, b_files: RowFiles | None = None,
                fields: tuple[Sequence[str], Sequence[str]] = ((), ())
                ) -> Generator[Progress, None, CheckResult]:
    """Check A rows against B rows; yields Progress, returns a CheckResult.

    ``b_files`` says which file each B row came from, when B is several files;
    ``fields``: the text fields read from A and from B, for the summary to name
    (and to give A's figures per field)."""
    cache = cache if cache is not None else CheckCache()
    tokenizer = cache.tokenizer_for(settings)
    if cache.a_rows is not a_rows or cache.a is None:
        a_chars = sum(len(r.text) for r in a_rows)
        yield Progress("tokenize A", 0, a_chars)
        cache.a = yield from _stage("tokenize A", a_chars,
                                    tokenize_rows_steps(a_rows, tokenizer, by_part=True))
        cache.a_rows, cache.matches = a_rows, None
    if cache.b_rows is not b_rows or cache.b is None:
        b_chars = sum(len(r.text) for r in b_rows)
        cache.b = yield from _stage("tokenize B", b_chars, tokenize_rows_steps(b_rows, tokenizer))
        cache.b_rows, cache.index = b_rows, None
    a, b = cache.a, cache.b
    index = cache.index
    if index is None or (index.n, index.cap, index.max_b_rows) != settings.index_rules:
        index = cache.index = yield from _stage(
            "index B", len(b.ids), build_index_steps(b, *settings.index_rules))
        cache.matches = None
    if settings.rephrase and (cache.similar is None or cache.similar_rows is None or
                              cache.similar_rows[0] is not a_rows or
                              cache.similar_rows[1] is not b_rows or
                              cache.similar_rows[2] != settings.leave_out):
        cache.similar = yield from _stage("rephrase", len(b_rows),
                                          similar_steps(a_rows, b_rows, settings.leave_out))
        cache.similar_rows = (a_rows, b_rows, settings.leave_out)
    template_rule = (settings.n, settings.keep_template, settings.leave_out)
    if cache.matches is None or cache.short_min != settings.short_min or \
            cache.template_rule != template_rule:
        template = NO_TEMPLATE
        if not settings.keep_template:
            template = yield from _stage("match A", len(a.ids),
                                         find_template_steps(a, settings.n, tokenizer))
        template = left_out(template, a, settings.n, tokenizer, settings.leave_out)
        cache.template, cache.template_rule = template, template_rule
        matches = yield from _stage("match A", len(a.ids),
                                    match_rows_steps(a, b, index, template.masked))
        pieces = short_pieces(a, settings.n, settings.short_min)
        contained = yield from _stage("short rows", len(b.ids),
                                      contained_steps(a, b, pieces, settings.short_min))
        for a_row, piece in contained_rows(contained, pieces).items():
            set_contained(matches[a_row], pieces[piece], *contained[piece])
        yield from _stage("offsets", len(matches),
                          add_char_offsets_steps(matches, a, b, tokenizer))
        keys = index.over | {key for _, key in index.ignored}
        cache.shared = yield from _stage("offsets", len(matches),
                                         shared_with_steps(keys, a, settings.n))
        cache.matches, cache.short_min = matches, settings.short_min
    matches, shared = cache.matches, cache.shared or set()
    set_similar(matches, cache.similar if settings.rephrase else None)
    yield Progress("offsets", len(matches), len(matches))
    ignored = [(rows, key) for rows, key in index.ignored if key in shared]
    summary = summarize(matches, settings, tokenizer, b_rows=len(b_rows),
                        windows_capped=len(index.over & shared), windows_ignored=len(ignored),
                        a_rows=a_rows, part_ends=a.part_ends, a_fields=fields[0],
                        b_fields=fields[1], template=cache.template)
    return CheckResult(settings, a_rows, tokenizer, matches, summary,
                       b_rows=b_rows, a=a, b=b, index=index,
                       most_repeated=ignored[:MOST_REPEATED_KEPT], template=cache.template,
                       b_files=b_files)


def similar_steps(a_rows: Sequence[Row], b_rows: Sequence[Row],
                  leave_out: Sequence[str] = (), every: int = 256
                  ) -> Generator[int, None, dict[int, tuple[float, int]]]:
    """The rephrase lens over B's rows in memory, ``every`` rows a step (yields the
    B rows done, after A's rows are read): A row -> (similarity, B row), every row
    read without the passages ``leave_out`` (:func:`~ngram_core.method.similar.without_passages`).
    Where numpy and pyarrow are installed, A's terms and B's candidates are found
    many rows at once (:mod:`~ngram_core.method.similar_arrow`: the same index, the
    same rows), 16 times ``every`` B rows a step."""
    a_texts = [row.text for row in a_rows]
    candidates_of = None
    if _by_batch(a_rows, b_rows):
        # imported here: the tab's start (its snapshot) leaves the batch modules out
        from ..method import similar_arrow
        index = yield from relabel(similar_arrow.index_steps(a_texts, leave_out), lambda _: 0)
        if similar_arrow.AVAILABLE:
            candidates_of = similar_arrow.candidates_of
            every *= 16
    else:
        index = yield from relabel(SimilarIndex.of_steps(a_texts, leave_out), lambda _: 0)
    best: dict[int, tuple[float, int]] = {}
    for first in range(0, len(b_rows), every):
        texts = [row.text for row in b_rows[first:first + every]]
        index.fold(texts, first, best, candidates_of(index, texts) if candidates_of else None)
        yield min(first + every, len(b_rows))
    return best


#: Characters of A and B together from which the lens reads rows by batch in memory
#: even where numpy and pyarrow are not loaded yet: loading them (about 0.25 s) costs
#: more than the batch saves on fewer (a 2 MB x 2 MB check).
LENS_BATCH_CHARS = 8 * 2**20


def _by_batch(a_rows: Sequence[Row], b_rows: Sequence[Row]) -> bool:
    """Whether the lens should read the rows by batch (numpy and pyarrow, where
    installed: the same index and rows, faster): where they are loaded already (a
    notebook's pandas), or the rows are many (:data:`LENS_BATCH_CHARS`)."""
    if "numpy" in sys.modules and "pyarrow" in sys.modules:
        return True
    chars = 0
    for row in (*a_rows, *b_rows):
        chars += len(row.text)
        if chars >= LENS_BATCH_CHARS:
            return True
    return False


def run_check(a_rows: list[Row], b_rows: list[Row], settings: Settings = Settings(),
              b_files: RowFiles | None = None,
              fields: tuple[Sequence[str], Sequence[str]] = ((), ())) -> CheckResult:
    """:func:`check_steps` run to the end."""
    return run_steps(check_steps(a_rows, b_rows, settings, b_files=b_files, fields=fields))
