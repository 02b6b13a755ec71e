"""Which B positions may start a window of A: a vectorized first pass for the Dask engine.

A Dask worker looks up every n-token window of its partition of B among A's
windows. Most are not there, and looking each up in Python costs as much as
tokenizing. So the windows are first hashed all at once with numpy (a 64-bit
sum of each token id times a fixed odd multiplier for its place in the
window, wrapping around), and only the positions whose hash has its bit set in
a bitmap made from A's windows are looked up exactly. Equal windows have equal
hashes, so every window of A found in B is among the candidates: the filter
drops only positions that cannot match, and the exact lookup that follows
decides every match, as it does without it.

Positions are global token positions in a :class:`~ngram_core.method.tokenize.TokenizedRows`
buffer; a window never crosses a row end (``offsets`` are the rows' half-open
``[start, end)`` token ranges, as everywhere)::

    >>> from array import array
    >>> a = array("I", [1, 2, 3, 9]).tobytes()         # one A row: 1 2 3 9
    >>> bits = WindowBits.of(a, [0, 4], n=2)           # A's windows: 1 2, 2 3, 3 9
    >>> b = array("I", [5, 1, 2, 3, 2, 3]).tobytes()   # B rows: 5 1 2 | 3 2 3
    >>> bits.candidates(b, [0, 3, 6])                  # 1 2 at 1; 2 3 at 4 (2 3 at 2 crosses)
    [1, 4]

Several sets of windows (a suite's evals, one vocabulary) share one bitmap
of tags, B hashed once for all of them; each set gets its own positions::

    >>> tags = WindowTags.of([(a, [0, 4]), (array("I", [3, 2]).tobytes(), [0, 2])], n=2)
    >>> tags.candidates_each(b, [0, 3, 6])             # the second set's 3 2 at 3
    [[1, 4], [3]]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .tokenize import UNKNOWN

#: One odd 64-bit multiplier per place in a window (n is at most 25): the first
#: outputs of splitmix64 from seed 0, made odd; fixed, so hashes agree in every process.
_MULTIPLIERS = np.array([
    0xE220A8397B1DCDAF, 0x6E789E6AA1B965F5, 0x06C45D188009454F, 0xF88BB8A8724C81ED,
    0x1B39896A51A8749B, 0x53CB9F0C747EA2EB, 0x2C829ABE1F4532E1, 0xC584133AC916AB3D,
    0x3EE5789041C98AC3, 0xF3B8488C368CB0A7, 0x657EECDD3CB13D09, 0xC2D326E0055BDEF7,
    0x8621A03FE0BBDB7B, 0x8E1F7555983AA92F, 0xB54E0F1600CC4D19, 0x84BB3F97971D80AB,
    0x7D29825C75521255, 0xC3CF17102B7F7F87, 0x3466E9A083914F65, 0xD81A8D2B5A4485AD,
    0xDB01602B100B9ED7, 0xA9038A921825F10D, 0xEDF5F1D90DCA2F6B, 0x54496AD67BD2634D,
    0xDD7C01D4F5407269,
], dtype=np.uint64)
#: Bits in the bitmap per window of A (so about 1 in 32 positions of B that
#: match nothing passes the filter), between MIN_BITS and MAX_BITS bits.
BITS_PER_WINDOW = 32
MIN_BITS, MAX_BITS = 1 << 20, 1 << 26
#: Positions hashed at a time (bounds the arrays: about 30 bytes a position).
CHUNK_POSITIONS = 1 << 20


def window_hashes(buf: bytes, n: int, first: int = 0, stop: int | None = None) -> np.ndarray:
    """The hash of the window starting at each position ``g`` in ``[first, stop)``
    (by default every ``g`` with ``g + n`` tokens in the buffer; rows ignored):
    ``sum(ids[g + k] * M[k])`` modulo 2**64."""
    if n > len(_MULTIPLIERS):
        raise ValueError(f"windows of at most {len(_MULTIPLIERS)} tokens")
    tokens = len(buf) // 4
    stop = tokens - n + 1 if stop is None else stop
    if stop <= first:
        return np.zeros(0, dtype=np.uint64)
    ids = np.frombuffer(buf, dtype=np.uint32, count=stop - first + n - 1,
                        offset=4 * first).astype(np.uint64)
    count = stop - first
    hashes = ids[:count] * _MULTIPLIERS[0]
    product = np.empty_like(hashes)
    for k in range(1, n):
        np.multiply(ids[k:k + count], _MULTIPLIERS[k], out=product)
        hashes += product
    return hashes


def inside_rows(positions: np.ndarray, offsets: Sequence[int], n: int) -> np.ndarray:
    """The positions (sorted) whose n-token window ends within its own row."""
    bounds = np.asarray(offsets, dtype=np.int64)
    row = np.searchsorted(bounds, positions, side="right") - 1
    return positions[positions + n <= bounds[np.minimum(row + 1, len(bounds) - 1)]]


def window_starts(buf: bytes, offsets: Sequence[int], n: int) -> np.ndarray:
    """Every position of ``buf`` whose window lies inside its row (rows ``offsets``)."""
    return inside_rows(np.arange(max(len(buf) // 4 - n + 1, 0), dtype=np.int64), offsets, n)


def _unknown_hash(n: int) -> np.uint64:
    """The hash of a window of n tokens A lacks (every id UNKNOWN): B's training text
    in words A never uses gives it at every position."""
    return window_hashes(np.full(n, UNKNOWN, dtype=np.uint32).tobytes(), n)[0]


def table_size(windows: int) -> tuple[int, int]:
    """The slots of a table for ``windows`` windows (:data:`BITS_PER_WINDOW` each,
    a power of two from MIN_BITS to MAX_BITS) and the shift that takes a hash to
    its slot (its top bits)."""
    size = MIN_BITS
    while size < BITS_PER_WINDOW * windows and size < MAX_BITS:
        size <<= 1
    return size, 64 - (size.bit_length() - 1)


class WindowBits:
    """A bitmap of the hashes of A's windows, indexed by each hash's top bits (one
    byte a bit: at most MAX_BITS bytes).

    ``drop``: the hash of a window of n tokens A lacks (every one
    :data:`~ngram_core.method.tokenize.UNKNOWN`), when it falls on a bit A's windows
    set and none of them has that hash: then B's many such windows (training text
    in words A never uses) are dropped by their hash, not all passed on as
    candidates. None otherwise (the bit is clear: they pass nothing)."""

    def __init__(self, bits: np.ndarray, shift: int, n: int, drop: int | None = None):
        self.bits, self.shift, self.n, self.drop = bits, shift, n, drop

    @classmethod
    def of(cls, buf: bytes, offsets: Sequence[int], n: int) -> WindowBits:
        """The bitmap of every window of the rows ``offsets`` delimit in ``buf``."""
        starts = window_starts(buf, offsets, n)
        size, shift = table_size(len(starts))
        bits = np.zeros(size, dtype=np.bool_)
        hashes = window_hashes(buf, n)
        drop = None
        if len(starts):
            own = hashes[starts]
            bits[(own >> np.uint64(shift)).astype(np.int64)] = True
            unknown = _unknown_hash(n)
            if bits[int(unknown >> np.uint64(shift))] and not (own == unknown).any():
                drop = int(unknown)
        return cls(bits, shift, n, drop)

    def candidates(self, buf: bytes, offsets: Sequence[int]) -> list[int]:
        """The positions of ``buf`` (rows ``offsets``) whose window may be one of A's,
        in order: every position whose window is one of A's is among them."""
        n, shift = self.n, np.uint64(self.shift)
        count = len(buf) // 4 - n + 1
        found = []
        for first in range(0, max(count, 0), CHUNK_POSITIONS):
            hashes = window_hashes(buf, n, first, min(first + CHUNK_POSITIONS, count))
            passing = np.flatnonzero(self.bits[(hashes >> shift).astype(np.int64)])
            if self.drop is not None:
                passing = passing[hashes[passing] != np.uint64(self.drop)]
            found.append(inside_rows(passing + first, offsets, n))
        return np.concatenate(found).tolist() if found else []


