"""A suite of evals in one pass against each eval's own run (#35).

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_suite           # 5 evals of 2 MB, B of 200 MB, 3 runs
    .venv/bin/python -m benchmarks.bench_suite --quick   # B of 30 MB, 1 run

Stdout is a header line (date, machine, Python) and a Markdown table; progress
goes to stderr. Each eval is checked alone (``ngram-overlap EVAL B --json``,
the baseline, measured in the same run), then all of them with
``ngram-overlap decontaminate --evals ... --train B --out DIR``, which also
writes the cleaned copy of B. Times are wall-clock medians of whole
processes; the rate is B's bytes over the time. Targets (#35): the suite within
1.5 x the slowest single run, its rate per core within 10 % of a single run's.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_dask import cpu_model

ROOT = Path(__file__).resolve().parent.parent
WORDS = [f"w{i}" for i in range(20_000)]


def write_jsonl(path: Path, mb: float, seed: int, prefix: str, words: int,
                leaks: list[str] = ()) -> None:
    rng = random.Random(seed)
    with open(path, "w") as f:
        i = 0
        while f.tell() < mb * 2**20:
            text = " ".join(rng.choice(WORDS) for _ in range(words))
            if leaks and i % 1000 == 0:
                text += " " + rng.choice(leaks)
            f.write(json.dumps({"id": f"{prefix}{i}", "text": text}) + "\n")
            i += 1


def timed(argv: list[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "ngram_core", *argv], cwd=ROOT,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"bench_suite: {' '.join(argv[:3])} failed: {done.stderr.strip()}")
    return time.perf_counter() - started


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="B of 30 MB, 1 run")
    args = parser.parse_args(argv)
    runs, b_mb, evals = (1, 30, 5) if args.quick else (3, 200, 5)
    print(f"# bench_suite {datetime.datetime.now().isoformat(timespec='seconds')} | "
          f"nproc {os.cpu_count()} | {cpu_model()} | Python {platform.python_version()} | "
          f"{evals} evals of 2 MB, B of {b_mb} MB JSON Lines | median of {runs}", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        eval_paths = []
        for k in range(evals):
            path = work / f"eval{k}.jsonl"
            write_jsonl(path, 2, 100 + k, f"e{k}-", 120)
            eval_paths.append(str(path))
        leaks = [json.loads(line)["text"] for p in eval_paths
                 for line in Path(p).read_text().splitlines()[:20]]
        b = work / "train.jsonl"
        write_jsonl(b, b_mb, 7, "b", 150, leaks)
        size = b.stat().st_size / 1e6
        print("\n| run | time | × slowest single | B rate |")
        print("|---|---:|---:|---:|")
        singles = []
        for k, path in enumerate(eval_paths):
            print(f"single run {k + 1} of {evals}", file=sys.stderr, flush=True)
            seconds = statistics.median(timed([path, str(b), "--json"]) for _ in range(runs))
            singles.append(seconds)
        slowest = max(singles)
        for k, seconds in enumerate(singles):
            print(f"| eval {k + 1} alone (baseline) | {seconds:.1f} s | {seconds / slowest:.2f} | "
                  f"{size / seconds:.1f} MB/s |", flush=True)
        out = work / "cleaned"

        def suite() -> float:
            shutil.rmtree(out, ignore_errors=True)
            return timed(["decontaminate", "--evals", *eval_paths, "--train", str(b),
                          "--out", str(out)])

        print("the suite", file=sys.stderr, flush=True)
        seconds = statistics.median(suite() for _ in range(runs))
        print(f"| all {evals} in one pass, cleaned B written | {seconds:.1f} s | "
              f"{seconds / slowest:.2f} | {size / seconds:.1f} MB/s |")
        met = seconds <= 1.5 * slowest
        print(f"\nThe suite within 1.5 × the slowest single run: {'met' if met else 'NOT MET'} "
              f"({seconds / slowest:.2f} ×); {evals} separate runs would take "
              f"{sum(singles):.1f} s.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
