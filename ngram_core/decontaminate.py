"""``ngram-overlap decontaminate``: a suite of test sets (evals) against training data
in one pass, a table of which benchmark leaked where, and the training data without
the rows that hold them. A front end: it turns flags and files into plain values,
runs :func:`~ngram_core.run.suite.check_suite` and writes what it returns::

    ngram-overlap decontaminate --evals mmlu.jsonl gsm8k.jsonl --train 'shards/*.jsonl.zst' \\
        --out cleaned/

writes ``cleaned/<each training file's name>`` (its own format and compression,
the rows that share a window with an eval row, or hold a short eval row whole,
left out), ``cleaned/removed.jsonl`` (one line per removed row and why) and
``cleaned/report.json`` (each eval's summary, as ``ngram-overlap EVAL TRAIN
--json`` prints it, the benchmark-by-training-file table, and for a model card the
tool's version, the run's start and end, the settings and the fields read), all of
them or none; the tables on stdout (``--json``: the report). The matching flags are
the check's; ``--a-*`` flags read every eval, ``--b-*`` flags every training file.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from typing import Any, TextIO

from . import __version__
from .method.settings import Settings
from .write.cleaned import CleanedPiece, cleaned_pieces, cleaned_writer, join_pieces
from .errors import InputError, shown
from .read.files import (arrays_warning, check_unchanged, describe_read, expand_paths, file_stamps,
                         unread_warning)
from .flags import (add_engine_flags, add_matching_flags, add_reading_flags, check_dask_logs,
                    check_flags, read_options, settings_of)
from .write.outputs import (TEMPORARY_PREFIX, Content, FolderPlan, made_folders_kept_tidy,
                            plan_folder, write_folder)
from .report.summary import percent
from .run.stream import Executor
from .report.result import training_accounts
from .run.suite import (SuiteResult, check_suite, found_in_files, read_eval,
                         refuse_evals_in_training, refuse_files_named_twice)
from .terminal import ProgressBar, VisibleText, tolerant, until_stopped, write_result

REPORT = "report.json"
REMOVED = "removed.jsonl"


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ngram-overlap decontaminate",
        description="Check several test sets (evals) against training data, reading the "
                    "training data once, and write the training data without the rows "
                    "that hold them.")
    p.add_argument("--evals", nargs="+", required=True, metavar="EVAL",
                   help="the test sets: JSON, JSONL, CSV, TSV or text, each read as "
                        "'ngram-overlap EVAL TRAIN' reads it")
    p.add_argument("--train", nargs="+", required=True, metavar="TRAIN",
                   help="the training data: files or globs, read in order as one")
    p.add_argument("--out", required=True, metavar="DIR",
                   help="the folder to write the cleaned training files, removed.jsonl "
                        "and report.json into (made if missing)")
    p.add_argument("--rows-csv", action="store_true",
                   help="also write each eval's rows CSV as DIR/<eval name>.rows.csv")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--remove-rephrased", action="store_true",
                   help="also remove the training row most similar to each eval row the "
                        "rephrase lens marks (removed.jsonl: rule rephrased, similarity)")
    add_matching_flags(p)
    add_reading_flags(p, "every eval", "every training file")
    add_engine_flags(p)
    return p


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    """The subcommand: 0 done, 2 bad input or an output that cannot be written, 130
    interrupted, 128 + N stopped by signal N."""
    raw_err = stderr or tolerant(sys.stderr)
    err = VisibleText(raw_err)
    args = build_parser().parse_args(argv)
    bar = ProgressBar(raw_err)

    def run() -> dict | int:
        try:
            return _run(args, err, bar)
        except InputError as e:
            err.write(f"ngram-overlap: {e}\n")
            return 2
        finally:
            bar.clear()

    report = until_stopped(run, err)
    if isinstance(report, int):
        return report
    last = unread_warning([(t["file"], t.get("unread", 0), t.get("unread_in", []))
                           for t in report["training"]])
    out = stdout or (tolerant(sys.stdout) if sys.stdout is not None else None)
    if out is None:
        err.write("ngram-overlap: standard output: is closed: the report cannot be written\n")
        return 2
    # the tables on stdout as the check's summary (or the report as JSON); the files
    # read and progress stay on stderr
    text = json.dumps(report, ensure_ascii=False) + "\n" if args.json else render_tables(report)
    code = write_result(out if args.json else VisibleText(out), text, err,
                        own_stdout=stdout is None)
    if last:                                 # the run's last line
        err.write(last + "\n")
    return code


def _run(args: argparse.Namespace, err: VisibleText, bar: ProgressBar) -> dict:
    started = now()
    settings = settings_of(args)
    blocksize = check_flags(args)
    eval_paths, train_paths = expand_paths(args.evals), expand_paths(args.train)
    refuse_files_named_twice(eval_paths, "--evals")
    refuse_files_named_twice(train_paths, "--train")
    refuse_evals_in_training(eval_paths, train_paths)
    names = output_names(eval_paths, train_paths, args.rows_csv)
    planned = plan_suite_outputs(args.out, names, [*eval_paths, *train_paths])
    check_dask_logs(args.dask_logs,
                    [*eval_paths, *train_paths, *(o.target for o in planned.outputs)])
    with made_folders_kept_tidy(planned):
        stamps = file_stamps([*eval_paths, *train_paths])
        a_options, b_options = read_options(args, "a"), read_options(args, "b")
        evals = []
        for path in eval_paths:
            ev, read = read_eval(path, fields=args.a_field, id_field=args.a_id_field,
                                 options=a_options)
            err.write(describe_read("Eval", read) + "\n")
            evals.append(ev)
        options: dict[str, Any] = dict(b_fields=args.b_field, b_id_field=args.b_id_field,
                                       b_options=b_options, blocksize=blocksize, on_progress=bar,
                                       remove_rephrased=args.remove_rephrased)
        # on a cluster the workers write the cleaned files' pieces in a folder of their own
        # beside the outputs (the client joins them), removed however the run ends
        pieces_folder = (tempfile.mkdtemp(dir=args.out, prefix=TEMPORARY_PREFIX)
                         if args.engine == "dask" else None)
        try:
            pieces: list[list[str]] | None = None
            if pieces_folder is not None:
                from .run.distributed import on_cluster

                def on(executor: Executor) -> tuple[SuiteResult, list[list[str]]]:
                    done = check_suite(evals, train_paths, settings, **options,
                                       executor=executor)
                    return done, write_pieces(executor, done, pieces_folder)
                suite, pieces = on_cluster(on, scheduler=args.scheduler, workers=args.workers,
                                           connect_timeout=args.connect_timeout,
                                           logs=args.dask_logs)
            else:
                from .run.processes import local_processes
                with local_processes(args.jobs) as executor:
                    suite = check_suite(evals, train_paths, settings, **options,
                                        executor=executor)
            check_unchanged(stamps)
            bar.clear()
            for read in suite.results[0].b_reads:
                err.write(describe_read("Training", read) + "\n")
            arrays = arrays_warning(suite.results[0].b_reads)
            if arrays:                   # rows of a training JSON beside its train split
                err.write(arrays + "\n")
            report = suite_report(suite, [os.path.join(args.out, name) for name in names[2:]],
                                  started, now())
            write_folder(planned, suite_files(suite, report, names, pieces))
        finally:
            if pieces_folder is not None:
                shutil.rmtree(pieces_folder, ignore_errors=True)
    return report


def cleaned_pieces_of(suite: SuiteResult) -> list[list[CleanedPiece]]:
    """For each training file, the pieces its cleaned copy is written in (see
    :func:`~ngram_core.write.cleaned.cleaned_pieces`)."""
    return [cleaned_pieces(path, plan.options, plan.layout,
                           [r.row for r in suite.removals if r.file_index == i], parts)
            for i, (path, plan, parts) in enumerate(zip(suite.b_paths, suite.b_plans,
                                                        suite.b_parts))]


def write_pieces(executor: Executor, suite: SuiteResult, folder: str) -> list[list[str]]:
    """Each training file's cleaned pieces written by ``executor``'s workers in
    ``folder``: for each file, the pieces' paths in order."""
    by_file = cleaned_pieces_of(suite)
    jobs = [(piece, os.path.join(folder, f"{i}-{k}")) for i, pieces in enumerate(by_file)
            for k, piece in enumerate(pieces)]
    executor.each(_write_piece, jobs)
    return [[os.path.join(folder, f"{i}-{k}") for k in range(len(pieces))]
            for i, pieces in enumerate(by_file)]


