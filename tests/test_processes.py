"""B walked by local worker processes (``--jobs``): the answer of the walk in one
process, byte for byte, and one clear line when a worker fails."""

from __future__ import annotations

import io
import json
import os

import pytest

from conftest import FIXTURES
from ngram_core import InputError, Settings
from ngram_core.cli import main
from ngram_core.decontaminate import main as decontaminate
from ngram_core.read.files import load_rows_by_file
from ngram_core.run.processes import OnProcesses, local_processes
from ngram_core.run.stream import check_streamed, plan_partitions
from test_distributed import corpus, write_shards


def _command(argv: list[str]) -> tuple[dict, str]:
    out, err = io.StringIO(), io.StringIO()
    assert main(argv, out, err) == 0, err.getvalue()
    summary = json.loads(out.getvalue())
    summary.pop("elapsed_seconds", None)
    return summary, err.getvalue()


def test_worker_processes_give_the_bytes_of_one_process(tmp_path):
    """Shards of several formats cut in partitions of 64 KiB, with copies of A's rows,
    rewritten rows for the rephrase lens, and a passage held by more rows than the
    cap: two workers and one process write the same summary, CSVs and lines."""
    from rephrase_data import dev_set
    a_texts, rewrites, _ = dev_set("math", "all", 30, 40)
    stock = "this passage is held by many rows of the training data and by a row of the test set"
    a_texts = a_texts + [stock + " as well", *corpus(3, 20)]
    b_texts = (corpus(103, 3000) + rewrites + a_texts[:5] + [f"row {i}: {stock}" for i in range(40)]
               + corpus(203, 3000))
    a = tmp_path / "a.jsonl"
    a.write_text("".join(json.dumps({"id": f"a{i}", "text": t}) + "\n"
                         for i, t in enumerate(a_texts)))
    b = write_shards(tmp_path, b_texts, ["jsonl", "csv", "jsonl.gz", "parquet"])
    assert len(plan_partitions(b, blocksize=64 * 1024)) >= 4
    runs = {}
    for jobs in ("1", "2"):
        rows, csv = tmp_path / f"rows-{jobs}.csv", tmp_path / f"spans-{jobs}.csv"
        summary, err = _command([str(a), *b, "--json", "--jobs", jobs, "--blocksize", "64KiB",
                                 "--rows-csv", str(rows), "--csv", str(csv)])
        runs[jobs] = (summary, err, rows.read_bytes(), csv.read_bytes())
    assert runs["2"] == runs["1"]
    summary = runs["1"][0]
    assert summary["flagged"] > 0 and summary["rephrased"] > 0 and summary["windows_capped"] > 0


def test_decontaminate_with_worker_processes_writes_the_same_folder(tmp_path):
    """The suite walked by two workers: every file of the output folder as one
    process writes it."""
    eval_texts = corpus(11, 40) + ["w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12 w13 w14 w15"]
    (tmp_path / "eval.jsonl").write_text("".join(json.dumps({"text": t}) + "\n"
                                                 for t in eval_texts))
    train = write_shards(tmp_path, corpus(111, 2500) + eval_texts[-3:] + corpus(112, 2500),
                         ["jsonl", "jsonl"])
    folders = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out-{jobs}"
        assert decontaminate(["--evals", str(tmp_path / "eval.jsonl"), "--train", *train,
                              "--out", str(out), "--jobs", jobs, "--blocksize", "64KiB",
                              "--json"], io.StringIO(), io.StringIO()) == 0
        folders.append({name: (out / name).read_bytes() for name in sorted(os.listdir(out))
                        if name != "report.json"})
        report = json.loads((out / "report.json").read_text())
        assert sum(t["removed"] for t in report["training"]) > 0
    assert folders[0] == folders[1]


