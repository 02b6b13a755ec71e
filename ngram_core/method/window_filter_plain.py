"""The first pass of :mod:`~ngram_core.method.window_filter` without numpy: every position.

When numpy is not installed, every position of B whose window lies inside its
row is a candidate, and the exact look-up that follows decides every match, as
it does after the hashed filter: the same results, more look-ups::

    >>> from array import array
    >>> b = array("I", [5, 1, 2, 3, 2, 3]).tobytes()   # B rows: 5 1 2 | 3 2 3
    >>> WindowBits.of(b"", [0], n=2).candidates(b, [0, 3, 6])
    [0, 1, 3, 4]
"""

from __future__ import annotations

from collections.abc import Sequence


class WindowBits:
    """Stands for :class:`ngram_core.method.window_filter.WindowBits`: passes every window."""

    def __init__(self, n: int):
        self.n = n

    @classmethod
    def of(cls, buf: bytes, offsets: Sequence[int], n: int) -> WindowBits:
        return cls(n)

    def candidates(self, buf: bytes, offsets: Sequence[int]) -> list[int]:
        """Every position whose n-token window ends within its own row, in order."""
        return [g for r in range(len(offsets) - 1)
                for g in range(offsets[r], offsets[r + 1] - self.n + 1)]


class WindowTags:
    """Stands for :class:`ngram_core.method.window_filter.WindowTags`: passes every
    window, for every set."""

    def __init__(self, n: int, sets: int):
        self.n, self.sets = n, sets

    @classmethod
    def of(cls, rows: Sequence[tuple[bytes, Sequence[int]]], n: int) -> WindowTags:
        return cls(n, len(rows))

    def candidates_each(self, buf: bytes, offsets: Sequence[int]) -> list[list[int]]:
        """Every position for each set (one list, shared: read it, do not change it)."""
        every = WindowBits(self.n).candidates(buf, offsets)
        return [every for _ in range(self.sets)]
