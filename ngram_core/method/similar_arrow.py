"""The rephrase lens's candidates for many B rows at once, by numpy and pyarrow.

The contract: for each row text, ``candidate_rows(table, texts)`` gives the A rows
:meth:`~ngram_core.method.similar.SimilarIndex.key_rows` gives (those of which
it holds enough key terms, before their numbers are looked at), in ascending
order, or None for a row this path leaves to the row-by-row method::

    >>> from ngram_core.method.similar import SimilarIndex
    >>> index = SimilarIndex.of(["Janet has 16 ducks.", "The sky is blue today."])
    >>> rows = ["Janet owns sixteen ducks, 16 of them.", "sky blue", "Sky is blue today"]
    >>> candidate_rows(key_table(index.keys, index.needed), rows)
    [[0], [], [1]]
    >>> [index.key_rows(text) for text in rows]
    [[0], [], [1]]

How, for a batch of rows:

1. the rows' raw word tokens (runs of letters, numbers, marks and format
   characters, case kept) come from
   :func:`~ngram_core.method.tokenize_arrow.raw_token_array`: the distinct ones,
   and each occurrence's index among them, row by row (the streamed check hands
   over those its own tokenizer found, in either mode, so a piece is cut into
   tokens once). No lens term crosses a raw
   token's edge (a term's characters are letters and digits, all token
   characters; the camel-case rule looks ahead only at letters), so a row's
   terms are its raw tokens' terms, end to end. The one exception is a script
   the tokenizer cuts character by character where the lens pairs letters (Thai,
   Lao, Myanmar, Khmer, halfwidth katakana, CJK ideographs past the lens's
   blocks): a row holding one is left to the row-by-row method (:func:`by_row`),
   as is a row holding a number with thousands separators (one term, two raw
   tokens), a lone surrogate (UTF-32 has none) or too long for one batch, and,
   when a key term is a list of numbers (which spans raw tokens), a row
   holding one;
2. each distinct raw token's terms that are key terms, once per batch: a token
   that is one ASCII term (:data:`ONE_TERM`) lower-cased and looked up by Arrow,
   any other split by :func:`~ngram_core.method.similar.terms`;
3. numpy expands each occurrence to its key terms, keeps each (row, key term)
   once, expands each to the A rows the key term belongs to, and counts each
   (row, A row): a row is a candidate for the A rows it holds enough key terms of.

A's side is read the same way (:func:`index_steps`): each distinct raw token's
terms once, numpy keeping each (row, term) once to count the document
frequencies and rank each row's terms for its key terms; the index it gives is
:meth:`~ngram_core.method.similar.SimilarIndex.of`'s, to every key term and idf
(a property test), and an A row's term counts are made only when a B row is
scored against it.

Only the candidates come from here; the numbers rule and the scores are
:meth:`~ngram_core.method.similar.SimilarIndex.scores_of`'s, so every score is
the same in every engine. This module imports without numpy and pyarrow;
:data:`AVAILABLE` says whether the path runs.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Generator, Iterable, Mapping, Sequence
from itertools import chain
from typing import Any, NamedTuple, cast

from .similar import (COMMON_MIN, COMMON_SHARE, KEY_RARE, KEY_SHARED, KEY_TERMS,
                      SimilarIndex, first_rows, has_examples, holds_grouped, idf_table,
                      number_lists,
                      term_counts, terms, unspaced_ranges, without_passages)
from .tokenize_arrow import (BATCH_CHARS, RawBatch, _weight, as_numpy, as_strings,
                             holds_text, raw_token_array, string_array)

try:
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc
    AVAILABLE = True
except ImportError:
    np = pa = pc = None  # type: ignore[assignment]
    AVAILABLE = False

#: A raw token that is one lens term, lower-cased by ASCII rules alone: a word of
#: ASCII letters whose case does not turn inside it, or a run of ASCII digits.
ONE_TERM = r"^(?:[A-Z]?[a-z]+|[A-Z]+|[0-9]+)$"


@functools.cache
def cut_by_the_tokenizer() -> re.Pattern:
    """A character class of the unspaced blocks outside the lens's CJK blocks (the
    tokenizer cuts there between characters that the lens pairs:
    :func:`~ngram_core.method.similar.unspaced_ranges`), and of lone surrogates."""
    ranges = [*unspaced_ranges(), (0xD800, 0xDFFF)]   # a lone surrogate: no UTF-32
    return re.compile("[" + "".join(f"{chr(a)}-{chr(b)}" for a, b in ranges) + "]")




def by_row(text: str) -> bool:
    """Whether a row's terms are not its raw tokens' (read row by row): it holds a
    script the tokenizer cuts where the lens does not (:func:`cut_by_the_tokenizer`), or
    a number written with thousands separators (``1,250`` is one term, two raw
    tokens)."""
    return holds_grouped(text) or \
        (not text.isascii() and cut_by_the_tokenizer().search(text) is not None)


class KeyTable(NamedTuple):
    """A's key terms as arrays (see :func:`key_table`)."""
    key_id: dict[str, int]   # key term -> its number
    key_terms: Any           # the key terms in their numbers' order, an Arrow array
    a_start: Any             # key number k -> its A rows: a_rows[a_start[k]:][:a_count[k]]
    a_count: Any
    a_rows: Any
    needed: Any              # A row -> key terms a candidate must hold
    rows: int                # A rows
    lists: bool = False      # some key term is a list of numbers (no raw token holds one)


