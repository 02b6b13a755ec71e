"""The command streams B past A's index: memory bounded by A and a piece of B, not by B,
and the same bytes as the page's path (B indexed whole) on every input."""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from ngram_core import Row, Settings, run_check
from ngram_core.run.distributed import check_distributed
from ngram_core.read.files import INDEX_B_BYTES, fields_of, load_rows_by_file

ROOT = Path(__file__).parent.parent
WORDS = [f"w{i}" for i in range(2000)]


def write_jsonl(path: Path, rows: int, seed: int, leaks=()) -> None:
    rng = random.Random(seed)
    with open(path, "w") as f:
        for i in range(rows):
            text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 120)))
            if i % 997 == 0 and leaks:
                text += " " + leaks[(i // 997) % len(leaks)]
            f.write(json.dumps({"id": f"d{i}", "text": text}) + "\n")


def peak_mb(*argv) -> float:
    """The peak resident memory of the command in a fresh process, in MB: its own
    ``VmHWM``, which starts afresh at exec (``ru_maxrss`` of a process forked from a
    big parent, as pytest is late in a run, starts at the parent's peak)."""
    code = ("import re, sys; from ngram_core.cli import main; code = main(sys.argv[1:]);"
            "print(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1),"
            " file=sys.stderr); sys.exit(code)")
    done = subprocess.run([sys.executable, "-c", code, *map(str, argv)], capture_output=True,
                          text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    return int(done.stderr.splitlines()[-1]) / 1024


def test_memory_does_not_grow_with_b(tmp_path):
    a = tmp_path / "test.jsonl"
    write_jsonl(a, 400, 1)
    leaks = [json.loads(line)["text"] for line in a.read_text().splitlines()[:5]]
    small, large = tmp_path / "small.jsonl", tmp_path / "large.jsonl"
    write_jsonl(small, 25_000, 2, leaks)          # about 12 MB
    write_jsonl(large, 100_000, 3, leaks)         # about 48 MB
    assert small.stat().st_size > INDEX_B_BYTES   # both streamed, not indexed whole
    small_peak = peak_mb(a, small, "--blocksize", "4MiB", "--json")
    large_peak = peak_mb(a, large, "--blocksize", "4MiB", "--json")
    assert large_peak < 400                        # the bound for a test set of up to 2 MB
    # 4 x the training data, about the same peak (indexed whole it would be ~22 x B)
    assert large_peak < small_peak * 1.25 + 20, (small_peak, large_peak)


texts = st.lists(st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=1, max_size=40)
                 .map(" ".join), min_size=1, max_size=12)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                   HealthCheck.function_scoped_fixture])
@given(texts, texts, st.integers(1, 4), st.sampled_from([None, 1, 2]),
       st.sampled_from([64, 300, 1 << 20]))
def test_streamed_equals_indexed_with_repetition_the_cap_and_the_filter(
        tmp_path, a_texts, b_texts, cap, max_b_rows, blocksize):
    a_path, b_path = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a_path.write_text("".join(json.dumps({"id": f"a{i}", "text": t}) + "\n"
                              for i, t in enumerate(a_texts)))
    b_path.write_text("".join(json.dumps({"id": f"b{i}", "text": t}) + "\n"
                              for i, t in enumerate(b_texts + a_texts[:2])))
    a_rows, _, a_reads = load_rows_by_file([str(a_path)], ["text"])
    b_rows, b_files, b_reads = load_rows_by_file([str(b_path)], ["text"])
    s = Settings(n=5, cap=cap, max_b_rows=max_b_rows, threshold=10)
    indexed = run_check(a_rows, b_rows, s, b_files, fields=(["text"], fields_of(b_reads)))
    streamed = check_distributed(None, a_rows, [str(b_path)], s, a_fields=["text"],
                                 b_fields=["text"], blocksize=blocksize)
    assert streamed.summary.as_dict() == indexed.summary.as_dict()
    assert streamed.csv() == indexed.csv()
    assert streamed.rows_csv() == indexed.rows_csv()


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("suffix", [".jsonl", ".txt", ".jsonl.gz"])
def test_a_utf16_training_file_streams_to_the_same_result(tmp_path, encoding, suffix):
    """UTF-16 (with its byte-order mark, as Excel and Windows tools save "Unicode"
    text) has two-byte line breaks: a file is read whole, never cut at a byte 0A."""
    a_path = tmp_path / "a.jsonl"
    write_jsonl(a_path, 40, 6)
    leaks = [json.loads(line)["text"] for line in a_path.read_text().splitlines()[:3]]
    plain = tmp_path / "b.jsonl"
    write_jsonl(plain, 3000, 7, leaks)
    lines = plain.read_text().splitlines(keepends=True)
    if suffix == ".txt":
        lines = [json.loads(line)["text"] + "\u010a\u0a0a\n" for line in lines]  # 0A in both bytes
        plain = tmp_path / "b-utf8.txt"
        plain.write_text("".join(lines))
    wide = ("\ufeff" + "".join(lines)).encode(encoding)
    b_path = tmp_path / f"b-wide{suffix}"
    b_path.write_bytes(gzip.compress(wide) if suffix.endswith(".gz") else wide)
    a_rows = load_rows_by_file([str(a_path)], ["text"])[0]
    fields = ["text"] if suffix != ".txt" else None
    b_rows, b_files, b_reads = load_rows_by_file([str(plain)], fields)
    indexed = run_check(a_rows, b_rows, Settings(n=8), b_files,
                        fields=(["text"], fields_of(b_reads)))
    streamed = check_distributed(None, a_rows, [str(b_path)], Settings(n=8), a_fields=["text"],
                                 b_fields=fields, blocksize=4096)
    assert indexed.summary.flagged >= 3
    assert streamed.summary.as_dict() == indexed.summary.as_dict()
    assert streamed.b_reads[0].rows == len(lines)


