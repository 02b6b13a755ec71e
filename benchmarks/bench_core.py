"""Benchmark of the core check against lm-evaluation-harness's 13-gram Janitor.

Run from the repository root::

    .venv/bin/python -m benchmarks.bench_core           # full: B = 0.25 .. 4 MB, A = 2 MB
    .venv/bin/python -m benchmarks.bench_core --quick   # smoke test: B = 0.25, 1 MB, 1 run

Stdout is a header line (date, machine, Python), a Markdown table and two
verdict lines; progress goes to stderr. 1 MB here is 2**20 bytes of generated
text (about the JSONL size: ``corpus.make_pair`` counts 30 bytes per row for
the JSON around the text). A is the same 2 MB for every row (``make_pair``
draws A before B from the same seed).

Columns:

* ngram_core time: median of 5 runs of ``read_rows`` on both JSONL byte
  strings plus ``run_check(a, b, Settings())`` (defaults: n=13, loose mode).
* peak memory: ``tracemalloc`` peak over one more run of the same work, kept
  apart from the timed runs because tracing slows Python down.
* lm-eval time: see ``JANITOR_JOB`` below; median of 3 runs, timed with
  ``perf_counter`` inside a subprocess (interpreter start and import excluded).

The lm-evaluation-harness comparison uses its pure-Python decontamination code,
``lm_eval/decontamination/janitor.py`` from the lm-eval 0.4.13 wheel. That
module imports only the standard library (its C++ helper ``janitor_util`` is
optional and not built here), so the wheel is fetched with ``pip download
--no-deps`` into a throwaway venv under benchmarks/out/ (gitignored) and just
that file is extracted and imported on its own: torch and the rest of the
harness's dependencies are never installed.

It is a comparison of a similar job, not of the same output: the Janitor
lowercases, deletes ASCII punctuation and splits on whitespace, and only says
where 13-gram matches are (to cut them out of training text); ngram_core
tokenizes differently and also reports per-row overlap, best B row and
character offsets.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import zipfile
from pathlib import Path

from benchmarks.corpus import make_pair, to_jsonl
from ngram_core import Settings, read_rows, run_check
from ngram_core.report.contamination import definitions_steps_for
from ngram_core.steps import run_steps

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

MB = 2 ** 20
A_MB = 2
B_SIZES = (0.25, 0.5, 1, 2, 4)
QUICK_SIZES = (0.25, 1)
LM_EVAL_VERSION = "0.4.13"
OUT = HERE / "out" / "lmeval"

# The job timed with the Janitor, run by the throwaway venv's python with
# janitor.py on its path. Timed, per repetition, with a fresh Janitor(ngram_n=13):
#   1. json.loads of every JSONL line of both files (ngram_core's time includes
#      read_rows too);
#   2. Janitor.register_contaminant_python(text) for every B row: each row's
#      text is normalized (lowercase, punctuation deleted) and its
#      whitespace-separated 13-grams (word_ngrams) are added to the
#      dirt_ngrams set. Rows are registered one by one so that, as in
#      ngram_core, no 13-gram spans two rows;
#   3. Janitor.clean_python(text) for every A row: word_ngrams_indices walks
#      the row's 13-grams with their character spans, normalizes each and looks
#      it up in dirt_ngrams, and _split_chunks cuts the matches out.
# The *_python methods are called directly: register_contaminant() and clean()
# would print a warning on every call when the C++ helper is missing. After the
# timed runs, the number of A rows with at least one matching 13-gram is
# counted (untimed) as a sanity check that the job found the shared passages.
JANITOR_JOB = r"""
import json, statistics, sys, time
from janitor import Janitor, word_ngrams

a_path, b_path, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3])
a_raw = open(a_path, encoding="utf-8").read()
b_raw = open(b_path, encoding="utf-8").read()

def job():
    a = [json.loads(line)["text"] for line in a_raw.splitlines() if line]
    b = [json.loads(line)["text"] for line in b_raw.splitlines() if line]
    jan = Janitor(ngram_n=13)
    for text in b:
        jan.register_contaminant_python(text)
    for text in a:
        jan.clean_python(text)
    return a, jan