def key_table(keys: Mapping[str, list[int]], needed: Sequence[int]) -> KeyTable:
    """The index's key terms (term -> the A rows it is a key term of) and each A row's
    number of key terms a candidate must hold, as numpy arrays."""
    key_id = {t: k for k, t in enumerate(keys)}
    a_count = np.fromiter(map(len, keys.values()), dtype=np.int64, count=len(keys))
    a_start = _starts(a_count)
    a_rows = np.fromiter(chain.from_iterable(keys.values()), dtype=np.int64,
                         count=int(a_count.sum()))
    return KeyTable(key_id, string_array(list(key_id)), a_start, a_count, a_rows,
                    np.asarray(needed, dtype=np.int64), len(needed),
                    any("," in t for t in key_id))


def candidates_of(index: SimilarIndex, texts: Sequence[str],
                  raw: Sequence[RawBatch] | None = None) -> list[list[int] | None] | None:
    """:func:`candidate_rows` for ``index`` (its key table made once), or None where
    numpy and pyarrow are not installed: what
    :meth:`~ngram_core.method.similar.SimilarIndex.fold` takes as its candidates."""
    if not AVAILABLE:
        return None
    if index.table is None:
        index.table = key_table(index.keys, index.needed)
    return candidate_rows(cast(KeyTable, index.table), texts, raw)


def candidate_rows(table: KeyTable, texts: Sequence[str],
                   raw: Sequence[RawBatch] | None = None) -> list[list[int] | None]:
    """Per row text, the A rows it is a candidate for (ascending), or None for a row
    left to :meth:`~ngram_core.method.similar.SimilarIndex.scores` (see the module
    docstring). ``raw``: the rows' raw tokens already found, a batch of rows each
    (:func:`~ngram_core.method.tokenize_arrow.tokenize_rows_arrow`, in either mode:
    a strict token, cut at spaces, holds whole lens terms too); a row in none of
    them is left to that method. None or none at all (the check's tokenizer could
    not find them: the ``regex`` backend): found here."""
    out: list[list[int] | None] = [None] * len(texts)
    if not raw:
        raw = list(_raw_batches(texts))
    for batch in raw:
        found = _from_raw(table, batch.dictionary, batch.index, batch.bounds,
                          batch.last - batch.first)
        out[batch.first:batch.last] = found
    for i, text in enumerate(texts):
        if out[i] is not None and by_row(text):
            out[i] = None
        elif out[i] is not None and table.lists and "," in text and number_lists(text):
            out[i] = None           # a list of numbers spans raw tokens: row by row
    return out


