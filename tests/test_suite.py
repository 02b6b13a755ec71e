"""A benchmark suite against training data in one pass, and the cleaned training set
(#35): each eval's figures are its own run's, byte for byte; the training rows marked
are exactly those an eval finds something in; the cleaned files keep every other row
byte for byte, in their own format, and no eval finds anything in them."""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import json
import lzma
import random
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import zstandard
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import ngram_core
import ngram_overlap
from ngram_core import InputError, Settings
from ngram_core.cli import main as check_main
from ngram_core.decontaminate import main as decontaminate_main
from ngram_core.run.distributed import OnDask
from ngram_core.read.files import read_path_table
from ngram_core.run.stream import check_streamed
from ngram_core.run.suite import EvalSet, check_suite, read_eval
from ngram_core.table import ReadOptions

WORDS = [f"w{i}" for i in range(300)]


def write_evals(folder: Path, seed: int, count: int = 3, rows: int = 30) -> list[Path]:
    rng = random.Random(seed)
    paths = []
    for k in range(count):
        path = folder / f"eval{k}.jsonl"
        path.write_text("".join(json.dumps({"id": f"e{k}-{i}", "text": " ".join(
            rng.choice(WORDS) for _ in range(rng.choice([4, 9, 30])))}) + "\n"
            for i in range(rows)))
        paths.append(path)
    return paths


def training_texts(evals: list[Path], seed: int, rows: int = 600) -> list[str]:
    rng = random.Random(seed)
    leaks = [json.loads(line)["text"] for p in evals for line in p.read_text().splitlines()]
    texts = []
    for i in range(rows):
        text = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 40)))
        if i % 37 == 0:
            text += " " + rng.choice(leaks)
        texts.append(text)
    return texts


def eval_sets(paths) -> list[EvalSet]:
    return [read_eval(str(path))[0] for path in paths]


def finds_nothing(ev: EvalSet, b_paths, s: Settings) -> bool:
    summary = check_streamed(ev.rows, [str(p) for p in b_paths], s, a_fields=ev.fields,
                             b_like=ev.like).summary
    return (summary.flagged, summary.contained, summary.duplicates, summary.dirty_tokens) == \
        (0, 0, 0, 0)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.sampled_from([5, 8, 13]), st.sampled_from([None, 2]),
       st.booleans(), st.sampled_from([3, 10]))
def test_each_eval_of_a_suite_is_its_own_run_and_the_marked_rows_are_what_it_finds(
        tmp_path, seed, n, max_b_rows, keep_template, count):
    # 10 evals: more than one bitmap of tags (eight evals each)
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    evals = write_evals(folder, seed, count)
    train = folder / "train.jsonl"
    texts = training_texts(evals, seed + 1)
    train.write_text("".join(json.dumps({"id": f"t{i}", "text": t}) + "\n"
                             for i, t in enumerate(texts)))
    s = Settings(n=n, max_b_rows=max_b_rows, keep_template=keep_template)
    sets = eval_sets(evals)
    suite = check_suite(sets, [str(train)], s, blocksize=1 << 16)
    for ev, result in zip(sets, suite.results):
        own = check_streamed(ev.rows, [str(train)], s, a_fields=ev.fields, b_like=ev.like)
        assert result.summary.as_dict() == own.summary.as_dict()
        assert result.rows_csv() == own.rows_csv() and result.csv() == own.csv()
    if max_b_rows is not None:
        return                # the filter judges a window on the whole training data
    marked = {r.row: {c.eval for c in r.causes} for r in suite.removals}
    # a marked row is one its causes find something in, alone; an unmarked row, none
    unmarked = [k for k in range(1, len(texts) + 1) if k not in marked]
    for row in [*marked, *random.Random(seed).sample(unmarked, 20)]:
        alone = folder / "row.jsonl"
        alone.write_text(json.dumps({"id": "x", "text": texts[row - 1]}) + "\n")
        found = {e for e, ev in enumerate(sets) if not finds_nothing(ev, [alone], s)}
        assert found == marked.get(row, set()), (row, texts[row - 1])
    # and without the marked rows, no eval finds anything
    cleaned = folder / "cleaned.jsonl"
    cleaned.write_text("".join(json.dumps({"id": f"t{i}", "text": t}) + "\n"
                               for i, t in enumerate(texts) if i + 1 not in marked))
    assert all(finds_nothing(ev, [cleaned], s) for ev in sets)


