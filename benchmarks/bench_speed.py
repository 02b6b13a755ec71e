"""Speed against lm-evaluation-harness's janitor (#48): whole processes, in turns.

Run from the repository root (``make bench`` runs it)::

    .venv/bin/python -m benchmarks.bench_speed              # 200 MB of B, median of 3
    .venv/bin/python -m benchmarks.bench_speed --b-mb 60 --runs 1   # a quick look

Stdout is a header line (date, machine), a Markdown table and each command's
profile; progress goes to stderr. The rows:

* **B streamed**: A = 2 MB, B = 200 MB of English-like JSON Lines in 20 MB
  shards (``bench_dask``'s data), ``python -m ngram_core A B... --json`` as a
  plain install runs it (numpy and pyarrow are dependencies; B's partitions
  walked by one worker process per core, the default from 64 MiB of B), the
  same with ``--jobs 1`` (this process alone), then the same command where
  numpy and pyarrow cannot be imported (the pure-Python path, as the tab runs
  it; its workers too), then the janitor streaming the same B
  past A's 13-gram strings (``bench_dask``'s job: each B line read,
  ``json.loads``, normalized, its 13-grams intersected with A's). Rate = B's
  bytes over the whole process's wall-clock time; "× the janitor" = the
  janitor's time over the command's (the target: at least 4 ×).
* **2 MB x 2 MB**: ``bench_core``'s generated pair, the command against the
  janitor's 13-gram set job (B's 13-grams in a set, each A row looked up),
  whole processes; "× the janitor" = the command's time over the janitor's
  (the target: at most 1.0 ×).

Every process is byte-compiled first (as an installed package is) and timed
from its start to its end, the commands in turns, the median of ``--runs``;
peak memory is each process's own ``VmHWM``, or where it starts workers the
largest sum of its and their proportional memory (PSS, sampled every 20 ms:
the libraries the workers share with their server count once). Then each command runs once
more under ``cProfile`` and its five functions of most own time are printed.
The page's first result against Pyodide's bare start is ``bench_browser``'s.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_core import JANITOR_SET_JOB, janitor_python
from benchmarks.bench_dask import JANITOR_STREAM_JOB, cpu_model, prepare_data
from benchmarks.corpus import make_pair, to_jsonl

ROOT = Path(__file__).resolve().parent.parent
MB = 2**20

#: Runs a command's module in this process and prints its peak memory (kB) last on
#: stderr: its own, or with worker processes the largest sum of the proportional
#: memory (PSS: a page shared by k processes counts 1/k in each) of it and every
#: process under it, sampled every 20 ms; ``--pure`` first makes numpy and pyarrow
#: impossible to import (in the workers too: ``PYTHONPATH``).
RUNNER = r"""
import os, runpy, sys, threading, time
if sys.argv[1] == "--pure":
    sys.modules["numpy"] = sys.modules["pyarrow"] = None
module, sys.argv = sys.argv[2], [sys.argv[2], *sys.argv[3:]]
most = [0]

def tree_kb():
    parents, rss = {}, {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(name)], rss[int(name)] = int(fields[1]), int(fields[21]) * 4
    mine = {os.getpid()}
    for _ in range(4):
        mine |= {pid for pid, parent in parents.items() if parent in mine}
    if len(mine) == 1:
        return 0                       # no worker: the process's own VmHWM says it
    total = 0
    for pid in mine:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                total += next(int(line.split()[1]) for line in f if line.startswith("Pss:"))
        except (OSError, StopIteration):
            total += rss.get(pid, 0)
    return total

def sample():
    while True:
        most[0] = max(most[0], tree_kb())
        time.sleep(0.02)

threading.Thread(target=sample, daemon=True).start()
try:
    runpy.run_module(module, run_name="__main__", alter_sys=True)
finally:
    with open("/proc/self/status") as f:
        own = int(next(line.split()[1] for line in f if line.startswith("VmHWM:")))
    print(f"PEAK_KB {max(own, most[0])}", file=sys.stderr)
"""


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run(argv: list[str], env: dict | None = None) -> tuple[float, float]:
    """Wall-clock seconds and peak MB of one whole process (its stdout dropped)."""
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          env=env, cwd=ROOT)
    seconds = time.perf_counter() - start
    if done.returncode:
        raise RuntimeError(f"{argv[:4]} failed:\n{done.stderr[-2000:]}")
    peak = [line for line in done.stderr.splitlines() if line.startswith("PEAK_KB ")]
    if peak:
        return seconds, int(peak[-1].split()[1]) / 1024
    found = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return seconds, found[-1].get("peak_mb", float("nan")) if found else float("nan")


def command(pure: bool, *args: str) -> list[str]:
    return [sys.executable, "-c", RUNNER, "--pure" if pure else "--plain", "ngram_core",
            *args, "--json"]


#: A folder whose ``numpy`` and ``pyarrow`` cannot be imported, put first on the
#: ``PYTHONPATH`` of a pure run so its worker processes lack them too.
NO_NUMPY = ROOT / "benchmarks" / "out" / "no_numpy"


def pure_env() -> dict:
    for name in ("numpy", "pyarrow"):
        (NO_NUMPY / name).mkdir(parents=True, exist_ok=True)
        (NO_NUMPY / name / "__init__.py").write_text(
            f"raise ImportError('{name} left out of this benchmark run')\n")
    return dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(NO_NUMPY), str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))


def timed(commands: dict[str, tuple[list[str], dict | None]], runs: int
          ) -> dict[str, tuple[float, float]]:
    """Each command's median seconds and largest peak MB over ``runs`` turns."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for turn in range(runs):
        for name, (argv, env) in commands.items():
            log(f"run {turn + 1}/{runs}: {name}")
            times[name].append(run(argv, env))
    return {name: (statistics.median(t for t, _ in got), max(p for _, p in got))
            for name, got in times.items()}


