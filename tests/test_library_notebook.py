"""The library as a notebook user meets it (#47): typed rows and DataFrames of fixed
dtypes, a display of a few kB, pandas' and Arrow's own values read as the file they
came from, the training rows to drop in memory, progress only when asked, and a
report for a model card."""

from __future__ import annotations

import csv
import decimal
import io
import json
import random
import sys

import datasets
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from IPython.core.formatters import DisplayFormatter

import ngram_overlap
from ngram_core.decontaminate import main as decontaminate_main
from ngram_core.run.check import STAGES

WORDS = [f"w{i}" for i in range(500)]
LEAK = "the quick brown fox jumps over the lazy dog near the quiet river bank today"
SHORT = "name two prime numbers below ten please"            # 7 tokens: short at n=13
CONTAINED = "which river runs through the old town of paris"  # 9 tokens: short, contained


def text(rng: random.Random, count: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(count))


def training(count: int = 300, seed: int = 1) -> list[dict]:
    rng = random.Random(seed)
    rows = [{"id": f"doc-{i}", "text": text(rng, rng.randint(20, 60))} for i in range(count)]
    rows[5]["text"] += " " + LEAK + " again"
    rows[9]["text"] = "a guide: " + CONTAINED + ", and more"
    rows[11]["text"] = SHORT                      # a whole training row: a duplicate
    return rows


TEST = [LEAK, SHORT, "", CONTAINED, text(random.Random(7), 30)]

EXPECTED_DTYPES = {"a_row": "int64", "a_id": "string", "status": "string", "tokens": "int64",
                   "dirty_tokens": "Int64", "dirty_share": "Float64", "flagged": "boolean",
                   "longest_span": "Int64", "windows": "Int64", "b_row": "Int64",
                   "b_id": "string", "duplicate_of": "Int64", "contained_in": "Int64",
                   "contained_b_start": "Int64", "contained_b_end": "Int64",
                   "b_file": "string", "similar_b_row": "Int64", "similarity": "Float64",
                   "rephrased": "boolean"}


def test_rows_hold_numbers_bools_and_none_and_the_frames_dtypes_never_change():
    result = ngram_overlap.check(TEST, training())
    rows = result.rows
    assert [r["status"] for r in rows] == ["checkable", "short", "blank", "short", "checkable"]
    leak, short, blank, contained, clean = rows
    assert leak["tokens"] == 15 and leak["dirty_share"] == 1.0 and leak["flagged"] is True
    assert leak["b_row"] == 6 and leak["b_id"] == "doc-5" and leak["b_file"] == "train"
    assert clean["flagged"] is False and clean["dirty_share"] == 0.0 and clean["b_id"] is None
    assert short["duplicate_of"] == 12 and short["flagged"] is None and short["b_row"] is None
    assert blank["tokens"] == 0 and blank["dirty_share"] is None
    assert contained["contained_in"] == 10 and isinstance(contained["contained_b_start"], int)
    frame = result.to_pandas()
    assert {c: str(t) for c, t in frame.dtypes.items()} == EXPECTED_DTYPES
    assert int(frame.flagged.sum()) == result.summary["flagged"] == 1
    assert list(frame[frame.dirty_share > 0.5].a_row) == [1]
    # the same dtypes with no short, blank or contained row at all
    only_checkable = ngram_overlap.check([LEAK, TEST[4]], training()).to_pandas()
    assert {c: str(t) for c, t in only_checkable.dtypes.items()} == EXPECTED_DTYPES
    # the CSV keeps its text form
    assert result.rows_csv().splitlines()[1].startswith("1,1,checkable,15,15,1.0,true,15,")


def shown_in_a_notebook(value) -> tuple[str, str]:
    """What a notebook (Jupyter, VS Code, Colab: IPython's display formatter) shows
    for a bare ``value``: its plain text and its HTML."""
    bundle, _ = DisplayFormatter().format(value)
    assert set(bundle) == {"text/plain", "text/html"}
    return bundle["text/plain"], bundle["text/html"]


