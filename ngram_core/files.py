"""Paths -> bytes -> tables -> rows, for the command and the Dask engine (never the page).

The page reads files the browser hands it as bytes; everything that knows
about paths lives here: decompression (``.gz``, ``.zst``), Parquet, several
files read as one, globs, and the line-aligned byte ranges a large file is cut
into for the Dask workers. Every problem is an
:class:`~ngram_core.errors.InputError` naming the path as it was given::

    >>> strip_compression("shard-00.jsonl.zst"), is_parquet("train.PQ")
    ('shard-00.jsonl', True)
    >>> parse_size("64MiB"), parse_size("1.5kb"), parse_size(4096)
    (67108864, 1500, 4096)
    >>> block_ranges(size=10, blocksize=4)        # half-open [start, end)
    [(0, 4), (4, 8), (8, 10)]
"""

from __future__ import annotations

import glob
import gzip
import io
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, BinaryIO, NamedTuple, Protocol

from .errors import InputError
from .export import RowFiles
from .fields import FieldStats, choose_fields, field_stats, other_text_fields, select_rows
from .readers import read_table
from .table import ReadOptions, Row, Table, table_from_records

COMPRESSED_SUFFIXES = (".gz", ".zst")
PARQUET_SUFFIXES = (".parquet", ".pq")


def strip_compression(path: str) -> str:
    """``"shard.jsonl.gz"`` -> ``"shard.jsonl"``: the name the format is sniffed from."""
    for ext in COMPRESSED_SUFFIXES:
        if path.lower().endswith(ext):
            return path[:-len(ext)]
    return path


def is_compressed(path: str) -> bool:
    return strip_compression(path) != path


def is_parquet(path: str) -> bool:
    return path.lower().endswith(PARQUET_SUFFIXES)


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


def _decompressing(path: str, f: BinaryIO) -> _Readable:
    if path.lower().endswith(".gz"):
        return gzip.GzipFile(fileobj=f)
    try:
        import zstandard
    except ImportError:
        raise InputError(path, "is zstd-compressed; install the zstandard package") from None
    return zstandard.ZstdDecompressor().stream_reader(f)


def _read_at_most(stream: _Readable, limit: int | None) -> bytes:
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


def read_file_bytes(path: str, limit: int | None = None) -> bytes:
    """A file's bytes (at most ``limit`` of them), decompressed when its name ends
    in .gz or .zst; only what ``limit`` asks for is decompressed."""
    try:
        with open(path, "rb") as f:
            if not is_compressed(path):
                return f.read(-1 if limit is None else limit)
            stream = _decompressing(path, f)
            try:
                return _read_at_most(stream, limit)
            except Exception as e:      # corrupt archive: any codec error is the file's fault
                raise InputError(path, f"cannot be decompressed: {e}") from None
    except OSError as e:
        raise InputError(path, f"cannot be read: {e.strerror or e}") from None


def _parquet_file(path: str) -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError(path, "is a Parquet file; install pyarrow to read it") from None
    try:
        return pq.ParquetFile(path)
    except Exception as e:        # any pyarrow failure is the file's fault
        raise InputError(path, f"is not a readable Parquet file: {e}") from None


def parquet_row_groups(path: str) -> int:
    """How many row groups a Parquet file has (each is one Dask partition)."""
    return int(_parquet_file(path).num_row_groups)


def parquet_table(path: str, row_group: int | None = None, limit: int | None = None) -> Table:
    """A Parquet file (or one of its row groups) as a Table; needs pyarrow."""
    source = _parquet_file(path)
    try:
        data = source.read() if row_group is None else source.read_row_group(row_group)
    except Exception as e:        # any pyarrow failure is the file's fault
        raise InputError(path, f"is not a readable Parquet file: {e}") from None
    records = data.slice(0, limit).to_pylist() if limit else data.to_pylist()
    if not records:
        return Table(path, "parquet", list(data.schema.names), [])
    return table_from_records(path, "parquet", records)


def read_path_table(path: str, options: ReadOptions = ReadOptions(),
                    head: int | None = None) -> Table:
    """One file as a Table: Parquet (nested columns flattened as JSON's are), or
    text (decompressed when .gz or .zst), read with ``options``.

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
        try:
            table = read_table(data, strip_compression(path), **options._asdict())
        except InputError as e:
            e.source = path            # name the file as given, .gz and all
            raise
    table.source = path
    return table


class FileRead(NamedTuple):
    """What reading one file chose and found, for the command to say: its rows, the
    text and id fields (detected or given; id None: row numbers), the notes of
    the reader (delimiter, header, which JSON array, encoding) and of the
    choice (a fixed field left out, an id passed over), what each field holds,
    and the file's other text fields (see
    :func:`~ngram_core.fields.other_text_fields`)."""
    path: str
    rows: int
    text_fields: list[str]
    id_field: str | None
    notes: list[str]
    stats: tuple[FieldStats, ...] = ()
    other_text: tuple[FieldStats, ...] = ()


def fields_of(reads: Sequence[FileRead]) -> list[str]:
    """The text fields read from one side's files, each once, in order."""
    return list(dict.fromkeys(f for read in reads for f in read.text_fields))


