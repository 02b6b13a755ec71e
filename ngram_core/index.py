"""Stage 3: every n-token window of file B, keyed once into one index.

A key is the exact bytes of a window's token ids (4 bytes a token), so a hit
is a verified match by construction: two windows share a key only when their
normalized tokens are equal, and no hash collision can draw a false span.

At most ``cap`` (32) positions are kept per window, the first ones in file
order; ``capped`` counts the distinct windows that occurred more often than
that, whose later positions were not kept.

Positions are global token positions in B's :class:`TokenizedRows`: the
window starting at ``g`` covers tokens ``[g, g + n)`` of row ``r`` where
``offsets[r] <= g`` and ``g + n <= offsets[r + 1]``. Windows never cross rows::

    >>> from ngram_core.tokenize import Tokenizer, tokenize_rows
    >>> from ngram_core.readers import Row
    >>> b = tokenize_rows([Row(1, "1", "a b c"), Row(2, "2", "b c d")], Tokenizer())
    >>> index = build_index(b, n=2)
    >>> sorted(index.positions(b.buffer[4:12]))   # the window "b c": row 1 at 1, row 2 at 3
    [1, 3]
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .steps import Pacer, run_steps
from .tokenize import TokenizedRows

N_MIN, N_MAX, N_DEFAULT = 5, 25, 13
POSITION_CAP = 32
#: Windows indexed between two looks at the clock.
CHUNK_WINDOWS = 2048


@dataclass
class WindowIndex:
    """Window key -> first B position (an int) or first positions (a list, at most cap)."""
    n: int
    cap: int
    table: dict = field(default_factory=dict)
    capped: int = 0
    #: whole-row token sequence -> first B row holding it (rows of >= 1 token)
    rows_by_tokens: dict = field(default_factory=dict)

    def positions(self, key: bytes) -> list[int]:
        value = self.table.get(key)
        if value is None:
            return []
        return [value] if type(value) is int else list(value)


def build_index_steps(b: TokenizedRows, n: int, cap: int = POSITION_CAP):
    """Index every window of every B row; yields windows done, returns the WindowIndex."""
    index = WindowIndex(n, cap)
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
    index.capped = len(over)
    return index


def build_index(b: TokenizedRows, n: int, cap: int = POSITION_CAP) -> WindowIndex:
    """:func:`build_index_steps` run to the end."""
    return run_steps(build_index_steps(b, n, cap))
