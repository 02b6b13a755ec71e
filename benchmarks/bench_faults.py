"""Memory set by A on any B, and a run's end with a frozen Dask worker (#34).

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_faults           # 3 runs of each, B of 60 MB
    .venv/bin/python -m benchmarks.bench_faults --quick   # 1 run of each, B of 15 MB

Stdout is a header line (date, machine, Python), two Markdown tables and a
verdict line; progress goes to stderr.

* Memory: the peak resident memory (``VmHWM``) of ``ngram-overlap A B --json``
  in a fresh process, median of the runs, for an A of 2 MB of JSON Lines and B
  of each shape a training file comes in: JSON Lines, a CSV with quoted line
  breaks, one JSON array, millions of one-word lines, one line of 20 MB and of
  50 MB, and 8 MB of one-word lines (under the size B is indexed whole at).
  The baseline, measured in the same run, is B of JSON Lines of the same size.
  The bound is 400 MB; a line longer than 20 MB may cost 3 x its size beyond
  20 MB more.
* Recovery: ``--engine dask --workers 2`` on 25 MB of JSON Lines, clean, then
  with one worker frozen (SIGSTOP) a second after the workers are up: the time
  to the end, median of the runs, and whether the result is the clean one. The
  bound is the clean time + 120 s.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_dask import cpu_model

ROOT = Path(__file__).resolve().parent.parent
WORDS = [f"w{i}" for i in range(20_000)]
PEAK = ("import re, sys; from ngram_core.cli import main; code = main(sys.argv[1:]);"
        "print(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1),"
        " file=sys.stderr); sys.exit(code)")
MEMORY_BOUND_MB = 400
RECOVERY_MARGIN_S = 120
SUFFIXES = {"csv": "csv", "json": "json", "words": "txt", "one-line": "txt"}


def _text(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words))


def write_a(path: Path, mb: float) -> None:
    rng = random.Random(1)
    with open(path, "w") as f:
        i = 0
        while f.tell() < mb * 2**20:
            f.write(json.dumps({"id": f"a{i}", "text": _text(rng, 120)}) + "\n")
            i += 1


def write_b(path: Path, shape: str, mb: float) -> None:
    """``mb`` of training text in one of the shapes a file comes in."""
    rng = random.Random(2)
    target = mb * 2**20
    with open(path, "w", newline="") as f:
        if shape == "one-line":
            while f.tell() < target:
                f.write(_text(rng, 10_000) + " ")
            f.write("\n")
            return
        f.write({"csv": "id,text\r\n", "json": "[\n"}.get(shape, ""))
        i = 0
        while f.tell() < target:
            if shape == "words":
                f.write("".join(rng.choice(WORDS) + "\n" for _ in range(10_000)))
            elif shape == "csv":
                f.write(f'b{i},"{_text(rng, 150)}' + ("\nsecond line" if i % 7 == 0 else "")
                        + '"\r\n')
            elif shape == "json":
                f.write(("," if i else "") + json.dumps({"id": f"b{i}", "text": _text(rng, 150)})
                        + "\n")
            else:
                f.write(json.dumps({"id": f"b{i}", "text": _text(rng, 150)}) + "\n")
            i += 1
        if shape == "json":
            f.write("]\n")


def peak_mb(a: Path, b: Path) -> tuple[float, float]:
    """The command's peak memory (MB) and time (s), in a fresh process."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK, str(a), str(b), "--json"], cwd=ROOT,
                          capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"bench_faults: the run on {b.name} failed: {done.stderr.strip()}")
    return int(done.stderr.splitlines()[-1]) / 1024, seconds