def test_a_result_and_a_suite_show_in_a_few_kilobytes_with_the_verdict(tmp_path):
    rng = random.Random(3)
    test = [{"id": f"<b>q{i}</b>", "text": text(rng, 30)} for i in range(3000)]
    train = [{"id": f"t{i}", "text": text(rng, 40) + " SECRETTRAININGWORD"} for i in range(20_000)]
    for i in range(0, 3000, 50):
        train[i]["text"] += " " + test[i]["text"]
    result = ngram_overlap.check(test, train)
    shown, page = shown_in_a_notebook(result)
    assert "\n" not in shown and len(shown) < 200
    assert "60 of 3,000 checkable rows" in shown and "test against train" in shown
    assert len(page.encode()) + len(shown.encode()) < 10_000
    assert "Rows flagged: 2.0%" in page and "Worst rows first" in page
    assert "&lt;b&gt;q0&lt;/b&gt;" in page and "<b>q0" not in page       # escaped
    assert "SECRETTRAININGWORD" not in page and "SECRETTRAININGWORD" not in shown
    evals = {f"eval <{k}>": test[k * 100:(k + 1) * 100] for k in range(30)}
    suite = ngram_overlap.decontaminate(evals, train)
    shown, page = shown_in_a_notebook(suite)
    assert "\n" not in shown and len(shown) < 400 and "30 evals" in shown
    assert len(page.encode()) + len(shown.encode()) < 10_000
    assert "30 of 30 evals found in the training data; 60 of 20,000 training rows removed" \
        in page
    assert "eval &lt;0&gt;" in page and "SECRETTRAININGWORD" not in page
    # the engine's report, a public attribute typed alone, is a line too
    assert len(repr(result.report)) < 200 and "SECRETTRAININGWORD" not in repr(result.report)


def test_bidirectional_controls_in_ids_and_names_are_shown_written_out(tmp_path):
    """A right-to-left override in an id, a file name or an eval's name shows as
    ``\\u202e`` in the displays and in an error, as on the page and in the terminal:
    an id ``\\u202efdp.exe`` never reads "exe.pdf". The data keeps the id as it is."""
    rlo = "\u202e"
    body = "the quick brown fox jumps over the lazy dog near the quiet river bank today"
    train = tmp_path / f"train{rlo}lnosj.jsonl"
    train.write_text(json.dumps({"id": f"{rlo}gnp.doc", "text": "seen: " + body}) + "\n")
    result = ngram_overlap.check([{"id": f"{rlo}fdp.exe", "text": body}], train)
    suite = ngram_overlap.decontaminate({f"quiz{rlo}lmth": [body]}, train)
    for value in (result, suite):
        shown, page = shown_in_a_notebook(value)
        assert rlo not in shown and rlo not in page
    assert "\\u202efdp.exe" in result._repr_html_()
    assert result.rows[0]["a_id"] == f"{rlo}fdp.exe"
    with pytest.raises(ngram_overlap.InputError) as info:
        ngram_overlap.check([body], tmp_path / f"missing{rlo}.jsonl")
    assert rlo not in str(info.value) and "missing\\u202e.jsonl" in str(info.value)


def test_the_suites_frames_one_row_per_eval_and_the_found_table():
    suite = ngram_overlap.decontaminate({"quiz": TEST, "other": [TEST[4]]}, training())
    evals = suite.to_pandas()
    assert list(evals["eval"]) == ["quiz", "other"]
    assert evals.set_index("eval").loc["quiz", ["flagged", "contained", "training_rows"]] \
        .tolist() == [1, 1, 2]
    assert str(evals.flagged_share.dtype) == "float64"
    assert evals["rephrased"].tolist() == [r.summary["rephrased"] for r in suite.results.values()]
    assert str(evals.rephrased.dtype) == "int64"              # as the command's table counts
    found = suite.to_pandas("found")
    assert found.to_dict("records") == suite.report["found"]
    assert suite.to_pandas("training").loc[0, "removed"] == 2


def parquet_with_lists(path) -> None:
    rng = random.Random(5)
    table = pa.table({
        "question": [LEAK, *(text(rng, 25) for _ in range(9))],
        "choices": [[text(rng, 3), text(rng, 3)] for _ in range(10)],
        "scores": [[1.5, 2.0]] * 10,
        "when": pa.array([pd.Timestamp("2024-01-31T10:00:00")] * 10, pa.timestamp("us")),
        "price": pa.array([decimal.Decimal("3.10")] * 10, pa.decimal128(5, 2)),
        "raw": [b"caf\xc3\xa9"] * 10,
    })
    pq.write_table(table, path)


