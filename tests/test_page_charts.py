"""The report's charts and score choices as plain data, in CPython (#11).

What the SVG shows is computed by ngram_page.charts from counts; here it is
checked against plain definitions (a band is the share's tens digit, a bar's
length is its share of the plot), and the words a screen reader gets carry
every number the picture does.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from ngram_page.charts import (BANDS, LABEL_WIDTH, PLOT_BOTTOM, PLOT_LEFT, PLOT_RIGHT, PLOT_TOP,
                               Share, band_label, definitions_chart, share_bands,
                               share_histogram)
from ngram_page.results_file import guess_score_field, score_source

rows = st.integers(1, 60).flatmap(lambda tokens: st.tuples(st.integers(0, tokens),
                                                           st.just(tokens)))


def reference_band(dirty: int, tokens: int) -> int:
    """The plain rule: the share in percent, its tens digit; 100 % joins the last band."""
    percent = Fraction(dirty, tokens) * 100
    return min(9, int(percent // 10))


@given(st.lists(rows, max_size=40))
def test_every_row_falls_in_the_band_of_its_exact_share(pairs):
    counts = share_bands(pairs)
    expected = [0] * BANDS
    for dirty, tokens in pairs:
        expected[reference_band(dirty, tokens)] += 1
    assert counts == expected


def test_band_edges_are_exact():
    # 1 of 10 is exactly 10 %: band 10-20 %, not 0-10 % (no float rounding down)
    assert share_bands([(1, 10)]) == [0, 1] + [0] * 8
    assert share_bands([(29, 30)]) == [0] * 9 + [1]
    assert [band_label(b) for b in (0, 9)] == ["0–10%", "90–100%"]


@given(st.lists(st.integers(0, 500), min_size=BANDS, max_size=BANDS),
       st.floats(0, 100), st.integers(0, 500))
def test_the_histogram_draws_each_count_and_says_it(counts, threshold, zero):
    chart = share_histogram(counts, threshold, zero)
    assert len(chart.bars) == BANDS
    top = max(counts)
    for bar, count in zip(chart.bars, counts):
        assert bar.y + bar.height == PLOT_BOTTOM                      # on the axis
        expected = (PLOT_BOTTOM - PLOT_TOP) * count / top if top else 0
        assert abs(bar.height - expected) < 1e-9
        assert bar.value == f"{count:,}"
        assert f"{bar.label}: {count:,}" in chart.description
    assert PLOT_LEFT <= chart.marker <= PLOT_RIGHT
    assert abs(chart.marker - (PLOT_LEFT + (PLOT_RIGHT - PLOT_LEFT) * threshold / 100)) < 1e-9
    assert f"the {sum(counts):,} checkable rows" in chart.description
    assert f"{zero:,} of them have no dirty token" in chart.description


def test_the_definitions_chart_bars_are_shares_of_considered_rows():
    chart = definitions_chart([Share("this check", 1, 4), Share("GPT-3", 3, 3),
                               Share("GPT-4", 0, 0)])
    plot = PLOT_RIGHT - LABEL_WIDTH
    assert [b.width for b in chart.bars] == [plot / 4, plot, 0.0]
    assert [b.value for b in chart.bars] == ["25.0%", "100.0%", "no row considered"]
    assert chart.description == ("Share of its considered rows each definition calls dirty: "
                                 "this check: 25.0% (1 of 4 rows); GPT-3: 100.0% (3 of 3 "
                                 "rows); GPT-4: no row considered.")
    bottoms = [b.y + b.height for b in chart.bars]
    assert bottoms == sorted(bottoms) and max(bottoms) < chart.height   # nothing cut off


def test_the_score_choice():
    assert guess_score_field(["doc_id", "doc.question", "metrics.acc"]) == "metrics.acc"
    assert guess_score_field(["id", "text"]) == ""
    assert score_source("", None, "", "").wanted is False
    assert score_source("correct", None, "", "").field == "correct"
    table = object()
    source = score_source("correct", table, "acc", "")            # the results file wins
    assert (source.field, source.results, source.results_field, source.results_key) == \
        (None, table, "acc", None)
