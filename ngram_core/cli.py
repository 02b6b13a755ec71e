"""The ``ngram-overlap`` command: the same check as the page, on files of any size.

    ngram-overlap test.jsonl train.jsonl --n 13 --csv overlap.csv

Prints the summary and the worst rows (or, with ``--json``, the summary as one
JSON object); ``--csv`` writes every checkable row, the same bytes the page
downloads. Exit status 0 on success, 2 on bad input with one clear message.
Only :func:`main` writes to the terminal; everything else returns strings.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys

from .check import STAGES, Settings, check_steps
from .errors import InputError
from .index import N_DEFAULT, N_MAX, N_MIN
from .readers import FORMATS, Row, Table, read_table, select_rows
from .report import (cap_notice, counted_table, flagged_figure, headline, percent,
                     settings_line)
from .tokenize import BACKENDS, MODES, layers_label, DEFAULT_LAYERS

#: How many of the worst rows the plain output lists.
TOP_ROWS = 20


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ngram-overlap",
        description="Check a test set (A) against training data (B) for shared "
                    "n-token word sequences.")
    p.add_argument("a", metavar="A", help="the test set: JSON, JSONL, CSV, TSV or text")
    p.add_argument("b", metavar="B", nargs="+",
                   help="the training data: one file, or several read in order as one "
                        "(a glob such as 'shards/*.jsonl' with --engine dask)")
    p.add_argument("--n", type=int, default=N_DEFAULT,
                   help=f"window size in tokens, {N_MIN} to {N_MAX} (default {N_DEFAULT})")
    p.add_argument("--mode", choices=MODES, default="loose",
                   help="loose: letters/digits, folded (default); strict: whitespace, as is")
    p.add_argument("--layers", default=",".join(DEFAULT_LAYERS),
                   help="loose-mode normalization layers, e.g. L1,L3,L4 (default) or "
                        "L1,L2,L3,L4; '' for none")
    p.add_argument("--threshold", type=float, default=0.0,
                   help="flag a row when its dirty-token share (percent) is at least this")
    p.add_argument("--a-field", action="append", metavar="F",
                   help="text field of A (repeat to join several with a newline)")
    p.add_argument("--b-field", action="append", metavar="F", help="text field of B")
    p.add_argument("--a-id-field", metavar="F", help="id field of A")
    p.add_argument("--b-id-field", metavar="F", help="id field of B")
    p.add_argument("--a-format", choices=FORMATS, help="format of A, when sniffing is wrong")
    p.add_argument("--b-format", choices=FORMATS, help="format of B, when sniffing is wrong")
    p.add_argument("--csv", metavar="PATH", help="write every checkable row to this CSV")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--tokenizer", choices=BACKENDS, default="re",
                   help="loose-mode matcher: re (standard library, as on the page) or "
                        "the regex package")
    p.add_argument("--engine", choices=("local", "dask"), default="local",
                   help="local: this process (default); dask: index A and stream B "
                        "through a Dask cluster")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="with --engine dask: an existing scheduler (default: a local cluster)")
    p.add_argument("--workers", type=int, metavar="N",
                   help="with --engine dask and no scheduler: local workers (default: cores)")
    p.add_argument("--blocksize", default="64MiB",
                   help="with --engine dask: bytes of JSONL/CSV/text per B partition")
    return p


def read_file_bytes(path: str, limit: int | None = None) -> bytes:
    """A file's bytes (at most ``limit`` of them), decompressed when its name ends
    in .gz or .zst; only what ``limit`` asks for is decompressed."""
    lower = path.lower()
    try:
        with open(path, "rb") as f:
            if not lower.endswith((".gz", ".zst")):
                return f.read(-1 if limit is None else limit)
            try:
                if lower.endswith(".gz"):
                    stream = gzip.GzipFile(fileobj=f)
                else:
                    import zstandard
                    stream = zstandard.ZstdDecompressor().stream_reader(f)
                if limit is None:
                    return stream.read()
                chunks, wanted = [], limit
                while wanted > 0:
                    chunk = stream.read(wanted)
                    if not chunk:
                        break
                    chunks.append(chunk)
                    wanted -= len(chunk)
                return b"".join(chunks)
            except ImportError:
                raise InputError(path, "is zstd-compressed; install the zstandard "
                                       "package") from None
            except Exception as e:      # corrupt archive: any codec error is the file's fault
                raise InputError(path, f"cannot be decompressed: {e}") from None
    except OSError as e:
        raise InputError(path, f"cannot be read: {e.strerror or e}") from None


def strip_compression(path: str) -> str:
    """``"shard.jsonl.gz"`` -> ``"shard.jsonl"``, for sniffing the format."""
    for ext in (".gz", ".zst"):
        if path.lower().endswith(ext):
            return path[:-len(ext)]
    return path


def is_parquet(path: str) -> bool:
    return path.lower().endswith((".parquet", ".pq"))


def parquet_table(path: str, row_group: int | None = None, limit: int | None = None) -> Table:
    """A Parquet file (or one of its row groups) as a Table; needs pyarrow."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError(path, "is a Parquet file; install pyarrow to read it") from None
    try:
        source = pq.ParquetFile(path)
        data = source.read() if row_group is None else source.read_row_group(row_group)
    except Exception as e:        # any pyarrow failure is the file's fault
        raise InputError(path, f"is not a readable Parquet file: {e}") from None
    records = data.slice(0, limit).to_pylist() if limit else data.to_pylist()
    return Table(path, "parquet", list(data.schema.names), records)


