"""Stream B past A's index: the command's path for training data of any size, and
the Dask workers' (:mod:`~ngram_core.run.distributed` runs the same functions there).

The page indexes B and walks A (:mod:`~ngram_core.run.check`). When B is large the
roles turn: A is tokenized and *its* windows indexed once; B is read one
partition at a time (a block of a JSONL or text file, a whole CSV or
compressed file streamed in pieces, a Parquet row group), its windows walked
against A's index, and each partition returns, per A row, a partial result
that combines with the others by set union and minimum:

* ``starts``: A window starts (global A positions) matched in the partition;
* ``best``: per A row, the longest diagonal run as a :class:`BestSpan`, whose
  :class:`SpanKey` ``(-windows, partition, b_row, a_start, b_start)`` orders
  runs (the smallest key wins: the same tie-break as the page's path, because
  partitions are numbered in file order);
* ``dups``: per A row, the first :class:`RowAt` ``(partition, b_row)`` whose
  whole token sequence equals the A row's;
* ``seen``: how often each window of A occurs in the partition.

**The cap, as the page applies it.** Of each window's B positions only the
first 32 in file order can start a span. In this process partitions are
walked in file order, each knowing how often every window occurred before
it, so each position's rank is exact. Walked in parallel, a partition ranks
positions within itself; :func:`over_cap` then finds the partitions that used
a position past the cap and they are walked once more, ranked. So every
engine gives the same summary, CSV and rows CSV, where the cap bites too;
``windows_capped`` counts the windows of A that occur more than 32 times in
B. With the frequency filter (``max_b_rows``) a first pass counts the B rows
holding each window of A, and ``windows_ignored`` counts the ignored windows
A holds, as the page's path does.

Union and minimum are associative and idempotent, so partial results combine
in any order, and a partition run twice (a retried task) changes nothing.
The caller keeps these partials, never B's rows: memory is A's index, one
piece of B and A-sized partials. Each piece's windows are hashed all at once
(numpy, :mod:`~ngram_core.method.window_filter`; every position without numpy) and
only the positions whose hash A's windows share are looked up exactly. B's
rows are tokenized a piece at a time by :mod:`~ngram_core.method.tokenize_arrow` (the
same ids as :func:`~ngram_core.method.tokenize.tokenize_rows`, which it falls back to
without pyarrow and numpy).
"""

from __future__ import annotations

import functools
import os
import threading
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple, Protocol, Union

from .check import Progress
from ..errors import InputError, shown
from ..read.files import (HEAD_BYTES, FileRead, block_ranges, check_head, columnar_pieces,
                    columnar_table, emptied_files, empty_read, file_read, is_columnar,
                    file_holds_utf8, is_compressed, is_parquet,
                    iter_line_chunks,
                    lines_before, read_file_bytes, read_head_lines, read_line_block, read_path_table,
                    strip_compression)
from ..report.definitions import (Definitions, Findings, Probe, finalize_steps, find_steps,
                          prepare_steps)
from ..table import RowFiles
from ..method.index import build_index, count_rows_steps
from ..method.match import (CHECKABLE, RowMatch, ShortPiece, ShortRows, classify, contained_in_row,
                    contained_rows, coverage, covered_runs, dirty_by_part, masked_at, set_contained,
                    short_pieces, short_rows_by_prefix)
from ..read.fields import (SAMPLE_ROWS, ShortCount, choose_fields, field_stats, fields_beside,
                           record_shapes, select_rows, unread_counts)
from ..read.readers import (format_from_name, is_utf16, json_format, not_utf8, read_table,
                             text_rows_read)
from ..read.record_stream import (DelimitedLayout, NotStreamable, delimited_layout, delimited_tables,
                            head_table, is_json_array, json_array_tables)
from ..table import ReadOptions, Reading, Row, Table
from ..report.summary import summarize
from ..report.result import Report
from ..method.settings import Settings
from ..method.similar import SimilarIndex, merge_best
from ..method.similar_arrow import candidates_of, index_steps
from ..steps import run_steps
from ..method.template import NO_TEMPLATE, Template, template_for
from ..method.tokenize import PIECE_CHARS, Tokenizer, TokenizedRows, tokenize_rows
from ..method.tokenize_arrow import RawBatch, tokenize_rows_arrow
try:
    from ..method.window_filter import WindowBits, WindowTags
except ImportError:               # no numpy: every position of B is looked up exactly
    from ..method.window_filter_plain import WindowBits  # type: ignore[assignment]
    from ..method.window_filter_plain import WindowTags  # type: ignore[assignment]

#: Bytes of an uncompressed JSONL or text file per partition (at line boundaries), and
#: of a compressed one per piece a worker holds: a worker's memory is about 18 x this.
DEFAULT_BLOCKSIZE = 16 * 2**20
#: Bytes of a B file read on the client to detect its fields.
FIELD_SAMPLE_BYTES = 2**20


# --- partitions of B ---------------------------------------------------------

class Executor(Protocol):
    """Runs partition work elsewhere (:class:`ngram_core.run.distributed.OnDask`,
    :class:`ngram_core.run.processes.OnProcesses`): ``map`` yields ``work(part,
    *choices[part.file_index], index, *extra_of(extra)(part))`` of every partition
    (its file's fields and id field, or a suite's groups of them) as each finishes,
    in any order, and raises the first result's error; ``each`` gives ``work(item)``
    of every item, in order, raising the first that is an error."""

    def map(self, work: Callable[..., Any], parts: Sequence[Partition],
            choices: dict[int, tuple[Any, ...]], index: Any,
            extra: Extra = None) -> Iterator[Any]: ...

    def each(self, work: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]: ...


@dataclass(frozen=True)
class Partition:
    """One unit of B a worker reads: bytes [start, end) of a file, or ``pieces``
    [first, end) of a Parquet file's row groups or an Arrow file's record
    batches, and how many pieces the file has: ``(first, end, of)``."""
    index: int
    file_index: int
    path: str
    options: ReadOptions           # its format always set
    start: int = 0
    end: int = -1                 # -1: to the end of the file
    pieces: tuple[int, int, int] | None = None
    chunk: int = DEFAULT_BLOCKSIZE  # bytes per piece when a whole file streams
    whole: bool = False           # read whole, never in pieces (UTF-16)
    layout: DelimitedLayout | None = None   # a CSV or TSV read record by record
    by_item: bool = False         # a JSON array read item by item
    empty: bool = False           # an empty file among several: no rows


#: A partition's last argument, where its work takes one: by partition index, or
#: a function of the partition, called when the partition is sent (see :func:`extra_of`).
Extra = Union[dict[int, Any], Callable[[Partition], Any], None]


def extra_of(extra: Extra) -> Callable[[Partition], tuple[Any, ...]]:
    """The arguments ``extra`` adds after a partition's index (none for None)::

        >>> part = Partition(2, 0, "b.jsonl", ReadOptions())
        >>> extra_of({2: "x"})(part), extra_of(lambda p: p.index)(part), extra_of(None)(part)
        (('x',), (2,), ())
    """
    if extra is None:
        return lambda part: ()
    if callable(extra):
        return lambda part: (extra(part),)
    return lambda part: (extra[part.index],)


