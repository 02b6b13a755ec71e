"""The passages most shared across a check: what a reviewer reads first to tell a leak
from a stock phrase, a template or a licence line.

Contract: :func:`most_shared` lists the distinct passages of A that matched. A
passage is a run of text: the n-token windows of A found in B (not left out) that
overlap one another in a row of A are one run, and runs that share a window, in
any rows, are one passage; so no two passages listed share a window, and ten
entries are ten different texts, not one sentence shifted a word at a time. They
are ordered by the A rows holding them (most first), then the B rows holding them,
then where A first holds them; each with its text (of its windows, those held by
the most A rows: their longest stretch in one row of A, as that row has it, from
its first token to its last; the first row holding that stretch; so a
boilerplate line that one row's longer leak runs into is shown, and left out, as
the line), the A rows holding any of its windows (0-based, in file order) and the
B rows holding any of them among the positions B's index keeps (at most the cap
per window; ``capped`` when B holds one at more). A boilerplate line shows as one
passage held by most rows::

    >>> from ngram_core import Row, Settings, run_check
    >>> line = "Licensed under the Apache License version two point zero"
    >>> a = [Row(i, f"a{i}", f"{line}. Item {i} asks something new.") for i in (1, 2, 3)]
    >>> b = [Row(1, "b1", f"{line}, see the notice.")]
    >>> top = most_shared(run_check(a, b, Settings(n=5, keep_template=True)))
    >>> top[0].text, top[0].a_rows, top[0].b_rows
    ('Licensed under the Apache License version two point zero', (0, 1, 2), 1)
    >>> len(top)                   # the line's 5 windows: one passage
    1
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from typing import NamedTuple

from ..method.match import masked_at
from ..steps import Pacer, StepGenerator, run_steps

#: Passages listed at once, at most (the page pages through more).
SHOWN = 10


class SharedWindow(NamedTuple):
    """One passage of A found in B (see the module's contract)."""
    text: str
    a_rows: tuple[int, ...]
    b_rows: int
    capped: bool


class _Runs:
    """Windows joined into passages (union-find over window keys)."""

    def __init__(self):
        self.parent: dict[bytes, bytes] = {}

    def root(self, key: bytes) -> bytes:
        parent = self.parent
        top = key
        while parent[top] != top:
            top = parent[top]
        while parent[key] != top:          # path compression
            parent[key], key = top, parent[key]
        return top

    def add(self, key: bytes) -> None:
        self.parent.setdefault(key, key)

    def join(self, one: bytes, other: bytes) -> None:
        a, b = self.root(one), self.root(other)
        if a != b:
            self.parent[b] = a


def most_shared_steps(result, limit: int | None = SHOWN
                      ) -> StepGenerator[int, list[SharedWindow]]:
    """:func:`most_shared` as steps, yielding A rows done (a big file on the page)."""
    a, b, index = result.a, result.b, result.index
    n, buf, offsets = index.n, a.buffer, a.offsets
    masked = result.template.masked
    width = 4 * n
    runs = _Runs()
    first_at: dict[bytes, int] = {}            # window -> its first A position
    row_runs: list[tuple[int, int, int, bytes]] = []   # (row, first window, last window, key)
    holding: dict[bytes, list[int]] = {}       # window -> A rows holding it, in order
    pacer = Pacer()
    for m in result.matches:
        if not m.windows:
            continue
        r = m.row
        start = last = -1
        for g in range(offsets[r], offsets[r + 1] - n + 1):
            key = buf[4 * g:4 * g + width]
            if key not in index.table or (masked and masked_at(masked, g)):
                continue
            runs.add(key)
            rows = holding.setdefault(key, [])
            if not rows:
                first_at[key] = g
            if not rows or rows[-1] != r:
                rows.append(r)
            if last >= 0 and g - last < n:     # overlaps the run's last window
                runs.join(buf[4 * last:4 * last + width], key)
            else:
                if start >= 0:
                    row_runs.append((r, start, last, buf[4 * start:4 * start + width]))
                start = g
            last = g
        if start >= 0:
            row_runs.append((r, start, last, buf[4 * start:4 * start + width]))
        if pacer.due():
            yield r
    passages: dict[bytes, list[bytes]] = {}    # root -> its windows, first seen first
    for key in holding:
        passages.setdefault(runs.root(key), []).append(key)
    runs_of: dict[bytes, list[tuple[int, int, int]]] = {}   # root -> (row, first, last)
    for r, start, last, key in row_runs:
        runs_of.setdefault(runs.root(key), []).append((r, start, last))
    b_offsets = b.offsets

    def b_rows_of(keys: list[bytes]) -> int:
        return len({bisect_right(b_offsets, p) - 1 for key in keys
                    for p in index.positions(key)})

    a_rows = {root: tuple(sorted({r for key in keys for r in holding[key]}))
              for root, keys in passages.items()}
    b_counts = {root: b_rows_of(keys) for root, keys in passages.items()}
    ranked = sorted(passages, key=lambda k: (-len(a_rows[k]), -b_counts[k],
                                             min(first_at[key] for key in passages[k])))
    def held_by(g: int) -> int:
        """How many A rows hold the window at A position g (0: none is listed there:
        not found in B, or masked), as the walk above counted them."""
        if masked and masked_at(masked, g):
            return 0
        return len(holding.get(buf[4 * g:4 * g + width], ()))

    out = []
    for root in ranked if limit is None else ranked[:limit]:
        top = max(len(holding[key]) for key in passages[root])
        r, start, last = _longest_stretch(runs_of[root], n, lambda g: held_by(g) == top)
        spans = result.tokenizer.spans(result.a_rows[r].text)
        first, end = start - offsets[r], last - offsets[r] + n - 1
        text = result.a_rows[r].text[spans[first][0]:spans[end][1]]
        out.append(SharedWindow(text, a_rows[root], b_counts[root],
                                any(key in index.over for key in passages[root])))
    return out


def _longest_stretch(row_runs, n: int, core: Callable[[int], bool]) -> tuple[int, int, int]:
    """Of a passage's runs ``(row, first window, last window)`` in file order, the
    longest stretch of overlapping windows at the A positions ``core`` holds, the
    first on a tie: ``(row, first, last)`` window starts."""
    best = (-1, 0, -1)
    for r, first, last in row_runs:
        start = end = -1
        for g in range(first, last + 1):
            if not core(g):
                continue
            if end >= 0 and g - end < n:
                end = g
            else:
                start = end = g
            if end - start > best[2] - best[1]:
                best = (r, start, end)
    return best


def most_shared(result, limit: int | None = SHOWN) -> list[SharedWindow]:
    """The passages of ``result`` most shared (see the module's contract), at most
    ``limit`` (None: every one)."""
    return run_steps(most_shared_steps(result, limit))
