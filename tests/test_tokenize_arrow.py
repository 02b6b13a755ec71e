"""The vectorized tokenizer (ngram_core.method.tokenize_arrow) against the reference,
tokenize_rows: the same ids and offsets on every code point and on random text."""

from __future__ import annotations

import random
import sys
from itertools import accumulate

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numpy")
pytest.importorskip("pyarrow")

from ngram_core.method import tokenize_arrow  # noqa: E402
from ngram_core.table import Row  # noqa: E402
from ngram_core.method.tokenize import LAYERS, Tokenizer, token_pattern, tokenize_rows  # noqa: E402
from ngram_core.method.tokenize_arrow import handles, raw_tokens, tokenize_rows_arrow  # noqa: E402

SURROGATES = range(0xD800, 0xE000)
#: Each code point is tried in these places (``{}`` is the code point): alone; between
#: ASCII letters, before a combining mark; after an unspaced character, before a
#: halfwidth sound mark and a letter.
CONTEXTS = ["{}", "a{}\u0301b", "\u4e00{}\uff9ex"]


def rows_of(texts) -> list[Row]:
    return [Row(i + 1, str(i + 1), text) for i, text in enumerate(texts)]


def assert_same(texts, mode="loose", layers=("L1", "L3", "L4"), known=None):
    """Both paths on fresh tokenizers: equal ids, offsets and vocabularies."""
    rows = rows_of(texts)
    reference = Tokenizer(mode, layers, known=None if known is None else dict(known))
    vectorized = Tokenizer(mode, layers, known=None if known is None else dict(known))
    want = tokenize_rows(rows, reference)
    got = tokenize_rows_arrow(rows, vectorized)
    assert got.offsets == want.offsets
    assert got.ids == want.ids
    assert vectorized.vocabulary == reference.vocabulary


def every_code_point():
    return [chr(cp) for cp in range(sys.maxunicode + 1) if cp not in SURROGATES]


@pytest.mark.parametrize("mode", ["loose", "strict"])
@pytest.mark.parametrize("context", CONTEXTS)
def test_every_code_point_in_every_context_splits_as_the_reference(mode, context):
    """The same raw tokens, row by row, as the reference's matcher finds: 64 code
    points a row, each in the context, spaces between (a space ends a token in
    both modes, so no code point's tokens reach into another's)."""
    pieces = [context.format(c) for c in every_code_point()]
    texts = [" ".join(pieces[i:i + 64]) for i in range(0, len(pieces), 64)]
    distinct, index, bounds = raw_tokens(texts, mode)
    got = [distinct[i] for i in index.tolist()]
    findall = token_pattern(mode).findall
    want = [findall(text) for text in texts]
    assert bounds.tolist() == [0, *accumulate(map(len, want))]
    assert got == [token for tokens in want for token in tokens]


def test_every_code_point_with_the_default_layers():
    """The default layers drop tokens that normalize to nothing (format characters):
    ids, offsets and vocabulary as the reference's, 16 code points a row."""
    chars = every_code_point()
    texts = [" ".join(chars[i:i + 16]) for i in range(0, len(chars), 16)]
    assert_same(texts)


@pytest.mark.parametrize("mode", ["loose", "strict"])
def test_every_pair_of_ascii_characters(mode):
    """All-ASCII batches take their own path (a byte per character)."""
    ascii = [chr(cp) for cp in range(128)]
    texts = [a + b + c for a in ascii for b in ascii for c in "a ."]
    assert_same(texts, mode, layers=())
    assert_same(texts, mode)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(max_codepoint=127), max_size=30), max_size=8),
       st.sampled_from(["loose", "strict"]))
def test_random_ascii_rows_tokenize_as_the_reference(rows, mode):
    assert_same(rows, mode)


TRICKY = (
    "aAzZ09 \t\n\r\x0b\x0c\x1c\x85\xa0\u2028\u3000.,:;-'\"!?()"
    "éÉüçñØßÆ"                        # precomposed Latin
    "\u0301\u0308\u0327\u20dd"        # combining marks
    "\u00ad\u200b\u200c\u200d\u2060\ufeff"  # format characters (Cf)
    "日本語中文字\u3400\uf900"          # ideographs
    "ひらがなカタカナー\u309b\u309c"     # kana, long vowel, spacing sound marks
    "ｶﾞｯｺｳ\uff9e\uff9f\uff70"         # halfwidth katakana and sound marks
    "ที่นั่น\u0e31\u0e48"                 # Thai and its marks
    "ລາວ\u1000\u1031\u17a2\u17c6"     # Lao, Myanmar, Khmer
    "한국어\u1100\u1161"                # Hangul, conjoining jamo
    "\U00020000\U0002a6d6\U0001b001\U00030000"  # astral ideographs, kana
    "\U0001f600\U0001f44d\U0001f3fd\U0001d400"  # emoji, skin tone, math letter
    "ＡＢｃ１２\ufb01\ufb00\u2160\u00b2\u2460"   # full-width, ligatures, numerals
    "\u0e3b\u0378\U000e0001\U000f0000"          # unassigned, tag, private use
)
LAYER_SETS = [(), ("L1",), ("L4",), ("L1", "L3", "L4"), LAYERS, ("L2", "L3")]
texts = st.lists(st.text(alphabet=TRICKY, max_size=40), max_size=12)


