"""The ngram-overlap command: same CSV as the core, clear errors, exit codes."""

import csv
import gzip
import io
import json
import subprocess
import sys

import pytest

from conftest import EXAMPLES, ROOT

from ngram_core import Settings, read_rows, run_check
from ngram_core.cli import main
from ngram_core.run.distributed import check_distributed
from ngram_core.read.files import load_rows_by_file

A = str(EXAMPLES / "test-set.json")
B = str(EXAMPLES / "training-corpus.json")


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_command_csv_equals_core_csv(tmp_path):
    path = tmp_path / "out.csv"
    code, out, _ = run(A, B, "--csv", str(path), "--n", "8", "--threshold", "20")
    assert code == 0
    a = read_rows((EXAMPLES / "test-set.json").read_bytes(), "test-set.json")
    b = read_rows((EXAMPLES / "training-corpus.json").read_bytes(), "training-corpus.json")
    core = run_check(a, b, Settings(n=8, threshold=20)).csv()
    assert path.read_bytes() == core.encode("utf-8")


def test_plain_output_has_the_figures():
    code, out, _ = run(A, B)
    assert code == 0
    assert "Rows flagged: 66.7%" in out
    assert "2 of 3 checkable rows share at least one 13-token sequence" in out
    assert "31.3%" in out


def test_what_was_read_is_counted_in_words(tmp_path):
    one = tmp_path / "one.txt"
    one.write_text("A single line of training text.\n")
    code, _, err = run(A, str(one))
    assert code == 0
    assert f"A {A}: 4 rows, text from question" in err
    assert f"B {one}: 1 row, text from text" in err
    assert f"B {one}: 1 of 1 row of text is shorter than 13 tokens: nothing can match in it" \
        in err


def test_utf16_files_as_excel_saves_them_are_read(tmp_path):
    """Excel's "Unicode text": UTF-16 with a byte-order mark, tabs and CRLF (its line
    break is two bytes; the first bytes the command looks at end on one)."""
    question = "Which of the following statements about the enzyme in the pathway is right?"
    a = tmp_path / "questions.tsv"
    a.write_bytes(("\ufeffid\tquestion\r\nq1\t" + question + "\r\nq2\tNot in the training "
                   "text at all, this second question of the set\r\n").encode("utf-16-le"))
    b = tmp_path / "train.txt"
    b.write_bytes(("\ufeffQuiz: " + question + " Answer later.\n").encode("utf-16-be"))
    code, out, err = run(str(a), str(b), "--json")
    assert code == 0, err
    assert f"A {a}: 2 rows, text from question, id from id" in err
    assert json.loads(out)["flagged"] == 1


def test_json_summary_keys():
    code, out, _ = run(A, B, "--json")
    summary = json.loads(out)
    for key in ("rows", "checkable", "flagged", "short", "blank", "duplicates", "tokens",
                "dirty_tokens", "windows_capped"):
        assert key in summary
    assert (summary["rows"], summary["flagged"], summary["tokens"]) == (4, 2, 83)


def test_bad_input_exits_2_with_one_line_naming_the_file(tmp_path):
    bad = tmp_path / "broken.jsonl"
    bad.write_bytes(b'{"text": "a"}\n{oops}\n')
    code, out, err = run(str(bad), B)
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [err.strip()]
    assert "broken.jsonl, line 2" in err


def test_a_folder_is_refused_with_a_glob_of_its_files(tmp_path):
    """A folder of shards (often beside a README or a dataset card) is not read
    whole: the message names a glob of the kind of file it holds most."""
    shards = tmp_path / "shards"
    shards.mkdir()
    for name in ("train-00.jsonl.gz", "train-01.jsonl.gz", "README.md"):
        (shards / name).write_bytes(b"")
    for argv in ((A, str(shards)), (str(shards), B), (A, str(tmp_path / "sh*"))):
        code, out, err = run(*argv)
        assert code == 2 and out == ""
        assert err.strip() == (f"ngram-overlap: {shards}: is a folder: give the files to read, "
                               f"such as '{shards}/*.jsonl.gz' (quoted), or its files one by one")


def test_a_folder_of_folders_names_a_glob_that_descends_and_reads_them(tmp_path):
    rows = json.loads((EXAMPLES / "training-corpus.json").read_text())
    for i, row in enumerate(rows):
        part = tmp_path / "train" / ("web" if i % 2 else "books") / f"part-{i}.jsonl"
        part.parent.mkdir(parents=True, exist_ok=True)
        part.write_text(json.dumps(row) + "\n")
    code, out, err = run(A, str(tmp_path / "train"), "--json")
    glob = f"{tmp_path / 'train'}/**/*.jsonl"
    assert code == 2 and f"such as '{glob}' (quoted)" in err, err
    code, out, err = run(A, glob, "--json")
    assert code == 0 and json.loads(out)["flagged"] == 2, err


