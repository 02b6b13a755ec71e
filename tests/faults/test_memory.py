"""Memory set by A, on any B (#34, row 3): a training file of millions of one-word lines
is read in pieces bounded by bytes of whole lines, so its rows never pile up: the
command stays under 400 MB, as for any other B. Measured in a fresh process."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

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
