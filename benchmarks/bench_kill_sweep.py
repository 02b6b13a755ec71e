"""A Dask worker killed at each moment of a run, on an idle or a loaded machine (#44).

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_kill_sweep                # idle, 5 runs a delay
    .venv/bin/python -m benchmarks.bench_kill_sweep --load 2       # two CPU-bound processes
    .venv/bin/python -m benchmarks.bench_kill_sweep --times 1 --delays 0.8 2

``ngram-overlap A B --engine dask --workers 2 --json`` on 25 MB of JSON Lines; one
worker is sent SIGKILL (``--signal STOP``: frozen) the given seconds after both
workers' processes exist: while they start, while A's index reaches them, mid-run.
Each run must end within the clean time (measured in the same sweep, on the same
load) + 120 s, with the clean run's output or one line on stderr, and leave no
process of its own behind. Stdout is a header line (date, machine, load) and a
Markdown table; exit status 1 when a run broke the contract.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.bench_dask import cpu_model
from benchmarks.bench_faults import (RECOVERY_MARGIN_S, spawned_workers, start_dask_run,
                                     write_a, write_b)

DELAYS = (0.0, 0.2, 0.5, 0.8, 1.2, 2.0)
SPIN = "while True: pass"


def hurt_run(a: Path, b: Path, hurt: signal.Signals | None, after: float,
             timeout: float) -> tuple[float, int | None, str, str, int]:
    """One run, a worker sent ``hurt`` ``after`` seconds from both workers' start: its
    seconds, exit status (None: did not end in ``timeout``), stdout, stderr, and how
    many of its worker processes were still alive once it ended."""
    started = time.monotonic()
    process = start_dask_run(a, b)
    seen: set[int] = set()
    watching = threading.Thread(target=_watch, args=(process, seen), daemon=True)
    watching.start()
    hurt_pids: list[int] = []
    if hurt is not None:
        time.sleep(after)
        hurt_pids = spawned_workers(process.pid)[:1]
        for pid in hurt_pids:
            os.kill(pid, hurt)
    code: int | None
    try:
        out, err = process.communicate(timeout=timeout)
        code = process.returncode
    except subprocess.TimeoutExpired:
        for pid in spawned_workers(process.pid):
            os.kill(pid, signal.SIGKILL)
        process.kill()
        out, err = process.communicate()
        code = None
    finally:
        for pid in hurt_pids:
            try:
                os.kill(pid, signal.SIGCONT)
            except OSError:
                pass
    watching.join()
    time.sleep(0.5)                     # a killed worker's parent gone: reaped by init
    left = sum("zombie" not in _state(pid) for pid in seen)
    return time.monotonic() - started, code, out, err, left


def _watch(process: subprocess.Popen, seen: set[int]) -> None:
    """Every worker process the run starts (a restarted one too), until it ends."""
    while process.poll() is None:
        seen.update(spawned_workers(process.pid))
        time.sleep(0.1)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split("\n")[0].lower()
    except (OSError, IndexError):
        return "zombie"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--load", type=int, default=0, help="CPU-bound processes beside it")
    parser.add_argument("--times", type=int, default=5, help="runs a delay (default 5)")
    parser.add_argument("--delays", type=float, nargs="+", default=list(DELAYS))
    parser.add_argument("--signal", choices=("KILL", "STOP"), default="KILL")
    args = parser.parse_args(argv)
    hurt = signal.Signals[f"SIG{args.signal}"]
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(args.load)]
    ok = True
    try:
        print(f"# bench_kill_sweep {datetime.datetime.now().isoformat(timespec='seconds')} | "
              f"nproc {os.cpu_count()} | {cpu_model()} | Python {platform.python_version()} "
              f"| {args.load} CPU-bound processes beside it | SIG{args.signal}", flush=True)
        with tempfile.TemporaryDirectory() as folder:
            a, b = Path(folder) / "test.jsonl", Path(folder) / "train.jsonl"
            write_a(a, 0.3)
            write_b(b, "jsonl", 25)
            clean = [hurt_run(a, b, None, 0.0, 600) for _ in range(3)]
            expected = clean[0][2]
            assert all(code == 0 and out == expected for _, code, out, _, _ in clean)
            clean_s = statistics.median(s for s, *_ in clean)
            bound = clean_s + RECOVERY_MARGIN_S
            print(f"\nclean run: {clean_s:.1f} s (median of 3); bound {bound:.0f} s\n")
            print("| killed at | runs | clean result | one line | longest | "
                  "workers left | contract |")
            print("|---:|---:|---:|---:|---:|---:|---|")
            for after in args.delays:
                runs = [hurt_run(a, b, hurt, after, bound + 30) for _ in range(args.times)]
                right = sum(code == 0 and out == expected for _, code, out, _, _ in runs)
                one_line = sum(code == 2 and out == "" and "Traceback" not in err
                               and err.strip().splitlines()[-1].startswith("ngram-overlap: ")
                               for _, code, out, err, _ in runs)
                longest = max(s for s, *_ in runs)
                left = sum(n for *_, n in runs)
                met = right + one_line == len(runs) and longest <= bound and left == 0
                ok = ok and met
                print(f"| {after:g} s | {len(runs)} | {right} | {one_line} | {longest:.1f} s | "
                      f"{left} | {'met' if met else 'NOT MET'} |", flush=True)
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
