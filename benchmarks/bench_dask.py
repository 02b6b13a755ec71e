"""Benchmark: the single-machine check against the Dask engine, as B grows.

    .venv/bin/python -m benchmarks.bench_dask               # B = 50 and 500 MB
    .venv/bin/python -m benchmarks.bench_dask --sizes 5,10 --shard-mb 2.5   # quick

A is 1 MB of JSONL. B is written as JSONL shards of ``--shard-mb`` each into
``benchmarks/out/bench_dask/`` (gitignored) and reused by later runs: one
shard's worth of rows is generated once and every shard is a copy of it with
its own ids and about one word in six replaced, plus passages of A (and a few
whole A rows) appended, different ones in each shard, so every shard has real
matches to find. A B size of S MB uses the first S / shard-mb shards.

Measured for each B size:

1. the single-machine path (``load_rows`` of every shard + ``run_check``, as
   the ``ngram-overlap`` command runs it), in a subprocess that reports its own
   peak RSS (``VmHWM``; :func:`peak_rss_mb` says why not ``ru_maxrss``);
   skipped where its peak, extrapolated linearly from the smaller size, would
   pass ``--max-local-gb``;
2. and 3. ``check_distributed`` on a ``LocalCluster(processes=True,
   threads_per_worker=1)`` with 1 and with 2 workers. The time excludes
   starting the cluster and includes everything else: indexing A, scattering
   the index, every partition, combining and assembling the result. Each size
   and worker count gets a fresh cluster, so a worker's peak RSS
   (``VmHWM``, read with ``client.run`` after the runs) belongs to that size.

Times are the median of ``--repeat`` runs (default 3), except for the largest
size when ``--repeat-largest`` is 1 (the default), which the table says.
Only the standard library, dask and distributed are used.
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

from benchmarks.corpus import sentences, vocabulary

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

OUT = os.path.join(HERE, "out", "bench_dask")
A_BYTES = 1_000_000
DATA_VERSION = 1            # bump when the generator changes, to regenerate the cache
#: The targets the output is held to (issue #12): one worker's speed, two workers'
#: speed-up over one on B of at least TARGET_SPEEDUP_MB, and a worker's peak memory.
TARGET_MB_S = 25.0
TARGET_SPEEDUP, TARGET_SPEEDUP_MB = 1.8, 500
TARGET_PEAK_MB = 500


# --- data ------------------------------------------------------------------------

class _Text:
    """Sentences from ``corpus.sentences``, with the Zipf weights accumulated once."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)
        self.words = vocabulary(30_000)
        self.cum = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(self.words))))

    def sentence(self) -> str:
        return sentences(self.rng, self.words, self.cum, 1)[0]

    def rows(self, target: int) -> list[str]:
        out, size = [], 0
        while size < target:
            text = " ".join(self.sentence() for _ in range(self.rng.randint(1, 8)))
            out.append(text)
            size += len(text.encode()) + 30
        return out


def _jsonl(texts, prefix: str) -> bytes:
    return "".join(json.dumps({"id": f"{prefix}{i}", "text": t}) + "\n"
                   for i, t in enumerate(texts, 1)).encode()


def _shard(base: list[str], a: list[str], k: int, gen: _Text) -> list[str]:
    """Shard ``k``: the base rows perturbed (not shard 0), with passages of A appended."""
    rng = random.Random(1000 + k)
    words, cum = gen.words, gen.cum
    rows = list(base)
    if k:
        for i, text in enumerate(rows):
            toks = text.split(" ")
            m = len(toks) // 6
            if m:
                for pos, w in zip(rng.sample(range(len(toks)), m),
                                  rng.choices(words, cum_weights=cum, k=m)):
                    toks[pos] = w
                rows[i] = " ".join(toks)
    # one A row in 20 (a different slice in each shard) lends a passage of 15-40 words
    for i in range(k % 20, len(a), 20):
        toks = a[i].split(" ")
        length = min(len(toks), rng.randint(15, 40))
        start = rng.randrange(len(toks) - length + 1)
        j = rng.randrange(len(rows))
        rows[j] = rows[j] + " " + " ".join(toks[start:start + length])
    # and three whole A rows appear as B rows of their own (exact duplicates)
    for i in rng.sample(range(len(a)), 3):
        rows.insert(rng.randrange(len(rows) + 1), a[i])
    return rows