def load_rows(paths: Iterable[str], fields: Sequence[str] | None = None,
              id_field: str | None = None, options: ReadOptions = ReadOptions()) -> list[Row]:
    """Read one or several files as one list of rows, numbered 1.. across them."""
    return load_rows_by_file(paths, fields, id_field, options)[0]


def load_rows_by_file(paths: Iterable[str], fields: Sequence[str] | None = None,
                      id_field: str | None = None, options: ReadOptions = ReadOptions(),
                      like: Sequence[str] | None = None
                      ) -> tuple[list[Row], RowFiles, list[FileRead]]:
    """:func:`load_rows`, which file (named as given) each row came from, and what
    was read from each file. ``like``: the other file's detected text fields,
    read here too when a file has them all (see
    :func:`~ngram_core.fields.choose_fields`)."""
    rows: list[Row] = []
    starts: list[int] = []
    reads: list[FileRead] = []
    for path in paths:
        starts.append(len(rows))
        try:
            table = read_path_table(path, options)
            stats = field_stats(table)
            choice = choose_fields(table, stats, fields, id_field, like)
            selected = select_rows(table, choice.text_fields, choice.id_field or "")
        except InputError as e:
            e.source = path            # name the file as given, .gz and all
            raise
        reads.append(FileRead(path, len(selected), choice.text_fields, choice.id_field,
                              [*table.notes, *choice.notes], tuple(stats),
                              tuple(other_text_fields(stats, choice.text_fields))))
        offset = len(rows)
        rows.extend(row._replace(number=offset + i) for i, row in enumerate(selected, 1))
    return rows, RowFiles(tuple(starts), tuple(reads_path.path for reads_path in reads)), reads


def expand_paths(patterns: Iterable[str]) -> list[str]:
    """Globs and plain paths, in the order given; each glob's matches sorted."""
    paths: list[str] = []
    for pattern in patterns:
        matches = sorted(glob.glob(pattern)) if glob.has_magic(pattern) else [pattern]
        if not matches:
            raise InputError(pattern, "matches no file")
        paths.extend(matches)
    return paths


def parse_size(text: str | int, what: str = "size") -> int:
    """A byte count as people write it: plain bytes, or kB/MB/GB and KiB/MiB/GiB.
    ``what`` names the setting in the error."""
    units = {"kib": 2**10, "mib": 2**20, "gib": 2**30, "kb": 10**3, "mb": 10**6, "gb": 10**9,
             "b": 1}
    s = str(text).strip().lower()
    for unit, factor in units.items():
        if s.endswith(unit) and s[:-len(unit)].strip().replace(".", "", 1).isdigit():
            return int(float(s[:-len(unit)]) * factor)
    if s.isdigit():
        return int(s)
    raise InputError(what, f"is not a size: {text!r}")


def block_ranges(size: int, blocksize: int) -> list[tuple[int, int]]:
    """Cut ``size`` bytes into ``[start, end)`` ranges of at most ``blocksize``."""
    return [(start, min(start + blocksize, size)) for start in range(0, size, blocksize)]


def read_line_block(path: str, start: int, end: int) -> tuple[bytes, int]:
    """The lines that start inside bytes ``[start, end)`` of a file, and the offset of
    the first one. A line belongs to the block it starts in, so blocks never split
    a line and every line is in exactly one block."""
    with open(path, "rb") as f:
        if start:
            f.seek(start - 1)
            f.readline()               # the rest of a line that started in the block before
        first = f.tell()
        out = io.BytesIO()
        while f.tell() < end:
            line = f.readline()
            if not line:
                break
            out.write(line)
        return out.getvalue(), first


def iter_line_chunks(path: str, chunk_bytes: int) -> Iterator[tuple[bytes, int]]:
    """A whole file (decompressed as it streams when .gz or .zst) in pieces of about
    ``chunk_bytes`` that end at a line break, each with the count of lines before
    it: a 1 GB compressed shard is read in bounded memory, every line in exactly
    one piece."""
    try:
        with open(path, "rb") as f:
            stream: _Readable = _decompressing(path, f) if is_compressed(path) else f
            carry, lines = b"", 0
            while True:
                try:
                    data = stream.read(chunk_bytes)
                except Exception as e:      # corrupt archive: the file's fault
                    raise InputError(path, f"cannot be decompressed: {e}") from None
                if not data:
                    break
                data = carry + data
                cut = data.rfind(b"\n") + 1
                if cut == 0:                # no line break yet: a long line goes on
                    carry = data
                    continue
                piece, carry = data[:cut], data[cut:]
                yield piece, lines
                lines += piece.count(b"\n")
            if carry:
                yield carry, lines
    except OSError as e:
        raise InputError(path, f"cannot be read: {e.strerror or e}") from None


def lines_before(path: str, offset: int) -> int:
    """Lines that end before byte ``offset`` (counted only for an error message)."""
    with open(path, "rb") as f:
        return f.read(offset).count(b"\n")