def test_a_bad_line_in_a_later_partition_is_named_as_one_process_names_it(tmp_path):
    lines = [json.dumps({"text": f"row {i} " * 20}) for i in range(3000)]
    lines[2500] = '{"text": broken'
    bad = tmp_path / "train.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    a = str(FIXTURES / "report" / "test-set.jsonl")
    errors = []
    for jobs in ("1", "2"):
        err = io.StringIO()
        assert main([a, str(bad), "--jobs", jobs, "--blocksize", "64KiB"], io.StringIO(),
                    err) == 2
        errors.append(err.getvalue().strip().splitlines()[-1])
    assert errors[0] == errors[1] and "line 2501" in errors[0], errors


def test_of_two_bad_lines_the_first_in_file_order_is_named(tmp_path):
    """A broken last line in a first file of 9 MB, a broken line just past the first
    MiB (where fields are chosen) of a second one, which the second worker reaches
    long before: the error named is the first file's, the one a single process
    meets first."""
    lines = [json.dumps({"text": f"row {i} " * 20}) for i in range(45000)]
    lines[-1] = '{"text": "broken at the end'
    first = tmp_path / "a-first.jsonl"
    first.write_text("\n".join(lines) + "\n")
    second = tmp_path / "b-second.jsonl"
    second.write_text("\n".join(lines[:6000]) + '\n{"text": broken\n')
    assert len(plan_partitions([str(first), str(second)], blocksize=16 * 2**20)) == 2
    a = str(FIXTURES / "report" / "test-set.jsonl")
    errors = []
    for jobs in ("1", "2"):
        err = io.StringIO()
        assert main([a, str(first), str(second), "--jobs", jobs],
                    io.StringIO(), err) == 2
        errors.append(err.getvalue().strip().splitlines()[-1])
    assert errors[0] == errors[1] and f"{first}, line 45000" in errors[0], errors


def _die(part, *_):
    """A partition's work that kills the worker walking it."""
    os._exit(9)


def test_a_worker_killed_is_one_line_that_says_what_to_do(tmp_path):
    shard = tmp_path / "b.jsonl"
    shard.write_text("".join(json.dumps({"text": f"row {i} " * 20}) + "\n" for i in range(3000)))
    parts = plan_partitions([str(shard)], blocksize=64 * 1024)
    with local_processes(2) as executor:
        with pytest.raises(InputError) as raised:
            list(executor.map(_die, parts, {0: ()}, None))
    assert str(raised.value) == ("worker processes: one ended without its result (killed, or "
                                 "out of memory?): --jobs 1 walks B in this process")


def test_small_b_and_one_job_start_no_worker(tmp_path):
    """Under PROCESSES_FROM_BYTES by default, or with --jobs 1, B is walked here:
    what a process walks here is what a worker would return."""
    shard = tmp_path / "b.jsonl"
    shard.write_text("".join(json.dumps({"text": f"row {i} " * 20}) + "\n" for i in range(3000)))
    a_rows = load_rows_by_file([str(FIXTURES / "report" / "test-set.jsonl")])[0]
    with local_processes(None) as executor:
        assert executor is not None
        result = check_streamed(a_rows, [str(shard)], Settings(), blocksize=64 * 1024,
                                executor=executor)
        assert executor._pool is None               # 600 KB of B: no worker started
    with local_processes(1) as executor:
        assert executor is None
    assert result.summary.as_dict()["b_rows"] == 3000


@pytest.mark.parametrize("argv, message", [
    (["--jobs", "0"], "--jobs: must be a whole number, 1 or more, not 0"),
    (["--jobs", "2", "--engine", "dask"], "--jobs: is for --engine local; --workers sets Dask's"),
])
def test_jobs_is_checked_before_any_work(argv, message):
    a = str(FIXTURES / "report" / "test-set.jsonl")
    err = io.StringIO()
    assert main([a, a, *argv], io.StringIO(), err) == 2
    assert err.getvalue().strip() == f"ngram-overlap: {message}"