def cleaned_run(tmp_path, evals, trains, *more) -> tuple[int, str, str, Path]:
    out, err = io.StringIO(), io.StringIO()
    folder = tmp_path / "cleaned"
    code = decontaminate_main(["--evals", *map(str, evals), "--train", *map(str, trains),
                               "--out", str(folder), "--n", "8", "--json", *more], out, err)
    return code, out.getvalue(), err.getvalue(), folder


def test_the_report_holds_each_evals_own_json_and_where_each_was_found(tmp_path):
    evals = write_evals(tmp_path, 5)
    train = tmp_path / "train.jsonl"
    train.write_text("".join(json.dumps({"id": f"t{i}", "text": t}) + "\n"
                             for i, t in enumerate(training_texts(evals, 6))))
    code, out, err, folder = cleaned_run(tmp_path, evals, [train], "--rows-csv")
    assert code == 0, err
    report = json.loads(out)
    assert json.loads((folder / "report.json").read_text()) == report
    for entry, path in zip(report["evals"], evals):
        single = io.StringIO()
        assert check_main([str(path), str(train), "--n", "8", "--json"], single,
                          io.StringIO()) == 0
        assert entry.pop("file") == str(path)
        assert json.dumps(entry, ensure_ascii=False) + "\n" == single.getvalue()
        rows_csv = io.StringIO()
        check_main([str(path), str(train), "--n", "8", "--rows-csv",
                    str(tmp_path / "own.csv")], rows_csv, io.StringIO())
        assert (folder / f"{path.name}.rows.csv").read_bytes() == \
            (tmp_path / "own.csv").read_bytes()
    removed = [json.loads(line) for line in (folder / "removed.jsonl").read_text().splitlines()]
    assert report["training"] == [{"file": str(train), "rows": 600, "removed": len(removed),
                                   "cleaned": str(folder / "train.jsonl"), "fields": ["text"],
                                   "searched": 600, "no_text": 0, "unread": 0,
                                   "unread_in": []}]
    found = {(f["eval"], f["training"]): f for f in report["found"]}
    for e, path in enumerate(evals):
        causes = [(r["row"], c["row"]) for r in removed for c in r["causes"]
                  if c["eval"] == str(path)]
        entry = found[str(path), str(train)]
        assert entry["training_rows"] == len({t for t, _ in causes})
        assert entry["eval_rows"] == len({a for _, a in causes})
    # with --json the report alone on stdout; the files read on stderr, no table
    assert "Training file" not in err and "Training file" not in out
    assert err.startswith("Eval") and "\nTraining" in err
    # a model card's figures: the tool, when, at what settings, and how removals add up
    assert report["tool"] == {"name": "ngram-overlap", "version": ngram_core.__version__}
    assert report["started"] <= report["ended"] and report["ended"].endswith("+00:00")
    assert report["settings"]["n"] == 8 and report["settings"]["layers"] == "L1+L3+L4"
    per_eval = sum(f["training_rows"] for f in report["found"])
    assert f"{len(removed)} training rows removed in all" in report["removals"]
    assert (f"add up to {per_eval:,}," in report["removals"]) == (per_eval != len(removed))


def test_the_suites_tables_go_to_stdout_as_the_checks_summary_does(tmp_path):
    evals = write_evals(tmp_path, 2)
    train = tmp_path / "train.jsonl"
    train.write_text("".join(json.dumps({"id": f"t{i}", "text": t}) + "\n"
                             for i, t in enumerate(training_texts(evals, 3))))
    out, err = io.StringIO(), io.StringIO()
    assert decontaminate_main(["--evals", *map(str, evals), "--train", str(train),
                               "--out", str(tmp_path / "o"), "--n", "8"], out, err) == 0
    assert "Eval" in out.getvalue() and "Training file" in out.getvalue() and \
        "Removed" in out.getvalue()
    assert "Training file" not in err.getvalue() and err.getvalue().startswith("Eval")


def csv_bytes(rows) -> bytes:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(["doc_id", "body"])
    w.writerows(rows)
    return ("Corpus export\r\n\r\n" + out.getvalue()).encode()