def prepare_data(max_mb: float, shard_mb: float, log) -> tuple[str, list[str]]:
    """A's path and every shard's path, generated on first use and then reused."""
    os.makedirs(OUT, exist_ok=True)
    manifest_path = os.path.join(OUT, "manifest.json")
    wanted = {"version": DATA_VERSION, "shard_mb": shard_mb, "a_bytes": A_BYTES}
    manifest = {}
    if os.path.exists(manifest_path):
        with open(manifest_path) as f:
            manifest = json.load(f)
    if {k: manifest.get(k) for k in wanted} != wanted:
        for name in os.listdir(OUT):
            if name.endswith(".jsonl"):
                os.remove(os.path.join(OUT, name))
        manifest = dict(wanted, shards=0)
    count = max(1, round(max_mb / shard_mb))
    a_path = os.path.join(OUT, "a.jsonl")
    shard_paths = [os.path.join(OUT, f"b-{k:04d}.jsonl") for k in range(count)]
    have = manifest.get("shards", 0)
    if have >= count and os.path.exists(a_path) and all(map(os.path.exists, shard_paths)):
        return a_path, shard_paths
    t0 = time.perf_counter()
    gen = _Text(seed=1)
    a = gen.rows(A_BYTES)
    base = gen.rows(int(shard_mb * 1e6))
    with open(a_path, "wb") as f:
        f.write(_jsonl(a, "a"))
    for k, path in enumerate(shard_paths):
        if k < have and os.path.exists(path):
            continue
        data = _jsonl(_shard(base, a, k, gen), f"s{k}-")
        with open(path + ".tmp", "wb") as f:
            f.write(data)
        os.replace(path + ".tmp", path)
    manifest["shards"] = count
    with open(manifest_path, "w") as f:
        json.dump(manifest, f)
    log(f"generated A and {count} shards of B in {time.perf_counter() - t0:.1f} s into {OUT}")
    return a_path, shard_paths


def mb(paths) -> float:
    return sum(os.path.getsize(p) for p in paths) / 1e6


# --- the single-machine path (in a subprocess) --------------------------------------

def single_child(a_path: str, b_paths: list[str], csv_path: str | None) -> None:
    """Run as a subprocess: time load_rows(B) + run_check, print JSON with own peak RSS."""
    from ngram_core import Settings, run_check
    from ngram_core.files import load_rows, load_rows_by_file
    a_rows = load_rows([a_path])
    t0 = time.perf_counter()
    b_rows, b_files, _ = load_rows_by_file(b_paths)     # the CSV names each row's B file
    result = run_check(a_rows, b_rows, Settings(), b_files=b_files)
    seconds = time.perf_counter() - t0
    if csv_path:
        with open(csv_path, "w", encoding="utf-8", newline="") as f:
            f.write(result.csv())
    s = result.summary
    print(json.dumps({"seconds": seconds,
                      "peak_mb": peak_rss_mb(),
                      "flagged": s.flagged, "capped": s.windows_capped,
                      "b_rows": len(b_rows)}))


