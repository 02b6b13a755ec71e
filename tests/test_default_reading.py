"""No false clean by default: on files shaped like real benchmarks, the command with no
flags gives the figure of the text a person who knows the data set would choose.

Each case of ``fixtures/shapes/cases.json`` is a test set A and a training file B
written in a published layout (SQuAD JSON, LogiQA blocks, KorSTS TSV with literal
quotes, MMLU's headerless CSV...), the flags that read its intended text, and the A
rows made to leak into B. Both runs must flag exactly those rows, out of the same
checkable rows; a few other fixture pairs of the repository are held to the same rule.
Each case of ``fixtures/shapes/findings.json`` is a shape where the reading itself
lost leaks (a question joined with its options, a file's field order, a chat's label
replies, a text dump of documents, an eval file's shared prompt): with no flags the
command finds exactly the planted rows, and nothing against a clean training file.
Every pair finds with its defaults at least what its intended fields find.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from ngram_core.cli import main

FIXTURES = Path(__file__).parent / "fixtures"
SHAPES = FIXTURES / "shapes"
CASES = json.loads((SHAPES / "cases.json").read_text())

#: Other pairs of the repository: (A, B, the flags of the intended text).
OTHER_PAIRS = [
    ("../../static/examples/test-set.json", "../../static/examples/training-corpus.json",
     ["--a-field", "question", "--b-field", "text"]),
    ("page/squad.json", "page/squad-corpus.jsonl",
     ["--a-field", "data.paragraphs.context", "--a-field", "question"]),
    ("contaminated.jsonl", "corpus.txt", ["--b-text-rows", "line"]),
    ("page/arc.jsonl", "page/intents-train.jsonl", ["--a-field", "question"]),
    ("page/prompts.jsonl", "page/pages.csv", ["--a-field", "prompt", "--b-field", "contents"]),
    ("page/prompts.jsonl", "page/science-notes.txt", ["--b-text-rows", "paragraph"]),
    ("page/intents.json", "page/intents-train.jsonl", ["--a-field", "text"]),
    ("report/test-set.jsonl", "report/training.jsonl", ["--a-field", "question"]),
    ("report/squad.json", "report/training.jsonl",
     ["--a-field", "data.paragraphs.context", "--a-field", "question"]),
    ("unspaced/zh_test.jsonl", "unspaced/zh_train.jsonl", ["--a-field", "text"]),
    ("unspaced/ja_test.jsonl", "unspaced/ja_train.jsonl", ["--a-field", "text"]),
    ("unspaced/th_test.jsonl", "unspaced/th_train.jsonl", ["--a-field", "text"]),
    ("real/squad-dev.json", "page/squad-corpus.jsonl", ["--a-field", "question"]),
]


def check(tmp_path: Path, a: Path, bs: list[Path], flags: list[str]) -> tuple[dict, list[int]]:
    """The JSON summary and the flagged A rows (1-based) of one run of the command."""
    rows_csv = tmp_path / f"rows-{len(list(tmp_path.iterdir()))}.csv"
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a), *map(str, bs), "--json", "--rows-csv", str(rows_csv), *flags],
                out, err)
    assert code == 0, err.getvalue()
    with open(rows_csv, newline="", encoding="utf-8") as f:
        flagged = [int(r["a_row"]) for r in csv.DictReader(f) if r["flagged"] == "true"]
    return json.loads(out.getvalue()), flagged


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_defaults_flag_the_rows_the_intended_text_flags(tmp_path, case):
    a, bs = SHAPES / case["a"], [SHAPES / b for b in case["b"]]
    intended, intended_rows = check(tmp_path, a, bs, case["intended_args"])
    default, default_rows = check(tmp_path, a, bs, [])
    assert intended_rows == case["leaked"]          # the fixture leaks what it says
    assert default_rows == intended_rows, case["shape"]
    assert default["checkable"] == intended["checkable"]
    assert default["flagged_share"] == intended["flagged_share"]
    # the text read is named, and every field of A it names has its figures
    assert default["a_fields"] and [f["field"] for f in default["fields"]] == default["a_fields"]


@pytest.mark.parametrize("a, b, flags", OTHER_PAIRS, ids=[p[0] for p in OTHER_PAIRS])
def test_other_fixture_pairs_are_no_cleaner_by_default(tmp_path, a, b, flags):
    intended, intended_rows = check(tmp_path, FIXTURES / a, [FIXTURES / b], flags)
    default, default_rows = check(tmp_path, FIXTURES / a, [FIXTURES / b], [])
    assert set(intended_rows) <= set(default_rows)
    assert default["flagged"] >= intended["flagged"]


# --- findings: flagged, contained or duplicating a B row (#33) -------------------------

FINDING_CASES = json.loads((SHAPES / "findings.json").read_text())


def findings(tmp_path: Path, a: Path, bs: list[Path], flags: list[str]) -> set[int]:
    """The A rows (1-based) the command finds anything for: flagged, holding a short text
    (the row or a field) found whole in a B row, or equal to a whole B row."""
    rows_csv = tmp_path / f"rows-{len(list(tmp_path.iterdir()))}.csv"
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a), *map(str, bs), "--rows-csv", str(rows_csv), *flags], out, err)
    assert code == 0, err.getvalue()
    with open(rows_csv, newline="", encoding="utf-8") as f:
        return {int(r["a_row"]) for r in csv.DictReader(f)
                if r["flagged"] == "true" or r["contained_in"] or r["duplicate_of"]}


@pytest.mark.parametrize("case", FINDING_CASES, ids=[c["name"] for c in FINDING_CASES])
def test_defaults_find_every_planted_item_and_nothing_in_a_clean_file(tmp_path, case):
    a, b = SHAPES / case["a"], SHAPES / case["b"]
    default = findings(tmp_path, a, [b], [])
    assert default == set(case["planted"]), case["shape"]
    assert findings(tmp_path, a, [b], case["intended_args"]) <= default
    assert findings(tmp_path, a, [SHAPES / case["clean"]], []) == set()


ALL_PAIRS = ([(f"shapes/{c['a']}", [f"shapes/{b}" for b in c["b"]], c["intended_args"])
              for c in CASES] +
             [(f"shapes/{c['a']}", [f"shapes/{c['b']}"], c["intended_args"])
              for c in FINDING_CASES] +
             [(a, [b], flags) for a, b, flags in OTHER_PAIRS])


@pytest.mark.parametrize("a, bs, flags", ALL_PAIRS, ids=[p[0] for p in ALL_PAIRS])
def test_every_fixture_pair_finds_with_defaults_what_its_intended_fields_find(tmp_path, a, bs,
                                                                            flags):
    intended = findings(tmp_path, FIXTURES / a, [FIXTURES / b for b in bs], flags)
    default = findings(tmp_path, FIXTURES / a, [FIXTURES / b for b in bs], [])
    assert intended <= default
