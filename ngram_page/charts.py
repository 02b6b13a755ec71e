r"""The report's two charts as plain data, what they say in words, and the report's
other labels in plain words (definition names and parameters as a person reads them).

Pure (no DOM): :mod:`ngram_page.report_view` turns a :class:`Chart` into SVG
elements, every label as text. Coordinates are in the SVG's own units
(``viewBox="0 0 WIDTH height"``); the drawing scales to the page's width, so
360 units are about 360 CSS pixels on a 375-pixel phone.

* :func:`share_histogram` - the checkable rows in eleven bars: first the rows
  that share no window with file B (``no match``: no dirty token, so never
  flagged), then the rows with at least one shared window in ten bands of
  their dirty-token share ``(0, 10), [10, 20) ... [80, 90), [90, 100]``
  percent, counted exactly (``band = min(9, dirty * 10 // tokens)``). A row
  with a shared window has at least n dirty tokens, so its share is never 0:
  the first band holds shares above 0 and under 10 %. The flag threshold is a
  line over the bands (at 0 it stands between "no match" and the bands:
  every row with a match is flagged), and the caption says the rule in words;
* :func:`definitions_chart` - the share of its considered rows each published
  definition calls dirty (and the main check's flagged share), one bar each.

A row with 3 dirty tokens of 10 is 30 %, in band 30-40 % (bar 4); a row with
none has no match (bar 0)::

    >>> share_bands([(3, 10), (0, 10), (10, 10), (9, 10), (1, 20)])
    [1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 2]
    >>> [bar_label(i) for i in (0, 1, 10)]
    ['no match', '0–10%', '90–100%']
    >>> chart = share_histogram([1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 2], 0, 13)
    >>> chart.marker == SHARE_LEFT, chart.marker_label
    (True, 'flagged: any shared window')
    >>> chart.description.split(". ")[-1]
    'A row is flagged when it shares at least one 13-token window with file B.'
    >>> flag_rule_words(50, 8)
    'A row is flagged when it shares an 8-token window with file B and its dirty-token share is at least 50%.'

The threshold's label sits in a strip of its own above the tallest bar's count
(:data:`MARKER_LABEL_Y` over :data:`HISTOGRAM_TOP`), so the two never meet.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import NamedTuple

from ngram_core.report.definitions import DESCRIPTIONS
from ngram_core.report.summary import number, percent

WIDTH = 360                   # the charts' width in SVG units
BANDS = 10                    # the histogram's bands of 10 percentage points
NO_MATCH = "no match"         # the histogram's first bar: rows sharing no window
PLOT_LEFT, PLOT_RIGHT = 40, 350
PLOT_TOP = 24                 # the definitions chart's first bar
HISTOGRAM_HEIGHT, PLOT_BOTTOM = 200, 170
#: The histogram: the "no match" bar's slot, then the ten bands of share.
NONE_LEFT, NONE_RIGHT, SHARE_LEFT, SHARE_RIGHT = 10, 50, 64, 344
#: The threshold label's baseline, and the top of the tallest histogram bar (its
#: count is written VALUE_GAP above it): 11-pixel text reaches about 9 units
#: above its baseline and 3 below, so the label (down to 15) and the highest
#: count (from 22) keep 7 units apart.
MARKER_LABEL_Y, HISTOGRAM_TOP, VALUE_GAP = 12, 34, 3
TEXT_ABOVE, TEXT_BELOW = 9, 3
BAR_HEIGHT, BAR_GAP, LABEL_WIDTH = 22, 8, 150


class Bar(NamedTuple):
    """One bar: its rectangle, its label (under or beside it) and the value written on it."""
    x: float
    y: float
    width: float
    height: float
    label: str
    value: str


class Chart(NamedTuple):
    """What an SVG chart draws, and the words that say the same for a screen reader.

    ``marker``: the x of a vertical line (the flag threshold), or None;
    ``ticks``: ``(x, text)`` under the plot.
    """
    height: float
    bars: tuple[Bar, ...]
    title: str
    description: str
    marker: float | None = None
    marker_label: str = ""
    ticks: tuple[tuple[float, str], ...] = ()


def band_label(band: int) -> str:
    """``band_label(0)`` -> ``'0–10%'``; the last band holds 100 %."""
    return f"{band * 10}–{band * 10 + 10}%"


def bar_label(bar: int) -> str:
    """The histogram's bar ``bar``: 0 is ``no match``, 1 to 10 the bands of share."""
    return NO_MATCH if bar == 0 else band_label(bar - 1)