def plan_partitions(paths: Sequence[str], options: ReadOptions = ReadOptions(),
                    blocksize: int = DEFAULT_BLOCKSIZE) -> list[Partition]:
    """Cut B's files into partitions, numbered in file order.

    A JSONL file, or a text file read one row per line, larger than
    ``blocksize`` is cut into line-aligned byte ranges; any other file (CSV,
    JSON, compressed, paragraphs) is one partition, a Parquet file one per row
    group, an Arrow file one per run of record batches of about ``blocksize``.
    A CSV or TSV file is read once here, line by line, for how the whole of it
    is read (:func:`~ngram_core.read.record_stream.delimited_layout`).
    A UTF-16 file (its line breaks are two bytes) is one partition read whole."""
    parts: list[Partition] = []
    empty = emptied_files(paths)
    for file_index, path in enumerate(paths):
        wide = False
        if empty[file_index]:          # a training file emptied by cleaning, among others
            parts.append(Partition(len(parts), file_index, path,
                                   options._replace(format=options.format or "jsonl"),
                                   empty=True))
            continue
        if not is_columnar(path):
            first_bytes = read_file_bytes(path, HEAD_BYTES)
            check_head(first_bytes, path, options)   # not text: refused
            wide = is_utf16(first_bytes)
        if not os.path.isfile(path):
            raise InputError(path, "cannot be read: not a file")
        size = os.path.getsize(path)
        if is_columnar(path):
            kind = options._replace(format="parquet" if is_parquet(path) else "arrow")
            pieces = columnar_pieces(path, blocksize)
            for first, end in pieces:
                parts.append(Partition(len(parts), file_index, path, kind,
                                       pieces=(first, end, pieces[-1][1])))
            continue
        fmt = options.format or format_from_name(strip_compression(path))
        if size == 0:
            raise InputError(path, "is empty: it has no rows")
        if fmt in ("json", "csv", "tsv") and options.format is None:
            # JSON Lines named .json, JSON named .csv: read as they are read whole (by
            # the whole lines of the first 4 MiB: a one-line document is not read twice)
            fmt = json_format(_sniffed_lines(path), fmt) or fmt
        own = options._replace(format=fmt)
        if fmt == "text" and (options.format is None or own.text_rows is None):
            # read as the whole file would be, decided once a file: a .txt may be a
            # table of tabs or JSON Lines; text is read in sentences, blocks or lines
            head = read_path_table(path, options, head=FIELD_SAMPLE_BYTES)
            if head.format == "tsv" and options.format is None:
                # a table of tabs is read whole in any case: read so now, as in memory,
                # since a row past the head that is not one makes the file text
                if read_path_table(path, options).format == "text":
                    head = read_path_table(path, options._replace(format="text"),
                                           head=FIELD_SAMPLE_BYTES)
            own = own._replace(format=head.format)
            if head.format == "text" and own.text_rows is None:
                own = own._replace(text_rows=text_rows_read(head))
        if wide:
            parts.append(Partition(len(parts), file_index, path, own, whole=True))
            continue
        if fmt in ("csv", "tsv"):        # the whole file's reading decided, then its records
            parts.append(Partition(len(parts), file_index, path, own,
                                   layout=delimited_layout(path, own)))
            continue
        if fmt == "json" and not own.records and is_json_array(path):
            parts.append(Partition(len(parts), file_index, path, own, by_item=True))
            continue
        if is_compressed(path) or not _by_line(own) or size <= blocksize:
            parts.append(Partition(len(parts), file_index, path, own, chunk=blocksize))
            continue
        for start, end in block_ranges(size, blocksize):
            parts.append(Partition(len(parts), file_index, path, own, start, end))
    return parts


#: Bytes of a JSON- or CSV-named file opening with a JSON value looked at, at most, for
#: the format it holds (its first lines: 64 KiB, more only for a longer first line).
SNIFF_BYTES = 1 << 22


def _sniffed_lines(path: str) -> str:
    """A file's first whole lines, where it opens with a JSON value (else nothing: no
    other start is JSON); at most :data:`SNIFF_BYTES` read, so a planner of a thousand
    shards reads a few KiB of each."""
    if read_file_bytes(path, 1 << 10).removeprefix(b"\xef\xbb\xbf").lstrip()[:1] not in (
            b"{", b"["):
        return ""
    return read_head_lines(path, 1 << 16, SNIFF_BYTES).decode("utf-8-sig", "replace")


def partition_chunks(part: Partition, fields: Reading, id_field: str,
                     fields_read: dict[tuple[str, ...], None] | None = None
                     ) -> Iterator[list[Row]]:
    """The rows of one partition, in pieces of bounded size, numbered from 1 within each.

    A Parquet row group is one piece. A byte range, and a whole JSONL or
    line-by-line text file (compressed or not), go in pieces of at most
    :data:`PIECE_BYTES` of whole lines (a longer line is a piece of its own), so
    a worker's memory is bounded by the piece, not the shard, even where a piece
    holds millions of one-word rows. A CSV or TSV file goes record by record and
    a JSON array item by item, in pieces of as many characters
    (:mod:`~ngram_core.read.record_stream`). Any other file (another JSON document,
    paragraphs, UTF-16, a CSV that is not UTF-8) is read whole. ``fields_read``
    gains the fields each piece's rows were read by (a later row's own shape).
    """
    if part.empty:
        return
    select = functools.partial(select_rows, fields_read=fields_read)
    if part.pieces is not None:
        table = columnar_table(part.path, part.pieces[:2])
        yield select(table, fields, id_field, False) if table.records else []
        return
    if part.end >= 0:
        block, first = read_line_block(part.path, part.start, part.end)
        for data, before in line_pieces(block):
            yield _rows_of(data, part, fields, id_field,
                           functools.partial(_lines_before_piece, part.path, first, before),
                           fields_read)
        return
    if _by_line(part.options) and not part.whole:
        for data, lines in iter_line_chunks(part.path, min(part.chunk, PIECE_BYTES)):
            rows = _rows_of(data, part, fields, id_field, lambda: lines, fields_read)
            data = b""                    # the rows' text is read: the bytes go
            yield rows
        return
    if part.layout is not None:
        for table in delimited_tables(part.path, part.layout, PIECE_BYTES):
            yield select(table, fields, id_field, False)
        return
    if part.by_item:
        yield from _array_chunks(part, fields, id_field, fields_read)
        return
    table = read_path_table(part.path, part.options)
    table.source = part.path
    yield select(table, fields, id_field, False)


#: Bytes of whole lines a worker reads, tokenizes and walks at a time: a piece's rows
#: cost about 250 bytes each however short (a Row and its tokens), so a piece of one-
#: word lines holds 200,000 of them where 16 MiB would hold 3 million.
PIECE_BYTES = 1 << 20


