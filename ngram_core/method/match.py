"""Stage 4: walk file A once against B's window index.

For each A row (``tokens`` long, n the window size):

* **windows**: A start positions whose n-token window is in B;
* **dirty**: tokens inside any matched window, from any B row, each counted
  once however many windows cover it;
* **span**: the longest run of consecutive matched windows on one diagonal
  (one B row, one offset between A and B positions); k windows make
  ``k + n - 1`` tokens, the longest common token run of the A row and that B
  row. The **best B row** holds it; ties go to the B row first in file B,
  then the earliest A start, then the earliest B start;
* **duplicate_of**: the first B row whose whole token sequence equals the A
  row's (any length >= 1: short rows too);
* **contained_in**: for a short piece of the row (fewer than n tokens, at
  least ``short_min``) -- the whole row when it is short, and each of its
  fields that is short when the row was read from several -- the first B row
  in file order whose tokens hold the whole piece contiguously, at the
  earliest position there (every B position is seen: neither the cap nor the
  frequency filter applies). Of a row's contained pieces the whole row wins,
  then the longest field, then the field read first (``contained_part``).
  A field is found whether or not the fields around it are: joining fields
  into a row never hides a short question that B quotes alone.

Worked example with n = 3: A = ``x a b c d y`` and B row 0 = ``a b c d``.
Windows ``a b c`` (A start 1) and ``b c d`` (A start 2) match on one diagonal,
so windows = 2, dirty = 4 (tokens 1..4), span = 2 + 3 - 1 = 4, best B row 0,
A start 1, B start 0.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from typing import NamedTuple

from .index import WindowIndex
from ..steps import Pacer, run_steps
from .tokenize import TokenizedRows

#: A windows walked between two looks at the clock.
CHUNK_WINDOWS = 1024

BLANK, SHORT, CHECKABLE = "blank", "short", "checkable"


@dataclass(slots=True)
class RowMatch:
    """What one A row shares with file B. Row numbers are 0-based indexes here.

    ``a_start``/``b_start`` are token indexes within the A row and the best B
    row where the longest span starts; the ``*_chars`` fields are the span's
    ``[start, end)`` code-point offsets in each row's text, filled in by
    :func:`add_char_offsets`.
    """
    row: int
    status: str
    tokens: int
    windows: int = 0
    dirty: int = 0
    span: int = 0
    b_row: int | None = None
    a_start: int | None = None
    b_start: int | None = None
    duplicate_of: int | None = None
    a_chars: tuple[int, int] | None = None
    b_chars: tuple[int, int] | None = None
    contained_in: int | None = None
    contained_start: int | None = None           # token index in that B row
    contained_chars: tuple[int, int] | None = None
    #: Which piece was contained: the index of its field in the row's ``parts``
    #: (None: the whole row); its tokens are ``contained_tokens`` from
    #: ``contained_a_start`` in the A row.
    contained_part: int | None = None
    contained_a_start: int = 0
    contained_tokens: int = 0
    #: For a row read from several fields: its dirty tokens in each field, in
    #: the row's ``parts`` order (None: one field, or not checkable).
    field_dirty: tuple[int, ...] | None = None
    #: The rephrase lens (:mod:`~ngram_core.method.similar`): the B row most similar
    #: in its words and that similarity (None: no B row is a candidate, or the
    #: lens did not run).
    similar_b_row: int | None = None
    similarity: float | None = None
    #: that B row's id where a streamed run knows it (a suite's removals name it)
    similar_b_id: str | None = None

    @property
    def share(self) -> float:
        """dirty / tokens (0.0 for a row with no tokens)."""
        return self.dirty / self.tokens if self.tokens else 0.0


def classify(row, tokens: int, n: int) -> str:
    """blank (no text), short (fewer than n tokens) or checkable."""
    if row.blank:
        return BLANK
    return CHECKABLE if tokens >= n else SHORT


def coverage(starts, n: int) -> int:
    """Tokens covered by windows starting at the sorted, distinct ``starts``.

    >>> coverage([0, 1, 10], 3)      # [0, 4) and [10, 13)
    7
    """
    covered = 0
    covered_end = None
    for s in starts:
        covered += n if covered_end is None or s >= covered_end else s + n - covered_end
        covered_end = s + n
    return covered


def covered_runs(starts, n: int) -> list[int]:
    """The tokens covered by windows at the sorted, distinct ``starts``, as merged
    half-open runs flattened ``[s0, e0, s1, e1, ...]``:

    >>> covered_runs([0, 1, 10], 3)      # [0, 4) and [10, 13)
    [0, 4, 10, 13]
    """
    edges: list[int] = []
    for s in starts:
        if edges and s <= edges[-1]:
            edges[-1] = s + n
        else:
            edges += (s, s + n)
    return edges


def dirty_by_part(edges, part_ends) -> tuple[int, ...]:
    """Covered tokens in each part of a row: ``edges`` are its covered runs
    (:func:`covered_runs`, local token positions), ``part_ends`` where each
    part's tokens end (``TokenizedRows.part_ends``). Parts ``[0, 4)`` and
    ``[4, 9)`` with run ``[2, 6)``::

        >>> dirty_by_part([2, 6], (4, 9))
        (2, 2)
    """
    out, begin, i = [], 0, 0
    for end in part_ends:
        while i < len(edges) and edges[i + 1] <= begin:
            i += 2                      # runs that end before this part
        covered, j = 0, i
        while j < len(edges) and edges[j] < end:
            covered += min(edges[j + 1], end) - max(edges[j], begin)
            j += 2
        out.append(covered)
        begin = end
    return tuple(out)


def masked_at(masked: Sequence[int], g: int) -> bool:
    """Whether A's window at global position ``g`` is masked: ``masked`` holds sorted
    half-open ranges of window starts flattened ``(lo0, hi0, lo1, hi1, ...)`` (the test
    file's template, :mod:`~ngram_core.method.template`)::

        >>> [masked_at((0, 7, 10, 17), g) for g in (0, 6, 7, 10, 17)]
        [True, True, False, True, False]
    """
    return bisect_right(masked, g) % 2 == 1


def walk_row_steps(buf: bytes, start: int, end: int, index: WindowIndex, b_offsets,
                   masked: Sequence[int] = ()):
    """Match the A tokens ``[start, end)`` (global positions in ``buf``); a window
    starting at a ``masked`` position (:func:`masked_at`) matches nothing.

    A generator that yields the A position reached every few milliseconds
    (so one huge row does not block its caller) and returns
    ``(windows, dirty, best, edges)``, where best is None or
    ``(windows_in_run, b_row, a_start, b_start)`` with token indexes local to
    each row, and ``edges`` the covered runs ``[s0, e0, s1, e1, ...]`` in
    global positions (see :func:`covered_runs`).
    """
    n = index.n
    width = 4 * n
    get = index.table.get
    if masked and not masked_at(masked, start) and bisect_right(masked, start) == \
            bisect_right(masked, end):
        masked = ()                # no masked range touches the row
    windows = dirty = 0
    covered_end = start - 1        # before the row: the first window starts a run
    edges: list[int] = []          # [end of the run before, start of a run, ...]
    previous = None            # the last A position whose window matched
    best = None
    # The runs alive at `previous`: B position -> the A position where the run began.
    active: dict[int, int] = {}
    # Repeated text repeats one window, whose position list is then the same
    # object each time. While it does, the runs are kept as `starts`, aligned
    # with that list, and each window shifts them along the list's blocks of
    # consecutive positions: no per-position work in Python.
    same = None                # the repeated position list, or None
    starts: list[int] = []
    blocks: list[tuple[int, int]] = []

    def finish(first: int, last: int, p_last: int):
        """A run of windows first..last (A positions) ending at B position p_last."""
        nonlocal best
        p = p_last - (last - first)
        b_row = bisect_right(b_offsets, p) - 1
        key = (first - last - 1, b_row, first - start, p - b_offsets[b_row])
        if best is None or key < best:
            best = key

    def alive() -> dict:
        return dict(zip(same, starts)) if same is not None else active

    g = start
    last_start = end - n
    pacer = Pacer()
    while g <= last_start:
        stop = min(last_start + 1, g + CHUNK_WINDOWS)
        for g in range(g, stop):
            value = get(buf[4 * g:4 * g + width])
            if value is None or masked and masked_at(masked, g):
                continue
            windows += 1
            if g > covered_end:            # a run of covered tokens begins
                dirty += n
                edges += (covered_end, g)
            else:
                dirty += g + n - covered_end
            covered_end = g + n
            if previous == g - 1 and value is same:
                shifted: list[int] = []
                for first_i, stop_i in blocks:
                    finish(starts[stop_i - 1], g - 1, same[stop_i - 1])
                    shifted.append(g)
                    shifted += starts[first_i:stop_i - 1]
                starts = shifted
                previous = g
                continue
            if previous == g - 1:
                active = alive()
            else:                               # a gap: every run ended at `previous`
                if previous is not None:
                    for p, first in alive().items():
                        finish(first, previous, p)
                active = {}
            same = None
            if type(value) is int:
                if len(active) == 1 and value - 1 in active:
                    active[value] = active.pop(value - 1)      # one run, going on
                else:
                    first = active.pop(value - 1, g)
                    for p, begun in active.items():
                        finish(begun, g - 1, p)
                    active = {value: first}
            else:
                known = active.get
                extended = {p: known(p - 1, g) for p in value}
                for p, begun in active.items():
                    if p + 1 not in extended:
                        finish(begun, g - 1, p)
                same, starts = value, [extended[p] for p in value]
                blocks, first_i = [], 0
                for i in range(1, len(value) + 1):
                    if i == len(value) or value[i] != value[i - 1] + 1:
                        blocks.append((first_i, i))
                        first_i = i
            previous = g
        g = stop
        if pacer.due():
            yield g
    if previous is not None:
        for p, first in alive().items():
            finish(first, previous, p)
    if best is not None:
        best = (-best[0],) + best[1:]
    edges.append(covered_end)
    return windows, dirty, best, edges[1:]


def match_rows_steps(a: TokenizedRows, b: TokenizedRows, index: WindowIndex,
                     masked: Sequence[int] = ()):
    """Walk every A row; yields A tokens done, returns a list of RowMatch (file order).
    A window at a ``masked`` start (A's template) matches nothing."""
    n = index.n
    buf = a.buffer
    b_offsets = b.offsets
    rows_by_tokens = index.rows_by_tokens
    part_ends = a.part_ends
    results = []
    pacer = Pacer()
    for r, row in enumerate(a.rows):
        start, end = a.offsets[r], a.offsets[r + 1]
        tokens = end - start
        match = RowMatch(r, classify(row, tokens, n), tokens)
        if tokens:
            match.duplicate_of = rows_by_tokens.get(buf[4 * start:4 * end])
        if match.status == CHECKABLE:
            match.windows, match.dirty, best, edges = yield from walk_row_steps(
                buf, start, end, index, b_offsets, masked)
            if best is not None:
                run, match.b_row, match.a_start, match.b_start = best
                match.span = run + n - 1
            if r in part_ends:
                match.field_dirty = dirty_by_part([g - start for g in edges], part_ends[r])
        results.append(match)
        if pacer.due():
            yield end
    return results


ShortRows = dict[bytes, list[tuple[int, bytes]]]


class ShortPiece(NamedTuple):
    """A run of an A row's tokens tested for containment in a B row: the whole
    row (``part`` -1) or one of its fields (``part``: its index in the row's
    ``parts``), tokens ``[start, end)`` of the row."""
    row: int
    part: int
    start: int
    end: int

    @property
    def tokens(self) -> int:
        return self.end - self.start


def short_pieces(a: TokenizedRows, n: int, short_min: int) -> list[ShortPiece]:
    """The pieces of A to find whole in B (none when ``short_min`` is 0): each row
    of ``short_min <= tokens < n``, and each field of such a length of a row read
    from several fields (not when it is the whole row). Rows ``x y`` (short) and
    ``p q r s t | u v`` (fields of 5 and 2 tokens) with n = 5, short_min = 2::

        >>> from ngram_core.method.tokenize import Tokenizer, tokenize_rows
        >>> from ngram_core.table import Row
        >>> a = tokenize_rows([Row(1, "1", "x y"), Row(2, "2", "p q r s t\\nu v",
        ...                    (("context", 0, 9), ("question", 10, 13)))], Tokenizer(),
        ...                   by_part=True)
        >>> short_pieces(a, n=5, short_min=2)
        [ShortPiece(row=0, part=-1, start=0, end=2), ShortPiece(row=1, part=1, start=5, end=7)]
    """
    pieces: list[ShortPiece] = []
    if short_min <= 0:
        return pieces
    part_ends = a.part_ends
    for r in range(len(a.rows)):
        length = a.length(r)
        whole = short_min <= length < n
        if whole:
            pieces.append(ShortPiece(r, -1, 0, length))
        ends = part_ends.get(r)
        if ends is None:
            continue
        begin = 0
        for part, end in enumerate(ends):
            if short_min <= end - begin < n and not (whole and end - begin == length):
                pieces.append(ShortPiece(r, part, begin, end))
            begin = end
    return pieces


def short_rows_by_prefix(a: TokenizedRows, pieces: Sequence[ShortPiece],
                         short_min: int) -> ShortRows:
    """The pieces to test for containment (:func:`short_pieces`), keyed by their
    first ``short_min`` tokens: ``{prefix: [(piece number, whole piece key), ...]}``."""
    by_prefix: ShortRows = {}
    buf = a.buffer
    for number, piece in enumerate(pieces):
        first = a.offsets[piece.row] + piece.start
        key = buf[4 * first:4 * (first + piece.tokens)]
        by_prefix.setdefault(key[:4 * short_min], []).append((number, key))
    return by_prefix


def contained_rows(found: Mapping[int, object], pieces: Sequence[ShortPiece]
                   ) -> dict[int, int]:
    """Each A row with a contained piece -> the piece that speaks for it: the whole
    row, else the longest field, else the field read first. ``found`` is keyed by
    piece number::

        >>> pieces = [ShortPiece(0, 0, 0, 3), ShortPiece(0, 1, 3, 7), ShortPiece(1, -1, 0, 4)]
        >>> contained_rows({0: "b1", 1: "b2", 2: "b9"}, pieces)
        {0: 1, 1: 2}
    """
    chosen: dict[int, int] = {}
    for number in sorted(found):
        piece = pieces[number]
        best = chosen.get(piece.row)
        if best is None or _speaks_first(piece, pieces[best]):
            chosen[piece.row] = number
    return chosen


def _speaks_first(piece: ShortPiece, other: ShortPiece) -> bool:
    return (piece.part < 0, piece.tokens, -piece.part) > (other.part < 0, other.tokens,
                                                          -other.part)


def set_contained(match: RowMatch, piece: ShortPiece, b_row: int, b_start: int) -> None:
    """Record on ``match`` that ``piece`` was found whole in ``b_row`` at ``b_start``."""
    match.contained_in, match.contained_start = b_row, b_start
    match.contained_part = None if piece.part < 0 else piece.part
    match.contained_a_start, match.contained_tokens = piece.start, piece.tokens


def contained_field(row, match: RowMatch) -> str:
    """The field of ``row`` that ``match`` found whole in a B row (``""``: the whole
    row was, or nothing was)::

        >>> from ngram_core.table import Row
        >>> row = Row(1, "1", "p\\nq", (("context", 0, 1), ("question", 2, 3)))
        >>> contained_field(row, RowMatch(0, CHECKABLE, 20, contained_in=4, contained_part=1))
        'question'
    """
    if match.contained_in is None or match.contained_part is None:
        return ""
    return row.parts[match.contained_part][0]


def contained_a_chars(match: RowMatch, spans) -> tuple[int, int]:
    """The ``[start, end)`` characters in the A row of the piece ``match`` found whole,
    given the row's token ``spans``."""
    first = match.contained_a_start
    last = first + (match.contained_tokens or match.tokens) - 1
    return spans[first][0], spans[last][1]


def contained_in_row(by_prefix: ShortRows, short_min: int, buf: bytes, start: int,
                     end: int, candidates: Iterable[int] | None = None
                     ) -> Iterator[tuple[int, int]]:
    """Every ``(piece, b_start)`` whose whole piece lies in B tokens ``[start, end)``,
    by position (``b_start`` counts from ``start``); a piece may come more than once.

    ``candidates``: the positions of the row, in order, among which every one whose
    first ``short_min`` tokens start a short row is (the Dask engine's first pass);
    by default each position is looked at."""
    width = 4 * short_min
    first, last = 4 * start, 4 * (end - short_min + 1)
    if last <= first:
        return
    hits: Iterable[int]
    if candidates is None:
        # every position's first short_min tokens, looked up in C; Python sees the hits only
        prefixes = map(buf.__getitem__, map(slice, range(first, last, 4),
                                            range(first + width, last + width, 4)))
        positions = range(end - short_min + 1 - start)
        hits = compress(positions, map(by_prefix.__contains__, prefixes))
    else:
        hits = (g - start for g in candidates if buf[4 * g:4 * g + width] in by_prefix)
    for i in hits:
        g = start + i
        for piece, key in by_prefix[buf[4 * g:4 * g + width]]:
            stop = 4 * g + len(key)
            if stop <= 4 * end and buf[4 * g:stop] == key:
                yield piece, i


#: Up to this many short rows, each is searched for in B's buffer on its own
#: (``bytes.find``, in C: about 0.2 ms a row per MB of B); with more, B's
#: positions are scanned once (about 65 ms per MB whatever their number).
SEARCH_EACH_MAX = 256


def search_each_steps(by_prefix: ShortRows, buf: bytes, offsets: list[int]):
    """:func:`contained_steps` by searching B's whole buffer for each short piece: its
    first occurrence at a token boundary that ends within its B row (bytes.find
    may also land inside a token, or on a run crossing a row end: then it looks
    further on). Yields progress as B tokens (short rows done, scaled to B's length,
    as :func:`contained_steps` counts)."""
    found: dict[int, tuple[int, int]] = {}
    pacer = Pacer()
    done, wanted, tokens = 0, sum(map(len, by_prefix.values())), len(buf) // 4
    for entries in by_prefix.values():
        for piece, key in entries:
            at = buf.find(key)
            while at >= 0:
                if at % 4 == 0:
                    g = at // 4
                    b_row = bisect_right(offsets, g) - 1
                    if g + len(key) // 4 <= offsets[b_row + 1]:
                        found[piece] = (b_row, g - offsets[b_row])
                        break
                at = buf.find(key, at + 1)
            done += 1
            if pacer.due():
                yield tokens * done // wanted
    return found


def contained_steps(a: TokenizedRows, b: TokenizedRows, pieces: Sequence[ShortPiece],
                    short_min: int):
    """Short pieces of A (:func:`short_pieces`) found whole inside one B row:
    ``{piece number: (b_row, b_start)}``.

    Up to :data:`SEARCH_EACH_MAX` pieces, each is searched for in B's buffer
    (:func:`search_each_steps`); with more, B is scanned once in file order: each
    window of ``short_min`` tokens is looked up among the pieces' first
    ``short_min`` tokens and a hit is compared in full. Either way the first B
    row and the earliest position win. With
    n = 5 and short_min = 2, A row ``c d e`` is contained in B row
    ``b c d e f`` at token 1::

        >>> from ngram_core.method.tokenize import Tokenizer, tokenize_rows
        >>> from ngram_core.table import Row
        >>> t = Tokenizer()
        >>> a = tokenize_rows([Row(1, "1", "c d e")], t)
        >>> b = tokenize_rows([Row(1, "1", "c d"), Row(2, "2", "b c d e f")], t)
        >>> run_steps(contained_steps(a, b, short_pieces(a, 5, 2), short_min=2))
        {0: (1, 1)}
    """
    by_prefix = short_rows_by_prefix(a, pieces, short_min)
    wanted = sum(map(len, by_prefix.values()))
    if wanted <= SEARCH_EACH_MAX:
        return (yield from search_each_steps(by_prefix, b.buffer, b.offsets))
    found: dict[int, tuple[int, int]] = {}
    pacer = Pacer()
    for b_row in range(len(b.offsets) - 1 if wanted else 0):
        for piece, b_start in contained_in_row(by_prefix, short_min, b.buffer,
                                               b.offsets[b_row], b.offsets[b_row + 1]):
            found.setdefault(piece, (b_row, b_start))
        if len(found) == wanted:
            break
        if pacer.due():
            yield b.offsets[b_row + 1]
    return found


def add_char_offsets_steps(matches, a: TokenizedRows, b: TokenizedRows, tokenizer):
    """Fill ``a_chars``/``b_chars`` for every row with a span, and ``contained_chars``
    for every contained row; yields rows done."""
    pacer = Pacer()
    spans_steps = tokenizer.spans_steps
    for count, m in enumerate(matches, 1):
        if m.span:                        # each row's spans up to the span's last token only
            a_last, b_last = m.a_start + m.span - 1, m.b_start + m.span - 1
            a_spans = yield from spans_steps(a.rows[m.row].text, limit=a_last + 1)
            b_spans = yield from spans_steps(b.rows[m.b_row].text, limit=b_last + 1)
            m.a_chars = (a_spans[m.a_start][0], a_spans[a_last][1])
            m.b_chars = (b_spans[m.b_start][0], b_spans[b_last][1])
        if m.contained_in is not None:
            first, last = m.contained_start, m.contained_start + m.contained_tokens - 1
            b_spans = yield from spans_steps(b.rows[m.contained_in].text, limit=last + 1)
            m.contained_chars = (b_spans[first][0], b_spans[last][1])
        if pacer.due():
            yield count


def starts_to_chars(starts, n: int, spans) -> list[tuple[int, int]]:
    """Merge the windows ``[s, s + n)`` at the given token starts into character ranges.

    Overlapping or touching windows merge, so the text between two adjacent
    tokens is highlighted with them::

        >>> spans = [(0, 2), (3, 5), (6, 8), (9, 10), (11, 12), (13, 15)]
        >>> starts_to_chars([0, 1, 5], 2, spans)     # windows [0, 2) [1, 3) [5, 7)
        [(0, 8), (13, 15)]
    """
    return run_steps(starts_to_chars_steps(starts, n, spans))


def starts_to_chars_steps(starts, n: int, spans):
    """:func:`starts_to_chars` as steps (a 2 MB row has 400,000 windows)."""
    ordered = starts if isinstance(starts, list) else sorted(starts)
    yield 0
    merged: list[list[int]] = []
    pacer = Pacer()
    for count, first in enumerate(ordered):
        stop = min(first + n, len(spans))
        if merged and first <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], stop)
        else:
            merged.append([first, stop])
        if count % CHUNK_WINDOWS == 0 and pacer.due():
            yield count
    return [(spans[first][0], spans[stop - 1][1]) for first, stop in merged]


