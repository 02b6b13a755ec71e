"""The report's words, in CPython (#19): definitions and parameters as a person reads
them, plural agreement, and what the score impact says about the join.

The page shows the published definitions and their parameters in words and
keeps the JSON's names in small print or a tooltip; here every definition and
every parameter the engine publishes is held to having words, so a new one
cannot appear on the page as code. The score sentences are checked on the
fixtures the browser tests use: an lm-evaluation-harness samples file joins by
row number even where file A's ids are numbers (the engine alone would join
those by id, one row off), a plain results file joins as the command does,
and a file matching nothing says why and what to choose.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from conftest import FIXTURES

from ngram_core.report.contamination import ScoreSource, score_column
from ngram_core.report.definitions import NAMES, compute_definitions
from ngram_core.read.fields import read_rows
from ngram_core.read.readers import read_table_steps
from ngram_core.report.scores import impact_table, score_impact
from ngram_core.steps import run_steps
from ngram_core.table import Row
from ngram_page.charts import (COUNT_WORDS, RULE_WORDS, definition_label, definition_title,
                               impact_label, parameter_words)
from ngram_page.results_file import lm_eval_samples, score_view
from ngram_page.text import field_label

REPORT = FIXTURES / "report"
WORDS = "w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12"


def definitions():
    return compute_definitions([Row(1, "a", WORDS), Row(2, "b", "w1")], [Row(1, "x", WORDS)])


def test_every_published_definition_and_parameter_has_words():
    for d in definitions():
        assert d.name in RULE_WORDS and d.name in COUNT_WORDS
        label = definition_label(d.name)
        assert label.startswith(definition_title(d.name) + " (") and d.name not in label
        said = parameter_words(d.name, d.parameters)
        assert [code for _, code in said] == [f"{k} = {v}" for k, v in d.parameters.items()]
        for (words, code), (key, value) in zip(said, d.parameters.items()):
            assert words != code and "_" not in words and str(value) in words, (d.name, key)
    assert parameter_words("gpt3", {"n_min": 8, "max_b_rows": 10}) == [
        ("shortest n: 8", "n_min = 8"),
        ("ignore n-grams in more than 10 training rows", "max_b_rows = 10")]


def test_the_score_table_names_each_group_in_words():
    impact = score_impact([1.0, 0.0], ([True, True], [True, False]), definitions())
    firsts = [line[0] for line in impact_table(impact)]
    said = [impact_label(first) for first in firsts]
    assert [name for _, name in said] == ["main", *NAMES[:2], "llama2", "llama2", *NAMES[3:]]
    assert said[0][0] == "the check above"
    assert [w for w, _ in said[3:5]] == ["Llama 2: clean / not clean", "Llama 2: not dirty / dirty"]
    for words, name in said:
        assert name not in words


def test_one_token_a_row_is_singular():
    assert field_label("label", 1, "0", "number") == 'label \u2014 1 token/row, numbers \u2014 "0"'
    assert field_label("x", 1.04, "") == "x \u2014 1.0 tokens/row"
    assert field_label("x", 2, "") == "x \u2014 2 tokens/row"
    assert field_label("x", 0, "") == "x \u2014 0 tokens/row"


def read(name):
    data = (REPORT / name).read_bytes()
    return run_steps(read_table_steps(data, name)), read_rows(data, name)


@pytest.mark.parametrize("a", ["lm-eval-test.jsonl", "lm-eval-test-numbered.jsonl"])
def test_lm_evaluation_harness_samples_join_by_row_number(a):
    table, rows = read(a)
    result = SimpleNamespace(a_rows=rows)
    samples, _ = read("lm-eval-samples.jsonl")
    assert lm_eval_samples(samples.fields)
    view = score_view(result, table, None, ScoreSource(results=samples, results_field="acc"))
    own = score_view(result, table, None, ScoreSource(field="acc"))
    assert view.column.scores == own.column.scores == [1.0, 0.0, 1.0, 1.0, 0.0, 0.0]
    assert view.empty == ""
    assert view.before.startswith("Scores from field acc of lm-eval-samples.jsonl, joined by "
                                  "doc_id: matched 6 of 6 rows of file A. Joined by row number")
    # the command's join is the same, even where A's ids 1 to 6 overlap doc_id 0 to 5
    engine = score_column(result, table, None, ScoreSource(results=samples, results_field="acc"))
    assert engine.scores == view.column.scores


def test_a_plain_results_file_joins_as_the_command_does():
    table, rows = read("test-set.jsonl")
    results, _ = read("results.jsonl")            # doc_id, doc and acc: not lm-eval's shape
    assert not lm_eval_samples(results.fields)
    result = SimpleNamespace(a_rows=rows)
    source = ScoreSource(results=results, results_field="acc")
    view = score_view(result, table, None, source)
    assert view.column.scores == score_column(result, table, None, source).scores
    assert view.before.startswith("Scores from field acc of results.jsonl, joined by doc_id: "
                                  "matched 3 of 4 rows of file A.")


def test_nothing_matched_or_scored_says_why_and_what_to_choose():
    table, rows = read("lm-eval-test.jsonl")
    result = SimpleNamespace(a_rows=rows)
    other, _ = read("lm-eval-samples-other-split.jsonl")
    view = score_view(result, table, None, ScoreSource(results=other, results_field="acc"))
    assert view.column is None
    assert "matched 0 of 6 rows of file A" in view.before
    assert "are not row numbers of file A (0 to 5)" in view.empty
    assert view.empty.endswith("Choose the samples file of the task and split that file A "
                               "holds, or, as file A, that split in the order "
                               "lm-evaluation-harness read it.")
    view = score_view(result, table, None, ScoreSource(results=other, results_field="acc",
                                                       results_key="doc_hash"))
    assert view.column is None and "joined by their id (\u201cMercury_7175875\u201d" in view.empty
    assert "Choose the key field of lm-eval-samples-other-split.jsonl that holds file A's ids" \
        in view.empty
    view = score_view(result, table, None, ScoreSource(field="answerKey"))
    assert view.column is None
    assert view.empty.startswith("No row of file A has a score in field answerKey: its values "
                                 "(\u201cC\u201d, \u201cB\u201d, \u201cD\u201d)")
    samples, _ = read("lm-eval-samples.jsonl")
    view = score_view(result, table, None,
                      ScoreSource(results=samples, results_field="doc.answerKey"))
    assert view.column is None
    assert view.empty.startswith("None of the 6 matched rows of file A has a score in field "
                                 "doc.answerKey of lm-eval-samples.jsonl")


def test_counts_of_a_thousand_or_more_have_separators():
    """"1190 of 1190" read as one number; the sentence says "1,190 of 1,190" (#37)."""
    from ngram_core import Row, Settings, run_check
    from ngram_core.report.summary import headline
    texts = [" ".join(f"w{i}x{k}" for k in range(14)) for i in range(1190)]
    rows = [Row(i + 1, f"r{i}", t) for i, t in enumerate(texts)]
    sentence = headline(run_check(rows, rows, Settings()).summary)
    assert sentence.startswith("1,190 of 1,190 checkable rows share at least one")


def test_a_relative_difference_that_rounds_to_nothing_has_no_sign():
    from ngram_core.report.scores import IMPACT_HEADER, _percent
    assert _percent(-0.00004) == "0.0%" and _percent(0.00004) == "0.0%"
    assert _percent(-0.0123) == "-1.2%"
    assert IMPACT_HEADER[-1] == "Relative difference, (clean − all) / all"
