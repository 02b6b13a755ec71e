"""Stage 3: every n-token window of file B, keyed once into one index.

A key is the exact bytes of a window's token ids (4 bytes a token), so a hit
is a verified match by construction: two windows share a key only when their
normalized tokens are equal, and no hash collision can draw a false span.

At most ``cap`` (32) positions are kept per window, the first ones in file
order; ``over`` holds the distinct windows that occurred more often than
that, whose later positions were not kept. A result counts only those A also
holds (:func:`shared_with`): the ones that can change a figure, and the ones
an engine that indexes A instead of B can count too.

With ``max_b_rows`` K, a window found in more than K distinct B rows (a
licence line, a prompt template, a famous quotation) is dropped from the
index, so it matches nothing; the count of rows is exact, whatever the cap
keeps. ``ignored`` lists those windows as (B rows, window key), most rows
first.

Positions are global token positions in B's :class:`TokenizedRows`: the
window starting at ``g`` covers tokens ``[g, g + n)`` of row ``r`` where
``offsets[r] <= g`` and ``g + n <= offsets[r + 1]``. Windows never cross rows::

    >>> from ngram_core.method.tokenize import Tokenizer, tokenize_rows
    >>> from ngram_core.table import Row
    >>> b = tokenize_rows([Row(1, "1", "a b c"), Row(2, "2", "b c d")], Tokenizer())
    >>> index = build_index(b, n=2)
    >>> sorted(index.positions(b.buffer[4:12]))   # the window "b c": row 1 at 1, row 2 at 3
    [1, 3]
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field

from ..steps import Pacer, run_steps
from .tokenize import TokenizedRows

N_MIN, N_MAX, N_DEFAULT = 5, 25, 13
POSITION_CAP = 32
#: How many of the ignored windows the index keeps to show, most rows first.
MOST_REPEATED_KEPT = 20
#: Windows indexed between two looks at the clock.
CHUNK_WINDOWS = 2048


@dataclass
class WindowIndex:
    """Window key -> first B position (an int) or first positions (a list, at most cap)."""
    n: int
    cap: int
    table: dict = field(default_factory=dict)
    over: set = field(default_factory=set)
    #: whole-row token sequence -> first B row holding it (rows of >= 1 token)
    rows_by_tokens: dict = field(default_factory=dict)
    max_b_rows: int | None = None
    ignored: list[tuple[int, bytes]] = field(default_factory=list)

    def positions(self, key: bytes) -> list[int]:
        value = self.table.get(key)
        if value is None:
            return []
        return [value] if type(value) is int else list(value)


def build_index_steps(b: TokenizedRows, n: int, cap: int = POSITION_CAP,
                      max_b_rows: int | None = None):
    """Index every window of every B row; yields windows done, returns the WindowIndex."""
    index = WindowIndex(n, cap, max_b_rows=max_b_rows)
    table = index.table
    get = table.get
    over: set = set()
    buf = b.buffer
    width = 4 * n
    offsets = b.offsets
    rows_by_tokens = index.rows_by_tokens
    pacer = Pacer()
    for r in range(len(offsets) - 1):
        start, end = offsets[r], offsets[r + 1]
        if end > start:
            rows_by_tokens.setdefault(buf[4 * start:4 * end], r)
        g, last = start, end - n
        while g <= last:
            stop = min(last + 1, g + CHUNK_WINDOWS)
            for h in range(g, stop):
                key = buf[4 * h:4 * h + width]
                value = get(key)
                if value is None:
                    table[key] = h
                elif type(value) is int:
                    if cap > 1:
                        table[key] = [value, h]
                    else:
                        over.add(key)
                elif len(value) < cap:
                    value.append(h)
                else:
                    over.add(key)
            g = stop
            if pacer.due():
                yield g
        if pacer.due():
            yield end
    if max_b_rows is not None:
        rows_of = yield from count_rows_steps(b, n)
        ignored = [(rows, key) for key, rows in rows_of.items() if rows > max_b_rows]
        for _, key in ignored:
            del table[key]
        over.difference_update(key for _, key in ignored)
        ignored.sort(key=lambda item: (-item[0], item[1]))
        index.ignored = ignored
    index.over = over
    return index


def shared_with_steps(keys, a: TokenizedRows, n: int):
    """Which of ``keys`` (window keys) are windows of A: one pass over A's windows,
    only when there are keys to look for. Yields windows done; returns a set::

        >>> from ngram_core.method.tokenize import Tokenizer, tokenize_rows
        >>> from ngram_core.table import Row
        >>> t = Tokenizer()
        >>> a = tokenize_rows([Row(1, "1", "a b c")], t)
        >>> b = tokenize_rows([Row(1, "1", "b c x b c")], t)
        >>> run_steps(shared_with_steps({b.buffer[0:8], b.buffer[8:16]}, a, 2)) == {b.buffer[0:8]}
        True
    """
    found: set[bytes] = set()
    if not keys:
        return found
    buf, width, offsets = a.buffer, 4 * n, a.offsets
    pacer = Pacer()
    for r in range(len(offsets) - 1):
        for g in range(offsets[r], offsets[r + 1] - n + 1):
            key = buf[4 * g:4 * g + width]
            if key in keys:
                found.add(key)
        if pacer.due():
            yield offsets[r + 1]
    return found


def count_rows_steps(b: TokenizedRows, n: int, only: Container[bytes] | None = None):
    """How many distinct B rows hold each window: ``{window key: rows}`` (with
    ``only``, just for the windows in it: the Dask engine counts A's windows).

    A window repeated inside one row counts once for it::

        >>> from ngram_core.method.tokenize import Tokenizer, tokenize_rows
        >>> from ngram_core.table import Row
        >>> b = tokenize_rows([Row(1, "1", "a b a b"), Row(2, "2", "a b")], Tokenizer())
        >>> sorted(run_steps(count_rows_steps(b, 2)).values())   # "a b" in 2 rows, "b a" in 1
        [1, 2]
    """
    rows_of: dict[bytes, int] = {}
    get = rows_of.get
    buf, width, offsets = b.buffer, 4 * n, b.offsets
    pacer = Pacer()
    for r in range(len(offsets) - 1):
        start, end = offsets[r], offsets[r + 1]
        keys = {buf[4 * h:4 * h + width] for h in range(start, end - n + 1)}
        for key in keys if only is None else [k for k in keys if k in only]:
            rows_of[key] = get(key, 0) + 1
        if pacer.due():
            yield end
    return rows_of


def build_index(b: TokenizedRows, n: int, cap: int = POSITION_CAP,
                max_b_rows: int | None = None) -> WindowIndex:
    """:func:`build_index_steps` run to the end."""
    return run_steps(build_index_steps(b, n, cap, max_b_rows))
