"""Paths -> bytes -> tables -> rows, for the command and the Dask engine (never the page).

The page reads files the browser hands it as bytes; everything that knows
about paths lives here: decompression (``.gz``, ``.zst``, ``.bz2``, ``.xz``), Parquet and Arrow
(Hugging Face datasets' ``save_to_disk`` files), several files read as one,
globs, and the line-aligned byte ranges a large file is cut into for the Dask
workers. Every problem is an
:class:`~ngram_core.errors.InputError` naming the path as it was given::

    >>> strip_compression("shard-00.jsonl.zst"), is_columnar("train.PQ"), is_columnar("data.arrow")
    ('shard-00.jsonl', True, True)
    >>> parse_size("64MiB"), parse_size("1.5kb"), parse_size(4096)
    (67108864, 1500, 4096)
    >>> block_ranges(size=10, blocksize=4)        # half-open [start, end)
    [(0, 4), (4, 8), (8, 10)]
"""

from __future__ import annotations

import bz2
import functools
import glob
import gzip
import io
import json
import lzma
import os
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any, BinaryIO, NamedTuple, Protocol

from ..errors import InputError, shown
from ..table import RowFiles
from .fields import (FieldSelection, FieldStats, choose_fields, field_stats, other_text_fields,
                     select_rows, shape_notes, unread_counts, unread_note)
from .readers import (decode_bytes, format_from_name, holds_utf8, is_utf16, read_table,
                      text_rows_read)
from .json_rows import SPLITS_B
from ..table import ReadOptions, Row, Table, fields_label, table_from_records

COMPRESSED_SUFFIXES = (".gz", ".zst", ".bz2", ".xz")
#: File A (the test set) is read whole: at most this many bytes of text, after
#: decompression (the largest public benchmarks are a few MB). B has no bound.
MAX_A_BYTES = 64 * 2**20
#: The first bytes of a text file looked at before it is read whole: a binary file,
#: or a JSONL file that is not JSON, is refused from them, whatever its size.
HEAD_BYTES = 64 * 2**10
PARQUET_SUFFIXES = (".parquet", ".pq")
#: Arrow's IPC formats: its file format (``.feather`` v2, pyarrow's writers) and its
#: stream format (Hugging Face datasets' ``save_to_disk`` and cache files).
ARROW_SUFFIXES = (".arrow", ".feather")


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


def is_columnar(path: str) -> bool:
    """A Parquet or Arrow file: read by pyarrow, in pieces (row groups, record
    batches), never as text."""
    return is_parquet(path) or path.lower().endswith(ARROW_SUFFIXES)


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


def _decompressing(path: str, f: BinaryIO) -> _Readable:
    """A compressed file's decompressed bytes as they stream, by its name's suffix."""
    lower = path.lower()
    if lower.endswith(".gz"):
        return gzip.GzipFile(fileobj=f)
    if lower.endswith(".bz2"):
        return bz2.BZ2File(f)
    if lower.endswith(".xz"):
        return lzma.LZMAFile(f)
    try:
        import zstandard
    except ImportError:
        raise InputError(path, "is zstd-compressed; install the zstandard package") from None
    return io.BufferedReader(ZstdFrames(f, zstandard.ZstdDecompressor()), 1 << 20)


