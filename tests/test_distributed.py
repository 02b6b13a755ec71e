"""The Dask engine gives the single-machine command's numbers and CSV, byte for byte."""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import json
import lzma
import random

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import zstandard
from dask.distributed import Client, LocalCluster

from conftest import EXAMPLES, FIXTURES
from ngram_core import InputError, Settings, run_check
from ngram_core.cli import main
from ngram_core.run.distributed import check_distributed
from ngram_core.run.stream import Combined, index_a, plan_partitions, walk_partition
from ngram_core.read.files import fields_of, load_rows, load_rows_by_file


@pytest.fixture(scope="module")
def client():
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                           dashboard_address=None)
    with Client(cluster) as c:
        yield c
    cluster.close()


def corpus(seed: int, rows: int, vocabulary: int = 40):
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(vocabulary)]
    return [" ".join(rng.choices(words, k=rng.randint(0, 40))) for _ in range(rows)]


def write_shards(directory, texts, formats):
    """Split texts into consecutive shards, one per format, in order; returns the paths."""
    paths, size = [], -(-len(texts) // len(formats))
    for k, fmt in enumerate(formats):
        chunk = texts[k * size:(k + 1) * size]
        ids = [f"b{k}-{i}" for i in range(len(chunk))]
        path = directory / f"shard-{k:02d}.{fmt}"
        records = "".join(json.dumps({"id": i, "text": t}) + "\n" for i, t in zip(ids, chunk))
        if fmt == "jsonl":
            path.write_text(records)
        elif fmt == "jsonl.gz":
            path.write_bytes(gzip.compress(records.encode()))
        elif fmt == "jsonl.zst":
            path.write_bytes(zstandard.ZstdCompressor().compress(records.encode()))
        elif fmt == "jsonl.bz2":
            path.write_bytes(bz2.compress(records.encode()))
        elif fmt == "jsonl.xz":
            path.write_bytes(lzma.compress(records.encode()))
        elif fmt == "json":        # one array of records, read item by item
            path.write_text(json.dumps([{"id": i, "text": t} for i, t in zip(ids, chunk)],
                                       indent=2))
        elif fmt == "csv":
            out = io.StringIO()
            w = csv.writer(out)
            w.writerow(["id", "text"])
            w.writerows(zip(ids, chunk))
            path.write_text(out.getvalue())
        elif fmt == "parquet":
            pq.write_table(pa.table({"id": ids, "text": chunk}), path, row_group_size=7)
        elif fmt == "arrow":       # Hugging Face datasets' save_to_disk: the stream format
            table = pa.table({"id": ids, "text": chunk})
            with pa.ipc.new_stream(str(path), table.schema) as writer:
                writer.write_table(table, max_chunksize=6)
        elif fmt == "feather":     # Arrow's file format
            table = pa.table({"id": ids, "text": chunk})
            with pa.ipc.new_file(str(path), table.schema) as writer:
                writer.write_table(table, max_chunksize=9)
        paths.append(str(path))
    return paths


def local_and_distributed(client, tmp_path, a_texts, b_texts, formats, settings, blocksize):
    a_path = tmp_path / "a.jsonl"
    a_path.write_text("".join(json.dumps({"id": f"a{i}", "text": t}) + "\n"
                              for i, t in enumerate(a_texts)))
    b_paths = write_shards(tmp_path, b_texts, formats)
    a_rows, _, a_reads = load_rows_by_file([str(a_path)])
    a_fields = a_reads[0].text_fields
    b_rows, b_files, b_reads = load_rows_by_file(b_paths, like=a_fields)
    local = run_check(a_rows, b_rows, settings, b_files, fields=(a_fields, fields_of(b_reads)))
    remote = check_distributed(client, a_rows, b_paths, settings, a_fields=a_fields,
                               b_like=a_fields, blocksize=blocksize)
    return local, remote


@pytest.mark.parametrize("seed, formats, n, mode, blocksize", [
    (1, ["jsonl"], 5, "loose", 1 << 20),
    (2, ["jsonl", "csv", "parquet", "jsonl.gz", "jsonl.zst"], 5, "loose", 1 << 20),
    (3, ["jsonl", "jsonl", "jsonl"], 6, "strict", 300),          # many small blocks
    (4, ["parquet", "jsonl"], 8, "loose", 512),
    (5, ["arrow", "jsonl", "feather"], 5, "loose", 1 << 20),
    (6, ["jsonl.bz2", "json", "jsonl.xz", "csv"], 5, "loose", 1 << 20),
])
def test_same_summary_and_csv_as_single_machine(client, tmp_path, seed, formats, n, mode,
                                                  blocksize):
    a_texts = corpus(seed, 25) + ["", "w1 w2", "   "]
    b_texts = corpus(seed + 100, 120) + a_texts[:3] + ["w1 w2"]
    settings = Settings(n=n, mode=mode, threshold=10)
    local, remote = local_and_distributed(client, tmp_path, a_texts, b_texts, formats,
                                          settings, blocksize)
    assert local.summary.windows_capped == 0       # where the cap never bites, exact equality
    assert remote.summary.as_dict() == local.summary.as_dict()
    assert remote.csv() == local.csv()
    assert local.summary.flagged > 0 and local.summary.duplicates > 0


def test_tie_breaks_follow_file_order_across_shards(client, tmp_path):
    passage = " ".join(f"t{i}" for i in range(20))
    a_texts = [passage]
    # the same passage in several rows and shards: the first B row in file order wins
    b_texts = ["x y " + passage, passage, "z " + passage, passage]
    local, remote = local_and_distributed(client, tmp_path, a_texts, b_texts,
                                          ["csv", "jsonl", "parquet", "jsonl"], Settings(n=5), 64)
    assert local.matches[0].b_row == 0 and local.matches[0].b_start == 2
    assert remote.csv() == local.csv()


def test_partition_with_no_match_and_no_rows(client, tmp_path):
    a_texts = [" ".join(f"k{i}" for i in range(15))]
    b_texts = ["nothing here at all"] * 5 + [a_texts[0]]
    local, remote = local_and_distributed(client, tmp_path, a_texts, b_texts,
                                          ["jsonl", "jsonl", "jsonl"], Settings(n=5), 30)
    assert remote.csv() == local.csv()
    assert remote.summary.flagged == 1


def test_combine_is_idempotent_and_order_free(tmp_path):
    a_rows = load_rows([str(EXAMPLES / "test-set.json")])
    b_path = tmp_path / "b.jsonl"
    b_path.write_text("".join(json.dumps(r) + "\n" for r in
                              json.loads((EXAMPLES / "training-corpus.json").read_text()) * 3))
    parts = plan_partitions([str(b_path)], blocksize=200)
    assert len(parts) > 2
    _, _, index = index_a(a_rows, Settings())
    partials = [walk_partition(p, ["text"], "id", index) for p in parts]

    def fold(items):
        total = Combined()
        for item in items:
            total.add(item)
        return total

    once = fold(partials)
    assert fold(partials + partials[:2]) == once          # a retried partition adds nothing
    assert fold(list(reversed(partials))) == once


def test_bad_shard_names_the_shard_and_line(client, tmp_path):
    good = tmp_path / "s1.jsonl"
    good.write_text("".join(json.dumps({"text": f"row {i}"}) + "\n" for i in range(50)))
    bad = tmp_path / "s2.jsonl"
    lines = [json.dumps({"text": f"row {i}"}) for i in range(50)]
    lines[37] = '{"text": broken'
    bad.write_text("\n".join(lines) + "\n")
    a_rows = load_rows([str(EXAMPLES / "test-set.json")])
    with pytest.raises(InputError) as info:
        check_distributed(client, a_rows, [str(good), str(bad)], Settings(), blocksize=200)
    assert str(info.value).startswith(str(bad) + ", line 38")


def test_command_line_dask_engine_writes_the_same_csv(tmp_path):
    a, b = str(EXAMPLES / "test-set.json"), str(EXAMPLES / "training-corpus.json")
    out, err = io.StringIO(), io.StringIO()
    assert main([a, b, "--csv", str(tmp_path / "local.csv")], out, err) == 0
    assert main([a, str(EXAMPLES / "training-*.json"), "--engine", "dask", "--workers", "1",
                 "--csv", str(tmp_path / "dask.csv"), "--json"], out, err) == 0, err.getvalue()
    assert (tmp_path / "dask.csv").read_bytes() == (tmp_path / "local.csv").read_bytes()


def test_command_line_dask_engine_reads_and_reports_as_one_machine(tmp_path):
    squad = FIXTURES / "page"
    a, b = str(squad / "squad.json"), str(squad / "squad-corpus.jsonl")
    out, err = io.StringIO(), io.StringIO()
    assert main([a, b, "--engine", "dask", "--workers", "1", "--json"], out, err) == 0, \
        err.getvalue()
    said = err.getvalue().splitlines()
    assert said[0].startswith(f"A {a}: 4 rows, text from data.paragraphs.context + "
                              "question + answers.text, id from id")
    local_out, local_err = io.StringIO(), io.StringIO()
    assert main([a, b, "--json"], local_out, local_err) == 0
    remote, local = json.loads(out.getvalue()), json.loads(local_out.getvalue())
    assert remote == local
    assert [(f["field"], f["rows_matched"]) for f in remote["fields"]] == [
        ("data.paragraphs.context", 0), ("question", 2), ("answers.text", 0)]
    # a chosen field that flags nothing: the note names the text left out
    out, err = io.StringIO(), io.StringIO()
    assert main([a, b, "--engine", "dask", "--workers", "1", "--a-field",
                 "data.paragraphs.context"], out, err) == 0
    assert [line for line in err.getvalue().splitlines() if line.startswith("Note: ")] == [
        f"Note: {a}: Nothing was flagged in data.paragraphs.context, the text of file A "
        "checked. File A also holds question (16 tokens per row), not checked: a leak of it "
        "would not show here. Check question with --a-field question."]


@pytest.mark.parametrize("seed, formats, short_min, max_b_rows", [
    (5, ["jsonl", "csv", "jsonl.zst"], 3, None),
    (6, ["jsonl", "parquet", "jsonl"], 2, 2),
    (7, ["jsonl", "jsonl.gz"], 0, 1),
])
def test_contained_rows_and_the_frequency_filter_match_the_single_machine(
        client, tmp_path, seed, formats, short_min, max_b_rows):
    boiler = "z1 z2 z3 z4 z5 z6 z7"
    a_texts = corpus(seed, 25, vocabulary=12) + ["w1 w2 w3", "w4 w5 w6 w7", boiler]
    b_texts = corpus(seed + 100, 90, vocabulary=12) + ["x w1 w2 w3 y", "w4 w5 w6 w7"] * 3 + \
        [f"pre {boiler} post"] * 3
    settings = Settings(n=5, short_min=short_min, max_b_rows=max_b_rows, threshold=20)
    local, remote = local_and_distributed(client, tmp_path, a_texts, b_texts, formats,
                                          settings, 300)
    assert local.summary.windows_capped == 0
    # both count the windows A holds that the filter ignored: every byte the same
    assert remote.summary.as_dict() == local.summary.as_dict()
    assert remote.csv() == local.csv() and remote.rows_csv() == local.rows_csv()
    if short_min:
        assert local.summary.contained > 0
    if max_b_rows:
        assert local.summary.windows_ignored > 0


@pytest.mark.parametrize("cap, blocksize", [(1, 200), (2, 120), (3, 1 << 20), (32, 150)])
def test_the_cap_gives_the_same_bytes_streamed_in_parallel(client, tmp_path, cap, blocksize):
    """Windows of B past the cap (the first cap positions in file order start spans)
    spread over partitions walked in parallel: the partitions that used a position
    past it are walked again, ranked, and every byte equals the single machine's."""
    a_texts = ["r1 r2 r3 r4 r5 r6 r7 r8 r9", "s1 r2 r3 r4 r5 r6 s7", *corpus(9, 10)]
    b_texts = ([f"p{i} r1 r2 r3 r4 r5 r6 r7 q{i}" for i in range(40)] +
               ["r1 r2 r3 r4 r5 r6 r7 r8 r9"] + corpus(109, 30) + ["x r2 r3 r4 r5 r6 s7"])
    settings = Settings(n=5, cap=cap, threshold=10)
    local, remote = local_and_distributed(client, tmp_path, a_texts, b_texts, ["jsonl"],
                                          settings, blocksize)
    assert local.summary.windows_capped > 0 or cap == 32
    assert remote.summary.as_dict() == local.summary.as_dict()
    assert remote.csv() == local.csv() and remote.rows_csv() == local.rows_csv()
    streamed = check_distributed(None, local.a_rows, [str(tmp_path / "shard-00.jsonl")], settings,
                                 a_fields=["text"], blocksize=blocksize)
    assert streamed.csv() == local.csv()


def test_a_compressed_shard_streams_in_pieces_and_names_a_bad_line(client, tmp_path):
    a_texts = corpus(8, 20) + ["w1 w2 w3 w4 w5 w6 w7 w8 w9"]
    b_texts = corpus(108, 200) + a_texts[:5]
    local, remote = local_and_distributed(client, tmp_path, a_texts, b_texts,
                                          ["jsonl.gz", "jsonl.zst"], Settings(n=5), 256)
    assert remote.csv() == local.csv() and remote.rows_csv() == local.rows_csv()
    lines = [json.dumps({"text": f"row {i} " * 20}) for i in range(4000)]
    lines[3000] = '{"text": broken'                   # past the head the client looks at
    bad = tmp_path / "bad.jsonl.gz"
    bad.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    parts = plan_partitions([str(bad)], blocksize=1024)
    assert len(parts) == 1 and parts[0].chunk == 1024       # one partition, many pieces
    a_rows = load_rows([str(EXAMPLES / "test-set.json")])
    for engine in (client, None):                     # on Dask, and streamed in this process
        with pytest.raises(InputError) as info:
            check_distributed(engine, a_rows, [str(bad)], Settings(), blocksize=1024)
        assert str(info.value).startswith(str(bad) + ", line 3001")
    lines[300] = '{"text": broken'                    # within it: refused before any work
    bad.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    with pytest.raises(InputError, match=", line 301: is not valid JSON Lines"):
        plan_partitions([str(bad)], blocksize=1024)


@pytest.mark.parametrize("seed, formats, blocksize", [
    (9, ["jsonl", "csv", "parquet"], 1 << 20),
    (10, ["jsonl.gz", "jsonl", "jsonl.zst"], 256),          # streamed in many pieces
])
def test_the_published_definitions_match_the_single_machine(client, tmp_path, seed, formats,
                                                            blocksize):
    from ngram_core.report.definitions import compute_definitions
    a_texts = corpus(seed, 30, vocabulary=15) + ["w1 w2 w3 w4 w5 w6 w7 w8 w9", ""]
    b_texts = corpus(seed + 100, 150, vocabulary=15) + [a_texts[-2]] * 12
    local, remote = local_and_distributed(client, tmp_path, a_texts, b_texts, formats,
                                          Settings(), blocksize)
    assert remote.definitions is None                    # not asked for
    a_rows = local.a_rows
    b_rows = load_rows_by_file(sorted(str(p) for p in tmp_path.glob("shard-*")))[0]
    expected = compute_definitions(a_rows, b_rows)
    with_defs = check_distributed(client, a_rows, sorted(str(p) for p in tmp_path.glob("shard-*")),
                                  Settings(), blocksize=blocksize, definitions=True)
    assert with_defs.definitions.as_dict() == expected.as_dict()
    assert [with_defs.definitions.cells(r) for r in range(len(a_rows))] == \
        [expected.cells(r) for r in range(len(a_rows))]
    assert sum(d["dirty"] for d in expected.as_dict().values()) > 0


def test_command_line_dask_engine_reports_the_same_definitions_and_scores(tmp_path):
    a = str(FIXTURES / "report" / "test-set.jsonl")
    b = str(FIXTURES / "report" / "training.jsonl")
    out = {}
    for engine in ("local", "dask"):
        stdout, err = io.StringIO(), io.StringIO()
        rows = tmp_path / f"{engine}.csv"
        workers = ["--workers", "1"] if engine == "dask" else []
        assert main([a, b, "--engine", engine, *workers, "--json", "--definitions",
                     "--score-field", "correct", "--rows-csv", str(rows)],
                    stdout, err) == 0, err.getvalue()
        summary = json.loads(stdout.getvalue())
        out[engine] = (summary["definitions"], summary["scores"], rows.read_bytes())
    assert out["dask"] == out["local"]


@pytest.mark.parametrize("pair", [("mc-web/test.jsonl", "mc-web/web.jsonl"),
                                  ("eval-requests/batch.jsonl", "eval-requests/finetune.jsonl"),
                                  ("chat-labels/eval.jsonl", "chat-labels/train.jsonl")])
def test_dask_finds_the_same_contained_fields_and_leaves_out_the_same_template(tmp_path, pair):
    """#33's reading on Dask: contained fields, chats read in order, A's template left out."""
    a, b = (str(FIXTURES / "shapes" / p) for p in pair)
    local_out = io.StringIO()
    assert main([a, b, "--json", "--rows-csv", str(tmp_path / "local.csv")], local_out,
                io.StringIO()) == 0
    out, err = io.StringIO(), io.StringIO()
    assert main([a, b, "--engine", "dask", "--workers", "1", "--json",
                 "--rows-csv", str(tmp_path / "dask.csv")], out, err) == 0, err.getvalue()
    assert json.loads(out.getvalue()) == json.loads(local_out.getvalue())
    assert (tmp_path / "dask.csv").read_bytes() == (tmp_path / "local.csv").read_bytes()
    summary = json.loads(out.getvalue())
    assert summary["contained"] + summary["template_rows"] + summary["flagged"] > 0


def test_the_rephrase_lens_gives_the_same_columns_on_dask(client, tmp_path):
    """Rewritten word problems (every rewrite kind at once) and their siblings with
    other numbers, in shards of several formats read by two workers: the lens's
    columns and counts are the single machine's, byte for byte."""
    from rephrase_data import dev_set
    a_texts, b_texts, _ = dev_set("math", "all", 40, 60)
    siblings = [t.replace("1", "7").replace("2", "9") for t in a_texts[1::2][:10]]
    settings = Settings(n=8)
    local, remote = local_and_distributed(client, tmp_path, a_texts, b_texts + siblings,
                                          ["jsonl", "parquet", "jsonl.gz"], settings, 600)
    assert local.summary.rephrased >= 10                        # the lens found rewrites
    assert remote.summary.as_dict() == local.summary.as_dict()
    assert remote.rows_csv() == local.rows_csv()
