"""Stage 2 for many rows at once: :func:`~ngram_core.method.tokenize.tokenize_rows` with the
token boundaries found by numpy and the raw tokens counted by pyarrow.

The contract: ``tokenize_rows_arrow(rows, tokenizer)`` returns the same ``ids``
(``array("I")``) and row ``offsets`` as ``tokenize_rows(rows, tokenizer)``, for
both modes, any layers, a frozen or a growing vocabulary::

    >>> from ngram_core.table import Row
    >>> from ngram_core.method.tokenize import Tokenizer, tokenize_rows
    >>> rows = [Row(1, "1", "Fact: the MOON,"), Row(2, "2", ""), Row(3, "3", "GPT4は日本語 moon")]
    >>> b = tokenize_rows_arrow(rows, Tokenizer())
    >>> list(b.ids), b.offsets
    ([0, 1, 2, 3, 4, 5, 6, 7, 2], [0, 3, 3, 9])
    >>> reference = tokenize_rows(rows, Tokenizer())
    >>> (reference.ids, reference.offsets) == (b.ids, b.offsets)
    True

How, for a batch of row texts:

1. the texts are joined by newlines (no token holds one, in either mode) and
   encoded: as bytes when all ASCII, else as UTF-32, one numpy element per
   code point;
2. each code point's kind is looked up in a table built from Python's
   :mod:`unicodedata` exactly as :mod:`~ngram_core.method.tokenize` defines its classes
   (so it is that module's rule whatever Unicode version pyarrow or RE2 has):
   no token character, an unspaced character (a token character of
   :data:`~ngram_core.method.tokenize.UNSPACED_BLOCKS`, not a combining mark), a
   halfwidth sound mark, a combining mark (M*), or another token character;
3. the rule of ``[unspaced][marks]*|[other]+``, matched left to right, as a
   rule for where a token starts: a token character starts one when the
   character before it (in its row) is no token character, or when it is an
   unspaced character, or a sound mark after a token that did not begin with
   an unspaced character, or another token character after a token that did.
   A combining mark joins any token before it. ``"GPT4は日"`` ->
   ``GPT4 | は | 日``; ``"aﾞﾞ"`` -> ``a | ﾞﾞ``;
4. the tokens' characters, end to end, become an Arrow string (ASCII) or binary
   (UTF-32) array, dictionary encoded (distinct tokens in first-seen order),
   and each row's tokens are the half-open range ``[bounds[r], bounds[r + 1])``
   of them (:func:`raw_tokens`); each distinct one goes through
   the tokenizer's own vocabulary (which normalizes it and gives its id, -1 when
   it normalizes to nothing, as :meth:`~ngram_core.method.tokenize.Tokenizer.ids`
   does), and numpy gathers the ids, drops the -1s and counts each row's
   tokens. The distinct tokens reach the vocabulary in the order they first
   occur, so a growing vocabulary assigns the same ids as the reference too.

Only the ``re`` backend's tokens are reproduced (strict mode always uses it);
with the ``regex`` backend, for a batch holding a lone surrogate (which UTF-32
cannot encode; the readers replace them), or without pyarrow and numpy, :func:`tokenize_rows_arrow` returns
:func:`~ngram_core.method.tokenize.tokenize_rows` itself. This module imports without
them; :func:`handles` says whether the fast path runs for a tokenizer.
"""

from __future__ import annotations

import unicodedata
from array import array
from functools import lru_cache
from typing import Any, NamedTuple

from .tokenize import (SOUND_MARKS, UNKNOWN, UNSPACED_BLOCKS, TokenizedRows, Tokenizer,
                       _bmp_table, _in_token_class, tokenize_rows)

try:
    import numpy as np
    import pyarrow as pa
except ImportError:                # the caller's rows go through tokenize_rows
    np = pa = None  # type: ignore[assignment]

#: The kinds of code point (see the module docstring).
NONE, OTHER, MARK, UNSPACED, SOUND_MARK = range(5)
_CODE_POINTS = 0x110000
#: Characters of row text tokenized at a time, a character of a row that is not
#: ASCII counting four (see :func:`_weight`): bounds the batch's arrays.
BATCH_CHARS = 1 << 22


def _weight(text: str) -> int:
    """What a row counts toward :data:`BATCH_CHARS`: its length, four times it when it
    is not ASCII (its batch is then an array of 4-byte code points, and the
    arrays made from it grow alike; Chinese text in batches of 4M characters
    took 125 MB more of a streamed run's peak).

    >>> _weight("moon"), _weight("日本")
    (4, 8)
    """
    return len(text) if text.isascii() else 4 * len(text)


