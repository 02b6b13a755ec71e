"""Faults (#34): flags refused before work, outputs that never harm an input, every end
told in one line, no raw control character on the terminal.

Each test names the row of #34's table it holds. The command runs in a subprocess
where a signal, a closed pipe or a closed stdout is involved, in-process otherwise.
"""

from __future__ import annotations

import errno
import io
import json
import os
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from ngram_core.write import outputs as outputs_module
from ngram_core.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "static" / "examples"
A, B = str(EXAMPLES / "test-set.json"), str(EXAMPLES / "training-corpus.json")
COMMAND = [sys.executable, "-m", "ngram_core"]


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def copy_of_b(tmp_path: Path) -> Path:
    b = tmp_path / "train.json"
    b.write_bytes(Path(B).read_bytes())
    return b


# --- 1, 5: every flag checked before work starts ----------------------------------------

@pytest.mark.parametrize("flags, message", [
    (["--blocksize", "0"], "--blocksize: must be at least 64 KiB"),
    (["--blocksize", "0.5b"], "--blocksize: is not a whole number of bytes: '0.5b'"),
    (["--blocksize", "1KiB"], "--blocksize: must be at least 64 KiB"),
    (["--workers", "-1", "--engine", "dask"], "--workers: must be a whole number, 1 or more"),
    (["--scheduler", "nonsense://", "--engine", "dask"], "--scheduler: is not a scheduler address"),
    (["--scheduler", "host:notaport", "--engine", "dask"],
     "--scheduler: is not a scheduler address"),
    (["--dask-logs", "dask.log"], "--dask-logs: needs --engine dask"),
    (["--workers", "2"], "--workers: needs --engine dask"),         # never local in silence
    (["--scheduler", "tcp://127.0.0.1:8786"], "--scheduler: needs --engine dask"),
    (["--dask-logs", B, "--engine", "dask"],
     f"{B}: is an input of this run; --dask-logs never writes into an input"),
    (["--dask-logs", "/no/such/folder/dask.log", "--engine", "dask"],
     "/no/such/folder/dask.log: cannot be written: No such file or directory"),
])
def test_a_bad_flag_is_one_line_before_any_work(tmp_path, flags, message):
    csv_path = tmp_path / "out.csv"
    code, out, err = run(A, B, "--csv", str(csv_path), *flags)
    assert code == 2 and err.startswith(f"ngram-overlap: {message}")
    assert err.count("\n") == 1 and out == "" and not csv_path.exists()


def test_a_good_scheduler_address_passes_the_check():
    from ngram_core.cli import build_parser, check_flags
    for address in ("tcp://127.0.0.1:8786", "scheduler:8786", "tls://[::1]:8786"):
        assert check_flags(build_parser().parse_args(["a", "b", "--scheduler", address,
                                                      "--engine", "dask"])) > 0


# --- 6: outputs never harm an input -------------------------------------------------------

@pytest.mark.parametrize("flag", ["--rows-csv", "--csv", "--clean-out"])
def test_an_output_naming_an_input_is_refused_and_the_input_kept(tmp_path, flag):
    b = copy_of_b(tmp_path)
    before = b.read_bytes()
    code, _, err = run(A, str(b), flag, str(b))
    assert code == 2 and "is an input of this run" in err
    assert b.read_bytes() == before
    link = tmp_path / "link.csv"                        # the same file through a link
    link.symlink_to(b)
    code, _, err = run(A, str(b), flag, str(link))
    assert code == 2 and "is an input of this run" in err and b.read_bytes() == before
    hard = tmp_path / "hard.csv"
    os.link(b, hard)
    code, _, err = run(A, str(b), flag, str(hard))
    assert code == 2 and b.read_bytes() == before


def test_two_outputs_on_one_path_are_refused(tmp_path):
    out = tmp_path / "x.csv"
    code, _, err = run(A, B, "--csv", str(out), "--rows-csv", str(out))
    assert code == 2 and "is named by both --csv and --rows-csv" in err
    assert not out.exists()


def test_a_symlinked_output_replaces_its_target_and_keeps_the_link(tmp_path):
    target = tmp_path / "real.csv"
    target.write_text("old\n")
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    code, _, err = run(A, B, "--csv", str(link))
    assert code == 0, err
    assert link.is_symlink() and target.read_text().startswith("a_row,")