class ZstdFrames(io.RawIOBase):
    """A zstd file's decompressed bytes, frame after frame (a file written in parts
    holds several), refusing a file that ends inside a frame: one cut short by a
    copy or a download gives its first rows and then an error, never those rows as
    if they were the whole file (as gzip, bzip2 and xz refuse one)::

        >>> import zstandard
        >>> frames = zstandard.ZstdCompressor().compress(b"a\\n" * 9) * 2
        >>> len(ZstdFrames(io.BytesIO(frames), zstandard.ZstdDecompressor()).read())
        36
        >>> ZstdFrames(io.BytesIO(frames[:-5]), zstandard.ZstdDecompressor()).read()
        Traceback (most recent call last):
        ValueError: the file ends inside a zstd frame: it was cut short
    """

    #: Compressed bytes fed at a time: a frame that decompresses 1,000-fold still
    #: gives at most 64 MB at once.
    FEED = 1 << 16

    def __init__(self, f: BinaryIO, decompressor: Any):
        super().__init__()
        self._f, self._decompressor = f, decompressor
        self._frame = decompressor.decompressobj()
        self._in_frame = False            # bytes of the current frame were fed
        self._out = b""
        self._at = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while self._at == len(self._out):
            data = self._f.read(self.FEED)
            if not data:
                if self._in_frame:
                    raise ValueError("the file ends inside a zstd frame: it was cut short")
                return 0
            self._out, self._at = self._decoded(data), 0
        size = min(len(buffer), len(self._out) - self._at)
        buffer[:size] = self._out[self._at:self._at + size]
        self._at += size
        return size

    def _decoded(self, data: bytes) -> bytes:
        """The bytes ``data`` decompresses to, each frame's end starting the next."""
        out = []
        while data:
            out.append(self._frame.decompress(data))
            self._in_frame = not self._frame.eof
            if self._in_frame:
                break
            data = self._frame.unused_data
            self._frame = self._decompressor.decompressobj()
        return b"".join(out)


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
    in .gz, .zst, .bz2 or .xz; only what ``limit`` asks for is decompressed."""
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
        raise _unreadable(path, e) from None


def _parquet_file(path: str) -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError(path, "is a Parquet file; install pyarrow to read it") from None
    try:
        return pq.ParquetFile(path)
    except Exception as e:        # any pyarrow failure is the file's fault
        raise InputError(path, f"is not a readable Parquet file: {e}") from None


def _arrow_batches(path: str) -> tuple[list, Any]:
    """An Arrow file's record batches and schema, memory-mapped (only the batches
    used are read): its file format, else its stream format."""
    try:
        import pyarrow as pa
    except ImportError:
        raise InputError(path, "is an Arrow file; install pyarrow to read it") from None
    try:
        try:
            reader = pa.ipc.open_file(pa.memory_map(path))
            batches = [reader.get_batch(i) for i in range(reader.num_record_batches)]
        except pa.ArrowInvalid:   # not the file format: the stream format, or neither
            reader = pa.ipc.open_stream(pa.memory_map(path))
            batches = list(reader)
        return batches, reader.schema
    except OSError as e:
        if e.errno is None:       # pyarrow's own, for bytes that are not an Arrow message
            raise InputError(path, f"is not a readable Arrow file ({_one_line(e)})") from None
        raise _unreadable(path, e) from None
    except Exception as e:        # any pyarrow failure is the file's fault
        raise InputError(path, f"is not a readable Arrow file ({_one_line(e)})") from None


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split())


def columnar_pieces(path: str, blocksize: int) -> list[tuple[int, int]]:
    """A Parquet or Arrow file cut for the Dask workers: half-open ranges
    [first, end) of its row groups (one each) or of its record batches (as many
    as hold about ``blocksize`` bytes: Hugging Face datasets write batches of
    1,000 rows, which one each would make thousands of partitions)."""
    if is_parquet(path):
        return [(group, group + 1) for group in range(int(_parquet_file(path).num_row_groups))]
    pieces, first, held = [], 0, 0
    batches = _arrow_batches(path)[0]
    for end, batch in enumerate(batches, 1):
        held += batch.nbytes
        if held >= blocksize:
            pieces.append((first, end))
            first, held = end, 0
    if first < len(batches):
        pieces.append((first, len(batches)))
    return pieces


def columnar_table(path: str, pieces: tuple[int, int] | None = None,
                   limit: int | None = None) -> Table:
    """A Parquet or Arrow file (or its row groups or record batches [first, end),
    see :func:`columnar_pieces`) as a Table, its first ``limit`` rows when given;
    needs pyarrow."""
    if is_parquet(path):
        fmt, source = "parquet", _parquet_file(path)
        try:
            data = source.read() if pieces is None else source.read_row_groups(range(*pieces))
        except Exception as e:        # any pyarrow failure is the file's fault
            raise InputError(path, f"is not a readable Parquet file: {e}") from None
    else:
        import pyarrow as pa

        fmt, (batches, schema) = "arrow", _arrow_batches(path)
        data = pa.Table.from_batches(batches if pieces is None else batches[slice(*pieces)], schema)
    records = _columnar_records(path, data.slice(0, limit) if limit else data)
    if not records:
        return Table(path, fmt, list(data.schema.names), [])
    return table_from_records(path, fmt, records)


def _columnar_records(path: str, data: Any) -> list[dict]:
    """A pyarrow table's rows as dicts, column by column: a string column holding
    bytes that are not UTF-8 is read as bytes (each such byte U+FFFD, see
    :func:`~ngram_core.table.scalar_text`); any other failure names the column."""
    import pyarrow as pa

    columns = {}
    for name, column in zip(data.schema.names, data.columns):
        try:
            try:
                values = column.to_pylist()
            except UnicodeDecodeError:
                values = _undecoded(column, pa).to_pylist()
        except Exception as e:        # any pyarrow failure is the file's fault
            raise InputError(path, f"column {name!r} cannot be read: {e}") from None
        if _holds_binary(column.type, pa):
            values = [_decoded(v) for v in values]
        columns[name] = values
    names = list(columns)
    return [dict(zip(names, values)) for values in zip(*columns.values())]


def _holds_binary(t: Any, pa: Any) -> bool:
    """Whether a column's values (or their items or fields) can be bytes."""
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t) \
            or pa.types.is_string(t) or pa.types.is_large_string(t):
        return True
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return _holds_binary(t.value_type, pa)
    if pa.types.is_struct(t):
        return any(_holds_binary(f.type, pa) for f in t)
    return False


