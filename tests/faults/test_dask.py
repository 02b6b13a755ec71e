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


def run_and_hurt(corpus, hurt, after: float, count: int, *flags: str,
                 timeout: float = 400) -> tuple[int, str, str, float]:
    """The command on the corpus with ``count`` workers sent ``hurt`` ``after`` seconds
    from their start. A run that has not ended within ``timeout`` fails the test, and
    it and its workers are killed: no process of the test is left running."""
    a, b, _ = corpus
    started = time.monotonic()
    process = subprocess.Popen([sys.executable, "-m", "ngram_core", str(a), str(b),
                                "--engine", "dask", "--workers", "2", "--blocksize", "4MiB",
                                "--json", *flags], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    hurt_pids: list[int] = []
    try:
        while len(spawned_workers(process.pid)) < 2 and process.poll() is None:
            time.sleep(0.05)
        time.sleep(after)
        hurt_pids = spawned_workers(process.pid)[:count]
        for pid in hurt_pids:
            os.kill(pid, hurt)
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the run did not end within {timeout:.0f} s")
    finally:
        for pid in hurt_pids:               # a frozen worker let go, whatever happened
            try:
                os.kill(pid, signal.SIGCONT)
            except OSError:
                pass
        if process.poll() is None:          # the run and its workers, by their ids
            for pid in spawned_workers(process.pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            process.kill()
            process.communicate()
    return process.returncode, out, err, time.monotonic() - started


@pytest.fixture(scope="module")
def clean_seconds(corpus) -> float:
    """The seconds of a clean run of the corpus on two workers, measured on this machine
    as it is now: what a hurt run is given, plus two minutes."""
    code, out, err, seconds = run_and_hurt(corpus, signal.SIGCONT, 0.0, 0)
    assert code == 0 and json.loads(out) == corpus[2], err
    return seconds


def right_result_or_one_line(corpus, code: int, out: str, err: str) -> None:
    assert "Traceback" not in err
    if code == 0:
        assert json.loads(out) == corpus[2]
    else:
        assert code == 2 and err.strip().splitlines()[-1].startswith("ngram-overlap: ")


def the_runs_own_lines(err: str) -> None:
    """Stderr holds only the run's lines: what was read, and at most one line of its own
    saying why it ended; nothing of Dask's (its log lines, its tracebacks)."""
    lines = err.splitlines()
    assert "Traceback" not in err and "distributed." not in err, err
    assert all(line.startswith(("A ", "B ", "ngram-overlap: ")) for line in lines), err
    assert sum(line.startswith("ngram-overlap: ") for line in lines) <= 1, err


@pytest.mark.parametrize("after, count", [(0.0, 1), (0.8, 1), (0.8, 2)])
def test_workers_killed_at_start_or_while_a_is_sent_end_right_or_in_one_line(
        corpus, clean_seconds, after, count):
    code, out, err, seconds = run_and_hurt(corpus, signal.SIGKILL, after, count,
                                           timeout=clean_seconds + 120)
    right_result_or_one_line(corpus, code, out, err)
    the_runs_own_lines(err)


def test_a_worker_killed_mid_run_leaves_nothing_of_dask_on_stderr(corpus, clean_seconds):
    """Killed halfway through the clean run's time, with its nanny surely running: the
    nanny restarts it and the scheduler moves its work, which Dask logs; none of it,
    nor any traceback, reaches stderr."""
    code, out, err, _ = run_and_hurt(corpus, signal.SIGKILL, clean_seconds / 2, 1,
                                     timeout=clean_seconds + 120)
    right_result_or_one_line(corpus, code, out, err)
    the_runs_own_lines(err)


def test_dask_logs_go_to_the_file_asked_for_never_to_stderr(corpus, clean_seconds, tmp_path):
    """A worker killed while A is sent: Dask's lines (the nanny restarting it) in the
    file of ``--dask-logs``, appended to what it held; stderr holds the run's own."""
    logs = tmp_path / "dask.log"
    logs.write_text("kept\n")
    code, out, err, _ = run_and_hurt(corpus, signal.SIGKILL, 0.8, 1, "--dask-logs", str(logs),
                                     timeout=clean_seconds + 120)
    right_result_or_one_line(corpus, code, out, err)
    the_runs_own_lines(err)
    held = logs.read_text()
    assert held.startswith("kept\n") and " distributed.worker INFO: " in held, held[:2000]


def test_a_frozen_worker_is_dropped_and_the_run_ends_within_two_minutes_more(corpus,
                                                                             clean_seconds):
    code, out, err, seconds = run_and_hurt(corpus, signal.SIGSTOP, 0.8, 1,
                                           timeout=clean_seconds + 120)
    right_result_or_one_line(corpus, code, out, err)
    the_runs_own_lines(err)
    assert seconds < clean_seconds + 120, (seconds, clean_seconds)


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
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=None) as cluster, \
            Client(cluster) as client:
        started = time.monotonic()
        with pytest.raises(distributed.Stalled, match="no partition finished in 0 s"):
            list(distributed.OnDask(client, stall_seconds=0.3).map(
                sleepy, parts, {0: (["text"], "")}, None))
        assert time.monotonic() - started < 2.5
        done = list(distributed.OnDask(client, stall_seconds=10).map(
            sleepy, parts, {0: (["text"], "")}, None))
        assert [d.partition for d in done] == [0]


def slow_piece(item):
    time.sleep(3.0)
    return item


def test_writing_pieces_that_never_end_is_called_stuck_under_the_same_bound():
    """The cleaned files' pieces (``each``) are waited on as partitions are: none
    finishing within the stall time is an error (it was ten times that: 20 minutes)."""
    from dask.distributed import Client, LocalCluster
    with LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        started = time.monotonic()
        with pytest.raises(distributed.Stalled, match="no piece finished in 0 s"):
            distributed.OnDask(client, stall_seconds=0.3).each(slow_piece, [1, 2])
        assert time.monotonic() - started < 2.5
        assert distributed.OnDask(client, stall_seconds=10).each(slow_piece, [1, 2]) == [1, 2]


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


def test_the_worker_holding_a_s_index_killed_the_run_ends_right(corpus, clean_seconds):
    """A's index is a task's result, made again when the worker holding it is lost
    (scattered to every worker, a worker lost while it was copied left Dask copying
    without end: the run hung on an idle machine and on a busy one). The holder is
    killed as soon as the index is made, before or while the other worker fetches
    it; the run ends with the local result, and within its bound."""
    from dask.distributed import Client, LocalCluster
    from ngram_core.read.files import load_rows_by_file
    from ngram_core.method.settings import Settings
    a, b, _ = corpus
    a_rows = load_rows_by_file([str(a)])[0]
    local = distributed.check_distributed(None, a_rows, [str(b)], Settings(), blocksize=4 << 20)
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None, silence_logs=50) as cluster, \
            Client(cluster) as client:
        made: dict[str, object] = {}

        def run() -> None:
            try:
                made["result"] = distributed.check_distributed(
                    client, a_rows, [str(b)], Settings(), blocksize=4 << 20)
            except BaseException as e:
                made["error"] = e

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        deadline = time.monotonic() + clean_seconds + 120
        holder = None
        while holder is None and thread.is_alive() and time.monotonic() < deadline:
            held = {key: where for key, where in client.who_has().items()
                    if str(key).startswith("ngram-a-index-") and where}
            holder = next(iter(held.values()), (None,))[0]
            time.sleep(0.01)
        assert holder is not None, "A's index was never held by a worker"
        pid = client.run(os.getpid, workers=[holder])[holder]
        os.kill(pid, signal.SIGKILL)
        thread.join(max(1.0, deadline - time.monotonic()))
        assert not thread.is_alive(), "the run did not end within its bound"
    assert "error" not in made, made.get("error")
    assert made["result"].summary.as_dict() == local.summary.as_dict()
    assert made["result"].csv() == local.csv() and local.summary.flagged > 0