@pytest.mark.parametrize("first_line_words", [20_000, 300_000])   # past 64 KiB; past 1 MiB
@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz"])
def test_a_first_line_longer_than_the_bytes_looked_at_first_is_read(tmp_path, first_line_words,
                                                                     suffix):
    """A training document on one line (a book, a long web page) longer than the
    first bytes the command checks, or samples for the fields: read, not refused
    as a line of JSON cut in half."""
    a_path = tmp_path / "a.jsonl"
    write_jsonl(a_path, 30, 8)
    leak = json.loads(a_path.read_text().splitlines()[4])["text"]
    rng = random.Random(9)
    long_text = " ".join(rng.choice(WORDS) for _ in range(first_line_words))
    lines = [json.dumps({"id": "book", "text": long_text}) + "\n",
             json.dumps({"id": "page", "text": "x " + leak + " y"}) + "\n"]
    b_path = tmp_path / f"b{suffix}"
    data = "".join(lines).encode()
    b_path.write_bytes(gzip.compress(data) if suffix.endswith(".gz") else data)
    a_rows = load_rows_by_file([str(a_path)], ["text"])[0]
    b_rows, b_files, b_reads = load_rows_by_file([str(b_path)], None)     # fields detected
    assert b_reads[0].text_fields == ["text"] and len(b_rows) == 2
    indexed = run_check(a_rows, b_rows, Settings(), b_files, fields=(["text"], ["text"]))
    streamed = check_distributed(None, a_rows, [str(b_path)], Settings(), a_fields=["text"],
                                 blocksize=64 * 2**10)
    assert indexed.summary.flagged == 1
    assert streamed.summary.as_dict() == indexed.summary.as_dict()
    assert streamed.b_reads[0].text_fields == ["text"]


def test_a_window_shared_with_a_counts_toward_the_cap_notice_only_if_a_holds_it():
    word = " ".join(["same"] * 60)
    other = " ".join(["else"] * 60)
    a = [Row(1, "a", word)]
    result = run_check(a, [Row(1, "b", word), Row(2, "c", other)], Settings(n=5))
    assert result.summary.windows_capped == 1      # "else else..." is capped too, not in A


def test_a_json_document_larger_than_the_head_is_streamed_as_one_partition(tmp_path):
    """The first MiB of a JSON array does not parse on its own: the document is read
    whole, as its one partition is (a line-based file never is)."""
    a_path, b_path = tmp_path / "a.jsonl", tmp_path / "b.json"
    write_jsonl(a_path, 50, 4)
    a_text = json.loads(a_path.read_text().splitlines()[7])["text"]
    rng = random.Random(5)
    records = [{"id": f"d{i}", "text": " ".join(rng.choice(WORDS) for _ in range(60))}
               for i in range(6000)] + [{"id": "leak", "text": "x " + a_text + " y"}]
    b_path.write_text(json.dumps(records))
    assert b_path.stat().st_size > 2**20
    a_rows = load_rows_by_file([str(a_path)], ["text"])[0]
    streamed = check_distributed(None, a_rows, [str(b_path)], Settings(), a_fields=["text"])
    assert streamed.summary.flagged == 1 and streamed.b_reads[0].rows == 6001