def same(a: ngram_overlap.Result, b: ngram_overlap.Result) -> None:
    """The same figures and rows; the training data named as given (a file's path, or
    "train" for rows)."""
    def unnamed(summary: dict) -> dict:
        return {**summary, "training_files": [{k: v for k, v in t.items() if k != "file"}
                                              for t in summary["training_files"]]}
    assert unnamed(a.summary) == unnamed(b.summary)
    assert [{k: v for k, v in r.items() if k != "b_file"} for r in a.rows] == \
        [{k: v for k, v in r.items() if k != "b_file"} for r in b.rows]


def test_frames_of_pandas_readers_give_the_files_result(tmp_path):
    path = tmp_path / "test.parquet"
    parquet_with_lists(path)
    frame = pd.read_parquet(path)
    assert type(frame.loc[0, "choices"]).__module__ == "numpy"            # arrays in cells
    same(ngram_overlap.check(frame, training()), ngram_overlap.check(path, training()))
    # C4's layout: a timestamp pandas reads as a Timestamp, a URL, the text
    c4 = tmp_path / "c4.jsonl"
    rng = random.Random(6)
    c4.write_text("".join(json.dumps({"text": t, "timestamp": f"2019-04-2{i % 10}T12:57:54Z",
                                      "url": f"https://example.com/{i}"}) + "\n"
                          for i, t in enumerate([LEAK, *(text(rng, 30) for _ in range(40))])))
    frame = pd.read_json(c4, lines=True)
    assert isinstance(frame.loc[0, "timestamp"], pd.Timestamp)
    same(ngram_overlap.check(TEST, frame), ngram_overlap.check(TEST, c4))
    same(ngram_overlap.check(frame, training()), ngram_overlap.check(c4, training()))


def test_integer_ids_with_a_gap_read_by_pandas_are_the_files_ids(tmp_path):
    """pandas reads a column of integers with a gap as floats: the ids stay "1", "3",
    as the command reads the file (and as an eval's scores are keyed), from a
    DataFrame and from an Arrow table."""
    body = "Janet has sixteen ducks that lay eggs every single morning and she eats three"
    records = [{"id": i + 1, "text": f"{body} {i}"} for i in range(4)]
    records[1]["id"] = None
    path = tmp_path / "a.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    frame = pd.read_json(path, lines=True)
    assert frame["id"].dtype == "float64"
    want = [r["a_id"] for r in ngram_overlap.check(path, [body], id_field="id").rows]
    assert want == ["1", "2", "3", "4"]
    for data in (frame, pa.Table.from_pandas(frame, preserve_index=False)):
        assert [r["a_id"] for r in ngram_overlap.check(data, [body], id_field="id").rows] == want
    scores = pd.DataFrame({"id": [1.5, None, 2.0], "text": [body, body, body]})
    assert [r["a_id"] for r in ngram_overlap.check(scores, [body], id_field="id").rows][0] == "1.5"


@pytest.mark.parametrize("name, shown", [(2019, "2019"), (("mmlu", "test"), "('mmlu', 'test')"),
                                         ("x" * 300, "xxxx"), ("a\0b", "a\\x00b"),
                                         ("数学" * 80, "数学")])
def test_any_eval_name_names_its_eval(name, shown):
    """An eval's name is text whatever it was given as; one no file can be named
    (too long, a NUL) still names its eval."""
    body = "Janet has sixteen ducks that lay eggs every single morning and she eats three"
    suite = ngram_overlap.decontaminate({name: [body]}, ["seen: " + body])
    assert shown in repr(suite) and suite.to_pandas()["flagged"].tolist() == [1]


def test_a_dict_of_splits_is_refused_naming_the_split_each_side_wants():
    splits = {"train": ["a b c"], "test": ["d e f"]}
    with pytest.raises(ngram_overlap.InputError, match=r"data\['test'\]"):
        ngram_overlap.check(splits, ["x"])
    with pytest.raises(ngram_overlap.InputError, match=r"data\['train'\]"):
        ngram_overlap.check(["x"], splits)


def test_a_dict_of_columns_is_the_table_it_writes():
    """``frame.to_dict("list")`` (or ``Dataset.to_dict()``) is read as the frame: its
    ids and figures; the split-named dict above is still refused."""
    frame = pd.DataFrame({"qid": [f"q{i}" for i in range(len(TEST))], "question": TEST})
    by_columns = ngram_overlap.check(frame.to_dict("list"), training())
    assert by_columns.summary == ngram_overlap.check(frame, training()).summary
    assert [r["a_id"] for r in by_columns.rows if r["flagged"]] == ["q0"]