def _raw_batches(texts: Sequence[str]):
    """The rows' raw tokens (:class:`~ngram_core.method.tokenize_arrow.RawBatch`), in
    batches of :data:`~ngram_core.method.tokenize_arrow.BATCH_CHARS`; a row heavier
    than that, or holding a character the batch cannot read alike, is in none."""
    first, chars = 0, 0

    def batch(last: int):
        try:
            return RawBatch(first, last, *raw_token_array(list(texts[first:last]), "loose"))
        except UnicodeEncodeError:      # a lone surrogate: none of these rows
            return None

    for i, text in enumerate(texts):
        weight = _weight(text)
        alone = weight > BATCH_CHARS or by_row(text)
        if alone or chars + weight > BATCH_CHARS:
            if i > first and (made := batch(i)) is not None:
                yield made
            first, chars = (i + 1, 0) if alone else (i, 0)
        if not alone:
            chars += weight
    if len(texts) > first and (made := batch(len(texts))) is not None:
        yield made


def _starts(count):
    """Where each of runs of ``count[i]`` items begins, the runs end to end:
    ``[0, count[0], count[0] + count[1], ...]`` (as long as ``count``)."""
    start = np.zeros(len(count), dtype=np.int64)
    np.cumsum(count[:-1], out=start[1:])
    return start


def _ragged(start, count):
    """The positions ``start[i] .. start[i] + count[i]`` of every i, end to end."""
    return np.arange(int(count.sum()), dtype=np.int64) + np.repeat(start - _starts(count), count)


def _token_keys(table: KeyTable, dictionary):
    """Each distinct raw token's key terms (numbers), end to end: (where each token's
    begin, how many it has, all of them). A token that is one ASCII term is looked up
    by Arrow; any other is split by :func:`~ngram_core.method.similar.terms`."""
    dictionary, strings = _as_text(dictionary)
    one = as_numpy(pc.match_substring_regex(dictionary, ONE_TERM)).astype(bool)
    found = pc.index_in(pc.ascii_lower(dictionary), value_set=table.key_terms)
    key = np.where(as_numpy(found.is_valid()).astype(bool), as_numpy(found), -1)
    count = (one & (key >= 0)).astype(np.int64)
    key_id = table.key_id
    others = {}
    for i in np.flatnonzero(~one).tolist():
        token = strings[i] if strings is not None else dictionary[i].as_py()
        keys = [key_id[t] for t in terms(token) if t in key_id]
        if keys:
            others[i] = keys
            count[i] = len(keys)
    start = _starts(count)
    flat = np.empty(int(count.sum()), dtype=np.int64)
    single = np.flatnonzero(one & (key >= 0))
    flat[start[single]] = key[single]
    for i, keys in others.items():
        flat[start[i]:start[i] + len(keys)] = keys
    return start, count, flat


def _as_text(dictionary):
    """Distinct raw tokens as an Arrow string array, and as Python strings where they
    had to be decoded for it (UTF-32 bytes: None when they were text already)."""
    if holds_text(dictionary):
        return dictionary, None
    strings = as_strings(dictionary)
    return string_array(strings), strings


def _from_raw(table: KeyTable, dictionary, index, bounds, rows: int) -> list[list[int]]:
    """:func:`candidate_rows` of a batch of ``rows`` rows from their raw tokens."""
    start, count, flat = _token_keys(table, dictionary)
    out: list[list[int]] = [[] for _ in range(rows)]
    if not len(flat):
        return out
    pair_row, pair_key = _row_pairs(start, count, flat, index, bounds, len(table.key_id))
    # each (row, key term) -> (row, each A row of the key term), counted
    a_count = table.a_count[pair_key]
    a_rows = table.a_rows[_ragged(table.a_start[pair_key], a_count)]
    code, held = _counted(np.repeat(pair_row, a_count) * table.rows + a_rows)
    met = code[held >= table.needed[code % table.rows]]
    for r, a in zip(*(part.tolist() for part in np.divmod(met, table.rows))):
        out[r].append(a)
    return out


