"""ngram-overlap from a notebook (#36): ``import ngram_overlap``, a list of strings or a
DataFrame checked against a generator of training rows gives the command's figures on
the same data; the suite and its cleaned training data alike."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import pandas as pd
import pytest

import ngram_overlap
from ngram_overlap.results import typed_value
from ngram_core.cli import main as check_main
from ngram_core.decontaminate import main as decontaminate_main

WORDS = [f"w{i}" for i in range(400)]


def rows(seed: int, count: int, leaks=()) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 40)))
        if leaks and i % 97 == 0:
            text += " " + leaks[i % len(leaks)]
        out.append({"id": f"r{seed}-{i}", "text": text})
    return out


@pytest.mark.parametrize("train_rows", [500, 40_000])     # indexed whole; streamed
def test_strings_against_a_generator_give_the_commands_figures(tmp_path, train_rows):
    test = [r["text"] for r in rows(1, 60)]
    training = rows(2, train_rows, leaks=test[:10])

    def generated():                       # a generator: read once, of any length
        yield from training

    result = ngram_overlap.check(test, generated(), n=8)
    a, b = tmp_path / "test.jsonl", tmp_path / "train.jsonl"
    a.write_text("".join(json.dumps({"text": t}) + "\n" for t in test))
    b.write_text("".join(json.dumps(r) + "\n" for r in training))
    out = io.StringIO()
    assert check_main([str(a), str(b), "--n", "8", "--json", "--rows-csv",
                       str(tmp_path / "rows.csv")], out, io.StringIO()) == 0
    summary = json.loads(out.getvalue())
    assert summary["training_files"][0].pop("file") == str(b)
    assert result.summary["training_files"][0].pop("file") == "train"     # named as given
    assert result.summary == summary
    assert result.summary["flagged"] >= 5
    with open(tmp_path / "rows.csv", newline="") as f:
        command = [{k: typed_value(k, v) for k, v in r.items()} for r in csv.DictReader(f)]
    # the same rows, typed (the similarity unrounded, as `rephrased` reads it: the CSV
    # has three decimals); the training file is named by what it was: "train", not a path
    assert all(r["rephrased"] == (r["similarity"] >= 0.5) for r in result.rows
               if r["similarity"] is not None)
    assert [{k: round(v, 3) if k == "similarity" and v is not None else v
             for k, v in r.items() if k != "b_file"} for r in result.rows] == \
        [{k: v for k, v in r.items() if k != "b_file"} for r in command]
    assert {r["b_file"] for r in result.rows} <= {"train", None}
    frame = result.to_pandas()
    assert list(frame.columns) == list(command[0])
    assert frame.astype(object).where(frame.notna(), None).to_dict("records") == result.rows
    assert result.rows_csv().replace("train", "") == \
        (tmp_path / "rows.csv").read_text().replace(str(b), "")


def test_a_dataframe_and_records_with_fields_chosen(tmp_path):
    frame = pd.DataFrame({"question": [r["text"] for r in rows(3, 30)],
                          "qid": [f"q{i}" for i in range(30)]})
    training = [{"doc": f"d{i}", "body": r["text"]} for i, r in
                enumerate(rows(4, 300, leaks=list(frame["question"][:3])))]
    result = ngram_overlap.check(frame, training, text_field="question", id_field="qid",
                                 train_text_field="body", train_id_field="doc", n=8)
    flagged = [r for r in result.rows if r["flagged"]]
    assert {r["a_id"] for r in flagged} >= {"q0", "q1", "q2"}
    assert all(r["b_id"].startswith("d") for r in flagged)
    assert result.summary["a_fields"] == ["question"] and result.summary["b_fields"] == ["body"]


def test_an_arrow_table_is_its_rows():
    """pyarrow is a dependency, and a notebook holds Arrow tables: one checks as its
    rows do, as the test set and as the training data, in a suite too."""
    import pyarrow as pa
    test = [{"qid": f"q{i}", "question": r["text"]} for i, r in enumerate(rows(3, 30))]
    training = [{"body": r["text"]} for r in rows(4, 300, leaks=[t["question"] for t in test[:3]])]
    as_rows = ngram_overlap.check(test, training, n=8)
    as_tables = ngram_overlap.check(pa.Table.from_pylist(test), pa.Table.from_pylist(training),
                                    n=8)
    assert as_tables.summary == as_rows.summary and as_tables.rows == as_rows.rows
    assert as_rows.summary["flagged"] >= 3
    suite = ngram_overlap.decontaminate({"t": pa.Table.from_pylist(test)},
                                        pa.Table.from_pylist(training), n=8)
    assert suite.results["t"].summary["flagged"] == as_rows.summary["flagged"]


def test_unknown_settings_and_bytes_are_refused_in_words():
    with pytest.raises(TypeError, match="unknown settings: windows"):
        ngram_overlap.check(["a b c"], ["a b c"], windows=3)
    with pytest.raises(ngram_overlap.InputError, match="bytes need a name"):
        ngram_overlap.check(b'{"text": "a"}\n', ["a b c"])


def test_the_suite_from_python_writes_what_the_command_writes(tmp_path):
    evals = {"first": [r["text"] for r in rows(5, 40)], "second": rows(6, 40)}
    leaks = evals["first"][:4] + [r["text"] for r in evals["second"][:4]]
    train = tmp_path / "train.jsonl"
    train.write_text("".join(json.dumps(r) + "\n" for r in rows(7, 800, leaks=leaks)))
    suite = ngram_overlap.decontaminate(evals, train, out=tmp_path / "py", n=8)
    for name, data in evals.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps(d if isinstance(d, dict) else {"text": d}) + "\n"
                                for d in data))
    assert decontaminate_main(["--evals", str(tmp_path / "first.jsonl"),
                               str(tmp_path / "second.jsonl"), "--train", str(train),
                               "--out", str(tmp_path / "cmd"), "--n", "8"],
                              io.StringIO(), io.StringIO()) == 0
    assert (tmp_path / "py" / "train.jsonl").read_bytes() == \
        (tmp_path / "cmd" / "train.jsonl").read_bytes()
    py_removed = [json.loads(x) for x in (tmp_path / "py" / "removed.jsonl").read_text().splitlines()]
    cmd_removed = [json.loads(x) for x in (tmp_path / "cmd" / "removed.jsonl").read_text().splitlines()]
    assert [(r["row"], [c["row"] for c in r["causes"]]) for r in py_removed] == \
        [(r["row"], [c["row"] for c in r["causes"]]) for r in cmd_removed]
    assert {c["eval"] for r in py_removed for c in r["causes"]} == {"first", "second"}
    command_report = json.loads((tmp_path / "cmd" / "report.json").read_text())
    for name, entry in zip(evals, command_report["evals"]):
        entry.pop("file")
        assert suite.results[name].summary == entry
    assert suite.results["first"].summary["flagged"] >= 1
    assert [f["eval"] for f in suite.report["found"]] == ["first", "second"]


def test_the_package_users_install_imports_by_its_name():
    assert ngram_overlap.__version__
    assert Path(ngram_overlap.__file__).parent.name == "ngram_overlap"