def test_a_frames_index_names_its_rows():
    """A frame filtered or indexed by id is reported by its labels, as ``frame.loc``
    finds them; pandas' default index numbers rows from 1, as a file's lines."""
    frame = pd.DataFrame({"qid": [f"q{i}" for i in range(len(TEST))], "question": TEST})
    def flagged(data):
        return [r["a_id"] for r in ngram_overlap.check(data, training()).rows if r["flagged"]]
    assert flagged(frame.set_index("qid")) == ["q0"]
    assert flagged(frame.set_index("qid")["question"]) == ["q0"]           # a Series
    assert flagged(frame.drop(columns="qid").iloc[::-1]) == ["0"]          # labels kept
    assert frame.drop(columns="qid").iloc[::-1].loc[0, "question"] == LEAK
    assert flagged(frame.drop(columns="qid")) == ["1"]                     # the default
    result = ngram_overlap.check(TEST, pd.DataFrame(training()).drop(columns="id").iloc[2:])
    assert [r["b_id"] for r in result.rows if r["flagged"]] == ["5"]       # training too


def test_a_list_of_paths_that_name_no_file_is_refused_not_read_as_text(tmp_path):
    """A path with a typo in a list must not become a row of text (a clean 0 %)."""
    for given in (["data/train-00000-of-00002.jsonl"], [str(tmp_path / "nodir" / "*.jsonl")],
                  ["train.jsonl.gz", "valid.parquet"]):
        with pytest.raises(ngram_overlap.InputError, match="names no file"):
            ngram_overlap.check(TEST, given)
    assert ngram_overlap.check(["What?", "1/2"], ["What?", "1/2"], short_min=1).summary[
        "rows"] == 2                                   # words and fractions stay text


def test_the_similarity_is_unrounded_and_decides_rephrased():
    """``rephrased`` is decided on the unrounded similarity, and the rows hold it, so
    ``frame.similarity >= t`` agrees with it (the CSV keeps three decimals)."""
    a = ["Janet has sixteen ducks that lay eggs every single morning and she eats three",
         "Max bought 16 stamps and 3 more, then gave 9 of them to his sister Anna"]
    b = ["Janet owns sixteen ducks laying eggs each morning; she eats three of them",
         "Anna got 9 stamps from Max, who had bought 16 and then 3 more"]
    result = ngram_overlap.check(a, b)
    scores = [r["similarity"] for r in result.rows]
    assert all(s is not None for s in scores) and any(s != round(s, 3) for s in scores)
    assert all(r["rephrased"] == (r["similarity"] >= 0.5) for r in result.rows)
    frame = result.to_pandas()
    assert list(frame.similarity >= 0.5) == list(frame.rephrased)
    assert [line.split(",")[-2] for line in result.rows_csv().splitlines()[1:]] == \
        [f"{s:.3f}" for s in scores]


def test_fields_not_matched_are_none():
    a = [{"question": LEAK, "context": text(random.Random(3), 30)},
         {"question": text(random.Random(4), 20), "context": text(random.Random(5), 30)}]
    rows = ngram_overlap.check(a, training()).rows
    assert rows[0]["matched_fields"] == "question" and rows[1]["matched_fields"] is None
    assert rows[1]["contained_field"] is None


def test_rephrase_false_is_no_rephrase():
    body = "Janet has sixteen ducks that lay eggs every single morning and she eats three"
    off = ngram_overlap.check([body], ["Janet owns sixteen ducks laying eggs each morning"],
                              rephrase=False)
    assert off.summary == ngram_overlap.check([body], ["Janet owns sixteen ducks laying eggs "
                                                       "each morning"], no_rephrase=True).summary
    assert off.rows[0].get("similarity") is None and "rephrased" not in off.columns
    with pytest.raises(TypeError, match="one setting"):
        ngram_overlap.check([body], [body], rephrase=False, no_rephrase=True)