class _LazyCounts(Sequence):
    """A rows' term counts, each counted the first time it is asked for (most A rows
    are never scored), rows of one text sharing one count."""

    def __init__(self, texts: Sequence[str]):
        self._texts = texts
        self._made: dict[str, Counter[str]] = {}

    def __len__(self) -> int:
        return len(self._texts)

    def __getitem__(self, a):
        text = self._texts[a]
        made = self._made.get(text)
        if made is None:
            made = self._made[text] = term_counts(text)
        return made


def index_steps(a_texts: Sequence[str], leave_out: Sequence[str] = ()
                ) -> Generator[int, None, SimilarIndex]:
    """:meth:`~ngram_core.method.similar.SimilarIndex.of_steps`'s index (the same, to
    every key term and idf), A's terms found at once from its rows' raw tokens
    (numpy and pyarrow: each distinct token's terms once, then each row's distinct
    terms counted); a row this path cannot read alike (see :func:`candidate_rows`:
    a script cut by the tokenizer, a row too long for a batch) is read by
    :func:`~ngram_core.method.similar.term_counts`, as is every row where numpy and
    pyarrow are not installed. Rows' term counts are made when first asked for."""
    if not AVAILABLE:
        return (yield from SimilarIndex.of_steps(a_texts, leave_out))
    a_texts = [without_passages(text, leave_out) for text in a_texts]
    first_of, copies = first_rows(a_texts)
    distinct = list(first_of)
    times = np.ones(len(distinct), dtype=np.int64)
    for d, a in enumerate(first_of.values()):
        if a in copies:
            times[d] += len(copies[a])
    term_id: dict[str, int] = {}
    pair_rows, pair_terms = [], []           # (distinct text, term), each once
    read = np.zeros(len(distinct), dtype=bool)
    for batch in _raw_batches(distinct):
        rows, found = _row_terms(batch, term_id)
        pair_rows.append(rows + batch.first)
        pair_terms.append(found)
        read[batch.first:batch.last] = True
        yield batch.last
    extra_rows, extra_terms = [], []
    for d, text in enumerate(distinct):
        held: Iterable[str]
        if not read[d]:             # in no batch (a script cut by the tokenizer...): here
            held = term_counts(text).keys()
        elif "," in text:           # a list of numbers spans raw tokens
            held = number_lists(text)
        else:
            continue
        for t in held:
            extra_rows.append(d)
            extra_terms.append(term_id.setdefault(t, len(term_id)))
    row = np.concatenate([*pair_rows, np.asarray(extra_rows, dtype=np.int64)])
    term = np.concatenate([*pair_terms, np.asarray(extra_terms, dtype=np.int64)])
    code = _distinct(row * max(len(term_id), 1) + term)      # a list twice in a row: once
    row, term = np.divmod(code, max(len(term_id), 1))
    names = list(term_id)
    df_of = np.bincount(term, weights=times[row], minlength=len(names)).astype(np.int64)
    has_term = np.zeros(len(distinct), dtype=bool)
    has_term[row] = True
    rows = int(times[has_term].sum())
    df = dict(zip(names, df_of.tolist()))
    idf = idf_table(df, rows)
    yield len(distinct)
    index = SimilarIndex(idf, rows, _LazyCounts(a_texts), {}, [0] * len(a_texts), copies)
    _key_terms(index, names, df_of, row, term, list(first_of.values()))
    for text, a in first_of.items():
        if has_examples(text):
            index.order_numbers(a, text)
    index.leave_out = tuple(leave_out)
    return index


def _row_terms(batch: RawBatch, term_id: dict[str, int]):
    """A batch's (row in the batch, term number) pairs, each once: the rows' raw
    tokens' terms (numbers from ``term_id``, which gains the terms new to it)."""
    dictionary, strings = _as_text(batch.dictionary)
    one = as_numpy(pc.match_substring_regex(dictionary, ONE_TERM)).astype(bool)
    lowered = pc.ascii_lower(dictionary).to_pylist()
    if strings is None:
        strings = dictionary.to_pylist()
    count = np.ones(len(strings), dtype=np.int64)
    flat: list[int] = []
    setdefault = term_id.setdefault
    for i, (single, token) in enumerate(zip(one.tolist(), lowered)):
        if single:
            flat.append(setdefault(token, len(term_id)))
        else:
            found = terms(strings[i])
            count[i] = len(found)
            flat.extend(setdefault(t, len(term_id)) for t in found)
    return _row_pairs(_starts(count), count, np.asarray(flat, dtype=np.int64), batch.index,
                      batch.bounds, max(len(term_id), 1))