def read_path_table(path: str, format: str | None = None, head: int | None = None) -> Table:
    """One file as a Table: Parquet, or text (decompressed when .gz or .zst).

    ``head`` reads only the whole lines in the first ``head`` bytes (the first
    1,000 rows of a Parquet file), enough to detect its fields.
    """
    if is_parquet(path):
        table = parquet_table(path, 0 if head else None, 1000 if head else None)
        if not table.records:
            raise InputError(path, "has no rows")
    else:
        data = read_file_bytes(path, head)
        if head is not None and len(data) == head:
            data = data[:data.rfind(b"\n") + 1] or data      # no line cut in half
        table = read_table(data, strip_compression(path), format)
    table.source = path
    return table


def load_rows(paths, fields=None, id_field=None, format=None) -> list[Row]:
    """Read one or several files as one list of rows, numbered 1.. across them."""
    rows: list[Row] = []
    for path in paths:
        try:
            selected = select_rows(read_path_table(path, format), fields, id_field)
        except InputError as e:
            e.source = path            # name the file as given, .gz and all
            raise
        for row in selected:
            rows.append(Row(len(rows) + 1, row.id, row.text))
    return rows


def names(paths) -> str:
    """How the result line names one or several files."""
    shown = [os.path.basename(p) for p in paths]
    return shown[0] if len(shown) == 1 else f"{shown[0]} and {len(shown) - 1} more files"


def render_text(result, a_name: str, b_name: str, top: int = TOP_ROWS) -> str:
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


def _progress_bar(progress) -> str:
    filled = int(progress.fraction * 30)
    return f"\r[{'#' * filled}{' ' * (30 - filled)}] {progress.fraction:6.1%} {progress.stage:<11}"


def run_local(args, settings: Settings, stderr):
    a_rows = load_rows([args.a], args.a_field, args.a_id_field, args.a_format)
    b_rows = load_rows(args.b, args.b_field, args.b_id_field, args.b_format)
    show = stderr is not None and stderr.isatty()
    steps = check_steps(a_rows, b_rows, settings)
    while True:
        try:
            progress = next(steps)
        except StopIteration as stop:
            result = stop.value
            break
        if show:
            stderr.write(_progress_bar(progress))
    if show:
        stderr.write("\r" + " " * 50 + "\r")
    return result


def main(argv=None, stdout=None, stderr=None) -> int:
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    args = build_parser().parse_args(argv)
    try:
        settings = Settings(n=args.n, mode=args.mode, layers=args.layers,
                            threshold=args.threshold, backend=args.tokenizer)
        if args.engine == "dask":
            from .distributed import run_dask
            result = run_dask(args, settings, stderr)
        else:
            result = run_local(args, settings, stderr)
    except InputError as e:
        stderr.write(f"ngram-overlap: {e}\n")
        return 2
    if args.csv:
        with open(args.csv, "w", encoding="utf-8", newline="") as f:
            f.write(result.csv())
    if args.json:
        stdout.write(json.dumps(result.summary.as_dict(), ensure_ascii=False) + "\n")
    else:
        stdout.write(render_text(result, names([args.a]), names(args.b)))
    return 0


if __name__ == "__main__":       # pragma: no cover
    sys.exit(main())
