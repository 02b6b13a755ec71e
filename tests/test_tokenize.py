"""Tokens: the two modes, the four layers, and the two matchers agreeing."""

import sys
import unicodedata

import pytest
import regex

import reference
from ngram_core.tokenize import Tokenizer, make_normalizer, parse_layers, token_pattern


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


def test_tokenizer_records_backend_and_unicode_version():
    t = Tokenizer("loose", backend="regex")
    assert t.backend == "regex"
    assert t.unicode_version == unicodedata.unidata_version
