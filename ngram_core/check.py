"""The whole check, stage by stage, as steps a caller can pause between.

``check_steps`` is a generator: each ``yield`` is a :class:`Progress` (stage,
done, total) and its return value is the :class:`CheckResult`. The page runs
it a step at a time so the tab stays responsive and can be cancelled (stop
iterating); :func:`run_check` runs it to the end for the command line.

    >>> from ngram_core.readers import Row
    >>> a = [Row(1, "a1", "one two three four five six")]
    >>> b = [Row(1, "b1", "zero one two three four five six seven")]
    >>> result = run_check(a, b, Settings(n=5))
    >>> result.summary.flagged, result.matches[0].span, result.matches[0].b_row
    (1, 6, 0)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import InputError
from .index import N_DEFAULT, N_MAX, N_MIN, POSITION_CAP, WindowIndex, build_index_steps
from .match import (RowMatch, add_char_offsets_steps, highlight, highlight_steps,
                    match_rows_steps)
from .report import Summary, csv_text, summarize, worst_first
from .tokenize import (DEFAULT_LAYERS, MODES, Tokenizer, TokenizedRows, parse_layers,
                       tokenize_rows_steps)
from .steps import run_steps


@dataclass(frozen=True)
class Settings:
    """What a check is computed at. Raises InputError when out of range."""
    n: int = N_DEFAULT
    mode: str = "loose"
    layers: tuple = DEFAULT_LAYERS
    threshold: float = 0.0
    cap: int = POSITION_CAP
    backend: str = "re"

    def __post_init__(self):
        if isinstance(self.n, bool) or not isinstance(self.n, int) or not N_MIN <= self.n <= N_MAX:
            raise InputError("n", f"must be a whole number from {N_MIN} to {N_MAX}, "
                                  f"not {self.n!r}")
        if self.mode not in MODES:
            raise InputError("mode", f"must be loose or strict, not {self.mode!r}")
        try:
            object.__setattr__(self, "layers", parse_layers(self.layers))
        except ValueError as e:
            raise InputError("layers", str(e)) from None
        try:
            threshold = float(self.threshold)
        except (TypeError, ValueError):
            threshold = float("nan")
        if not 0 <= threshold <= 100:
            raise InputError("threshold", f"must be a percentage from 0 to 100, "
                                          f"not {self.threshold!r}")
        object.__setattr__(self, "threshold", threshold)

    def tokenizer(self) -> Tokenizer:
        return Tokenizer(self.mode, self.layers, self.backend)


@dataclass
class Progress:
    """One step's report: ``stage`` is one of STAGES; done and total in its own units."""
    stage: str
    done: int
    total: int

    @property
    def fraction(self) -> float:
        """Overall progress from 0 to 1, weighting the stages by typical cost."""
        start, weight = _STAGE_SPAN[self.stage]
        part = self.done / self.total if self.total else 1.0
        return start + weight * min(part, 1.0)


STAGES = ("tokenize A", "tokenize B", "index B", "match A", "offsets")
_STAGE_SPAN = {"tokenize A": (0.0, 0.15), "tokenize B": (0.15, 0.2), "index B": (0.35, 0.3),
               "match A": (0.65, 0.3), "offsets": (0.95, 0.05)}


@dataclass
class CheckResult:
    """Everything a check found, and what the page needs to draw it."""
    settings: Settings
    a_rows: list
    b_rows: list
    a: TokenizedRows
    b: TokenizedRows
    index: WindowIndex
    tokenizer: Tokenizer
    matches: list[RowMatch]           # one per A row, file order
    summary: Summary
    ordered: list[RowMatch] = field(default_factory=list)   # checkable rows, worst first

    def b_id(self, b_row: int) -> str:
        return self.b_rows[b_row].id

    def csv(self) -> str:
        return csv_text(self.ordered, self.a_rows, self.b_id, self.settings.threshold)

    def highlight(self, match: RowMatch):
        """``(a_ranges, b_ranges)``: character ranges to mark in the row and its best B row."""
        return highlight(self.a, self.b, self.index, match, self.tokenizer)

    def highlight_steps(self, match: RowMatch):
        """:meth:`highlight` as steps (the page draws a 2 MB row without freezing)."""
        return highlight_steps(self.a, self.b, self.index, match, self.tokenizer)


def check_steps(a_rows, b_rows, settings: Settings = Settings()):
    """Check A rows against B rows; yields Progress, returns a CheckResult."""
    tokenizer = settings.tokenizer()
    a_chars = sum(len(r.text) for r in a_rows)
    b_chars = sum(len(r.text) for r in b_rows)
    yield Progress("tokenize A", 0, a_chars)
    a = yield from _report("tokenize A", a_chars, tokenize_rows_steps(a_rows, tokenizer))
    b = yield from _report("tokenize B", b_chars, tokenize_rows_steps(b_rows, tokenizer))
    b_windows = len(b.ids)
    index = yield from _report("index B", b_windows,
                               build_index_steps(b, settings.n, settings.cap))
    matches = yield from _report("match A", len(a.ids), match_rows_steps(a, b, index))
    yield from _report("offsets", len(matches),
                       add_char_offsets_steps(matches, a, b, tokenizer))
    ordered = worst_first(matches)
    yield Progress("offsets", len(matches), len(matches))
    summary = summarize(matches, b_rows=len(b_rows), n=settings.n, mode=settings.mode,
                        layers=tokenizer.label, threshold=settings.threshold,
                        windows_capped=index.capped, tokenizer=tokenizer.backend,
                        unicode_version=tokenizer.unicode_version)
    result = CheckResult(settings, list(a_rows), list(b_rows), a, b, index, tokenizer,
                         matches, summary, ordered)
    return result


def _report(stage: str, total: int, steps):
    """Re-yield a stage's raw progress numbers as Progress; pass its result through."""
    while True:
        try:
            done = next(steps)
        except StopIteration as stop:
            return stop.value
        yield Progress(stage, done, total)


def run_check(a_rows, b_rows, settings: Settings = Settings()) -> CheckResult:
    """:func:`check_steps` run to the end."""
    return run_steps(check_steps(a_rows, b_rows, settings))