times = []
for _ in range(repeats):
    start = time.perf_counter()
    a, jan = job()
    times.append(time.perf_counter() - start)
flagged = sum(any(g in jan.dirt_ngrams for g in word_ngrams(jan.normalize_string(t), 13))
              for t in a)
print("RESULT " + json.dumps({"median": statistics.median(times), "times": times,
                              "flagged": flagged, "ngrams": len(jan.dirt_ngrams)}))
"""

# The peer the command is held to (#12): lm-evaluation-harness's janitor used as
# a set of 13-gram strings, as its decontamination run does: every B row's
# normalize_string + word_ngrams into one set, then each A row's 13-grams
# looked up, first hit wins. Timed as a whole process (interpreter start,
# import, read, work), like `ngram-overlap A B --json`.
JANITOR_SET_JOB = r"""
import json, sys
from janitor import Janitor, word_ngrams

jan = Janitor(ngram_n=13)
with open(sys.argv[2], encoding="utf-8") as f:
    dirt = set()
    for line in f:
        if line.strip():
            dirt.update(word_ngrams(jan.normalize_string(json.loads(line)["text"]), 13))
with open(sys.argv[1], encoding="utf-8") as f:
    flagged = sum(any(g in dirt for g in word_ngrams(jan.normalize_string(json.loads(line)["text"]), 13))
                  for line in f if line.strip())
print(flagged)
"""


def log(*args) -> None:
    print(*args, file=sys.stderr, flush=True)


def machine_line() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    now = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    return (f"bench_core {now} | {os.cpu_count()} cores (nproc), {cpu} | "
            f"Python {platform.python_version()}")


# --- lm-evaluation-harness Janitor -------------------------------------------

def janitor_python() -> tuple[str, Path]:
    """The throwaway venv's python and the folder holding janitor.py (made once, then reused)."""
    venv = OUT / "venv"
    python = venv / "bin" / "python"
    module_dir = OUT / "module"
    janitor = module_dir / "janitor.py"
    if not python.exists():
        log(f"creating throwaway venv {venv}")
        base = shutil.which("python3") or sys.executable
        subprocess.run([base, "-m", "venv", str(venv)], check=True)
    if not janitor.exists():
        wheels = OUT / "wheels"
        log(f"pip download lm-eval=={LM_EVAL_VERSION} --no-deps")
        subprocess.run([str(python), "-m", "pip", "download", "--no-deps", "-q",
                        "--disable-pip-version-check", "-d", str(wheels),
                        f"lm-eval=={LM_EVAL_VERSION}"],
                       check=True, stdout=sys.stderr)
        wheel = next(wheels.glob(f"lm_eval-{LM_EVAL_VERSION}-*.whl"))
        module_dir.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(wheel) as z:
            janitor.write_bytes(z.read("lm_eval/decontamination/janitor.py"))
    return str(python), module_dir


def time_janitor(python: str, module_dir: Path, a_path: Path, b_path: Path,
                 repeats: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(module_dir))
    done = subprocess.run([python, "-c", JANITOR_JOB, str(a_path), str(b_path), str(repeats)],
                          capture_output=True, text=True, env=env, cwd=str(module_dir))
    if done.returncode != 0:
        raise RuntimeError(f"janitor job failed:\n{done.stderr[-2000:]}")
    line = next(l for l in reversed(done.stdout.splitlines()) if l.startswith("RESULT "))
    return json.loads(line[len("RESULT "):])


