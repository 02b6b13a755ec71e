"""The command's contamination report (#11): definitions, score impact, the clean split."""

from __future__ import annotations

import csv
import io
import json

from conftest import FIXTURES

from ngram_core.cli import main
from ngram_core.report.definitions import NAMES
from ngram_core.report.export import REPHRASE_COLUMNS
from ngram_core.read.fields import read_rows

A = str(FIXTURES / "report" / "test-set.jsonl")
B = str(FIXTURES / "report" / "training.jsonl")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_definitions_in_the_summary_and_the_rows_csv(tmp_path):
    code, out, err = run(A, B, "--json", "--definitions", "--rows-csv", str(tmp_path / "r.csv"))
    assert code == 0, err
    summary = json.loads(out)
    assert list(summary["definitions"]) == list(NAMES)
    for name, figures in summary["definitions"].items():
        assert {"parameters", "considered", "dirty"} <= set(figures)
        assert 0 <= figures["dirty"] <= figures["considered"] <= summary["rows"]
    assert {"clean", "not_clean", "not_dirty"} <= set(summary["definitions"]["llama2"])
    assert 8 <= summary["definitions"]["gpt3"]["parameters"]["n"] <= 13
    table = list(csv.DictReader(io.StringIO((tmp_path / "r.csv").read_text(), newline="")))
    # the definitions' columns, then the rephrase lens's, which trail every other
    assert list(table[0])[-8:] == [*NAMES, *REPHRASE_COLUMNS] and len(table) == summary["rows"]
    q1 = table[0]           # its 13 tokens lie whole inside a training row
    assert (q1["gpt3"], q1["palm"], q1["tulu3"], q1["gpt4"]) == ("true", "true", "true", "true")
    assert float(q1["llama2"]) == 1.0
    assert summary["definitions"]["gpt3"]["dirty"] == sum(r["gpt3"] == "true" for r in table)


def test_no_definitions_no_new_keys_or_columns(tmp_path):
    code, out, _ = run(A, B, "--json", "--rows-csv", str(tmp_path / "r.csv"))
    assert code == 0 and "definitions" not in json.loads(out)
    assert (tmp_path / "r.csv").read_text().splitlines()[0].endswith(
        ",b_file," + ",".join(REPHRASE_COLUMNS))


def test_score_impact_from_a_field_and_from_a_results_file():
    code, out, err = run(A, B, "--json", "--score-field", "correct")
    assert code == 0, err
    scores = json.loads(out)["scores"]
    assert set(scores) == {"rows_with_score", "rows_without_score", "main", *NAMES}
    assert scores["rows_with_score"] + scores["rows_without_score"] == json.loads(out)["rows"]
    assert {"all", "clean", "dirty", "relative_difference"} <= set(scores["main"])
    assert {"not_clean", "not_dirty"} <= set(scores["llama2"])
    # lm-evaluation-harness's doc_id is A's 0-based row index when A has no id field
    results = str(FIXTURES / "report" / "results.jsonl")
    code, out, err = run(A, B, "--json", "--scores", results, "--scores-field", "acc",
                         "--scores-key", "doc_id", "--a-id-field", "")
    assert code == 0, err
    assert json.loads(out)["scores"]["rows_with_score"] == 3    # doc_id 0, 1 and 3
    # A's own ids (q1, ...) are not doc_id's row numbers: joined by row number, said so
    code, out, err = run(A, B, "--json", "--scores", results, "--scores-field", "acc")
    assert code == 0 and json.loads(out)["scores"]["rows_with_score"] == 3
    assert "Scores: joined by row number: 'doc_id' matches no id of A" in err


def test_the_clean_split_reads_back_as_the_kept_rows(tmp_path):
    clean, dirty = tmp_path / "clean.jsonl", tmp_path / "dirty.jsonl"
    code, out, _ = run(A, B, "--json", "--clean-out", str(clean), "--dirty-out", str(dirty),
                       "--rows-csv", str(tmp_path / "r.csv"))
    assert code == 0
    every = read_rows((FIXTURES / "report" / "test-set.jsonl").read_bytes(), "a.jsonl")
    table = list(csv.DictReader(io.StringIO((tmp_path / "r.csv").read_text(), newline="")))
    gone = {int(r["a_row"]) for r in table
            if r["flagged"] == "true" or r["duplicate_of"] or r["contained_in"]}
    kept = [r for r in every if r.number not in gone]
    assert gone and kept
    assert [(r.id, r.text) for r in read_rows(clean.read_bytes(), "c.jsonl")] == \
        [(r.id, r.text) for r in kept]
    assert [(r.id, r.text) for r in read_rows(dirty.read_bytes(), "d.jsonl")] == \
        [(r.id, r.text) for r in every if r.number in gone]
    source = (FIXTURES / "report" / "test-set.jsonl").read_bytes().splitlines(keepends=True)
    assert clean.read_bytes() == b"".join(source[r.number - 1] for r in kept)   # byte for byte