def highlight(a: TokenizedRows, b: TokenizedRows, index: WindowIndex, match: RowMatch,
              tokenizer, masked: Sequence[int] = ()
              ) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Character ranges to mark in the A row and in its best B row.

    Only windows matched *in that B row* count, in both panes: the A tokens
    they cover and the B tokens they were matched to, merged (a window at a
    ``masked`` start, A's template, matches nothing).
    """
    return run_steps(highlight_steps(a, b, index, match, tokenizer, masked))


def highlight_steps(a: TokenizedRows, b: TokenizedRows, index: WindowIndex, match: RowMatch,
                    tokenizer, masked: Sequence[int] = ()):
    """:func:`highlight` as steps, for rows of any length.

    Windows are collected as sets of start positions, so a window that
    matches the same B row 32 times costs one entry, not 32.
    """
    if match.b_row is None:
        return [], []
    n = index.n
    buf = a.buffer
    get = index.table.get
    start, end = a.offsets[match.row], a.offsets[match.row + 1]
    b_first, b_end = b.offsets[match.b_row], b.offsets[match.b_row + 1]
    a_starts, b_starts = [], set()        # A starts come in order, once each
    pacer = Pacer()
    last_value = None
    in_row: list[int] = []
    for g in range(start, end - n + 1):
        value = get(buf[4 * g:4 * g + 4 * n])
        if value is not None and masked and masked_at(masked, g):
            continue
        if type(value) is int:
            if b_first <= value < b_end:
                a_starts.append(g - start)
                b_starts.add(value - b_first)
        elif value is not None:
            if value is not last_value:   # repeated text repeats the same position list
                in_row = [p - b_first for p in value if b_first <= p < b_end]
                b_starts.update(in_row)
                last_value = value
            if in_row:
                a_starts.append(g - start)
        if g % CHUNK_WINDOWS == 0 and pacer.due():
            yield g
    a_spans = yield from tokenizer.spans_steps(a.rows[match.row].text)
    b_spans = yield from tokenizer.spans_steps(b.rows[match.b_row].text)
    a_ranges = yield from starts_to_chars_steps(a_starts, n, a_spans)
    b_ranges = yield from starts_to_chars_steps(b_starts, n, b_spans)
    return a_ranges, b_ranges