@settings(max_examples=400, deadline=None)
@given(texts, st.sampled_from(LAYER_SETS), st.sampled_from(["loose", "strict"]))
def test_random_rows_tokenize_as_the_reference(rows, layers, mode):
    assert_same(rows, mode, layers)


@settings(max_examples=300, deadline=None)
@given(texts, texts, st.sampled_from(LAYER_SETS), st.sampled_from(["loose", "strict"]))
def test_random_rows_against_a_frozen_vocabulary(a_rows, b_rows, layers, mode):
    """B tokenized against A's vocabulary, frozen: how the streamed path uses it."""
    a = Tokenizer(mode, layers)
    tokenize_rows(rows_of(a_rows), a)
    assert_same(b_rows, mode, layers, known=a.vocabulary)


ascii_texts = st.lists(st.text(alphabet=st.sampled_from(list("aAbBzZ09 _-.\t\n")), max_size=30),
                      max_size=8)


@settings(max_examples=300, deadline=None)
@given(ascii_texts, ascii_texts, st.sampled_from(LAYER_SETS), st.sampled_from(["loose", "strict"]))
def test_ascii_rows_against_a_frozen_vocabulary(a_rows, b_rows, layers, mode):
    """An ASCII batch against A's frozen vocabulary is looked up by Arrow (lower-cased
    where L1 is on): the ids the vocabulary gives, A's tokens and UNKNOWN."""
    a = Tokenizer(mode, layers)
    tokenize_rows(rows_of(a_rows), a)
    assert_same(b_rows, mode, layers, known=a.vocabulary)


def test_batches_keep_first_seen_order(monkeypatch):
    """Rows split into batches: a growing vocabulary still numbers tokens in order."""
    monkeypatch.setattr(tokenize_arrow, "BATCH_CHARS", 7)
    assert_same(["b a", "", "c b a d", "日本 x", "e\u00ad f", "a" * 30, "z y"])


def test_long_rows(monkeypatch):
    """Rows longer than the reference's pieces (PIECE_CHARS), whole in a batch; and
    rows weighing more than a batch (non-ASCII characters count four), which go to
    the reference alone."""
    rng = random.Random(20)
    texts = ["".join(rng.choices(TRICKY, k=size)) for size in (70_000, 5, 140_000, 0, 90_000)]
    texts += ["word " * 30_000, "日本語" * 30_000]
    assert_same(texts)
    assert_same(texts, "strict")
    monkeypatch.setattr(tokenize_arrow, "BATCH_CHARS", 80_000)
    assert_same(texts)


def test_lone_surrogate_takes_the_reference_path():
    assert_same(["one two", "bad \ud800 text", "three"])


def test_regex_backend_is_not_reproduced():
    assert not handles(Tokenizer(backend="regex"))
    assert handles(Tokenizer()) and handles(Tokenizer("strict", backend="regex"))


def test_no_rows():
    b = tokenize_rows_arrow([], Tokenizer())
    assert (list(b.ids), b.offsets) == ([], [0])


def test_without_pyarrow_the_reference_runs(monkeypatch):
    monkeypatch.setattr(tokenize_arrow, "pa", None)
    assert not handles(Tokenizer())
    assert_same(["Fact: the MOON,", "日本語"])


def test_a_streamed_index_keeps_its_tokenizer_never_pickled(monkeypatch):
    import pickle

    from ngram_core import Settings
    from ngram_core.run import stream

    _, _, index = stream.index_a(rows_of(["one two three four five six seven eight nine "
                                          "ten eleven twelve thirteen"]), Settings())
    tokenizer = index.tokenizer()
    assert index.tokenizer() is tokenizer
    assert pickle.loads(pickle.dumps(index))._tokenizers == {}
    monkeypatch.setattr(stream, "RAW_TOKENS_KEPT", 2)
    tokenize_rows_arrow(rows_of(["x y z w"]), tokenizer)     # ASCII: looked up by Arrow
    assert len(tokenizer._vocab) == 0 and index.tokenizer() is tokenizer
    tokenize_rows_arrow(rows_of(["été ça où über"]), tokenizer)  # 4 raw tokens kept
    assert index.tokenizer() is not tokenizer                # so it starts afresh


def test_the_planes_taken_as_unassigned_are_unassigned_in_this_unicode():
    """The kinds table reads planes 4 to 13 as unassigned without asking: the running
    Python's Unicode must agree, code point by code point."""
    import unicodedata
    from ngram_core.method.tokenize_arrow import UNASSIGNED_PLANES, _categories
    first, end = UNASSIGNED_PLANES
    assert {unicodedata.category(chr(c)) for c in range(first, end)} == {"Cn"}
    table, names = _categories()
    assert [names[k] for k in table[first - 3:first + 3]] == \
        [unicodedata.category(chr(c)) for c in range(first - 3, first + 3)]
    assert [names[k] for k in table[end - 3:end + 3]] == \
        [unicodedata.category(chr(c)) for c in range(end - 3, end + 3)]