def test_the_library_takes_jobs(tmp_path):
    """``ngram_overlap.check(..., jobs=2)`` on two compressed training files (streamed,
    a partition each): the rows and summary of ``jobs=1``; a bad value is refused."""
    import ngram_overlap
    a_texts = corpus(21, 30)
    b = write_shards(tmp_path, corpus(121, 400) + a_texts[:4] + corpus(122, 400),
                     ["jsonl.gz", "jsonl.gz"])
    a = tmp_path / "a.jsonl"
    a.write_text("".join(json.dumps({"text": t}) + "\n" for t in a_texts))
    one, two = (ngram_overlap.check(str(a), b, jobs=jobs) for jobs in (1, 2))
    assert two.rows == one.rows and two.summary == one.summary
    assert one.summary["flagged"] > 0
    with pytest.raises(InputError, match="jobs: must be a whole number, 1 or more, not 0"):
        ngram_overlap.check(str(a), b, jobs=0)


def test_the_default_starts_no_more_workers_than_memory_holds(monkeypatch):
    """Each worker takes about what this process holds: with room for two, two of
    eight cores; with room for none, this process alone; ``--jobs`` is as given."""
    from ngram_core.run import processes
    monkeypatch.setattr(processes, "_resident_bytes", lambda: 200 * 2**20)
    monkeypatch.setattr(processes, "_available_bytes", lambda: 700 * 2**20)
    assert processes.affordable_workers(8) == 2
    monkeypatch.setattr(processes, "_available_bytes", lambda: 100 * 2**20)
    assert processes.affordable_workers(8) == 1
    monkeypatch.setattr(processes, "_available_bytes", lambda: None)
    assert processes.affordable_workers(8) == 8
    monkeypatch.setattr(processes, "usable_cores", lambda: 8)
    with local_processes(None) as default, local_processes(3) as asked:
        assert (default.jobs, default.from_bytes, asked.jobs, asked.from_bytes) == \
            (8, processes.PROCESSES_FROM_BYTES, 3, 0)


class InFileOrder:
    """An executor that walks partitions here, each sent when the one before has
    finished: what worker processes do when one is free at a time."""

    def __init__(self):
        self.walked: list[int] = []

    def map(self, work, parts, choices, index, extra=None):
        from ngram_core.run.stream import extra_of
        more = extra_of(extra)
        for part in parts:
            self.walked.append(part.index)
            result = work(part, *choices[part.file_index], index, *more(part))
            if result.error is not None:
                raise result.error
            yield result

    def each(self, work, items):
        return [work(item) for item in items]


def test_partitions_sent_in_order_are_told_the_windows_past_the_cap(tmp_path):
    """A passage of A held by rows all through B (past the 32-position cap in the
    first partitions): each partition sent is told the windows already past the
    cap, so none is walked twice, and the answer is the one process's; a suite
    the same."""
    stock = "a passage held by rows all through the training data and by one row of the test set"
    a_texts = [stock + " too", *corpus(5, 30)]
    b_texts = [f"row {i} {stock}" if i % 20 == 0 else t
               for i, t in enumerate(corpus(105, 4000))]
    a = tmp_path / "a.jsonl"
    a.write_text("".join(json.dumps({"text": t}) + "\n" for t in a_texts))
    b = write_shards(tmp_path, b_texts, ["jsonl"])
    parts = plan_partitions(b, blocksize=64 * 1024)
    assert len(parts) >= 4
    a_rows = load_rows_by_file([str(a)])[0]
    here = check_streamed(a_rows, b, Settings(), blocksize=64 * 1024)
    executor = InFileOrder()
    sent = check_streamed(a_rows, b, Settings(), blocksize=64 * 1024, executor=executor)
    assert here.summary.windows_capped > 0
    assert executor.walked == [part.index for part in parts]     # none walked again
    assert sent.rows_csv() == here.rows_csv() and sent.csv() == here.csv()
    from ngram_core.run.suite import EvalSet, check_suite
    suite_here = check_suite([EvalSet("a", a_rows, ["text"], None)], b, Settings(), blocksize=64 * 1024)
    executor = InFileOrder()
    suite_sent = check_suite([EvalSet("a", a_rows, ["text"], None)], b, Settings(), blocksize=64 * 1024,
                             executor=executor)
    assert executor.walked == [part.index for part in parts]
    assert suite_sent.results[0].rows_csv() == suite_here.results[0].rows_csv()
    assert suite_sent.removals == suite_here.removals


