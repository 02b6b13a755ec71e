"""The windows most shared across a check: what a reviewer reads first to tell a leak
from a stock phrase, a template or a licence line.

Contract: :func:`most_shared` lists the distinct n-token windows of A that matched
(found in B, not left out), ordered by the A rows holding them (most first), then
the B rows holding them, then where A first holds them; each with its text as the
first A row holding it has it (from its first token to its last), the A rows
holding it (0-based, in file order) and the B rows among the positions B's index
keeps (at most the cap; ``capped`` when B holds it at more). A boilerplate line
shows as one window held by most rows::

    >>> from ngram_core import Row, Settings, run_check
    >>> line = "Licensed under the Apache License version two point zero"
    >>> a = [Row(i, f"a{i}", f"{line}. Item {i} asks something new.") for i in (1, 2, 3)]
    >>> b = [Row(1, "b1", f"{line}, see the notice.")]
    >>> top = most_shared(run_check(a, b, Settings(n=5, keep_template=True)))
    >>> top[0].text, top[0].a_rows, top[0].b_rows
    ('Licensed under the Apache License', (0, 1, 2), 1)
    >>> len(top)                   # the line's 9 tokens: 5 windows, each in all 3 rows
    5
"""

from __future__ import annotations

from bisect import bisect_right
from typing import NamedTuple

from ..method.match import masked_at
from ..steps import Pacer, StepGenerator, run_steps

#: Windows listed, at most.
SHOWN = 10


class SharedWindow(NamedTuple):
    """One window of A found in B (see the module's contract)."""
    text: str
    a_rows: tuple[int, ...]
    b_rows: int
    capped: bool


def most_shared_steps(result, limit: int = SHOWN) -> StepGenerator[int, list[SharedWindow]]:
    """:func:`most_shared` as steps, yielding A rows done (a big file on the page)."""
    a, b, index = result.a, result.b, result.index
    n, buf, offsets = index.n, a.buffer, a.offsets
    masked = result.template.masked
    width = 4 * n
    holding: dict[bytes, list[int]] = {}       # window -> A rows holding it, in order
    first_at: dict[bytes, int] = {}            # window -> its first A position
    pacer = Pacer()
    for m in result.matches:
        if not m.windows:
            continue
        r = m.row
        for g in range(offsets[r], offsets[r + 1] - n + 1):
            key = buf[4 * g:4 * g + width]
            if key not in index.table or (masked and masked_at(masked, g)):
                continue
            rows = holding.setdefault(key, [])
            if not rows:
                first_at[key] = g
            if not rows or rows[-1] != r:
                rows.append(r)
        if pacer.due():
            yield r
    b_offsets = b.offsets

    def b_rows_of(key: bytes) -> int:
        return len({bisect_right(b_offsets, p) - 1 for p in index.positions(key)})

    ranked = sorted(holding, key=lambda k: (-len(holding[k]), -b_rows_of(k), first_at[k]))
    out = []
    for key in ranked[:limit]:
        g = first_at[key]
        r = holding[key][0]
        start = g - offsets[r]
        spans = result.tokenizer.spans(result.a_rows[r].text)
        text = result.a_rows[r].text[spans[start][0]:spans[start + n - 1][1]]
        out.append(SharedWindow(text, tuple(holding[key]), b_rows_of(key), key in index.over))
    return out


def most_shared(result, limit: int = SHOWN) -> list[SharedWindow]:
    """The windows of ``result`` most shared (see the module's contract), at most
    ``limit``."""
    return run_steps(most_shared_steps(result, limit))
