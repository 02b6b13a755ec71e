"""Tokens: the two modes, the four layers, and the two matchers agreeing."""

import io
import json
import sys
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
import regex

import reference
from ngram_core.cli import main
from ngram_core.steps import run_steps
from ngram_core.method.tokenize import Tokenizer, make_normalizer, parse_layers, token_pattern


def tokens(text, mode="loose", layers=("L1", "L3", "L4")):
    return Tokenizer(mode, layers).tokenize(text)


def test_loose_splits_on_punctuation_and_folds_case():
    assert [t for t, _, _ in tokens('Moon, "moon" MOON!')] == ["moon", "moon", "moon"]


def test_strict_keeps_punctuation_and_case():
    assert tokens("Fact: in 1969") == [("fact", 0, 4), ("in", 6, 8), ("1969", 9, 13)]
    assert tokens("Fact: in 1969", "strict") == [("Fact:", 0, 5), ("in", 6, 8), ("1969", 9, 13)]


def test_full_width_letters_match_plain_under_l3():
    assert tokens("ＡＰＯＬＬＯ") == [("apollo", 0, 6)]
    assert tokens("ＡＰＯＬＬＯ", layers=("L1", "L4")) == [("ａｐｏｌｌｏ", 0, 6)]


def test_format_characters_join_and_vanish_under_l4():
    assert tokens("co\u00adop\u200bera\u2060tion") == [("cooperation", 0, 14)]
    assert tokens("co\u00adop", layers=("L1",)) == [("co\u00adop", 0, 5)]
    assert tokens("\u200b\u200b a") == [("a", 3, 4)]        # a token of only Cf is dropped


def test_l2_strips_diacritics_only_when_asked():
    assert tokens("Café naïve") == [("café", 0, 4), ("naïve", 5, 10)]
    assert tokens("Café naïve", layers=("L1", "L2", "L3", "L4")) == [("cafe", 0, 4),
                                                                      ("naive", 5, 10)]


def test_layer_order_is_l4_l3_l1_l2():
    # L4 before L3: with the zero-width joiner gone, NFKC composes e + acute into é;
    # the other way round the joiner blocks the composition and é stays decomposed
    assert make_normalizer(parse_layers("L3,L4"))("e\u200d\u0301") == "\u00e9"
    assert make_normalizer(parse_layers("L1,L2,L3,L4"))("\ufb01\u00adN\u0303") == "fin"


def test_ranges_are_half_open_code_points():
    text = "😀 héllo wörld"
    for token, start, end in tokens(text):
        assert text[start:end].lower() == token


def test_combining_marks_stay_inside_a_token():
    assert tokens("e\u0301cole", layers=("L1",)) == [("e\u0301cole", 0, 6)]
    assert tokens("e\u0301cole") == [("\u00e9cole", 0, 6)]      # L3 composes it


def test_unknown_layer_is_refused():
    with pytest.raises(ValueError, match="L5"):
        parse_layers("L1,L5")


def _all_known_code_points():
    """Every code point the running Python assigns, that regex also assigns."""
    unassigned = regex.compile(r"\p{Cn}")
    for cp in range(sys.maxunicode + 1):
        ch = chr(cp)
        if unicodedata.category(ch) != "Cn" and not unassigned.match(ch):
            yield ch


def test_stdlib_and_regex_matchers_agree_on_every_assigned_code_point():
    chars = list(_all_known_code_points())
    assert len(chars) > 140_000
    std, rx = token_pattern("loose", "re"), token_pattern("loose", "regex")
    # each code point alone, between separators: in the class or not
    text = " ".join(chars)
    assert std.spans(text) == rx.spans(text)
    # and as one run, so that class members join and non-members split
    run = "".join(chars)
    assert std.spans(run) == rx.spans(run)
    assert std.findall(run) == rx.findall(run)


def test_stdlib_matcher_agrees_with_reference_per_code_point():
    std = token_pattern("loose", "re")
    for cp in range(0, sys.maxunicode + 1, 1):
        ch = chr(cp)
        if 0xD800 <= cp <= 0xDFFF:
            continue
        assert bool(std.spans(ch)) == reference.in_token_class(ch), hex(cp)


def test_strict_separator_is_str_isspace():
    strict = token_pattern("strict")
    for cp in range(sys.maxunicode + 1):
        ch = chr(cp)
        assert bool(strict.spans(ch)) == (not ch.isspace()), hex(cp)


# letters and digits of several scripts, full-width, format characters, a
# combining mark, an emoji: all assigned in the running Python's Unicode
SAMPLE = ("Fact: the MOON, \uff21\uff30\uff2f\uff2c\uff2c\uff2f co\u00adop\u200bera "
          "e\u0301cole na\u00efve \ufb01ne \U0001f600 \u05e9\u05dc\u05d5\u05dd "
          "\u0645\u0631\u062d\u0628\u0627 \u0661\u0662\u0663 1969 x\u2060y")


