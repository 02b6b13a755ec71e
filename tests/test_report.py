"""Summary rules, worst-first order, exact thresholds and the CSV's safety."""

import csv
import io

import pytest
from hypothesis import given, settings, strategies as st

from ngram_core import Row, Settings, run_check
from ngram_core.report.export import csv_line, neutralize

BASE = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu"


def test_threshold_is_compared_unrounded():
    # 13 of 39 tokens dirty = 33.333...%: flagged at 33.3333, not at 33.33334
    a = [Row(1, "x", BASE + " " + " ".join(f"w{i}" for i in range(26)))]
    b = [Row(1, "y", BASE)]
    assert run_check(a, b, Settings(threshold=33.3333)).summary.flagged == 1
    assert run_check(a, b, Settings(threshold=33.33334)).summary.flagged == 0


def test_blank_and_short_rows_leave_every_denominator():
    a = [Row(1, "1", BASE), Row(2, "2", "   "), Row(3, "3", "too short"), Row(4, "4", "!!!")]
    result = run_check(a, [Row(1, "b", BASE)], Settings())
    s = result.summary
    assert (s.rows, s.checkable, s.short, s.blank, s.flagged) == (4, 1, 2, 1, 1)
    assert s.tokens == 13 and s.dirty_share == 1.0
    assert [m.row for m in result.ordered] == [0]


def test_duplicates_counted_for_short_rows_too():
    a = [Row(1, "1", "Hello world"), Row(2, "2", BASE), Row(3, "3", "other")]
    b = [Row(1, "b1", "something"), Row(2, "b2", "hello, WORLD!"), Row(3, "b3", BASE)]
    result = run_check(a, b, Settings())
    assert [m.duplicate_of for m in result.matches] == [1, 2, None]
    assert (result.summary.duplicates, result.summary.duplicates_short) == (2, 1)
    assert result.csv().splitlines()[1].endswith(",3")


def test_worst_first_then_span_then_file_order():
    words = BASE.split()
    a = [Row(1, "low", BASE + " " + " ".join(f"q{i}" for i in range(13))),
         Row(2, "high", BASE),
         Row(3, "high-too", BASE),
         Row(4, "clean", " ".join(f"z{i}" for i in range(20)))]
    result = run_check(a, [Row(1, "b", BASE)], Settings())
    assert [a[m.row].id for m in result.ordered] == ["high", "high-too", "low", "clean"]


def test_best_b_row_ties_go_to_the_first_b_row():
    a = [Row(1, "a", BASE)]
    b = [Row(1, "b1", "x " + BASE), Row(2, "b2", BASE)]
    m = run_check(a, b, Settings()).matches[0]
    assert (m.b_row, m.b_start) == (0, 1)


def test_cap_is_reported():
    word = " ".join(["same"] * 60)
    result = run_check([Row(1, "a", word)], [Row(1, "b", word)], Settings(n=5))
    assert result.summary.windows_capped == 1


@pytest.mark.parametrize("cell, safe", [
    ("=1+2", "'=1+2"), ("+cmd", "'+cmd"), ("-x", "'-x"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\tx", "'\tx"), ("\rx", "'\rx"), ("-5", "-5"), ("+3.5", "+3.5"), ("-2+3", "'-2+3"),
    ("plain", "plain"), ("", ""),
])
def test_neutralize(cell, safe):
    assert neutralize(cell) == safe


def test_csv_ids_are_neutralized_and_numbers_stay_numbers():
    a = [Row(1, "=HYPERLINK(\"x\")", BASE)]
    b = [Row(1, "@evil", BASE)]
    rows = list(csv.reader(io.StringIO(run_check(a, b, Settings()).csv())))
    assert rows[1][1] == "'=HYPERLINK(\"x\")" and rows[1][9] == "'@evil"
    assert [float(rows[1][i]) for i in (2, 3, 4, 6, 7)] == [13, 13, 1.0, 13, 1]


def test_settings_out_of_range():
    from ngram_core import InputError
    for bad in ({"n": 4}, {"n": 26}, {"threshold": -1}, {"threshold": 101},
                {"mode": "fuzzy"}, {"layers": "L9"}, {"threshold": "nan"}):
        with pytest.raises(InputError):
            Settings(**bad)


@given(st.floats(min_value=0, max_value=100))
def test_exact_ratio_is_the_decimal_the_person_typed(value):
    from fractions import Fraction
    from ngram_core.report.summary import exact_ratio
    numerator, denominator = exact_ratio(value)
    assert Fraction(numerator, denominator) == Fraction(str(value))


cell_text = st.text(alphabet=st.sampled_from(list('a,"\n\r =\t\'é;')), max_size=6)


@settings(max_examples=300, deadline=None)
@given(st.lists(cell_text, min_size=2, max_size=6))
def test_csv_lines_read_back_and_match_the_csv_module(cells):
    line = csv_line(cells)
    assert next(csv.reader(io.StringIO(line, newline=""))) == cells
    if not any("\r" in c for c in cells):        # Python 3.11's writer leaves \r unquoted
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerow(cells)
        assert line == out.getvalue()


def test_one_checkable_row_is_named_in_the_singular_and_none_gives_a_dash():
    from ngram_core.report.summary import counted_table, headline
    one = run_check([Row(1, "x", BASE)], [Row(1, "y", BASE)], Settings()).summary
    assert headline(one).startswith("1 of 1 checkable row shares at least one 13-token sequence")
    at = run_check([Row(1, "x", BASE)], [Row(1, "y", BASE)], Settings(threshold=50)).summary
    assert headline(at).startswith("1 of 1 checkable row has at least 50 percent of its tokens")
    none = run_check([Row(1, "x", "too short")], [Row(1, "y", BASE)], Settings()).summary
    assert dict(counted_table(none))["Overall dirty-token share"] == "–"
    assert dict(counted_table(one))["Overall dirty-token share"] == "100.0%"


def test_the_threshold_is_printed_as_typed():
    from ngram_core.report.summary import headline, number
    assert (number(0.0), number(12.5), number(33.33334)) == ("0", "12.5", "33.33334")
    s = run_check([Row(1, "x", BASE)], [Row(1, "y", BASE)], Settings(threshold=33.33334)).summary
    assert "at least 33.33334 percent" in headline(s)
