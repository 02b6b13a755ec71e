"""The ``ngram-overlap`` command: the same check as the page, on files of any size.

    ngram-overlap test.jsonl train.jsonl --n 13 --csv overlap.csv

Prints the summary and the worst rows (or, with ``--json``, the summary as one
JSON object); ``--csv`` writes every checkable row, the same bytes the page
downloads. Exit status 0 on success, 2 on bad input with one clear message.
Only :func:`main` writes to the terminal; everything else returns strings.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import TextIO

from .run.check import check_steps
from .report.clean_split import CLEAN_BY
from .report.contamination import (ScoreSource, clean_split, definitions_steps_for, needs_definitions,
                            score_column, score_report)
from .errors import InputError, shown
from .read.files import (FileRead, check_unchanged, describe_read, expand_paths, fields_of,
                    file_stamps, index_b_whole, load_rows_by_file, one_test_file,
                    read_file_bytes, read_path_table)
from .flags import (add_engine_flags, add_matching_flags, add_reading_flags, check_dask_logs,
                    check_flags, read_options, settings_of)
from .write.outputs import Output, plan_outputs, write_outputs
from .terminal import ProgressBar, VisibleText, tolerant, until_stopped, write_result
from .table import ReadOptions
from .report.summary import (cap_notice, counted_table, field_table, flagged_figure, headline, percent,
                     settings_line)
from .report.notes import closing_warnings, short_warnings, unchecked_text_notes
from .report.result import Report, training_accounts
from .method.settings import Settings
from .steps import run_steps

#: How many of the worst rows the plain output lists.
TOP_ROWS = 20


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ngram-overlap",
        description="Check a test set (A) against training data (B) for shared "
                    "n-token word sequences. 'ngram-overlap decontaminate --help': a suite "
                    "of test sets at once, and the training data without them.")
    p.add_argument("a", metavar="A", help="the test set: JSON, JSONL, CSV, TSV or text")
    p.add_argument("b", metavar="B", nargs="+",
                   help="the training data: one file, or several read in order as one "
                        "(a glob such as 'shards/*.jsonl' with --engine dask)")
    add_matching_flags(p)
    add_reading_flags(p, "A", "B")
    p.add_argument("--csv", metavar="PATH", help="write every checkable row to this CSV")
    p.add_argument("--rows-csv", metavar="PATH",
                   help="write every A row, blank and short ones too, to this CSV")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--definitions", action="store_true",
                   help="also compute the published definitions (gpt3, palm, llama2, gpt4, "
                        "tulu3): the JSON summary's 'definitions', rows-CSV columns")
    p.add_argument("--score-field", metavar="F",
                   help="a numeric or true/false field of A holding the model's score per row")
    p.add_argument("--scores", metavar="FILE",
                   help="a results file of per-row scores, joined to A by id (A's 0-based row "
                        "index when A has no id field)")
    p.add_argument("--scores-field", metavar="F", help="with --scores: the score field")
    p.add_argument("--scores-key", metavar="F",
                   help="with --scores: the field joined to A's id (default: detected)")
    p.add_argument("--clean-out", metavar="PATH",
                   help="write A without its contaminated rows, in A's own format")
    p.add_argument("--dirty-out", metavar="PATH", help="write A's contaminated rows")
    p.add_argument("--clean-by", choices=CLEAN_BY, default="main",
                   help="which rows are contaminated for --clean-out/--dirty-out: main "
                        "(flagged, duplicates, contained; default) or a definition")
    add_engine_flags(p)
    return p


def names(paths: Sequence[str]) -> str:
    """How the result line names one or several files."""
    base = [shown(os.path.basename(p)) for p in paths]
    return base[0] if len(base) == 1 else f"{base[0]} and {len(base) - 1} more files"


def render_text(result: Report, a_name: str, b_name: str, top: int = TOP_ROWS) -> str:
    """The plain output: the figure, the sentence, the counts, the worst rows."""
    s = result.summary
    lines = [f"Rows flagged: {flagged_figure(s)}", headline(s),
             settings_line(a_name, b_name, s, result.tokenizer.description), ""]
    notice = cap_notice(s)
    if notice:
        lines += [notice, ""]
    width = max(len(k) for k, _ in counted_table(s))
    lines += [f"  {k.ljust(width)}  {v}" for k, v in counted_table(s)]
    shown = result.ordered[:top]
    if shown:
        lines += ["", "Worst rows first:",
                  f"  {'Row':<16} {'Tokens':>7} {'Dirty':>7} {'Span':>6} {'Windows':>8}  Best B row"]
        for m in shown:
            a_id = result.a_rows[m.row].id
            b_id = result.b_id(m.b_row) if m.b_row is not None else "none"
            lines.append(f"  {_cell(a_id, 16):<16} {m.tokens:>7} {percent(m.share):>7} "
                         f"{m.span:>6} {m.windows:>8}  {_cell(b_id, 30)}")
        if len(result.ordered) > top:
            lines.append(f"  ... and {len(result.ordered) - top} more rows (see --csv)")
    return "\n".join(lines) + "\n"


def _cell(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 1] + "…"


def run(args: argparse.Namespace, settings: Settings, bar: ProgressBar, b_paths: list[str],
        blocksize: int) -> tuple[Report, list[tuple[str, FileRead]]]:
    """The check the arguments ask for, and what was read from each file
    (``("A", read)``, ...). A is indexed; B is indexed whole when small and
    plain (:func:`~ngram_core.read.files.index_b_whole`, as the page does), else
    streamed past A's index in bounded pieces, in this process, in worker processes
    (``--jobs``) or on Dask. ``b_paths``:
    B's files, its globs expanded; ``blocksize``: :func:`check_flags`' value."""
    a_options, b_options = read_options(args, "a"), read_options(args, "b")
    a_rows, _, a_reads = load_rows_by_file([args.a], args.a_field, args.a_id_field, a_options)
    reads: list[tuple[str, FileRead]] = [("A", a) for a in a_reads]
    like = None if args.a_field else a_reads[0].text_fields    # same schema, same text
    if args.engine == "local" and index_b_whole(b_paths):   # small B: indexed, as on the page
        b_rows, b_files, b_reads = load_rows_by_file(b_paths, args.b_field, args.b_id_field,
                                                     b_options, like)
        fields = (fields_of(a_reads), fields_of(b_reads))
        return run_steps(check_steps(a_rows, b_rows, settings, b_files=b_files, fields=fields),
                         bar), reads + [("B", read) for read in b_reads]
    options = dict(a_fields=a_reads[0].text_fields, b_fields=args.b_field, b_like=like,
                   b_id_field=args.b_id_field, b_options=b_options, blocksize=blocksize,
                   on_progress=bar, definitions=needs_definitions(
                       args.definitions, bool(args.score_field or args.scores), args.clean_by))
    if args.engine == "dask":                  # A indexed, B streamed past it
        from .run.distributed import run_dask
        result = run_dask(a_rows, args.b, settings, scheduler=args.scheduler,
                          workers=args.workers, connect_timeout=args.connect_timeout,
                          logs=args.dask_logs, **options)
    else:
        from .run.processes import local_processes
        from .run.stream import check_streamed
        with local_processes(args.jobs) as executor:
            result = check_streamed(a_rows, b_paths, settings, **options, executor=executor)
    return result, reads + [("B", read) for read in result.b_reads]


def render_field_table(result: Report) -> str:
    """A's figures per text field, as a few aligned lines (empty for one field)."""
    table = field_table(result.summary)
    if not table:
        return ""
    rows = [("Field of A", "Tokens", "Dirty", "Rows matched"), *table]
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    return "\n".join("  " + "  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                                     for i, (cell, w) in enumerate(zip(r, widths)))
                     for r in rows) + "\n"


