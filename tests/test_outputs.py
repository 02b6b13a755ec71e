"""Output files: checked before the work starts, written whole or not at all, and
file names that are not UTF-8 shown escaped everywhere (messages, b_file cells, output)."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest

from ngram_core.write import outputs as files_module
from ngram_core.cli import main
from ngram_core.errors import InputError
from ngram_core.write.outputs import write_output

EXAMPLES = Path(__file__).parent.parent / "static" / "examples"
A, B = str(EXAMPLES / "test-set.json"), str(EXAMPLES / "training-corpus.json")


def run(*argv, stdout=None):
    out = stdout if stdout is not None else io.StringIO()
    err = io.StringIO()
    return main(list(argv), out, err), out, err.getvalue()


@pytest.mark.parametrize("flag", ["--csv", "--rows-csv", "--clean-out", "--dirty-out"])
def test_an_output_into_a_missing_folder_is_refused_before_any_work(tmp_path, flag):
    target = tmp_path / "no-such-folder" / "out.csv"
    # A does not exist either: the output is refused first, so nothing was read
    code, _, err = run(str(tmp_path / "missing-a.jsonl"), B, flag, str(target))
    assert code == 2
    assert err == f"ngram-overlap: {target}: cannot be written: no folder " \
                  f"{str(target.parent)!r}\n"


def test_a_folder_given_as_the_csv_is_refused(tmp_path):
    code, _, err = run(A, B, "--csv", str(tmp_path))
    assert code == 2 and err == f"ngram-overlap: {tmp_path}: is a folder; --csv needs a " \
                                f"file name\n"
    assert list(tmp_path.iterdir()) == []


def test_a_failed_run_leaves_no_output_behind(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"text": "fine"}\n{not json\n')
    outputs = [tmp_path / name for name in ("a.csv", "rows.csv", "clean.json")]
    code, _, err = run(A, str(bad), "--csv", str(outputs[0]), "--rows-csv", str(outputs[1]),
                       "--clean-out", str(outputs[2]))
    assert code == 2 and "bad.jsonl, line 2" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.jsonl"]


@pytest.mark.parametrize("failure", [KeyboardInterrupt, OSError(28, "No space left on device")])
def test_a_write_interrupted_midway_keeps_the_old_file_and_leaves_no_temporary(
        tmp_path, monkeypatch, failure):
    target = tmp_path / "out.csv"
    target.write_bytes(b"the last good result\n")

    def fail(*args):
        raise failure

    monkeypatch.setattr(files_module.os, "replace", fail)
    with pytest.raises(InputError if isinstance(failure, OSError) else KeyboardInterrupt):
        write_output(str(target), b"new bytes")
    assert target.read_bytes() == b"the last good result\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]


def test_file_names_that_are_not_utf8_are_shown_escaped(tmp_path):
    record = json.dumps({"id": "x1", "text": "In 1969 the Apollo 11 mission landed the first "
                                             "humans on the Moon and returned them home."})
    names = []
    for raw in (b"\xff\xfe-1.jsonl", b"\xff\xfe-2.jsonl"):
        path = os.fsencode(tmp_path) + b"/" + raw
        with open(path, "wb") as f:
            f.write(record.encode() + b"\n")
        names.append(os.fsdecode(path))
    rows_csv = tmp_path / "rows.csv"
    strict = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict")
    code, out, err = run(A, *names, "--rows-csv", str(rows_csv), stdout=strict)
    assert code == 0, err
    strict.flush()
    text = strict.buffer.getvalue().decode("utf-8")
    assert "\\xff\\xfe-1.jsonl and 1 more files" in text
    cells = rows_csv.read_bytes().decode("utf-8")          # valid UTF-8
    assert "\\xff\\xfe-1.jsonl" in cells
    assert "\\xff\\xfe-1.jsonl" in err                      # what was read, on stderr
    # and a message naming such a file
    code, _, err = run(A, names[0] + ".missing")
    assert code == 2 and "\\xff\\xfe-1.jsonl.missing: cannot be read" in err