HELD_WALK = """
import sys, time
from ngram_core.run import processes
real, real_pool_for, pools = processes._result_of, processes.OnProcesses._pool_for, []
def pool_for(self, index, parts):
    pools.append(real_pool_for(self, index, parts))
    return pools[-1]
def held(future):
    result = real(future)
    print(*[p.pid for p in pools[-1]._processes.values()], flush=True)
    time.sleep(60)
    return result
processes._result_of, processes.OnProcesses._pool_for = held, pool_for
from ngram_core.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_signal_while_workers_walk_ends_them_and_says_one_line(tmp_path):
    """SIGTERM while a partition's result is awaited: the command's one line and
    status, no traceback (a pool stopped carelessly prints one at exit), and no
    worker left running."""
    import signal
    import subprocess
    import sys
    import time
    import gzip
    shards = [tmp_path / f"b{k}.jsonl.gz" for k in range(3)]   # compressed: streamed
    for k, shard in enumerate(shards):
        shard.write_bytes(gzip.compress("".join(json.dumps({"text": f"row {k} {i} " * 20})
                                                + "\n" for i in range(1000)).encode()))
    process = subprocess.Popen([sys.executable, "-c", HELD_WALK,
                                str(FIXTURES / "report" / "test-set.jsonl"), *map(str, shards),
                                "--jobs", "2"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    workers = [int(pid) for pid in process.stdout.readline().split()]
    assert len(workers) == 2
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143
    assert err.strip() == "ngram-overlap: stopped by SIGTERM"
    deadline = time.monotonic() + 30
    while any(os.path.exists(f"/proc/{pid}") and "Z" not in _state(pid) for pid in workers):
        assert time.monotonic() < deadline, "a worker outlived the command"


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


UNGUARDED = """
import ngram_overlap
result = ngram_overlap.check({a!r}, {b!r}, jobs=2)
print("flagged", result.summary["flagged"])
"""


def test_a_script_without_a_main_guard_is_not_run_again_by_the_workers(tmp_path):
    """A notebook-style script that calls the library at its top level, with no
    ``if __name__ == "__main__":``: the workers run the check's work alone, so the
    script runs once and prints once."""
    import gzip
    import subprocess
    import sys
    shards = [tmp_path / f"b{k}.jsonl.gz" for k in range(2)]
    for k, shard in enumerate(shards):
        shard.write_bytes(gzip.compress("".join(json.dumps({"text": f"row {k} {i} " * 20})
                                                + "\n" for i in range(500)).encode()))
    script = tmp_path / "run.py"
    script.write_text(UNGUARDED.format(a=str(FIXTURES / "report" / "test-set.jsonl"),
                                       b=[str(s) for s in shards]))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "flagged 0\n" and "Traceback" not in done.stderr


def test_a_pool_found_broken_when_a_partition_is_sent_is_the_same_one_line(tmp_path):
    """A worker that died between two results breaks the pool before the next
    partition is sent: the same line as a result lost, not a traceback."""
    from concurrent.futures.process import BrokenProcessPool

    class Broken:
        def submit(self, *args, **kwargs):
            raise BrokenProcessPool("a child process terminated abruptly")

        def shutdown(self, **kwargs):
            pass

    shard = tmp_path / "b.jsonl"
    shard.write_text("".join(json.dumps({"text": f"row {i} " * 20}) + "\n" for i in range(3000)))
    parts = plan_partitions([str(shard)], blocksize=64 * 1024)
    executor = OnProcesses(2)
    executor._pool, executor._index = Broken(), "A's index"
    with pytest.raises(InputError) as raised:
        list(executor.map(_die, parts, {0: ()}, "A's index"))
    assert str(raised.value).startswith("worker processes: one ended without its result")
