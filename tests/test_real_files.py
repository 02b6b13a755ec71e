"""Real exports read as a person means them: the text field by content, nested
records, the array that holds the rows, CSV dialects and encodings.

The fixtures under tests/fixtures/real/ are small files shaped like the
exports people check (a web crawl CSV, ARC, HellaSwag, SQuAD, a split-per-key
JSON, an Excel CSV...). Each case here was read wrong before: the wrong
column, serialized JSON, the wrong array, or a refusal.
"""

from __future__ import annotations

import io
import json
import re

import pytest
from conftest import FIXTURES

from ngram_core import InputError
from ngram_core.read import fields as fields_module
from ngram_core.read.fields import (count_short_rows, detect_id_field, detect_text_fields,
                               field_stats, longer_fields, other_text_fields, rank_text_fields,
                               read_rows, select_rows, short_rows_warning,
                               unchecked_text_notice)
from ngram_core.cli import main
from ngram_core.read.readers import read_table
from ngram_core.table import RecordArray
from ngram_core.method.tokenize import Tokenizer

REAL = FIXTURES / "real"


def table_of(name: str, **options):
    return read_table((REAL / name).read_bytes(), name, **options)


def stats_by_name(table):
    return {s.name: s for s in field_stats(table)}


# --- the text field is the one holding sentences -------------------------------------

def test_url_title_contents_csv_reads_every_text_field_but_the_url():
    table = table_of("pages.csv")
    assert detect_text_fields(table) == ["title", "contents"]
    assert stats_by_name(table)["url"].kind == "url"
    rows = select_rows(table)
    (title, t0, t1), (contents, c0, c1) = rows[0].parts
    assert (title, contents) == ("title", "contents") and c0 == t1 + 1
    assert rows[0].text[c0:c1].startswith("Apollo 11 was the American spaceflight")
    assert rows[0].text == rows[0].text[t0:t1] + "\n" + rows[0].text[c0:c1]
    assert [r.id for r in rows] == ["1", "2", "3"]          # no id column: row numbers


def test_doc_id_texte_csv_reads_texte_with_doc_id_as_the_id():
    table = table_of("documents-fr.csv")
    assert detect_text_fields(table) == ["Texte"]
    assert detect_id_field(table) == "Doc ID"
    assert [r.id for r in select_rows(table)] == ["doc-0001", "doc-0002", "doc-0003"]


def test_hellaswag_jsonl_reads_its_texts_not_the_split_labels():
    table = table_of("hellaswag-val.jsonl")
    # ctx is ctx_a and ctx_b joined: a copy, its words read once
    assert detect_text_fields(table) == ["activity_label", "ctx_a", "ctx_b", "endings"]
    stats = stats_by_name(table)
    assert stats["ctx"].kind == "copy"
    assert (stats["split"].kind, stats["split_type"].kind) == ("category", "category")
    assert detect_id_field(table) == "ind"          # source_id repeats videos; ind is unique
    assert table.list_fields == ["endings"]
    rows = select_rows(table, ["ctx"])
    assert rows[0].text == "A man is sitting on a roof. he"
    assert rows[0].id == "24"
    endings = select_rows(table, ["endings"])[0].text
    assert endings.split("\n") == ["is using wrap to wrap a pair of skis.",
                                   "is ripping level tiles off.", "is holding a rubik's cube.",
                                   "starts pulling up roofing on a roof."]


@pytest.mark.parametrize("loser, values, kind", [
    ("url", ["https://example.org/a/%d" % i for i in range(12)], "url"),
    ("category", ["Science and Technology News Section", "World Politics and Current Affairs"]
     * 6, "category"),
    ("code", ["ABC-%04d_x-y-z-w" % i for i in range(12)], "id"),
])
def test_ids_urls_and_categories_lose_to_a_short_sentence_field(loser, values, kind):
    # the losing field comes first and has more tokens per row than the sentences
    records = [{loser: v, "headline": f"Rover finds water {i}"} for i, v in enumerate(values)]
    table = read_table(json.dumps(records).encode(), "news.json")
    stats = stats_by_name(table)
    assert stats[loser].kind == kind and stats[loser].tokens > stats["headline"].tokens
    assert detect_text_fields(table) == ["headline"]