def compressed(data: bytes, suffix: str) -> bytes:
    return {"": lambda d: d, ".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress,
            ".zst": zstandard.ZstdCompressor().compress}[suffix](data)


def decompressed(data: bytes, suffix: str) -> bytes:
    return {"": lambda d: d, ".gz": gzip.decompress, ".bz2": bz2.decompress,
            ".xz": lzma.decompress,
            ".zst": lambda d: zstandard.ZstdDecompressor().decompressobj().decompress(d)}[
        suffix](data)


@pytest.mark.parametrize("shape, suffix", [
    ("jsonl", ""), ("jsonl", ".gz"), ("jsonl", ".zst"), ("txt", ".bz2"), ("csv", ""),
    ("csv", ".xz"), ("tsv", ".gz"), ("json", ""), ("parquet", ""), ("paragraphs", "")])
def test_a_cleaned_training_file_keeps_every_other_row_byte_for_byte(tmp_path, shape, suffix):
    evals = write_evals(tmp_path, 7, count=2)
    texts = training_texts(evals, 8, rows=300)
    ids = [f"t{i}" for i in range(len(texts))]
    if shape == "jsonl":           # a blank line between rows, CRLF on some
        units = [json.dumps({"id": i, "text": t}) + ("\r\n" if k % 3 else "\n")
                 + ("\n" if k % 50 == 0 else "") for k, (i, t) in enumerate(zip(ids, texts))]
        data, name = "".join(units).encode(), "train.jsonl"
    elif shape == "txt":
        units = [t + "\n" for t in texts]
        data, name = "".join(units).encode(), "train.txt"
    elif shape == "paragraphs":    # documents of several lines between blank lines
        units = [t.replace(" w1", "\nw1") + "\n\n" for t in texts]
        data, name = "".join(units).encode(), "train.txt"
    elif shape in ("csv", "tsv"):  # quoted line breaks, a preamble above the header
        texts = [t.replace(" w2", "\nw2") for t in texts]
        if shape == "csv":
            data, name = csv_bytes(zip(ids, texts)), "train.csv"
        else:
            data = ("doc_id\tbody\n" + "".join(f"{i}\t{t.replace(chr(10), ' ')}\n"
                                                for i, t in zip(ids, texts))).encode()
            name = "train.tsv"
    elif shape == "json":
        data = json.dumps([{"id": i, "text": t} for i, t in zip(ids, texts)], indent=2).encode()
        name = "train.json"
    else:
        sink = pa.BufferOutputStream()
        pq.write_table(pa.table({"id": ids, "text": texts}), sink, row_group_size=64)
        data, name = sink.getvalue().to_pybytes(), "train.parquet"
    train = tmp_path / (name + suffix)
    train.write_bytes(compressed(data, suffix))
    code, out, err, folder = cleaned_run(tmp_path, evals, [train])
    assert code == 0, err
    removed = {json.loads(line)["row"] for line in
               (folder / "removed.jsonl").read_text().splitlines()}
    assert removed, "the fixture leaks"
    cleaned = folder / train.name
    options = ReadOptions(role="b")
    before = read_path_table(str(train), options)
    after = read_path_table(str(cleaned), options)
    assert after.records == [r for k, r in enumerate(before.records, 1) if k not in removed]
    if shape in ("jsonl", "txt", "paragraphs"):
        kept = [u for k, u in enumerate(units, 1) if k not in removed]
        assert decompressed(cleaned.read_bytes(), suffix) == "".join(kept).encode()
    if shape == "csv":
        assert decompressed(cleaned.read_bytes(), suffix) == csv_bytes(
            [(i, t) for k, (i, t) in enumerate(zip(ids, texts), 1) if k not in removed])
    for ev in eval_sets(evals):
        assert finds_nothing(ev, [cleaned], Settings(n=8))