def _write_piece(job: tuple[CleanedPiece, str]) -> InputError | None:
    """A worker's task: one piece written (an error returned, not raised)."""
    piece, target = job
    return piece.write_to(target)


def suite_files(suite: SuiteResult, report: dict, names: Sequence[str],
                pieces: Sequence[Sequence[str]] | None = None) -> dict[str, Content]:
    """What a suite writes, by the names :func:`output_names` gave: the report, the
    removed rows, each training file's cleaned copy (streamed when written, read as its
    check read it; or joined from the ``pieces`` the workers wrote) and each eval's
    rows CSV where a name is given for it."""
    report["outputs"] = list(names)          # what the folder holds after the run
    files: dict[str, Content] = {REPORT: (json.dumps(report, ensure_ascii=False, indent=1)
                                          + "\n").encode("utf-8"),
                                 REMOVED: removed_lines(suite)}
    for i, (path, plan) in enumerate(zip(suite.b_paths, suite.b_plans)):
        removed = [r.row for r in suite.removals if r.file_index == i]
        files[names[2 + i]] = (join_pieces(pieces[i]) if pieces is not None
                               else cleaned_writer(path, plan.options, removed, plan.layout))
    for e, name in enumerate(names[2 + len(suite.b_paths):]):
        files[name] = suite.results[e].rows_csv().encode("utf-8")
    return files


