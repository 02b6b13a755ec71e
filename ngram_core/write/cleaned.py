r"""Stage 5 (writers): a training file without the rows found to hold an eval, in its
own format and compression.

Contract: :func:`cleaned_writer` gives a function that writes the file's bytes
with the removed rows' bytes left out, streaming (a file of any size): each kept
row byte for byte as read, in order, and everything that is no row kept too (a
CSV's header and any lines above it, blank lines between rows); compressed as
the file is, by its name (``.gz``, ``.zst``, ``.bz2``, ``.xz``). A row is what
the reading numbers as one (1-based, in file order): a non-blank line of JSON
Lines, a line of text, a record of a CSV or TSV (its quoted line breaks and
the blank lines after it go with it), a block of lines or a sentence of a text
file read so, an item of a JSON array (the kept items written one per line
between ``[`` and ``]``, each as read). A Parquet or Arrow file is rewritten:
the kept rows, in order, with the file's schema. Any other JSON document, and
a UTF-16 file, is refused in one line::

    >>> import io, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "train.jsonl")
    >>> _ = open(path, "w").write('{"text": "a"}\n\n{"text": "b"}\n{"text": "c"}\n')
    >>> out = io.BytesIO()
    >>> cleaned_writer(path, ReadOptions(format="jsonl"), [2])(out)
    >>> out.getvalue()
    b'{"text": "a"}\n\n{"text": "c"}\n'

On a cluster each worker writes pieces of the cleaned files (:class:`CleanedPiece`,
:func:`cleaned_pieces`): a whole file, or the lines of one byte range of a
line-based file that is not compressed; the pieces joined in order are the
same bytes as :func:`cleaned_writer`'s::

    >>> pieces = cleaned_pieces(path, ReadOptions(format="jsonl"), None, [2],
    ...                         [(0, 10, 0), (10, 43, 1)])
    >>> [(p.start, p.end, p.first_row, p.removed) for p in pieces]
    [(0, 10, 0, ()), (10, 43, 1, (2,))]
    >>> out = io.BytesIO()
    >>> for piece in pieces:
    ...     piece.writer()(out)
    >>> out.getvalue()
    b'{"text": "a"}\n\n{"text": "c"}\n'
"""

from __future__ import annotations

import bz2
import gzip
import io
import itertools
import lzma
import os
import shutil
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, BinaryIO, NamedTuple

from ..errors import InputError
from ..read.files import (is_columnar, is_compressed, is_parquet, read_file_bytes,
                          read_line_block, read_path_table, text_lines)
from ..read.readers import is_utf16
from ..read.record_stream import (DelimitedLayout, NotStreamable, delimited_layout,
                                  delimited_tables, json_array_raw)
from ..table import ReadOptions
from .outputs import unlink_quietly

Writer = Callable[[BinaryIO], None]


def cleaned_writer(path: str, options: ReadOptions, removed: Sequence[int],
                   layout: DelimitedLayout | None = None) -> Writer:
    """A function writing ``path`` without the rows numbered in ``removed`` (1-based,
    ascending), read as ``options`` (its format set) reads it; ``layout``: a CSV's, as
    its check decided it (else decided again here)."""
    if is_columnar(path):
        return lambda out: _columnar(path, set(removed), out)
    if is_utf16(read_file_bytes(path, 4)):
        raise InputError(path, "is UTF-16: no cleaned copy is written of it (save it as "
                               "UTF-8 to have one)")
    if options.format == "json":
        return lambda out: _compressed(path, out,
                                       lambda f: _json_array(path, options, set(removed), f))
    starts_row = _line_rows(options)
    if starts_row is not None:          # each line says whether it starts a row: one pass
        return lambda out: _compressed(path, out,
                                       lambda f: _by_line(path, starts_row, removed, f))
    starts = _row_starts(path, options, layout)
    return lambda out: _compressed(path, out, lambda f: _lines(path, starts(), removed, f))


#: UTF-8's byte-order mark, as bytes and as the file's first line read as Latin-1
#: begins with it: no row's, the file's, so it stays when the first row is removed.
UTF8_BOM = b"\xef\xbb\xbf"
LATIN1_BOM = UTF8_BOM.decode("latin-1")


def _line_rows(options: ReadOptions) -> Callable[[str], bool] | None:
    """For a file whose every row is one line: whether a line (read as Latin-1) is a
    row; None for other files."""
    if options.format == "jsonl":        # a blank line is no row
        return lambda line: bool(line.encode("latin-1").decode("utf-8", "replace").strip())
    if options.format == "text" and options.text_rows in (None, "line"):
        return lambda line: True
    return None