def test_a_list_made_field_is_text_read_after_the_scalar_ones():
    records = [{"options": [f"a long option about the sea {i}", "another long option about land",
                            "a third long option about air"], "prompt": f"Pick one of {i}."}
               for i in range(3)]
    table = read_table(json.dumps(records).encode(), "mc.json")
    assert stats_by_name(table)["options"].listed
    assert detect_text_fields(table) == ["prompt", "options"]      # a question, its options
    only_lists = read_table(b'[{"id": "x1", "options": ["one two", "three four"]}]', "o.json")
    assert detect_text_fields(only_lists) == ["options"]
    # the same short prompt in every row is a category, not the item's text
    same = read_table(json.dumps([{**r, "prompt": "Pick one."} for r in records]).encode(),
                      "mc.json")
    assert detect_text_fields(same) == ["options"]


def test_a_field_repeating_another_ones_words_is_a_copy_left_out():
    """XNLI ships each sentence again split into words (``sentence1_tokenized``):
    read, every token counted twice; it is a copy, left out like a parse tree."""
    table = table_of("xnli-test.tsv")
    kinds = {s.name: s.kind for s in field_stats(table)}
    assert kinds["sentence1_tokenized"] == kinds["sentence2_tokenized"] == "copy"
    assert kinds["sentence1"] == kinds["sentence2"] == "text"
    assert detect_text_fields(table) == ["sentence1", "sentence2"]


@pytest.mark.parametrize("same_rows, copy", [(10, True), (9, True), (8, False)])
def test_a_copy_has_the_same_words_in_nine_rows_of_ten(same_rows, copy):
    questions = [f"Question number {i} asks which planet is the {i}th from the sun" for i in range(10)]
    again = [q.upper().replace(" ", "  ") if i < same_rows else f"Another sentence, {i}"
             for i, q in enumerate(questions)]
    records = [{"question": q, "again": a} for q, a in zip(questions, again)]
    table = read_table(json.dumps(records).encode(), "pairs.json")
    assert (stats_by_name(table)["again"].kind == "copy") is copy
    assert detect_text_fields(table) == ["question"] if copy else ["question", "again"]


def test_a_field_joining_two_earlier_ones_is_a_copy_counted_once():
    """HellaSwag as Hugging Face ships it: ``ctx`` is ``ctx_a`` and ``ctx_b`` joined.
    Read beside them, each row's context counted twice (98 tokens where it has 73,
    a dirty share a third too low or high); it is a copy, left out."""
    import random
    rnd = random.Random(3)
    words = "man woman ladder roof garden hose bucket lawn fence dog kitchen river canoe".split()
    records = []
    for i in range(12):
        ctx_a = f"A {' '.join(rnd.choices(words, k=9))} and"
        ctx_b = " ".join(rnd.choices(words, k=2))
        records.append({"ind": 4 + i, "activity_label": "Canoeing", "ctx_a": ctx_a,
                        "ctx_b": ctx_b, "ctx": ctx_a + " " + ctx_b,
                        "endings": [" ".join(rnd.choices(words, k=12)) + "." for _ in range(4)],
                        "split": "val", "label": str(i % 4)})
    table = read_table("".join(json.dumps(r) + "\n" for r in records).encode(), "hs.jsonl")
    assert stats_by_name(table)["ctx"].kind == "copy"
    rows = read_rows("".join(json.dumps(r) + "\n" for r in records).encode(), "hs.jsonl")
    tokenizer = Tokenizer()
    assert [tokenizer.count(row.text) for row in rows] == [
        tokenizer.count(r["ctx"] + " " + " ".join(r["endings"])) for r in records]


def test_a_file_with_no_text_field_is_refused_naming_its_fields():
    data = b"id,url,score\nq1,https://a.org/1,0.5\nq2,https://a.org/2,0.7\n"
    with pytest.raises(InputError) as info:
        read_rows(data, "links.csv")
    message = str(info.value)
    assert message.startswith("links.csv: has no field that holds text")
    assert "'id' (ids)" in message and "'url' (URLs)" in message and "'score' (numbers)" in message