@pytest.mark.parametrize("odd_last_line", [False, True])
def test_a_txt_training_file_that_is_a_tab_table_streams_as_it_is_read_whole(tmp_path,
                                                                             odd_last_line):
    """A ``.txt`` of tab-separated columns with a header (MRPC's files, a spreadsheet
    saved as text) is a TSV both ways: the same rows, fields and figures, the header
    not a row, the id column not text. One whose last line is no such row (a stray
    tab) is read by line both ways, as before."""
    a_path, b_path = tmp_path / "a.jsonl", tmp_path / "b.txt"
    write_jsonl(a_path, 40, 8)
    leaks = [json.loads(line)["text"] for line in a_path.read_text().splitlines()[:3]]
    plain = tmp_path / "b.jsonl"
    write_jsonl(plain, 3000, 9, leaks)
    records = [json.loads(line) for line in plain.read_text().splitlines()]
    b_path.write_text("doc_id\tbody\n" + "".join(f"{r['id']}\t{r['text']}\n" for r in records)
                      + ("x\ta stray\ttab\n" if odd_last_line else ""))
    fields, rows = (["text"], 3002) if odd_last_line else (["body"], 3000)
    a_rows = load_rows_by_file([str(a_path)], ["text"])[0]
    b_rows, b_files, b_reads = load_rows_by_file([str(b_path)], None)
    assert fields_of(b_reads) == fields and len(b_rows) == rows
    indexed = run_check(a_rows, b_rows, Settings(n=8), b_files, fields=(["text"], fields))
    streamed = check_distributed(None, a_rows, [str(b_path)], Settings(n=8), a_fields=["text"],
                                 b_fields=None, blocksize=4096)
    assert indexed.summary.flagged >= 3
    assert streamed.summary.as_dict() == indexed.summary.as_dict()
    assert streamed.b_reads[0].rows == rows and fields_of(streamed.b_reads) == fields


def test_an_arrow_file_streams_in_runs_of_record_batches_to_the_same_result(tmp_path):
    """Hugging Face datasets write record batches of 1,000 rows: one partition each
    would be thousands of partitions, so they are cut in runs of about the block
    size, each batch in exactly one run, with the same result as the file read whole."""
    import pyarrow as pa

    from ngram_core.run.stream import part_bytes, plan_partitions

    a_path, b_jsonl, b_arrow = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "b.arrow"
    write_jsonl(a_path, 40, 6)
    leaks = [json.loads(line)["text"] for line in a_path.read_text().splitlines()[:3]]
    write_jsonl(b_jsonl, 600, 7, leaks)
    table = pa.Table.from_pylist([json.loads(line) for line in b_jsonl.read_text().splitlines()])
    with pa.ipc.new_stream(str(b_arrow), table.schema) as writer:
        writer.write_table(table, max_chunksize=20)             # 30 batches
    batch_bytes = table.nbytes // 30
    parts = plan_partitions([str(b_arrow)], blocksize=batch_bytes * 4)
    assert 5 <= len(parts) < 30
    runs = [part.pieces for part in parts]
    assert [first for first, _, _ in runs] == [0] + [end for _, end, _ in runs[:-1]]
    assert runs[-1][1:] == (30, 30)
    assert sum(part_bytes(part) for part in parts) <= b_arrow.stat().st_size
    a_rows = load_rows_by_file([str(a_path)], ["text"])[0]
    b_rows, b_files, b_reads = load_rows_by_file([str(b_jsonl)], ["text"])
    whole = run_check(a_rows, b_rows, Settings(n=8), b_files, fields=(["text"], ["text"]))
    streamed = check_distributed(None, a_rows, [str(b_arrow)], Settings(n=8), a_fields=["text"],
                                 blocksize=batch_bytes * 4)
    assert whole.summary.flagged > 0
    assert streamed.csv() == whole.csv()


# A process in which numpy and pyarrow cannot be imported (as in the tab, or an
# environment that lacks them): the engine takes its pure-Python path.
WITHOUT_NUMPY = ("import sys; sys.modules['numpy'] = sys.modules['pyarrow'] = None;"
                 "from ngram_core.cli import main; sys.exit(main(sys.argv[1:]))")


