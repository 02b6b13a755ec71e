"""Passages left out of matching (#37): a licence line or a stock phrase a person
dismisses. Where a left-out passage lies whole in an A row, no window holding one of
its tokens matches: exactly as if those tokens were words found nowhere in B. The
command, the streamed check and the copied command line agree."""

from __future__ import annotations

import io
import json
import random

from hypothesis import given, settings, strategies as st

from ngram_core import Row, Settings, run_check
from ngram_core.argv import command_arguments
from ngram_core.cli import main
from ngram_core.flags import passages_in
from ngram_core.run.stream import check_streamed

WORDS = ["a", "b", "c", "d"]
rows_of_words = st.lists(st.lists(st.sampled_from(WORDS), min_size=0, max_size=18),
                         min_size=1, max_size=6)


def replaced(rows: list[list[str]], passage: list[str]) -> list[list[str]]:
    """Each token of each whole occurrence of ``passage`` replaced by a word B never
    holds: the plain meaning of leaving the passage out."""
    out = []
    for r, row in enumerate(rows):
        covered = set()
        for g in range(len(row) - len(passage) + 1):
            if row[g:g + len(passage)] == passage:
                covered.update(range(g, g + len(passage)))
        out.append([f"zz{r}x{g}" if g in covered else w for g, w in enumerate(row)])
    return out


def as_rows(rows: list[list[str]], prefix: str) -> list[Row]:
    return [Row(i + 1, f"{prefix}{i}", " ".join(words)) for i, words in enumerate(rows)]


@settings(max_examples=300, deadline=None)
@given(rows_of_words, rows_of_words, st.integers(5, 7), st.data())
def test_leaving_a_passage_out_is_matching_as_if_its_tokens_were_nowhere_in_b(
        a_words, b_words, n, data):
    source = data.draw(st.sampled_from([row for row in a_words if row] or [["a"]]))
    start = data.draw(st.integers(0, len(source) - 1))
    passage = source[start:start + data.draw(st.integers(1, 4))]
    s = Settings(n=n, short_min=0, keep_template=True, leave_out=(" ".join(passage),))
    left = run_check(as_rows(a_words, "a"), as_rows(b_words, "b"), s)
    plain = run_check(as_rows(replaced(a_words, passage), "a"), as_rows(b_words, "b"),
                      Settings(n=n, short_min=0, keep_template=True))
    assert [(m.windows, m.dirty, m.span) for m in left.matches] == \
        [(m.windows, m.dirty, m.span) for m in plain.matches]
    assert left.summary.flagged == plain.summary.flagged
    holding = sum(any(row[g:g + len(passage)] == passage for g in range(len(row)))
                  for row in a_words)
    assert left.summary.left_out_rows == holding


def test_the_streamed_check_and_the_command_leave_out_the_same(tmp_path):
    rng = random.Random(3)
    licence = "licensed under the creative commons attribution share alike license"
    words = [f"w{k}" for k in range(5000)]
    a = [f"{' '.join(rng.choice(words) for _ in range(6))} {licence} item {i}"
         for i in range(8)]
    b = [f"page {i} {licence} {' '.join(rng.choice(words) for _ in range(20))}"
         for i in range(30)] + [a[3]]
    a_path, b_path = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a_path.write_text("".join(json.dumps({"id": f"a{i}", "text": t}) + "\n"
                              for i, t in enumerate(a)))
    b_path.write_text("".join(json.dumps({"id": f"b{i}", "text": t}) + "\n"
                              for i, t in enumerate(b)))
    listed = tmp_path / "left-out.txt"
    listed.write_text("\ufeff" + licence.upper() + "\n\n")       # a BOM, case, a blank line
    assert passages_in(str(listed)) == [licence.upper()]
    s = Settings(n=5, leave_out=(licence,))
    rows = [Row(i + 1, f"a{i}", t) for i, t in enumerate(a)]
    in_memory = run_check(rows, [Row(i + 1, f"b{i}", t) for i, t in enumerate(b)], s)
    streamed = check_streamed(rows, [str(b_path)], s)
    assert in_memory.summary.flagged == streamed.summary.flagged == 1     # a3, copied whole
    assert streamed.summary.left_out == [licence] and streamed.summary.left_out_rows == 8
    out = {}
    for flags in (["--leave-out", str(listed)], ["--leave-out-text", licence]):
        stdout, stderr = io.StringIO(), io.StringIO()
        assert main([str(a_path), str(b_path), "--n", "5", "--json", *flags],
                    stdout, stderr) == 0, stderr.getvalue()
        out[flags[0]] = json.loads(stdout.getvalue())
    assert out["--leave-out"]["flagged"] == out["--leave-out-text"]["flagged"] == 1
    assert out["--leave-out"]["left_out"] == [licence.upper()]
    stdout = io.StringIO()
    main([str(a_path), str(b_path), "--n", "5", "--json"], stdout, io.StringIO())
    assert json.loads(stdout.getvalue())["flagged"] == 8                # the licence, everywhere


def test_the_copied_command_line_carries_each_passage_left_out():
    args = command_arguments("a.jsonl", ["b.jsonl"], Settings(leave_out=("x y", "-z")), "0")
    assert args == ["a.jsonl", "b.jsonl", "--leave-out-text", "x y", "--leave-out-text=-z"]


def test_a_leave_out_file_that_is_not_text_is_named_with_its_line(tmp_path):
    path = tmp_path / "left-out.txt"
    path.write_bytes(b"fine\n\xff\xfe\n")
    stderr = io.StringIO()
    assert main(["a.jsonl", "b.jsonl", "--leave-out", str(path)], io.StringIO(), stderr) != 0
    assert stderr.getvalue().strip() == (f"ngram-overlap: {path}, line 2: is not valid UTF-8: "
                                         f"--leave-out reads one passage a line")