def test_the_commands_lines_about_its_files_are_the_results_notes(tmp_path):
    """Nothing is printed; what the command says on stderr about the files (the
    reading, an encoding read, a warning) is ``notes``, the same lines."""
    a, b = tmp_path / "a.csv", tmp_path / "b.jsonl"
    a.write_text('id,text\n1,"short row one\n2,"short row two\n')
    b.write_bytes("".join(json.dumps({"id": i, "text": f"café row {i} lorem ipsum dolor"},
                                     ensure_ascii=False) + "\n" for i in range(20)).encode("cp1252"))
    out, err = io.StringIO(), io.StringIO()
    from ngram_core.cli import main
    assert main([str(a), str(b)], stdout=out, stderr=err) == 0
    result = ngram_overlap.check(a, b)
    assert result.notes == [line for line in err.getvalue().splitlines() if line.strip()]
    assert any("read as Windows-1252" in line for line in result.notes)
    assert ngram_overlap.check(["one two"], ["three four"]).notes[0].startswith("A test: 1 row")


@pytest.mark.parametrize("lines", [1, 3])
def test_json_named_csv_is_read_alike_by_check_and_decontaminate(tmp_path, lines):
    body = "the quick brown fox jumps over the lazy dog near the quiet river bank today again"
    train = tmp_path / "train.csv"
    train.write_text("".join(json.dumps({"id": f"b{i}", "text": f"seen {i}: " + body}) + "\n"
                             for i in range(lines)))
    assert ngram_overlap.check([body], train).summary["flagged"] == 1
    suite = ngram_overlap.decontaminate({"quiz": [body]}, train)
    assert suite.to_pandas()["flagged"].tolist() == [1]
    assert suite.results["quiz"].notes[0].startswith("A quiz: 1 row")


def test_a_cell_that_is_no_data_is_refused_naming_its_column():
    frame = pd.DataFrame({"text": ["a b c", "d e f"], "blob": [1, object()]})
    with pytest.raises(ngram_overlap.InputError, match="train: row 2, column 'blob'"):
        ngram_overlap.check(TEST, frame)
    with pytest.raises(TypeError, match="an int is no data: give a path"):
        ngram_overlap.check(42, TEST)
    with pytest.raises(ngram_overlap.InputError, match="^train: is empty"):   # not a temp file
        ngram_overlap.check(TEST, [])
    with pytest.raises(ngram_overlap.InputError, match="^quiz: is empty"):
        ngram_overlap.decontaminate({"quiz": []}, TEST)