def handles(tokenizer: Tokenizer) -> bool:
    """Whether this path reproduces ``tokenizer``'s tokens: the ``re`` backend (or
    strict mode), with pyarrow and numpy installed."""
    return pa is not None and (tokenizer.mode == "strict" or tokenizer.backend == "re")


#: Planes 4 to 13 (U+40000..U+DFFFF): no character is assigned there in any Unicode
#: version so far, so each is of category Cn without asking (a test holds it for the
#: running Python's Unicode): 60 % of the code points, 0.2 s of a streamed run's start.
UNASSIGNED_PLANES = (0x40000, 0xE0000)


@lru_cache(maxsize=1)
def _categories():
    """The general category of every code point U+0000..U+10FFFF, as an index into
    the list of category names (a numpy uint8 array), and that list."""
    first, end = UNASSIGNED_PLANES
    asked = _bmp_table()[0] + list(map(unicodedata.category, map(chr, range(0x10000, first))))
    rest = list(map(unicodedata.category, map(chr, range(end, _CODE_POINTS))))
    names = sorted({*asked, *rest, "Cn"})
    number = {name: i for i, name in enumerate(names)}
    out = np.full(_CODE_POINTS, number["Cn"], dtype=np.uint8)
    out[:first] = np.frombuffer(bytes(map(number.__getitem__, asked)), dtype=np.uint8)
    out[end:] = np.frombuffer(bytes(map(number.__getitem__, rest)), dtype=np.uint8)
    return out, names


@lru_cache(maxsize=2)
def _ascii_tokens(mode: str) -> bytes:
    """A ``bytes.translate`` table: each ASCII byte -> 1 if a token character, else 0."""
    return bytes(int(kind != NONE) for kind in kinds(mode)[:128]) + bytes(128)


@lru_cache(maxsize=2)
def kinds(mode: str):
    """The kind of every code point U+0000..U+10FFFF in a mode, as a numpy uint8 array.

    >>> [int(kinds("loose")[ord(c)]) for c in " a\u0301日\uff9e"]
    [0, 1, 2, 3, 4]
    >>> [int(kinds("strict")[ord(c)]) for c in " ,"]
    [0, 1]
    """
    category, names = _categories()
    if mode == "strict":
        token = ~np.frombuffer(bytes(map(str.isspace, map(chr, range(_CODE_POINTS)))),
                               dtype=bool)
    else:
        token = np.array([_in_token_class(name) for name in names])[category]
    mark = np.array([name[0] == "M" for name in names])[category]
    in_block = np.zeros(_CODE_POINTS, dtype=bool)
    for first, last in UNSPACED_BLOCKS:
        in_block[first:last + 1] = True
    out = np.full(_CODE_POINTS, NONE, dtype=np.uint8)
    out[token] = OTHER
    out[token & mark] = MARK
    out[token & in_block & ~mark] = UNSPACED
    for sound_mark in SOUND_MARKS:
        if token[ord(sound_mark)]:
            out[ord(sound_mark)] = SOUND_MARK
    return out


class RawBatch(NamedTuple):
    """A batch's raw tokens (:func:`raw_token_array`) and the rows ``[first, last)`` it
    holds: what the rephrase lens reads the same rows by (``similar_arrow``)."""
    first: int
    last: int
    dictionary: Any
    index: Any
    bounds: Any


def tokenize_rows_arrow(rows, tokenizer: Tokenizer, raw: list[RawBatch] | None = None
                        ) -> TokenizedRows:
    """``tokenize_rows(rows, tokenizer)``, a batch of rows at a time (see the module
    docstring); the reference itself where this path cannot run, and for a row
    that weighs more than :data:`BATCH_CHARS` (which it tokenizes piece by piece,
    in bounded memory). ``raw``: a list given gets each batch's raw tokens."""
    rows = list(rows)
    if not handles(tokenizer):
        return tokenize_rows(rows, tokenizer)
    ids = array("I")
    offsets = [0]
    first = 0
    while first < len(rows):
        last, chars = first, 0
        while last < len(rows) and chars < BATCH_CHARS:
            size = _weight(rows[last].text)
            if size > BATCH_CHARS:
                last += last == first          # alone, by the reference
                break
            chars += size
            last += 1
        found: list = []
        batch_ids, batch_offsets = _batch_ids(rows[first:last], tokenizer, found)
        if raw is not None and found:
            raw.append(RawBatch(first, last, *found[0]))
        base = len(ids)
        ids.extend(batch_ids)
        offsets.extend(base + end for end in batch_offsets[1:])
        first = last
    return TokenizedRows(rows, ids, offsets)


