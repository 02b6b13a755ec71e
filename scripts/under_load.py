"""Run pytest with the machine loaded: CPU-bound processes beside it, as on a busy
workstation or a shared CI runner (#44: the fault suite must hold there too).

    .venv/bin/python scripts/under_load.py                       # make test's suite, 3 times
    .venv/bin/python scripts/under_load.py --times 1 --load 2 -- tests/faults/test_dask.py

Starts ``--load`` processes that spin on the CPU, runs ``python -m pytest`` with the
arguments after ``--`` ``--times`` times in a row, stops at the first failure, and
ends the load processes (by their ids) however it ends. Exit status: pytest's.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPIN = "while True: pass"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--load", type=int, default=2, help="CPU-bound processes (default 2)")
    parser.add_argument("--times", type=int, default=3, help="runs in a row (default 3)")
    parser.add_argument("pytest_args", nargs="*", help="after --: pytest's arguments")
    args = parser.parse_args(argv)
    spinners = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(args.load)]
    try:
        for run in range(1, args.times + 1):
            print(f"under_load: run {run} of {args.times}, {args.load} CPU-bound processes "
                  f"beside it", file=sys.stderr, flush=True)
            code = subprocess.call([sys.executable, "-m", "pytest", *args.pytest_args],
                                   cwd=ROOT)
            if code != 0:
                return code
        return 0
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


if __name__ == "__main__":
    sys.exit(main())
