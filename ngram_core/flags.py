"""The command line's flags shared by the check and ``decontaminate``: how rows are
matched, how each side is read, where the run goes; and the checks argparse cannot
make, each refused before any work with one line::

    >>> p = argparse.ArgumentParser()
    >>> add_engine_flags(p)
    >>> check_flags(p.parse_args(["--workers", "0"]))
    Traceback (most recent call last):
    ...
    ngram_core.errors.InputError: --workers: must be a whole number, 1 or more, not 0
"""

from __future__ import annotations

import argparse
import os
import re

from .errors import InputError
from .read.files import parse_size
from .method.index import N_DEFAULT, N_MAX, N_MIN
from .read.readers import FORMATS
from .method.settings import SHORT_MIN_DEFAULT, Settings, check_jobs
from .method.similar import REPHRASE_THRESHOLD
from .table import TEXT_ROWS, ReadOptions
from .method.tokenize import BACKENDS, DEFAULT_LAYERS, MODES


def add_matching_flags(p: argparse.ArgumentParser) -> None:
    """The flags that set how rows are matched (the same for one check and a suite)."""
    p.add_argument("--n", type=int, default=N_DEFAULT,
                   help=f"window size in tokens, {N_MIN} to {N_MAX} (default {N_DEFAULT})")
    p.add_argument("--mode", choices=MODES, default="loose",
                   help="loose: letters/digits, folded (default); strict: whitespace, as is")
    p.add_argument("--layers", default=",".join(DEFAULT_LAYERS),
                   help="loose-mode normalization layers, e.g. L1,L3,L4 (default) or "
                        "L1,L2,L3,L4; '' for none")
    p.add_argument("--threshold", type=float, default=0.0,
                   help="flag a row when its dirty-token share (percent) is at least this")
    p.add_argument("--short-min", type=int, default=SHORT_MIN_DEFAULT, metavar="K",
                   help=f"report a short row (fewer than n tokens) of at least K tokens "
                        f"found whole inside a B row (default {SHORT_MIN_DEFAULT}; 0: off)")
    p.add_argument("--keep-template", action="store_true",
                   help="match A's template too: windows shared by at least half of A's rows "
                        "(and 10 of them), such as a shared instruction or few-shot examples, "
                        "are left out by default")
    p.add_argument("--leave-out", action="append", metavar="FILE", default=[],
                   help="a file of passages to leave out of matching, one per line (a "
                        "licence line, a stock phrase): where a whole passage lies in a row "
                        "of the test side, no window holding one of its tokens matches")
    p.add_argument("--leave-out-text", action="append", metavar="TEXT", default=[],
                   help="one passage to leave out, as --leave-out (repeat for several)")
    p.add_argument("--max-b-rows", type=int, metavar="K",
                   help="ignore n-grams found in more than K B rows (boilerplate); "
                        "default: keep all")
    p.add_argument("--rephrase-threshold", type=float, default=REPHRASE_THRESHOLD, metavar="X",
                   help=f"mark a row rephrased when the B row most similar in its words "
                        f"reaches this similarity (0 to 1, default "
                        f"{REPHRASE_THRESHOLD}); the rows CSV's last three columns")
    p.add_argument("--no-rephrase", action="store_true",
                   help="skip the rephrase lens (no similar rows)")
    p.add_argument("--tokenizer", choices=BACKENDS, default="re",
                   help="loose-mode matcher: re (standard library, as on the page) or "
                        "the regex package")


def add_reading_flags(p: argparse.ArgumentParser, a_name: str, b_name: str) -> None:
    """The flags that say how to read the test side (``--a-*``) and the training side
    (``--b-*``), named in the help as ``a_name`` and ``b_name``."""
    p.add_argument("--a-field", action="append", metavar="F",
                   help=f"text field of {a_name} (repeat to join several with a newline)")
    p.add_argument("--b-field", action="append", metavar="F", help=f"text field of {b_name}")
    p.add_argument("--a-id-field", metavar="F", help=f"id field of {a_name}")
    p.add_argument("--b-id-field", metavar="F", help=f"id field of {b_name}")
    for side, name in (("a", a_name), ("b", b_name)):
        p.add_argument(f"--{side}-format", choices=FORMATS,
                       help=f"format of {name}, when sniffing is wrong")
        p.add_argument(f"--{side}-records", metavar="PATH",
                       help=f"JSON: the dotted path of the array whose items are {name}'s rows "
                            f"(e.g. data.paragraphs.qas; '' for the top level)")
        p.add_argument(f"--{side}-delimiter", metavar="D",
                       help=f"CSV: {name}'s field separator (comma, semicolon, tab, pipe or "
                            f"one character), when detection is wrong")
        p.add_argument(f"--{side}-no-header", action="store_true",
                       help=f"CSV: {name}'s first row is a row, not a header")
        p.add_argument(f"--{side}-text-rows", choices=TEXT_ROWS,
                       help=f"plain text: {name}'s rows are its lines, paragraphs (blocks "
                            f"between blank lines), sentences of a token-per-line CoNLL file "
                            f"or the whole file (default: sentences of a CoNLL file, blocks "
                            f"when the file is made of them, else lines)")


