"""The test file's template (#33): windows shared by most of A's rows (a shared
instruction, fixed few-shot examples) are left out of matching, named in the reading,
counted in the summary; a passage shared by a few questions is not a template."""

from __future__ import annotations

import io
import json
import math

from hypothesis import HealthCheck, given, settings, strategies as st

from ngram_core import Row, Settings, run_check
from ngram_core.cli import main
from ngram_core.run.distributed import check_distributed
from ngram_core.read.files import fields_of, load_rows_by_file
from ngram_core.method.template import TEMPLATE_MIN_ROWS, find_template
from ngram_core.method.tokenize import Tokenizer, tokenize_rows

N = 5
INSTRUCTION = "Read the passage below and answer the question with a single short phrase."
ITEMS = [f"{i} asks about the color number {i} of the flag of country {i}" for i in range(16)]


def reference_windows(texts: list[list[str]], n: int) -> set[tuple[str, ...]]:
    """A plain loop: the windows in at least half of the rows with text, and in 10."""
    with_text = [t for t in texts if t]
    need = max(TEMPLATE_MIN_ROWS, math.ceil(len(with_text) / 2))
    counts: dict[tuple[str, ...], int] = {}
    for tokens in with_text:
        for window in {tuple(tokens[g:g + n]) for g in range(len(tokens) - n + 1)}:
            counts[window] = counts.get(window, 0) + 1
    return {w for w, c in counts.items() if c >= need and len(with_text) >= need}


# two common words and a rarer one, so that a row may hold several runs of common words
rows_of_words = st.lists(st.lists(st.sampled_from("aaabbbc"), max_size=14), min_size=0,
                         max_size=24)


@settings(max_examples=400, deadline=None)
@given(rows_of_words)
def test_the_template_is_the_windows_most_rows_share(texts):
    tokenizer = Tokenizer()
    a = tokenize_rows([Row(i + 1, str(i), " ".join(t)) for i, t in enumerate(texts)], tokenizer)
    found = find_template(a, N, tokenizer)
    ids = {word: tokenizer.vocabulary[word] for word in "abc" if word in tokenizer.vocabulary}
    expected = {b"".join(ids[w].to_bytes(4, "little") for w in window)
                for window in reference_windows(texts, N)}
    assert set(found.windows) == expected
    assert found.rows == sum(1 for t in texts
                             if any(tuple(t[g:g + N]) in reference_windows(texts, N)
                                    for g in range(len(t) - N + 1)))


def prompts() -> list[Row]:
    return [Row(i + 1, f"r{i}", f"{INSTRUCTION}\n{item}") for i, item in enumerate(ITEMS)]


def test_a_shared_instruction_matches_nothing_but_the_item_still_does():
    b = [Row(1, "w1", f"A worked prompt. {INSTRUCTION} Some example follows."),
         Row(2, "w2", f"Leaked: {ITEMS[3]} and more.")]
    kept = run_check(prompts(), b, Settings(keep_template=True))
    assert kept.summary.flagged == 16                   # every row, on the instruction alone
    result = run_check(prompts(), b, Settings())
    assert [m.row for m in result.matches if m.windows] == [3]
    s = result.summary
    assert s.template_rows == 16 and s.template_windows > 0 and len(s.template) == 1
    assert s.template[0].startswith("text: a passage of 13 tokens shared by 16 of 16 rows")
    # the highlight marks the item only, never the instruction
    a_ranges, _ = result.highlight(result.matches[3])
    text = result.a_rows[3].text
    assert [text[s:e] for s, e in a_ranges] == [ITEMS[3]]


def test_a_passage_shared_by_a_few_questions_is_no_template():
    passage = "The old lighthouse on the northern cape was built in 1871 from local granite."
    rows = [Row(i + 1, str(i), f"{passage if i < 4 else f'Passage number {i} is different.'}\n"
                               f"Question {i} about it?") for i in range(40)]
    b = [Row(1, "w", f"History page: {passage}")]
    result = run_check(rows, b, Settings())
    assert result.summary.template_windows == 0
    assert [m.row for m in result.matches if m.windows] == [0, 1, 2, 3]


def test_fewer_than_ten_rows_have_no_template():
    rows = prompts()[:9]
    b = [Row(1, "w", INSTRUCTION)]
    assert run_check(rows, b, Settings()).summary.flagged == 9


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(st.lists(st.integers(0, 15), min_size=0, max_size=4), st.sampled_from([64, 1 << 20]),
       st.booleans())
def test_streamed_leaves_out_the_same_template_as_indexed(tmp_path, leaked, blocksize, keep):
    a_path, b_path = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a_path.write_text("".join(json.dumps({"id": r.id, "prompt": r.text}) + "\n"
                              for r in prompts()))
    b_path.write_text("".join(json.dumps({"text": t}) + "\n" for t in
                              [f"Intro. {INSTRUCTION} {ITEMS[0].split()[0]}",
                               *(f"Quote: {INSTRUCTION}\n{ITEMS[i]}" for i in leaked)]))
    a_rows, _, _ = load_rows_by_file([str(a_path)], ["prompt"])
    b_rows, b_files, b_reads = load_rows_by_file([str(b_path)], ["text"])
    s = Settings(keep_template=keep)
    indexed = run_check(a_rows, b_rows, s, b_files, fields=(["prompt"], fields_of(b_reads)))
    streamed = check_distributed(None, a_rows, [str(b_path)], s, a_fields=["prompt"],
                                 b_fields=["text"], blocksize=blocksize)
    assert streamed.summary.as_dict() == indexed.summary.as_dict()
    assert streamed.rows_csv() == indexed.rows_csv()
    if not keep:
        assert {m.row for m in indexed.matches if m.windows} == set(leaked)


def test_the_command_names_the_template_and_keeps_it_on_request(tmp_path):
    a, b = tmp_path / "requests.jsonl", tmp_path / "train.jsonl"
    a.write_text("".join(json.dumps({"id": r.id, "prompt": r.text}) + "\n" for r in prompts()))
    b.write_text(json.dumps({"text": f"Tutorial: {INSTRUCTION}"}) + "\n")
    out, err = io.StringIO(), io.StringIO()
    assert main([str(a), str(b), "--json"], out, err) == 0
    summary = json.loads(out.getvalue())
    assert (summary["flagged"], summary["template_rows"]) == (0, 16)
    assert "shared by 16 of 16 rows left out as the file's template" in err.getvalue()
    assert "--keep-template checks it" in err.getvalue()
    out = io.StringIO()
    assert main([str(a), str(b), "--json", "--keep-template"], out, io.StringIO()) == 0
    kept = json.loads(out.getvalue())
    assert (kept["flagged"], kept["template_rows"]) == (16, 0)


def test_rows_that_are_all_template_are_their_own_items():
    """A file of one text repeated (or rows holding nothing but the shared text) has no
    item apart from it: masking it would call a copied row clean."""
    rows = [Row(i + 1, str(i), INSTRUCTION) for i in range(12)]
    b = [Row(1, "w", f"Copied: {INSTRUCTION}")]
    result = run_check(rows, b, Settings())
    assert result.summary.flagged == 12 and result.summary.template_rows == 0