def line_pieces(data: bytes, piece_bytes: int = PIECE_BYTES) -> Iterator[tuple[bytes, int]]:
    """``data`` (whole lines) in pieces of whole lines of at most ``piece_bytes`` (a
    longer line alone), each with the count of lines before it in ``data``::

        >>> list(line_pieces(b"a\\nbb\\ncc\\nd", piece_bytes=5))
        [(b'a\\nbb\\n', 0), (b'cc\\nd', 2)]
    """
    start, lines = 0, 0
    while start < len(data):
        stop = start + piece_bytes
        if stop >= len(data):
            stop = len(data)
        else:
            cut = data.rfind(b"\n", start, stop) + 1
            stop = cut if cut > start else (data.find(b"\n", stop) + 1 or len(data))
        piece = data[start:stop]
        yield piece, lines
        lines += piece.count(b"\n")
        start = stop


def _array_chunks(part: Partition, fields: Reading, id_field: str,
                  fields_read: dict[tuple[str, ...], None] | None) -> Iterator[list[Row]]:
    """A JSON array's rows item by item; where it cannot be read so (a broken
    document), the file read whole says why, or gives the rows not yet given."""
    select = functools.partial(select_rows, fields_read=fields_read)
    given = 0
    try:
        for table in json_array_tables(part.path, PIECE_BYTES):
            rows = select(table, fields, id_field, False)
            given += len(rows)
            yield rows
    except NotStreamable:
        table = read_path_table(part.path, part.options)
        table.source = part.path
        yield select(table, fields, id_field, False)[given:]


def _lines_before_piece(path: str, first: int, before: int) -> int:
    """Lines of ``path`` before a piece: those before its block's byte ``first``, then
    ``before`` in the block (counted only for an error message)."""
    return lines_before(path, first) + before


def _rows_of(data: bytes, part: Partition, fields: Reading, id_field: str,
             lines_before_data: Callable[[], int],
             fields_read: dict[tuple[str, ...], None] | None = None) -> list[Row]:
    """The rows in a piece of a line-based file; an error names the line in the file."""
    if not data.strip():
        return []
    try:
        table = read_table(data, part.path, **part.options._asdict())
        if table.encoding == "windows-1252" and file_holds_utf8(part.path):
            raise not_utf8(data, part.path)     # UTF-8 elsewhere: damage, as read whole
    except InputError as e:
        if e.line is not None:
            e.line += lines_before_data()
        raise
    return select_rows(table, fields, id_field, False, fields_read)


def _by_line(options: ReadOptions) -> bool:
    """Whether a file of this format can be cut at any line break."""
    return options.format == "jsonl" or (options.format == "text"
                                         and options.text_rows in (None, "line"))


# --- the index of A and the walk of one partition ------------------------------

#: Raw tokens of B whose ids a worker's tokenizer keeps from one piece to the next
#: (about 30 MB of them; a piece of 16 MB of text may hold 100,000 distinct ones).
RAW_TOKENS_KEPT = 1 << 18