def _summary(tmp_path, *options):
    """The command's ``--json`` summary for SAMPLE checked against itself."""
    path = tmp_path / "sample.txt"
    path.write_text(SAMPLE + "\n", encoding="utf-8")
    out = io.StringIO()
    assert main([str(path), str(path), "--json", "--n", "5", *options], out, io.StringIO()) == 0
    return json.loads(out.getvalue())


def test_summary_records_the_backend_and_unicode_version_used_for_matching(tmp_path):
    # the two backends split the sample into the same tokens...
    same = Tokenizer("loose", backend="re").tokenize(SAMPLE)
    assert len(same) == 13
    assert Tokenizer("loose", backend="regex").tokenize(SAMPLE) == same
    # ...so the command counts the same, and only the recorded backend differs
    by_re = _summary(tmp_path, "--tokenizer", "re")
    by_regex = _summary(tmp_path, "--tokenizer", "regex")
    assert (by_re["tokenizer"], by_regex["tokenizer"]) == ("re", "regex")
    assert by_re["tokens"] == 13 and by_re["flagged"] == 1
    assert {k: v for k, v in by_regex.items() if k != "tokenizer"} == \
        {k: v for k, v in by_re.items() if k != "tokenizer"}
    # re matches with the classes of the running Python's unicodedata. (regex
    # matches with its own, newer tables, yet the summary records unicodedata's
    # version for it too: not asserted, it is not the version regex used.)
    assert by_re["unicode_version"] == unicodedata.unidata_version
    assert by_re["layers"] == Tokenizer("loose", backend="re").label == "L1+L3+L4"
    # strict mode matches with re whatever backend is asked for, and says so
    strict = _summary(tmp_path, "--mode", "strict", "--tokenizer", "regex")
    assert (strict["tokenizer"], strict["layers"]) == ("re", "strict")
    assert strict["unicode_version"] == unicodedata.unidata_version


# --- scripts written without spaces ----------------------------------------

MATCHERS = [("loose", "re"), ("loose", "regex"), ("strict", "re")]


def raw(text, mode="loose", backend="re"):
    """The raw tokens a matcher cuts, before any layer."""
    return [text[s:e] for s, e in token_pattern(mode, backend).spans(text)]


@pytest.mark.parametrize("backend", ["re", "regex"])
def test_unspaced_examples_from_the_issue(backend):
    loose, strict = Tokenizer(backend=backend), Tokenizer("strict", backend=backend)
    assert loose.tokenize("GPT4は日本語") == [
        ("gpt4", 0, 4), ("は", 4, 5), ("日", 5, 6), ("本", 6, 7), ("語", 7, 8)]
    # U+FF9E belongs to the halfwidth ｶ before it; NFKC makes the two one ガ
    assert loose.tokenize("ｶﾞｯｺｳ") == [("ガ", 0, 2), ("ッ", 2, 3), ("コ", 3, 4), ("ウ", 4, 5)]
    assert strict.tokenize("你好，世界。") == [
        ("你", 0, 1), ("好", 1, 2), ("，", 2, 3), ("世", 3, 4), ("界", 4, 5), ("。", 5, 6)]
    assert loose.tokenize("你好，世界。") == [("你", 0, 1), ("好", 1, 2), ("世", 3, 4),
                                            ("界", 4, 5)]


# raw tokens, the same in both modes and both backends
UNSPACED_CASES = {
    "ที่นั่น": ["ที่", "นั่", "น"],                    # Thai vowel signs, tone marks: Mn
    "မြန်မာ": ["မြ", "န်", "မာ"],                      # Myanmar Mc and Mn
    "ខ្មែរ": ["ខ្", "មែ", "រ"],                        # Khmer coeng (Mn), vowel sign (Mc)
    "ກິນເຂົ້າ": ["ກິ", "ນ", "ເ", "ຂົ້", "າ"],               # Lao
    "か\u3099き": ["か\u3099", "き"],                  # combining voiced mark, in the Hiragana block
    "日\u0301本": ["日\u0301", "本"],                  # a mark from outside the blocks too
    "日\U000e0100本": ["日\U000e0100", "本"],          # an astral mark (a variation selector)
    "\U00020000\u0301\U0002a6d6": ["\U00020000\u0301", "\U0002a6d6"],   # astral ideographs
    "\U0001b001\U0001b002x": ["\U0001b001", "\U0001b002", "x"],         # Kana Supplement
    "\U0002f800\U00030000": ["\U0002f800", "\U00030000"],     # Compatibility Supplement, Ext G
    "ｶﾞﾟｷ": ["ｶﾞﾟ", "ｷ"],                              # halfwidth sound marks join like marks
    "aﾞb": ["a", "ﾞ", "b"],                           # ...but after a Latin letter are their own
    "ﾞｶ": ["ﾞ", "ｶ"],
    "a\u0e31b ก": ["a\u0e31b", "ก"],                  # a block mark after Latin continues the run
    "\u0e31ก\u0e31": ["\u0e31", "ก\u0e31"],           # a mark opening the text starts a run
    "๑๒๓ ໑໒ ၁၂ ១២ 123": ["๑", "๒", "๓", "໑", "໒", "၁", "၂", "១", "២", "123"],
    "x日y2本\U0001f600z": None,                        # mode-dependent, see below
    "日\u200b本": ["日", "\u200b", "本"],               # a format character starts a new token
    "ab\u00adc語de\u2060f": ["ab\u00adc", "語", "de\u2060f"],
    "ＡＢ日ＣＤ": ["ＡＢ", "日", "ＣＤ"],
    "漢字かなカナ": ["漢", "字", "か", "な", "カ", "ナ"],
    "豈\ufa6d": ["豈", "\ufa6d"],                      # CJK Compatibility Ideographs
    "ㇰㇱ": ["ㇰ", "ㇱ"],                                # Katakana Phonetic Extensions
}