def test_outputs_that_would_harm_an_input_or_each_other_are_refused_before_any_work(tmp_path):
    evals = write_evals(tmp_path, 9, count=1)
    shards = tmp_path / "shards"
    shards.mkdir()
    train = shards / "train.jsonl"
    train.write_text("".join(json.dumps({"text": t}) + "\n"
                             for t in training_texts(evals, 10, 50)))
    before = train.read_bytes()
    err = io.StringIO()
    assert decontaminate_main(["--evals", str(evals[0]), "--train", str(train),
                               "--out", str(shards)], io.StringIO(), err) == 2
    assert "is an input of this run" in err.getvalue() and train.read_bytes() == before
    named_like_report = tmp_path / "report.json"
    named_like_report.write_text(json.dumps([{"text": "a training row"}]))
    err = io.StringIO()
    assert decontaminate_main(["--evals", str(evals[0]), "--train", str(train),
                               str(named_like_report), "--out", str(tmp_path / "o")],
                              io.StringIO(), err) == 2
    assert "would be written twice" in err.getvalue()
    assert not (tmp_path / "o" / "report.json").exists()


def test_training_files_of_one_name_keep_their_folders_under_the_output(tmp_path):
    evals = write_evals(tmp_path, 9, count=1)
    texts = training_texts(evals, 10, 60)
    paths = []
    for k, folder in enumerate(["web/en", "web/de", "code"]):
        (tmp_path / folder).mkdir(parents=True)
        path = tmp_path / folder / "part-0.jsonl"
        path.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts[k * 20:][:20]))
        paths.append(path)
    out = tmp_path / "out"
    err = io.StringIO()
    assert decontaminate_main(["--evals", str(evals[0]), "--train", *map(str, paths),
                               "--out", str(out), "--n", "8"], io.StringIO(), err) == 0, \
        err.getvalue()
    report = json.loads((out / "report.json").read_text())
    assert [t["cleaned"] for t in report["training"]] == [
        str(out / "web/en/part-0.jsonl"), str(out / "web/de/part-0.jsonl"),
        str(out / "code/part-0.jsonl")]
    removed = [json.loads(line) for line in (out / "removed.jsonl").read_text().splitlines()]
    for path, written in zip(paths, ["web/en", "web/de", "code"]):
        gone = {r["row"] for r in removed if r["file"] == str(path)}
        kept = [line for i, line in enumerate(path.read_text().splitlines(True), 1)
                if i not in gone]
        assert (out / written / "part-0.jsonl").read_text() == "".join(kept)
    assert removed, "the fixture holds leaks in these files"


def test_a_suite_on_dask_gives_the_same_results_and_removals(tmp_path):
    from dask.distributed import Client, LocalCluster
    evals = write_evals(tmp_path, 11)
    texts = training_texts(evals, 12, rows=900)
    paths = []
    for k in range(3):              # three shards, several partitions each
        path = tmp_path / f"shard-{k}.jsonl"
        path.write_text("".join(json.dumps({"id": f"t{k}-{i}", "text": t}) + "\n"
                                for i, t in enumerate(texts[k * 300:(k + 1) * 300])))
        paths.append(str(path))
    sets = eval_sets(evals)
    s = Settings(n=8)
    local = check_suite(sets, paths, s, blocksize=1 << 16)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False) as cluster, \
            Client(cluster) as client:
        remote = check_suite(sets, paths, s, blocksize=1 << 16, executor=OnDask(client))
    assert [r.rows_csv() for r in remote.results] == [r.rows_csv() for r in local.results]
    assert [r.summary.as_dict() for r in remote.results] == \
        [r.summary.as_dict() for r in local.results]
    assert remote.removals == local.removals and remote.b_rows == local.b_rows


def test_every_training_row_holding_an_eval_row_is_removed_past_the_cap_too(tmp_path):
    """A benchmark item copied into 40 training documents: the cap (32) bounds the rows
    a window's span may start in, not the rows that hold it; all 40 are removed, and a
    short item found whole (a 9-token question) is removed with its document."""
    rng = random.Random(13)
    item = " ".join(rng.choice(WORDS) for _ in range(25))
    question = " ".join(rng.choice(WORDS) for _ in range(9))
    ev = tmp_path / "eval.jsonl"
    ev.write_text(json.dumps({"id": "q1", "text": item}) + "\n"
                  + json.dumps({"id": "q2", "text": question}) + "\n")
    rows = [" ".join(rng.choice(WORDS) for _ in range(30)) for _ in range(200)]
    holding = set(range(5, 205, 5))
    texts = [f"{t} {item}" if k in holding else t for k, t in enumerate(rows, 1)]
    texts[2] = f"intro {question} outro"
    train = tmp_path / "train.jsonl"
    train.write_text("".join(json.dumps({"text": t}) + "\n" for t in texts))
    suite = check_suite(eval_sets([ev]), [str(train)], Settings(n=13), blocksize=1 << 16)
    assert {r.row for r in suite.removals} == holding | {3}
    assert {r.row: [c.a_row for c in r.causes] for r in suite.removals}[3] == [1]


