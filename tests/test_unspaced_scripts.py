"""Test sets in scripts written without spaces, copied into training files, are flagged.

Before unspaced scripts were split, a Chinese, Japanese or Thai sentence was one
loose token: each row below was "shorter than 13 tokens" and nothing was
flagged. Each fixture pair (tests/fixtures/unspaced/) holds a small test set
(CMMLU-, JGLUE- and Thai-exam-style questions, plus one row found nowhere in
the training file) and a training file with other rows and the questions copied
into it: whole, inside longer rows, with a prefix or an answer around them,
and one Japanese question written in halfwidth katakana in the test set and in
full-width katakana in the training file.
"""

from pathlib import Path

import pytest

from ngram_core import Settings, read_rows, run_check

FIXTURES = Path(__file__).parent / "fixtures" / "unspaced"


def _rows(name):
    return read_rows((FIXTURES / name).read_bytes(), name)


def _check(language, **settings):
    a, b = _rows(f"{language}_test.jsonl"), _rows(f"{language}_train.jsonl")
    return a, b, run_check(a, b, Settings(n=13, **settings))


@pytest.mark.parametrize("backend", ["re", "regex"])
@pytest.mark.parametrize("language", ["zh", "ja", "th"])
def test_every_copied_row_is_flagged_at_n_13(language, backend):
    a, b, result = _check(language, backend=backend)
    assert len(a) >= 6 and len(result.matches) == len(a)
    for m, row in zip(result.matches, a):
        assert m.status == "checkable", row.id             # 33-58 tokens, not one
        if row.id.endswith("-clean"):
            assert (m.windows, m.dirty, m.b_row) == (0, 0, None), row.id
            continue
        # the whole question is one shared run: every token dirty
        assert m.dirty == m.tokens == m.span, row.id
        assert m.tokens >= 13
        # and the span's characters are the question, found in the B row
        a_text = row.text[m.a_chars[0]:m.a_chars[1]]
        b_text = b[m.b_row].text[m.b_chars[0]:m.b_chars[1]]
        assert len(a_text) >= 13 and a_text in row.text
        if not row.id == "ja-6":                            # copied in full-width there
            assert a_text == b_text
    assert result.summary.flagged == len(a) - 1


def test_chinese_rows_count_one_token_per_character():
    a = _rows("zh_test.jsonl")
    row = a[1]                           # 33 Han characters, "？", "A." ... "D. 氧气"
    _, _, result = _check("zh")
    han = sum(0x4E00 <= ord(c) <= 0x9FFF for c in row.text)
    assert han == 33
    assert result.matches[1].tokens == han + 4                # + the option letters A-D


def test_strict_mode_flags_the_verbatim_copies():
    for language in ("zh", "th"):
        a, _, result = _check(language, mode="strict")
        for m, row in zip(result.matches, a):
            assert m.status == "checkable", row.id
            assert (m.dirty == m.tokens) is (not row.id.endswith("-clean")), row.id