HELD = threading.Event()
STARTED: list[int] = []
STARTED_LOCK = threading.Lock()


def held_after_two(part, fields, id_field, index):
    """The first two partitions to start end at once; every later one is held (a
    worker frozen mid-partition). Once A's index is made (a task every partition
    waits on) they start in any order."""
    from ngram_core.run.stream import PartitionResult
    with STARTED_LOCK:
        STARTED.append(part.index)
        held = len(STARTED) > 2
    if held:
        HELD.wait()
    return PartitionResult(part.index, part.file_index)


def test_the_stall_time_scales_with_the_partitions_measured(tmp_path, monkeypatch):
    """Once partitions have finished, a stall is called at STALL_FACTOR times the
    longest gap measured between them, not at the fixed first bound."""
    from dask.distributed import Client, LocalCluster
    from ngram_core.run.stream import plan_partitions
    monkeypatch.setattr(distributed, "MIN_STALL_SECONDS", 5.0)   # both in, busy or not
    b = tmp_path / "b.jsonl"
    b.write_text("".join(json.dumps({"text": f"row {i} " + "w " * 200}) + "\n"
                         for i in range(1500)))
    parts = plan_partitions([str(b)], blocksize=2**17)
    assert len(parts) >= 3
    HELD.clear()
    STARTED.clear()
    try:
        with LocalCluster(n_workers=1, threads_per_worker=3, processes=False,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            got = []
            with pytest.raises(distributed.Stalled) as stalled:
                for result in distributed.OnDask(client, stall_seconds=600).map(
                        held_after_two, parts, {0: (["text"], "")}, None):
                    got.append(result.partition)
            HELD.set()
    finally:
        HELD.set()
    assert len(got) == 2 and sorted(got) == sorted(STARTED[:2])
    limit = float(str(stalled.value).split(" in ")[1].split()[0])
    assert limit < 600, str(stalled.value)
