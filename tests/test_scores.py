"""Score impact: figures worked out by hand, the join to a results file, and the
figures against a plain reference (statistics module) on random scores."""

import math
import statistics

import pytest
from conftest import FIXTURES
from hypothesis import given, settings, strategies as st

from ngram_core import Row, Settings, read_rows, run_check
from ngram_core.report.definitions import compute_definitions
from ngram_core.errors import InputError
from ngram_core.read.readers import read_table
from ngram_core.report.scores import (group_figures, impact_table, main_groups, parse_score,
                               score_impact, scores_from_field, scores_from_results,
                               subset_figures, z_score)

REPORT = FIXTURES / "report"


def test_parse_score():
    assert [parse_score(v) for v in (True, False, 1, 0.25, "1", " 0.5 ", "TRUE", "false",
                                     "-2e1", "+3")] == [1.0, 0.0, 1.0, 0.25, 1.0, 0.5, 1.0, 0.0,
                                                        -20.0, 3.0]
    assert [parse_score(v) for v in (None, "", "n/a", "1,5", float("nan"), float("inf"),
                                     "nan", "inf", "1e999", "0x1", "1\n0", [1])] == [None] * 12


def test_group_figures_by_hand():
    # considered rows 0..3 (row 4 is not); row 2 has no score; rows 0, 1 dirty
    scores = [1.0, 0.0, None, 1.0, 1.0]
    g = group_figures(scores, [True, True, True, True, False], [True, True, False, False, False])
    assert g == {"all": {"count": 3, "mean": 2 / 3}, "clean": {"count": 1, "mean": 1.0},
                 "dirty": {"count": 2, "mean": 0.5},
                 "relative_difference": pytest.approx((1.0 - 2 / 3) / (2 / 3))}
    none = group_figures([None, 0.0], [True, True], [False, True])
    assert none["clean"] == {"count": 0, "mean": None} and none["relative_difference"] is None
    zero = group_figures([0.0, 0.0], [True, True], [False, True])
    assert zero["all"]["mean"] == 0.0 and zero["relative_difference"] is None


def test_llama2_z_by_hand():
    # N = 4 scores 1, 1, 0, 0: mean 1/2, population s = 1/2.
    # dirty {row 0}: n = 1, sigma = 1/2 * sqrt(3/3) = 1/2, z = (1 - 1/2) / (1/2) = 1.
    # clean {rows 1-3}: n = 3, sigma = 1/2 / sqrt(3) * sqrt(1/3) = 1/6, z = (1/3 - 1/2) * 6 = -1.
    # not_dirty: every row, n = N: no z. not_clean: nobody, n = 0: no z.
    scores = [1.0, 1.0, 0.0, 0.0, None]
    considered = [True, True, True, True, True]
    subsets = {"clean": [False, True, True, True, True], "not_clean": [False] * 5,
               "not_dirty": [True] * 5, "dirty": [True, False, False, False, False]}
    out = subset_figures(scores, considered, subsets)
    assert list(out) == ["all", "clean", "not_clean", "not_dirty", "dirty", "relative_difference"]
    assert out["dirty"] == {"count": 1, "mean": 1.0, "z": pytest.approx(1.0)}
    assert out["clean"]["z"] == pytest.approx(-1.0)
    assert out["not_dirty"]["z"] is None and out["not_clean"] == {"count": 0, "mean": None,
                                                                   "z": None}
    assert out["relative_difference"] == pytest.approx((1 / 3 - 1 / 2) / (1 / 2))
    assert z_score(1.0, 1, 1.0, 0.0, 4) is None          # s = 0
    assert z_score(1.0, 1, 1.0, 0.5, 1) is None          # N = 1


def test_scores_from_a_field_of_a():
    table = read_table((REPORT / "test-set.jsonl").read_bytes(), "test-set.jsonl")
    assert scores_from_field(table, "correct").scores == [1.0, 0.0, 1.0, None]
    with pytest.raises(InputError, match="no field 'score'"):
        scores_from_field(table, "score")


def test_scores_from_a_results_file_by_row_index():
    """lm-evaluation-harness samples: doc_id is A's 0-based row index when A has no id."""
    a = [Row(i, str(i), f"row {i}") for i in range(1, 5)]
    results = read_table((REPORT / "results.jsonl").read_bytes(), "results.jsonl")
    column = scores_from_results(a, False, results, "acc")          # key detected: doc_id
    assert column.scores == [1.0, 0.0, None, 1.0]                   # doc_id 3: its first row
    assert column.notes == ["matched 3 of 4 rows of A",
                            "1 result row matches no row of A by 'doc_id'",
                            "1 result row repeats a key: the first row with each key counts"]
    # A with ids of its own: doc_id still joins by row number, and says so
    with_ids = [Row(i, f"q{i}", f"row {i}") for i in range(1, 5)]
    joined = scores_from_results(with_ids, True, results, "acc")
    assert joined.scores == column.scores
    assert joined.notes[:2] == [
        "matched 3 of 4 rows of A", "joined by row number: 'doc_id' matches no id of A and "
        "counts its rows from 0, as lm-evaluation-harness samples do"]


def test_scores_from_a_results_file_by_id():
    a = read_rows((REPORT / "test-set.jsonl").read_bytes(), "test-set.jsonl")
    results = read_table((REPORT / "results.csv").read_bytes(), "results.csv")
    column = scores_from_results(a, True, results, "score", "key")
    assert column.scores == [0.5, 1.0, None, 0.25]
    assert column.notes == ["matched 3 of 4 rows of A"]
    with pytest.raises(InputError, match="no field 'nope' to use as the key field"):
        scores_from_results(a, True, results, "score", "nope")