def _batch_ids(batch: list, tokenizer: Tokenizer, raw: list | None = None
               ) -> tuple[array, list[int]]:
    """:func:`token_ids` of a batch of rows, or the reference's for a row weighing more
    than :data:`BATCH_CHARS` alone or for a batch holding a lone surrogate."""
    if len(batch) > 1 or _weight(batch[0].text) <= BATCH_CHARS:
        try:
            return token_ids([row.text for row in batch], tokenizer, raw)
        except UnicodeEncodeError:
            pass
    done = tokenize_rows(batch, tokenizer)
    return done.ids, done.offsets


def _token_starts(kind):
    """Whether each character starts a token, by the rule of the module docstring
    (``kind`` begins with a character of kind NONE)."""
    token = kind != NONE
    # the character each token character's token kind comes from: itself, or for a
    # combining mark the last character before it that is not one
    at = np.arange(len(kind), dtype=np.int32)
    base = np.maximum.accumulate(np.where(kind != MARK, at, 0))
    base_kind = kind[base]
    began_unspaced = (base_kind == UNSPACED) | (base_kind == SOUND_MARK)
    starts = np.zeros(len(kind), dtype=bool)
    starts[1:] = ~token[:-1] | ((kind[1:] == SOUND_MARK) & ~began_unspaced[:-1]) | (
        (kind[1:] == OTHER) & began_unspaced[:-1])
    return token, token & (starts | (kind == UNSPACED))


def raw_tokens(texts: list[str], mode: str):
    """The raw tokens of the row texts, end to end: (the distinct tokens in the order
    they first occur, each token's index among them as a numpy array, the half-open
    ``[bounds[r], bounds[r + 1])`` range of row ``r``'s tokens as a numpy array).
    Raises UnicodeEncodeError for a text holding a lone surrogate.

    >>> distinct, index, bounds = raw_tokens(["Fact: the MOON,", "", "the 日本"], "loose")
    >>> distinct, index.tolist(), bounds.tolist()
    (['Fact', 'the', 'MOON', '日', '本'], [0, 1, 2, 1, 3, 4], [0, 3, 3, 6])
    """
    dictionary, index, bounds = raw_token_array(texts, mode)
    return as_strings(dictionary), index, bounds


def holds_text(dictionary) -> bool:
    """Whether the distinct raw tokens (:func:`raw_token_array`) are an Arrow string
    array (the texts were all ASCII), not each token's UTF-32 bytes."""
    return pa.types.is_string(dictionary.type) or pa.types.is_large_string(dictionary.type)


def as_strings(dictionary) -> list[str]:
    """The distinct raw tokens (:func:`raw_token_array`) as Python strings (each
    token's UTF-32 bytes decoded where the texts were not all ASCII)."""
    distinct = dictionary.to_pylist()
    if not holds_text(dictionary):
        distinct = [token.decode("utf-32-le") for token in distinct]
    return distinct


def raw_token_array(texts: list[str], mode: str):
    """:func:`raw_tokens` with the distinct tokens as an Arrow array: strings when every
    text is ASCII, else each token's UTF-32 bytes. Raises UnicodeEncodeError for a
    text holding a lone surrogate."""
    joined = "\n" + "\n".join(texts) + "\n"     # no token holds a newline, in either mode
    if joined.isascii():                  # a byte per character; tokens are runs of token bytes
        data = joined.encode("ascii")
        chars = np.frombuffer(data, dtype=np.uint8)
        token = np.frombuffer(data.translate(_ascii_tokens(mode)), dtype=bool)
        starts = np.zeros(len(token), dtype=bool)
        starts[1:] = token[1:] & ~token[:-1]
    else:                                 # UTF-32: an element per character
        chars = np.frombuffer(joined.encode("utf-32-le"), dtype=np.uint32)
        kind = kinds(mode)[chars]
        if kind.max() <= OTHER:           # no mark, no unspaced character
            token = kind != NONE
            starts = np.zeros(len(kind), dtype=bool)
            starts[1:] = token[1:] & ~token[:-1]
        else:
            token, starts = _token_starts(kind)
    start_at = np.flatnonzero(starts)
    # a token ends before the first character after it that does not go on with it
    goes_on = token & ~starts
    end_at = np.flatnonzero(token[:-1] & ~goes_on[1:]) + 1
    token_offsets = np.zeros(len(start_at) + 1, dtype=np.int64)
    np.cumsum((end_at - start_at) * chars.itemsize, out=token_offsets[1:])
    ascii = chars.itemsize == 1
    if token_offsets[-1] < 2**31:         # 32-bit offsets: dictionary encoding is faster
        array_type = pa.string() if ascii else pa.binary()
        token_offsets = token_offsets.astype(np.int32)
    else:
        array_type = pa.large_string() if ascii else pa.large_binary()
    raw = pa.Array.from_buffers(array_type, len(start_at),
                                [None, pa.py_buffer(token_offsets),
                                 pa.py_buffer(np.ascontiguousarray(chars[token]).view(np.uint8))])
    encoded = raw.dictionary_encode()
    row_first = np.cumsum([1] + [len(text) + 1 for text in texts])   # and the end, + 1
    return encoded.dictionary, as_numpy(encoded.indices), np.searchsorted(start_at, row_first)