def test_decontaminate_in_memory_removes_what_the_command_removes(tmp_path):
    rng = random.Random(8)
    frame = pd.DataFrame({"doc": [f"d{i}" for i in range(400)],
                          "body": [text(rng, rng.randint(15, 50)) for _ in range(400)],
                          "title": [text(rng, 3) for _ in range(400)]})
    quiz = [{"q": t, "qid": f"q{i}"} for i, t in enumerate(TEST)]
    other = [{"q": text(rng, 30), "qid": "o1"}, {"q": CONTAINED + " " + text(rng, 10), "qid": "o2"}]
    for i in (3, 77, 200):
        frame.loc[i, "body"] += " " + LEAK
    frame.loc[150, "body"] = "see " + CONTAINED + " " + other[1]["q"]
    suite = ngram_overlap.decontaminate({"quiz": quiz, "other": other}, frame,
                                        eval_text_field="q", id_field="qid",
                                        train_text_field="body", train_id_field="doc", n=10)
    for name, rows in (("quiz", quiz), ("other", other)):
        (tmp_path / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    train = tmp_path / "train.jsonl"
    frame.to_json(train, orient="records", lines=True)
    assert decontaminate_main(["--evals", str(tmp_path / "quiz.jsonl"),
                               str(tmp_path / "other.jsonl"), "--train", str(train),
                               "--out", str(tmp_path / "cmd"), "--a-field", "q",
                               "--a-id-field", "qid", "--b-field", "body",
                               "--b-id-field", "doc", "--n", "10"],
                              io.StringIO(), io.StringIO()) == 0
    command = [json.loads(x) for x in (tmp_path / "cmd" / "removed.jsonl").read_text().splitlines()]
    assert [(r["row"], r["id"], [(c["row"], c["id"]) for c in r["causes"]])
            for r in suite.removed] == \
        [(r["row"], r["id"], [(c["row"], c["id"]) for c in r["causes"]]) for r in command]
    assert {r["id"] for r in suite.removed} == {"d3", "d77", "d200", "d150"}
    mask = suite.mask()
    assert len(mask) == len(frame) and suite.keep == {"train": mask}
    kept = [json.loads(x)["doc"] for x in (tmp_path / "cmd" / "train.jsonl").read_text().splitlines()]
    assert list(frame[mask]["doc"]) == kept
    dataset = datasets.Dataset.from_pandas(frame)
    again = ngram_overlap.decontaminate({"quiz": quiz, "other": other}, dataset,
                                        eval_text_field="q", id_field="qid",
                                        train_text_field="body", train_id_field="doc", n=10)
    assert again.removed == suite.removed
    cleaned = dataset.filter(lambda _, i: again.mask()[i], with_indices=True)
    assert cleaned["doc"] == kept


def test_every_flag_is_a_keyword_once():
    assert ngram_overlap.KEYWORDS["train_text_field"] == "--b-field"
    assert ngram_overlap.KEYWORDS["eval_text_field"] == ngram_overlap.KEYWORDS["text_field"] \
        == "--a-field"
    for keyword in ("train_format", "train_records", "train_delimiter", "train_no_header",
                    "train_text_rows", "leave_out_text", "max_b_rows", "tokenizer"):
        assert keyword in ngram_overlap.KEYWORDS
    left = ngram_overlap.check(TEST, training(), leave_out_text=["quick brown fox jumps over"])
    assert left.summary["left_out"] == ["quick brown fox jumps over"]
    lines = "\n".join(r["text"] for r in training())
    (path := __import__("pathlib").Path(__import__("tempfile").mkdtemp()) / "t.txt").write_text(lines)
    assert ngram_overlap.check(TEST, path, train_text_rows="line").summary["b_rows"] == 300
    with pytest.raises(TypeError, match="text_field are one setting: give one"):
        ngram_overlap.check(TEST, TEST, text_field="text", eval_text_field="text")
    with pytest.raises(ngram_overlap.InputError, match="train_format: must be one of"):
        ngram_overlap.check(TEST, TEST, train_format="xls")


def test_progress_only_when_asked(capsys, monkeypatch):
    ngram_overlap.check(TEST, training())
    assert capsys.readouterr() == ("", "")
    seen = []
    ngram_overlap.check(TEST, training(), progress=seen.append)
    stages = {p.stage for p in seen}
    assert {"read test", "read train"} < stages and stages <= {"read test", "read train",
                                                               *STAGES}
    assert all(0 <= p.fraction <= 1 for p in seen)
    monkeypatch.setitem(sys.modules, "tqdm", None)                 # no tqdm: lines
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    ngram_overlap.decontaminate({"quiz": TEST}, training(), progress=True)
    out, err = capsys.readouterr()
    assert out == "" and "ngram-overlap: read quiz\n" in err and err.endswith("ngram-overlap: done\n")
    monkeypatch.undo()
    ngram_overlap.check(TEST, training(), progress=True)           # tqdm installed: a bar
    out, err = capsys.readouterr()
    assert out == "" and "ngram-overlap: " in err and "/100 [" in err


def test_the_report_names_the_tool_the_time_the_settings_and_the_fields_read():
    suite = ngram_overlap.decontaminate({"quiz": TEST, "again": TEST[:1]}, training(), n=13)
    report = suite.report
    assert report["tool"] == {"name": "ngram-overlap", "version": ngram_overlap.__version__}
    assert report["started"] <= report["ended"]
    assert report["settings"]["n"] == 13 and report["settings"]["tokenizer"] == "re"
    assert report["training"][0]["fields"] == ["text"]
    assert [e["contained"] for e in report["evals"]] == [1, 0]
    # the leak's training row holds rows of both evals: counted for each, removed once
    assert sum(f["training_rows"] for f in report["found"]) == 3
    assert report["training"][0]["removed"] == 2
    assert "2 training rows removed in all; the training rows holding each eval add up to 3" \
        in report["removals"]


def test_the_rows_csv_of_a_result_is_the_commands(tmp_path):
    a = tmp_path / "a.jsonl"
    a.write_text("".join(json.dumps({"text": t, "id": f"=x{i}"}) + "\n" for i, t in enumerate(TEST)))
    result = ngram_overlap.check(a, training())
    assert result.rows[0]["a_id"] == "=x0"                        # the id as read
    assert list(csv.DictReader(io.StringIO(result.rows_csv())))[0]["a_id"] == "'=x0"


def test_helps_example_runs():
    import doctest
    done = doctest.testmod(ngram_overlap)
    assert done.attempted >= 6 and done.failed == 0
    assert 'rows[0]["share"]' not in (ngram_overlap.__doc__ or "")