def output_names(eval_paths: Sequence[str], train_paths: Sequence[str],
                 rows_csv: bool = False) -> list[str]:
    """The files written in the folder: the report, the removed rows, each training
    file's cleaned copy and, with ``rows_csv``, each eval's rows CSV. A file is named
    by its path below the folder its side's files all share (see
    :func:`below_shared_folder`): one folder's files by their own names, files from
    several folders in those folders. Two of one name are refused.

    >>> output_names(["mmlu/test.jsonl", "gsm8k/test.jsonl"],
    ...              ["/data/a/part-0.jsonl", "/data/b/part-0.jsonl"], rows_csv=True)
    ['report.json', 'removed.jsonl', 'a/part-0.jsonl', 'b/part-0.jsonl', \
'mmlu/test.jsonl.rows.csv', 'gsm8k/test.jsonl.rows.csv']
    """
    names = [REPORT, REMOVED, *below_shared_folder(train_paths)]
    if rows_csv:
        names += [name + ".rows.csv" for name in below_shared_folder(eval_paths)]
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        if name in seen:
            raise InputError(name, "would be written twice in the folder (a training file "
                                   "named like the report or the removed rows): rename it")
        seen[name] = i
    return names


def below_shared_folder(paths: Sequence[str]) -> list[str]:
    """Each path below the deepest folder holding them all, ``/``-separated: a file's
    own name when they are in one folder.

    >>> below_shared_folder(["shards/x.jsonl.gz", "shards/y.jsonl.gz"])
    ['x.jsonl.gz', 'y.jsonl.gz']
    >>> below_shared_folder(["web/en/0.jsonl", "web/de/0.jsonl", "code/0.jsonl"])
    ['web/en/0.jsonl', 'web/de/0.jsonl', 'code/0.jsonl']
    """
    if not paths:
        return []
    full = [os.path.abspath(p) for p in paths]
    shared = os.path.commonpath([os.path.dirname(p) for p in full])
    return [os.path.relpath(p, shared).replace(os.sep, "/") for p in full]


def plan_suite_outputs(out: str, names: Sequence[str], inputs: Sequence[str]) -> FolderPlan:
    """The suite's outputs in ``out`` checked before any work (see
    :func:`~ngram_core.write.outputs.plan_folder`), the folders they go in made: the
    folder will hold exactly what the new ``report.json`` lists, an earlier run's
    outputs replaced as a set."""
    return plan_folder(out, names, inputs, earlier_outputs(out))


