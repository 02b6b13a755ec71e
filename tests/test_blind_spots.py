"""The method's blind spots closed (#10): short rows found whole in B, boilerplate
windows ignored, wrapped text read by paragraph, and a CSV of every row.
Expected values are worked out by hand in each test."""

from __future__ import annotations

import csv
import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import EXAMPLES
from ngram_core import Row, Settings, read_rows, run_check
from ngram_core.method import match
from ngram_core.cli import main
from ngram_core.report.export import REPHRASE_COLUMNS, ROWS_CSV_COLUMNS
from ngram_core.report.summary import headline
from ngram_core.steps import run_steps
from ngram_core.method.tokenize import Tokenizer, tokenize_rows

BOILER = ("this dataset is released under the creative commons attribution license version "
          "four international")                                   # 13 tokens
WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron"


def rows(*texts: str, prefix: str = "r") -> list[Row]:
    return [Row(i, f"{prefix}{i}", t) for i, t in enumerate(texts, 1)]


# --- contained short rows ------------------------------------------------------------

def test_a_short_row_inside_a_b_row_is_contained_at_its_first_place():
    question = "Which planet in our solar system has the most moons"      # 10 tokens
    a = rows(question)
    b = rows("nothing here", f"Quiz: {question}? Saturn, as of 2023.", f"again {question}")
    result = run_check(a, b, Settings())
    m = result.matches[0]
    assert (m.status, m.tokens, m.contained_in, m.contained_start) == ("short", 10, 1, 1)
    start, end = m.contained_chars
    assert b[1].text[start:end] == question                # [start, end) in B row 2
    assert result.summary.contained == 1 and result.summary.short == 1
    assert result.summary.checkable == 0                  # short rows stay out of denominators
    assert headline(result.summary).endswith(
        " 1 of the short rows is contained whole in a row of the other file.")


def test_containment_needs_short_min_tokens_and_is_off_at_zero():
    a = rows("one two three four five six seven", "one two three four five six seven eight")
    b = rows("zero one two three four five six seven eight nine")
    got = [m.contained_in for m in run_check(a, b, Settings()).matches]
    assert got == [None, 0]                               # 7 tokens < 8, 8 tokens >= 8
    assert [m.contained_in for m in run_check(a, b, Settings(short_min=7)).matches] == [0, 0]
    assert [m.contained_in for m in run_check(a, b, Settings(short_min=0)).matches] == [None, None]


def test_containment_sees_every_b_position_whatever_the_cap():
    short = "w1 w2 w3 w4 w5 w6 w7 w8 w9"
    # the row's first 8 tokens occur 40 times before the whole row does
    b = rows(*["w1 w2 w3 w4 w5 w6 w7 w8 x"] * 40, f"y {short} z")
    m = run_check(rows(short), b, Settings(cap=1, max_b_rows=1)).matches[0]
    assert (m.contained_in, m.contained_start) == (40, 1)


def test_a_checkable_row_is_never_contained():
    text = " ".join(WORDS.split()[:13])
    m = run_check(rows(text), rows(text), Settings()).matches[0]
    assert m.status == "checkable" and m.contained_in is None and m.duplicate_of == 0


# --- the frequency filter -------------------------------------------------------------

def test_a_window_in_more_than_k_b_rows_is_no_match():
    a = rows(f"{BOILER} and then the real question about orbital mechanics follows here")
    b = rows(*(f"{BOILER} {w}" for w in ("first", "second", "third")))
    assert run_check(a, b, Settings()).summary.flagged == 1
    kept = run_check(a, b, Settings(max_b_rows=3))
    assert kept.summary.flagged == 1 and kept.summary.windows_ignored == 0
    filtered = run_check(a, b, Settings(max_b_rows=2))
    m = filtered.matches[0]
    assert (m.windows, m.dirty, m.span, m.b_row) == (0, 0, 0, None)
    assert filtered.summary.flagged == 0 and filtered.summary.windows_ignored == 1
    assert filtered.most_repeated[0][0] == 3       # the boilerplate, in 3 rows


def test_a_window_repeated_inside_one_row_counts_that_row_once():
    a = rows(BOILER)
    b = rows(f"{BOILER} {BOILER}", "unrelated words only here")
    assert run_check(a, b, Settings(max_b_rows=1)).summary.flagged == 1


def test_duplicates_and_contained_rows_ignore_the_filter():
    short = "under the creative commons attribution license version four"      # 8 tokens
    a = rows(BOILER, short)
    b = rows(BOILER, BOILER, BOILER)
    result = run_check(a, b, Settings(max_b_rows=1))
    assert [m.duplicate_of for m in result.matches] == [0, None]
    assert [m.contained_in for m in result.matches] == [None, 0]
    assert result.summary.flagged == 0


# --- plain text by paragraph ------------------------------------------------------------

WRAPPED = ("In 1969 the Apollo 11 mission landed\nthe first humans on the Moon and\n"
           "returned them safely home.\n\nA second paragraph about something else.\n")