#: The flags that name an output file.
OUTPUT_FLAGS = ("csv", "rows_csv", "clean_out", "dirty_out")


def check_outputs(args: argparse.Namespace, b_paths: Sequence[str]) -> list[Output]:
    """Every output path asked for can be written and harms no input (A, ``b_paths``,
    the scores file): checked before the work starts
    (:func:`~ngram_core.write.outputs.plan_outputs`)."""
    asked = [(_flag(name), getattr(args, name)) for name in OUTPUT_FLAGS if getattr(args, name)]
    inputs = [args.a, *b_paths, *([args.scores] if args.scores else [])]
    planned = plan_outputs(asked, inputs)
    check_dask_logs(args.dask_logs, [*inputs, *(o.target for o in planned)])
    return planned


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def outputs(args: argparse.Namespace, result: Report, a_options: ReadOptions
            ) -> tuple[dict, dict[str, bytes]]:
    """The published definitions, the score impact and the clean split, as the flags
    ask: the JSON summary's extra keys, and each output file's bytes by its flag
    (written by the caller once everything is computed)."""
    extra: dict = {}
    files: dict[str, bytes] = {}
    if args.scores and not args.scores_field:
        raise InputError("--scores", "needs --scores-field, the field holding the score")
    source = ScoreSource(field=args.score_field,
                         results=read_path_table(args.scores) if args.scores else None,
                         results_field=args.scores_field, results_key=args.scores_key)
    if needs_definitions(args.definitions, source, args.clean_by):
        extra["definitions"] = run_steps(definitions_steps_for(result)).as_dict()
    if source.wanted:
        column = score_column(result, read_path_table(args.a, a_options), args.a_id_field, source)
        extra["scores"] = score_report(result, column)
        extra["score_notes"] = column.notes
    if args.clean_out or args.dirty_out:
        split = clean_split(result, args.clean_by, read_file_bytes(args.a),
                            read_path_table(args.a, a_options))
        for name, data in (("clean_out", split.clean), ("dirty_out", split.dirty)):
            if getattr(args, name):
                files[_flag(name)] = data
    if args.rows_csv:
        files["--rows-csv"] = result.rows_csv().encode("utf-8")
    if args.csv:
        files["--csv"] = result.csv().encode("utf-8")
    return extra, files


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    """The command: 0 done, 2 bad input or an output that cannot be written, 130
    interrupted, 128 + N stopped by signal N (see :mod:`~ngram_core.terminal`)."""
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["decontaminate"]:
        from .decontaminate import main as decontaminate
        return decontaminate(words[1:], stdout, stderr)
    raw_err = stderr or tolerant(sys.stderr)
    err = VisibleText(raw_err)
    args = build_parser().parse_args(words)
    return until_stopped(lambda: _check_and_report(args, stdout, err, ProgressBar(raw_err)), err)


