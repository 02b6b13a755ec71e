"""The same check at corpus scale, on Dask: index the small side (A), stream B past it.

The single-machine path indexes B and walks A. When B is gigabytes, the roles
turn: the client tokenizes A and indexes *its* windows once; the index is
shared with every worker; each worker reads one partition of B at a time (a
block of a JSONL or text file, a whole CSV or compressed file, or a Parquet
row group), walks its windows against A's index and returns, per A row, a
partial result that combines with the others by set union and minimum:

* ``starts``: A window starts (global A positions) matched in the partition;
* ``best``: per A row, the longest diagonal run as
  ``(-windows, partition, b_row_in_partition, a_start, b_start, b_id, b_chars)``
  (the smallest tuple wins: the same tie-break as the single-machine path,
  because partitions are numbered in file order);
* ``dups``: per A row, the first ``(partition, b_row_in_partition)`` whose
  whole token sequence equals the A row's.

Union and minimum are associative and idempotent, so partial results can be
combined in any order, and a partition run twice (a retried task) changes
nothing. The client keeps only these partials, never B's rows.

One difference from the single-machine path: there, at most 32 B positions
are kept per window; here every position counts. Where no window hit that
cap the two give identical summaries and CSVs; where one did, this engine
can find a longer span.

Dask is imported only here, and only the command line imports this module.
"""

from __future__ import annotations

import contextlib
import glob
import io
import os
import sys
from bisect import bisect_right
from dataclasses import dataclass

from .check import Settings
from .cli import is_parquet, parquet_table, read_path_table, strip_compression
from .errors import InputError
from .match import CHECKABLE, RowMatch, classify, coverage
from .index import build_index
from .readers import (Row, detect_id_field, detect_text_fields, format_from_name, read_table,
                      select_rows)
from .report import csv_text, summarize, worst_first
from .tokenize import Tokenizer, tokenize_rows

#: Bytes of an uncompressed JSONL or text file per partition (at line boundaries).
DEFAULT_BLOCKSIZE = 64 * 2**20
#: Bytes of a B file read on the client to detect its fields.
FIELD_SAMPLE_BYTES = 2**20


# --- partitions of B ---------------------------------------------------------

@dataclass(frozen=True)
class Partition:
    """One unit of B a worker reads: bytes [start, end) of a file, or a Parquet row group."""
    index: int
    file_index: int
    path: str
    format: str | None
    start: int = 0
    end: int = -1                 # -1: to the end of the file
    row_group: int | None = None


def expand_paths(patterns) -> list[str]:
    """Globs and plain paths, in the order given; each glob's matches sorted."""
    paths: list[str] = []
    for pattern in patterns:
        matches = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
        if not matches:
            raise InputError(pattern, "matches no file")
        paths.extend(matches)
    return paths


def plan_partitions(paths, format=None, blocksize: int = DEFAULT_BLOCKSIZE) -> list[Partition]:
    """Cut B's files into partitions, numbered in file order."""
    parts: list[Partition] = []
    for file_index, path in enumerate(paths):
        if not os.path.isfile(path):
            raise InputError(path, "cannot be read: no such file")
        size = os.path.getsize(path)
        if is_parquet(path):
            import pyarrow.parquet as pq
            try:
                groups = pq.ParquetFile(path).num_row_groups
            except Exception as e:
                raise InputError(path, f"is not a readable Parquet file: {e}") from None
            for group in range(groups):
                parts.append(Partition(len(parts), file_index, path, "parquet", row_group=group))
            continue
        fmt = format or format_from_name(strip_compression(path))
        compressed = strip_compression(path) != path
        if size == 0:
            raise InputError(path, "is empty: it has no rows")
        if compressed or fmt not in ("jsonl", "text") or size <= blocksize:
            parts.append(Partition(len(parts), file_index, path, fmt))
            continue
        for start in range(0, size, blocksize):
            parts.append(Partition(len(parts), file_index, path, fmt, start,
                                   min(start + blocksize, size)))
    return parts


