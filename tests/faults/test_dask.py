"""Dask faults (#34, rows 4, 5 and 8): an address that is no scheduler, a cluster that
fails the run, scratch folders: each ends with the right result or one line."""

from __future__ import annotations

import http.server
import io
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import ngram_core.run.distributed as distributed
from benchmarks.bench_faults import spawned_workers
from ngram_core.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "static" / "examples"
A, B = str(EXAMPLES / "test-set.json"), str(EXAMPLES / "training-corpus.json")


def run(*argv: str) -> tuple[int, str, str, float]:
    out, err = io.StringIO(), io.StringIO()
    started = time.monotonic()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue(), time.monotonic() - started


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def silent_server():
    """A port that accepts connections and never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    return server


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def http_server():
    """A web server (each request in a thread of its own, so that one left waiting for a
    request line that never ends does not hold up its shutdown)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), QuietHandler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.mark.parametrize("kind", ["refused", "silent", "http"])
def test_an_address_that_is_no_scheduler_is_one_line_within_15_seconds(kind):
    server = None
    if kind == "refused":
        address = f"tcp://127.0.0.1:{free_port()}"
    elif kind == "silent":
        server = silent_server()
        address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    else:
        server = http_server()
        address = f"tcp://127.0.0.1:{server.server_address[1]}"
    try:
        code, out, err, seconds = run(A, B, "--engine", "dask", "--scheduler", address)
    finally:
        if kind == "http":
            server.shutdown()
        elif server is not None:
            server.close()
    assert code == 2 and out == "" and seconds < 15, (seconds, err)
    assert err.splitlines() == [err.strip()] and err.startswith(
        f"ngram-overlap: --scheduler: {address}: no Dask scheduler answered within 10 s")
    assert "Traceback" not in err


def test_a_run_that_fails_on_the_cluster_is_tried_again_with_the_same_result(monkeypatch):
    local_out = io.StringIO()
    assert main([A, B, "--json"], local_out, io.StringIO()) == 0
    real, calls = distributed.check_distributed, []

    def lost_once(client, *args, **kwargs):        # the workers holding A's index lost
        calls.append(client)
        if len(calls) == 1:
            raise KeyError("ngram-walk_partition-scatter: lost dependencies")
        return real(client, *args, **kwargs)

    monkeypatch.setattr(distributed, "check_distributed", lost_once)
    code, out, err, _ = run(A, B, "--engine", "dask", "--workers", "1", "--json")
    assert code == 0, err
    assert len(calls) == 2 and calls[0] is not calls[1]          # a new cluster, sent again
    assert json.loads(out) == json.loads(local_out.getvalue())


def test_a_run_that_fails_twice_is_one_line(monkeypatch):
    def always_lost(client, *args, **kwargs):
        raise OSError("Timed out during handshake while connecting to tcp://127.0.0.1:1")

    monkeypatch.setattr(distributed, "check_distributed", always_lost)
    code, out, err, _ = run(A, B, "--engine", "dask", "--workers", "1")
    assert code == 2 and out == ""
    assert err == ("ngram-overlap: Dask: the run failed 2 times; last: OSError: Timed out "
                   "during handshake while connecting to tcp://127.0.0.1:1\n")


def test_a_local_cluster_leaves_no_scratch_folder(tmp_path):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    done = subprocess.run([sys.executable, "-m", "ngram_core", A, B, "--engine", "dask",
                           "--workers", "1"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "TMPDIR": str(scratch)})
    assert done.returncode == 0, done.stderr
    assert list(scratch.iterdir()) == []


# --- 4: workers killed or frozen by pid --------------------------------------------------

@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """A test set and 25 MB of training rows (three of them leaked), and the local
    result: what every run with lost workers must give, or one line."""
    import random
    folder = tmp_path_factory.mktemp("corpus")
    rng = random.Random(3)
    words = [f"w{i}" for i in range(20_000)]
    a, b = folder / "test.jsonl", folder / "train.jsonl"
    tests = [" ".join(rng.choice(words) for _ in range(40)) for _ in range(500)]
    a.write_text("".join(json.dumps({"id": f"a{i}", "text": t}) + "\n"
                         for i, t in enumerate(tests)))
    with open(b, "w") as f:
        for i in range(60_000):
            text = " ".join(rng.choice(words) for _ in range(60))
            if i in (10, 30_000, 59_000):
                text += " " + tests[i % 500]
            f.write(json.dumps({"id": f"d{i}", "text": text}) + "\n")
    out = io.StringIO()
    assert main([str(a), str(b), "--json"], out, io.StringIO()) == 0
    return a, b, json.loads(out.getvalue())


