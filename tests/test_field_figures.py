"""Rows read from several fields: the join changes no figure, each field's figures come
from the same matches, held to the plain-loop reference (tests/reference.py)."""

from __future__ import annotations

import csv
import io
import json

from hypothesis import HealthCheck, given, settings, strategies as st

import reference
from ngram_core import Row, Settings, run_check
from ngram_core.cli import main
from ngram_core.read.fields import NEAR_TIE, FieldStats, _name_rank, _order_tier
from ngram_core.method.tokenize import Tokenizer, tokenize_rows

WORDS = ["a", "b", "c", "A", "b,", "é", "e\u0301", "\u0301", "日", "本", "ก", "x\u00ady", "\u3099"]
field_text = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join) | \
    st.text(st.sampled_from("ab é\u0301日本กข\u3099\u200b\n"), max_size=20)
records = st.lists(st.lists(field_text, min_size=1, max_size=3), min_size=1, max_size=6)
NAMES = ("passage", "question", "answer")


def joined_rows(records_):
    """Rows whose text is their fields joined by a newline, with their parts."""
    rows = []
    for i, texts in enumerate(records_, 1):
        parts, at = [], 0
        for name, text in zip(NAMES, texts):
            parts.append((name, at, at + len(text)))
            at += len(text) + 1
        rows.append(Row(i, str(i), "\n".join(texts), tuple(parts)))
    return rows


@settings(max_examples=300, deadline=None)
@given(records, st.sampled_from(["loose", "strict"]))
def test_a_rows_tokens_are_its_fields_tokens_end_to_end(records_, mode):
    rows = joined_rows(records_)
    by_parts = tokenize_rows(rows, Tokenizer(mode), by_part=True)
    whole = tokenize_rows([r._replace(parts=()) for r in rows], Tokenizer(mode))
    assert list(by_parts.ids) == list(whole.ids) and by_parts.offsets == whole.offsets
    for r, row in enumerate(rows):
        counts = [len(reference.tokenize(row.text[s:e], mode)) for _, s, e in row.parts]
        ends = [sum(counts[:k + 1]) for k in range(len(counts))]
        assert by_parts.part_ends[r] == tuple(ends)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records, records, st.integers(5, 7), st.sampled_from(["loose", "strict"]))
def test_field_figures_equal_the_plain_loop_and_change_nothing_else(a, b, n, mode):
    a_rows = joined_rows(a)
    b_rows = joined_rows(b) + [Row(99, "x", "zz " + r.text + " zz") for r in a_rows[:2]]
    fields = (list(NAMES), list(NAMES))
    settings_ = Settings(n=n, mode=mode)
    result = run_check(a_rows, b_rows, settings_, fields=fields)
    plain = run_check([r._replace(parts=()) for r in a_rows], b_rows, settings_)
    assert result.csv() == plain.csv()
    tok = lambda text: [t for t, _, _ in reference.tokenize(text, mode)]
    b_tokens = [tok(r.text) for r in b_rows]
    totals: dict[str, list[int]] = {}
    for m, row in zip(result.matches, a_rows):
        if m.status != "checkable":
            continue
        covered = reference.covered_tokens(tok(row.text), b_tokens, n)
        begin, expected = 0, []
        for name, s, e in row.parts:
            end = begin + len(tok(row.text[s:e]))
            expected.append(sum(begin <= i < end for i in covered))
            t = totals.setdefault(name, [0, 0, 0, 0])
            t[0] += end - begin
            t[1] += expected[-1]
            t[2] += end > begin
            t[3] += expected[-1] > 0
            begin = end
        assert m.field_dirty == tuple(expected)
        assert sum(m.field_dirty) == m.dirty
    figures = {f.field: [f.tokens, f.dirty_tokens, f.rows, f.rows_matched]
               for f in result.summary.fields}
    assert figures == totals
    assert sum(f.tokens for f in result.summary.fields) == result.summary.tokens
    assert sum(f.dirty_tokens for f in result.summary.fields) == result.summary.dirty_tokens


stats = st.lists(st.builds(lambda name, tokens, chars: FieldStats(name, float(tokens),
                                                                   float(chars), "", False,
                                                                   False, "text"),
                           st.sampled_from(["text", "question", "x", "y", "body"]),
                           st.integers(0, 8), st.integers(0, 6)), max_size=12)


@settings(max_examples=500, deadline=None)
@given(stats)
def test_field_order_equals_the_plain_loop(group):
    """The near-tie order, O(k log k) (10,000 columns of one word in well under a second),
    is the plain loop's order."""
    got = _order_tier(group)
    want = reference.order_fields(group, NEAR_TIE, _name_rank)
    assert [id(s) for s in got] == [id(s) for s in want]


def test_the_command_gives_each_field_its_figures(tmp_path):
    """A passage that leaked and a question that did not, read apart from one check."""
    passage = ("The Apollo eleven crew landed on the Moon in July of nineteen sixty nine "
               "and walked on its surface for hours before flying home")
    a = tmp_path / "test.jsonl"
    a.write_text("".join(json.dumps({"id": f"q{i}", "passage": passage,
                                     "question": f"What did the crew of mission {i} bring "
                                                 f"back to Earth for the scientists there?"})
                         + "\n" for i in range(3)))
    b = tmp_path / "web.jsonl"
    b.write_text(json.dumps({"text": "From the archive: " + passage + ". More text."}) + "\n")
    out, err = io.StringIO(), io.StringIO()
    assert main([str(a), str(b), "--json", "--rows-csv", str(tmp_path / "rows.csv")],
                out, err) == 0
    summary = json.loads(out.getvalue())
    assert summary["a_fields"] == ["passage", "question"] and summary["b_fields"] == ["text"]
    by_field = {f["field"]: f for f in summary["fields"]}
    assert by_field["passage"]["dirty_share"] == 1.0 and by_field["passage"]["rows_matched"] == 3
    assert by_field["question"]["dirty_tokens"] == 0 and by_field["question"]["rows"] == 3
    rows_csv = (tmp_path / "rows.csv").read_text().splitlines()
    assert rows_csv[0].endswith(",b_file,matched_fields,contained_field,similar_b_row,similarity,"
                                "rephrased")
    assert all((r["matched_fields"], r["contained_field"]) == ("passage", "")
               for r in csv.DictReader(rows_csv))
    assert "passage     " in err.getvalue() and "100.0%" in err.getvalue()
