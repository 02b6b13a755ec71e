"""Stage 5: per-row matches -> the flagging rule, the summary, the worst-first order
and every sentence a person reads.

Everything a person reads is built here once, so the page and the command
print the same numbers. Percentages are rounded to one decimal only when
printed; the flagging rule compares exact ratios::

    >>> flag_rule(33.3333)(RowMatch(0, CHECKABLE, tokens=3, windows=1, dirty=1))
    True
    >>> percent(1 / 3)
    '33.3%'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field

from ..method.match import CHECKABLE, SHORT, RowMatch
from ..method.settings import Settings
from ..table import fields_label
from ..method.template import NO_TEMPLATE, Template
from ..method.tokenize import Tokenizer


def exact_ratio(value) -> tuple[int, int]:
    """A threshold's decimal value as an exact ratio, as the person typed it.

    ``33.3333`` -> ``(333333, 10000)``; ``1e-05`` -> ``(1, 100000)``. (Like
    ``Fraction(str(value))``, without importing fractions in the tab.)
    """
    mantissa, _, exponent = repr(float(value)).partition("e")
    whole, _, decimals = mantissa.partition(".")
    numerator, denominator = int(whole + decimals), 10 ** len(decimals)
    power = int(exponent or 0)
    if power >= 0:
        return numerator * 10 ** power, denominator
    return numerator, denominator * 10 ** -power


def flag_rule(threshold: float) -> Callable[[RowMatch], bool]:
    """The test for one row: checkable, at least one window, and dirty share x 100
    >= threshold, compared exactly (the threshold is parsed once, not per row)."""
    numerator, denominator = exact_ratio(threshold)

    def flagged(match: RowMatch) -> bool:
        return (match.status == CHECKABLE and match.windows >= 1
                and match.dirty * 100 * denominator >= numerator * match.tokens)

    return flagged



def rephrase_rule(settings: Settings) -> Callable[[RowMatch], bool]:
    """Whether a row is rephrased: its best similarity reaches the threshold
    (compared unrounded; never when the lens is off)."""
    threshold = settings.rephrase_threshold if settings.rephrase else math.inf

    def rephrased(match: RowMatch) -> bool:
        return match.similarity is not None and match.similarity >= threshold
    return rephrased


def worst_first(matches: Iterable[RowMatch]) -> list[RowMatch]:
    """Checkable rows by dirty share (desc), longest span (desc), then file order."""
    rows = [m for m in matches if m.status == CHECKABLE]
    return sorted(rows, key=lambda m: (-m.share, -m.span, m.row))


@dataclass
class FieldFigure:
    """One text field of A over the checkable rows: its tokens, its dirty tokens
    (each token of a row belongs to one field), the rows holding a token of it
    and the rows where it holds a matched token."""
    field: str
    tokens: int
    dirty_tokens: int
    rows: int
    rows_matched: int
    #: checkable rows where this field, shorter than n tokens, was found whole in a B row
    rows_contained: int = 0

    @property
    def dirty_share(self) -> float:
        return self.dirty_tokens / self.tokens if self.tokens else 0.0


def field_figures(matches: Sequence[RowMatch], a_rows: Sequence, part_ends: Mapping,
                  a_fields: Sequence[str]) -> list[FieldFigure]:
    """Each field's figures (see :class:`FieldFigure`), in the order the rows read.

    A row read from several fields has ``parts`` (its fields) and, in
    ``part_ends``, where each part's tokens end; its match's ``field_dirty``
    splits its dirty tokens the same way. A file read from one field has one
    figure, the summary's own. Two fields, the second matched in one row::

        >>> from ngram_core.table import Row
        >>> rows = [Row(1, "1", "p q\\nx y z", (("passage", 0, 3), ("question", 4, 9)))]
        >>> m = RowMatch(0, CHECKABLE, tokens=5, windows=1, dirty=3, field_dirty=(0, 3))
        >>> [(f.field, f.tokens, f.dirty_tokens, f.rows_matched)
        ...  for f in field_figures([m], rows, {0: (2, 5)}, ["passage", "question"])]
        [('passage', 2, 0, 0), ('question', 3, 3, 1)]
    """
    figures: dict[str, list[int]] = {}     # field -> [tokens, dirty, rows, matched, contained]
    single = a_fields[0] if len(a_fields) == 1 else None
    for m in matches:
        if m.status != CHECKABLE:
            continue
        parts = a_rows[m.row].parts
        if not parts:
            if single is None:
                continue                   # rows not read from named fields
            f = figures.setdefault(single, [0, 0, 0, 0, 0])
            f[0] += m.tokens
            f[1] += m.dirty
            f[2] += 1
            f[3] += m.dirty > 0
            continue
        begin = 0
        dirty = m.field_dirty or (0,) * len(parts)
        for i, ((name, _, _), end, d) in enumerate(zip(parts, part_ends[m.row], dirty)):
            f = figures.setdefault(name, [0, 0, 0, 0, 0])
            f[0] += end - begin
            f[1] += d
            f[2] += end > begin
            f[3] += d > 0
            f[4] += m.contained_part == i and m.contained_in is not None
            begin = end
    order = {name: i for i, name in enumerate(a_fields)}
    names = sorted(figures, key=lambda name: order.get(name, len(order)))
    return [FieldFigure(name, *figures[name]) for name in names]


@dataclass
class Summary:
    """The run's counts. Shares are over checkable rows only. ``a_fields`` and
    ``b_fields``: the text fields read from each file; ``fields``: A's figures
    per text field (:func:`field_figures`)."""
    rows: int
    checkable: int
    flagged: int
    short: int
    blank: int
    duplicates: int
    duplicates_short: int
    tokens: int
    dirty_tokens: int
    windows_capped: int
    b_rows: int
    n: int
    mode: str
    layers: str
    threshold: float
    tokenizer: str
    unicode_version: str
    contained: int = 0
    windows_ignored: int = 0
    #: of the ``contained`` rows, the checkable ones (a field of theirs was found
    #: whole), and of those, the ones not flagged (no shared window)
    contained_checkable: int = 0
    contained_unflagged: int = 0
    #: of the ``contained`` rows, those found by one of their fields, not whole
    contained_fields: int = 0
    #: A's template, left out of matching (:mod:`~ngram_core.method.template`): its distinct
    #: windows, the rows holding one, and a sentence per passage
    template_windows: int = 0
    template_rows: int = 0
    template: list[str] = field(default_factory=list)
    #: the passages left out of matching as asked (``--leave-out``), and the A rows
    #: holding one
    left_out: list[str] = field(default_factory=list)
    left_out_rows: int = 0
    short_min: int = 0
    max_b_rows: int | None = None
    a_fields: list[str] = field(default_factory=list)
    b_fields: list[str] = field(default_factory=list)
    fields: list[FieldFigure] = field(default_factory=list)
    #: The rephrase lens (:mod:`~ngram_core.method.similar`): the rows whose best
    #: similarity reaches ``rephrase_threshold`` (None: the lens did not run), and
    #: of those, the ones the n-gram test names in no way: not flagged, not a
    #: duplicate, not contained
    rephrased: int = 0
    rephrased_unflagged: int = 0
    rephrase_threshold: float | None = None

    @property
    def flagged_share(self) -> float:
        return self.flagged / self.checkable if self.checkable else 0.0

    @property
    def dirty_share(self) -> float:
        return self.dirty_tokens / self.tokens if self.tokens else 0.0

    def as_dict(self) -> dict:
        out = asdict(self)
        out["flagged_share"] = self.flagged_share
        out["dirty_share"] = self.dirty_share
        for figure, entry in zip(self.fields, out["fields"]):
            entry["dirty_share"] = figure.dirty_share
        return out


def summarize(matches: Sequence[RowMatch], settings: Settings, tokenizer: Tokenizer, *,
              b_rows: int, windows_capped: int, windows_ignored: int = 0,
              a_rows: Sequence = (), part_ends: Mapping | None = None,
              a_fields: Sequence[str] = (), b_fields: Sequence[str] = (),
              template: Template = NO_TEMPLATE) -> Summary:
    """Count the rows (one pass: it runs on 200,000-row files in the page); with
    ``a_rows`` (and their tokens' ``part_ends``), A's figures per field."""
    checkable = flagged = short = blank = duplicates = duplicates_short = tokens = dirty = 0
    contained = contained_checkable = contained_unflagged = contained_fields = 0
    rephrased = rephrased_unflagged = 0
    is_flagged_row = flag_rule(settings.threshold)
    is_rephrased = rephrase_rule(settings)
    for m in matches:
        if is_rephrased(m):
            rephrased += 1
            rephrased_unflagged += not (m.status == CHECKABLE and is_flagged_row(m)) and \
                m.duplicate_of is None and m.contained_in is None
        status = m.status
        found_whole = m.contained_in is not None
        if status == CHECKABLE:
            checkable += 1
            tokens += m.tokens
            dirty += m.dirty
            is_flagged = is_flagged_row(m)
            flagged += is_flagged
            contained_checkable += found_whole
            contained_unflagged += found_whole and not is_flagged
        elif status == SHORT:
            short += 1
        else:
            blank += 1
        contained += found_whole
        contained_fields += found_whole and m.contained_part is not None
        if m.duplicate_of is not None:
            duplicates += 1
            duplicates_short += status == SHORT
    return Summary(
        rows=len(matches), checkable=checkable, flagged=flagged, short=short, blank=blank,
        duplicates=duplicates, duplicates_short=duplicates_short, tokens=tokens,
        dirty_tokens=dirty, windows_capped=windows_capped, b_rows=b_rows, n=settings.n,
        mode=settings.mode, layers=tokenizer.label, threshold=settings.threshold,
        tokenizer=tokenizer.backend, unicode_version=tokenizer.unicode_version,
        contained=contained, windows_ignored=windows_ignored,
        contained_checkable=contained_checkable, contained_unflagged=contained_unflagged,
        contained_fields=contained_fields,
        short_min=settings.short_min,
        max_b_rows=settings.max_b_rows, a_fields=list(a_fields), b_fields=list(b_fields),
        template_windows=len(template.windows), template_rows=template.rows,
        template=[p.describe(fields_label(a_fields) or "text", template.rows_with_text)
                  for p in template.passages],
        left_out=list(settings.leave_out), left_out_rows=template.left_out_rows,
        fields=field_figures(matches, a_rows, part_ends or {}, a_fields) if a_rows else [],
        rephrased=rephrased, rephrased_unflagged=rephrased_unflagged,
        rephrase_threshold=settings.rephrase_threshold if settings.rephrase else None)


def percent(share: float) -> str:
    """``0.6666`` -> ``"66.7%"``: one decimal, at print time only."""
    return f"{share * 100:.1f}%"


def number(value) -> str:
    """A threshold as typed, every digit kept: ``0.0`` -> ``"0"``, ``12.5`` -> ``"12.5"``,
    ``33.33334`` -> ``"33.33334"``."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def _rows(count: int) -> str:
    return f"{count:,} row" if count == 1 else f"{count:,} rows"


def headline(s: Summary) -> str:
    """The sentence under the big figure, as the product description words it."""
    one = s.checkable == 1
    rows = "row" if one else "rows"
    if s.threshold:
        first = (f"{s.flagged:,} of {s.checkable:,} checkable {rows} {'has' if one else 'have'} "
                 f"at least {number(s.threshold)} percent of {'its' if one else 'their'} "
                 f"tokens in {s.n}-token sequences shared with the other file")
    else:
        first = (f"{s.flagged:,} of {s.checkable:,} checkable {rows} {'shares' if one else 'share'} "
                 f"at least one {s.n}-token sequence with the other file")
    first += f", at n = {s.n} and a {number(s.threshold)} percent threshold."
    short = f"{_rows(s.short)} {'is' if s.short == 1 else 'are'} shorter than {s.n} tokens"
    blank = f"{s.blank:,} {'is' if s.blank == 1 else 'are'} blank"
    sentence = f"{first} {short} and {blank}, so they sit outside every denominator."
    contained_short = s.contained - s.contained_checkable
    by_field = s.contained_fields - s.contained_checkable       # a checkable row: by a field
    if contained_short:
        sentence += (f" {contained_short} of the short rows "
                     f"{'is' if contained_short == 1 else 'are'} "
                     f"contained whole in a row of the other file")
        if by_field == contained_short:
            sentence += f" (by one of {'its' if by_field == 1 else 'their'} fields)"
        elif by_field:
            sentence += f" ({by_field:,} of them by one of their fields)"
        sentence += "."
    if s.contained_checkable:
        one = s.contained_checkable == 1
        sentence += (f" {_rows(s.contained_checkable)} {'has' if one else 'have'} a field "
                     f"shorter than {s.n} tokens found whole in a row of the other file")
        if s.contained_unflagged:
            sentence += f" ({s.contained_unflagged:,} of them not flagged)"
        sentence += "."
    return sentence + rephrased_sentence(s)


def rephrased_sentence(s: Summary) -> str:
    """The rows the rephrase lens marks that are not flagged, in a sentence (or ``""``)::

        >>> s = Summary(*[0] * 11, 13, "loose", "L1", 0.0, "re", "15", rephrased=3,
        ...             rephrased_unflagged=2, rephrase_threshold=0.6)
        >>> rephrased_sentence(s)
        ' 2 more rows look rephrased from rows of the other file (similarity 0.6 or more): they share no 13-token sequence; review them.'
    """
    more = s.rephrased_unflagged
    if not more or s.rephrase_threshold is None:
        return ""
    one = more == 1
    why = (f"{'it shares' if one else 'they share'} no {s.n}-token sequence" if not s.threshold
           else f"{'it is' if one else 'they are'} not flagged")
    return (f" {more:,} more {'row looks' if one else 'rows look'} rephrased from rows of the "
            f"other file (similarity {number(s.rephrase_threshold)} or more): {why}; "
            f"review {'it' if one else 'them'}.")


def settings_line(a_name: str, b_name: str, s: Summary, description: str) -> str:
    """``"a.json checked against b.json at n = 13 with a 0 percent threshold. ..."``,
    then the fields read (:func:`fields_read`) and A's template left out, if any."""
    line = (f"{a_name} checked against {b_name} at n = {s.n} with a {number(s.threshold)} "
            f"percent threshold. {description}")
    read = fields_read(s)
    line = f"{line} {read}" if read else line
    if s.template:
        line += " Of A, " + "; ".join(s.template) + "."
    if s.left_out:
        count = len(s.left_out)
        line += (f" Left out as asked: {count:,} {'passage' if count == 1 else 'passages'}, "
                 f"found in {s.left_out_rows:,} {'row' if s.left_out_rows == 1 else 'rows'} "
                 f"of A.")
    return line


def brief(s: Summary) -> str:
    """The figure's sentence in a few words, for the page's result bar::

        >>> s = Summary(4, 3, 2, 1, 0, 0, 0, 80, 25, 0, 3, 13, "loose", "L1", 0.0, "re", "15")
        >>> brief(s)
        '2 of 3 checkable rows flagged'
    """
    return f"{s.flagged:,} of {s.checkable:,} checkable {'row' if s.checkable == 1 else 'rows'} " \
           "flagged"


def reading_brief(a_name: str, b_name: str, s: Summary) -> str:
    """What the result read and how, in one line: each file with its text fields,
    then n, the flag rule and the matching mode::

        >>> s = Summary(4, 3, 2, 1, 0, 0, 0, 80, 25, 0, 3, 13, "loose", "L1", 0.0, "re", "15",
        ...             a_fields=["context", "question"], b_fields=["text"])
        >>> reading_brief("test.json", "train.jsonl", s)
        'A: test.json (context + question) · B: train.jsonl (text) · n = 13 · flag at any shared window · loose matching'
    """
    def named(role: str, name: str, fields: list[str]) -> str:
        label = fields_label(fields)
        return f"{role}: {name}" + (f" ({label})" if label else "")

    rule = ("flag at any shared window" if not s.threshold
            else f"flag at a dirty share of {number(s.threshold)}% or more")
    return " · ".join((named("A", a_name, s.a_fields), named("B", b_name, s.b_fields),
                           f"n = {s.n}", rule, f"{s.mode} matching"))


def fields_read(s: Summary) -> str:
    """The sentence naming the text fields read from each file::

        >>> s = Summary(*[0] * 12, "loose", "L1", 0.0, "re", "15", a_fields=["context",
        ...             "question"], b_fields=["text"])
        >>> fields_read(s)
        'Text read: context + question of A; text of B.'
    """
    if not s.a_fields and not s.b_fields:
        return ""
    a, b = fields_label(s.a_fields) or "?", fields_label(s.b_fields) or "?"
    if s.a_fields == s.b_fields:
        return f"Text read: {a} of both files."
    return f"Text read: {a} of A; {b} of B."


#: Rows of the per-field table.
FIELD_TABLE_ROWS = 50


def field_table(s: Summary) -> list[tuple[str, str, str, str]]:
    """A's figures per field, when A was read from several: ``(field, tokens,
    dirty share, rows with a match)``; empty for one field. At most
    :data:`FIELD_TABLE_ROWS` fields, then a line counting the rest (all are in
    the JSON summary)."""
    if len(s.fields) < 2:
        return []
    rows = [(f.field, f"{f.tokens:,}", percent(f.dirty_share) if f.tokens else "–",
             f"{f.rows_matched:,} of {f.rows:,}"
             + (f" (+{f.rows_contained:,} found whole)" if f.rows_contained else ""))
            for f in s.fields[:FIELD_TABLE_ROWS]]
    if len(s.fields) > FIELD_TABLE_ROWS:
        rows.append((f"and {len(s.fields) - FIELD_TABLE_ROWS:,} more fields", "", "", ""))
    return rows


def counted_table(s: Summary) -> list[tuple[str, str]]:
    """The rows of "What the run counted" (counts with thousands separators, as
    every other figure: ``1,193``)."""
    dup = f"{s.duplicates:,}"
    if s.duplicates_short:
        dup += f" ({s.duplicates_short:,} short)"
    return [("Rows flagged", f"{s.flagged:,}"),
            ("Rows checkable", f"{s.checkable:,}"),
            ("Overall dirty-token share", percent(s.dirty_share) if s.tokens else "–"),
            (f"Rows shorter than {s.n} tokens", f"{s.short:,}"),
            ("Rows with no text", f"{s.blank:,}"),
            ("Rows duplicating a whole B row", dup),
            *([(f"Short rows of {s.short_min}+ tokens contained in a B row",
                f"{s.contained - s.contained_checkable:,}")] if s.short_min else []),
            *([(f"Checkable rows with a field of {s.short_min}+ tokens contained in a B row",
                f"{s.contained_checkable:,}")] if s.short_min and len(s.a_fields) > 1 else []),
            *([(f"Windows ignored (in more than {s.max_b_rows:,} B rows)",
                f"{s.windows_ignored:,}")] if s.max_b_rows is not None else [])]


def cap_notice(s: Summary) -> str:
    """The warning shown when some window of B occurred more than 32 times."""
    if not s.windows_capped:
        return ""
    which = ("1 window shared with the test set occurs" if s.windows_capped == 1 else
             f"{s.windows_capped:,} windows shared with the test set occur")
    return (f"{which} more than 32 times in the training file; only the first 32 positions "
            f"of each were kept, so a span running through them may be reported shorter "
            f"than it is.")


def flagged_figure(s: Summary) -> str:
    """The big figure: the flagged share, or a dash when no row is checkable."""
    return percent(s.flagged_share) if s.checkable else "–"