def _known_ids(dictionary, tokenizer: Tokenizer):
    """The ids a frozen vocabulary gives distinct ASCII raw tokens (an Arrow string
    array), looked up by Arrow: an ASCII token normalizes to itself lower-cased (L1)
    or as it is, never to nothing, and a token A lacks is
    :data:`~ngram_core.method.tokenize.UNKNOWN`: what the vocabulary itself gives,
    without a Python string per token."""
    known = tokenizer._vocab.arrow_known
    if known is None:                     # A's ASCII tokens as an array, once
        ascii_ids = [(token, ident) for token, ident in tokenizer._vocab.ids.items()
                     if token.isascii()]
        known = (string_array([token for token, _ in ascii_ids]),
                 np.fromiter((ident for _, ident in ascii_ids), dtype=np.int64,
                             count=len(ascii_ids)))
        tokenizer._vocab.arrow_known = known
    import pyarrow.compute as pc          # here: the tokenizer alone does not need it
    tokens, ids = known
    looked = pc.ascii_lower(dictionary) if "L1" in tokenizer.layers else dictionary
    at = pc.index_in(looked, value_set=tokens)
    return np.where(as_numpy(at.is_valid()).astype(bool), ids[as_numpy(at.fill_null(0))]
                    if len(ids) else UNKNOWN, UNKNOWN)


def as_numpy(array):
    """An Arrow array of whole numbers or booleans as a numpy array of numbers
    (booleans as 0 and 1; a null reads as whatever its slot holds), read from its
    buffer: ``np.asarray`` and ``to_numpy`` would import pandas, 0.4 s of a run,
    where it is installed::

        >>> as_numpy(pa.array([True, False]).slice(1)).tolist(), as_numpy(pa.array([3, 4])).tolist()
        ([0], [3, 4])
    """
    if pa.types.is_boolean(array.type):
        array = array.cast(pa.uint8())
    dtype = np.dtype(f"{'u' if pa.types.is_unsigned_integer(array.type) else 'i'}"
                     f"{array.type.bit_width // 8}")
    return np.frombuffer(array.buffers()[1], dtype=dtype, count=len(array) + array.offset
                         )[array.offset:]


def string_array(strings: list[str]):
    """Python strings as an Arrow string array, built from its buffers (``pa.array``
    of a list would import pandas, where it is installed)::

        >>> string_array(["ab", "", "é"]).to_pylist()
        ['ab', '', 'é']
    """
    encoded = [text.encode("utf-8") for text in strings]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, encoded), dtype=np.int64, count=len(encoded)),
              out=offsets[1:])
    return pa.Array.from_buffers(pa.large_string(), len(encoded),
                                 [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))])


def token_ids(texts: list[str], tokenizer: Tokenizer, raw: list | None = None
              ) -> tuple[array, list[int]]:
    """The ids of every kept token of the row texts, end to end, and the half-open
    ``[offsets[r], offsets[r + 1])`` range of row ``r``'s (``raw``: a list given gets
    the raw tokens, :func:`raw_token_array`). Raises UnicodeEncodeError for a text
    holding a lone surrogate."""
    dictionary, index, bounds = raw_token_array(texts, tokenizer.mode)
    if raw is not None:
        raw.append((dictionary, index, bounds))
    vocabulary = tokenizer._vocab            # distinct raw tokens, in first-seen order
    if vocabulary.frozen and holds_text(dictionary):
        id_of = _known_ids(dictionary, tokenizer)
    else:
        distinct = as_strings(dictionary)
        id_of = np.fromiter(map(vocabulary.__getitem__, distinct), dtype=np.int64,
                            count=len(distinct))
    found = id_of[index]
    if len(found) and found.min() < 0:        # tokens that normalize to nothing
        kept = found >= 0
        found = found[kept]
        bounds = np.searchsorted(np.flatnonzero(kept), bounds)
    ids = array("I")
    ids.frombytes(found.astype(np.uint32).tobytes())
    return ids, bounds.tolist()