def spawned_workers(pid: int) -> list[int]:
    """The Dask worker processes a run started (multiprocessing's spawned children)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid and b"spawn_main" in command:
            found.append(int(entry))
    return found


def start_dask_run(a: Path, b: Path) -> subprocess.Popen:
    """``ngram-overlap A B --engine dask --workers 2 --blocksize 4MiB --json`` started,
    returned once both workers' processes exist (or the run has ended)."""
    process = subprocess.Popen([sys.executable, "-m", "ngram_core", str(a), str(b), "--engine",
                                "dask", "--workers", "2", "--blocksize", "4MiB", "--json"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    while len(spawned_workers(process.pid)) < 2 and process.poll() is None:
        time.sleep(0.02)
    return process


def dask_run(a: Path, b: Path, freeze: bool) -> tuple[float, int, str]:
    """A Dask run of two local workers, one frozen a second after they are up:
    its time, exit status and output."""
    started = time.monotonic()
    process = start_dask_run(a, b)
    frozen = []
    if freeze:
        time.sleep(1.0)
        frozen = spawned_workers(process.pid)[:1]
        for pid in frozen:
            os.kill(pid, signal.SIGSTOP)
    try:
        out, _ = process.communicate()
    finally:
        for pid in frozen:
            try:
                os.kill(pid, signal.SIGCONT)
            except OSError:
                pass
    return time.monotonic() - started, process.returncode, out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1 run of each, B of 15 MB")
    args = parser.parse_args(argv)
    runs, mb = (1, 15) if args.quick else (3, 60)

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    memory_gib = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    print(f"# bench_faults {datetime.datetime.now().isoformat(timespec='seconds')} | "
          f"nproc {os.cpu_count()} | {cpu_model()} | {memory_gib:.0f} GiB | "
          f"Python {platform.python_version()} | median of {runs}", flush=True)
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        a = work / "test.jsonl"
        write_a(a, 2)
        print("\n| B | size | peak memory | × baseline | time | bound |")
        print("|---|---:|---:|---:|---:|---|")
        shapes = [("JSON Lines (baseline)", "jsonl", mb), ("CSV, quoted line breaks", "csv", mb),
                  ("one JSON array", "json", mb), ("one-word lines", "words", mb / 2),
                  ("one-word lines", "words", 7.5), ("one line", "one-line", 20),
                  ("one line", "one-line", 50)]
        base = 0.0
        for label, shape, size in shapes:
            b = work / f"b-{shape}-{size:g}.{SUFFIXES.get(shape, 'jsonl')}"
            write_b(b, shape, size)
            log(f"memory: {label}, {size:g} MB")
            measured = [peak_mb(a, b) for _ in range(runs)]
            peak = statistics.median(m for m, _ in measured)
            seconds = statistics.median(s for _, s in measured)
            on_disk = b.stat().st_size / 2**20
            base = base or peak
            bound = MEMORY_BOUND_MB + 3 * max(on_disk - 20, 0) if shape == "one-line" \
                else MEMORY_BOUND_MB
            ok = ok and peak <= bound
            print(f"| {label} | {on_disk:.0f} MB | {peak:.0f} MB | {peak / base:.2f} | "
                  f"{seconds:.1f} s | ≤ {bound:.0f} MB {'met' if peak <= bound else 'NOT MET'} |",
                  flush=True)
            b.unlink()
        small_a = work / "a-small.jsonl"
        write_a(small_a, 0.3)
        corpus = work / "train.jsonl"
        write_b(corpus, "jsonl", 25)
        log("recovery: clean Dask runs")
        clean = [dask_run(small_a, corpus, False) for _ in range(runs)]
        expected = clean[0][2]
        clean_s = statistics.median(s for s, _, _ in clean)
        log("recovery: one worker frozen")
        frozen = [dask_run(small_a, corpus, True) for _ in range(runs)]
        frozen_s = statistics.median(s for s, _, _ in frozen)
        right = sum(code == 0 and out == expected for _, code, out in frozen)
        met = frozen_s <= clean_s + RECOVERY_MARGIN_S and right == runs
        ok = ok and met
        print("\n| Dask, 2 workers, 25 MB of B | time to the end | × clean | right result | bound |")
        print("|---|---:|---:|---:|---|")
        print(f"| clean (baseline) | {clean_s:.1f} s | 1.00 | {runs} of {runs} | |")
        print(f"| one worker frozen 1 s after start | {frozen_s:.1f} s | {frozen_s / clean_s:.1f} | "
              f"{right} of {runs} | ≤ clean + {RECOVERY_MARGIN_S} s "
              f"{'met' if met else 'NOT MET'} |")
    print(f"\nVerdict: {'every bound met' if ok else 'a bound NOT MET'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