def test_the_command_on_dask_writes_the_same_files(tmp_path, monkeypatch):
    evals = write_evals(tmp_path, 14, count=2)
    texts = training_texts(evals, 15, rows=3000)
    train = tmp_path / "train.jsonl"          # several partitions: a piece each
    train.write_text("".join(json.dumps({"id": f"t{i}", "text": t}) + "\n"
                             for i, t in enumerate(texts)))
    shard = tmp_path / "shard.jsonl.gz"       # compressed: one piece, the whole file
    shard.write_bytes(gzip.compress("".join(json.dumps({"text": t}) + "\n"
                                            for t in texts[::7]).encode(), mtime=0))
    written = {}
    for engine in ("local", "dask"):
        if engine == "dask":     # the workers write the cleaned files, not the client
            monkeypatch.setattr("ngram_core.decontaminate.cleaned_writer", None)
        folder = tmp_path / engine
        err = io.StringIO()
        code = decontaminate_main(["--evals", *map(str, evals), "--train", str(train),
                                   str(shard), "--out", str(folder), "--n", "8",
                                   "--engine", engine, "--blocksize", "64KiB",
                                   *(["--workers", "2"] if engine == "dask" else [])],
                                  io.StringIO(), err)
        assert code == 0, err.getvalue()
        assert sorted(p.name for p in folder.iterdir()) == [
            "removed.jsonl", "report.json", "shard.jsonl.gz", "train.jsonl"]  # no piece left
        written[engine] = {p.name: p.read_bytes() for p in folder.iterdir()}
        report = json.loads(written[engine].pop("report.json"))
        for entry in report["training"]:
            assert entry.pop("cleaned") == str(folder / Path(entry["file"]).name)
        del report["started"], report["ended"]        # the run's own times
        written[engine]["report"] = report
    assert written["dask"] == written["local"]
    assert written["local"]["removed.jsonl"]
    assert {json.loads(line)["file"] for line in written["local"]["removed.jsonl"].splitlines()} \
        == {str(train), str(shard)}


line_texts = st.lists(st.sampled_from(["", "  ", "w1 w2 w3 w4 w5 w6 w7 w8 w9", "w3 w4",
                                       "w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11"]), max_size=60)


@settings(max_examples=60, deadline=None)
@given(line_texts, st.sampled_from(["\n", "\r\n"]), st.sampled_from(["jsonl", "txt"]),
       st.integers(64, 400), st.booleans())
def test_the_pieces_workers_write_join_to_the_cleaned_file(tmp_path_factory, texts, newline,
                                                            kind, blocksize, last_newline):
    """Whatever the byte ranges, blank lines and line breaks, the pieces of a cleaned
    line-based file joined in order are the bytes of its cleaned copy in one process."""
    from ngram_core.decontaminate import cleaned_pieces_of, suite_files
    folder = tmp_path_factory.mktemp("pieces")
    ev = folder / "eval.jsonl"
    ev.write_text(json.dumps({"text": "w1 w2 w3 w4 w5 w6 w7 w8 w9"}) + "\n")
    assume(any(t.strip() for t in texts))          # a file with no row is refused
    lines = [json.dumps({"text": t}) if kind == "jsonl" and t.strip() else t for t in texts]
    data = newline.join(lines) + (newline if last_newline and lines else "")
    train = folder / f"train.{kind}"
    train.write_bytes(data.encode())
    suite = check_suite(eval_sets([ev]), [str(train)], Settings(n=5), blocksize=blocksize)
    whole = suite_files(suite, {}, ["r", "m", "train"])["train"]
    expected = io.BytesIO()
    whole(expected)
    joined = io.BytesIO()
    pieces = cleaned_pieces_of(suite)[0]
    for k, piece in enumerate(pieces):
        target = folder / f"piece-{k}"
        assert piece.write_to(str(target)) is None
        joined.write(target.read_bytes())
    assert joined.getvalue() == expected.getvalue()
    assert set().union(*(p.removed for p in pieces)) == {r.row for r in suite.removals}