@pytest.mark.parametrize("mode, backend", MATCHERS)
@pytest.mark.parametrize("text", list(UNSPACED_CASES))
def test_unspaced_characters_and_their_marks(text, mode, backend):
    expected = UNSPACED_CASES[text]
    if expected is None:
        expected = ["x", "日", "y2", "本", "z"] if mode == "loose" else \
            ["x", "日", "y2", "本", "\U0001f600z"]
    assert raw(text, mode, backend) == expected
    assert [t for t, _, _ in reference.tokenize(text, mode, ())] == expected


def test_strict_mode_splits_unspaced_characters_from_punctuation_runs():
    assert raw("「日本」です。", "strict") == ["「", "日", "本", "」", "で", "す", "。"]
    assert raw("ok:日本!! ฿100", "strict") == ["ok:", "日", "本", "!!", "฿", "100"]
    assert raw("ok:日本!! ฿100") == ["ok", "日", "本", "100"]       # ฿ (Sc) is no loose token


def _block_chars():
    for first, last in reference.UNSPACED:
        for cp in range(first, last + 1):
            yield chr(cp)


@pytest.mark.parametrize("mode, backend", MATCHERS)
def test_every_block_character_but_a_mark_is_a_token_of_its_own(mode, backend):
    pattern = token_pattern(mode, backend)
    keep = reference.in_token_class if mode == "loose" else (lambda c: not c.isspace())
    unassigned = regex.compile(r"\p{Cn}")
    own = 0
    for ch in _block_chars():
        if backend == "regex" and (unicodedata.category(ch) == "Cn" or unassigned.match(ch)):
            continue                 # assigned in one Unicode version only
        where = f"U+{ord(ch):04X}"
        if not keep(ch):             # no token character: splits
            assert pattern.spans(f"x{ch}1") == [(0, 1), (2, 3)], where
        elif reference.is_mark(ch):  # joins what is before it, whatever that is
            assert pattern.spans(f"x{ch}1") == [(0, 3)], where
            assert pattern.spans(f"日{ch}1") == [(0, 2), (2, 3)], where
            assert pattern.spans(f"\U00020000{ch}{ch}\U00020001") == [(0, 3), (3, 4)], where
        elif ch in "\uff9e\uff9f":   # a sound mark: its own token, then joins like a mark
            assert pattern.spans(f"x{ch}{ch}1") == [(0, 1), (1, 3), (3, 4)], where
        else:
            assert pattern.spans(f"x{ch}{ch}1") == [(0, 1), (1, 2), (2, 3), (3, 4)], where
            assert pattern.spans(f"{ch}\u0301{ch}\U000e0100") == [(0, 2), (2, 4)], where
            own += 1
    assert own > (90_000 if backend == "re" else 80_000)


def test_matchers_agree_with_each_other_and_the_reference_around_unspaced_characters():
    """Every assigned code point twice, after an unspaced or a Latin character, before another."""
    chars = list(_all_known_code_points())
    std, rx, strict = (token_pattern("loose", "re"), token_pattern("loose", "regex"),
                       token_pattern("strict"))
    for lead in ("日", "\U00020000", "a"):
        text = " ".join(f"{lead}{ch}{ch}本" for ch in chars)
        assert std.spans(text) == rx.spans(text), lead
    # the plain loop is slow: against it, the characters that matter and a sample of the rest
    def matters(i, ch):
        cat = unicodedata.category(ch)
        if reference.own_token(ch) or ch.isspace() or cat[0] == "M" or cat == "Cf":
            return ord(ch) <= 0xFFFF or i % 16 == 0
        return i % 64 == 0
    sample = [ch for i, ch in enumerate(chars) if matters(i, ch)]
    for lead in ("日", "a"):
        text = " ".join(f"{lead}{ch}{ch}本" for ch in sample)
        assert std.spans(text) == [(s, e) for _, s, e in reference.tokenize(text, "loose", ())]
        assert strict.spans(text) == [(s, e) for _, s, e in reference.tokenize(text, "strict", ())]