def test_the_id_field_prefers_unique_values():
    data = json.dumps([{"doc_id": "d1", "example_id": f"e{i}", "text": f"row {i} words"}
                       for i in range(3)]).encode()
    assert detect_id_field(read_table(data, "a.json")) == "example_id"


class HanRuns(Tokenizer):
    """A run of Han characters is one token (the tokenizer as it was)."""
    def ids(self, text):
        return super().ids(re.sub("[\u4e00-\u9fff]+", " han ", text))


class HanCharacters(Tokenizer):
    """Each Han character is one token (the tokenizer as it is becoming)."""
    def ids(self, text):
        return super().ids(re.sub("([\u4e00-\u9fff])", r" \1 ", text))


@pytest.mark.parametrize("tokenizer", [HanRuns, HanCharacters])
def test_chinese_question_wins_under_either_han_tokenizer(monkeypatch, tokenizer):
    """Near ties (within 25 %) go to the field with more characters per row, so a
    tokenizer making one token of a Han run and one making a token of each
    character pick the same field."""
    monkeypatch.setattr(fields_module, "Tokenizer", tokenizer)
    table = table_of("chinese.jsonl")
    assert detect_text_fields(table)[0] == "question"
    assert detect_id_field(table) == "id"
    # an unpunctuated question: one token, like the answer, when runs are tokens
    line = '{"id": "q1", "answer": "北京", "question": "中国的首都是哪座城市"}\n'
    tied = read_table(line.encode(), "tied.jsonl")
    stats = stats_by_name(tied)
    assert (stats["question"].tokens == stats["answer"].tokens) is (tokenizer is HanRuns)
    assert [s.name for s in rank_text_fields(field_stats(tied))] == ["question", "answer"]


# --- nested records ---------------------------------------------------------------------

def test_arc_nested_jsonl_gives_leaf_path_fields():
    table = table_of("arc-challenge.jsonl")
    assert table.fields == ["id", "question.stem", "question.choices.text",
                            "question.choices.label", "answerKey"]
    assert table.list_fields == ["question.choices.text", "question.choices.label"]
    assert detect_text_fields(table) == ["question.stem", "question.choices.text"]
    assert stats_by_name(table)["question.choices.label"].kind == "category"     # A B C D
    rows = select_rows(table)
    assert rows[0].id == "Mercury_7175875"
    assert rows[0].text.startswith("An astronomer observes that a planet rotates faster")
    assert rows[0].text.endswith("\nPlanetary gravity will become stronger.")
    first = table.records[0]
    assert first["question.choices.text"] == ("Planetary density will decrease.\n"
                                              "Planetary years will become longer.\n"
                                              "Planetary days will become shorter.\n"
                                              "Planetary gravity will become stronger.")
    assert first["question.choices.label"] == "A\nB\nC\nD"
    # a path prefix names every field under it, in order
    whole = select_rows(table, ["question"])[2].text
    assert whole.split("\n")[:3] == [table.records[2]["question.stem"], "a comet impact",
                                     "a long ice age"]


def test_hf_style_dict_of_lists_gives_one_field_per_key():
    data = b'{"id": "1", "question": "Which gas do plants absorb from the air?", ' \
           b'"choices": {"text": ["oxygen", "carbon dioxide"], "label": ["A", "B"]}}\n'
    table = read_table(data, "hf.jsonl")
    assert table.fields == ["id", "question", "choices.text", "choices.label"]
    assert table.records[0]["choices.text"] == "oxygen\ncarbon dioxide"


def test_a_key_with_a_dot_keeps_its_name_and_wins_over_a_nested_path():
    data = b'[{"meta.source": "top", "meta": {"source": "nested", "year": 2020}, "text": "x"}]'
    table = read_table(data, "dots.json")
    assert table.fields == ["meta.source", "meta.year", "text"]
    assert table.records[0]["meta.source"] == "top"


# --- which JSON array holds the rows ------------------------------------------------------