def test_score_impact_shape_with_the_definitions():
    a = read_rows((REPORT / "test-set.jsonl").read_bytes(), "test-set.jsonl")
    b = read_rows((REPORT / "training.jsonl").read_bytes(), "training.jsonl")
    table = read_table((REPORT / "test-set.jsonl").read_bytes(), "test-set.jsonl")
    scores = scores_from_field(table, "correct").scores                   # 1, 0, 1, None
    result = run_check(a, b, Settings())
    considered, dirty = main_groups(result.matches, result.settings.threshold)
    assert (considered, dirty) == ([True, True, False, True], [True, False, False, False])
    impact = score_impact(scores, (considered, dirty), compute_definitions(a, b))
    assert list(impact) == ["rows_with_score", "rows_without_score", "main", "gpt3", "palm",
                            "gpt4", "tulu3", "llama2"]
    assert (impact["rows_with_score"], impact["rows_without_score"]) == (3, 1)
    # main: considered rows 1, 2 and 4 (no score); row 1 (1.0) flagged, row 2 (0.0) clean
    assert impact["main"] == {"all": {"count": 2, "mean": 0.5}, "clean": {"count": 1, "mean": 0.0},
                              "dirty": {"count": 1, "mean": 1.0}, "relative_difference": -1.0}
    # llama2 considers row 3 too (non-blank): all = 1, 0, 1; only row 1 is dirty
    llama2 = impact["llama2"]
    assert llama2["all"] == {"count": 3, "mean": 2 / 3}
    assert llama2["dirty"]["count"] == 1 and llama2["clean"]["count"] == 2
    assert set(llama2) == {"all", "clean", "not_clean", "not_dirty", "dirty",
                           "relative_difference"}
    assert all("z" in llama2[k] for k in ("clean", "not_clean", "not_dirty", "dirty"))
    rows = impact_table(impact)
    assert rows[0] == ("main", "0.500 (n = 2)", "0.000 (n = 1)", "1.000 (n = 1)", "-100.0%")
    assert [r[0] for r in rows] == ["main", "gpt3", "palm", "llama2 clean / not clean",
                                    "llama2 not dirty / dirty", "gpt4", "tulu3"]


def test_score_impact_without_definitions_has_main_only():
    impact = score_impact([1.0, None], ([True, False], [False, False]))
    assert list(impact) == ["rows_with_score", "rows_without_score", "main"]


# --- against a plain reference -------------------------------------------------------

scores_st = st.lists(st.one_of(st.none(), st.sampled_from([0.0, 1.0]),
                               st.floats(-100, 100).map(lambda x: round(x, 6))),
                     min_size=1, max_size=30)


@settings(max_examples=300, deadline=None)
@given(scores_st, st.data())
def test_figures_equal_the_statistics_module(scores, data):
    size = len(scores)
    considered = data.draw(st.lists(st.booleans(), min_size=size, max_size=size))
    subset = data.draw(st.lists(st.booleans(), min_size=size, max_size=size))
    whole = [s for s, c in zip(scores, considered) if c and s is not None]
    part = [s for s, c, m in zip(scores, considered, subset) if c and m and s is not None]
    rest = [s for s, c, m in zip(scores, considered, subset) if c and not m and s is not None]
    g = group_figures(scores, considered, subset)
    close = lambda x, y: (x is None and y is None) or math.isclose(x, y, rel_tol=1e-9,
                                                                   abs_tol=1e-9)
    mean = lambda xs: statistics.fmean(xs) if xs else None
    assert (g["all"]["count"], g["clean"]["count"], g["dirty"]["count"]) == \
        (len(whole), len(rest), len(part))
    assert close(g["all"]["mean"], mean(whole)) and close(g["dirty"]["mean"], mean(part))
    assert close(g["clean"]["mean"], mean(rest))
    out = subset_figures(scores, considered, {"clean": [not m for m in subset], "dirty": subset})
    big_n, n = len(whole), len(part)
    expected = None
    if big_n > 1 and 0 < n < big_n and statistics.pstdev(whole) > 0:
        sigma = statistics.pstdev(whole) / math.sqrt(n) * math.sqrt((big_n - n) / (big_n - 1))
        expected = (statistics.fmean(part) - statistics.fmean(whole)) / sigma
    got = out["dirty"]["z"]
    assert (got is None) == (expected is None)
    if got is not None:
        assert math.isclose(got, expected, rel_tol=1e-6, abs_tol=1e-6)


def test_lm_evaluation_harness_samples_join_by_row_number_even_beside_numeric_ids():
    """A's ids 1..6 overlap the samples' doc_id 0..5: the samples still join by row
    number (doc_id is A's 0-based row index), as the page does, and the scores are
    A's own acc in the same order."""
    from ngram_core.report.scores import LM_EVAL_NOTE, scores_from_results
    a_table = read_table((FIXTURES / "report" / "lm-eval-test-numbered.jsonl").read_bytes(),
                         "test.jsonl")
    a_rows = [Row(i + 1, str(r["id"]), r["question"]) for i, r in enumerate(a_table.records)]
    samples = read_table((FIXTURES / "report" / "lm-eval-samples.jsonl").read_bytes(),
                         "samples.jsonl")
    column = scores_from_results(a_rows, True, samples, "acc")
    assert column.notes[:2] == [f"matched {len(a_rows):,} of {len(a_rows):,} rows of A",
                                LM_EVAL_NOTE]
    assert column.scores == [parse_score(r["acc"]) for r in a_table.records]
