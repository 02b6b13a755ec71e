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

from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass

from .match import CHECKABLE, SHORT, RowMatch
from .settings import Settings
from .tokenize import Tokenizer


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



def worst_first(matches: Iterable[RowMatch]) -> list[RowMatch]:
    """Checkable rows by dirty share (desc), longest span (desc), then file order."""
    rows = [m for m in matches if m.status == CHECKABLE]
    return sorted(rows, key=lambda m: (-m.share, -m.span, m.row))


@dataclass
class Summary:
    """The run's counts. Shares are over checkable rows only."""
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
    short_min: int = 0
    max_b_rows: int | None = None

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
        return out


def summarize(matches: Sequence[RowMatch], settings: Settings, tokenizer: Tokenizer, *,
              b_rows: int, windows_capped: int, windows_ignored: int = 0) -> Summary:
    """Count the rows (one pass: it runs on 200,000-row files in the page)."""
    checkable = flagged = short = blank = duplicates = duplicates_short = tokens = dirty = 0
    contained = 0
    is_flagged_row = flag_rule(settings.threshold)
    for m in matches:
        status = m.status
        if status == CHECKABLE:
            checkable += 1
            tokens += m.tokens
            dirty += m.dirty
            flagged += is_flagged_row(m)
        elif status == SHORT:
            short += 1
        else:
            blank += 1
        contained += m.contained_in is not None
        if m.duplicate_of is not None:
            duplicates += 1
            duplicates_short += status == SHORT
    return Summary(
        rows=len(matches), checkable=checkable, flagged=flagged, short=short, blank=blank,
        duplicates=duplicates, duplicates_short=duplicates_short, tokens=tokens,
        dirty_tokens=dirty, windows_capped=windows_capped, b_rows=b_rows, n=settings.n,
        mode=settings.mode, layers=tokenizer.label, threshold=settings.threshold,
        tokenizer=tokenizer.backend, unicode_version=tokenizer.unicode_version,
        contained=contained, windows_ignored=windows_ignored, short_min=settings.short_min,
        max_b_rows=settings.max_b_rows)


def percent(share: float) -> str:
    """``0.6666`` -> ``"66.7%"``: one decimal, at print time only."""
    return f"{share * 100:.1f}%"


def number(value) -> str:
    """A threshold as typed, every digit kept: ``0.0`` -> ``"0"``, ``12.5`` -> ``"12.5"``,
    ``33.33334`` -> ``"33.33334"``."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def _rows(count: int) -> str:
    return f"{count} row" if count == 1 else f"{count} rows"


def headline(s: Summary) -> str:
    """The sentence under the big figure, as the product description words it."""
    one = s.checkable == 1
    rows = "row" if one else "rows"
    if s.threshold:
        first = (f"{s.flagged} of {s.checkable} checkable {rows} {'has' if one else 'have'} "
                 f"at least {number(s.threshold)} percent of {'its' if one else 'their'} "
                 f"tokens in {s.n}-token sequences shared with the other file")
    else:
        first = (f"{s.flagged} of {s.checkable} checkable {rows} {'shares' if one else 'share'} "
                 f"at least one {s.n}-token sequence with the other file")
    first += f", at n = {s.n} and a {number(s.threshold)} percent threshold."
    short = f"{_rows(s.short)} {'is' if s.short == 1 else 'are'} shorter than {s.n} tokens"
    blank = f"{s.blank} {'is' if s.blank == 1 else 'are'} blank"
    sentence = f"{first} {short} and {blank}, so they sit outside every denominator."
    if s.contained:
        sentence += (f" {s.contained} of the short rows {'is' if s.contained == 1 else 'are'} "
                     f"contained whole in a row of the other file.")
    return sentence


def settings_line(a_name: str, b_name: str, s: Summary, description: str) -> str:
    """``"a.json checked against b.json at n = 13 with a 0 percent threshold. ..."``"""
    return (f"{a_name} checked against {b_name} at n = {s.n} with a {number(s.threshold)} "
            f"percent threshold. {description}")


def counted_table(s: Summary) -> list[tuple[str, str]]:
    """The rows of "What the run counted"."""
    dup = str(s.duplicates)
    if s.duplicates_short:
        dup += f" ({s.duplicates_short} short)"
    return [("Rows flagged", str(s.flagged)),
            ("Rows checkable", str(s.checkable)),
            ("Overall dirty-token share", percent(s.dirty_share) if s.tokens else "–"),
            (f"Rows shorter than {s.n} tokens", str(s.short)),
            ("Rows with no text", str(s.blank)),
            ("Rows duplicating a whole B row", dup),
            *([(f"Short rows of {s.short_min}+ tokens contained in a B row", str(s.contained))]
              if s.short_min else []),
            *([(f"Windows ignored (in more than {s.max_b_rows:,} B rows)",
                f"{s.windows_ignored:,}")] if s.max_b_rows is not None else [])]


def cap_notice(s: Summary) -> str:
    """The warning shown when some window of B occurred more than 32 times."""
    if not s.windows_capped:
        return ""
    which = ("1 window of the training file occurs" if s.windows_capped == 1 else
             f"{s.windows_capped:,} windows of the training file occur")
    return (f"{which} more than 32 times; only the first 32 positions of each were kept, "
            f"so a span running through them may be reported shorter than it is.")


def flagged_figure(s: Summary) -> str:
    """The big figure: the flagged share, or a dash when no row is checkable."""
    return percent(s.flagged_share) if s.checkable else "–"