def _decoded(value: Any) -> Any:
    """Bytes anywhere in a value as text, as a file's bytes are read (UTF-8; a byte
    that is not, U+FFFD)."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, list):
        return [_decoded(v) for v in value]
    if isinstance(value, dict):
        return {k: _decoded(v) for k, v in value.items()}
    return value


def _undecoded(column: Any, pa: Any) -> Any:
    """A string column (or one holding strings in lists or structs) viewed as bytes."""
    def as_binary(t):
        if pa.types.is_string(t):
            return pa.binary()
        if pa.types.is_large_string(t):
            return pa.large_binary()
        if pa.types.is_list(t):
            return pa.list_(as_binary(t.value_type))
        if pa.types.is_large_list(t):
            return pa.large_list(as_binary(t.value_type))
        if pa.types.is_struct(t):
            return pa.struct([pa.field(f.name, as_binary(f.type)) for f in t])
        return t
    return column.cast(as_binary(column.type))


def read_path_table(path: str, options: ReadOptions = ReadOptions(),
                    head: int | None = None) -> Table:
    """One file as a Table: Parquet or Arrow (nested columns flattened as JSON's
    are), or text (decompressed when .gz, .zst, .bz2 or .xz), read with ``options``.

    ``head`` reads only the whole lines in the first ``head`` bytes, or the first
    line when it is longer (the first 1,000 rows of a Parquet or Arrow file), enough to
    detect its fields. A text file's first :data:`HEAD_BYTES` are looked at
    before the rest is read (:func:`check_head`); file A (``options.role == "a"``) is refused past
    :data:`MAX_A_BYTES`, before more than that is decompressed.
    """
    if is_columnar(path):
        first = (0, 1) if head and is_parquet(path) else None  # an Arrow file's batches are small
        table = columnar_table(path, first, 1000 if head else None)
        if not table.records:
            raise InputError(path, "has no rows")
        table.source = path
        return table
    try:
        check_head(read_file_bytes(path, HEAD_BYTES if head is None else min(head, HEAD_BYTES)),
                   path, options)
        if head is not None:
            data = read_head_lines(path, head)
        else:
            limit = MAX_A_BYTES + 1 if options.role == "a" else None
            data = read_file_bytes(path, limit)
            if limit is not None and len(data) > MAX_A_BYTES:
                raise InputError(path, f"holds more than {MAX_A_BYTES // 2**20} MiB of text: "
                                       f"file A, the test set, is read whole and is bounded "
                                       f"there (the training data, file B, is not)")
        table = read_table(data, strip_compression(path), **options._asdict())
    except InputError as e:
        e.source = path            # name the file as given, .gz and all
        raise
    table.source = path
    return table


def _complete_lines(data: bytes) -> bytes:
    r"""The bytes up to the last line break, or none when the first line does not
    end in them. UTF-16 (with its mark) is cut after its last two-byte break::

        >>> _complete_lines(b'{"a": 1}\n{"a": 2')
        b'{"a": 1}\n'
        >>> _complete_lines("\ufeffab\ncd".encode("utf-16-le"))   # BOM, a, b, LF | c, d
        b'\xff\xfea\x00b\x00\n\x00'
        >>> _complete_lines(b'{"text": "a first line longer than the bytes re')
        b''
    """
    if is_utf16(data):
        newline = b"\n\x00" if data.startswith(b"\xff\xfe") else b"\x00\n"
        at = data.rfind(newline, 2, len(data) - len(data) % 2)
        while at >= 0 and at % 2:                   # the second byte of one unit and the
            at = data.rfind(newline, 2, at + 1)     # first of the next: look further back
        return data[:at + 2] if at >= 0 else b""
    return data[:data.rfind(b"\n") + 1]


def _whole_characters(data: bytes) -> bytes:
    """The bytes up to the last whole character (UTF-8, or UTF-16 with its mark: a
    high surrogate without its pair is left out too)."""
    end = len(data)
    if is_utf16(data):
        end -= end % 2
        if end > 2 and 0xD8 <= data[end - 1 if data.startswith(b"\xff\xfe") else end - 2] <= 0xDB:
            end -= 2
        return data[:end]
    while end and data[end - 1] & 0xC0 == 0x80 and len(data) - end < 3:
        end -= 1                        # continuation bytes of a character cut off
    if end and data[end - 1] >= 0xC0:
        end -= 1                        # its first byte
    return data[:end]


def read_head_lines(path: str, limit: int, most: int | None = None) -> bytes:
    """The whole lines in a file's first ``limit`` bytes, or more when its first
    line is longer (a document on one line of JSON Lines): never part of a line.
    The whole file when it is that short. ``most``: read no more than that many bytes
    (none when the first line is longer)."""
    while True:
        data = read_file_bytes(path, limit)
        if len(data) < limit:
            return data                 # the whole file
        lines = _complete_lines(data)
        if lines or (most is not None and limit >= most):
            return lines
        limit = min(limit * 4, most) if most is not None else limit * 4


def check_head(head: bytes, path: str, options: ReadOptions = ReadOptions()) -> None:
    r"""Refuse a file from its first bytes: not text (NUL bytes, a known binary
    format, UTF-16 without a byte-order mark, bytes that are neither UTF-8 nor
    Windows-1252), or, for a file named ``.jsonl``/``.ndjson``, a first line
    that is not JSON, with the line named (when the first bytes hold a whole
    line: a longer one is read in full later). ``/dev/zero`` or a 3 GB archive
    of something else is refused at once, never read whole::

        >>> check_head(b"\x00" * 100, "zero.jsonl")
        Traceback (most recent call last):
        ...
        ngram_core.errors.InputError: zero.jsonl, line 1: contains a NUL character: this looks like a binary file, not text
    """
    lines = _complete_lines(head)
    cut = lines or _whole_characters(head)
    if not cut:
        return
    decode_bytes(cut, path)
    # JSON Lines by name: its first lines checked, unless it opens an array (a JSON
    # document named .jsonl, as the whole file's reading tells)
    if lines.strip() and (options.format or format_from_name(strip_compression(path))) == "jsonl" \
            and not (options.format is None and lines.lstrip()[:1] == b"["):
        try:
            read_table(lines, strip_compression(path), "jsonl")   # its first lines, as JSONL
        except InputError as e:
            e.source = path            # the file as given, .gz and all
            raise


class FileRead(NamedTuple):
    """What reading one file chose and found, for the command to say: its rows, the
    text and id fields (detected or given; id None: row numbers), the notes of
    the reader (delimiter, header, which JSON array, encoding) and of the
    choice (a fixed field left out, an id passed over), what each field holds,
    and the file's other text fields (see
    :func:`~ngram_core.read.fields.other_text_fields`)."""
    path: str
    rows: int
    text_fields: list[str]
    id_field: str | None
    notes: list[str]
    stats: tuple[FieldStats, ...] = ()
    other_text: tuple[FieldStats, ...] = ()
    #: how a plain-text file was cut into rows (``line``, ``paragraph``, ``conll``;
    #: None: not plain text, or read whole)
    text_rows: str | None = None
    #: rows whose text is only in fields not read (see ``Row.unread``), and those fields
    unread: int = 0
    unread_in: tuple[str, ...] = ()
    #: a training JSON document's other top-level arrays beside the split read (IMDB's
    #: ``unsupervised`` beside ``train``) and their items: not searched, said
    arrays_left: tuple[tuple[str, int], ...] = ()


def file_read(path: str, rows: int, table: Table, stats: list[FieldStats],
              choice: FieldSelection, role: str | None = None) -> FileRead:
    """What reading ``path`` chose and found (see :class:`FileRead`); ``role`` ``"b"``:
    a training file, whose other arrays beside the ``train`` split read are named."""
    cut = text_rows_read(table) if table.format == "text" and len(table.fields) == 1 else None
    left: tuple[tuple[str, int], ...] = ()
    if role == "b" and table.format == "json" and (table.records_path or "").lower() in SPLITS_B:
        left = tuple((a.path, a.items) for a in table.arrays
                     if a.path != table.records_path and a.path and "." not in a.path
                     and a.items)
    return FileRead(shown(path), rows, choice.text_fields, choice.id_field,
                    [*table.notes, *choice.notes], tuple(stats),
                    tuple(other_text_fields(stats, choice.text_fields)), cut,
                    arrays_left=left)


def is_empty_file(path: str) -> bool:
    """Whether a file (decompressed) holds nothing but white space: a training file that
    cleaning emptied, read among others as a file of no rows."""
    if is_columnar(path):
        return False
    try:
        head = read_file_bytes(path, HEAD_BYTES + 1)
    except (InputError, OSError):
        return False
    return len(head) <= HEAD_BYTES and not head.strip()


def emptied_files(paths: Sequence[str]) -> list[bool]:
    """Which of several training files are empty (:func:`is_empty_file`), to be read as
    files of no rows; one file alone is never (it is refused when read), and every
    file empty is refused here."""
    empty = [len(paths) > 1 and is_empty_file(path) for path in paths]
    if empty and all(empty):
        raise InputError(paths[0], "is empty: it has no rows, nor has any other training file")
    return empty


def empty_read(path: str) -> FileRead:
    """What reading an empty training file found (see :func:`is_empty_file`)."""
    return FileRead(shown(path), 0, [], None, ["is empty: it has no rows"])


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
    :func:`~ngram_core.read.fields.choose_fields`)."""
    rows: list[Row] = []
    starts: list[int] = []
    reads: list[FileRead] = []
    paths = list(paths)
    empty = emptied_files(paths) if options.role == "b" else [False] * len(paths)
    for path, nothing in zip(paths, empty):
        starts.append(len(rows))
        if nothing:                    # a training file emptied by cleaning, among others
            reads.append(empty_read(path))
            continue
        try:
            table = read_path_table(path, options)
            stats = field_stats(table)
            choice = choose_fields(table, stats, fields, id_field, like)
            reading = choice.reading
            if options.role == "b":        # a label field's sentences are searched too
                reading = replace(reading, training=True)
            selected = select_rows(table, reading, choice.id_field or "")
            read_fields, notes = shape_notes(table, reading)
            choice = choice._replace(text_fields=read_fields, notes=[*choice.notes, *notes])
        except InputError as e:
            e.source = path            # name the file as given, .gz and all
            raise
        unread, unread_in = unread_counts(row for row in selected if row.unread)
        reads.append(file_read(path, len(selected), table, stats, choice, options.role)._replace(
            unread=unread, unread_in=unread_in))
        offset = len(rows)
        rows.extend(row._replace(number=offset + i) for i, row in enumerate(selected, 1))
    return rows, RowFiles(tuple(starts), tuple(reads_path.path for reads_path in reads)), reads