def _block_bytes(part: Partition) -> tuple[bytes, int]:
    """The lines that start inside [start, end), and the offset of the first one.

    A line belongs to the block it starts in, so blocks never split a line.
    """
    with open(part.path, "rb") as f:
        if part.start:
            f.seek(part.start - 1)
            f.readline()               # the rest of a line that started in the block before
        first = f.tell()
        out = io.BytesIO()
        while f.tell() < part.end:
            line = f.readline()
            if not line:
                break
            out.write(line)
        return out.getvalue(), first


def _lines_before(path: str, offset: int) -> int:
    """Lines that end before byte ``offset`` (only counted for an error message)."""
    with open(path, "rb") as f:
        return f.read(offset).count(b"\n")


def read_partition(part: Partition, fields, id_field) -> list[Row]:
    """The rows of one partition (numbered from 1 within it)."""
    if part.format == "parquet":
        table = parquet_table(part.path, part.row_group)
        return select_rows(table, fields, id_field) if table.records else []
    if part.end < 0:
        table = read_path_table(part.path, part.format)
    else:
        data, first = _block_bytes(part)
        if not data.strip():
            return []
        try:
            table = read_table(data, part.path, part.format)
        except InputError as e:
            if e.line is not None:
                e.line += _lines_before(part.path, first)
            raise
    table.source = part.path
    return select_rows(table, fields, id_field)


# --- the index of A and the walk of one partition ------------------------------

@dataclass
class AIndex:
    """A's windows (no cap) and whole rows, and what a worker needs to tokenize B alike."""
    n: int
    mode: str
    layers: tuple
    backend: str
    vocabulary: dict
    offsets: list
    windows: dict                 # window bytes -> A global start, or a list of them
    rows_by_tokens: dict          # whole-row bytes -> [A rows]


def index_a(a_rows, settings: Settings):
    """Tokenize A and index every window of it, with a cap no window can reach."""
    tokenizer = settings.tokenizer()
    a = tokenize_rows(a_rows, tokenizer)
    windows = build_index(a, settings.n, cap=len(a.ids) + 2).table
    rows_by_tokens: dict = {}             # every A row of a sequence, not just the first
    for r in range(len(a_rows)):
        if a.length(r):
            rows_by_tokens.setdefault(a.row_key(r), []).append(r)
    return tokenizer, a, AIndex(settings.n, settings.mode, settings.layers, settings.backend,
                                dict(tokenizer.vocabulary), list(a.offsets), windows,
                                rows_by_tokens)


def walk_partition(part: Partition, fields, id_field, index: AIndex) -> dict:
    """One partition's partial result (see the module docstring).

    A bad shard comes back as ``{"error": InputError}`` rather than raising, so
    that Dask does not retry a file that will fail again; the client raises it.
    """
    try:
        rows = read_partition(part, fields, id_field)
    except InputError as e:
        return {"error": e}
    tokenizer = Tokenizer(index.mode, index.layers, index.backend, index.vocabulary)
    b = tokenize_rows(rows, tokenizer)
    n, buf, width = index.n, b.buffer, 4 * index.n
    get = index.windows.get
    a_offsets = index.offsets
    starts: set = set()
    best: dict = {}
    dups: dict = {}
    for r in range(len(rows)):
        start, end = b.offsets[r], b.offsets[r + 1]
        if end > start:
            for a_row in index.rows_by_tokens.get(buf[4 * start:4 * end], ()):
                dups.setdefault(a_row, (part.index, r))
        runs: dict = {}
        finished = []
        for g in range(start, end - n + 1):
            value = get(buf[4 * g:4 * g + width])
            if value is None:
                continue
            for q in ((value,) if type(value) is int else value):
                starts.add(q)
                diagonal = q - g
                run = runs.get(diagonal)
                if run is not None and run[1] == g - 1:
                    run[1] = g
                else:
                    if run is not None:
                        finished.append((diagonal, run[0], run[1]))
                    runs[diagonal] = [g, g]
        finished.extend((d, first, last) for d, (first, last) in runs.items())
        for diagonal, first, last in finished:
            q = first + diagonal
            a_row = bisect_right(a_offsets, q) - 1
            key = (first - last - 1, part.index, r, q - a_offsets[a_row], first - start)
            if a_row not in best or key < best[a_row][:5]:
                best[a_row] = key
    # character offsets and ids only for the B rows that hold a best span
    spans_of: dict = {}
    for a_row, key in best.items():
        negk, _, r, _, b_start = key
        if r not in spans_of:
            spans_of[r] = tokenizer.spans(rows[r].text)
        spans = spans_of[r]
        span = -negk + n - 1
        best[a_row] = key + (rows[r].id if id_field else None,
                             (spans[b_start][0], spans[b_start + span - 1][1]))
    return {"partition": part.index, "file_index": part.file_index, "rows": len(rows),
            "starts": starts, "best": best, "dups": dups}


