"""Token-per-line (CoNLL) files are read one row per sentence, and nothing else is.

A CoNLL file read one row per line is rows of one word and its tags, shorter
than any window: a false clean. The detection must take CoNLL-2003's spaces,
CoNLL-U's tabs and ids, and a two-column word/tag file, and must leave prose,
LogiQA-style blocks, lists of pairs and tab-separated tables as they were read.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ngram_core.read.conll import conll_rows, looks_like_conll
from ngram_core.read.readers import read_table, text_rows_read
from ngram_core.table import split_lines

FIXTURES = Path(__file__).parent / "fixtures"

WNUT = "@paulwalk\tO\nIt\tO\n's\tO\nthe\tO\nview\tO\nfrom\tO\nwhere\tO\nI\tO\n'm\tO\n" \
       "living\tO\n\nFrom\tO\nGreen\tB-location\nBay\tI-location\n,\tO\nhere\tO\n"
#: Character-level Chinese NER (MSRA, Weibo NER): one character a line and its tag.
CHINESE = "".join("".join(f"{c} {'B-LOC' if i == 0 else 'O'}\n" for i, c in enumerate(s)) + "\n"
                  for s in ("北京今天下了一场大雨", "上海的地铁明天恢复运行", "广州举办了新的书展"))
CONLL_2003 = (FIXTURES / "shapes/conll2003/eng.testb").read_text()
CONLL_U = (FIXTURES / "shapes/ud-french/fr_news-ud-test.conllu").read_text()

NOT_CONLL = {
    "lines of one shape": "\n\n".join("\n".join(f"line {k} of paragraph {p}" for k in range(1, 5))
                                        for p in range(1, 8)),
    "prose": "The cat sat on the mat.\nIt purred.\n\nThen it slept all day long.\nThe end.\n" * 5,
    "LogiQA blocks": (FIXTURES / "shapes/logiqa-en/Test.txt").read_text(),
    "wrapped paragraphs": (FIXTURES / "page/science-notes.txt").read_text(),
    "question<TAB>answer lines": "".join(f"What is {k} plus {k}?\t{2 * k}\n" for k in range(30)),
    "pairs with a blank line after each": "".join(f"word{k} tag{k}\n\n" for k in range(30)),
    "one list, no sentences": "".join(f"word{k} NOUN\n" for k in range(40)),
    "Thai lines": (FIXTURES / "shapes/wisesight/test.txt").read_text(),
}


@pytest.mark.parametrize("text", [CONLL_2003, CONLL_U, WNUT * 3, CHINESE],
                         ids=["conll2003", "conllu", "wnut", "chinese-characters"])
def test_token_per_line_files_are_detected(text):
    assert looks_like_conll(split_lines(text))
    table = read_table(text.encode(), "test.txt")
    assert text_rows_read(table) == "conll"
    assert "one row per sentence" in table.notes[0] and "choose lines" in table.notes[0]


@pytest.mark.parametrize("name", NOT_CONLL)
def test_other_text_is_not_read_as_conll(name):
    assert not looks_like_conll(split_lines(NOT_CONLL[name]))
    assert text_rows_read(read_table(NOT_CONLL[name].encode(), "file.txt")) != "conll"


def test_conll_2003_sentences_are_their_words_without_the_tags():
    table = read_table(CONLL_2003.encode(), "eng.testb")
    first = table.records[0]["text"]
    assert first.startswith("The city council of Lyon voted") and "NNP" not in first
    assert "did n't" not in table.records[2]["text"] and "didn't" in table.records[2]["text"]
    assert all("-DOCSTART-" not in r["text"] for r in table.records)
    assert len(table) == 10 and table.lines[0] == 3      # the first sentence's first line


def test_character_level_chinese_ner_reads_its_sentences():
    table = read_table(CHINESE.encode(), "msra_test.txt")
    assert [r["text"].replace(" ", "") for r in table.records] == [
        "北京今天下了一场大雨", "上海的地铁明天恢复运行", "广州举办了新的书展"]


def test_conll_u_sentences_are_their_text_lines_and_their_ids():
    table = read_table(CONLL_U.encode(), "fr.conllu")
    assert table.fields == ["sent_id", "text"]
    assert table.records[0]["sent_id"] == "fr-news-001-1"
    assert table.records[0]["text"].startswith("Le maire a présenté le budget du port au conseil")


def test_conll_u_without_text_lines_reads_word_ranges_once():
    lines = [line for line in split_lines(CONLL_U) if not line.startswith("# text")]
    text = conll_rows(lines)[0].text
    assert text.startswith("Le maire a présenté le budget du port au conseil")
    assert "de le" not in text


def test_lines_and_paragraphs_can_still_be_chosen():
    lines = read_table(CONLL_2003.encode(), "eng.testb", text_rows="line")
    assert lines.records[0]["text"] == "-DOCSTART- -X- -X- O" and lines.notes == []
    blocks = read_table(CONLL_2003.encode(), "eng.testb", text_rows="paragraph")
    assert blocks.records[1]["text"].startswith("The NNP B-NP O\ncity NN I-NP O")