#: B files of at most this many bytes in all (plain, uncompressed text) are indexed
#: whole, as the page does, where that is fastest; any larger B is streamed past
#: A's index. Both give the same bytes (tested).
INDEX_B_BYTES = 8 * 2**20
#: ... and of at most this many lines: a row indexed whole costs about 600 bytes
#: however short, so 8 MB of one-word lines (1.3 million rows) would take 750 MB
#: where streamed they take what A does.
INDEX_B_LINES = 200_000


def index_b_whole(paths: Sequence[str]) -> bool:
    """Whether B is small enough to index whole (see :data:`INDEX_B_BYTES` and
    :data:`INDEX_B_LINES`): plain files, none compressed, Parquet or Arrow, of at
    most that many bytes and lines together."""
    total = lines = 0
    for path in paths:
        if is_compressed(path) or is_columnar(path) or not os.path.isfile(path):
            return False
        total += os.path.getsize(path)
        if total > INDEX_B_BYTES:
            return False
    for path in paths:
        with open(path, "rb") as f:
            lines += f.read().count(b"\n")
        if lines > INDEX_B_LINES:
            return False
    return True


#: What ``Dataset.save_to_disk`` writes beside its ``.arrow`` files: a description, no
#: rows (a glob of the folder passes over them).
SAVED_DATASET_FILES = ("dataset_info.json", "state.json", "dataset_dict.json")