def time_whole_processes(python: str, module_dir: Path, a_path: Path, b_path: Path,
                         repeats: int) -> dict[str, float]:
    """Median wall-clock seconds of whole processes, run in turn: ``ngram-overlap A B
    --json`` (this interpreter), the janitor's 13-gram set job, and an empty
    interpreter start of each for reference."""
    env = dict(os.environ, PYTHONPATH=str(module_dir))
    # Byte-compiled first, as an installed package is (this machine sets
    # PYTHONDONTWRITEBYTECODE, so every run would compile every module again).
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "ngram_core")],
                   check=True)
    subprocess.run([python, "-m", "compileall", "-q", str(module_dir)], check=True)
    commands = {
        "ngram-overlap A B --json": ([sys.executable, "-m", "ngram_core", str(a_path),
                                     str(b_path), "--json"], None),
        "janitor, 13-gram string set, first hit wins": (
            [python, "-c", JANITOR_SET_JOB, str(a_path), str(b_path)], env),
        "python -c pass (this interpreter)": ([sys.executable, "-c", "pass"], None),
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeats):
        for name, (argv, environment) in commands.items():
            start = time.perf_counter()
            subprocess.run(argv, check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, env=environment, cwd=str(ROOT))
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(t) for name, t in times.items()}


# --- ngram_core --------------------------------------------------------------

def core_once(a_bytes: bytes, b_bytes: bytes):
    a = read_rows(a_bytes, "a.jsonl")
    b = read_rows(b_bytes, "b.jsonl")
    return run_check(a, b, Settings())


def time_core(a_bytes: bytes, b_bytes: bytes, repeats: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeats):
        result = None
        gc.collect()
        start = time.perf_counter()
        result = core_once(a_bytes, b_bytes)
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def with_definitions_once(a_bytes: bytes, b_bytes: bytes):
    """The check, then the five published definitions (``--definitions``)."""
    result = core_once(a_bytes, b_bytes)
    run_steps(definitions_steps_for(result))
    return result


def time_variants(repeats: int) -> list[tuple[str, int, float]]:
    """2 MB x 2 MB: the check on generated text (the baseline), the same with the
    published definitions, and the check on Chinese-like text (every ideograph a
    token). Returns (label, A+B tokens, median seconds); the runs alternate."""
    size = int(A_MB * MB)
    latin = [to_jsonl(texts, p) for texts, p in zip(make_pair(size, size), "ab")]
    han = [to_jsonl(texts, p) for texts, p in zip(make_pair(size, size, script="han"), "ab")]
    jobs = [("generated text, check (baseline)", core_once, latin),
            ("generated text, check + --definitions", with_definitions_once, latin),
            ("Chinese-like text, check", core_once, han),
            ("Chinese-like text, check + --definitions", with_definitions_once, han)]
    times: list[list[float]] = [[] for _ in jobs]
    tokens = []
    for _, _, (a_bytes, b_bytes) in jobs:
        result = core_once(a_bytes, b_bytes)
        tokens.append(len(result.a.ids) + len(result.b.ids))
    for _ in range(repeats):
        for i, (label, job, (a_bytes, b_bytes)) in enumerate(jobs):
            log(f"variants: {label}")
            gc.collect()
            start = time.perf_counter()
            job(a_bytes, b_bytes)
            times[i].append(time.perf_counter() - start)
    return [(label, count, statistics.median(t))
            for (label, _, _), count, t in zip(jobs, tokens, times)]


def peak_core(a_bytes: bytes, b_bytes: bytes) -> float:
    gc.collect()
    tracemalloc.start()
    try:
        result = core_once(a_bytes, b_bytes)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    del result
    return peak / MB


