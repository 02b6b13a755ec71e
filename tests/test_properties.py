"""The engine against the plain-loop reference in tests/reference.py, on random rows."""

from hypothesis import HealthCheck, given, settings, strategies as st

import reference
from ngram_core import Row, Settings, run_check
from ngram_core.method.tokenize import LAYERS, Tokenizer

SMALL_VOCAB = ["a", "b", "c", "A", "b,", "é", "e\u0301", "ｃ", "x\u00ady"]


def rows_of(words_lists):
    return [Row(i + 1, str(i + 1), " ".join(words)) for i, words in enumerate(words_lists)]


layer_sets = st.sets(st.sampled_from(LAYERS)).map(lambda s: tuple(sorted(s)))
word_rows = st.lists(st.lists(st.sampled_from(SMALL_VOCAB), max_size=40), min_size=1, max_size=8)


def compare(a_rows, b_rows, n, mode, layers, cap=32, backend="re"):
    result = run_check(a_rows, b_rows, Settings(n=n, mode=mode, layers=layers, cap=cap,
                                                backend=backend))
    tok = lambda text: [t for t, _, _ in reference.tokenize(text, mode, layers)]
    b_tokens = [tok(r.text) for r in b_rows]
    for m, row in zip(result.matches, a_rows):
        a_tokens = tok(row.text)
        assert m.tokens == len(a_tokens)
        expected = reference.check_row(a_tokens, b_tokens, n, cap)
        assert m.duplicate_of == expected["duplicate_of"]
        if m.status != "checkable":
            assert m.tokens < n or row.blank
            continue
        got = {"windows": m.windows, "dirty": m.dirty, "span": m.span, "b_row": m.b_row,
               "a_start": m.a_start, "b_start": m.b_start,
               "duplicate_of": m.duplicate_of}
        assert got == expected, row.text
        assert 0 <= m.dirty <= m.tokens
        if m.span:
            # the span is a common run one B row really holds, as the characters show
            assert m.span == reference.longest_common_run(a_tokens, b_tokens[m.b_row]) or cap < 32
            a_text = row.text[m.a_chars[0]:m.a_chars[1]]
            b_text = b_rows[m.b_row].text[m.b_chars[0]:m.b_chars[1]]
            assert tok(a_text) == tok(b_text)
            assert len(tok(a_text)) == m.span
    return result


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word_rows, word_rows, st.integers(5, 25), st.sampled_from(["loose", "strict"]),
       layer_sets)
def test_engine_equals_reference_small_vocabulary(a, b, n, mode, layers):
    compare(rows_of(a), rows_of(b), n, mode, layers)


@settings(max_examples=150, deadline=None)
@given(word_rows, word_rows, st.integers(5, 7), st.integers(1, 4))
def test_engine_equals_reference_when_the_cap_bites(a, b, n, cap):
    compare(rows_of(a), rows_of(b + b + b), n, "loose", ("L1", "L3", "L4"), cap)


unicode_text = st.text(st.characters(codec=None, exclude_categories=("Cs",)), max_size=80)


@settings(max_examples=200, deadline=None)
@given(st.lists(unicode_text, min_size=1, max_size=4), st.lists(unicode_text, max_size=4),
       st.integers(5, 8), st.sampled_from(["loose", "strict"]), layer_sets)
def test_engine_equals_reference_on_unicode_text(a, b, n, mode, layers):
    # B repeats A's text inside other text, so that matches actually happen
    b_texts = b + [f"zz {t} zz" for t in a[:2]]
    compare([Row(i, str(i), t) for i, t in enumerate(a, 1)],
            [Row(i, str(i), t) for i, t in enumerate(b_texts, 1)], n, mode, layers)


@settings(max_examples=300, deadline=None)
@given(unicode_text, st.sampled_from(["loose", "strict"]), layer_sets)
def test_tokenizer_equals_reference(text, mode, layers):
    assert Tokenizer(mode, layers).tokenize(text) == reference.tokenize(text, mode, layers)


@settings(max_examples=100, deadline=None)
@given(word_rows, word_rows, st.integers(5, 9))
def test_highlight_covers_exactly_the_windows_matched_in_the_best_row(a, b, n):
    a_rows, b_rows = rows_of(a), rows_of(b)
    result = run_check(a_rows, b_rows, Settings(n=n))
    for m in result.matches:
        a_ranges, b_ranges = result.highlight(m)
        if m.b_row is None:
            assert a_ranges == b_ranges == []
            continue
        # ranges are increasing, disjoint, inside the text
        for ranges, text in ((a_ranges, a_rows[m.row].text), (b_ranges, b_rows[m.b_row].text)):
            assert all(0 <= s < e <= len(text) for s, e in ranges)
            assert all(ranges[k][1] < ranges[k + 1][0] for k in range(len(ranges) - 1))
        # the longest span lies inside the highlight of both panes
        assert any(s <= m.a_chars[0] and m.a_chars[1] <= e for s, e in a_ranges)
        assert any(s <= m.b_chars[0] and m.b_chars[1] <= e for s, e in b_ranges)