def expand_paths(patterns: Iterable[str]) -> list[str]:
    """Globs and plain paths, in the order given; each glob's matches sorted. ``**``
    matches any number of folders, as a shell with ``globstar`` does
    (``'mix/**/*.jsonl.zst'`` reads ``mix/a.jsonl.zst`` and
    ``mix/web/en/part-0.jsonl.zst``); folders a glob matches beside files are
    passed over, and so are a saved dataset's description files beside its
    ``.arrow`` files. A folder given, or a glob that matches only folders, is refused,
    naming a glob of its files (a folder often holds a README or a dataset card
    beside the data).

        >>> import tempfile
        >>> with tempfile.TemporaryDirectory() as top:
        ...     for name in ("a.jsonl", "web/en/b.jsonl", "web/c.txt"):
        ...         os.makedirs(os.path.dirname(os.path.join(top, name)), exist_ok=True)
        ...         open(os.path.join(top, name), "w").close()
        ...     [os.path.relpath(p, top) for p in expand_paths([os.path.join(top, "**/*.jsonl")])]
        ['a.jsonl', 'web/en/b.jsonl']
    """
    paths: list[str] = []
    for pattern in patterns:
        if not glob.has_magic(pattern):
            if os.path.isdir(pattern):
                raise folder_error(pattern)
            paths.append(pattern)
            continue
        matches = sorted(set(glob.glob(pattern, recursive=True)))
        files = [path for path in matches if not os.path.isdir(path)]
        arrow_folders = {os.path.dirname(path) for path in files if path.endswith(".arrow")}
        files = [path for path in files if os.path.basename(path) not in SAVED_DATASET_FILES
                 or os.path.dirname(path) not in arrow_folders]
        if not files:
            if matches:
                raise folder_error(matches[0])
            raise InputError(pattern, "matches no file")
        paths.extend(files)
    return paths


