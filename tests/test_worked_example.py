"""The worked example of the product description, figure for figure."""

from conftest import EXAMPLES

from ngram_core import Settings, read_rows, run_check
from ngram_core.report.summary import counted_table, headline, percent, settings_line


def example():
    a = read_rows((EXAMPLES / "test-set.json").read_bytes(), "test-set.json")
    b = read_rows((EXAMPLES / "training-corpus.json").read_bytes(), "training-corpus.json")
    return a, b, run_check(a, b, Settings())


def test_summary_figures():
    _, _, result = example()
    s = result.summary
    assert (s.flagged, s.checkable, s.short, s.blank) == (2, 3, 1, 0)
    assert percent(s.flagged_share) == "66.7%"
    assert percent(s.dirty_share) == "31.3%"
    assert (s.dirty_tokens, s.tokens) == (26, 83)


def test_sentences_match_the_description():
    _, _, result = example()
    assert headline(result.summary) == (
        "2 of 3 checkable rows share at least one 13-token sequence with the other file, "
        "at n = 13 and a 0 percent threshold. 1 row is shorter than 13 tokens and 0 are "
        "blank, so they sit outside every denominator.")
    assert settings_line("test-set.json", "training-corpus.json", result.summary,
                         result.tokenizer.description) == (
        "test-set.json checked against training-corpus.json at n = 13 with a 0 percent "
        "threshold. Tokens split on runs of letters and digits, then normalized with "
        "L1+L3+L4.")
    assert counted_table(result.summary)[:5] == [
        ("Rows flagged", "2"), ("Rows checkable", "3"), ("Overall dirty-token share", "31.3%"),
        ("Rows shorter than 13 tokens", "1"), ("Rows with no text", "0")]


def test_per_row_table_worst_first():
    a, b, result = example()
    table = [(a[m.row].id, m.tokens, percent(m.share), m.span, m.windows,
              b[m.b_row].id if m.b_row is not None else "none") for m in result.ordered]
    assert table == [("a1", 18, "72.2%", 13, 1, "b1"),
                     ("a2", 40, "32.5%", 13, 1, "b2"),
                     ("a4", 25, "0.0%", 0, 0, "none")]


def test_highlight_marks_the_moon_sentence_in_both_panes():
    a, b, result = example()
    a_ranges, b_ranges = result.highlight(result.ordered[0])
    assert [a[0].text[s:e] for s, e in a_ranges] == [
        "In 1969 the Apollo 11 mission landed the first humans on the Moon"]
    assert [b[0].text[s:e] for s, e in b_ranges] == [
        "in 1969 the Apollo 11 mission landed the first humans on the Moon"]


def test_csv_of_the_example():
    _, _, result = example()
    assert result.csv().splitlines() == [
        "a_row,a_id,tokens,dirty_tokens,dirty_share,flagged,longest_span,windows,b_row,b_id,"
        "a_span_start,a_span_end,b_span_start,b_span_end,duplicate_of",
        "1,a1,18,13,0.7222222222222222,true,13,1,1,b1,0,65,6,71,",
        "2,a2,40,13,0.325,true,13,1,2,b2,86,161,38,113,",
        "4,a4,25,0,0.0,false,0,0,,,,,,,",
    ]
