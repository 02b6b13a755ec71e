"""Tokens: the two modes, the four layers, and the two matchers agreeing."""

import io
import json
import sys
import unicodedata

import pytest
import regex

import reference
from ngram_core.cli import main
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