def _row_pairs(start, count, flat, index, bounds, width: int):
    """Each (row, number) the rows hold through their tokens, once, ascending: a
    token's numbers are ``flat[start[t]:][:count[t]]`` (its key terms, or terms),
    ``index`` each occurrence's token, ``bounds`` the rows' first occurrences; every
    number below ``width``."""
    at = np.flatnonzero(count[index] > 0)
    token = index[at]
    row = np.searchsorted(bounds, at, side="right") - 1
    numbers = flat[_ragged(start[token], count[token])]
    return np.divmod(_distinct(np.repeat(row, count[token]) * width + numbers), width)


def _counted(codes):
    """The distinct whole numbers of an array, ascending, and how often each occurs
    (``np.unique(codes, return_counts=True)``, by a sort)."""
    codes = np.sort(codes)
    if not len(codes):
        return codes, codes
    starts = np.r_[0, np.flatnonzero(codes[1:] != codes[:-1]) + 1]
    return codes[starts], np.diff(np.r_[starts, len(codes)])


def _distinct(codes):
    """The distinct whole numbers of an array, ascending (by a sort: ``np.unique``
    hashes, several times slower on a few hundred thousand)."""
    return _counted(codes)[0]


def _key_terms(index: SimilarIndex, names: list[str], df, row, term, firsts: list[int]):
    """Each distinct text's key terms, as :meth:`SimilarIndex.of_steps` chooses them
    (fewest A rows, then the longest, then code-point order; see its docstring),
    from its (distinct text, term) pairs: into ``index.keys`` and ``index.needed``."""
    too_common = max(COMMON_MIN, index.rows // COMMON_SHARE)
    common = max(1, index.rows // KEY_RARE)
    keyable = np.flatnonzero(df <= too_common)
    lengths = np.fromiter(map(len, names), dtype=np.int64, count=len(names))
    # code-point order is UTF-8's byte order: Arrow sorts the strings
    by_text = as_numpy(pc.sort_indices(string_array([names[t] for t in keyable.tolist()])))
    text_rank = np.empty(len(keyable), dtype=np.int64)
    text_rank[by_text] = np.arange(len(keyable))
    order = np.lexsort((text_rank, -lengths[keyable], df[keyable]))
    rank = np.full(len(names), -1, dtype=np.int64)
    rank[keyable[order]] = np.arange(len(keyable))
    keep = rank[term] >= 0
    row, term = row[keep], term[keep]
    code = np.sort(row * max(len(keyable), 1) + rank[term])
    row = code // max(len(keyable), 1)
    by_rank = keyable[order]
    term = by_rank[code % max(len(keyable), 1)]
    first = np.searchsorted(row, row, side="left")       # each row's first pair
    place = np.arange(len(row)) - first
    chosen = (place < KEY_SHARED) | ((place < KEY_TERMS) & (df[term] <= common))
    row, term = row[chosen], term[chosen]
    needed = np.minimum(np.bincount(row, minlength=len(firsts)), KEY_SHARED)
    for d, count in enumerate(needed.tolist()):
        index.needed[firsts[d]] = count
    grouped = np.lexsort((row, term))
    row, term = row[grouped], term[grouped]
    if not len(term):
        return
    starts = np.r_[0, np.flatnonzero(np.diff(term)) + 1].tolist()
    a_rows = np.asarray(firsts, dtype=np.int64)[row].tolist()
    keys = index.keys
    for t, start, end in zip(term[starts].tolist(), starts, [*starts[1:], len(a_rows)]):
        keys[names[t]] = a_rows[start:end]