def one_test_file(data: str) -> str:
    """A test set's one file: a path, or a glob matching exactly one file. A glob of
    several files is refused, naming them: a test set is one file, and several are a
    suite (``ngram-overlap decontaminate``), each checked and counted on its own.

        >>> one_test_file("static/examples/test-set.json")
        'static/examples/test-set.json'
        >>> one_test_file("static/examples/*.json")
        Traceback (most recent call last):
        ...
        ngram_core.errors.InputError: static/examples/*.json: matches 2 files (test-set.json, training-corpus.json): a test set is one file; check several at once with decontaminate (ngram-overlap decontaminate EVALS... --train TRAIN)
    """
    paths = expand_paths([data])
    if len(paths) > 1:
        raise several_test_files(data, paths)
    return paths[0]


def several_test_files(source: str, paths: Sequence[str]) -> InputError:
    """The refusal of several files given as one test set (see :func:`one_test_file`)."""
    names = [os.path.basename(p) for p in paths]
    listed = ", ".join(names[:5]) + (f" and {len(names) - 5:,} more" if len(names) > 5 else "")
    return InputError(source, f"matches {len(paths):,} files ({listed}): a test set is one "
                              f"file; check several at once with decontaminate "
                              f"(ngram-overlap decontaminate EVALS... --train TRAIN)")


def _suffix(name: str) -> str:
    """``"train-00.jsonl.gz"`` -> ``".jsonl.gz"``: the format's extension and any
    compression's."""
    plain = strip_compression(name)
    return os.path.splitext(plain)[1] + name[len(plain):]


def file_identity(path: str) -> tuple[int, int] | None:
    """A file's device and inode (None: it cannot be looked at): one file however named."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _unreadable(path: str, error: OSError) -> InputError:
    """The message for a file the system would not read: a folder names a glob of
    its files (:func:`folder_error`); anything else, the system's reason."""
    if os.path.isdir(path):
        return folder_error(path)
    return InputError(path, f"cannot be read: {error.strerror or error}")


def folder_error(path: str) -> InputError:
    """The message for a folder given where a file is read: a glob of the kind of
    file that holds most of its bytes (``'shards/*.jsonl'``; Hugging Face's
    save_to_disk folder: its ``.arrow`` data, not its two small ``.json``
    files), quoted for the shell.

        >>> import tempfile
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     for name in ("a.jsonl", "b.jsonl", "README.md"):
        ...         open(os.path.join(folder, name), "w").close()
        ...     str(folder_error(folder)).endswith("/*.jsonl' (quoted), or its files one by one")
        True
    """
    splits = _dataset_dict_splits(path)
    if splits:
        split = "train" if "train" in splits else splits[0]
        pattern = os.path.join(path, split, "*.arrow")
        return InputError(path, f"is a Hugging Face DatasetDict folder (splits: "
                                f"{', '.join(splits)}): give one split's data, such as "
                                f"'{pattern}' (quoted)")
    suffixes: Counter = Counter()
    try:
        for entry in os.scandir(path):
            if entry.is_file() and not entry.name.startswith("."):
                suffixes[_suffix(entry.name)] += entry.stat().st_size + 1
    except OSError:
        pass
    below = not suffixes             # only folders in it: the files in them, at any depth
    if below:
        for top, dirs, files in os.walk(path):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            for name in files:
                if not name.startswith("."):
                    try:
                        suffixes[_suffix(name)] += os.path.getsize(os.path.join(top, name)) + 1
                    except OSError:
                        pass
    suffixes.pop("", None)
    suffix = suffixes.most_common(1)[0][0] if suffixes else ""
    pattern = os.path.join(path, "**" if below and suffixes else "", f"*{suffix}")
    return InputError(path, f"is a folder: give the files to read, such as '{pattern}' "
                            f"(quoted), or its files one by one")