class WindowTags:
    """One bitmap for several sets of windows (a suite's evals, one vocabulary): each
    slot holds one bit per set (at most 8), so B's windows are hashed and looked up
    once for all of them, and a set's candidates are the positions with its bit:
    as few as its own bitmap of the same size would give."""

    def __init__(self, tags: np.ndarray, shift: int, n: int, sets: int,
                 drop: int | None = None):
        self.tags, self.shift, self.n, self.sets = tags, shift, n, sets
        self.drop = drop               # as WindowBits.drop, over every set's windows

    @classmethod
    def of(cls, rows: Sequence[tuple[bytes, Sequence[int]]], n: int) -> WindowTags:
        """The tags of every window of each ``(buf, offsets)`` (at most 8 of them)."""
        if not 1 <= len(rows) <= 8:
            raise ValueError("one to eight sets of windows")
        starts = [window_starts(buf, offsets, n) for buf, offsets in rows]
        size, shift = table_size(sum(map(len, starts)))
        tags = np.zeros(size, dtype=np.uint8)
        unknown = _unknown_hash(n)
        met = False                   # some set's window has the unknown window's hash
        for k, ((buf, _), at) in enumerate(zip(rows, starts)):
            if len(at):
                own = window_hashes(buf, n)[at]
                tags[(own >> np.uint64(shift)).astype(np.int64)] |= np.uint8(1 << k)
                met = met or bool((own == unknown).any())
        drop = int(unknown) if tags[int(unknown >> np.uint64(shift))] and not met else None
        return cls(tags, shift, n, len(rows), drop)

    def candidates_each(self, buf: bytes, offsets: Sequence[int]) -> list[list[int]]:
        """For each set, the positions of ``buf`` (rows ``offsets``) whose window may
        be one of its windows, in order (as :meth:`WindowBits.candidates`)."""
        n, shift = self.n, np.uint64(self.shift)
        count = len(buf) // 4 - n + 1
        found: list[list[np.ndarray]] = [[] for _ in range(self.sets)]
        for first in range(0, max(count, 0), CHUNK_POSITIONS):
            hashes = window_hashes(buf, n, first, min(first + CHUNK_POSITIONS, count))
            tags = self.tags[(hashes >> shift).astype(np.int64)]
            passing = np.flatnonzero(tags)
            if self.drop is not None:
                passing = passing[hashes[passing] != np.uint64(self.drop)]
            inside = inside_rows(passing + first, offsets, n)
            held = tags[inside - first]
            for k in range(self.sets):
                found[k].append(inside[(held & np.uint8(1 << k)) != 0])
        return [np.concatenate(f).tolist() if f else [] for f in found]
