"""The rephrase lens's batch path (numpy and pyarrow) finds exactly the candidates the
row-by-row method finds, on any text: camel case, digits in words, marks and
format characters inside words, every script the tokenizer cuts character by
character, lone surrogates and rows longer than a batch."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import ngram_core.method.similar_arrow as similar_arrow
from ngram_core.method.similar import SimilarIndex
from ngram_core.method.tokenize import Tokenizer
from ngram_core.method.tokenize_arrow import tokenize_rows_arrow
from ngram_core.table import Row
from ngram_core.method.similar_arrow import candidate_rows, candidates_of, key_table

#: Pieces of words that test every rule of the lens's terms and of the tokenizer's cuts.
PIECES = ["Janet", "ducks", "16", "hasClose", "HTTPServer", "x1", "1x", "max_len", "ÉTÉ",
          "café", "e\u0301t\u00e9", "soft\u00adhyphen", "zero\u200bwidth", "日本", "は", "ｶﾞｯ",
          "ภาษาไทย", "ພາສາ", "ខ្មែរ", "မြန်", "𠀀𠀁", "ㇰ", "Ⅻ", "²", "١٢", "$2.50", "İstanbul",
          "ﬁne", "ＡＢＣ", "NASAx", "aB", "A", "_", " ", ", ", "\n", "\ud800", "1,250",
          ",000", "नमस्ते", "\u0301", "عَرَبِيّ"]
words = st.lists(st.sampled_from(PIECES), max_size=10).map("".join)
spaced = st.lists(st.sampled_from(PIECES), max_size=10).map(" ".join)
rows = st.lists(st.one_of(words, spaced), min_size=1, max_size=8)


@settings(max_examples=400, deadline=None)
@given(rows, rows)
def test_the_batch_finds_the_rows_candidates(a_texts, b_texts):
    index = SimilarIndex.of(a_texts)
    found = candidate_rows(key_table(index.keys, index.needed), b_texts)
    for text, met in zip(b_texts, found):
        if met is not None:
            assert met == index.key_rows(text), text


@settings(max_examples=200, deadline=None)
@given(rows, rows, st.integers(1, 3))
def test_folding_by_batches_gives_the_row_by_row_best(a_texts, b_texts, chunk):
    by_rows, by_batches = {}, {}
    index = SimilarIndex.of(a_texts)
    for first in range(0, len(b_texts), chunk):
        texts = b_texts[first:first + chunk]
        index.fold(texts, first, by_rows)
        index.fold(texts, first, by_batches, candidates_of(index, texts))
    assert by_batches == by_rows


def same_index(got: SimilarIndex, want: SimilarIndex, texts: list[str]) -> None:
    assert got.idf == want.idf and got.rows == want.rows
    assert got.keys == want.keys and got.needed == want.needed
    assert got.copies == want.copies and got.ordered == want.ordered
    assert [got.counted[a] for a in range(len(texts))] == list(want.counted)


#: Rows a batch reads as the row-by-row method does, and rows it leaves to it: lists of
#: numbers (across tokens), examples, a row longer than a batch, repeated rows.
LIST_PIECES = ["f([3, 7, -4], 2.5)", "\n>>> g(1, 2)", "\nassert h(10) == 15", "1,000"]
a_rows = st.lists(st.one_of(words, spaced, st.lists(st.sampled_from(PIECES + LIST_PIECES),
                                                    max_size=10).map(" ".join)),
                  min_size=1, max_size=10)


@settings(max_examples=400, deadline=None)
@given(a_rows, st.lists(st.integers(0, 9), max_size=6), st.sampled_from([1 << 22, 40]))
def test_the_batch_index_of_a_is_the_row_by_row_index(a_texts, repeats, batch):
    """Every idf, key term, needed count, copy, row count and term count the same
    (rows heavier than a batch of 40 characters read row by row)."""
    from ngram_core.steps import run_steps
    a_texts = a_texts + [a_texts[r % len(a_texts)] for r in repeats]
    kept = similar_arrow.BATCH_CHARS
    similar_arrow.BATCH_CHARS = batch
    try:
        got = run_steps(similar_arrow.index_steps(a_texts))
    finally:
        similar_arrow.BATCH_CHARS = kept
    same_index(got, SimilarIndex.of(a_texts), a_texts)


def test_the_batch_index_of_a_generated_test_set_is_the_row_by_row_index():
    import random
    vocab = [f"w{i}" for i in range(400)] + ["Janet", "16", "3", "hasCloseElements", "日本"]
    rnd = random.Random(7)
    texts = [" ".join(rnd.choices(vocab, k=rnd.randint(0, 60))) for _ in range(3000)]
    texts += texts[:50]
    from ngram_core.steps import run_steps
    same_index(run_steps(similar_arrow.index_steps(texts)), SimilarIndex.of(texts), texts)


def test_the_check_reads_the_lens_by_batch_or_row_by_row_to_the_same_rows(monkeypatch):
    """The check in memory takes the batch path where numpy and pyarrow are loaded or
    the rows are many, else the row-by-row one: the same rows CSV either way."""
    import random
    from ngram_core import Row, Settings, run_check
    from ngram_core.run import check
    rnd = random.Random(5)
    vocab = [f"w{i}" for i in range(300)] + ["Janet", "16", "ducks", "hasCloseElements", "日本"]
    a = [" ".join(rnd.choices(vocab, k=30)) for _ in range(300)]
    b = [" ".join(rnd.choices(vocab, k=10)) + " " + a[i] for i in range(0, 300, 7)]
    b += [" ".join(rnd.choices(vocab, k=40)) for _ in range(300)]
    a_rows = [Row(i, str(i), t) for i, t in enumerate(a, 1)]
    b_rows = [Row(i, str(i), t) for i, t in enumerate(b, 1)]
    made = {}
    for batch in (True, False):
        monkeypatch.setattr(check, "_by_batch", lambda *_: batch)
        made[batch] = run_check(a_rows, b_rows, Settings()).rows_csv()
    assert made[True] == made[False]
    assert check.LENS_BATCH_CHARS > 4 * 2**20      # a 2 MB x 2 MB check loads nothing more


def test_rows_the_batch_cannot_read_alike_are_left_to_the_row_by_row_method(monkeypatch):
    index = SimilarIndex.of(["Janet has 16 ducks.", "ภาษาไทย ducks 16 Janet"])
    texts = ["Janet has 16 ducks today", "ภาษาไทย Janet 16 ducks", "Janet \ud800 16 ducks"]
    found = candidate_rows(key_table(index.keys, index.needed), texts)
    assert found[0] == [0] == index.key_rows(texts[0])
    # Thai: the tokenizer cuts each letter, the lens pairs them; a lone surrogate
    # cannot be encoded for the batch
    assert found[1] is None and found[2] is None
    monkeypatch.setattr(similar_arrow, "BATCH_CHARS", 10)
    assert candidate_rows(key_table(index.keys, index.needed), texts[:1]) == [None]


@pytest.mark.parametrize("text", ["parseHTTPResponse 2 ducks Janet", "JANET 16DUCKS", "ducks16 Janet"])
def test_words_the_lens_cuts_are_cut_in_the_batch_too(text):
    index = SimilarIndex.of(["Janet parse http response 16 ducks", "The sky is blue."])
    assert candidate_rows(key_table(index.keys, index.needed), [text]) == [index.key_rows(text)]


@settings(max_examples=200, deadline=None)
@given(rows, rows, st.sampled_from(["loose", "strict"]))
def test_the_checks_own_raw_tokens_give_the_same_candidates(a_texts, b_texts, mode):
    """The streamed check hands over the raw tokens its tokenizer found, in its mode."""
    index = SimilarIndex.of(a_texts)
    raw: list = []
    tokenize_rows_arrow([Row(i + 1, str(i), text) for i, text in enumerate(b_texts)],
                        Tokenizer(mode, backend="re"), raw)
    found = candidates_of(index, b_texts, raw)
    for text, met in zip(b_texts, found):
        if met is not None:
            assert met == index.key_rows(text), text