def test_squad_json_rows_are_the_questions_with_their_paragraph():
    table = table_of("squad-dev.json")
    assert table.records_path == "data.paragraphs.qas"
    assert table.arrays == [RecordArray("data", 2, True), RecordArray("data.paragraphs", 3, True),
                            RecordArray("data.paragraphs.qas", 5, True),
                            RecordArray("data.paragraphs.qas.answers", 12, True)]
    assert len(table) == 5
    assert {"question", "id", "answers.text"} <= set(table.fields)
    assert table.outer_fields == ["data.title", "data.paragraphs.context"]
    assert detect_id_field(table) == "id"
    questions = select_rows(table, ["question"])
    assert questions[0][:3] == (1, "56be4db0acb8001400a502ec",
                                "Which NFL team represented the AFC at Super Bowl 50?")
    # by default: the passage first, then the question's own text fields
    assert detect_text_fields(table) == ["data.paragraphs.context", "question", "answers.text"]
    assert stats_by_name(table)["data.title"].kind == "category"    # 2 titles over 5 rows
    row = select_rows(table)[0]
    assert [name for name, _, _ in row.parts] == detect_text_fields(table)
    assert row.text.endswith("\nWhich NFL team represented the AFC at Super Bowl 50?\n"
                             "Denver Broncos\nDenver Broncos\nDenver Broncos")
    assert table.records[4]["data.paragraphs.context"].startswith("One of the most famous")
    assert table.records[4]["data.title"] == "Warsaw"
    assert "rows are the 5 items of `data.paragraphs.qas`" in table.notes[-1]


def test_squad_with_one_question_per_article_reads_the_questions():
    """As many articles as questions: the array whose items carry ids holds the rows
    (the articles were the rows before: no ids, the title read as a field)."""
    table = table_of("squad-one-question-per-article.json")
    assert table.records_path == "data.paragraphs.qas"
    assert detect_id_field(table) == "id"
    assert [row.id for row in select_rows(table)] == ["a01", "p01", "v01"]
    assert detect_text_fields(table) == ["data.paragraphs.context", "question", "answers.text"]


def test_a_dataset_viewer_response_reads_its_rows_not_its_features():
    """The dataset viewer's rows endpoint: a list of features beside as many rows;
    the rows hold the text (the features were read before: nothing checkable)."""
    table = table_of("hf-viewer-rows.json")
    assert table.records_path == "rows"
    assert select_rows(table)[0].text.startswith(
        "When was the Aswan High Dam on the Nile built, and what were its two main purposes")
    assert "row.question" in detect_text_fields(table)


def test_records_path_can_be_forced_and_an_unknown_one_lists_the_arrays():
    paragraphs = table_of("squad-dev.json", records="data.paragraphs")
    assert len(paragraphs) == 3 and paragraphs.records_path == "data.paragraphs"
    assert "context" in detect_text_fields(paragraphs)
    assert "qas.id" not in detect_text_fields(paragraphs)
    with pytest.raises(InputError) as info:
        table_of("squad-dev.json", records="data.questions")
    assert "no array of rows at `data.questions`" in str(info.value)
    assert "`data.paragraphs.qas` (5)" in str(info.value)
    with pytest.raises(InputError, match="applies to a JSON document only"):
        table_of("arc-challenge.jsonl", records="data")


def test_splits_in_one_json_a_reads_test_and_b_reads_train():
    a = table_of("splits.json", role="a")
    b = table_of("splits.json", role="b")
    assert (a.records_path, len(a)) == ("test", 3)
    assert (b.records_path, len(b)) == ("train", 5)
    assert table_of("splits.json").records_path == "test"      # no role: read as file A
    assert select_rows(a)[0].text.startswith("Test sentence number 0")
    assert "read `test` as file A" in a.notes[0]
    assert [x.path for x in a.arrays] == ["train", "validation", "test"]


def test_data_beside_a_longer_label_names_list_reads_data():
    table = table_of("intents.json")
    assert table.records_path == "data"
    assert RecordArray("label_names", 40, False) in table.arrays
    assert select_rows(table)[0].text == "wake me up at seven tomorrow morning please"


# --- delimited files ---------------------------------------------------------------------