def run_single(a_path, b_paths, csv_path=None) -> dict:
    cmd = [sys.executable, "-m", "benchmarks.bench_dask", "--_single", a_path,
           "--_csv", csv_path or "", *b_paths]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if done.returncode:
        raise RuntimeError(f"single-machine run failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- the command, streaming B (in a subprocess) ----------------------------------------

def command_child(a_path: str, b_paths: list[str]) -> None:
    """Run as a subprocess: time the command's streamed check (stream.check_streamed, the
    path ``ngram-overlap A B`` takes for a B this large), print JSON with own peak RSS."""
    from ngram_core import Settings
    from ngram_core.files import load_rows
    from ngram_core.stream import check_streamed
    a_rows = load_rows([a_path])
    t0 = time.perf_counter()
    result = check_streamed(a_rows, b_paths, Settings(), a_fields=["text"])
    seconds = time.perf_counter() - t0
    s = result.summary
    print(json.dumps({"seconds": seconds, "peak_mb": peak_rss_mb(), "flagged": s.flagged,
                      "capped": s.windows_capped}))


def run_command(a_path, b_paths) -> dict:
    cmd = [sys.executable, "-m", "benchmarks.bench_dask", "--_command", a_path, *b_paths]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if done.returncode:
        raise RuntimeError(f"streamed run failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


# --- the Dask engine ----------------------------------------------------------------

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


def _warm_up() -> None:
    import ngram_core.stream  # noqa: F401   (the functions the workers run)


def run_dask(workers: int, a_rows, b_paths, settings, blocksize: int, repeat: int,
             want_csv: bool = False) -> dict:
    from dask.distributed import Client, LocalCluster

    from ngram_core.distributed import check_distributed
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
    return {"seconds": statistics.median(times), "times": times,
            "peak_mb": max(peaks.values()), "peaks": sorted(peaks.values()),
            "flagged": result.summary.flagged,
            "csv": result.csv() if want_csv else None}


# --- the report -----------------------------------------------------------------------

def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="50,500", help="B sizes in MB, comma-separated")
    p.add_argument("--shard-mb", type=float, default=10.0, help="MB per B shard (default 10)")
    p.add_argument("--blocksize", default="4MiB",
                   help="Dask partition size (default 4MiB: 3 partitions a 10 MB shard)")
    p.add_argument("--repeat", type=int, default=3, help="runs per measurement (median)")
    p.add_argument("--repeat-largest", type=int, default=1,
                   help="runs for the largest size (default 1)")
    p.add_argument("--max-local-gb", type=float, default=4.0,
                   help="skip the single-machine path where its peak would pass this")
    p.add_argument("--_single", help=argparse.SUPPRESS)
    p.add_argument("--_csv", help=argparse.SUPPRESS)
    p.add_argument("--_command", help=argparse.SUPPRESS)
    p.add_argument("paths", nargs="*", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args._single:
        single_child(args._single, args.paths, args._csv or None)
        return 0
    if args._command:
        command_child(args._command, args.paths)
        return 0

    from ngram_core import Settings
    from ngram_core.files import load_rows, parse_size

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    sizes = sorted(float(s) for s in args.sizes.split(","))
    blocksize = parse_size(args.blocksize, "--blocksize")
    settings = Settings()
    print(f"# bench_dask {datetime.datetime.now().isoformat(timespec='seconds')} | "
          f"nproc {os.cpu_count()} | {cpu_model()} | Python {platform.python_version()} | "
          f"dask {__import__('dask').__version__} | blocksize {args.blocksize} | "
          f"shards of {args.shard_mb:g} MB | n={settings.n} {settings.mode} | "
          f"load average {os.getloadavg()[0]:.2f} at start")
    a_path, all_shards = prepare_data(sizes[-1], args.shard_mb, log)
    a_rows = load_rows([a_path])
    rows = []            # (b_mb, engine, workers, seconds, runs, peak_mb)
    notes = []
    dask_peaks = {1: [], 2: []}
    speedups = []
    local_peak = None    # (b_mb, peak_mb) of the last single-machine run
    csv_checked = False
    for size in sizes:
        count = max(1, round(size / args.shard_mb))
        b_paths = all_shards[:count]
        b_mb = mb(b_paths)
        repeat = args.repeat_largest if size == sizes[-1] and len(sizes) > 1 else args.repeat
        first = not csv_checked
        csv_path = os.path.join(OUT, "local.csv") if first else None

        estimate = local_peak[1] * b_mb / local_peak[0] if local_peak else 0.0
        if estimate > args.max_local_gb * 1024:
            notes.append(f"single-machine path skipped at {b_mb:.0f} MB: peak estimated at "
                         f"{estimate / 1024:.1f} GB (linear from {local_peak[0]:.0f} MB), "
                         f"over {args.max_local_gb:g} GB")
            local = None
        else:
            log(f"B {b_mb:.0f} MB: single machine x{repeat}")
            runs = [run_single(a_path, b_paths, csv_path if i == 0 else None)
                    for i in range(repeat)]
            local = {"seconds": statistics.median(r["seconds"] for r in runs),
                     "peak_mb": max(r["peak_mb"] for r in runs),
                     "flagged": runs[0]["flagged"], "capped": runs[0]["capped"]}
            local_peak = (b_mb, local["peak_mb"])
            rows.append((b_mb, "single machine", "-", local["seconds"], repeat, local["peak_mb"]))

        log(f"B {b_mb:.0f} MB: the command, streamed x{repeat}")
        streamed = [run_command(a_path, b_paths) for _ in range(repeat)]
        rows.append((b_mb, "command (streamed)", "-",
                     statistics.median(r["seconds"] for r in streamed), repeat,
                     max(r["peak_mb"] for r in streamed)))
        results = {}
        for workers in (1, 2):
            log(f"B {b_mb:.0f} MB: dask, {workers} worker(s) x{repeat}")
            results[workers] = run_dask(workers, a_rows, b_paths, settings, blocksize, repeat,
                                        want_csv=first and workers == 2)
            r = results[workers]
            dask_peaks[workers].append((b_mb, r["peak_mb"]))
            rows.append((b_mb, "dask", str(workers), r["seconds"], repeat, r["peak_mb"]))
        speedups.append((b_mb, results[1]["seconds"] / results[2]["seconds"]))

        if first and local is not None:
            with open(csv_path, encoding="utf-8", newline="") as f:
                local_csv = f.read()
            same = local_csv == results[2]["csv"]
            notes.append(f"CSV check at {b_mb:.0f} MB: Dask CSV "
                         f"{'==' if same else '!='} single-machine CSV "
                         f"({local_csv.count(chr(10))} lines, {local['flagged']} rows flagged "
                         f"of {len(a_rows)}, windows over the cap: {local['capped']})"
                         + ("" if same else " -- MISMATCH"))
            csv_checked = True
        flagged = {r["flagged"] for r in results.values()}
        if local is not None:
            flagged.add(local["flagged"])
        if len(flagged) != 1:
            notes.append(f"flagged rows differ between engines at {b_mb:.0f} MB: {flagged}")

    print()
    print("| B MB | engine | workers | seconds | MB/s | peak MB per worker (or process) |")
    print("|---:|---|---:|---:|---:|---:|")
    for b_mb, engine, workers, seconds, runs, peak in rows:
        how = "" if runs > 1 else " (1 run)"
        print(f"| {b_mb:.0f} | {engine} | {workers} | {seconds:.1f}{how} | "
              f"{b_mb / seconds:.2f} | {peak:.0f} |")
    print()
    print(f"Times: median of {args.repeat} runs"
          + (f", 1 run at the largest size ({sizes[-1]:g} MB)"
             if args.repeat_largest == 1 and len(sizes) > 1 else "")
          + "; Dask times exclude cluster start-up. Peak = VmHWM of the process (worker or single-machine subprocess).")
    for b_mb, engine, workers, seconds, runs, peak in rows:
        if engine == "dask" and workers == "1":
            rate = b_mb / seconds
            print(f"Per-worker speed at {b_mb:.0f} MB: {rate:.1f} MB/s "
                  f"({'meets' if rate >= TARGET_MB_S else 'below'} the "
                  f"{TARGET_MB_S:g} MB/s target)")
    for b_mb, s in speedups:
        verdict = (("meets" if s >= TARGET_SPEEDUP else "below") + f" the {TARGET_SPEEDUP:g}x "
                   f"target" if b_mb >= TARGET_SPEEDUP_MB else
                   f"the {TARGET_SPEEDUP:g}x target is for B of {TARGET_SPEEDUP_MB} MB or more")
        print(f"Speed-up of 2 workers over 1 at {b_mb:.0f} MB: {s:.2f}x ({verdict})")
    peak = max(p for peaks in dask_peaks.values() for _, p in peaks)
    print(f"Largest per-worker peak: {peak:.0f} MB "
          f"({'meets' if peak <= TARGET_PEAK_MB else 'over'} the {TARGET_PEAK_MB} MB target)")
    for workers, peaks in dask_peaks.items():
        if len(peaks) > 1:
            lo, hi = min(p for _, p in peaks), max(p for _, p in peaks)
            growth = hi / lo - 1
            print(f"Per-worker peak, {workers} worker(s): "
                  + " -> ".join(f"{p:.0f} MB at {m:.0f} MB" for m, p in peaks)
                  + f": {'flat' if growth <= 0.15 else 'GROWS'} ({growth:+.0%}) while B grows "
                  f"{peaks[-1][0] / peaks[0][0]:.1f}x")
    for note in notes:
        print(note)
    print(f"Load average at the end: {os.getloadavg()[0]:.2f} (other processes share the "
          f"{os.cpu_count()} cores; a busy machine lowers the 2-worker speed-up)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