def test_a_fifo_is_written_to_and_stays_a_fifo(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    reader = subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)
    code, _, err = run(A, B, "--csv", str(fifo))
    got = reader.communicate(timeout=60)[0]
    assert code == 0, err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and got.startswith(b"a_row,a_id,tokens")


def test_csv_into_a_pipe_named_by_descriptor_is_written_to_the_pipe():
    """``--csv >(gzip > out.csv.gz)``: the shell passes /dev/fd/N, a pipe's descriptor."""
    local = subprocess.run([*COMMAND, A, B, "--csv", "/dev/stdout"], cwd=ROOT,
                           capture_output=True)
    read_end, write_end = os.pipe()
    process = subprocess.Popen([*COMMAND, A, B, "--csv", f"/dev/fd/{write_end}"], cwd=ROOT,
                               pass_fds=(write_end,), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    try:
        os.close(write_end)
        with os.fdopen(read_end, "rb") as pipe:
            got = pipe.read()
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 0, err
    assert got.startswith(b"a_row,a_id,tokens") and local.stdout.startswith(got)
    assert local.returncode == 0 and local.stdout[len(got):] == out   # then the summary


@pytest.mark.parametrize("path, said", [
    ("/dev/fd/{closed}", "cannot be written: descriptor {closed} is not open"),
    ("/proc/self/fd/{closed}", "cannot be written: descriptor {closed} is not open"),
    ("/proc/self/fd/x.csv", "cannot be written: "),
])
def test_an_output_that_cannot_be_made_is_refused_before_the_work(monkeypatch, path, said):
    closed = os.open(os.devnull, os.O_RDONLY)
    os.close(closed)                            # a descriptor number open on nothing
    path, said = path.format(closed=closed), said.format(closed=closed)
    monkeypatch.setattr("ngram_core.cli.run", lambda *a, **k: pytest.fail("the work began"))
    code, out, err = run(A, B, "--csv", path)
    assert code == 2 and out == "" and err.startswith(f"ngram-overlap: {path}: {said}"), err
    assert err.count("\n") == 1


def test_new_outputs_honour_the_umask_and_an_existing_one_keeps_its_mode(tmp_path):
    new, old = tmp_path / "new.csv", tmp_path / "old.csv"
    old.write_text("x\n")
    old.chmod(0o640)
    mask = os.umask(0o022)
    try:
        code, _, err = run(A, B, "--csv", str(new), "--rows-csv", str(old))
    finally:
        os.umask(mask)
    assert code == 0, err
    assert stat.S_IMODE(new.stat().st_mode) == 0o644
    assert stat.S_IMODE(old.stat().st_mode) == 0o640


# --- 7: all outputs land together or none lands ------------------------------------------

def test_a_full_disk_at_the_second_output_keeps_both_old_files(tmp_path, monkeypatch):
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    first.write_text("old first\n")
    second.write_text("old second\n")
    real = outputs_module._write_beside
    calls = []

    def full_at_the_second(o, data, temporaries):
        calls.append(o.flag)
        if len(calls) == 2:
            raise outputs_module._written(o.path, OSError(errno.ENOSPC,
                                                          "No space left on device"))
        return real(o, data, temporaries)

    monkeypatch.setattr(outputs_module, "_write_beside", full_at_the_second)
    code, _, err = run(A, B, "--csv", str(first), "--rows-csv", str(second))
    assert code == 2 and "No space left on device" in err
    assert first.read_text() == "old first\n" and second.read_text() == "old second\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "b.csv"]


def test_a_failure_placing_the_second_output_takes_the_first_back(tmp_path, monkeypatch):
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    first.write_text("old first\n")
    real_replace = os.replace
    placed = []

    def fail_second(src, dst):
        if str(dst).endswith(".csv") and ".ngram-overlap-" in str(src) and \
                str(src).endswith(".part"):
            placed.append(dst)
            if len(placed) == 2:
                raise OSError(errno.EIO, "Input/output error")
        return real_replace(src, dst)

    monkeypatch.setattr(outputs_module.os, "replace", fail_second)
    code, _, err = run(A, B, "--csv", str(first), "--rows-csv", str(second))
    assert code == 2 and "Input/output error" in err
    assert first.read_text() == "old first\n" and not second.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv"]


# --- 7, 8, 10: ends told in one line ------------------------------------------------------

def test_json_into_a_closed_pipe_ends_quietly():
    done = subprocess.run(f"{' '.join(COMMAND)} '{A}' '{B}' --json | head -c 0",
                          shell=True, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.stderr.count("Traceback") == 0
    assert "Error" not in done.stderr


def test_json_with_stdout_closed_is_one_line():
    done = subprocess.run([*COMMAND, A, B, "--json"], cwd=ROOT, capture_output=False,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          timeout=120, preexec_fn=lambda: os.close(1))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == \
        "ngram-overlap: standard output: is closed: the result cannot be written"
    assert "Traceback" not in done.stderr


def test_json_into_a_full_disk_is_one_line():       # Linux's /dev/full: every write ENOSPC
    with open("/dev/full", "w") as full:
        done = subprocess.run([*COMMAND, A, B, "--json"], cwd=ROOT, stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == \
        "ngram-overlap: standard output: cannot be written: No space left on device"


SLOW_WRITE = """
import sys, time
from ngram_core.write import outputs
from ngram_core.cli import main
real = outputs._write_beside
def slow(o, data, temporaries):
    real(o, data, temporaries)
    print("written", flush=True)
    time.sleep(30)
outputs._write_beside = slow
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("signum, status, said", [
    (signal.SIGTERM, 143, "ngram-overlap: stopped by SIGTERM"),
    (signal.SIGHUP, 129, "ngram-overlap: stopped by SIGHUP"),
    (signal.SIGINT, 130, "ngram-overlap: interrupted"),
])
def test_a_signal_while_outputs_are_written_leaves_no_temporary(tmp_path, signum, status, said):
    out = tmp_path / "out.csv"
    out.write_text("the last good result\n")
    # started as from a terminal: a run launched in the background inherits SIGINT
    # ignored, and a Python started so keeps ignoring it
    process = subprocess.Popen([sys.executable, "-c", SLOW_WRITE, A, B, "--csv", str(out)],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert process.stdout.readline().strip() == "written"        # a temporary exists now
    assert any(p.name.endswith(".part") for p in tmp_path.iterdir())
    process.send_signal(signum)
    _, err = process.communicate(timeout=60)
    assert process.returncode == status
    assert err.strip().splitlines()[-1] == said and "Traceback" not in err
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]
    assert out.read_text() == "the last good result\n"


# --- 9: no raw control character on the terminal -------------------------------------------

def test_escape_sequences_in_ids_and_field_names_are_shown_not_run(tmp_path):
    a = tmp_path / "a.jsonl"
    b = tmp_path / "b.jsonl"
    text = ("In 1969 the Apollo 11 mission landed the first humans on the Moon and returned "
            "them safely home")
    a.write_text(json.dumps({"id": "q\x1b[8m1", "question\x1b[2J": text}) + "\n")
    b.write_text(json.dumps({"id": "b\x1b]52;c;aGk=\x07", "text": text}) + "\n")
    code, out, err = run(str(a), str(b), "--rows-csv", str(tmp_path / "rows.csv"))
    assert code == 0, err
    assert "\x1b" not in out + err and "\x07" not in out + err
    assert "\\x1b[2J" in err and "\\x1b]52;c;aGk=\\x07" in out
    # the files keep the bytes as they are
    assert "b\x1b]52;c;aGk=\x07" in (tmp_path / "rows.csv").read_text()


def test_ctrl_c_is_one_line_and_status_130(monkeypatch):
    import ngram_core.cli as cli

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "run", interrupted)
    code, _, err = run(A, B)
    assert code == 130 and err == "ngram-overlap: interrupted\n"


# --- 10: a training file that changes while it is read -----------------------------------

def test_b_changed_while_read_is_exit_2_and_nothing_written(tmp_path, monkeypatch):
    import ngram_core.cli as cli
    b = copy_of_b(tmp_path)
    out = tmp_path / "out.csv"
    real = cli.run

    def cut_meanwhile(*args, **kwargs):
        result = real(*args, **kwargs)
        with open(b, "r+b") as f:                  # the file is cut short meanwhile
            f.truncate(b.stat().st_size // 2)
        return result

    monkeypatch.setattr(cli, "run", cut_meanwhile)
    code, out_text, err = run(A, str(b), "--csv", str(out))
    assert code == 2 and out_text == "" and not out.exists()
    assert err == (f"ngram-overlap: {b}: changed while it was read (size or time): the result "
                   f"would be of neither version; nothing written\n")