def profile_top(argv_args: list[str], count: int = 5) -> list[str]:
    """The ``count`` functions of most own time in one profiled run of the command."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.prof")
        subprocess.run([sys.executable, "-m", "cProfile", "-o", out, "-m", "ngram_core",
                        *argv_args, "--json"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, cwd=ROOT, check=True)
        stats = pstats.Stats(out)
        rows = sorted(stats.stats.items(), key=lambda item: -item[1][2])[:count]  # type: ignore[attr-defined]
        total = stats.total_tt  # type: ignore[attr-defined]
        lines = []
        for (path, line, name), (_, calls, own, cumulative, _) in rows:
            where = os.path.relpath(path, ROOT) if path.startswith(str(ROOT)) else path
            where = f"{where}:{line}" if line else where
            lines.append(f"| `{name}` ({where}) | {calls:,} | {own:.2f} s | {cumulative:.2f} s "
                         f"| {own / total:.0%} |")
        return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--b-mb", type=float, default=200, help="B streamed, MB (20 MB shards)")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args(argv)
    a_path, shards = prepare_data("en", args.b_mb, 20, 2, log)
    b_bytes = sum(os.path.getsize(p) for p in shards)
    python, module_dir = janitor_python()
    janitor_env = dict(os.environ, PYTHONPATH=str(module_dir))
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "ngram_core")],
                   check=True)
    subprocess.run([python, "-m", "compileall", "-q", str(module_dir)], check=True)
    print(f"# bench_speed {datetime.datetime.now().astimezone():%Y-%m-%d %H:%M %Z} | "
          f"nproc {os.cpu_count()} | {cpu_model()} | Python {platform.python_version()} | "
          f"median of {args.runs}\n")
    cores = len(os.sched_getaffinity(0))
    streamed = timed({
        "command, plain install": (command(False, a_path, *shards), None),
        "command, plain install, --jobs 1": (command(False, a_path, *shards, "--jobs", "1"),
                                             None),
        "command, no numpy or pyarrow": (command(True, a_path, *shards), pure_env()),
        "janitor": ([python, "-c", JANITOR_STREAM_JOB, a_path, *shards], janitor_env),
    }, args.runs)
    with tempfile.TemporaryDirectory(prefix="bench_speed_") as tmp:
        a_texts, b_texts = make_pair(2 * MB, 2 * MB)
        pair_a, pair_b = Path(tmp) / "a.jsonl", Path(tmp) / "b.jsonl"
        pair_a.write_bytes(to_jsonl(a_texts, "a"))
        pair_b.write_bytes(to_jsonl(b_texts, "b"))
        small = timed({
            "command": (command(False, str(pair_a), str(pair_b)), None),
            "janitor": ([python, "-c", JANITOR_SET_JOB, str(pair_a), str(pair_b)], janitor_env),
        }, args.runs)
        log("profiling")
        small_profile = profile_top([str(pair_a), str(pair_b)])
    streamed_profile = profile_top([a_path, *shards, "--jobs", "1"])

    janitor_s = streamed["janitor"][0]
    print("| workload | time | rate | peak | × the janitor | target |")
    print("|---|---:|---:|---:|---:|---|")
    for name in ("command, plain install", "command, plain install, --jobs 1",
                 "command, no numpy or pyarrow", "janitor"):
        seconds, peak = streamed[name]
        speed = f"{janitor_s / seconds:.2f} × as fast" if name != "janitor" else ""
        target = "≥ 4 ×, ≤ 400 MB" if name == "command, plain install" else ""
        shown = name if "--jobs 1" in name or name == "janitor" else f"{name} ({cores} workers)"
        print(f"| B of {b_bytes / 1e6:,.0f} MB streamed, A of 2 MB: {shown} | {seconds:.1f} s "
              f"| {b_bytes / 1e6 / seconds:.1f} MB/s | {peak:.0f} MB | {speed} | {target} |")
    command_s, command_peak = small["command"]
    pair_janitor_s, pair_janitor_peak = small["janitor"]
    print(f"| 2 MB x 2 MB: command | {command_s:.2f} s | | {command_peak:.0f} MB | "
          f"{command_s / pair_janitor_s:.2f} × its time | ≤ 1.0 × |")
    print(f"| 2 MB x 2 MB: janitor | {pair_janitor_s:.2f} s | | | | |")
    for title, lines in ((f"B of {b_bytes / 1e6:,.0f} MB streamed", streamed_profile),
                         ("2 MB x 2 MB", small_profile)):
        print(f"\nProfile of the command, {title} (one run under cProfile, own time"
              f"{', --jobs 1' if 'streamed' in title else ''}):\n")
        print("| function | calls | own time | with callees | of the run |")
        print("|---|---:|---:|---:|---:|")
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