def _dataset_dict_splits(path: str) -> list[str]:
    """The splits of a folder ``DatasetDict.save_to_disk`` wrote (its
    ``dataset_dict.json`` lists them, each a folder of ``.arrow`` data), else none."""
    try:
        with open(os.path.join(path, "dataset_dict.json"), encoding="utf-8") as f:
            splits = json.load(f).get("splits")
    except (OSError, ValueError, AttributeError):
        return []
    if not isinstance(splits, list):
        return []
    return [str(s) for s in splits if os.path.isdir(os.path.join(path, str(s)))]


def parse_size(text: str | int, what: str = "size") -> int:
    """A whole number of bytes as people write it: plain bytes, or kB/MB/GB and
    KiB/MiB/GiB. ``what`` names the setting in the error; a size that is no whole
    number of bytes (``0.5b``, ``1.0000001kb``) is refused, never rounded::

        >>> parse_size("0.5b", "--blocksize")
        Traceback (most recent call last):
        ...
        ngram_core.errors.InputError: --blocksize: is not a whole number of bytes: '0.5b'
    """
    units = {"kib": 2**10, "mib": 2**20, "gib": 2**30, "kb": 10**3, "mb": 10**6, "gb": 10**9,
             "b": 1}
    s = str(text).strip().lower()
    for unit, factor in units.items():
        number = s[:-len(unit)].strip()
        if s.endswith(unit) and number.replace(".", "", 1).isdigit():
            size = Fraction(number) * factor
            if size.denominator != 1:
                raise InputError(what, f"is not a whole number of bytes: {text!r}")
            return int(size)
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


def file_holds_utf8(path: str) -> bool:
    """Whether a file (decompressed) holds a UTF-8 multi-byte sequence anywhere: a
    piece of it that is not UTF-8 is then damage, not Windows-1252, as when the file
    is read whole (see :func:`~ngram_core.read.readers.windows_1252`). Read only
    when a piece needs that answer, once a version of the file in a process."""
    st = os.stat(path)
    return _file_holds_utf8(path, st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=64)
def _file_holds_utf8(path: str, size: int, mtime_ns: int) -> bool:
    tail = b""
    for data, _ in iter_line_chunks(path, 1 << 22):
        if holds_utf8(tail + data[:3]) or holds_utf8(data):
            return True
        tail = data[-3:]
    return False


def iter_line_chunks(path: str, chunk_bytes: int) -> Iterator[tuple[bytes, int]]:
    """A whole file (decompressed as it streams when .gz, .zst, .bz2 or .xz) in pieces of about
    ``chunk_bytes`` that end at a line break, each with the count of lines before
    it: a 1 GB compressed shard is read in bounded memory, every line in exactly
    one piece."""
    try:
        with open(path, "rb") as f:
            stream: _Readable = _decompressing(path, f) if is_compressed(path) else f
            pending: list[bytes] = []       # a line's start, read but not yet ended
            lines = 0
            while True:
                try:
                    data = stream.read(chunk_bytes)
                except Exception as e:      # corrupt archive: the file's fault
                    raise InputError(path, f"cannot be decompressed: {e}") from None
                if not data:
                    break
                cut = data.rfind(b"\n") + 1
                if cut == 0:                # no line break yet: a long line goes on, kept
                    pending.append(data)    # in parts (joined once: linear in the line)
                    continue
                parts = [*pending, data[:cut]]
                pending = [data[cut:]] if cut < len(data) else []
                data = b""
                count = sum(part.count(b"\n") for part in parts)
                yield _drained(parts), lines    # held by the reader only (a 50 MB line)
                lines += count
            if pending:
                yield _drained(pending), lines
    except OSError as e:
        raise _unreadable(path, e) from None