def _check_and_report(args: argparse.Namespace, stdout: TextIO | None, stderr: VisibleText,
                      bar: ProgressBar) -> int:
    """Check, write the outputs, then report on stderr and stdout."""
    try:
        settings = settings_of(args)
        blocksize = check_flags(args)
        args.a = one_test_file(args.a)
        b_paths = expand_paths(args.b)
        planned = check_outputs(args, b_paths)
        out = stdout or (tolerant(sys.stdout) if sys.stdout is not None else None)
        if out is None:
            raise InputError("standard output", "is closed: the result cannot be written")
        stamps = file_stamps(b_paths)
        result, reads = run(args, settings, bar, b_paths, blocksize)
        check_unchanged(stamps)
        bar.clear()
        for role, read in reads:
            stderr.write(describe_read(role, read) + "\n")
            if role == "A":
                for passage in result.summary.template:
                    stderr.write(f"  {passage} (--keep-template checks it)\n")
        extra, files = outputs(args, result, read_options(args, "a"))
        write_outputs(planned, files)
    except InputError as e:
        stderr.write(f"ngram-overlap: {e}\n")
        return 2
    finally:
        bar.clear()
    for note in extra.pop("score_notes", []):
        stderr.write(f"Scores: {note}\n")
    for note in short_warnings(result, reads) + unchecked_text_notes(result, reads):
        stderr.write(note + "\n")
    stderr.write(render_field_table(result))
    if args.json:
        text = json.dumps({**result.summary.as_dict(), **extra,
                           "training_files": training_accounts(
                               result, [read for role, read in reads if role == "B"])},
                          ensure_ascii=False) + "\n"
    else:
        text = render_text(result, names([args.a]), names(args.b))
    code = write_result(out if args.json else VisibleText(out), text, stderr,
                        own_stdout=stdout is None)
    for line in closing_warnings([read for role, read in reads if role == "B"]):
        stderr.write(line + "\n")               # the run's last lines
    return code


if __name__ == "__main__":       # pragma: no cover
    sys.exit(main())