def test_semicolon_csv_with_bom_and_crlf():
    table = table_of("excel-semicolon.csv")
    assert (table.delimiter, table.header) == (";", True)
    assert table.fields == ["id", "question", "answer"]
    assert table.notes == ["semicolon-separated, first row read as the header"]
    rows = select_rows(table, ["question"])
    assert rows[1].text == "Combien de jours y a-t-il dans une année bissextile; et pourquoi ?"
    # one-word answers are left out beside the question (a keyword between fields
    # would break the windows running from one into the other)
    assert detect_text_fields(table) == ["question"]
    assert [r.id for r in rows] == ["1", "2", "3"]


@pytest.mark.parametrize("delimiter", [",", ";", "\t", "|"])
def test_every_delimiter_with_bom_and_crlf(delimiter):
    lines = ["id", "text"], ["1", "The quick brown fox jumps over the lazy dog."], ["2", "Again."]
    data = ("\ufeff" + "".join(delimiter.join(cells) + "\r\n" for cells in lines)).encode()
    table = read_table(data, "a.csv")
    assert (table.delimiter, table.header) == (delimiter, True)
    assert table.format == ("tsv" if delimiter == "\t" else "csv")
    assert [(r.id, r.text) for r in select_rows(table)] == [
        ("1", "The quick brown fox jumps over the lazy dog."), ("2", "Again.")]


def test_headerless_csv_keeps_its_first_row():
    table = table_of("headerless.csv")
    assert (table.header, table.fields) == (False, ["column_1", "column_2", "column_3"])
    assert table.notes == ["comma-separated, no header row: fields named column_1 to column_3"]
    rows = select_rows(table)
    assert len(rows) == 3 and rows[0].text.startswith("Some unrelated sentence about cooking")


def test_delimiter_and_header_can_be_forced():
    forced = table_of("headerless.csv", header=True)
    assert forced.header is True and forced.fields[0] == "d1" and len(forced) == 2
    as_rows = table_of("pages.csv", header=False)
    assert as_rows.fields == ["column_1", "column_2", "column_3"] and len(as_rows) == 4
    piped = read_table(b"a|b\n1|x,y\n", "data.txt", delimiter="pipe")
    assert (piped.format, piped.fields) == ("csv", ["a", "b"])
    assert piped.records == [{"a": "1", "b": "x,y"}]
    with pytest.raises(InputError, match="apply to CSV and TSV files only"):
        table_of("squad-dev.json", delimiter=";")


@pytest.mark.parametrize("rows, expected", [
    ([["id", "text"], ["1", "a"]], True),                          # usual column names
    ([["Doc ID", "Texte"], ["d1", "Un texte bien plus long que son titre."]], True),
    ([["name", "age"], ["Ann", "31"], ["Bob", "42"]], True),       # numbers under a word
    ([["Frage", "Antwort"], ["Wie heißt du?", "Hans"]], True),     # sentences under a word
    ([["Paris", "capital"], ["New York", "city"]], False),
    ([["Hello, how are you?", "Bonjour, comment ça va ?"], ["Thank you.", "Merci."]], False),
    ([["Paris", "Capital of France"], ["Rome", "Capital of Italy"]], False),
    ([["1", "first sentence"], ["2", "second sentence"]], False),  # a number: not a label
    ([["only row"]], True),                                        # a lone row is a header
])
def test_header_detection(rows, expected):
    from ngram_core.read.delimited import detect_header
    assert detect_header(rows) is expected


# --- encodings --------------------------------------------------------------------------

def test_windows_1252_csv_is_read_with_a_note():
    table = table_of("windows-1252.csv")
    assert table.encoding == "windows-1252"
    assert table.notes[0] == "not UTF-8: read as Windows-1252"
    texts = [r.text for r in select_rows(table)]
    assert texts[1] == ("Señor Muñoz said the \u201cnaïve\u201d approach cost €40 \u2013 "
                        "far too much.")


def test_utf16_without_a_byte_order_mark_is_named_as_such():
    with pytest.raises(InputError) as info:
        read_table('[{"text": "hello"}]'.encode("utf-16-le"), "a.json")
    assert "looks like UTF-16" in str(info.value) and "NUL" in str(info.value)


