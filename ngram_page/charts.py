r"""The report's two charts as plain data: what to draw, where, and what it says in words.

Pure (no DOM): :mod:`ngram_page.report_view` turns a :class:`Chart` into SVG
elements, every label as text. Coordinates are in the SVG's own units
(``viewBox="0 0 WIDTH height"``); the drawing scales to the page's width, so
360 units are about 360 CSS pixels on a 375-pixel phone.

* :func:`share_histogram` - the dirty-token share of the checkable rows in ten
  bands ``[0, 10) ... [80, 90), [90, 100]`` percent, counted exactly
  (``band = min(9, dirty * 10 // tokens)``), with the flag threshold drawn;
* :func:`definitions_chart` - the share of its considered rows each published
  definition calls dirty (and the main check's flagged share), one bar each.

A row with 3 dirty tokens of 10 is 30 %, in band 3 (30-40 %)::

    >>> share_bands([(3, 10), (0, 10), (10, 10), (9, 10)])
    [1, 0, 0, 1, 0, 0, 0, 0, 0, 2]
    >>> share_histogram([1, 0, 0, 1, 0, 0, 0, 0, 0, 2], 50, 4).marker
    195.0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import NamedTuple

from ngram_core.report import number, percent

WIDTH = 360                   # the charts' width in SVG units
BANDS = 10                    # the histogram's bands of 10 percentage points
PLOT_LEFT, PLOT_RIGHT = 40, 350
HISTOGRAM_HEIGHT, PLOT_TOP, PLOT_BOTTOM = 200, 24, 170
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


def share_bands(rows: Iterable[tuple[int, int]]) -> list[int]:
    """How many ``(dirty, tokens)`` rows fall in each band of 10 percentage points."""
    counts = [0] * BANDS
    for dirty, tokens in rows:
        counts[min(BANDS - 1, dirty * BANDS // tokens)] += 1
    return counts


def share_histogram(counts: Sequence[int], threshold: float, zero: int) -> Chart:
    """The histogram of ``share_bands``' counts; ``threshold`` (percent, as the check
    took it) is drawn as a line; ``zero``: how many rows have no dirty token."""
    total = sum(counts)
    top = max(counts) if total else 1
    step = (PLOT_RIGHT - PLOT_LEFT) / BANDS
    plot = PLOT_BOTTOM - PLOT_TOP
    bars = []
    for band, count in enumerate(counts):
        height = plot * count / top
        bars.append(Bar(PLOT_LEFT + band * step + 1, PLOT_BOTTOM - height, step - 2, height,
                        band_label(band), f"{count:,}"))
    ticks = tuple((PLOT_LEFT + i * step, f"{i * 10}") for i in range(0, BANDS + 1, 2))
    marker = PLOT_LEFT + (PLOT_RIGHT - PLOT_LEFT) * float(threshold) / 100
    bands = "; ".join(f"{band_label(b)}: {c:,}" for b, c in enumerate(counts))
    words = (f"Dirty-token share of the {total:,} checkable rows, in bands of 10 percentage "
             f"points (rows per band): {bands}. {zero:,} of them have no dirty token. "
             f"A row is flagged at a share of {number(threshold)}% or more.")
    return Chart(HISTOGRAM_HEIGHT, tuple(bars), "Rows by dirty-token share", words,
                 marker, f"threshold {number(threshold)}%", ticks)


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