def combine(total: dict, partial: dict) -> dict:
    """Fold one partition's partial into the running total (union and minimum)."""
    total["rows"][partial["partition"]] = (partial["file_index"], partial["rows"])
    total["starts"] |= partial["starts"]
    for a_row, key in partial["best"].items():
        if a_row not in total["best"] or key[:5] < total["best"][a_row][:5]:
            total["best"][a_row] = key
    for a_row, where in partial["dups"].items():
        if a_row not in total["dups"] or where < total["dups"][a_row]:
            total["dups"][a_row] = where
    return total


# --- the client ----------------------------------------------------------------

class DistributedResult:
    """What the command prints and writes, shaped like :class:`~ngram_core.check.CheckResult`."""

    def __init__(self, settings, a_rows, tokenizer, matches, summary, b_ids):
        self.settings = settings
        self.a_rows = a_rows
        self.tokenizer = tokenizer
        self.matches = matches
        self.summary = summary
        self.ordered = worst_first(matches)
        self._b_ids = b_ids

    def b_id(self, b_row: int) -> str:
        return self._b_ids[b_row]

    def csv(self) -> str:
        return csv_text(self.ordered, self.a_rows, self.b_id, self.settings.threshold)


def _field_choice(part: Partition, fields, id_field):
    """The text and id fields of one B file, detected as the single-machine path does,
    from its first MiB (or first 1,000 Parquet rows): the client never reads B whole."""
    if fields and id_field:
        return fields, id_field
    try:
        table = read_path_table(part.path, part.format, head=FIELD_SAMPLE_BYTES)
    except InputError:            # e.g. a quoted CSV field cut at the sample's end
        table = read_path_table(part.path, part.format)
    detected = id_field if id_field is not None else detect_id_field(table)
    return fields or detect_text_fields(table), detected or ""


