"""Benchmark (#20): the command and Dask against lm-evaluation-harness's janitor,
all streaming the same B past a test set A, as B grows, with peak memory.

    .venv/bin/python -m benchmarks.bench_dask        # what `make bench` runs (#20's sizes)
    .venv/bin/python -m benchmarks.bench_dask --sizes 5,10 --shard-mb 2.5 \\
        --dask-max-mb 10 --zh-sizes 5                # quick: a minute or two

Defaults: A of ``--a-mb 2`` MB (the size #20's memory target is stated for),
English-like B of 200 and 2,000 MB (``--sizes``) in shards of ``--shard-mb 20``,
Dask measured up to ``--dask-max-mb 1000`` (at the 2,000 MB size Dask streams
the first 1,000 MB, the size of #20's speed-up target), and a second table of
Chinese-like B (``--zh-sizes 200``). 1 MB is 10^6 bytes of JSONL.

Data. Each text kind (``en``: Zipf-distributed words of ``corpus.vocabulary``;
``zh``: words of one to three ideographs of ``corpus.han_vocabulary``, no
spaces, every ideograph a token) gets its own folder under
``benchmarks/out/bench_dask/`` (gitignored), generated on first use and reused
while its manifest (version, A's size, shard size) matches. A is ``--a-mb`` of
rows. One shard's worth of rows is generated once; shard k > 0 is that shard
with a character rotation applied to every text (``str.translate``: three
letters in English, a different three in each shard, rewriting a third to a
half of the words; 500 of the 3,000 ideographs in Chinese-like text), then
passages of A appended to B rows (one A row in 20, a different slice in each
shard, lends 15-40 tokens) and three whole A rows inserted as B rows, so every
shard has real matches to find. Writing a 20 MB shard takes about 0.2 s (English) to
1.2 s (Chinese-like) after the base rows (4 s); a size of S MB uses the first
S / shard-mb shards.

Measured for each size, each in a fresh process so its peak RSS (``VmHWM``;
:func:`peak_rss_mb` says why not ``ru_maxrss``) belongs to that run:

* B indexed whole (English only): ``load_rows`` of every shard + ``run_check``,
  the page's path; skipped where its peak, extrapolated linearly from the
  smaller size, would pass ``--max-local-gb`` (4; about 40 GB at 2,000 MB);
* command (streamed): ``stream.check_streamed``, the path ``ngram-overlap A B``
  takes for a B this large (A indexed, B streamed a partition at a time, the
  command's own partition size, 16 MiB);
* janitor (streamed): lm-evaluation-harness's ``janitor.py`` (lm-eval 0.4.13,
  from the throwaway venv ``bench_core.janitor_python`` makes) used the way a
  decontamination run uses it: A's 13-gram strings (``normalize_string`` +
  ``word_ngrams``) in a set, then every B line read, ``json.loads``, its text
  normalized and its 13-grams looked up (``set.intersection``); see
  ``JANITOR_STREAM_JOB``. It splits on whitespace, so Chinese-like rows are one
  "word" each and give it no 13-grams: there it measures reading and
  normalizing only;
* dask, 1 and 2 workers (English; 1 worker for Chinese-like text):
  ``check_distributed`` on a ``LocalCluster(processes=True,
  threads_per_worker=1)``, a fresh cluster per size and worker count. The
  time excludes starting the cluster and includes everything else: indexing
  A, scattering the index, every partition, combining and assembling the
  result; the peak is the largest worker's ``VmHWM`` read with ``client.run``.

Times exclude interpreter start and imports (the whole-process 2 MB x 2 MB
comparison with the janitor is ``bench_core``'s second table, run first by
``make bench``). Times are the median of ``--repeat`` runs (default 3),
except at a table's largest size when it has several (``--repeat-largest``,
default 1). The CSV of Dask (2 workers) is compared byte for byte with B
indexed whole at the first size, and the flagged counts of every engine of
this project on the same B must agree. Each table ends with #20's targets,
each with its measured value and met / not met.

Wall time of the defaults on 2 cores, measured 2026-12-04: 29 minutes
(English 200 MB about 7 min with B indexed whole 3 x 59 s in 3.7 GB; 2,000 MB
about 12 min: the command 4.2 min, the janitor 5.9 min, Dask on 1,000 MB
2.8 min and 1.6 min; Chinese-like 200 MB about 6 min), so about 40 min for
``make bench`` with ``bench_core`` and ``bench_browser``; writing the data
takes under a minute, once.
Only the standard library, dask and distributed are used (and the janitor's
own venv).
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time

from benchmarks.corpus import han_vocabulary, sentences, to_jsonl, vocabulary

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

OUT = os.path.join(HERE, "out", "bench_dask")
DATA_VERSION = 2            # bump when the generator changes, to regenerate the cache
#: #20's targets: B streamed per core (the command, and each Dask worker) on English
#: and on Chinese-like text; two workers' speed-up over one on B of at least
#: TARGET_SPEEDUP_MB; the command's peak with A of TARGET_PEAK_A_MB at any B size;
#: a Dask worker's peak flat in B (growing by at most TARGET_FLAT).
TARGET_MB_S = {"en": 25.0, "zh": 10.0}
TARGET_SPEEDUP, TARGET_SPEEDUP_MB = 1.9, 1000
TARGET_PEAK_MB, TARGET_PEAK_A_MB = 400, 2
TARGET_FLAT = 0.15
TEXT_NAMES = {"en": "English-like JSONL", "zh": "Chinese-like JSONL"}

INDEXED = "B indexed whole (the page's path)"
COMMAND = "command (streamed)"
JANITOR = "janitor (streamed)"
DASK = "dask"


# --- data ------------------------------------------------------------------------

class _Text:
    """Rows of ``corpus.sentences`` in one script, with the Zipf weights accumulated once."""

    def __init__(self, kind: str, seed: int):
        self.han = kind == "zh"
        self.rng = random.Random(seed)
        self.words = han_vocabulary(30_000) if self.han else vocabulary(30_000)
        self.cum = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(self.words))))
        self.joiner = "" if self.han else " "

    def rows(self, target: int) -> list[str]:
        out, size = [], 0
        while size < target:
            text = self.joiner.join(sentences(self.rng, self.words, self.cum,
                                              self.rng.randint(1, 8),
                                              "han" if self.han else "latin"))
            out.append(text)
            size += len(text.encode()) + 30
        return out

    def tokens(self, text: str) -> list[str]:
        return list(text) if self.han else text.split(" ")

    def rotation(self, k: int) -> str:
        """The characters shard k > 0 rotates: 500 of the 3,000 ideographs, or three
        letters (a different three in each of the first 1,140 shards)."""
        if self.han:
            return "".join(random.Random(5000 + k).sample(
                [chr(0x4E00 + i) for i in range(3000)], 500))
        triples = list(itertools.combinations(sorted(set("".join(self.words))), 3))
        random.Random(99).shuffle(triples)
        return "".join(triples[(k - 1) % len(triples)])


def _shard(base: str, a: list[str], k: int, gen: _Text) -> bytes:
    """Shard ``k`` as JSONL: ``base`` (the base rows' JSON string literals, one a line)
    with ``gen.rotation(k)``'s characters rotated (not shard 0), passages of A appended."""
    rng = random.Random(1000 + k)
    if k:
        chars = gen.rotation(k)
        base = base.translate(str.maketrans(chars, chars[1:] + chars[:1]))
    bodies = base.split("\n")

    def literal(text: str) -> str:
        return json.dumps(text, ensure_ascii=False)

    # one A row in 20 (a different slice in each shard) lends a passage of 15-40 tokens
    for i in range(k % 20, len(a), 20):
        toks = gen.tokens(a[i])
        length = min(len(toks), rng.randint(15, 40))
        start = rng.randrange(len(toks) - length + 1)
        j = rng.randrange(len(bodies))
        passage = literal(gen.joiner.join(toks[start:start + length]))
        bodies[j] = bodies[j][:-1] + gen.joiner + passage[1:]
    # and three whole A rows appear as B rows of their own (exact duplicates)
    for i in rng.sample(range(len(a)), 3):
        bodies.insert(rng.randrange(len(bodies) + 1), literal(a[i]))
    return "".join(f'{{"id": "s{k}-{i}", "text": {body}}}\n'
                   for i, body in enumerate(bodies, 1)).encode()


def prepare_data(kind: str, max_mb: float, shard_mb: float, a_mb: float,
                 log) -> tuple[str, list[str]]:
    """A's path and the shards' paths for B of ``max_mb``, generated on first use and
    then reused."""
    out = os.path.join(OUT, kind)
    os.makedirs(out, exist_ok=True)
    manifest_path = os.path.join(out, "manifest.json")
    wanted = {"version": DATA_VERSION, "shard_mb": shard_mb, "a_bytes": int(a_mb * 1e6)}
    manifest = {}
    if os.path.exists(manifest_path):
        with open(manifest_path) as f:
            manifest = json.load(f)
    if {k: manifest.get(k) for k in wanted} != wanted:
        for name in os.listdir(out):
            if name.endswith(".jsonl"):
                os.remove(os.path.join(out, name))
        manifest = dict(wanted, shards=0)
    count = max(1, round(max_mb / shard_mb))
    a_path = os.path.join(out, "a.jsonl")
    shard_paths = [os.path.join(out, f"b-{k:04d}.jsonl") for k in range(count)]
    if os.path.exists(a_path) and all(map(os.path.exists, shard_paths)):
        return a_path, shard_paths
    t0 = time.perf_counter()
    gen = _Text(kind, seed=1)
    a = gen.rows(int(a_mb * 1e6))
    base = "\n".join(json.dumps(t, ensure_ascii=False) for t in gen.rows(int(shard_mb * 1e6)))
    with open(a_path, "wb") as f:
        f.write(to_jsonl(a, "a"))
    made = 0
    for k, path in enumerate(shard_paths):
        if os.path.exists(path):
            continue
        with open(path + ".tmp", "wb") as f:
            f.write(_shard(base, a, k, gen))
        os.replace(path + ".tmp", path)
        made += 1
    manifest["shards"] = max(count, manifest.get("shards", 0))
    with open(manifest_path, "w") as f:
        json.dump(manifest, f)
    log(f"generated A and {made} shards of {TEXT_NAMES[kind]} B in "
        f"{time.perf_counter() - t0:.1f} s into {out}")
    return a_path, shard_paths


def mb(paths) -> float:
    return sum(os.path.getsize(p) for p in paths) / 1e6


def peak_rss_mb() -> float:
    """This process's peak RSS in MB: ``VmHWM``, which starts afresh at exec.

    ``ru_maxrss`` does not: a process spawned (fork + exec) from a big parent,
    as a Dask worker is from the client that runs its nanny, inherits the
    parent's peak (a child of a 500 MB process reports 500 MB).
    """
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --- B indexed whole and the command streamed (each in a subprocess) --------------------

def indexed_child(a_path: str, b_paths: list[str], csv_path: str | None) -> None:
    """Run as a subprocess: time load_rows(B) + run_check, print JSON with own peak RSS."""
    from ngram_core import Settings, run_check
    from ngram_core.read.files import load_rows, load_rows_by_file
    a_rows = load_rows([a_path])
    t0 = time.perf_counter()
    b_rows, b_files, _ = load_rows_by_file(b_paths)     # the CSV names each row's B file
    result = run_check(a_rows, b_rows, Settings(), b_files=b_files)
    seconds = time.perf_counter() - t0
    if csv_path:
        with open(csv_path, "w", encoding="utf-8", newline="") as f:
            f.write(result.csv())
    s = result.summary
    print(json.dumps({"seconds": seconds, "peak_mb": peak_rss_mb(), "flagged": s.flagged,
                      "capped": s.windows_capped, "b_rows": len(b_rows)}))


def command_child(a_path: str, b_paths: list[str]) -> None:
    """Run as a subprocess: time the command's streamed check (stream.check_streamed, the
    path ``ngram-overlap A B`` takes for a B this large), print JSON with own peak RSS."""
    from ngram_core import Settings
    from ngram_core.read.files import load_rows
    from ngram_core.run.stream import check_streamed
    a_rows = load_rows([a_path])
    t0 = time.perf_counter()
    result = check_streamed(a_rows, b_paths, Settings(), a_fields=["text"])
    seconds = time.perf_counter() - t0
    s = result.summary
    print(json.dumps({"seconds": seconds, "peak_mb": peak_rss_mb(), "flagged": s.flagged,
                      "capped": s.windows_capped}))


def run_child(flag: str, a_path: str, b_paths: list[str], csv_path: str | None = None) -> dict:
    cmd = [sys.executable, "-m", "benchmarks.bench_dask", flag, a_path,
           *(["--_csv", csv_path] if csv_path else []), *b_paths]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if done.returncode:
        raise RuntimeError(f"{flag} run failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- the janitor streaming B (in the janitor's venv) ------------------------------------

# Run by the throwaway venv's python with janitor.py on its path, timed from
# after the imports to the last B line: A's 13-gram strings (the janitor's
# normalize_string: ASCII lower-casing, ASCII punctuation deleted; word_ngrams:
# whitespace split) into one set, per A row too; then each B file read line by
# line, json.loads, its "text" normalized and its 13-grams intersected with A's.
# An A row is flagged when one of its 13-grams was found (counted after the timer).
JANITOR_STREAM_JOB = r"""
import json, sys, time
from janitor import Janitor, word_ngrams

def peak_mb():
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024

a_path, b_paths = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
normalize = Janitor(ngram_n=13).normalize_string
with open(a_path, encoding="utf-8") as f:
    a = [set(word_ngrams(normalize(json.loads(line)["text"]), 13)) for line in f if line.strip()]
grams = set().union(*a)
found = set()
for path in b_paths:
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                hits = grams.intersection(word_ngrams(normalize(json.loads(line)["text"]), 13))
                if hits:
                    found |= hits
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "peak_mb": peak_mb(), "a_grams": len(grams),
                  "flagged": sum(not row.isdisjoint(found) for row in a)}))
"""


def run_janitor(python: str, module_dir, a_path: str, b_paths: list[str]) -> dict:
    env = dict(os.environ, PYTHONPATH=str(module_dir))
    done = subprocess.run([python, "-c", JANITOR_STREAM_JOB, a_path, *b_paths],
                          capture_output=True, text=True, env=env, cwd=str(module_dir))
    if done.returncode:
        raise RuntimeError(f"janitor run failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- the Dask engine ----------------------------------------------------------------

def _warm_up() -> None:
    import ngram_core.run.stream  # noqa: F401   (the functions the workers run)


def run_dask(workers: int, a_rows, b_paths, settings, blocksize: int, repeat: int,
             want_csv: bool = False) -> dict:
    from dask.distributed import Client, LocalCluster

    from ngram_core.run.distributed import check_distributed
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        client.wait_for_workers(workers)
        client.run(_warm_up)                      # imports: part of start-up, not timed
        times, result = [], None
        for _ in range(repeat):
            t0 = time.perf_counter()
            result = check_distributed(client, a_rows, b_paths, settings, blocksize=blocksize)
            times.append(time.perf_counter() - t0)
        peaks = client.run(peak_rss_mb)
    assert result is not None
    return {"seconds": statistics.median(times), "times": times,
            "peak_mb": max(peaks.values()), "peaks": sorted(peaks.values()),
            "flagged": result.summary.flagged,
            "csv": result.csv() if want_csv else None}


# --- one table ------------------------------------------------------------------------

def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _verdict(ok: bool) -> str:
    return "met" if ok else "NOT MET"


def _median(runs: list[dict]) -> dict:
    return {"seconds": statistics.median(r["seconds"] for r in runs),
            "peak_mb": max(r["peak_mb"] for r in runs), "flagged": runs[0]["flagged"]}


def bench_table(kind: str, sizes: list[float], args, janitor: tuple, blocksize: int,
                log) -> None:
    """Measure every engine at every size of B of one text kind; print the table and
    #20's targets."""
    from ngram_core import Settings
    from ngram_core.read.files import load_rows

    english = kind == "en"
    settings = Settings()
    a_path, all_shards = prepare_data(kind, sizes[-1], args.shard_mb, args.a_mb, log)
    a_rows = load_rows([a_path])
    a_mb = mb([a_path])
    rows: list[tuple] = []   # (b_mb, engine, workers, seconds, runs, peak_mb, flagged)
    notes = []
    dask_peaks: dict[int, list[tuple[float, float]]] = {1: [], 2: []}
    speedups = []
    dask_done = set()
    local_peak: tuple[float, float] | None = None   # (b_mb, peak_mb), last B indexed whole
    csv_checked = False
    for size in sizes:
        b_paths = all_shards[:max(1, round(size / args.shard_mb))]
        b_mb = mb(b_paths)
        repeat = args.repeat_largest if size == sizes[-1] and len(sizes) > 1 else args.repeat
        label = f"{TEXT_NAMES[kind]}, B {b_mb:.0f} MB"
        flagged: dict[str, int] = {}

        local: dict | None = None
        if english:
            estimate = local_peak[1] * b_mb / local_peak[0] if local_peak else 0.0
            if local_peak and estimate > args.max_local_gb * 1024:
                notes.append(f"{INDEXED} skipped at {b_mb:.0f} MB: peak estimated at "
                             f"{estimate / 1024:.1f} GB (linear from {local_peak[0]:.0f} MB), "
                             f"over --max-local-gb {args.max_local_gb:g}")
            else:
                log(f"{label}: {INDEXED} x{repeat}")
                csv_path = os.path.join(OUT, "indexed.csv") if not csv_checked else None
                runs = [run_child("--_indexed", a_path, b_paths, csv_path if i == 0 else None)
                        for i in range(repeat)]
                local = _median(runs)
                local["capped"] = runs[0]["capped"]
                local_peak = (b_mb, local["peak_mb"])
                flagged[INDEXED] = local["flagged"]
                rows.append((b_mb, INDEXED, "-", local["seconds"], repeat, local["peak_mb"],
                             local["flagged"]))

        log(f"{label}: {COMMAND} x{repeat}")
        r = _median([run_child("--_command", a_path, b_paths) for _ in range(repeat)])
        flagged[COMMAND] = r["flagged"]
        rows.append((b_mb, COMMAND, "-", r["seconds"], repeat, r["peak_mb"], r["flagged"]))

        log(f"{label}: {JANITOR} x{repeat}")
        r = _median([run_janitor(janitor[0], janitor[1], a_path, b_paths) for _ in range(repeat)])
        rows.append((b_mb, JANITOR, "-", r["seconds"], repeat, r["peak_mb"], r["flagged"]))

        d_paths = all_shards[:max(1, round(min(size, args.dask_max_mb) / args.shard_mb))]
        d_mb = mb(d_paths)
        if args.dask_max_mb > 0 and d_paths != b_paths:
            notes.append(f"Dask streams at most --dask-max-mb {args.dask_max_mb:g}: at B "
                         f"{b_mb:.0f} MB it ran on the first {d_mb:.0f} MB")
        if len(d_paths) not in dask_done and args.dask_max_mb > 0:
            dask_done.add(len(d_paths))
            results = {}
            for workers in ((1, 2) if english else (1,)):
                log(f"{TEXT_NAMES[kind]}, B {d_mb:.0f} MB: dask, {workers} worker(s) x{repeat}")
                want_csv = (local is not None and not csv_checked and workers == 2
                            and d_paths == b_paths)
                results[workers] = w = run_dask(workers, a_rows, d_paths, settings, blocksize,
                                                repeat, want_csv=want_csv)
                dask_peaks[workers].append((d_mb, w["peak_mb"]))
                rows.append((d_mb, DASK, str(workers), w["seconds"], repeat, w["peak_mb"],
                             w["flagged"]))
                if d_paths == b_paths:
                    flagged[f"dask {workers}"] = w["flagged"]
            if 2 in results:
                speedups.append((d_mb, results[1]["seconds"] / results[2]["seconds"]))
                if results[2]["csv"] is not None and local is not None:
                    with open(os.path.join(OUT, "indexed.csv"), encoding="utf-8",
                              newline="") as f:
                        local_csv = f.read()
                    same = local_csv == results[2]["csv"]
                    notes.append(f"CSV check at {b_mb:.0f} MB: Dask CSV "
                                 f"{'==' if same else '!='} {INDEXED} CSV "
                                 f"({local_csv.count(chr(10))} lines, {local['flagged']} rows "
                                 f"flagged of {len(a_rows)}, windows over the cap: "
                                 f"{local['capped']})" + ("" if same else " -- MISMATCH"))
                    csv_checked = True
        if len(set(flagged.values())) > 1:
            notes.append(f"A rows flagged differ between this project's engines at "
                         f"{b_mb:.0f} MB: {flagged} -- MISMATCH")

    print()
    print(f"{TEXT_NAMES[kind]}: A {a_mb:.1f} MB ({len(a_rows):,} rows), B in shards of "
          f"{args.shard_mb:g} MB")
    print()
    print("| B MB | engine | workers | seconds | MB/s | peak MB per worker (or process) "
          "| A rows flagged |")
    print("|---:|---|---:|---:|---:|---:|---:|")
    for b_mb, engine, workers, seconds, runs, peak, flag in sorted(rows, key=lambda r: r[0]):
        how = "" if runs > 1 else " (1 run)"
        print(f"| {b_mb:.0f} | {engine} | {workers} | {seconds:.1f}{how} | "
              f"{b_mb / seconds:.2f} | {peak:.0f} | {flag:,} |")
    print()
    print((f"Times: median of {args.repeat} runs" if args.repeat > 1 else "Times: 1 run each")
          + (f", 1 run at the largest size ({sizes[-1]:g} MB)"
             if args.repeat > 1 and args.repeat_largest == 1 and len(sizes) > 1 else "")
          + "; Dask times exclude cluster start-up. Peak = VmHWM of the process (worker, "
            "command, janitor or B-indexed-whole subprocess). The janitor tokenizes "
            "differently (whitespace words, ASCII lower-casing and punctuation deleted), "
            "so its flagged count is not expected to match"
          + (" (it splits on whitespace: Chinese-like rows are one word each)."
             if not english else "."))

    def rates(engine, workers="-"):
        return [(b, b / s / (int(workers) if workers != "-" else 1))
                for b, e, w, s, _, _, _ in rows if e == engine and w == workers]

    def listed(pairs, unit="MB/s"):
        return ", ".join(f"{v:.{1 if unit == 'MB/s' else 0}f} {unit} at {b:.0f} MB"
                         for b, v in pairs)

    target = TARGET_MB_S[kind]
    print()
    print(f"#20's targets, {TEXT_NAMES[kind]}:")
    command = rates(COMMAND)
    print(f"- B streamed at >= {target:g} MB/s per core, the command: {listed(command)}: "
          f"{_verdict(all(v >= target for _, v in command))}")
    for workers in ((1, 2) if english else (1,)):
        per = rates(DASK, str(workers))
        if per:
            print(f"- B streamed at >= {target:g} MB/s per core, each Dask worker "
                  f"({workers} worker{'s' if workers > 1 else ''}, B MB/s / workers): "
                  f"{listed(per)}: {_verdict(all(v >= target for _, v in per))}")
    peaks = [(b, p) for b, e, _, _, _, p, _ in rows if e == COMMAND]
    about_a = ("" if abs(a_mb - TARGET_PEAK_A_MB) < 0.5 else
               f" (A is {a_mb:.1f} MB here; the target is stated for A of "
               f"{TARGET_PEAK_A_MB} MB)")
    print(f"- The command's peak <= {TARGET_PEAK_MB} MB at any B size{about_a}: "
          f"{listed(peaks, 'MB')}: {_verdict(all(p <= TARGET_PEAK_MB for _, p in peaks))}")
    if english:
        big = [(b, s) for b, s in speedups if b >= TARGET_SPEEDUP_MB]
        small = ", ".join(f"{s:.2f}x at {b:.0f} MB" for b, s in speedups
                          if b < TARGET_SPEEDUP_MB)
        print(f"- 2 Dask workers >= {TARGET_SPEEDUP:g}x one on >= {TARGET_SPEEDUP_MB} MB: "
              + (", ".join(f"{s:.2f}x at {b:.0f} MB" for b, s in big) + ": "
                 + _verdict(all(s >= TARGET_SPEEDUP for _, s in big)) if big else
                 ("not measured (no Dask: --dask-max-mb 0)" if args.dask_max_mb <= 0 else
                  f"not measured (Dask ran on less than {TARGET_SPEEDUP_MB} MB)"))
              + (f" (smaller B, not held to it: {small})" if small else ""))
        for workers, peaks_w in dask_peaks.items():
            if len(peaks_w) > 1:
                lo, hi = min(p for _, p in peaks_w), max(p for _, p in peaks_w)
                growth = hi / lo - 1
                print(f"- Flat per-worker memory, {workers} worker(s) (growth <= "
                      f"{TARGET_FLAT:.0%}): " + " -> ".join(f"{p:.0f} MB at {m:.0f} MB"
                                                             for m, p in peaks_w)
                      + f" ({growth:+.0%} while B grows {peaks_w[-1][0] / peaks_w[0][0]:.1f}x): "
                      + _verdict(growth <= TARGET_FLAT))
            elif peaks_w:
                print(f"- Flat per-worker memory, {workers} worker(s): not measured (Dask "
                      f"ran at one size only: {peaks_w[0][1]:.0f} MB at {peaks_w[0][0]:.0f} MB)")
    jan = {b: b / s for b, e, _, s, _, _, _ in rows if e == JANITOR}
    print("- Side by side with the janitor streaming the same B (no target): the command "
          + ", ".join(f"{v / jan[b]:.2f}x its MB/s at {b:.0f} MB" for b, v in command
                      if b in jan))
    for note in notes:
        print(note)


# --- main -------------------------------------------------------------------------------

def _sizes(text: str) -> list[float]:
    return sorted(float(s) for s in text.split(",") if s.strip())


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="200,2000",
                   help="English-like B sizes in MB, comma-separated (default 200,2000)")
    p.add_argument("--zh-sizes", default="200",
                   help="Chinese-like B sizes in MB for the second table (default 200; "
                        "empty: no second table)")
    p.add_argument("--a-mb", type=float, default=2.0,
                   help="A's size in MB (default 2, the size #20's memory target is for)")
    p.add_argument("--shard-mb", type=float, default=20.0, help="MB per B shard (default 20)")
    p.add_argument("--dask-max-mb", type=float, default=1000.0,
                   help="Dask streams at most this much of B (default 1000; 0: no Dask)")
    p.add_argument("--blocksize", default="4MiB",
                   help="Dask partition size (default 4MiB: 5 partitions a 20 MB shard)")
    p.add_argument("--repeat", type=int, default=3, help="runs per measurement (median)")
    p.add_argument("--repeat-largest", type=int, default=1,
                   help="runs at a table's largest size (default 1)")
    p.add_argument("--max-local-gb", type=float, default=4.0,
                   help="skip B indexed whole where its peak would pass this")
    p.add_argument("--_indexed", help=argparse.SUPPRESS)
    p.add_argument("--_csv", help=argparse.SUPPRESS)
    p.add_argument("--_command", help=argparse.SUPPRESS)
    p.add_argument("paths", nargs="*", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args._indexed:
        indexed_child(args._indexed, args.paths, args._csv or None)
        return 0
    if args._command:
        command_child(args._command, args.paths)
        return 0

    # imported here, not at the top: the measured subprocesses (--_command, --_indexed)
    # then load the engine and nothing of bench_core's
    from benchmarks.bench_core import janitor_python
    from ngram_core import Settings
    from ngram_core.read.files import parse_size

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    blocksize = parse_size(args.blocksize, "--blocksize")
    settings = Settings()
    janitor = janitor_python()
    print(f"# bench_dask {datetime.datetime.now().isoformat(timespec='seconds')} | "
          f"nproc {os.cpu_count()} | {cpu_model()} | Python {platform.python_version()} | "
          f"dask {__import__('dask').__version__} | blocksize {args.blocksize} | "
          f"n={settings.n} {settings.mode} | Dask up to {args.dask_max_mb:g} MB of B | "
          f"load average {os.getloadavg()[0]:.2f} at start", flush=True)
    for kind, sizes in (("en", _sizes(args.sizes)), ("zh", _sizes(args.zh_sizes))):
        if sizes:
            bench_table(kind, sizes, args, janitor, blocksize, log)
            sys.stdout.flush()
    print()
    print(f"Load average at the end: {os.getloadavg()[0]:.2f} (other processes share the "
          f"{os.cpu_count()} cores; a busy machine lowers the 2-worker speed-up)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