def test_a_dataset_dict_folder_names_a_split_s_data_and_that_glob_reads_it(tmp_path):
    """A DatasetDict saved to disk holds a small dataset_dict.json beside a folder per
    split: the folder is refused naming the train split's .arrow data (a glob of its
    .json would read the metadata as two training rows and report them clean), and
    that glob gives the rows' figures."""
    import datasets

    records = json.loads((EXAMPLES / "training-corpus.json").read_text())
    folder = tmp_path / "corpus"
    datasets.DatasetDict({"train": datasets.Dataset.from_list(records),
                          "test": datasets.Dataset.from_list(records[:1])}).save_to_disk(
        str(folder))
    code, out, err = run(A, str(folder), "--json")
    glob = f"{folder}/train/*.arrow"
    assert code == 2 and out == "" and f"'{glob}' (quoted)" in err and "train, test" in err
    code, out, err = run(A, glob, "--json")
    assert code == 0 and json.loads(out)["flagged"] == 2, err


def test_arrow_files_as_save_to_disk_writes_them_read_as_their_json_lines(tmp_path):
    """Hugging Face datasets' save_to_disk writes Arrow's stream format in record
    batches (pyarrow and .feather: its file format): the same rows, ids and
    figures as the same records saved as JSON Lines, as A and as B."""
    import pyarrow as pa

    records = json.loads((EXAMPLES / "test-set.json").read_text())
    table = pa.Table.from_pylist(records)
    stream, file = tmp_path / "data-00000-of-00001.arrow", tmp_path / "test.feather"
    with pa.ipc.new_stream(str(stream), table.schema) as writer:
        writer.write_table(table, max_chunksize=2)
    with pa.ipc.new_file(str(file), table.schema) as writer:
        writer.write_table(table, max_chunksize=3)
    lines = tmp_path / "test.jsonl"
    lines.write_text("".join(json.dumps(r) + "\n" for r in records))
    outputs = []
    for a in (lines, stream, file):
        csv_path = tmp_path / f"{a.name}.csv"
        code, out, err = run(str(a), B, "--csv", str(csv_path), "--n", "8")
        assert code == 0, err
        outputs.append(csv_path.read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]
    as_b = []              # streamed in pieces of one record batch each (the library's
    for b in (lines, stream):      # block size: the command's floor is 64 KiB)
        a_rows, _, reads = load_rows_by_file([B], None)
        result = check_distributed(None, a_rows, [str(b)], Settings(n=8),
                                   a_fields=reads[0].text_fields, blocksize=1)
        as_b.append(result.csv())
    assert as_b[0] == as_b[1]


def test_out_of_range_n_exits_2():
    code, _, err = run(A, B, "--n", "30")
    assert code == 2 and "from 5 to 25" in err


def test_several_b_files_and_compressed_ones_read_as_one(tmp_path):
    rows = json.loads((EXAMPLES / "training-corpus.json").read_text())
    first = tmp_path / "part-1.jsonl.gz"
    first.write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in rows[:1]).encode()))
    second = tmp_path / "part-2.csv"
    with second.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "text"])
        w.writerows([r["id"], r["text"]] for r in rows[1:])
    split = tmp_path / "split.csv"
    whole = tmp_path / "whole.csv"
    assert run(A, str(first), str(second), "--csv", str(split))[0] == 0
    assert run(A, B, "--csv", str(whole))[0] == 0
    # the same rows and cells, and a last column naming each best B row's file
    split_rows = list(csv.reader(io.StringIO(split.read_text(), newline="")))
    whole_rows = list(csv.reader(io.StringIO(whole.read_text(), newline="")))
    assert [r[:-1] for r in split_rows] == whole_rows
    assert [r[-1] for r in split_rows] == ["b_file", str(first), str(second), ""]