def test_a_long_unspaced_row_is_cut_into_pieces_never_before_a_mark():
    from ngram_core.method.tokenize import _pieces
    assert [len(p) for p in _pieces("日" * 1000, 100)] == [100] * 10
    text = "日\u0301ｶﾞﾟ\u0e31x " * 200
    pieces = list(_pieces(text, 1))
    assert "".join(pieces) == text and len(pieces) > 200
    for piece in pieces[1:]:
        assert piece[0] not in "\u0301ﾞﾟ\u0e31x"


# Text mixing words, format characters (a run of them alone normalizes to nothing
# and is dropped), marks, unspaced scripts and astral characters.
PIECES = ["word", "Mot", "\u00ad", "\u200b\u200d", "e\u0301", "\u0301", "日本", "ｶﾞ", "𝐀b",
          " ", ", ", "\n", "12"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40), st.integers(0, 45),
       st.sampled_from([("loose", ("L1", "L3", "L4")), ("loose", ("L1", "L2", "L3", "L4")),
                        ("strict", ())]), st.sampled_from([3, 1 << 16]), st.booleans())
def test_spans_up_to_a_limit_are_the_first_spans(parts, limit, tokenizer_choice, piece,
                                                 dropped_before):
    """The offsets stage asks only for the spans up to the last token it needs: they
    must be the whole text's first spans, dropped tokens left out, also once the
    vocabulary has dropped a token elsewhere."""
    text = "".join(parts)
    mode, layers = tokenizer_choice
    tokenizer = Tokenizer(mode, layers)
    tokenizer.ids(("\u00ad " if dropped_before else "") + text)   # tokens seen, as in a check
    whole = tokenizer.spans(text)
    assert len(whole) == len(tokenizer.ids(text))
    limited = run_steps(tokenizer.spans_steps(text, piece, limit=limit))
    assert limited[:limit] == whole[:limit]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40), st.data(),
       st.sampled_from([("loose", ("L1", "L3", "L4")), ("loose", ("L1", "L2", "L3", "L4")),
                        ("strict", ())]), st.sampled_from([1, 3, 1 << 16]), st.booleans())
def test_the_characters_of_a_run_of_tokens_are_those_of_its_spans(parts, data,
                                                                  tokenizer_choice, piece,
                                                                  dropped_before):
    """A match's characters in a long row are found a piece at a time, no list of the
    row's spans kept: the same offsets as the whole list gives, dropped tokens left
    out, whatever the pieces."""
    text = "".join(parts)
    tokenizer = Tokenizer(*tokenizer_choice)
    tokenizer.ids(("\u00ad " if dropped_before else "") + text)
    whole = tokenizer.spans(text)
    if not whole:
        with pytest.raises(IndexError):
            tokenizer.char_range(text, 0, 0, piece)
        return
    first = data.draw(st.integers(0, len(whole) - 1))
    last = data.draw(st.integers(first, len(whole) - 1))
    assert tokenizer.char_range(text, first, last, piece) == (whole[first][0], whole[last][1])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=40), st.integers(0, 45),
       st.sampled_from([("loose", ("L1", "L3", "L4")), ("loose", ("L1", "L2", "L3", "L4")),
                        ("strict", ())]))
def test_counting_up_to_n_tokens_is_the_count_capped(parts, limit, tokenizer_choice):
    """The short-row warning asks only whether a row has n tokens: the answer must be
    the full count's, dropped tokens (a lone soft hyphen) left out."""
    text = "".join(parts)
    assert Tokenizer(*tokenizer_choice).count_up_to(text, limit) == \
        min(len(Tokenizer(*tokenizer_choice).ids(text)), limit)
    assert Tokenizer(*tokenizer_choice).count(text) == len(Tokenizer(*tokenizer_choice).ids(text))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["word", "Ünï", "a\u00adb", "\u200b", "日本語", "。", "x1",
                                 " ", "  ", "\n", "-", "\u0301"]), max_size=80),
       st.integers(1, 12), st.sampled_from(["loose", "strict"]))
def test_a_long_text_is_counted_piece_by_piece_as_its_spans_are(parts, piece_chars, mode):
    """A field's tokens are counted without listing them (a 20 MB line): the count of
    the pieces is the number of the text's kept tokens."""
    text = "".join(parts)
    tokenizer = Tokenizer(mode=mode)
    assert run_steps(tokenizer.count_steps(text, piece_chars)) == len(tokenizer.spans(text))
