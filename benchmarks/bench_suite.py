"""A suite of evals in one pass against each eval's own run (#35).

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_suite           # 5 evals of 2 MB, B of 200 MB and 2 GB
    .venv/bin/python -m benchmarks.bench_suite --quick   # B of 30 MB, 1 run

Stdout is a header line (date, machine, Python) and a Markdown table per size
of B; progress goes to stderr. Each eval is checked alone (``ngram-overlap EVAL
B --json``, the baseline, measured in the same run), then all of them with
``ngram-overlap decontaminate --evals ... --train B --out DIR``, which also
writes the cleaned copy of B, then (on the first size) lm-evaluation-harness's
janitor used as a decontamination run uses it: every eval's 13-grams in one
set, B streamed past it (``bench_dask.JANITOR_STREAM_JOB``). Times are
wall-clock medians of whole processes (3 runs at 200 MB or less, 1 above);
"B rate" is B's bytes over that time, peak memory each process's own
(``ru_maxrss`` of the child, from a small parent). "Stream rate" is B's bytes
over the time B is streamed alone (from the first to the last report of the
stream's progress, in a process of its own: the reading and indexing of the
evals and the writing of the cleaned files left out). Targets (#35): the suite
within 1.5 x the slowest single run, its stream rate per core within 10 % of a
single run's.
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

from benchmarks.bench_core import janitor_python
from benchmarks.bench_dask import cpu_model, run_janitor

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


def timed(argv: list[str]) -> tuple[float, float]:
    """A whole ``ngram-overlap`` process: its wall-clock seconds and peak memory (MB)."""
    started = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", "ngram_core", *argv], cwd=ROOT,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert child.stderr is not None
    stderr = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"bench_suite: {' '.join(argv[:3])} failed: {stderr.decode().strip()}")
    return seconds, usage.ru_maxrss / 1024


def stream_rate_child(b_path: str, eval_paths: list[str]) -> None:
    """Run as a subprocess: B's stream rate (MB/s) of one eval's check or of the
    suite of several, from the first to the last report of the stream."""
    from ngram_core.method.settings import Settings
    from ngram_core.run.stream import check_streamed
    from ngram_core.run.suite import check_suite, read_eval

    marks: list[tuple[float, int]] = []

    def progress(p) -> None:
        if p.stage == "stream B":
            marks.append((time.perf_counter(), p.done))

    evals = [read_eval(path)[0] for path in eval_paths]
    if len(evals) == 1:
        check_streamed(evals[0].rows, [b_path], Settings(), a_fields=evals[0].fields,
                       on_progress=progress)
    else:
        check_suite(evals, [b_path], Settings(), on_progress=progress)
    (t0, d0), (t1, d1) = marks[0], marks[-1]
    print(json.dumps({"stream_mb_s": (d1 - d0) / (t1 - t0) / 1e6}))


def stream_rate(b_path: Path, eval_paths: list[str]) -> float:
    done = subprocess.run([sys.executable, "-m", "benchmarks.bench_suite", "--_stream",
                           str(b_path), *eval_paths], cwd=ROOT, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"bench_suite: the stream rate run failed: {done.stderr.strip()}")
    return json.loads(done.stdout.strip().splitlines()[-1])["stream_mb_s"]


def one_size(work: Path, b_mb: int, runs: int, eval_paths: list[str], leaks: list[str],
             janitor: bool) -> None:
    evals = len(eval_paths)
    b = work / "train.jsonl"
    print(f"writing B of {b_mb} MB", file=sys.stderr, flush=True)
    write_jsonl(b, b_mb, 7, "b", 150, leaks)
    size = b.stat().st_size / 1e6
    print(f"\n### B of {size:,.0f} MB ({runs} run{'s' if runs > 1 else ''} each)\n")
    print("| run | time | × slowest single | B rate | stream rate | peak memory |")
    print("|---|---:|---:|---:|---:|---:|")
    singles = []
    for k, path in enumerate(eval_paths):
        print(f"single run {k + 1} of {evals}", file=sys.stderr, flush=True)
        measured = [timed([path, str(b), "--json"]) for _ in range(runs)]
        singles.append((statistics.median(t for t, _ in measured),
                        max(m for _, m in measured)))
    # the stream rates in turns (one eval, the suite, ...): both under the same load
    turns = [(stream_rate(b, eval_paths[:1]), stream_rate(b, eval_paths)) for _ in range(runs)]
    single_stream = statistics.median(single for single, _ in turns)
    suite_stream = statistics.median(suite for _, suite in turns)
    slowest = max(t for t, _ in singles)
    for k, (seconds, peak) in enumerate(singles):
        rate = f"{single_stream:.1f} MB/s" if k == 0 else ""
        print(f"| eval {k + 1} alone (baseline) | {seconds:.1f} s | {seconds / slowest:.2f} | "
              f"{size / seconds:.1f} MB/s | {rate} | {peak:,.0f} MB |", flush=True)
    out = work / "cleaned"

    def suite() -> tuple[float, float]:
        shutil.rmtree(out, ignore_errors=True)
        return timed(["decontaminate", "--evals", *eval_paths, "--train", str(b),
                      "--out", str(out)])

    print("the suite", file=sys.stderr, flush=True)
    measured = [suite() for _ in range(runs)]
    seconds, peak = statistics.median(t for t, _ in measured), max(m for _, m in measured)
    print(f"| all {evals} in one pass, cleaned B written | {seconds:.1f} s | "
          f"{seconds / slowest:.2f} | {size / seconds:.1f} MB/s | {suite_stream:.1f} MB/s | "
          f"{peak:,.0f} MB |", flush=True)
    if janitor:
        print("the janitor", file=sys.stderr, flush=True)
        together = work / "evals.jsonl"
        together.write_bytes(b"".join(Path(p).read_bytes() for p in eval_paths))
        python, module_dir = janitor_python()
        peer = run_janitor(python, module_dir, str(together), [str(b)])
        print(f"| lm-evaluation-harness janitor, the {evals} evals' 13-grams as one set, "
              f"nothing written | {peer['seconds']:.1f} s | {peer['seconds'] / slowest:.2f} | "
              f"{size / peer['seconds']:.1f} MB/s | | {peer['peak_mb']:,.0f} MB |", flush=True)
    met = seconds <= 1.5 * slowest
    close = suite_stream >= 0.9 * single_stream
    print(f"\nThe suite within 1.5 × the slowest single run: {'met' if met else 'NOT MET'} "
          f"({seconds / slowest:.2f} ×); its stream rate within 10 % of a single run's: "
          f"{'met' if close else 'NOT MET'} ({suite_stream / single_stream:.2f} ×); "
          f"{evals} separate runs would take {sum(t for t, _ in singles):.1f} s.")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="B of 30 MB, 1 run")
    parser.add_argument("--sizes", default="200,2000", help="sizes of B in MB (default 200,2000)")
    parser.add_argument("--_stream", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args._stream:
        stream_rate_child(args._stream[0], args._stream[1:])
        return 0
    sizes = [30] if args.quick else [int(x) for x in args.sizes.split(",")]
    evals = 5
    print(f"# bench_suite {datetime.datetime.now().isoformat(timespec='seconds')} | "
          f"nproc {os.cpu_count()} | {cpu_model()} | Python {platform.python_version()} | "
          f"{evals} evals of 2 MB, B of {', '.join(f'{s:,} MB' for s in sizes)} JSON Lines",
          flush=True)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        eval_paths = []
        for k in range(evals):
            path = work / f"eval{k}.jsonl"
            write_jsonl(path, 2, 100 + k, f"e{k}-", 120)
            eval_paths.append(str(path))
        leaks = [json.loads(line)["text"] for p in eval_paths
                 for line in Path(p).read_text().splitlines()[:20]]
        for k, b_mb in enumerate(sizes):
            one_size(work, b_mb, 1 if args.quick or b_mb > 200 else 3, eval_paths, leaks,
                     janitor=k == 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