def share_bands(rows: Iterable[tuple[int, int]]) -> list[int]:
    """How many ``(dirty, tokens)`` rows have no match (no dirty token: a token is
    dirty only inside a shared window), then how many matched rows fall in each
    band of 10 percentage points: ``BANDS + 1`` counts."""
    counts = [0] * (BANDS + 1)
    for dirty, tokens in rows:
        counts[0 if not dirty else 1 + min(BANDS - 1, dirty * BANDS // tokens)] += 1
    return counts


def _an(n: int) -> str:
    """The article before ``n`` said aloud: an 8, an 11, an 18, a 13."""
    return "an" if str(n).startswith("8") or n in (11, 18) else "a"


def flag_rule_words(threshold: float, n: int) -> str:
    """The flag rule in words (the check's rule: a shared window, and at a threshold
    above 0 a dirty-token share of at least it)."""
    if not threshold:
        return f"A row is flagged when it shares at least one {n}-token window with file B."
    return (f"A row is flagged when it shares {_an(n)} {n}-token window with file B and its "
            f"dirty-token share is at least {number(threshold)}%.")


def marker_words(threshold: float) -> str:
    """The threshold line's label."""
    return ("flagged: any shared window" if not threshold
            else f"flagged at {number(threshold)}% or more")


def value_position(bar: Bar) -> tuple[float, float]:
    """Where a histogram bar's count is written: centred, VALUE_GAP above the bar."""
    return bar.x + bar.width / 2, bar.y - VALUE_GAP


def share_x(share: float) -> float:
    """The x of a dirty-token share (percent) on the bands' axis."""
    return SHARE_LEFT + (SHARE_RIGHT - SHARE_LEFT) * float(share) / 100


def share_histogram(counts: Sequence[int], threshold: float, n: int) -> Chart:
    """The histogram of ``share_bands``' counts (``no match`` first); ``threshold``
    (percent, as the check took it) is drawn as a line over the bands, and the
    caption says the flag rule for windows of ``n`` tokens."""
    total = sum(counts)
    top = max(counts) if total else 1
    plot = PLOT_BOTTOM - HISTOGRAM_TOP
    step = (SHARE_RIGHT - SHARE_LEFT) / BANDS
    slots = [(NONE_LEFT, NONE_RIGHT - NONE_LEFT)] + [(SHARE_LEFT + band * step, step)
                                                     for band in range(BANDS)]
    bars = []
    for bar, ((left, width), count) in enumerate(zip(slots, counts)):
        height = plot * count / top
        bars.append(Bar(left + 1, PLOT_BOTTOM - height, width - 2, height, bar_label(bar),
                        f"{count:,}"))
    ticks = ((NONE_LEFT + (NONE_RIGHT - NONE_LEFT) / 2, NO_MATCH),
             *((share_x(i * 10), f"{i * 10}") for i in range(0, BANDS + 1, 2)))
    bands = "; ".join(f"{bar_label(b)}: {c:,}" for b, c in enumerate(counts) if b)
    words = (f"The {total:,} checkable {'row' if total == 1 else 'rows'} by dirty-token "
             f"share: {NO_MATCH} (no {n}-token "
             f"window shared with file B): {counts[0]:,}; then the rows with a match, in "
             f"bands of 10 percentage points: {bands}. {flag_rule_words(threshold, n)}")
    return Chart(HISTOGRAM_HEIGHT, tuple(bars), "Rows by dirty-token share", words,
                 share_x(threshold), marker_words(threshold), ticks)


#: About the width of a character of the charts' 11-pixel text, in SVG units.
CHAR_WIDTH = 7


def value_place(bar: Bar) -> tuple[float, str]:
    """Where a horizontal bar's value is written (x, and ``"start"`` or ``"end"`` for
    its text's anchor): just past the bar's end, or inside it, against its end, when
    past it would leave the chart (a bar of 100 % on a phone)::

        >>> value_place(Bar(150.0, 24.0, 20.0, 22.0, "GPT-3", "10.0%"))
        (174.0, 'start')
        >>> value_place(Bar(150.0, 24.0, 200.0, 22.0, "GPT-3", "100.0%"))
        (346.0, 'end')
    """
    after = bar.x + bar.width + 4
    if after + CHAR_WIDTH * len(bar.value) <= WIDTH:
        return after, "start"
    return bar.x + bar.width - 4, "end"


class Share(NamedTuple):
    """One bar of the definitions chart: ``dirty`` of ``considered`` rows."""
    label: str
    dirty: int
    considered: int


def definitions_chart(shares: Sequence[Share]) -> Chart:
    """Horizontal bars, one per definition: the share of its considered rows it calls
    dirty (a definition with no considered row has an empty bar and says so)."""
    plot = PLOT_RIGHT - LABEL_WIDTH
    bars, said = [], []
    for i, s in enumerate(shares):
        share = Fraction(s.dirty, s.considered) if s.considered else None
        value = percent(float(share)) if share is not None else "no row considered"
        width = plot * float(share) if share is not None else 0.0
        bars.append(Bar(LABEL_WIDTH, PLOT_TOP + i * (BAR_HEIGHT + BAR_GAP), width, BAR_HEIGHT,
                        s.label, value))
        said.append(f"{s.label}: {value}" + (f" ({s.dirty:,} of {s.considered:,} rows)"
                                             if s.considered else ""))
    height = PLOT_TOP + len(shares) * (BAR_HEIGHT + BAR_GAP) + 8
    words = "Share of its considered rows each definition calls dirty: " + "; ".join(said) + "."
    return Chart(height, tuple(bars), "Rows called dirty, by definition", words)


# --- the report's labels in plain words ------------------------------------------------
#
# The JSON summary and the command name the definitions and their parameters in
# code (``gpt3``, ``max_b_rows``); the page says them in words and keeps the code
# name in small print or a ``title`` tooltip.

#: What each definition calls dirty, in a few words (after its title).
RULE_WORDS = {"gpt3": "any shared n-gram, n from 8 to 13",
              "palm": "70% of its 8-grams shared",
              "llama2": "80% of its tokens in shared 11-grams",
              "gpt4": "a shared 50-character sample",
              "tulu3": "over half its tokens in 8-grams of one training row"}
#: What each definition's measure counts (the "Counts" column).
COUNT_WORDS = {"gpt3": "n-gram positions", "palm": "8-gram positions", "llama2": "tokens",
               "gpt4": "50-character samples", "tulu3": "tokens"}
#: The main check, as the report names it.
MAIN_WORDS = "the check above"

#: A parameter in words, by (definition, name) first, then by name; ``{v}`` is its value.
PARAMETER_WORDS: Mapping[tuple[str | None, str], str] = {
    ("gpt3", "n"): "n for these files: {v}",
    (None, "n"): "n-grams of {v} tokens",
    (None, "n_min"): "shortest n: {v}",
    (None, "n_max"): "longest n: {v}",
    (None, "percentile"): "n from the {v}th percentile of A's row lengths",
    (None, "max_b_rows"): "ignore n-grams in more than {v} training rows",
    (None, "min_tokens"): "rows of at least {v} tokens",
    ("palm", "dirty_at_percent"): "dirty from {v}% of its n-grams shared",
    (None, "dirty_at_percent"): "dirty from {v}% of its tokens",
    (None, "clean_below_percent"): "clean below {v}% of its tokens",
    (None, "dirty_above_percent"): "dirty above {v}% of its tokens",
    (None, "sample_chars"): "samples of {v} characters",
    (None, "samples"): "{v} samples a row",
    (None, "positions_per_window"): "each n-gram at its first {v} places in file B",
}


def definition_title(name: str) -> str:
    """A definition's short name: ``'GPT-3'`` (``'the check above'`` for ``main``)."""
    if name == "main":
        return MAIN_WORDS
    return DESCRIPTIONS[name].title if name in DESCRIPTIONS else name


def definition_label(name: str) -> str:
    """A definition's name and rule in words::

        >>> definition_label("gpt3"), definition_label("main")
        ('GPT-3 (any shared n-gram, n from 8 to 13)', 'the check above')
    """
    title = definition_title(name)
    return f"{title} ({RULE_WORDS[name]})" if name in RULE_WORDS else title


def parameter_words(name: str, parameters: Mapping[str, object]) -> list[tuple[str, str]]:
    """Each parameter of definition ``name`` as ``(words, the JSON's name = value)``; a
    parameter with no words is shown as the JSON has it::

        >>> parameter_words("gpt3", {"n": 8, "n_min": 8, "max_b_rows": 10, "new": 1})
        [('n for these files: 8', 'n = 8'), ('shortest n: 8', 'n_min = 8'), ('ignore n-grams in more than 10 training rows', 'max_b_rows = 10'), ('new = 1', 'new = 1')]
    """
    out = []
    for key, value in parameters.items():
        code = f"{key} = {value}"
        words = PARAMETER_WORDS.get((name, key), PARAMETER_WORDS.get((None, key)))
        out.append((words.format(v=value) if words else code, code))
    return out


def impact_label(first: str) -> tuple[str, str]:
    """The score table's first cell in words, and the JSON summary's name for it::

        >>> impact_label("main"), impact_label("llama2 not dirty / dirty")
        (('the check above', 'main'), ('Llama 2: not dirty / dirty', 'llama2'))
    """
    name, _, rest = first.partition(" ")
    words = definition_title(name)
    return (f"{words}: {rest}" if rest else words), name