def add_engine_flags(p: argparse.ArgumentParser) -> None:
    """The flags that say where the check runs."""
    p.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="local: this process (default); dask: index A and stream B "
                        "through a Dask cluster")
    p.add_argument("--jobs", type=int, metavar="N",
                   help="with --engine local, when B is streamed: worker processes walking "
                        "its partitions (default: one per core from 64 MiB of B; 1: this "
                        "process alone)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --engine dask: an existing scheduler (default: a local cluster)")
    p.add_argument("--connect-timeout", type=float, default=10.0, metavar="SECONDS",
                   help="with --scheduler: seconds to reach the scheduler (default 10)")
    p.add_argument("--workers", type=int, metavar="N",
                   help="with --engine dask and no scheduler: local workers (default: cores)")
    p.add_argument("--dask-logs", metavar="FILE",
                   help="with --engine dask: append Dask's own log lines (the scheduler's, "
                        "the workers') to FILE (default: none are kept; only the run's own "
                        "lines reach stderr)")
    p.add_argument("--blocksize", default="16MiB",
                   help="with --engine dask: bytes of JSONL/CSV/text per B partition")


def settings_of(args: argparse.Namespace) -> Settings:
    """The matching flags as :class:`~ngram_core.method.settings.Settings`."""
    leave_out = [text for path in args.leave_out for text in passages_in(path)]
    return Settings(n=args.n, mode=args.mode, layers=args.layers, threshold=args.threshold,
                    backend=args.tokenizer, short_min=args.short_min,
                    max_b_rows=args.max_b_rows, keep_template=args.keep_template,
                    leave_out=tuple(leave_out + list(args.leave_out_text)),
                    rephrase=not args.no_rephrase, rephrase_threshold=args.rephrase_threshold)


def passages_in(path: str) -> list[str]:
    """The passages of a ``--leave-out`` file: its lines that are not blank."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise InputError(path, f"cannot be read: {e.strerror or e}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise InputError(path, "is not valid UTF-8: --leave-out reads one passage a line",
                         line=line) from None
    return [line.strip() for line in text.splitlines() if line.strip()]


def read_options(args: argparse.Namespace, side: str) -> ReadOptions:
    """How to read file A or B, from the ``--a-*`` / ``--b-*`` flags."""
    value = vars(args)
    return ReadOptions(format=value[f"{side}_format"], role=side,
                       records=value[f"{side}_records"], delimiter=value[f"{side}_delimiter"],
                       header=False if value[f"{side}_no_header"] else None,
                       text_rows=value[f"{side}_text_rows"])


#: The smallest --blocksize: smaller pieces cost more in bookkeeping than they read.
MIN_BLOCKSIZE = 64 * 1024
#: A scheduler's address: an optional protocol, a host and a port.
SCHEDULER_ADDRESS = re.compile(r"(?:(tcp|tls|ws|wss|ucx)://)?(\[[0-9A-Fa-f:.]+\]|[\w.-]+):(\d{1,5})")


def check_flags(args: argparse.Namespace) -> int:
    """The flags that need more than argparse's types, refused before any work with
    one line each; returns the block size in bytes (see the module's example)."""
    blocksize = parse_size(args.blocksize, "--blocksize")
    if blocksize < MIN_BLOCKSIZE:
        raise InputError("--blocksize", f"must be at least 64 KiB ({MIN_BLOCKSIZE:,} bytes), "
                                        f"not {args.blocksize!r}")
    if not 0 < args.connect_timeout <= 3600:
        raise InputError("--connect-timeout", f"must be seconds from 0 to 3600, not "
                                              f"{args.connect_timeout:g}")
    if args.workers is not None and args.workers < 1:
        raise InputError("--workers", f"must be a whole number, 1 or more, not {args.workers}")
    check_jobs(args.jobs, "--jobs")
    if args.jobs is not None and args.engine == "dask":
        raise InputError("--jobs", "is for --engine local; --workers sets Dask's")
    if args.scheduler is not None:
        address = SCHEDULER_ADDRESS.fullmatch(args.scheduler.strip())
        if address is None or not 1 <= int(address[3]) <= 65535:
            raise InputError("--scheduler", f"is not a scheduler address such as "
                                            f"tcp://host:8786: {args.scheduler!r}")
    for flag, value in (("--dask-logs", args.dask_logs), ("--scheduler", args.scheduler),
                        ("--workers", args.workers)):
        if value is not None and args.engine != "dask":   # never a local run in silence
            raise InputError(flag, "needs --engine dask")
    return blocksize


def check_dask_logs(path: str | None, inputs: list[str]) -> None:
    """``--dask-logs FILE``: a file that can be appended to (made if absent) and no
    input of the run, refused before the work."""
    if path is None:
        return
    try:
        st = os.stat(path)
        if any(os.path.samestat(st, os.stat(i)) for i in inputs if os.path.exists(i)):
            raise InputError(path, "is an input of this run; --dask-logs never writes "
                                   "into an input")
    except OSError:
        pass
    if os.path.isdir(path):
        raise InputError(path, "is a folder; --dask-logs needs a file name")
    try:
        with open(path, "a"):
            pass
    except OSError as e:
        raise InputError(path, f"cannot be written: {e.strerror or e}") from None