def test_the_streamed_command_without_numpy_and_pyarrow_writes_the_same_bytes(tmp_path):
    """numpy and pyarrow are dependencies for speed only: the same training file
    streamed (compressed, so it streams at any size) with and without them gives
    the same summary and the same rows CSV, rephrase lens and all."""
    rng = random.Random(11)
    a_texts = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(14, 40)))
               for _ in range(60)]
    a_texts += ["Janet has 16 ducks and sells eggs at the farmers' market for $2.",
                "日本語のテキストも読みます。東京は大きい都市です。", "parseHTTPResponse(max_len=2)"]
    a = tmp_path / "test.jsonl"
    a.write_text("".join(json.dumps({"id": f"a{i}", "text": t}, ensure_ascii=False) + "\n"
                         for i, t in enumerate(a_texts)), encoding="utf-8")
    b_texts = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(20, 80))) for _ in range(3000)]
    b_texts[100] += " " + a_texts[3]                           # a copied passage
    b_texts[200] = "At the farmers' market Janet sells what her 16 ducks lay, $2 each."
    b_texts[300] = "東京は大きい都市です。日本語のテキスト"
    b = tmp_path / "train.jsonl.gz"
    with gzip.open(b, "wt", encoding="utf-8") as f:
        f.writelines(json.dumps({"id": f"b{i}", "text": t}, ensure_ascii=False) + "\n"
                     for i, t in enumerate(b_texts))
    outputs = {}
    for name, code in (("fast", "import sys; from ngram_core.cli import main;"
                                "sys.exit(main(sys.argv[1:]))"), ("pure", WITHOUT_NUMPY)):
        csv = tmp_path / f"{name}.csv"
        done = subprocess.run([sys.executable, "-c", code, str(a), str(b), "--n", "8",
                               "--json", "--rows-csv", str(csv)],
                              capture_output=True, text=True, cwd=ROOT, timeout=600)
        assert done.returncode == 0, done.stderr
        outputs[name] = (json.loads(done.stdout), csv.read_bytes())
    summary, rows_csv = outputs["fast"]
    assert summary["flagged"] >= 1 and summary["rephrased"] >= 1   # the check found both
    assert outputs["pure"] == outputs["fast"]


@pytest.mark.parametrize("suffix", [".jsonl", ".jsonl.gz"])
def test_a_bad_byte_in_a_utf8_training_file_is_refused_streamed_as_read_whole(
        tmp_path, suffix, monkeypatch):
    """A UTF-8 file (its first row holds "café") with one byte 0xFF far past its head:
    read whole it is refused naming the line; streamed, the piece holding the byte
    is ASCII but for it and read plainly as Windows-1252, so it was read silently
    (exit 0, a clean verdict; decontaminate wrote the byte into the cleaned copy).
    A file that is Windows-1252 throughout still streams, as it is read whole."""
    from ngram_core.cli import main
    from ngram_core.decontaminate import main as decontaminate_main
    from ngram_core.read import files
    import io
    monkeypatch.setattr(files, "INDEX_B_BYTES", 1 << 20)
    a_path = tmp_path / "a.jsonl"
    write_jsonl(a_path, 20, 8)
    rng = random.Random(9)
    lines = [json.dumps({"text": " ".join(rng.choice(WORDS) for _ in range(30))}).encode()
             for _ in range(40_000)]
    lines[0] = json.dumps({"text": "It\u2019s a caf\u00e9 " + "w1 " * 20},
                          ensure_ascii=False).encode()
    lines[30_000] = lines[30_000][:20] + b"\xff" + lines[30_000][20:]
    data = b"\n".join(lines) + b"\n"
    b_path = tmp_path / f"b{suffix}"
    b_path.write_bytes(gzip.compress(data) if suffix.endswith(".gz") else data)
    for run in (lambda err: main([str(a_path), str(b_path)], io.StringIO(), err),
                lambda err: main([str(a_path), str(b_path), "--jobs", "1"], io.StringIO(), err),
                lambda err: decontaminate_main(["--evals", str(a_path), "--train", str(b_path),
                                                "--out", str(tmp_path / "out")],
                                               io.StringIO(), err)):
        err = io.StringIO()
        assert run(err) == 2
        assert f"line 30001: is not valid UTF-8 (byte 0xff at column 21)" in err.getvalue()
    assert not (tmp_path / "out").exists()
    # Windows-1252 throughout (no UTF-8 anywhere): read, streamed as whole
    lines[0] = json.dumps({"text": "w1 " * 20}).encode()
    lines[30_000] = lines[30_000].replace(b"\xff", b"caf\xe9 ")
    plain = tmp_path / "cp1252.jsonl"
    plain.write_bytes(b"\n".join(lines) + b"\n")
    assert main([str(a_path), str(plain)], io.StringIO(), io.StringIO()) == 0
