"""Memory set by A, on any B (#34, row 3): a training file of millions of one-word lines,
a CSV, a JSON array or one very long line is read in pieces bounded by bytes of whole
lines, records or items, so its rows never pile up: the command stays under 400 MB, as
for any other B. Measured in a fresh process."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PEAK = ("import re, sys; from ngram_core.cli import main; code = main(sys.argv[1:]);"
        "print(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1),"
        " file=sys.stderr); sys.exit(code)")


def peak_mb(*argv) -> float:
    done = subprocess.run([sys.executable, "-c", PEAK, *map(str, argv)], capture_output=True,
                          text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    return int(done.stderr.splitlines()[-1]) / 1024


def test_a_training_file_of_one_word_lines_stays_under_400_mb(tmp_path):
    rng = random.Random(7)
    words = [f"w{i}" for i in range(5000)]
    a, b = tmp_path / "test.jsonl", tmp_path / "tiny.txt"
    a.write_text("".join(json.dumps({"id": f"a{i}", "text": " ".join(
        rng.choice(words) for _ in range(100))}) + "\n" for i in range(1000)))
    with open(b, "w") as f:
        for _ in range(40):
            f.write("".join(rng.choice(words) + "\n" for _ in range(100_000)))
    assert b.stat().st_size > 20_000_000           # 4 million rows, streamed (not indexed)
    # one 16 MiB partition held 2.8 million Rows at once: 1.4 GB before
    assert peak_mb(a, b, "--json") < 400


def write_b(path, rows: int, seed: int, shape: str) -> None:
    """``rows`` documents of 150 words as a CSV (a quoted line break in every seventh)
    or as one JSON array."""
    rng = random.Random(seed)
    words = [f"w{i}" for i in range(5000)]
    with open(path, "w", newline="") as f:
        if shape == "csv":
            f.write("id,text\r\n")
        else:
            f.write("[\n")
        for i in range(rows):
            text = " ".join(rng.choice(words) for _ in range(150))
            if shape == "csv":
                f.write(f'b{i},"{text}' + ('\nsecond line' if i % 7 == 0 else "") + '"\r\n')
            else:
                f.write(("," if i else "") + json.dumps({"id": f"b{i}", "text": text}) + "\n")
        if shape == "json":
            f.write("]\n")


def write_a(path) -> None:
    rng = random.Random(7)
    words = [f"w{i}" for i in range(5000)]
    path.write_text("".join(json.dumps({"id": f"a{i}", "text": " ".join(
        rng.choice(words) for _ in range(100))}) + "\n" for i in range(1000)))


@pytest.mark.parametrize("shape", ["csv", "json"])
def test_a_csv_or_a_json_array_training_file_is_read_a_piece_at_a_time(tmp_path, shape):
    """A CSV is read record by record (its quoted line breaks kept), a JSON array item by
    item: 4 x the file, about the same peak, under 400 MB (read whole: 560 MB for the
    CSV, and growing with B for both)."""
    a = tmp_path / "test.jsonl"
    write_a(a)
    small, large = tmp_path / f"small.{shape}", tmp_path / f"large.{shape}"
    write_b(small, 15_000, 1, shape)
    write_b(large, 60_000, 2, shape)
    assert large.stat().st_size > 50_000_000
    small_peak, large_peak = peak_mb(a, small, "--json"), peak_mb(a, large, "--json")
    assert large_peak < 400
    assert large_peak < small_peak * 1.25 + 20, (small_peak, large_peak)


@pytest.mark.parametrize("leak", [False, True])
def test_a_training_file_of_one_20_mb_line_stays_under_400_mb(tmp_path, leak):
    """One 20 MB line (3 million words) is one row: its words are counted, sampled and
    walked without a list of all of them at once (820 MB before); where it holds test
    rows, the characters of their spans are found a piece of it at a time (570 MB
    when its 3 million spans were listed)."""
    a, b = tmp_path / "test.jsonl", tmp_path / "one-line.txt"
    write_a(a)
    rng = random.Random(3)
    words = [f"w{i}" for i in range(5000)]
    line = [rng.choice(words) for _ in range(3_500_000)]
    if leak:
        first = json.loads(a.read_text().splitlines()[500])["text"]
        line[3_000_000:3_000_000] = first.split()
    b.write_text(" ".join(line) + "\n")
    assert b.stat().st_size > 20_000_000
    assert peak_mb(a, b, "--json") < 400


def test_a_small_training_file_of_a_million_one_word_lines_is_streamed_not_indexed(tmp_path):
    """Under 8 MiB a B is indexed whole, as on the page, unless it holds more than
    200,000 lines: 1.2 million one-word rows indexed whole took 810 MB."""
    a, b = tmp_path / "test.jsonl", tmp_path / "words.txt"
    write_a(a)
    rng = random.Random(4)
    words = [f"w{i}" for i in range(5000)]
    b.write_text("".join(rng.choice(words) + "\n" for _ in range(1_200_000)))
    assert b.stat().st_size < 8 * 2**20
    assert peak_mb(a, b, "--json") < 400
