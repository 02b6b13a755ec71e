"""One answer on every path (#34, row 2): a B row's id never depends on how B is read.

B's id field is judged on its first 200 rows, which every reading sees first; then a
row's ``b_id`` is its value of that field where it has one (repeated or not) and its row
number in its file where it has not. Indexed whole (as the page reads it), streamed in
pieces, compressed: the same bytes, for a B whose ids stop being unique, and go
missing, after its first MiB.
"""

from __future__ import annotations

import csv
import gzip
import io
import json

from ngram_core import Settings
from ngram_core.cli import main
from ngram_core.run.distributed import check_distributed
from ngram_core.read.files import load_rows_by_file

LEAKS = {150: "the ancient lighthouse keeper climbed two hundred steps every evening to "
              "light the great lamp",
         24_999: "farmers in the northern valley plant their rice in spring and harvest it "
                 "before the autumn storms",
         26_000: "a small weather station on the school roof records the wind speed and the "
                 "rainfall of every single day"}


def training_lines() -> str:
    lines = []
    for i in range(1, 30_001):
        record = {"text": f"filler row {i} about nothing in particular at all today"}
        if i <= 20_000:
            record["id"] = f"doc-{i}"                    # unique through the first MiB
        elif i % 3 == 0:
            record["id"] = f"doc-{i % 20_000}"           # then repeated...
        if i in LEAKS:                                   # ...or missing
            record["text"] += " " + LEAKS[i]
        lines.append(json.dumps(record) + "\n")
    return "".join(lines)


def best_csv(tmp_path, a, b) -> bytes:
    out = tmp_path / f"best-{len(list(tmp_path.iterdir()))}.csv"
    err = io.StringIO()
    assert main([str(a), str(b), "--csv", str(out)], io.StringIO(), err) == 0, err.getvalue()
    return out.read_bytes()


def test_b_ids_are_the_same_whole_streamed_and_compressed(tmp_path):
    a = tmp_path / "test.jsonl"
    a.write_text("".join(json.dumps({"id": f"q{i}", "question": leak}) + "\n"
                         for i, leak in LEAKS.items()))
    lines = training_lines()
    plain, packed = tmp_path / "train.jsonl", tmp_path / "train.jsonl.gz"
    plain.write_text(lines)
    packed.write_bytes(gzip.compress(lines.encode()))
    assert len(lines) > 1.5 * 2**20
    whole = best_csv(tmp_path, a, plain)                       # indexed whole, as the page
    assert whole == best_csv(tmp_path, a, packed)              # streamed, decompressed
    a_rows, _, reads = load_rows_by_file([str(a)], None)
    streamed = check_distributed(None, a_rows, [str(plain)], Settings(),
                                 a_fields=reads[0].text_fields, blocksize=1 << 16)
    assert streamed.csv().encode() == whole                    # streamed in 64 KiB pieces
    best = {r["a_id"]: r["b_id"] for r in csv.DictReader(io.StringIO(whole.decode()))}
    assert best == {"q150": "doc-150", "q24999": "doc-4999", "q26000": "26000"}
