"""No join of fields hides a finding: a row read from several fields finds whatever each
field finds read alone (#33).

A field of fewer than n tokens (at least ``short_min``) that a B row holds whole makes
its row *contained*, whether the row is short or checkable; windows are taken inside
each field and across the joins, so a field's windows are found in the joined row too.
Checked against a plain loop over random rows, in memory and streamed.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings, strategies as st

from ngram_core import Row, Settings, run_check
from ngram_core.run.distributed import check_distributed
from ngram_core.read.files import fields_of, load_rows_by_file

N, SHORT_MIN = 5, 2
FIELDS = ("context", "question", "answer")

words = st.lists(st.sampled_from("abcd"), min_size=0, max_size=8)
rows_of_fields = st.lists(st.lists(words, min_size=2, max_size=3), min_size=1, max_size=6)
b_texts = st.lists(st.lists(st.sampled_from("abcd"), min_size=1, max_size=14),
                   min_size=1, max_size=6)


def joined_row(number: int, fields: list[list[str]]) -> Row:
    """A row read from fields, as the readers make one: non-empty fields joined by a
    newline, each named in ``parts`` with its ``[start, end)`` characters."""
    text, parts = "", []
    for name, tokens in zip(FIELDS, fields):
        value = " ".join(tokens)
        if not value:
            continue
        if text:
            text += "\n"
        parts.append((name, len(text), len(text) + len(value)))
        text += value
    return Row(number, str(number), text, tuple(parts) if len(parts) > 1 else ())


def holds(b_rows: list[list[str]], piece: list[str]) -> bool:
    k = len(piece)
    return any(row[p:p + k] == piece for row in b_rows for p in range(len(row) - k + 1))


def reference_contained(fields: list[list[str]], b_rows: list[list[str]]) -> bool:
    """A plain loop: the whole row, or any field of it, of SHORT_MIN to N - 1 tokens, is
    held whole by some B row."""
    pieces = [tokens for tokens in fields if tokens]
    whole = [t for tokens in pieces for t in tokens]
    candidates = [whole, *pieces] if len(pieces) > 1 else [whole]
    return any(SHORT_MIN <= len(p) < N and holds(b_rows, p) for p in candidates)


def b_rows_of(texts: list[list[str]]) -> list[Row]:
    return [Row(i + 1, f"b{i}", " ".join(t)) for i, t in enumerate(texts)]


@settings(max_examples=300, deadline=None)
@given(rows_of_fields, b_texts)
def test_joined_reading_finds_what_every_field_finds_alone(rows, b_texts):
    s = Settings(n=N, short_min=SHORT_MIN)
    b = b_rows_of(b_texts)
    joined = run_check([joined_row(i + 1, f) for i, f in enumerate(rows)], b, s).matches
    for r, fields in enumerate(rows):
        m = joined[r]
        assert (m.contained_in is not None) == reference_contained(fields, b_texts)
        present = [tokens for tokens in fields if tokens]     # the row's parts, in order
        for k, tokens in enumerate(present):
            alone = run_check([Row(1, "1", " ".join(tokens))], b, s).matches[0]
            if alone.contained_in is not None:          # a short field found whole alone
                assert m.contained_in is not None
            if alone.windows:                           # its windows lie in the joined row
                assert m.windows >= alone.windows
                in_field = m.field_dirty[k] if m.field_dirty is not None else m.dirty
                assert in_field >= alone.dirty
        if m.contained_in is not None:                  # the piece named is really in B
            a_row, b_row = joined_row(1, fields), b[m.contained_in]
            if m.contained_part is None:
                assert m.contained_tokens == m.tokens
            else:
                name = a_row.parts[m.contained_part][0]
                assert list(FIELDS).index(name) < len(fields)
            held = b_row.text.split()[m.contained_start:m.contained_start + m.contained_tokens]
            assert SHORT_MIN <= len(held) == m.contained_tokens < N


def test_a_short_question_joined_with_its_options_is_found_quoted_with_its_answer():
    """The multiple-choice case: 12 question tokens + options make a checkable row whose
    every window crosses into the options; the web page quotes the question and answer."""
    question = "Which gas do plants take in from the air to make food"    # 12 tokens
    choices = "Oxygen\nCarbon dioxide\nNitrogen\nHelium"
    a = [Row(1, "q1", f"{question}\n{choices}", (("question", 0, len(question)),
             ("choices", len(question) + 1, len(question) + 1 + len(choices))))]
    b = [Row(1, "w1", f"Quiz answers. {question}? Answer: carbon dioxide. Next question.")]
    m = run_check(a, b, Settings()).matches[0]
    assert m.status == "checkable" and m.windows == 0          # no 13-token window matches
    assert (m.contained_in, m.contained_part, m.contained_tokens) == (0, 0, 12)
    result = run_check(a, b, Settings())
    s = result.summary
    assert (s.flagged, s.contained, s.contained_checkable, s.contained_unflagged) == (0, 1, 1, 1)
    header, line = result.rows_csv().splitlines()
    assert header.endswith(",matched_fields,contained_field,similar_b_row,similarity,rephrased")
    assert line.rsplit(",", 3)[0].endswith(",,question")       # then the rephrase lens's cells
    start, end = map(int, line.split(",")[13:15])
    assert b[0].text[start:end] == question


def write_jsonl(path, records) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(rows_of_fields, b_texts, st.sampled_from([64, 1 << 20]))
def test_streamed_finds_the_same_contained_fields_as_indexed(tmp_path, rows, b_texts, blocksize):
    a_path, b_path = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_jsonl(a_path, [{"id": f"a{i}", **{name: " ".join(t) for name, t in zip(FIELDS, f)}}
                         for i, f in enumerate(rows)])
    write_jsonl(b_path, [{"id": f"b{i}", "text": " ".join(t)} for i, t in enumerate(b_texts)])
    a_fields = list(FIELDS[:min(len(f) for f in rows)])
    a_rows, _, _ = load_rows_by_file([str(a_path)], a_fields)
    b_rows, b_files, b_reads = load_rows_by_file([str(b_path)], ["text"])
    s = Settings(n=N, short_min=SHORT_MIN)
    indexed = run_check(a_rows, b_rows, s, b_files, fields=(a_fields, fields_of(b_reads)))
    streamed = check_distributed(None, a_rows, [str(b_path)], s, a_fields=a_fields,
                                 b_fields=["text"], blocksize=blocksize)
    assert streamed.summary.as_dict() == indexed.summary.as_dict()
    assert streamed.rows_csv() == indexed.rows_csv()


def test_a_short_row_found_by_one_of_its_fields_is_said_so():
    from ngram_core.report.summary import headline
    question, options = "Which organ of the human body makes insulin", "Liver\nPancreas"
    a = [Row(1, "q1", f"{question}\n{options}", (("question", 0, len(question)),
         ("choices", len(question) + 1, len(question) + 1 + len(options))))]
    b = [Row(1, "w1", f"Biology notes: {question.lower()}? The pancreas does.")]
    s = run_check(a, b, Settings()).summary
    assert (s.short, s.contained, s.contained_checkable, s.contained_fields) == (1, 1, 0, 1)
    assert headline(s).endswith(" 1 of the short rows is contained whole in a row of the other "
                                "file (by one of its fields).")