def assemble(a_rows, a, tokenizer, settings: Settings, total: dict, parts) -> DistributedResult:
    """Turn the combined partials into per-row matches, the summary and the CSV."""
    n = settings.n
    # global B row numbers: partitions in order, rows in order
    first_row, running = {}, 0
    file_first: dict = {}
    for part in parts:
        first_row[part.index] = running
        file_index, count = total["rows"].get(part.index, (part.file_index, 0))
        file_first.setdefault(file_index, running)
        running += count
    b_ids = {}
    starts_by_row: dict = {}
    for q in sorted(total["starts"]):
        starts_by_row.setdefault(bisect_right(a.offsets, q) - 1, []).append(q)
    matches = []
    for r, row in enumerate(a_rows):
        start, end = a.offsets[r], a.offsets[r + 1]
        m = RowMatch(r, classify(row, end - start, n), end - start)
        if r in total["dups"]:
            p, local = total["dups"][r]
            m.duplicate_of = first_row[p] + local
        if m.status == CHECKABLE and r in starts_by_row:
            row_starts = starts_by_row[r]
            m.windows = len(row_starts)
            m.dirty = coverage(row_starts, n)
            negk, p, local, a_start, b_start, b_id, b_chars = total["best"][r]
            m.span = -negk + n - 1
            m.b_row = first_row[p] + local
            m.a_start, m.b_start = a_start, b_start
            spans = tokenizer.spans(row.text)
            m.a_chars = (spans[a_start][0], spans[a_start + m.span - 1][1])
            m.b_chars = b_chars
            part = parts[p]
            b_ids[m.b_row] = b_id if b_id is not None else str(
                m.b_row - file_first[part.file_index] + 1)
        matches.append(m)
    summary = summarize(matches, b_rows=running, n=n, mode=settings.mode,
                        layers=tokenizer.label, threshold=settings.threshold, windows_capped=0,
                        tokenizer=tokenizer.backend, unicode_version=tokenizer.unicode_version)
    return DistributedResult(settings, a_rows, tokenizer, matches, summary, b_ids)


def parse_blocksize(text) -> int:
    """``"64MiB"`` -> 67108864; plain numbers are bytes."""
    units = {"kib": 2**10, "mib": 2**20, "gib": 2**30, "kb": 10**3, "mb": 10**6, "gb": 10**9,
             "b": 1}
    s = str(text).strip().lower()
    for unit, factor in units.items():
        if s.endswith(unit) and s[:-len(unit)].strip().replace(".", "", 1).isdigit():
            return int(float(s[:-len(unit)]) * factor)
    if s.isdigit():
        return int(s)
    raise InputError("--blocksize", f"is not a size: {text!r}")


def check_distributed(client, a_rows, b_paths, settings: Settings, *, b_fields=None,
                      b_id_field=None, b_format=None, blocksize=DEFAULT_BLOCKSIZE,
                      show_progress=False) -> DistributedResult:
    """Run the check on a Dask client: A indexed here, B streamed through the workers."""
    from dask.distributed import as_completed
    parts = plan_partitions(b_paths, b_format, blocksize)
    tokenizer, a, index = index_a(a_rows, settings)
    shared = client.scatter(index, broadcast=True, hash=False)
    choices = {}
    for part in parts:
        if part.file_index not in choices:
            choices[part.file_index] = _field_choice(part, b_fields, b_id_field)
    futures = [client.submit(walk_partition, part, *choices[part.file_index], shared,
                             key=f"ngram-walk-{shared.key}-{part.index}", retries=2)
               for part in parts]
    if show_progress:
        from dask.distributed import progress
        with contextlib.redirect_stdout(sys.stderr):
            progress(futures)
    total = {"rows": {}, "starts": set(), "best": {}, "dups": {}}
    for future in as_completed(futures):
        partial = future.result()
        if "error" in partial:
            for other in futures:
                other.cancel()
            raise partial["error"]
        combine(total, partial)
        future.release()
    return assemble(a_rows, a, tokenizer, settings, total, parts)


def run_dask(args, settings: Settings, stderr):
    """The command line's ``--engine dask``."""
    from dask.distributed import Client, LocalCluster

    from .cli import load_rows
    a_rows = load_rows([args.a], args.a_field, args.a_id_field, args.a_format)
    b_paths = expand_paths(args.b)
    blocksize = parse_blocksize(args.blocksize)
    if args.scheduler:
        client = Client(args.scheduler)
        cluster = None
    else:
        cluster = LocalCluster(n_workers=args.workers or os.cpu_count() or 1,
                               threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        return check_distributed(client, a_rows, b_paths, settings, b_fields=args.b_field,
                                 b_id_field=args.b_id_field, b_format=args.b_format,
                                 blocksize=blocksize,
                                 show_progress=stderr is not None and stderr.isatty())
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