def earlier_outputs(out: str) -> list[str]:
    """The files an earlier run wrote in ``out``, as its ``report.json`` lists them
    (``outputs``; a report without it: itself, the removed rows, the cleaned files
    named below ``out``); none when there is no readable report."""
    try:
        with open(os.path.join(out, REPORT), encoding="utf-8") as f:
            report = json.load(f)
    except (OSError, ValueError):
        return []
    if not isinstance(report, dict):
        return []
    if isinstance(report.get("outputs"), list):
        return [name for name in report["outputs"] if isinstance(name, str)]
    names = [REPORT, REMOVED]
    for entry in report.get("training") or []:
        cleaned = entry.get("cleaned") if isinstance(entry, dict) else None
        if isinstance(cleaned, str) and cleaned:
            below = os.path.relpath(os.path.abspath(cleaned), os.path.abspath(out))
            if not below.startswith(".."):
                names.append(below.replace(os.sep, "/"))
    return names


def removed_lines(suite: SuiteResult) -> bytes:
    """``removed.jsonl``: one line per removed training row, in file order: its file,
    row (1-based), id where it has one, and each eval row that caused it with the
    ``[start, end)`` characters of the training row they share."""
    lines = []
    for removal in suite.removals:
        entry: dict[str, Any] = {"file": shown(suite.b_paths[removal.file_index]),
                                 "row": removal.row}
        if removal.b_id is not None:
            entry["id"] = removal.b_id
        causes = []
        for cause in removal.causes:
            result = suite.results[cause.eval]
            a_row = result.a_rows[cause.a_row]
            if cause.rule == "rephrased":
                causes.append({"eval": shown(suite.eval_names[cause.eval]), "row": a_row.number,
                               "id": a_row.id, "rule": "rephrased",
                               "similarity": round(cause.similarity, 3)})
                continue
            causes.append({"eval": shown(suite.eval_names[cause.eval]), "row": a_row.number,
                           "id": a_row.id, "chars": list(cause.b_chars)})
        entry["causes"] = causes
        lines.append(json.dumps(entry, ensure_ascii=False))
    return "".join(line + "\n" for line in lines).encode("utf-8")


def suite_report(suite: SuiteResult, written: Sequence[str], started: str = "",
                 ended: str = "") -> dict:
    """Each eval's summary (as its own run's ``--json``, with its file), each training
    file's rows, removed rows and the fields read from it, and for each eval and
    training file the eval rows found there and the training rows holding them; then,
    for a model card, the tool and its version, the run's start and end (UTC, ISO
    8601: ``started``, ``ended``), the settings, and how the training rows holding
    each eval add up to the rows removed (``removals``)."""
    evals = [{"file": shown(name), **result.summary.as_dict(),
              "training_files": training_accounts(result, result.b_reads)}
             for name, result in zip(suite.eval_names, suite.results)]
    first = suite.results[0] if suite.results else None
    accounts = [{k: v for k, v in a.items() if k not in ("file", "rows")}
                for a in (training_accounts(first, first.b_reads) if first else [])]
    removed = [0] * len(suite.b_paths)
    for removal in suite.removals:
        removed[removal.file_index] += 1
    fields: list[list[str]] = [[] for _ in suite.b_paths]
    for result in suite.results:          # each eval chooses B's fields as its run would
        for i, read in enumerate(result.b_reads[:len(fields)]):
            fields[i] += [f for f in read.text_fields if f not in fields[i]]
    training = [{"file": shown(path), "rows": rows, "removed": gone, "cleaned": shown(out),
                 "fields": read, **account}
                for path, rows, gone, out, read, account in zip(
                    suite.b_paths, suite.b_rows, removed, written, fields,
                    accounts or [{} for _ in suite.b_paths])]
    found = found_in_files(suite)
    by_file = [{"eval": shown(suite.eval_names[f.eval]),
                "training": shown(suite.b_paths[f.file_index]),
                "eval_rows": f.eval_rows, "training_rows": f.training_rows}
               for f in found]
    return {"evals": evals, "training": training, "found": by_file,
            "tool": {"name": "ngram-overlap", "version": __version__},
            "started": started, "ended": ended,
            "settings": {**(settings_dict(suite.results[0].settings) if suite.results
                            else {}), "remove_rephrased": suite.remove_rephrased},
            "removals": removals_sentence(
                sum(f.training_rows for f in found), len(suite.removals),
                sum(1 for r in suite.removals if all(c.rule == "rephrased" for c in r.causes)))}