# --- field statistics and rows too short to match ----------------------------------------

def test_field_stats_and_the_short_rows_warning():
    table = table_of("squad-dev.json")
    stats = stats_by_name(table)
    question = stats["question"]
    assert (question.listed, question.outer, question.kind) == (False, False, "text")
    assert question.sample == "Which NFL team represented the AFC at Super Bowl 50?"
    assert stats["answers.text"].listed and stats["data.paragraphs.context"].outer
    rows = select_rows(table, ["question"])
    count = count_short_rows(rows, 13)
    assert (count.rows, count.blank, count.short, count.mostly_short) == (5, 0, 5, True)
    longer = longer_fields(list(stats.values()), 13, ["question"])
    assert [s.name for s in longer] == ["data.paragraphs.context"]
    warning = short_rows_warning(count, ["question"], longer)
    assert warning.startswith("5 of 5 rows of question are shorter than 13 tokens")
    assert "Longer fields: data.paragraphs.context (40 tokens per row)." in warning
    assert short_rows_warning(count_short_rows(select_rows(table), 13), ["x"], longer) is None


def test_other_text_fields_leave_out_the_chosen_labels_ids_and_short_fields():
    table = read_table(
        b'id,label,title,question,passage\n'
        b'q1,yes,Moon,"Who first walked on the Moon in the summer of 1969?",'
        b'"The Apollo 11 crew landed on the Moon in July 1969 and walked on it for hours."\n'
        b'q2,no,Sun,"Is the Sun a star at the centre of the solar system?",'
        b'"The Sun is a star at the centre of our system, around which the planets turn."\n',
        "items.csv")
    stats = field_stats(table)
    assert {"question", "passage"} <= set(detect_text_fields(table))
    assert "id" not in detect_text_fields(table)
    assert [s.name for s in other_text_fields(stats, ["passage"])] == ["question"]
    assert [s.name for s in other_text_fields(stats, ["question"])] == ["passage"]
    assert other_text_fields(stats, ["passage", "question"]) == []
    assert unchecked_text_notice("B", ["passage"], other_text_fields(stats, ["passage"])) == (
        "Nothing was flagged in passage, the text of file B searched. File B also holds "
        "question (12 tokens per row), not searched: text of file A in it would not be found.")


def test_a_clean_result_names_a_passage_left_out_as_the_same_in_every_row(tmp_path):
    """One passage that every question is on is left out as fixed (it says nothing about
    the row); when the check then flags nothing, the passage is named as not checked:
    a leak of it would not show."""
    passage = ("The lighthouse on the northern cape was built in 1874 from granite cut in the "
               "quarries of the valley, and its lamp could be seen thirty miles out to sea.")
    questions = [f"Question {i}: what does the passage say about the keeper's duty number {i}?"
                 for i in range(12)]
    a = tmp_path / "one-passage.jsonl"
    a.write_text("".join(json.dumps({"passage": passage, "question": q}) + "\n" for q in questions))
    b = tmp_path / "web.jsonl"
    b.write_text(json.dumps({"text": "A history of the coast. " + passage}) + "\n")
    out, err = io.StringIO(), io.StringIO()
    assert main([str(a), str(b), "--json"], out, err) == 0
    assert json.loads(out.getvalue())["a_fields"] == ["question"]
    assert json.loads(out.getvalue())["flagged"] == 0
    assert "File A also holds passage (" in err.getvalue()


def test_a_chosen_path_prefix_covers_every_field_under_it():
    table = read_table(
        b'{"question": {"stem": "Which gas do the green leaves of plants take in from the air '
        b'around them?", "choices": [{"text": "carbon dioxide gas"}, {"text": "oxygen gas"}]}, '
        b'"fact": "Plants take in carbon dioxide through small openings in their leaves."}\n',
        "arc.jsonl")
    stats = field_stats(table)
    assert [s.name for s in other_text_fields(stats, ["question"])] == ["fact"]
    assert "question.stem" in [s.name for s in other_text_fields(stats, ["fact"])]