# --- main --------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true",
                        help="B = 0.25 and 1 MB only, one run each (smoke test)")
    args = parser.parse_args()
    sizes = QUICK_SIZES if args.quick else B_SIZES
    core_runs, janitor_runs = (1, 1) if args.quick else (5, 3)

    python, module_dir = janitor_python()
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench_core_") as tmp:
        for size in sizes:
            log(f"B = {size} MB: generating")
            a_texts, b_texts = make_pair(int(A_MB * MB), int(size * MB))
            a_bytes, b_bytes = to_jsonl(a_texts, "a"), to_jsonl(b_texts, "b")
            a_path, b_path = Path(tmp) / "a.jsonl", Path(tmp) / "b.jsonl"
            a_path.write_bytes(a_bytes)
            b_path.write_bytes(b_bytes)
            log(f"B = {size} MB: ngram_core x{core_runs}")
            core_time, result = time_core(a_bytes, b_bytes, core_runs)
            b_tokens, flagged = len(result.b.ids), result.summary.flagged
            del result
            log(f"B = {size} MB: tracemalloc run")
            peak = peak_core(a_bytes, b_bytes)
            log(f"B = {size} MB: lm-eval Janitor x{janitor_runs}")
            jan = time_janitor(python, module_dir, a_path, b_path, janitor_runs)
            log(f"B = {size} MB: ngram_core {core_time:.3f} s ({flagged} A rows flagged), "
                f"Janitor {jan['median']:.3f} s ({jan['flagged']} A rows with a shared 13-gram)")
            rows.append((size, b_tokens, core_time, peak, jan["median"]))

    print(machine_line() + f" | A = {A_MB} MB generated text, 1 MB = 2^20 bytes"
          + (" | --quick" if args.quick else ""))
    print()
    print("| B MB | B tokens | ngram_core s (median of "
          f"{core_runs}) | peak MB (tracemalloc) | lm-eval 13-gram s (median of "
          f"{janitor_runs}) | lm-eval / ngram_core |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for size, tokens, core_time, peak, jan_time in rows:
        label = f"{size:g}" + (" (2 MB x 2 MB target)" if size == A_MB else "")
        print(f"| {label} | {tokens:,} | {core_time:.3f} | {peak:.1f} | {jan_time:.3f} | "
              f"{jan_time / core_time:.1f}x |")
    print()
    by_size = {size: core_time for size, _, core_time, _, _ in rows}
    if 4 in by_size and 1 in by_size:
        ratio = by_size[4] / by_size[1]
        print(f"ngram_core time ratio 4 MB / 1 MB: {ratio:.2f} "
              f"({'OK' if ratio <= 4.5 else 'FAIL'}: must be <= 4.5 for linear growth)")
    else:
        print("ngram_core time ratio 4 MB / 1 MB: n/a (needs B = 1 and 4 MB; run without --quick)")
    if A_MB in by_size:
        t = by_size[A_MB]
        print(f"2 MB x 2 MB under 1 s: {'yes' if t < 1 else 'NO'} ({t:.3f} s)")
    else:
        print("2 MB x 2 MB under 1 s: n/a (needs B = 2 MB; run without --quick)")
    size = int(A_MB * MB)
    with tempfile.TemporaryDirectory(prefix="bench_core_") as tmp:
        a_path, b_path = Path(tmp) / "a.jsonl", Path(tmp) / "b.jsonl"
        a_texts, b_texts = make_pair(size, size)
        a_path.write_bytes(to_jsonl(a_texts, "a"))
        b_path.write_bytes(to_jsonl(b_texts, "b"))
        log("whole processes, 2 MB x 2 MB")
        whole = time_whole_processes(python, module_dir, a_path, b_path, core_runs)
    janitor = whole["janitor, 13-gram string set, first hit wins"]
    print()
    print(f"| 2 MB x 2 MB generated JSONL, whole process | s (median of {core_runs}, "
          "alternating) | / janitor | target |")
    print("| --- | ---: | ---: | ---: |")
    for name, seconds in whole.items():
        target = "≤ 1.0x" if name.startswith("ngram-overlap") else ""
        print(f"| {name} | {seconds:.3f} | {seconds / janitor:.2f}x | {target} |")
    variants = time_variants(core_runs)
    base = variants[0][2]
    print()
    print(f"| 2 MB x 2 MB JSONL | A + B tokens | s (median of {core_runs}, alternating) "
          "| / baseline |")
    print("| --- | ---: | ---: | ---: |")
    for label, tokens, seconds in variants:
        print(f"| {label} | {tokens:,} | {seconds:.3f} | {seconds / base:.2f}x |")


if __name__ == "__main__":
    main()