def _compressors():
    import bz2
    import lzma
    import zstandard
    return {".gz": lambda data: gzip.compress(data, mtime=0), ".bz2": bz2.compress,
            ".xz": lzma.compress, ".zst": zstandard.ZstdCompressor().compress}


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz", ".zst"])
@pytest.mark.parametrize("frames", [1, 2])
def test_a_compressed_training_file_cut_short_is_refused_and_a_whole_one_read(tmp_path,
                                                                              suffix, frames):
    """A shard cut short by a copy or a download is refused naming it, in every codec,
    never read as far as it goes as if that were the whole file; a whole one written
    in several parts (frames, members) reads every row, the last part's leak
    included."""
    rows = json.loads((EXAMPLES / "training-corpus.json").read_text())
    lines = [json.dumps({"id": f"x{i}", "text": f"filler row {i} " * 20}) + "\n"
             for i in range(3000)]
    lines += [json.dumps(r) + "\n" for r in rows]      # the leaks, in the last part
    compress = _compressors()[suffix]
    cut = len(lines) // frames
    parts = [compress("".join(lines[i * cut:(i + 1) * cut if i + 1 < frames else None])
                      .encode()) for i in range(frames)]
    whole = tmp_path / f"train{suffix}"
    whole.write_bytes(b"".join(parts))
    code, out, _ = run(A, str(whole), "--json")
    assert code == 0 and json.loads(out)["flagged"] == 2 and json.loads(out)["b_rows"] == 3003
    short = tmp_path / f"short{suffix}"
    short.write_bytes(whole.read_bytes()[:-len(parts[-1]) // 2])
    code, out, err = run(A, str(short), "--json")
    assert code != 0 and out == "" and str(short) in err and "decompressed" in err, err


def test_python_dash_m_runs_the_command():
    proc = subprocess.run([sys.executable, "-m", "ngram_core", A, B, "--json"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0 and json.loads(proc.stdout)["flagged"] == 2


# SQuAD's questions leaked, not its passages: the default reads both (and the titles and
# answers), and the per-field figures say which field matched.
SQUAD = ROOT / "tests" / "fixtures" / "page"


def test_squad_defaults_read_every_text_field_and_say_which_matched():
    code, out, err = run(str(SQUAD / "squad.json"), str(SQUAD / "squad-corpus.jsonl"))
    assert code == 0
    assert "Rows flagged: 50.0%" in out
    assert ("Text read: data.paragraphs.context + question + answers.text of A; "
            "text of B.") in out
    table = err.split("Field of A", 1)[1].splitlines()
    assert table[1].split() == ["data.paragraphs.context", "140", "0.0%", "0", "of", "4"]
    assert table[2].split() == ["question", "62", "51.6%", "2", "of", "4"]


def test_a_clean_result_names_the_text_fields_left_out_and_the_flag_to_check_them():
    code, out, err = run(str(SQUAD / "squad.json"), str(SQUAD / "squad-corpus.jsonl"),
                         "--a-field", "data.paragraphs.context")
    assert code == 0
    assert "Rows flagged: 0.0%" in out
    notes = [line for line in err.splitlines() if line.startswith("Note: ")]
    assert notes == [
        f"Note: {SQUAD / 'squad.json'}: Nothing was flagged in data.paragraphs.context, the "
        "text of file A checked. File A also holds question (16 tokens per row), not "
        "checked: a leak of it would not show here. Check question with --a-field question."]
    # as the note says: the questions leaked
    code, out, err = run(str(SQUAD / "squad.json"), str(SQUAD / "squad-corpus.jsonl"),
                         "--a-field", "question")
    assert "Rows flagged: 66.7%" in out
    assert "Note: " not in err


def test_a_result_that_flags_rows_has_no_such_note():
    code, out, err = run(A, B)          # the worked example: 66.7 % flagged
    assert "Rows flagged: 66.7%" in out
    assert "Note: " not in err


def test_the_note_on_b_names_its_first_file_and_counts_the_others(tmp_path):
    record = {"id": "1", "prompt": "Answer the question about the moon landing in the summer "
              "of that year please", "completion": "The crew of Apollo eleven landed on the "
              "Moon in July of nineteen sixty nine and walked there for hours."}
    shards = []
    for k in range(3):
        path = tmp_path / f"train-{k}.jsonl"
        path.write_text(json.dumps(record) + "\n")
        shards.append(str(path))
    code, out, err = run(str(SQUAD / "squad.json"), *shards, "--a-field", "question",
                         "--b-field", "completion")
    assert "Rows flagged: 0.0%" in out
    notes = [line for line in err.splitlines() if line.startswith("Note: ")]
    assert notes[-1] == (
        f"Note: {shards[0]}: Nothing was flagged in completion, the text of file B searched. "
        "File B also holds prompt (14 tokens per row), not searched: text of file A in it "
        "would not be found. Check prompt with --b-field prompt. 2 more B files hold other "
        "text too.")


def test_a_too_short_warning_names_the_option_that_reads_the_file_otherwise(tmp_path):
    """#33: every "nothing can match" names what would read the file otherwise."""
    lines = tmp_path / "wrapped.txt"
    lines.write_text("".join(f"line {i} of a wrapped document\n" for i in range(30)))
    code, _, err = run(str(lines), B)
    assert code == 0, err
    assert "nothing can match in them." in err and "with --a-text-rows paragraph." in err
    pages = tmp_path / "pages.jsonl"
    pages.write_text("".join(json.dumps({"title": f"Page {i}", "contents": " ".join(
        f"word{j}" for j in range(40))}) + "\n" for i in range(5)))
    code, _, err = run(A, str(pages), "--b-field", "title")
    assert code == 0, err
    assert "Longer fields: contents (40 tokens per row). Read one with --b-field contents." \
        in err
