"""The Dask engine's first pass over B's windows drops only positions that cannot match.

Checked against a plain loop: every position of B whose window (inside its row)
is one of A's windows must be a candidate, whatever the bitmap's size; with
every bit set, every position inside a row is. The same for each set of windows
sharing one bitmap of tags (a suite's evals).
"""

from __future__ import annotations

from array import array

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from ngram_core.method.window_filter import WindowBits, WindowTags

# rows of token ids from a small vocabulary, so that windows repeat across files
rows_of_ids = st.lists(st.lists(st.integers(0, 4), max_size=12), min_size=1, max_size=8)


def packed(rows):
    ids, offsets = array("I"), [0]
    for row in rows:
        ids.extend(row)
        offsets.append(len(ids))
    return ids.tobytes(), offsets


def windows_of(rows, n):
    """Every window of every row, with its global start: a plain loop."""
    found, start = [], 0
    for row in rows:
        found += [(start + i, tuple(row[i:i + n])) for i in range(len(row) - n + 1)]
        start += len(row)
    return found


@settings(max_examples=300, deadline=None)
@given(rows_of_ids, rows_of_ids, st.integers(1, 5))
def test_every_window_of_b_that_is_one_of_a_is_a_candidate(a_rows, b_rows, n):
    a_windows = {w for _, w in windows_of(a_rows, n)}
    bits = WindowBits.of(*packed(a_rows), n=n)
    candidates = bits.candidates(*packed(b_rows))
    hits = [g for g, w in windows_of(b_rows, n) if w in a_windows]
    assert set(hits) <= set(candidates)
    assert candidates == sorted(set(candidates))
    inside = {g for g, _ in windows_of(b_rows, n)}
    assert set(candidates) <= inside            # never a window crossing a row end


@settings(max_examples=100, deadline=None)
@given(rows_of_ids, st.integers(1, 5))
def test_a_full_bitmap_passes_every_window_inside_a_row_and_an_empty_one_none(b_rows, n):
    full = WindowBits(np.ones(2, dtype=np.bool_), 63, n)
    empty = WindowBits(np.zeros(2, dtype=np.bool_), 63, n)
    assert full.candidates(*packed(b_rows)) == [g for g, _ in windows_of(b_rows, n)]
    assert empty.candidates(*packed(b_rows)) == []


@settings(max_examples=200, deadline=None)
@given(st.lists(rows_of_ids, min_size=1, max_size=8), rows_of_ids, st.integers(1, 5))
def test_each_set_sharing_a_bitmap_of_tags_gets_every_window_it_holds(sets, b_rows, n):
    each = WindowTags.of([packed(rows) for rows in sets], n).candidates_each(*packed(b_rows))
    assert len(each) == len(sets)
    inside = {g for g, _ in windows_of(b_rows, n)}
    for rows, candidates in zip(sets, each):
        windows = {w for _, w in windows_of(rows, n)}
        hits = {g for g, w in windows_of(b_rows, n) if w in windows}
        assert hits <= set(candidates) <= inside
        assert candidates == sorted(set(candidates))


UNKNOWN = 2**32 - 1


@settings(max_examples=100, deadline=None)
@given(rows_of_ids, st.integers(1, 5), st.integers(0, 4))
def test_windows_of_words_a_lacks_are_no_candidates_when_their_bit_is_taken(a_rows, n, where):
    """B's text in words A never uses (every id UNKNOWN) hashes to one slot: when one of
    A's windows sets that bit (a bitmap of 2 slots here: always), those windows are
    dropped by their hash, and every real window still passes, for one set and for
    a suite's tags."""
    import ngram_core.method.window_filter as window_filter
    b_rows = [[UNKNOWN] * 20, [UNKNOWN] * where + [1, 2, 3, 4, 0] + [UNKNOWN] * 3]
    kept = window_filter.MIN_BITS, window_filter.MAX_BITS
    window_filter.MIN_BITS = window_filter.MAX_BITS = 2
    try:
        bits = WindowBits.of(*packed(a_rows), n=n)
        tags = WindowTags.of([packed(a_rows)], n)
    finally:
        window_filter.MIN_BITS, window_filter.MAX_BITS = kept
    a_windows = {w for _, w in windows_of(a_rows, n)}
    hits = {g for g, w in windows_of(b_rows, n) if w in a_windows}
    unknown = {g for g, w in windows_of(b_rows, n) if set(w) == {UNKNOWN}}
    slot = int(window_filter.window_hashes(array("I", [UNKNOWN] * n).tobytes(), n)[0] >> 63)
    for candidates in (bits.candidates(*packed(b_rows)), tags.candidates_each(*packed(b_rows))[0]):
        assert hits <= set(candidates)
        if bits.bits[slot]:                     # the unknown window's bit is taken
            assert not unknown & set(candidates)