def _by_line(path: str, starts_row: Callable[[str], bool], removed: Sequence[int],
             out: BinaryIO, lines: Iterable[str] | None = None, first_row: int = 0) -> None:
    """:func:`_lines` in one pass, for a file whose rows are lines (``lines``: the
    file's, or a block's whose first row follows ``first_row`` rows)."""
    left = set(removed)
    row = first_row
    dropping = row in left           # a block's first lines that start no row go with
    left.discard(row)                # the removed row before them
    first = first_row == 0           # the file's first line: its byte-order mark stays
    for line in text_lines(path, "latin-1") if lines is None else lines:
        if starts_row(line):
            row += 1
            dropping = row in left
            left.discard(row)
        if not dropping:
            out.write(line.encode("latin-1"))
        elif first and line.startswith(LATIN1_BOM):
            out.write(UTF8_BOM)
        first = False
    if left:
        raise InputError(path, f"has no row {min(left)}: it changed since it was checked")


class CleanedPiece(NamedTuple):
    """A piece of a cleaned training file, written where it is run (a worker): bytes
    ``[start, end)`` of a line-based file that is not compressed, whose first row
    follows ``first_row`` rows (``end`` -1: the whole file, in any format), without
    the rows numbered in ``removed`` (1-based in the file, ascending; row
    ``first_row`` among them when it is removed: the lines that start the block
    and no row went with it)."""
    path: str
    options: ReadOptions
    layout: DelimitedLayout | None
    start: int
    end: int
    first_row: int
    removed: tuple[int, ...]

    def writer(self) -> Writer:
        if self.end < 0:
            return cleaned_writer(self.path, self.options, self.removed, self.layout)
        starts_row = _line_rows(self.options)
        assert starts_row is not None

        def write(out: BinaryIO) -> None:
            block, _ = read_line_block(self.path, self.start, self.end)
            lines = io.TextIOWrapper(io.BytesIO(block), encoding="latin-1", newline="")
            _by_line(self.path, starts_row, self.removed, out, lines, self.first_row)
        return write

    def write_to(self, target: str) -> InputError | None:
        """Write the piece as the file ``target``: whole beside it first, then renamed,
        so a try cut short (a worker lost) leaves no piece under that name and the
        next try writes it again. An error is returned, not raised (a worker's result)."""
        partial = f"{target}.{os.getpid()}-{threading.get_ident()}.partial"
        try:
            with open(partial, "wb") as f:
                self.writer()(f)
            os.replace(partial, target)
        except InputError as e:
            unlink_quietly(partial)
            return e
        except OSError as e:
            unlink_quietly(partial)
            return InputError(target, f"cannot be written: {e.strerror or e}")
        return None


def cleaned_pieces(path: str, options: ReadOptions, layout: DelimitedLayout | None,
                   removed: Sequence[int], parts: Sequence[tuple[int, int, int]]
                   ) -> list[CleanedPiece]:
    """The pieces a cleaned copy of ``path`` is written in: one per byte range of
    ``parts`` (``(start, end, rows before it)``, in order, as the check read them)
    where the file is line-based and not compressed, else the whole file."""
    if (len(parts) < 2 or any(end < 0 for _, end, _ in parts) or is_compressed(path)
            or is_columnar(path) or _line_rows(options) is None):
        return [CleanedPiece(path, options, layout, 0, -1, 0, tuple(removed))]
    pieces = []
    for k, (start, end, first_row) in enumerate(parts):
        last = parts[k + 1][2] if k + 1 < len(parts) else None
        mine = tuple(r for r in removed if r >= first_row and (last is None or r <= last))
        pieces.append(CleanedPiece(path, options, layout, start, end, first_row, mine))
    return pieces


def join_pieces(paths: Sequence[str]) -> Writer:
    """A writer of the files at ``paths`` one after the other (pieces written by the
    workers), byte for byte."""
    def write(out: BinaryIO) -> None:
        for path in paths:
            with open(path, "rb") as f:
                shutil.copyfileobj(f, out, 1 << 20)
    return write


def _row_starts(path: str, options: ReadOptions, layout: DelimitedLayout | None
                ) -> Callable[[], Iterator[int]]:
    """Each row's first line (1-based) in file order, as the reading finds it."""
    if options.format in ("csv", "tsv"):
        layout = layout or delimited_layout(path, options)
        if layout is not None:
            return lambda: (line for table in delimited_tables(path, layout, 1 << 20)
                            for line in table.lines)
    lines = read_path_table(path, options).lines     # read whole, as its check read it
    return lambda: iter(lines)


