"""One very long row (#44): a row of 2 MB against 2 MB of B within 5 s, and the walk over
a long row linear in its length.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_long_row           # 3 runs of each
    .venv/bin/python -m benchmarks.bench_long_row --quick   # 1 run of each

Stdout is a header line (date, machine, Python), a Markdown table and a verdict
line; progress goes to stderr. Each case is ``ngram-overlap A B --json`` in a fresh
process, timed whole (wall and CPU seconds, the median of the runs):

* A is one row of 0.5, 1 and 2 MB: the rows of B (2 MB of JSON Lines, 20 to 200
  words each) joined in a shuffled order, so every window of A is in B and runs end
  at every B row; then the same 2 MB row against itself (``benchmarks.pathological``),
  with and without ``--definitions``.
* The bar: the 2 MB row against B within 5 s of wall time; and linear: doubling
  the row at most 2.5 x the CPU seconds.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import pathological
from benchmarks.bench_dask import cpu_model

ROOT = Path(__file__).resolve().parent.parent
BAR_SECONDS = 5.0
#: Doubling the row may cost at most this many times the CPU seconds (2: linear).
DOUBLING_BOUND = 2.5


def write_b(path: Path, size: int) -> list[str]:
    """``size`` bytes of JSON Lines of 20 to 200 words; the rows' texts."""
    rng = random.Random(3)
    words = [f"w{i}" for i in range(20_000)]
    rows, total = [], 0
    while total < size:
        text = " ".join(rng.choice(words) for _ in range(rng.randint(20, 200)))
        rows.append(text)
        total += len(text) + 12
    path.write_text("".join(json.dumps({"text": t}) + "\n" for t in rows))
    return rows


def write_long_row(path: Path, rows: list[str], size: int) -> None:
    """One row of about ``size`` bytes: B's rows in a shuffled order."""
    rng = random.Random(4)
    chosen = rows[:]
    rng.shuffle(chosen)
    text, total = [], 0
    for row in chosen:
        if total >= size:
            break
        text.append(row)
        total += len(row) + 1
    path.write_text(" ".join(text)[:size] + "\n")


def timed(*argv: object) -> tuple[float, float]:
    """Wall and CPU seconds of the command in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "ngram_core", *map(str, argv), "--json"],
                          cwd=ROOT, capture_output=True, text=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"the command failed: {done.stderr.strip()}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1 run of each")
    args = parser.parse_args(argv)
    runs = 1 if args.quick else 3
    print(f"# bench_long_row {datetime.datetime.now().isoformat(timespec='seconds')} | "
          f"nproc {os.cpu_count()} | {cpu_model()} | Python {platform.python_version()} | "
          f"load {os.getloadavg()[0]:.1f} | median of {runs}", flush=True)
    print("\n| A | B | wall s | CPU s | bound |")
    print("|---|---|---:|---:|---|")
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        b = work / "b.jsonl"
        rows = write_b(b, 2_000_000)
        cpu_by_size = {}
        for size in (500_000, 1_000_000, 2_000_000):
            a = work / f"a-{size}.txt"
            write_long_row(a, rows, size)
            print(f"row of {size / 1e6:g} MB", file=sys.stderr, flush=True)
            measured = [timed(a, b) for _ in range(runs)]
            wall = statistics.median(w for w, _ in measured)
            cpu = cpu_by_size[size] = statistics.median(c for _, c in measured)
            bound = ""
            if size == 2_000_000:
                met = wall <= BAR_SECONDS
                ok = ok and met
                bound = f"≤ {BAR_SECONDS:g} s {'met' if met else 'NOT MET'}"
            print(f"| one row of {size / 1e6:g} MB | 2 MB of JSON Lines | {wall:.2f} | "
                  f"{cpu:.2f} | {bound} |", flush=True)
        a_bytes, _, b_bytes, _ = pathological.one_huge_row()
        itself = work / "row.txt"
        itself.write_bytes(a_bytes)
        for flags in ((), ("--definitions",)):
            print(f"the row against itself {' '.join(flags)}", file=sys.stderr, flush=True)
            measured = [timed(itself, itself, *flags) for _ in range(runs)]
            wall = statistics.median(w for w, _ in measured)
            cpu = statistics.median(c for _, c in measured)
            print(f"| one row of 2 MB | itself {' '.join(flags)} | {wall:.2f} | {cpu:.2f} | |",
                  flush=True)
    doubling = max(cpu_by_size[2_000_000] / cpu_by_size[1_000_000],
                   cpu_by_size[1_000_000] / cpu_by_size[500_000])
    linear = doubling <= DOUBLING_BOUND
    ok = ok and linear
    print(f"\nDoubling the row: at most {doubling:.2f} x the CPU seconds "
          f"(≤ {DOUBLING_BOUND:g} {'met' if linear else 'NOT MET'}).")
    print(f"Verdict: {'every bound met' if ok else 'a bound NOT MET'}.")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