def run_and_hurt(corpus, hurt, after: float, count: int) -> tuple[int, str, str, float]:
    a, b, _ = corpus
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "ngram_core", str(a), str(b),
                                "--engine", "dask", "--workers", "2", "--blocksize", "4MiB",
                                "--json"], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    while len(spawned_workers(process.pid)) < 2 and process.poll() is None:
        time.sleep(0.05)
    time.sleep(after)
    hurt_pids = spawned_workers(process.pid)[:count]
    for pid in hurt_pids:
        os.kill(pid, hurt)
    try:
        out, err = process.communicate(timeout=400)
    finally:
        for pid in hurt_pids:               # a frozen worker let go, whatever happened
            try:
                os.kill(pid, signal.SIGCONT)
            except OSError:
                pass
    return process.returncode, out, err, time.monotonic() - started


def right_result_or_one_line(corpus, code: int, out: str, err: str) -> None:
    assert "Traceback" not in err
    if code == 0:
        assert json.loads(out) == corpus[2]
    else:
        assert code == 2 and err.strip().splitlines()[-1].startswith("ngram-overlap: ")


@pytest.mark.parametrize("after, count", [(0.0, 1), (0.8, 1), (0.8, 2)])
def test_workers_killed_at_start_or_while_a_is_sent_end_right_or_in_one_line(corpus, after,
                                                                             count):
    code, out, err, _ = run_and_hurt(corpus, signal.SIGKILL, after, count)
    right_result_or_one_line(corpus, code, out, err)


def test_a_frozen_worker_is_dropped_and_the_run_ends_within_two_minutes_more(corpus):
    clean = run_and_hurt(corpus, signal.SIGCONT, 0.0, 0)
    code, out, err, seconds = run_and_hurt(corpus, signal.SIGSTOP, 0.8, 1)
    right_result_or_one_line(corpus, code, out, err)
    assert seconds < clean[3] + 120, (seconds, clean[3])


def sleepy(part, fields, id_field, index, seconds=3.0):
    """A partition's work that takes longer than the run's patience."""
    from ngram_core.run.stream import PartitionResult
    time.sleep(seconds)
    return PartitionResult(part.index, part.file_index)


def test_a_run_where_no_partition_finishes_is_called_stuck_not_waited_on(tmp_path):
    """A worker frozen past what the scheduler notices (seen with the machine fully
    loaded: no end in 400 s) must not hold the run forever: no partition finishing
    within the stall time is an error, which the cluster's run tries again and then
    says in one line."""
    from dask.distributed import Client, LocalCluster
    from ngram_core.run.stream import plan_partitions
    b = tmp_path / "b.jsonl"
    b.write_text("".join(json.dumps({"text": f"row {i}"}) + "\n" for i in range(10)))
    parts = plan_partitions([str(b)])
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False) as cluster, \
            Client(cluster) as client:
        started = time.monotonic()
        with pytest.raises(distributed.Stalled, match="no partition finished in 0 s"):
            list(distributed.OnDask(client, stall_seconds=0.3).map(
                sleepy, parts, {0: (["text"], "")}, None))
        assert time.monotonic() - started < 2.5
        done = list(distributed.OnDask(client, stall_seconds=10).map(
            sleepy, parts, {0: (["text"], "")}, None))
        assert [d.partition for d in done] == [0]


def test_a_stuck_run_is_tried_again_then_told_in_one_line(monkeypatch):
    def stuck(client, *args, **options):
        raise distributed.Stalled("no partition finished in 124 s")

    monkeypatch.setattr(distributed, "check_distributed", stuck)
    out, err = io.StringIO(), io.StringIO()
    code = main([str(A), str(B), "--engine", "dask", "--workers", "1"], out, err)
    assert code == 2 and "Traceback" not in err.getvalue()
    assert err.getvalue().strip().splitlines()[-1] == (
        "ngram-overlap: Dask: the run failed 2 times; last: Stalled: no partition finished "
        "in 124 s")