def _lines(path: str, starts: Iterable[int], removed: Sequence[int], out: BinaryIO) -> None:
    """The file's lines but those of removed rows: row k's lines run from its first
    line to the next row's first (the last row's, to the end of the file). Lines
    are read as Latin-1 so every byte comes back as it was."""
    starts_iter = iter(starts)
    cuts: list[tuple[int, int]] = []          # [first, next first) of each removed row
    row, wanted = 0, iter(removed)
    target = next(wanted, None)
    start = next(starts_iter, None)
    while target is not None and start is not None:
        row += 1
        following = next(starts_iter, None)
        if row == target:
            cuts.append((start, following if following is not None else 1 << 62))
            target = next(wanted, None)
        start = following
    if target is not None:
        raise InputError(path, f"has no row {target}: it changed since it was checked")
    cut_at = iter(cuts)
    cut = next(cut_at, None)
    for number, line in enumerate(text_lines(path, "latin-1"), 1):
        while cut is not None and number >= cut[1]:
            cut = next(cut_at, None)
        if cut is not None and cut[0] <= number < cut[1]:
            if number == 1 and line.startswith(LATIN1_BOM):   # the file's mark stays
                out.write(UTF8_BOM)
            continue
        out.write(line.encode("latin-1"))


def _json_array(path: str, options: ReadOptions, removed: set[int], out: BinaryIO) -> None:
    """A JSON array's kept items, as read, one per line between brackets. A JSON
    object read as one row (a one-row shard of ``Dataset.to_json``) is its bytes as
    they are when kept, an empty array (``[]``) when removed."""
    try:
        raws = json_array_raw(path)
        first_raw = next(raws, None)
    except NotStreamable:
        if read_path_table(path, options).records_path is not None:
            raise InputError(path, "is a JSON document whose rows are not one top-level "
                                   "array: no cleaned copy is written of it (convert it to "
                                   "JSON Lines to have one)") from None
        out.write(b"[]\n" if 1 in removed else read_file_bytes(path))
        return
    out.write(b"[")
    first = True
    for number, raw in enumerate(itertools.chain([first_raw] if first_raw is not None else [],
                                                 raws), 1):
        if number in removed:
            continue
        out.write(("\n" if first else ",\n").encode() + raw.encode("utf-8"))
        first = False
    out.write(b"]\n" if first else b"\n]\n")


def _compressed(path: str, out: BinaryIO, write: Callable[[BinaryIO], None]) -> None:
    """Run ``write`` into ``out``, compressed as ``path``'s name says."""
    lower = path.lower()
    stream: Any
    if lower.endswith(".gz"):
        stream = gzip.GzipFile(filename="", fileobj=out, mode="wb", mtime=0)  # no name: same bytes wherever written
    elif lower.endswith(".bz2"):
        stream = bz2.BZ2File(out, "wb")
    elif lower.endswith(".xz"):
        stream = lzma.LZMAFile(out, "wb")
    elif lower.endswith(".zst"):
        import zstandard
        stream = zstandard.ZstdCompressor().stream_writer(out, closefd=False)
    else:
        write(out)
        return
    with stream:
        write(stream)


def _parquet_codecs(source: Any) -> Any:
    """The compression a Parquet file's columns were written with (its first row
    group's), for its cleaned copy: one codec's name when they share one, else each
    column's by its path ("snappy", pyarrow's own default, for a file of no rows)."""
    metadata = source.metadata
    if metadata.num_row_groups == 0:
        return "snappy"
    group = metadata.row_group(0)
    named = {"uncompressed": "none"}          # the metadata's word, and the writer's
    codecs = {group.column(i).path_in_schema: named.get(c, c) for i in range(group.num_columns)
              if (c := group.column(i).compression.lower())}
    kinds = set(codecs.values())
    return kinds.pop() if len(kinds) == 1 else codecs


def _columnar(path: str, removed: set[int], out: BinaryIO) -> None:
    """A Parquet or Arrow file's kept rows, in order, with its schema, a row group or
    record batch at a time."""
    import pyarrow as pa

    def kept(batch: Any, first: int) -> Any:
        mask = [first + i + 1 not in removed for i in range(batch.num_rows)]
        return batch.filter(pa.array(mask, type=pa.bool_()))

    if is_parquet(path):
        import pyarrow.parquet as pq
        source = pq.ParquetFile(path)
        with pq.ParquetWriter(out, source.schema_arrow,
                              compression=_parquet_codecs(source)) as writer:
            first = 0
            for g in range(source.num_row_groups):
                group = source.read_row_group(g)
                writer.write_table(kept(group, first))
                first += group.num_rows
        return
    try:
        reader: Any = pa.ipc.open_file(pa.memory_map(path))
        batches = (reader.get_batch(i) for i in range(reader.num_record_batches))
        new = pa.ipc.new_file
    except pa.ArrowInvalid:
        reader = pa.ipc.open_stream(pa.memory_map(path))
        batches = iter(reader)
        new = pa.ipc.new_stream
    with new(out, reader.schema) as writer:
        first = 0
        for batch in batches:
            writer.write_batch(kept(batch, first))
            first += batch.num_rows