def test_an_out_folder_that_cannot_be_made_is_one_line_and_nothing_made(tmp_path):
    """Under a file, or on a system that has no such folder: one line naming it, exit
    2, nothing written, in the command and from Python."""
    evals = write_evals(tmp_path, 9, count=1)
    train = tmp_path / "train.jsonl"
    train.write_text("".join(json.dumps({"text": t}) + "\n"
                             for t in training_texts(evals, 10, 50)))
    for out, said in ((evals[0] / "sub" / "cleaned", f"{str(evals[0])!r} is a file, not a folder"),
                      (Path("/proc/no-such-folder/cleaned"), "cannot be made")):
        err = io.StringIO()
        assert decontaminate_main(["--evals", str(evals[0]), "--train", str(train),
                                   "--out", str(out)], io.StringIO(), err) == 2
        lines = err.getvalue().splitlines()
        assert len(lines) == 1 and said in lines[0] and "Traceback" not in err.getvalue()
        with pytest.raises(InputError, match="cannot be written"):
            ngram_overlap.decontaminate([str(evals[0])], str(train), out=out)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [e.name for e in evals] + ["train.jsonl"])


def test_an_eval_that_is_also_a_training_file_is_refused(tmp_path):
    """Two globs that overlap name one file as an eval and as training data: checked
    against itself every row of it would be removed. Refused before any work, in
    the command and from Python; nothing written."""
    evals = write_evals(tmp_path, 9, count=2)
    err = io.StringIO()
    assert decontaminate_main(["--evals", *map(str, evals), "--train", str(tmp_path / "*.jsonl"),
                               "--out", str(tmp_path / "o")], io.StringIO(), err) == 2
    assert f"{evals[0]}: is also a training file" in err.getvalue()
    with pytest.raises(InputError, match="is also a training file"):
        ngram_overlap.decontaminate({"e": str(evals[1])}, str(tmp_path / "*.jsonl"))
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("name", ["train.jsonl", "train.txt", "train.jsonl.gz"])
def test_a_training_file_s_byte_order_mark_stays_when_its_first_row_goes(tmp_path, name):
    """The mark is the file's, not its first row's: the cleaned copy begins with it
    whichever rows are removed."""
    leak = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron"
    other = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
    rows = [json.dumps({"text": t}) if ".jsonl" in name else t for t in (leak, other)]
    data = b"\xef\xbb\xbf" + "".join(r + "\n" for r in rows).encode()
    train = tmp_path / name
    train.write_bytes(gzip.compress(data, mtime=0) if name.endswith(".gz") else data)
    evals = tmp_path / "eval.jsonl"
    evals.write_text(json.dumps({"text": leak}) + "\n")
    out = tmp_path / "o"
    assert decontaminate_main(["--evals", str(evals), "--train", str(train), "--out",
                               str(out)], io.StringIO(), io.StringIO()) == 0
    cleaned = (out / name).read_bytes()
    cleaned = gzip.decompress(cleaned) if name.endswith(".gz") else cleaned
    assert cleaned == b"\xef\xbb\xbf" + (rows[1] + "\n").encode()


@pytest.mark.parametrize("codec", ["zstd", "gzip", "none", {"text": "zstd", "id": "snappy"}])
def test_a_cleaned_parquet_file_keeps_its_compression(tmp_path, codec):
    """In its own format and compression: each column's codec as the file had it."""
    evals = write_evals(tmp_path, 5, count=1)
    texts = training_texts(evals, 6, 80)
    train = tmp_path / "train.parquet"
    pq.write_table(pa.table({"id": [f"t{i}" for i in range(len(texts))], "text": texts}),
                   train, compression=codec, row_group_size=30)
    out = tmp_path / "o"
    assert decontaminate_main(["--evals", str(evals[0]), "--train", str(train), "--out",
                               str(out)], io.StringIO(), io.StringIO()) == 0

    def codecs(path):
        group = pq.ParquetFile(path).metadata.row_group(0)
        return [group.column(i).compression for i in range(group.num_columns)]

    cleaned = pq.read_table(out / "train.parquet")
    assert 0 < cleaned.num_rows < len(texts)            # rows were removed
    assert codecs(out / "train.parquet") == codecs(train)