@dataclass
class AIndex:
    """A's windows (no cap) and whole rows, and what a worker needs to tokenize B alike."""
    n: int
    cap: int                           # B positions kept per window (the first in file order)
    mode: str
    layers: tuple[str, ...]
    backend: str
    vocabulary: dict[str, int]
    offsets: list[int]
    windows: dict[bytes, Any]          # window bytes -> A global start, or a list of them
    rows_by_tokens: dict[bytes, list[int]]   # whole-row bytes -> every A row holding it
    short_min: int
    short_rows: ShortRows              # the short rows to find whole in B, by prefix
    bits: WindowBits                   # A's windows hashed: B's first pass (window_filter)
    prefix_bits: WindowBits | None     # the short rows' prefixes hashed (None: no short row)
    pieces: list[ShortPiece]           # what the numbers in short_rows stand for
    similar: SimilarIndex | None = None   # the rephrase lens's A (None: the lens is off)

    #: the tokenizer of each thread, made on first use (never pickled)
    _tokenizers: dict[int, Tokenizer] = field(default_factory=dict, init=False, repr=False,
                                              compare=False)
    #: the sizes in tokens of A's whole rows (a B row of another size is none of them)
    whole_sizes: set[int] = field(default_factory=set, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.whole_sizes = {len(key) // 4 for key in self.rows_by_tokens}

    def tokenizer(self) -> Tokenizer:
        """A's tokenizer with A's vocabulary, frozen: B tokens A lacks never match.
        One per index and thread, so the raw tokens it has looked up stay known from
        one piece of B to the next (a frozen vocabulary gives a token the same id
        every time), up to :data:`RAW_TOKENS_KEPT` of them: then it starts afresh,
        so memory does not grow with B."""
        thread = threading.get_ident()
        tokenizer = self._tokenizers.get(thread)
        if tokenizer is None or len(tokenizer._vocab) > RAW_TOKENS_KEPT:
            tokenizer = self._tokenizers[thread] = Tokenizer(self.mode, self.layers,
                                                             self.backend, self.vocabulary)
        return tokenizer

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_tokenizers": {}}

    def without(self, ignored: set[bytes]) -> AIndex:
        """The same index without the windows the frequency filter ignores."""
        windows = {k: v for k, v in self.windows.items() if k not in ignored}
        return replace(self, windows=windows)

    def unmasked(self, masked: Sequence[int]) -> AIndex:
        """The same index without A's positions at ``masked`` window starts (the test
        file's template, :func:`~ngram_core.method.match.masked_at`): a window left with no
        position is dropped."""
        windows: dict[bytes, Any] = {}
        for key, value in self.windows.items():
            if type(value) is int:
                if not masked_at(masked, value):
                    windows[key] = value
                continue
            kept = [q for q in value if not masked_at(masked, q)]
            if kept:
                windows[key] = kept[0] if len(kept) == 1 else kept
        return replace(self, windows=windows)


def index_a(a_rows: list[Row], settings: Settings, tokenizer: Tokenizer | None = None
            ) -> tuple[Tokenizer, TokenizedRows, AIndex]:
    """Tokenize A and index every window of it, with a cap no window can reach.
    ``tokenizer``: one whose vocabulary other test sets share (a suite's)."""
    tokenizer = tokenizer or settings.tokenizer()
    a = tokenize_rows(a_rows, tokenizer, by_part=True)
    windows = build_index(a, settings.n, cap=len(a.ids) + 2).table
    rows_by_tokens: dict[bytes, list[int]] = {}
    for r in range(len(a_rows)):
        if a.length(r):
            rows_by_tokens.setdefault(a.row_key(r), []).append(r)
    pieces = short_pieces(a, settings.n, settings.short_min)
    short_rows = short_rows_by_prefix(a, pieces, settings.short_min)
    prefixes = b"".join(short_rows)          # each short_min tokens, one after another
    prefix_bits = WindowBits.of(prefixes, range(0, len(prefixes) // 4 + 1, settings.short_min),
                                settings.short_min) if short_rows else None
    return tokenizer, a, AIndex(settings.n, settings.cap, settings.mode, settings.layers,
                                settings.backend,
                                dict(tokenizer.vocabulary), list(a.offsets), windows,
                                rows_by_tokens, settings.short_min, short_rows,
                                WindowBits.of(a.buffer, a.offsets, settings.n), prefix_bits,
                                pieces, _lens_index(a_rows, settings))


def _lens_index(a_rows: list[Row], settings: Settings) -> SimilarIndex | None:
    """The rephrase lens's index of A (None: the lens is off), every row read without
    the passages left out, as B's rows are then read."""
    if not settings.rephrase:
        return None
    return run_steps(index_steps([row.text for row in a_rows], settings.leave_out))


class DefinitionFindings(NamedTuple):
    """What one partition holds of the published definitions' probe, and the rows of
    each of its pieces (a piece is numbered ``partition << PIECE_BITS | piece``, so
    pieces order as B's file does), or the error the partition hit."""
    partition: int
    findings: Findings
    piece_rows: list[int]
    error: InputError | None = None


#: Bits of a piece's number within its partition, for the definitions' findings.
PIECE_BITS = 20


def find_in_partition(part: Partition, fields: Reading, id_field: str,
                      probe: Probe) -> DefinitionFindings:
    """The published definitions' pass over one partition, a piece at a time."""
    total, piece_rows = Findings(), []
    try:
        for piece, rows in enumerate(partition_chunks(part, fields, id_field)):
            found = run_steps(find_steps(probe, rows, partition=part.index << PIECE_BITS | piece))
            total.merge(found)
            piece_rows.append(len(rows))
    except InputError as e:
        return DefinitionFindings(part.index, Findings(), [], e)
    return DefinitionFindings(part.index, total, piece_rows)


class WindowCounts(NamedTuple):
    """For each window of A, how many rows of one partition hold it, or the error
    the partition hit."""
    partition: int
    counts: dict[bytes, int]
    error: InputError | None = None


def count_partition(part: Partition, fields: Reading, id_field: str,
                    index: AIndex) -> WindowCounts:
    """The frequency filter's first pass over one partition (a B row is in one
    partition only, so the counts of all partitions add up to exact totals)."""
    counts: dict[bytes, int] = {}
    try:
        for rows in partition_chunks(part, fields, id_field):
            for key, rows_in in count_rows_in(rows, index).items():
                counts[key] = counts.get(key, 0) + rows_in
    except InputError as e:
        return WindowCounts(part.index, {}, e)
    return WindowCounts(part.index, counts)


def count_rows_in(rows: list[Row], index: AIndex, b: TokenizedRows | None = None
                  ) -> dict[bytes, int]:
    """For each window of A, how many of these B rows hold it (``b``: the rows already
    tokenized with A's vocabulary)."""
    if b is None:
        b = tokenize_rows_arrow(rows, index.tokenizer())
    return run_steps(count_rows_steps(b, index.n, index.windows))


class RowAt(NamedTuple):
    """A B row by its partition and its 0-based number within it (orders in file order)."""
    partition: int
    b_row: int


class SpanKey(NamedTuple):
    """Orders the diagonal runs of one A row: the smallest key is the best B row.

    More windows first, then file order of the B row, then the earliest A
    start, then the earliest B start (token indexes within each row).
    """
    neg_windows: int
    partition: int
    b_row: int
    a_start: int
    b_start: int


class Contained(NamedTuple):
    """Where a short piece of A (a short row or field) was first found whole: its B
    row, then the span's tokens and characters in it (the smallest wins: file
    order, then earliest)."""
    at: RowAt
    b_start: int
    b_chars: tuple[int, int]


class BestSpan(NamedTuple):
    """One A row's longest run in a partition, with the B row's id and the span's
    ``[start, end)`` characters in it (``b_id`` None: B has no id field)."""
    key: SpanKey
    b_id: str | None
    b_chars: tuple[int, int]


@dataclass
class PartitionResult:
    """What one partition contributes (see the module docstring), or the error it hit.

    A bad shard comes back with ``error`` set rather than raising, so that Dask
    does not retry a file that will fail again; the client raises it.
    """
    partition: int
    file_index: int
    rows: int = 0
    starts: set[int] = field(default_factory=set)
    best: dict[int, BestSpan] = field(default_factory=dict)
    dups: dict[int, RowAt] = field(default_factory=dict)
    contained: dict[int, Contained] = field(default_factory=dict)
    #: the rephrase lens: A row -> (similarity, B row in the partition), the best
    similar: dict[int, tuple[float, int]] = field(default_factory=dict)
    #: the ids of the B rows (in the partition) that were ever one of ``similar``'s
    similar_ids: dict[int, str | None] = field(default_factory=dict)
    #: occurrences in this partition of each window of A, in file order
    seen: dict[bytes, int] = field(default_factory=dict)
    #: whether the walk knew the occurrences before this partition (see walk_partition)
    ranked: bool = False
    #: walked without them: the windows of A known, when it was sent, to occur ``cap``
    #: times or more before it, none of whose positions here started a span
    past_cap: frozenset[bytes] = frozenset()
    blank: int = 0                   # B rows with no text, and with text but fewer than n tokens
    short: int = 0
    tokens: int = 0
    unread: int = 0                  # of the blank rows, those whose text is in fields not read
    unread_in: tuple[str, ...] = ()
    #: the fields each shape of its rows was read by, in order (a later row's own)
    fields_read: tuple[tuple[str, ...], ...] = ()
    error: InputError | None = None


def walk_partition(part: Partition, fields: Reading, id_field: str,
                   index: AIndex, before: dict[bytes, int] | None = None,
                   past_cap: Collection[bytes] = ()) -> PartitionResult:
    """One partition's partial result, walked a piece at a time.

    The cap: of each window's B positions, only the first ``index.cap`` in file
    order can start a span (every occurrence still matches the window). With
    ``before``, the occurrences of each window in the partitions before this
    one, the rank of each position is exact; without it, positions are ranked
    within the partition, but for the windows ``past_cap`` (known to occur
    ``cap`` times before it: none of their positions starts a span), and the
    caller walks the partition again with ``before`` where that was not enough
    (see :func:`over_cap`)."""
    known = before if before is not None else dict.fromkeys(past_cap, index.cap)
    out = PartitionResult(part.index, part.file_index, ranked=before is not None,
                          past_cap=frozenset(past_cap) if before is None else frozenset())
    fields_read: dict[tuple[str, ...], None] = {}
    try:
        for rows in partition_chunks(part, fields, id_field, fields_read):
            walk_rows(rows, out, index, bool(id_field), known)
            out.rows += len(rows)
    except InputError as e:
        return PartitionResult(part.index, part.file_index, error=e)
    out.fields_read = tuple(fields_read)
    return out


def walk_told(part: Partition, fields: Reading, id_field: str, index: AIndex,
              told: tuple[dict[bytes, int] | None, frozenset[bytes]]) -> PartitionResult:
    """:func:`walk_partition` told what was known of the cap when it was sent (see
    :meth:`CapFloor.told`): the occurrences before it, or the windows past the cap."""
    return walk_partition(part, fields, id_field, index, *told)


class CapFloor:
    """What a partition sent to a worker can be told of the cap: the occurrences
    of A's windows before it, once every partition before it is walked; until
    then, the windows that occur ``cap`` times or more in the partitions walked so
    far before it (:meth:`told`). Partitions are numbered in file order; those
    walked are added as they finish, in any order.

    >>> floor = CapFloor(3)
    >>> floor.add(1, {b"w": 2, b"y": 1})
    >>> sorted(floor.past_cap(2))
    []
    >>> floor.add(0, {b"w": 1, b"x": 5})
    >>> sorted(floor.past_cap(2)), sorted(floor.past_cap(3))
    ([b'w', b'x'], [b'w', b'x'])
    >>> floor.add(3, {b"y": 2})
    >>> sorted(floor.past_cap(3)), sorted(floor.past_cap(4))
    ([b'w', b'x'], [b'w', b'x', b'y'])
    """

    def __init__(self, cap: int):
        self.cap = cap
        self.prefix_end = 0                   # partitions [0, prefix_end) all walked
        self.prefix: dict[bytes, int] = {}   # their occurrences, summed
        self.full: set[bytes] = set()         # of which cap or more
        self.later: dict[int, dict[bytes, int]] = {}   # walked past the prefix

    def add(self, partition: int, seen: dict[bytes, int]) -> None:
        self.later[partition] = seen
        while self.prefix_end in self.later:
            for key, count in self.later.pop(self.prefix_end).items():
                total = self.prefix[key] = self.prefix.get(key, 0) + count
                if total >= self.cap:
                    self.full.add(key)
            self.prefix_end += 1

    def told(self, partition: int) -> tuple[dict[bytes, int] | None, frozenset[bytes]]:
        """``(before, past_cap)`` for :func:`walk_partition`: the occurrences before
        ``partition`` where every partition before it is walked, else None and the
        windows known past the cap."""
        if partition == self.prefix_end:
            return dict(self.prefix), frozenset()
        return None, self.past_cap(partition)

    def past_cap(self, partition: int) -> frozenset[bytes]:
        """The windows seen ``cap`` times in walked partitions before ``partition``, a
        partition not walked yet (for one of the walked prefix: none)."""
        if partition < self.prefix_end:
            return frozenset()
        also: dict[bytes, int] = {}
        for p, seen in self.later.items():
            if p < partition:
                for key, count in seen.items():
                    if key not in self.full:
                        also[key] = also.get(key, 0) + count
        return frozenset(self.full).union(
            key for key, count in also.items() if self.prefix.get(key, 0) + count >= self.cap)


def over_cap(partials: Sequence[PartitionResult], cap: int
             ) -> tuple[dict[int, dict[bytes, int]], int]:
    """Which partitions (walked without ``before``) used a position past the cap,
    with the occurrences before each of them of the windows it holds, and how
    many windows occur more than ``cap`` times in all. ``partials`` in file order.

    A window seen 30 times in partition 0 and 5 in partition 1, cap 32: partition
    1's first 2 occurrences are within the cap, its other 3 are not::

        >>> p0 = PartitionResult(0, 0, seen={b"w": 30})
        >>> p1 = PartitionResult(1, 0, seen={b"w": 5})
        >>> over_cap([p0, p1], 32)
        ({1: {b'w': 30}}, 1)
    """
    before: dict[bytes, int] = {}
    again: dict[int, dict[bytes, int]] = {}
    for partial in partials:
        if not partial.ranked and any(before.get(key, 0) and key not in partial.past_cap and
                                      before[key] + min(count, cap) > cap
                                      for key, count in partial.seen.items()):
            again[partial.partition] = {key: before[key] for key in partial.seen
                                        if key in before}
        for key, count in partial.seen.items():
            before[key] = before.get(key, 0) + count
    return again, sum(count > cap for count in before.values())


#: What :func:`walk_rows` marks, by B row of the piece: its id (None: B has no id
#: field) and, per A row it shares a window with or holds whole, the ``[start, end)``
#: characters of the B row from the first to the last token they share.
Marks = dict[int, tuple["str | None", dict[int, tuple[int, int]]]]


class PieceTokens(NamedTuple):
    """A piece of B tokenized, and its positions whose window may be one of A's, and
    whose first ``short_min`` tokens may start a short piece of A (the first pass:
    every real one is among them); its blank rows, its rows shorter than n, and its
    non-empty rows by their size in tokens (counted once, for every eval of a suite)."""
    b: TokenizedRows
    candidates: list[int]
    prefixed: list[int]
    blank: int
    short: int
    by_size: dict[int, list[int]]
    unread: int = 0                 # of the blank rows, those with text in fields not read
    unread_in: tuple[str, ...] = ()
    raw: Sequence[RawBatch] = ()    # the raw tokens, batch by batch (the rephrase lens's)


def piece_tokens(rows: list[Row], tokenizer: Tokenizer, n: int, bits: WindowBits | None,
                 prefix_bits: WindowBits | None) -> PieceTokens:
    """Tokenize a piece of B and find its candidate positions (see :class:`PieceTokens`;
    ``bits`` None: none yet, a suite finds each eval's)."""
    raw: list[RawBatch] = []
    b = tokenize_rows_arrow(rows, tokenizer, raw)
    buf = b.buffer
    return PieceTokens(b, bits.candidates(buf, b.offsets) if bits else [],
                       prefix_bits.candidates(buf, b.offsets) if prefix_bits else [],
                       *piece_shape(rows, b.offsets, n),
                       *unread_counts(row for row in rows if row.unread), raw=raw)


def piece_shape(rows: list[Row], offsets: Sequence[int], n: int
                ) -> tuple[int, int, dict[int, list[int]]]:
    """A piece's blank rows, its rows (not blank) shorter than ``n`` tokens, and its
    rows with tokens by their size, in order.

    >>> from ngram_core.table import Row
    >>> piece_shape([Row(1, "a", "x y"), Row(2, "b", ""), Row(3, "c", "z")], [0, 2, 2, 3], 2)
    (1, 1, {2: [0], 1: [2]})
    """
    blank = [row.blank for row in rows]
    by_size: dict[int, list[int]] = {}
    short = 0
    for r, (is_blank, start, end) in enumerate(zip(blank, offsets, offsets[1:])):
        if end > start:
            by_size.setdefault(end - start, []).append(r)
        if not is_blank and end - start < n:
            short += 1
    return sum(blank), short, by_size


def walk_rows(rows: list[Row], out: PartitionResult, index: AIndex, with_ids: bool,
              before: dict[bytes, int], marks: Marks | None = None,
              tokenized: PieceTokens | None = None) -> None:
    """Fold one piece of a partition into ``out``; its rows follow ``out.rows`` rows.
    With ``marks``, also mark every row holding a window of A (past the cap too) or a
    short piece of A whole, keyed by its number in the piece (0-based). ``tokenized``:
    the piece already tokenized, with candidates that include this index's (a suite's
    evals share one vocabulary and one first pass)."""
    tokens_of: dict[int, dict[int, list[int]]] = {}     # B row -> A row -> [first, end)

    def mark(r: int, a_row: int, first: int, end: int) -> None:
        span = tokens_of.setdefault(r, {}).get(a_row)
        if span is None:
            tokens_of[r][a_row] = [first, end]
        else:
            span[0], span[1] = min(span[0], first), max(span[1], end)

    tokenizer = index.tokenizer()
    if tokenized is None:
        tokenized = piece_tokens(rows, tokenizer, index.n, index.bits, index.prefix_bits)
    if index.similar is not None:
        texts = [row.text for row in rows]
        became = index.similar.fold(texts, out.rows, out.similar,
                                    candidates_of(index.similar, texts, tokenized.raw))
        for b_row in became:                       # this piece's rows: their ids
            out.similar_ids[b_row] = (rows[b_row - out.rows].id or None) if with_ids else None
    b = tokenized.b
    n, buf, width = index.n, b.buffer, 4 * index.n
    get = index.windows.get
    a_offsets = index.offsets
    first_row = out.rows
    starts = out.starts
    keys: dict[int, SpanKey] = {}
    contained_at: dict[int, tuple[int, int]] = {}
    # only the positions whose window may be one of A's are looked up (window_filter)
    short_min = index.short_min
    # the first pass's candidates narrowed to the real ones (a suite's first pass holds
    # every eval's): then only the rows holding one are walked
    windows, short_rows, prefix_width = index.windows, index.short_rows, 4 * short_min
    candidates = [g for g in tokenized.candidates if buf[4 * g:4 * g + width] in windows]
    prefixed = [g for g in tokenized.prefixed
                if buf[4 * g:4 * g + prefix_width] in short_rows] if short_rows else []
    seen, cap = out.seen, index.cap
    offsets = b.offsets
    out.blank += tokenized.blank
    out.short += tokenized.short
    if tokenized.unread:
        out.unread += tokenized.unread
        out.unread_in = tuple(dict.fromkeys((*out.unread_in, *tokenized.unread_in)))
    out.tokens += offsets[-1] - offsets[0]
    whole_rows = index.rows_by_tokens
    # a B row of a size no A row has is none of them; the rows of one size in order, so
    # each A row keeps its first B row
    for size in index.whole_sizes & tokenized.by_size.keys():
        for r in tokenized.by_size[size]:
            start = offsets[r]
            for a_row in whole_rows.get(buf[4 * start:4 * (start + size)], ()):
                out.dups.setdefault(a_row, RowAt(out.partition, first_row + r))
    # only the rows holding a candidate position (of a window or a short row's first
    # tokens; each lies in one row) are walked further, in order
    if len(candidates) + len(prefixed) < len(rows):
        walked: Iterable[int] = sorted({bisect_right(offsets, g) - 1
                                        for g in (*candidates, *prefixed)})
    else:                         # most rows hold one: each row, no need to find which
        walked = range(len(rows))
    for r in walked:
        start, end = offsets[r], offsets[r + 1]
        lo, hi = bisect_left(prefixed, start), bisect_left(prefixed, end - short_min + 1)
        for piece, b_start in contained_in_row(index.short_rows, short_min, buf, start, end,
                                               prefixed[lo:hi]):
            if marks is not None:
                held = index.pieces[piece]
                mark(r, held.row, b_start, b_start + held.tokens)
            if piece not in contained_at and piece not in out.contained:
                contained_at[piece] = (r, b_start)
        runs: dict[int, list[int]] = {}
        finished = []
        lo, hi = bisect_left(candidates, start), bisect_left(candidates, end - n + 1)
        for g in candidates[lo:hi]:
            window = buf[4 * g:4 * g + width]
            value = get(window)
            if value is None:
                continue
            count = seen[window] = seen.get(window, 0) + 1
            positions = (value,) if type(value) is int else value
            if marks is not None:
                for q in positions:
                    mark(r, bisect_right(a_offsets, q) - 1, g - start, g - start + n)
            if count == 1:                            # A's windows matched: once a window
                starts.update(positions)
            if count + before.get(window, 0) > cap:   # past the cap: matches, starts no span
                continue
            for q in positions:
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
            key = SpanKey(first - last - 1, out.partition, first_row + r,
                          q - a_offsets[a_row], first - start)
            if a_row not in keys or key < keys[a_row]:
                keys[a_row] = key
    # character offsets and ids only for the B rows that hold a best span
    spans_of: dict[int, list[tuple[int, int]]] = {}

    def chars(r: int, first: int, tokens: int) -> tuple[int, int]:
        text = rows[r].text
        if len(text) > PIECE_CHARS:   # a long row: its spans never listed whole
            return tokenizer.char_range(text, first, first + tokens - 1)
        if r not in spans_of:
            spans_of[r] = tokenizer.spans(text)
        spans = spans_of[r]
        return spans[first][0], spans[first + tokens - 1][1]

    for a_row, key in keys.items():
        if a_row not in out.best or key < out.best[a_row].key:
            r = key.b_row - first_row
            out.best[a_row] = BestSpan(key, (rows[r].id or None) if with_ids else None,
                                       chars(r, key.b_start, -key.neg_windows + n - 1))
    for piece, (r, b_start) in contained_at.items():
        out.contained[piece] = Contained(RowAt(out.partition, first_row + r), b_start,
                                         chars(r, b_start, index.pieces[piece].tokens))
    if marks is not None:
        for r, by_a in tokens_of.items():
            marks[r] = ((rows[r].id or None) if with_ids else None,
                        {a_row: chars(r, first, end - first)
                         for a_row, (first, end) in sorted(by_a.items())})


@dataclass
class Combined:
    """The partial results folded so far: union of starts, minimum of spans and duplicates.

    Folding is associative and idempotent, so the order in which partitions
    finish does not matter and a retried partition changes nothing.
    """
    rows: dict[int, tuple[int, int]] = field(default_factory=dict)  # partition -> (file, rows)
    starts: set[int] = field(default_factory=set)
    best: dict[int, BestSpan] = field(default_factory=dict)
    dups: dict[int, RowAt] = field(default_factory=dict)
    contained: dict[int, Contained] = field(default_factory=dict)
    #: the rephrase lens: A row -> (similarity, partition, B row in it), the best
    similar: dict[int, tuple[float, int, int]] = field(default_factory=dict)
    #: (partition, B row in it) -> its id, for the rows of ``similar``
    similar_ids: dict[tuple[int, int], str | None] = field(default_factory=dict)

    def add(self, partial: PartitionResult, best: bool = True) -> Combined:
        """Fold in a partial (its spans too, unless ``best`` is False: see
        :meth:`add_best`)."""
        self.rows[partial.partition] = (partial.file_index, partial.rows)
        self.starts |= partial.starts
        if best:
            self.add_best(partial)
        for a_row, where in partial.dups.items():
            if a_row not in self.dups or where < self.dups[a_row]:
                self.dups[a_row] = where
        for piece, found in partial.contained.items():
            if piece not in self.contained or found < self.contained[piece]:
                self.contained[piece] = found
        merge_best(self.similar, partial.similar, partial.partition)
        chosen = {(order, b_row) for _, order, b_row in self.similar.values()}
        self.similar_ids = {key: self.similar_ids.get(key, partial.similar_ids.get(key[1]))
                            for key in chosen if key in self.similar_ids
                            or key[0] == partial.partition}
        return self

    def add_best(self, partial: PartitionResult) -> None:
        """Fold in a partial's longest spans (the smallest key wins)."""
        for a_row, span in partial.best.items():
            if a_row not in self.best or span.key < self.best[a_row].key:
                self.best[a_row] = span


# --- the caller -----------------------------------------------------------------

@dataclass(repr=False)
class StreamedResult(Report):
    """What streaming B found: a :class:`~ngram_core.report.summary.Report` whose B ids came
    back with the partials (B's rows are never held)."""
    b_ids: dict[int, str] = field(default_factory=dict)
    #: Each B file as read (its fields chosen from its head, its rows counted by the
    #: walk) and its rows' short counts, in file order.
    b_reads: list[FileRead] = field(default_factory=list)
    b_counts: list[ShortCount] = field(default_factory=list)

    def b_id(self, b_row: int) -> str:
        return self.b_ids[b_row]


def _field_choice(part: Partition, fields: list[str] | None, id_field: str | None,
                  like: Sequence[str] | None = None) -> tuple[tuple[Reading, str], FileRead]:
    """The text and id fields of one B file, chosen as the single-machine path does
    (:func:`~ngram_core.read.fields.choose_fields`), from its first MiB (or first 1,000
    Parquet rows): the client never reads B whole. Also what was read of it (its
    rows are counted later, by the walk)."""
    if part.empty:
        return (Reading((), True), ""), empty_read(part.path)
    try:
        if part.layout is not None or part.by_item:
            return _choice_of(part, head_table(
                delimited_tables(part.path, part.layout, FIELD_SAMPLE_BYTES)
                if part.layout is not None else json_array_tables(part.path, FIELD_SAMPLE_BYTES),
                SAMPLE_ROWS), fields, id_field, like)
    except NotStreamable:
        pass                          # a broken JSON array: read whole, it says why
    try:
        table = read_path_table(part.path, part.options, head=FIELD_SAMPLE_BYTES)
        head = FIELD_SAMPLE_BYTES
        while len(table) < SAMPLE_ROWS:   # the rows every reading judges the id field on
            head *= 4
            more = read_path_table(part.path, part.options, head=head)
            if len(more) == len(table):
                break                     # the whole file
            table = more
    except InputError:
        if _by_line(part.options):     # whole lines of JSONL or text: a real error, at once
            raise
        # a JSON document or a CSV (a quoted field cut at the head's end): read whole,
        # as its one partition is anyway; a line-based file never is
        table = read_path_table(part.path, part.options)
    return _choice_of(part, table, fields, id_field, like)


def _choice_of(part: Partition, table: Table, fields: list[str] | None, id_field: str | None,
               like: Sequence[str] | None) -> tuple[tuple[Reading, str], FileRead]:
    stats = field_stats(table)
    choice = choose_fields(table, stats, fields, id_field, like)
    # B's: its label fields' sentences too, and its later rows of shapes not seen here
    reading = replace(choice.reading, training=True,
                      shapes=record_shapes(table) if choice.reading.detected else frozenset())
    return (reading, choice.id_field or ""), file_read(part.path, 0, table, stats, choice, "b")


def assemble(a_rows: list[Row], a: TokenizedRows, tokenizer: Tokenizer, settings: Settings,
             total: Combined, parts: Sequence[Partition],
             windows_ignored: int = 0,
             fields: tuple[Sequence[str], Sequence[str]] = ((), ()),
             windows_capped: int = 0, template: Template = NO_TEMPLATE,
             pieces: Sequence[ShortPiece] = ()) -> StreamedResult:
    """Turn the combined partials into per-row matches, the summary and the CSV;
    ``pieces``: A's short pieces, as numbered in ``total.contained``."""
    n = settings.n
    parts_paths = {part.file_index: part.path for part in parts}
    # global B row numbers: partitions in order, rows in order
    first_row: dict[int, int] = {}
    file_first: dict[int, int] = {}
    running = 0
    for part in parts:
        first_row[part.index] = running
        file_index, count = total.rows.get(part.index, (part.file_index, 0))
        file_first.setdefault(file_index, running)
        running += count
    b_ids: dict[int, str] = {}
    starts_by_row: dict[int, list[int]] = {}
    for q in sorted(total.starts):
        starts_by_row.setdefault(bisect_right(a.offsets, q) - 1, []).append(q)
    contained = contained_rows(total.contained, pieces)
    matches = []
    for r, row in enumerate(a_rows):
        start, end = a.offsets[r], a.offsets[r + 1]
        m = RowMatch(r, classify(row, end - start, n), end - start)
        if r in total.dups:
            where = total.dups[r]
            m.duplicate_of = first_row[where.partition] + where.b_row
        if r in contained:
            found = total.contained[contained[r]]
            set_contained(m, pieces[contained[r]], first_row[found.at.partition] + found.at.b_row,
                          found.b_start)
            m.contained_chars = found.b_chars
        if r in total.similar:
            m.similarity, partition, b_row = total.similar[r]
            m.similar_b_row = first_row[partition] + b_row
            m.similar_b_id = total.similar_ids.get((partition, b_row))
        if m.status == CHECKABLE and r in starts_by_row:
            row_starts = starts_by_row[r]
            m.windows = len(row_starts)
            m.dirty = coverage(row_starts, n)
            if r in a.part_ends:
                m.field_dirty = dirty_by_part(covered_runs([q - start for q in row_starts], n),
                                              a.part_ends[r])
            best = total.best[r]
            key = best.key
            m.span = -key.neg_windows + n - 1
            m.b_row = first_row[key.partition] + key.b_row
            m.a_start, m.b_start = key.a_start, key.b_start
            m.a_chars = tokenizer.char_range(row.text, key.a_start, key.a_start + m.span - 1)
            m.b_chars = best.b_chars
            part = parts[key.partition]
            b_ids[m.b_row] = best.b_id if best.b_id is not None else str(
                m.b_row - file_first[part.file_index] + 1)
        matches.append(m)
    summary = summarize(matches, settings, tokenizer, b_rows=running,
                        windows_capped=windows_capped,
                        windows_ignored=windows_ignored, a_rows=a_rows, part_ends=a.part_ends,
                        a_fields=fields[0], b_fields=fields[1], template=template)
    b_files = RowFiles(tuple(file_first[i] for i in sorted(file_first)),
                       tuple(shown(parts_paths[i]) for i in sorted(file_first)))
    return StreamedResult(settings, a_rows, tokenizer, matches, summary, b_ids=b_ids,
                             b_files=b_files)


def check_streamed(a_rows: list[Row], b_paths: Sequence[str],
                      settings: Settings, *, a_fields: Sequence[str] = (),
                      b_fields: list[str] | None = None, b_like: Sequence[str] | None = None,
                      b_id_field: str | None = None,
                      b_options: ReadOptions = ReadOptions(role="b"),
                      blocksize: int = DEFAULT_BLOCKSIZE,
                      on_progress: Callable[[Progress], object] | None = None,
                      definitions: bool = False,
                      executor: Executor | None = None) -> StreamedResult:
    """The check with A indexed here and B streamed past it a partition at a time:
    in this process (``executor`` None, partitions in file order) or through an
    executor's workers (Dask); once more with ``definitions``, for the published
    definitions.

    With ``settings.max_b_rows``, B is streamed twice: once to count the B rows
    holding each of A's windows, then to walk it without the windows found in
    more than that many rows. ``on_progress`` is called with a
    :class:`~ngram_core.run.check.Progress` of stage ``"stream B"`` as partitions
    finish. ``a_fields``: the text fields A was read from; ``b_like``: A's
    detected text fields, read from B too where it has them all.
    """
    parts = plan_partitions(b_paths, b_options, blocksize)
    tokenizer, a, index = index_a(a_rows, settings)
    template = template_for(a, settings, tokenizer)
    if template.masked:
        index = index.unmasked(template.masked)         # A's template matches nothing
    choices: dict[int, tuple[Reading, str]] = {}
    reads: dict[int, FileRead] = {}
    for part in parts:
        if part.file_index not in choices:
            choice, reads[part.file_index] = _field_choice(part, b_fields, b_id_field, b_like)
            choices[part.file_index] = choice
    passes = 1 if settings.max_b_rows is None else 2
    sizes = {part.index: part_bytes(part) for part in parts}
    whole = passes * sum(sizes.values())
    done_bytes = 0

    def report(partial: Any) -> None:          # progress in bytes of B read (on disk)
        nonlocal done_bytes
        done_bytes += sizes[partial.partition]
        if on_progress is not None:
            on_progress(Progress("stream B", done_bytes, whole))

    ignored: set[bytes] = set()
    if settings.max_b_rows is not None:
        rows_of: dict[bytes, int] = {}
        for counted in _over_partitions(executor, count_partition, parts, choices, index):
            for key, rows in counted.counts.items():
                rows_of[key] = rows_of.get(key, 0) + rows
            report(counted)
        ignored = {key for key, rows in rows_of.items() if rows > settings.max_b_rows}
        index = index.without(ignored)
    total = Combined()
    walked: dict[int, PartitionResult] = {}
    for partial in _walks(executor, parts, choices, index):
        total.add(partial, best=False)
        walked[partial.partition] = _kept(partial)
        report(partial)
    in_order = [walked[part.index] for part in parts]
    again, capped = over_cap(in_order, settings.cap)
    if again:          # positions past the cap started spans: those partitions, ranked
        for partial in _over_partitions(executor, walk_partition, [parts[p] for p in again],
                                        choices, index, extra=again):
            walked[partial.partition] = _kept(partial)
    for part in parts:
        total.add_best(walked[part.index])
    b_reads, b_counts = _b_files(reads, walked.values(), settings.n)
    read = (a_fields, fields_beside([f for reading, _ in choices.values() for f in reading.fields],
                                    (r.text_fields for r in b_reads)))
    result = assemble(a_rows, a, tokenizer, settings, total, parts, len(ignored), read, capped,
                      template, index.pieces)
    result.b_reads, result.b_counts = b_reads, b_counts
    if definitions:
        result.definitions = _definitions(executor, a_rows, parts, choices)
    return result


def part_bytes(part: Partition) -> int:
    """A partition's bytes on disk (Parquet or Arrow pieces: their share of the file)."""
    if part.end >= 0:
        return part.end - part.start
    size = os.path.getsize(part.path)
    if part.pieces is not None:
        first, end, of = part.pieces
        return size * (end - first) // max(of, 1)
    return size


def _kept(partial: PartitionResult) -> PartitionResult:
    """What the client keeps of a partial once its starts, duplicates and contained
    rows are folded in: its spans and counts."""
    return replace(partial, starts=set(), dups={}, contained={}, similar={}, similar_ids={})


def _b_files(reads: dict[int, FileRead], walked, n: int
             ) -> tuple[list[FileRead], list[ShortCount]]:
    """Each B file as read (rows counted by the walk, its text fields with those its
    later rows' own shapes were read by) and its rows' short counts."""
    counts: dict[int, list[int]] = {i: [0, 0, 0, 0, 0] for i in reads}
    unread_in: dict[int, dict[str, None]] = {i: {} for i in reads}
    fields_read: dict[int, dict[tuple[str, ...], None]] = {i: {} for i in reads}
    for partial in sorted(walked, key=lambda partial: partial.partition):
        fields_read[partial.file_index].update(dict.fromkeys(partial.fields_read))
        c = counts[partial.file_index]
        c[0] += partial.rows
        c[1] += partial.blank
        c[2] += partial.short
        c[3] += partial.tokens
        c[4] += partial.unread
        unread_in[partial.file_index].update(dict.fromkeys(partial.unread_in))
    files = sorted(reads)
    return ([reads[i]._replace(rows=counts[i][0], unread=counts[i][4],
                               unread_in=tuple(unread_in[i]),
                               text_fields=fields_beside(reads[i].text_fields, fields_read[i]))
             for i in files],
            [ShortCount(counts[i][0], counts[i][1], counts[i][2], n, counts[i][3])
             for i in files])


def _walks(executor: Executor | None, parts: Sequence[Partition], choices: dict[int, tuple[Reading, str]],
           index: AIndex) -> Iterator[PartitionResult]:
    """Every partition walked: on an executor, in parallel, each told what is known
    of the cap when it is sent (:class:`CapFloor`) and ranked later where that was
    not enough (see :func:`over_cap`); in this process, in file order, each knowing the windows'
    occurrences before it, so no partition is walked twice."""
    if executor is not None:
        floor = CapFloor(index.cap)
        for partial in executor.map(walk_told, parts, choices, index,
                                    lambda part: floor.told(part.index)):
            floor.add(partial.partition, partial.seen)
            yield partial
        return
    before: dict[bytes, int] = {}
    for part in parts:
        partial = walk_partition(part, *choices[part.file_index], index, before)
        if partial.error is not None:
            raise partial.error
        for key, count in partial.seen.items():
            before[key] = before.get(key, 0) + count
        yield partial


def _definitions(executor: Executor | None, a_rows: list[Row], parts: Sequence[Partition],
                 choices: dict[int, tuple[Reading, str]]) -> Definitions:
    """The published definitions over B's partitions: A prepared here, each piece of
    B searched on a worker, the findings merged (in any order) and judged here."""
    prepared = run_steps(prepare_steps(a_rows))
    found = Findings()
    rows_of: dict[int, list[int]] = {}
    for partial in _over_partitions(executor, find_in_partition, parts, choices,
                                    prepared.probe):
        found.merge(partial.findings)
        rows_of[partial.partition] = partial.piece_rows
    first_rows, running = {}, 0
    for part in parts:
        for piece, count in enumerate(rows_of.get(part.index, [])):
            first_rows[part.index << PIECE_BITS | piece] = running
            running += count
    return run_steps(finalize_steps(prepared, found, first_rows))


def _over_partitions(executor: Executor | None, work: Callable[..., Any],
                     parts: Sequence[Partition], choices: dict[int, tuple[Any, ...]],
                     index: Any, extra: Extra = None) -> Iterator[Any]:
    """Run ``work(part, fields, id_field, index)`` (with :func:`extra_of` ``extra``
    after them, when given) on every partition and yield each result: in this process in
    file order (``executor`` None), or as ``executor`` runs them (Dask: in parallel,
    as they finish). The first result carrying an error stops the rest and raises it."""
    if executor is not None:
        yield from executor.map(work, parts, choices, index, extra)
        return
    more = extra_of(extra)
    for part in parts:
        result = work(part, *choices[part.file_index], index, *more(part))
        if result.error is not None:
            raise result.error
        yield result