@settings(max_examples=60, deadline=None)
@given(word_rows, word_rows, word_rows,
       st.lists(st.tuples(st.integers(5, 8), st.sampled_from(["loose", "strict"]), layer_sets,
                          st.sampled_from([0, 10, 50]), st.booleans()), min_size=1, max_size=6))
def test_a_cached_check_equals_a_fresh_one(a, b, other_b, changes):
    """The page reuses tokens, index and matches between checks: never a different answer."""
    from ngram_core import CheckCache
    from ngram_core.run.check import check_steps
    from ngram_core.steps import run_steps
    cache = CheckCache()
    a_rows, b_rows = rows_of(a), rows_of(b)
    for n, mode, layers, threshold, swap_b in changes:
        if swap_b:
            b_rows = rows_of(other_b) if b_rows is not None and b_rows[0].text == " ".join(b[0]) \
                else rows_of(b)
        chosen = Settings(n=n, mode=mode, layers=layers, threshold=threshold)
        cached = run_steps(check_steps(a_rows, b_rows, chosen, cache))
        fresh = run_check(a_rows, b_rows, chosen)
        assert cached.csv() == fresh.csv()
        assert cached.summary == fresh.summary
        assert [cached.highlight(m) for m in cached.ordered] == \
            [fresh.highlight(m) for m in fresh.ordered]


repetitive = st.lists(st.sampled_from(["x", "x", "x", "y", "x y"]), min_size=0, max_size=70)


@settings(max_examples=200, deadline=None)
@given(st.lists(repetitive, min_size=1, max_size=3), st.lists(repetitive, min_size=1, max_size=4),
       st.integers(5, 8), st.integers(1, 40))
def test_engine_equals_reference_on_repeated_text(a, b, n, cap):
    """Runs of one repeated word make every window repeat the same position list."""
    compare(rows_of(a), rows_of(b), n, "loose", ("L1", "L3", "L4"), cap)


# --- scripts written without spaces, mixed with everything else -------------

MIXED = ("日本語中文你好的是" "ひらがなカタカナ" "\u3099\u309a\u309b" "ｶｷﾞﾟｰ"       # CJK, kana
         "กขภาษ\u0e31\u0e34\u0e48\u0e49๑๒฿" "ກເ\u0eb4\u0ec9໑" "ខម\u17d2\u17c2១"  # Thai, Lao, Khmer
         "မန\u103c\u103a\u102c၁" "豈ㇰ"                                          # Myanmar, compat.
         "\U00020000\U0002a6d6\U0001b001\U0002f800\U00030000"                   # astral blocks
         "aBeéｃＡ19" "\u0301\U000e0100\U0001d167"                               # Latin, marks
         "\u200b\u00ad\u2060\u200d" "  \u3000\n" "，。,:「" "\U0001f600")          # Cf, spaces...
mixed_text = st.text(st.sampled_from(MIXED), max_size=80)
backends = st.sampled_from(["re", "regex"])


@settings(max_examples=400, deadline=None)
@given(mixed_text, st.sampled_from(["loose", "strict"]), layer_sets, backends)
def test_tokenizer_equals_reference_on_unspaced_scripts(text, mode, layers, backend):
    assert Tokenizer(mode, layers, backend).tokenize(text) == \
        reference.tokenize(text, mode, layers)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(mixed_text, min_size=1, max_size=4), st.lists(mixed_text, max_size=4),
       st.integers(5, 8), st.sampled_from(["loose", "strict"]), layer_sets, backends)
def test_engine_equals_reference_on_unspaced_scripts(a, b, n, mode, layers, backend):
    b_texts = b + [f"zz {t} zz" for t in a[:2]]
    compare([Row(i, str(i), t) for i, t in enumerate(a, 1)],
            [Row(i, str(i), t) for i, t in enumerate(b_texts, 1)], n, mode, layers,
            backend=backend)


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(MIXED), max_size=200), st.integers(1, 12),
       st.sampled_from(["loose", "strict"]), backends)
def test_pieces_tokenize_as_the_whole_text(text, size, mode, backend):
    """A long row is tokenized piece by piece: never a token split or joined differently."""
    from types import SimpleNamespace
    from ngram_core.steps import run_steps
    from ngram_core.method.tokenize import tokenize_rows, tokenize_rows_steps
    bare = Tokenizer(mode, (), backend)
    assert run_steps(bare.spans_steps(text, size)) == \
        [(s, e) for _, s, e in reference.tokenize(text, mode, ())]
    rows = [SimpleNamespace(text=text)]
    whole = Tokenizer(mode, backend=backend)
    by_pieces = Tokenizer(mode, backend=backend)
    assert list(run_steps(tokenize_rows_steps(rows, by_pieces, size)).ids) == \
        list(tokenize_rows(rows, whole).ids)
    assert by_pieces.vocabulary == whole.vocabulary
