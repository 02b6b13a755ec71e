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


class CheckCache:
    """What a check keeps for the next one, so a change redoes only what it touches.

    Pass the same cache to successive :func:`check_steps` calls (the page does):
    the same row lists (by identity) are not tokenized again, the same B and n
    do not rebuild the index, and a change of threshold alone reuses every
    match. Tokens from both files share the cached tokenizer's vocabulary.
    """

    def __init__(self):
        self.rules = None          # (mode, layers, backend) the tokenizer applies
        self.tokenizer = None
        self.a_rows = self.a = None
        self.b_rows = self.b = None
        self.index = None
        self.matches = None

    def tokenizer_for(self, settings: Settings) -> Tokenizer:
        rules = (settings.mode, settings.layers, settings.backend)
        if rules != self.rules:
            self.__init__()
            self.rules, self.tokenizer = rules, settings.tokenizer()
        return self.tokenizer


def check_steps(a_rows, b_rows, settings: Settings = Settings(), cache: CheckCache | None = None):
    """Check A rows against B rows; yields Progress, returns a CheckResult."""
    cache = cache if cache is not None else CheckCache()
    tokenizer = cache.tokenizer_for(settings)
    if cache.a_rows is not a_rows:
        a_chars = sum(len(r.text) for r in a_rows)
        yield Progress("tokenize A", 0, a_chars)
        cache.a = yield from _report("tokenize A", a_chars, tokenize_rows_steps(a_rows, tokenizer))
        cache.a_rows, cache.matches = a_rows, None
    if cache.b_rows is not b_rows:
        b_chars = sum(len(r.text) for r in b_rows)
        cache.b = yield from _report("tokenize B", b_chars, tokenize_rows_steps(b_rows, tokenizer))
        cache.b_rows, cache.index = b_rows, None
    a, b = cache.a, cache.b
    if cache.index is None or (cache.index.n, cache.index.cap) != (settings.n, settings.cap):
        cache.index = yield from _report("index B", len(b.ids),
                                         build_index_steps(b, settings.n, settings.cap))
        cache.matches = None
    index = cache.index
    if cache.matches is None:
        matches = yield from _report("match A", len(a.ids), match_rows_steps(a, b, index))
        yield from _report("offsets", len(matches),
                           add_char_offsets_steps(matches, a, b, tokenizer))
        cache.matches = matches
    matches = cache.matches
    ordered = worst_first(matches)
    yield Progress("offsets", len(matches), len(matches))
    summary = summarize(matches, b_rows=len(b_rows), n=settings.n, mode=settings.mode,
                        layers=tokenizer.label, threshold=settings.threshold,
                        windows_capped=index.capped, tokenizer=tokenizer.backend,
                        unicode_version=tokenizer.unicode_version)
    return CheckResult(settings, a_rows, b_rows, a, b, index, tokenizer,
                       matches, summary, ordered)


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
