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

from ngram_page.charts import (BANDS, HISTOGRAM_TOP, LABEL_WIDTH, MARKER_LABEL_Y, NO_MATCH,
                               PLOT_BOTTOM, PLOT_RIGHT, SHARE_LEFT, SHARE_RIGHT, TEXT_ABOVE,
                               TEXT_BELOW, WIDTH, Share, band_label, bar_label,
                               definitions_chart, share_bands, share_histogram, value_position)
from ngram_page.results_file import guess_score_field, score_source

rows = st.integers(1, 60).flatmap(lambda tokens: st.tuples(st.integers(0, tokens),
                                                           st.just(tokens)))


def reference_bar(dirty: int, tokens: int) -> int:
    """The plain rule: no dirty token (no shared window) is the "no match" bar 0; else
    the share in percent, its tens digit, plus one; 100 % joins the last band."""
    if dirty == 0:
        return 0
    percent = Fraction(dirty, tokens) * 100
    return 1 + min(9, int(percent // 10))


@given(st.lists(rows, max_size=40))
def test_every_row_falls_in_the_bar_of_its_exact_share(pairs):
    counts = share_bands(pairs)
    expected = [0] * (BANDS + 1)
    for dirty, tokens in pairs:
        expected[reference_bar(dirty, tokens)] += 1
    assert counts == expected


def test_band_edges_are_exact_and_no_match_has_its_own_bar():
    # 1 of 10 is exactly 10 %: band 10-20 %, not 0-10 % (no float rounding down)
    assert share_bands([(1, 10)]) == [0, 0, 1] + [0] * 8
    assert share_bands([(29, 30)]) == [0] * 10 + [1]
    # a matched row under 10 % is not counted with the rows that share nothing
    assert share_bands([(0, 30), (1, 30)]) == [1, 1] + [0] * 9
    assert [bar_label(b) for b in (0, 1, 10)] == [NO_MATCH, "0–10%", "90–100%"]
    assert [band_label(b) for b in (0, 9)] == ["0–10%", "90–100%"]


@given(st.lists(st.integers(0, 500), min_size=BANDS + 1, max_size=BANDS + 1),
       st.floats(0, 100), st.integers(5, 25))
def test_the_histogram_draws_each_count_and_says_it(counts, threshold, n):
    chart = share_histogram(counts, threshold, n)
    assert len(chart.bars) == BANDS + 1
    assert chart.bars[0].label == NO_MATCH
    assert chart.bars[0].x + chart.bars[0].width < SHARE_LEFT <= chart.bars[1].x   # apart
    top = max(counts)
    for bar, count in zip(chart.bars, counts):
        assert bar.y + bar.height == PLOT_BOTTOM                      # on the axis
        expected = (PLOT_BOTTOM - HISTOGRAM_TOP) * count / top if top else 0
        assert abs(bar.height - expected) < 1e-9
        assert bar.value == f"{count:,}"
        if bar.label != NO_MATCH:
            assert f"{bar.label}: {count:,}" in chart.description
        assert 0 <= bar.x and bar.x + bar.width <= WIDTH
    assert SHARE_LEFT <= chart.marker <= SHARE_RIGHT
    assert abs(chart.marker - (SHARE_LEFT + (SHARE_RIGHT - SHARE_LEFT) * threshold / 100)) < 1e-9
    rows = "row" if sum(counts) == 1 else "rows"
    assert chart.description.startswith(f"The {sum(counts):,} checkable {rows} by ")
    assert f"{NO_MATCH} (no {n}-token window shared with file B): {counts[0]:,}" \
        in chart.description
    # the threshold's label and every bar's count lie in strips that do not meet
    label_bottom = MARKER_LABEL_Y + TEXT_BELOW
    assert all(value_position(bar)[1] - TEXT_ABOVE > label_bottom for bar in chart.bars)
    assert MARKER_LABEL_Y - TEXT_ABOVE >= 0


def test_the_flag_rule_is_said_in_words():
    at_zero = share_histogram([1] * (BANDS + 1), 0, 13)
    assert at_zero.description.endswith(
        "A row is flagged when it shares at least one 13-token window with file B.")
    assert at_zero.marker_label == "flagged: any shared window"
    assert at_zero.marker == SHARE_LEFT            # between "no match" and the bands
    assert "0%" not in at_zero.description.split(". ")[-1]
    at_40 = share_histogram([1] * (BANDS + 1), 40.0, 8)
    assert at_40.description.endswith(
        "A row is flagged when it shares an 8-token window with file B and its dirty-token "
        "share is at least 40%.")
    assert at_40.marker_label == "flagged at 40% or more"
    assert share_histogram([1] * (BANDS + 1), 33.33334, 13).marker_label == \
        "flagged at 33.33334% or more"                     # as typed


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
    # an lm-evaluation-harness sample: its own acc, not a field of its document
    assert guess_score_field(["doc_id", "doc.correct", "target", "acc", "acc_norm"]) == "acc"
    assert score_source("", None, "", "").wanted is False
    assert score_source("correct", None, "", "").field == "correct"
    table = object()
    source = score_source("correct", table, "acc", "")            # the results file wins
    assert (source.field, source.results, source.results_field, source.results_key) == \
        (None, table, "acc", None)