def test_wrapped_text_read_by_paragraph_matches_across_line_breaks():
    a = rows("In 1969 the Apollo 11 mission landed the first humans on the Moon and "
             "returned them safely home.")
    by_line = read_rows(WRAPPED.encode(), "b.txt")
    by_paragraph = read_rows(WRAPPED.encode(), "b.txt", text_rows="paragraph")
    whole = read_rows(WRAPPED.encode(), "b.txt", text_rows="file")
    assert len(by_line) == 5 and len(by_paragraph) == 2 and len(whole) == 1
    assert run_check(a, by_line, Settings()).summary.flagged == 0
    assert run_check(a, by_paragraph, Settings()).matches[0].span == 18
    assert run_check(a, whole, Settings()).matches[0].span == 18


# --- the command -----------------------------------------------------------------------

def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_rows_csv_has_every_row_of_the_worked_example(tmp_path):
    a, b = str(EXAMPLES / "test-set.json"), str(EXAMPLES / "training-corpus.json")
    assert run(a, b, "--rows-csv", str(tmp_path / "rows.csv"))[0] == 0
    table = list(csv.reader(io.StringIO((tmp_path / "rows.csv").read_text(), newline="")))
    assert tuple(table[0]) == ROWS_CSV_COLUMNS + REPHRASE_COLUMNS
    assert table[1:] == [
        ["1", "a1", "checkable", "18", "13", "0.7222222222222222", "true", "13", "1", "1", "b1",
         "", "", "", "", b, "1", "0.783", "true"],
        ["2", "a2", "checkable", "40", "13", "0.325", "true", "13", "1", "2", "b2",
         "", "", "", "", b, "", "", "false"],
        ["3", "a3", "short", "10", "", "", "", "", "", "", "", "", "", "", "", "",
         "3", "0.326", "false"],
        ["4", "a4", "checkable", "25", "0", "0.0", "false", "0", "0", "", "", "", "", "", "",
         "", "", "", "false"],
    ]


def test_command_flags_for_the_blind_spots(tmp_path):
    a = tmp_path / "a.jsonl"
    a.write_text(json.dumps({"id": "q1", "text": "Which planet has the most moons of all"}) + "\n")
    b = tmp_path / "b.txt"
    b.write_text("Trivia: which planet has the most moons\nof all? Saturn.\n\nOther text.\n")
    code, out, _ = run(str(a), str(b), "--json", "--b-text-rows", "paragraph",
                       "--rows-csv", str(tmp_path / "rows.csv"))
    summary = json.loads(out)
    assert code == 0 and (summary["contained"], summary["short_min"]) == (1, 8)
    line = (tmp_path / "rows.csv").read_text().splitlines()[1].split(",")
    assert line[2] == "short" and line[12:15] == ["1", "8", "46"] and line[15] == str(b)
    assert json.loads(run(str(a), str(b), "--json", "--short-min", "0")[1])["contained"] == 0
    code, out, _ = run(str(a), str(b), "--json", "--max-b-rows", "1")
    assert code == 0 and json.loads(out)["max_b_rows"] == 1


@pytest.mark.parametrize("flag, value, message", [
    ("--short-min", "-1", "short-min: must be a whole number, 0 or more"),
    ("--max-b-rows", "0", "max-b-rows: must be a whole number, 1 or more"),
])
def test_out_of_range_blind_spot_settings_exit_2(flag, value, message):
    a, b = str(EXAMPLES / "test-set.json"), str(EXAMPLES / "training-corpus.json")
    code, _, err = run(a, b, flag, value)
    assert code == 2 and message in err


# --- containment against a plain loop, by both of its strategies ------------------------

def contained_reference(a_rows, b_rows, n, short_min):
    """{a_row: (b_row, b_start)}: the first B row holding the whole short row, earliest place."""
    found = {}
    for i, row in enumerate(a_rows):
        if not short_min or not short_min <= len(row) < n:
            continue
        for r, b_row in enumerate(b_rows):
            starts = [p for p in range(len(b_row) - len(row) + 1) if b_row[p:p + len(row)] == row]
            if starts:
                found[i] = (r, starts[0])
                break
    return found


small_rows = st.lists(st.lists(st.sampled_from("abc"), max_size=9), min_size=1, max_size=8)


@settings(max_examples=200, deadline=None)
@given(small_rows, small_rows, st.integers(0, 3), st.booleans())
def test_contained_rows_equal_a_plain_loop_by_search_and_by_scan(a, b, short_min, scan):
    tokenizer = Tokenizer()
    a_tok = tokenize_rows([Row(i + 1, str(i), " ".join(r)) for i, r in enumerate(a)], tokenizer)
    b_tok = tokenize_rows([Row(i + 1, str(i), " ".join(r)) for i, r in enumerate(b)], tokenizer)
    original = match.SEARCH_EACH_MAX
    match.SEARCH_EACH_MAX = -1 if scan else 10**9      # every position scanned, or each searched
    try:
        pieces = match.short_pieces(a_tok, 5, short_min)
        found = run_steps(match.contained_steps(a_tok, b_tok, pieces, short_min=short_min))
    finally:
        match.SEARCH_EACH_MAX = original
    assert {pieces[p].row: at for p, at in found.items()} == contained_reference(a, b, 5, short_min)