def text_lines(path: str, encoding: str = "utf-8") -> Iterator[str]:
    """A file's lines as text, each with its line break as it is (``\\r\\n``, ``\\r``
    or ``\\n``, as ``newline=""`` gives the csv module), decompressed as it streams
    when compressed (.gz, .zst, .bz2, .xz): one line at a time, never the whole file. A decoding error
    raises UnicodeDecodeError; a corrupt archive or an unreadable file, an InputError."""
    try:
        with open(path, "rb") as f:
            stream: Any = _decompressing(path, f) if is_compressed(path) else f
            text = io.TextIOWrapper(stream, encoding=encoding, newline="")
            while True:
                try:
                    line = text.readline()
                except UnicodeDecodeError:
                    raise
                except OSError:
                    raise
                except Exception as e:      # corrupt archive: the file's fault
                    raise InputError(path, f"cannot be decompressed: {e}") from None
                if not line:
                    return
                yield line
    except OSError as e:
        raise _unreadable(path, e) from None


def _drained(parts: list[bytes]) -> bytes:
    """``parts`` joined, the list emptied: the joined bytes are then held by their
    reader alone, not by a suspended generator too."""
    joined = parts[0] if len(parts) == 1 else b"".join(parts)
    parts.clear()
    return joined


def lines_before(path: str, offset: int) -> int:
    """Lines that end before byte ``offset`` (counted only for an error message)."""
    with open(path, "rb") as f:
        return f.read(offset).count(b"\n")


def describe_read(role: str, read: FileRead) -> str:
    """``"A test.csv: 120 rows, text from contents, id from Doc ID; semicolon-separated..."``"""
    ident = read.id_field if read.id_field is not None else "(row numbers)"
    rows = f"{read.rows:,} row{'' if read.rows == 1 else 's'}"
    parts = [f"{role} {read.path}: {rows}, text from "
             f"{fields_label(read.text_fields) or '(no field)'}, id from {ident}", *read.notes]
    if read.unread:
        parts.append(unread_note(read.unread, read.unread_in))
    return "; ".join(parts) + "."


def unread_warning(files: Sequence[tuple[str, int, Sequence[str]]]) -> str | None:
    """The last line of a run in which a training file has unread rows (``files``:
    each file's path, unread rows and the fields their text is in), else None.

        >>> unread_warning([("a.jsonl", 2, ["body"]), ("b.jsonl", 0, [])])
        'Warning: 2 training rows unread (a.jsonl: 2): their text is only in fields not read (body); they are not searched and not counted as clean: read them with --b-field'
    """
    files = [f for f in files if f[1]]
    if not files:
        return None
    total = sum(count for _, count, _ in files)
    where = ", ".join(f"{path}: {count:,}" for path, count, _ in files[:3]) + \
        (f" and {len(files) - 3:,} more files" if len(files) > 3 else "")
    fields = fields_label(dict.fromkeys(f for _, _, names in files for f in names))
    rows = "1 training row" if total == 1 else f"{total:,} training rows"
    return (f"Warning: {rows} unread ({where}): {'its' if total == 1 else 'their'} text is "
            f"only in fields not read ({fields}); they are not searched and not counted as "
            f"clean: read them with --b-field")


def arrays_warning(reads: Sequence[FileRead]) -> str | None:
    """A line for the training files whose JSON holds rows in arrays beside the split
    read (not searched), else None::

        >>> r = FileRead("imdb.json", 50, ["text"], None, [], arrays_left=(("unsupervised", 50),))
        >>> arrays_warning([r])
        'Warning: imdb.json: 50 rows in other arrays than the one read (`unsupervised`: 50) are not searched: search them with --b-records unsupervised'
    """
    lines = []
    for read in reads:
        if read.arrays_left:
            total = sum(items for _, items in read.arrays_left)
            listed = ", ".join(f"`{path}`: {items:,}" for path, items in read.arrays_left)
            lines.append(f"Warning: {read.path}: {total:,} row{'s' if total != 1 else ''} in "
                         f"other arrays than the one read ({listed}) "
                         f"{'are' if total != 1 else 'is'} not searched: search them with "
                         f"--b-records {read.arrays_left[0][0]}")
    return "\n".join(lines) or None


def file_stamps(paths: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Each file's size and modification time, to tell whether it changed while read."""
    stamps = {}
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            continue                 # the reader says what is wrong with it
        stamps[path] = (st.st_size, st.st_mtime_ns)
    return stamps


def check_unchanged(stamps: dict[str, tuple[int, int]]) -> None:
    """Refuse a result read from a file that changed while it was read (a training
    file still being written, cut or replaced): its rows are those of neither version."""
    for path, stamp in stamps.items():
        try:
            st = os.stat(path)
            now = (st.st_size, st.st_mtime_ns)
        except OSError:
            now = None
        if now != stamp:
            raise InputError(path, "changed while it was read (size or time): the result "
                                   "would be of neither version; nothing written")