def settings_dict(settings: Settings) -> dict:
    """The settings a suite ran at, named as in a check's ``--json`` (the rephrase
    lens's threshold None when it did not run)."""
    return {"n": settings.n, "mode": settings.mode, "layers": "+".join(settings.layers),
            "threshold": settings.threshold, "tokenizer": settings.backend,
            "short_min": settings.short_min, "max_b_rows": settings.max_b_rows,
            "keep_template": settings.keep_template, "leave_out": list(settings.leave_out),
            "rephrase_threshold": settings.rephrase_threshold if settings.rephrase else None}


def removals_sentence(per_eval: int, removed: int, rephrased: int = 0) -> str:
    """How the training rows holding each eval relate to the rows removed: a row
    holding rows of several evals is counted once for each of them, removed once;
    ``rephrased``: rows removed only as an eval row's similar row (``--remove-rephrased``).

    >>> removals_sentence(286, 279)
    '279 training rows removed in all; the training rows holding each eval add up to 286, as 7 more counts come from rows that hold rows of several evals (each such row counted once per eval, removed once).'
    >>> removals_sentence(3, 3, rephrased=1)
    '3 training rows removed in all: the training rows holding each eval add up to the same, as no row holds rows of two evals. 1 of them is removed only as the most similar row of an eval row marked rephrased (--remove-rephrased).'
    """
    rows = "1 training row" if removed == 1 else f"{removed:,} training rows"
    also = (f" {rephrased:,} of them {'is' if rephrased == 1 else 'are'} removed only as the "
            f"most similar row of an eval row marked rephrased (--remove-rephrased)."
            if rephrased else "")
    if per_eval == removed:
        return (f"{rows} removed in all: the training rows holding each eval add up to the "
                f"same, as no row holds rows of two evals.{also}")
    extra = per_eval - removed
    more = "1 more count comes" if extra == 1 else f"{extra:,} more counts come"
    return (f"{rows} removed in all; the training rows holding each eval add up to "
            f"{per_eval:,}, as {more} from rows that hold rows of several evals (each "
            f"such row counted once per eval, removed once).{also}")


def removed_cell(rows: int, removed: int) -> str:
    """The Removed column: a count, and "all" when no row is left (the cleaned file is
    empty, and a re-check reads it as a file of no rows).

    >>> removed_cell(93, 93), removed_cell(93, 2), removed_cell(0, 0)
    ('all 93', '2', '0')
    """
    return f"all {removed:,}" if removed and removed == rows else f"{removed:,}"


def now() -> str:
    """The time now, UTC, ISO 8601 to the second (the report's ``started``, ``ended``)."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def render_tables(report: dict) -> str:
    """The report as three aligned tables for the terminal: each eval (with the rows
    the rephrase lens marks, when it ran), each training file, and where each eval
    was found."""
    def table(head: tuple[str, ...], rows: list[tuple[str, ...]]) -> str:
        every = [head, *rows]
        widths = [max(len(r[i]) for r in every) for i in range(len(head))]
        return "".join("  " + "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                        for i, (c, w) in enumerate(zip(r, widths))).rstrip()
                       + "\n" for r in every)

    lens = any(e.get("rephrase_threshold") is not None for e in report["evals"])
    evals = table(("Eval", "Rows", "Checkable", "Flagged", "Share", "Contained",
                   *(("Rephrased",) if lens else ())),
                  [(e["file"], f"{e['rows']:,}", f"{e['checkable']:,}", f"{e['flagged']:,}",
                    percent(e["flagged_share"]), f"{e['contained']:,}",
                    *((f"{e['rephrased']:,}",) if lens else ())) for e in report["evals"]])
    training = table(("Training file", "Rows", "Removed", "Written to"),
                     [(t["file"], f"{t['rows']:,}", removed_cell(t["rows"], t["removed"]),
                       t["cleaned"]) for t in report["training"]])
    found = table(("Eval", "Training file", "Eval rows found", "Training rows"),
                  [(f["eval"], f["training"], f"{f['eval_rows']:,}", f"{f['training_rows']:,}")
                   for f in report["found"]])
    return evals + "\n" + training + "\n" + found
