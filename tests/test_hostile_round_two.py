"""What a fuzzer and a pile of hostile files found, each held here: ordinary Parquet
columns, files that are not text at any size, bombs, bad output paths. Each gives a
result (exit 0) or one line naming the file (exit 2), never a traceback; memory is
measured in a subprocess with an address-space bound, never timed."""

from __future__ import annotations

import datetime
import decimal
import gzip
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from benchmarks import pathological  # the inputs the benchmarks measure
from ngram_core import InputError, Settings, run_check
from ngram_core.cli import main
from ngram_core.read.fields import select_rows
from ngram_core.read.readers import FORMATS, read_table

ROOT = Path(__file__).parent.parent
A = str(ROOT / "static" / "examples" / "test-set.json")
SENTENCE = "In 1969 the Apollo 11 mission landed the first humans on the Moon and came home."


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    return main(list(map(str, argv)), out, err), out.getvalue(), err.getvalue()


def test_parquet_with_binary_dates_decimals_and_bad_utf8_strings_is_read(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq
    text = pa.array([f"row {i} \xff ".encode("latin-1") + SENTENCE.encode() for i in range(3)],
                    pa.binary()).view(pa.string())         # a string column, not UTF-8
    table = pa.table({
        "id": ["r1", "r2", "r3"],
        "blob": pa.array([b"\x00\x01", b"\x02", None], pa.binary()),
        "when": pa.array([datetime.datetime(2024, 1, 1, 12)] * 3, pa.timestamp("ms")),
        "day": pa.array([datetime.date(2024, 1, 1)] * 3),
        "price": pa.array([decimal.Decimal("1.50")] * 3, pa.decimal128(5, 2)),
        "text": text})
    path = tmp_path / "odd.parquet"
    pq.write_table(table, path)
    for args in ((path, path), (A, path), (path, A)):
        code, out, err = run(*args, "--json")
        assert code == 0, err
    code, out, err = run(path, path, "--json", "--a-id-field", "day")
    assert code == 0
    summary = json.loads(out)
    assert summary["a_fields"] == ["text"] and summary["flagged"] == 3


def test_parquet_failure_is_one_line(tmp_path):
    path = tmp_path / "broken.parquet"
    path.write_bytes(b"PAR1 this is not a parquet file PAR1")
    code, out, err = run(A, path)
    errors = [line for line in err.splitlines() if line.startswith("ngram-overlap: ")]
    assert code == 2 and errors == [err.splitlines()[-1]] and "Traceback" not in err
    assert errors[0].startswith(f"ngram-overlap: {path}: ")


@pytest.mark.parametrize("name, data, needle", [
    ("zeros.jsonl", b"\x00" * 100_000, "NUL"),
    ("image.txt", b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 100, "not a text file"),
    ("blob.csv", bytes(range(128, 256)) * 1000, "not valid UTF-8"),
])
def test_a_file_that_is_not_text_is_refused_from_its_first_bytes(tmp_path, name, data, needle):
    path = tmp_path / name
    path.write_bytes(data)
    code, out, err = run(A, path)
    errors = [line for line in err.splitlines() if line.startswith("ngram-overlap: ")]
    assert code == 2 and len(errors) == 1 and needle in errors[0] and "Traceback" not in err


def bounded(*argv, megabytes: int = 1024) -> subprocess.CompletedProcess:
    """The command in a subprocess whose address space is bounded (the interpreter and
    its libraries take about 300 MB of it)."""
    limit = megabytes * 2**20
    code = (f"import resource, sys; resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}));"
            f"from ngram_core.cli import main; sys.exit(main(sys.argv[1:]))")
    return subprocess.run([sys.executable, "-c", code, *map(str, argv)], capture_output=True,
                          text=True, timeout=300, cwd=ROOT)


def test_dev_zero_as_b_is_refused_at_once_in_bounded_memory():
    done = bounded(A, "/dev/zero")
    assert done.returncode == 2 and "/dev/zero, line 1: contains a NUL" in done.stderr


def test_a_gzip_bomb_as_a_is_refused_past_the_bound_in_bounded_memory(tmp_path):
    bomb = tmp_path / "bomb.jsonl.gz"
    line = (json.dumps({"text": SENTENCE}) + "\n").encode()
    with gzip.open(bomb, "wb", compresslevel=9) as f:
        for _ in range((80 * 2**20) // len(line)):      # 80 MiB of JSONL in about 0.3 MB
            f.write(line)
    done = bounded(bomb, A)
    assert done.returncode == 2, done.stderr
    assert "holds more than 64 MiB of text: file A" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_gzip_bomb_as_b_streams_in_bounded_memory(tmp_path):
    bomb = tmp_path / "bomb.jsonl.gz"
    line = (json.dumps({"text": SENTENCE}) + "\n").encode()
    with gzip.open(bomb, "wb", compresslevel=9) as f:
        for _ in range((60 * 2**20) // len(line)):      # 60 MiB of one line, about 0.2 MB
            f.write(line)
    done = bounded(A, bomb, "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["b_rows"] == (60 * 2**20) // len(line) and summary["windows_capped"] > 0


def test_a_compressed_jsonl_file_that_is_not_json_is_refused_from_its_head(tmp_path):
    fake = tmp_path / "train.jsonl.gz"
    with gzip.open(fake, "wb", compresslevel=9) as f:
        for _ in range(40_000):
            f.write(b"this is plain text, not JSON at all, line after line\n" * 50)
    done = bounded(A, fake, megabytes=700)          # 100 MB decompressed: never read whole
    assert done.returncode == 2
    assert f"{fake}, line 1: is not valid JSON Lines" in done.stderr


@pytest.mark.parametrize("case", [*pathological.CASES, "one row of 2 MB against itself"])
def test_pathological_2mb_inputs_finish_in_bounded_memory(tmp_path, case):
    """The README's pathological inputs (and one 2 MB row against itself) give a result
    with the address space bounded at 1 GB (their speed is measured by bench_browser)."""
    make = pathological.CASES.get(case, pathological.one_huge_row)
    a, a_name, b, b_name = make()
    (tmp_path / "a").mkdir(), (tmp_path / "b").mkdir()
    a_path, b_path = tmp_path / "a" / a_name, tmp_path / "b" / b_name
    a_path.write_bytes(a)
    b_path.write_bytes(b)
    done = bounded(a_path, a_path if case.endswith("itself") else b_path, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rows"] >= 1


def test_one_row_of_10000_columns_reads_every_column(tmp_path):
    wide = tmp_path / "wide.csv"
    wide.write_text(",".join(f"c{i}" for i in range(10_000)) + "\n" +
                    ",".join(["word"] * 10_000) + "\n")
    code, out, err = run(wide, wide, "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert len(summary["a_fields"]) == 10_000 and summary["flagged"] == 1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300) | st.text(max_size=200).map(str.encode),
       st.sampled_from([None, *FORMATS]))
def test_any_bytes_in_any_format_give_a_result_or_the_products_error(data, fmt):
    """The one promise, fuzzed: the reader and the check return or raise InputError."""
    try:
        table = read_table(data, "fuzz.bin", fmt)
        rows = select_rows(table)
    except InputError:
        return
    result = run_check(rows, rows, Settings(n=5))
    assert result.summary.rows == len(rows)
