"""Reading rows: every format, field choice, and a clear error for every bad file."""

import json

import pytest
from hypothesis import given, settings, strategies as st

from ngram_core import InputError, read_rows, read_table
from ngram_core.read.fields import detect_id_field, detect_text_fields, select_rows
from ngram_core.read.files import load_rows_by_file

from bad_files import BAD_FILES, where


def texts(rows):
    return [r.text for r in rows]


# --- formats ---------------------------------------------------------------

def test_json_array_of_objects_picks_question_and_id():
    rows = read_rows(b'[{"id": "q1", "label": 2, "question": "Who?"}]', "a.json")
    assert [(r.number, r.id, r.text) for r in rows] == [(1, "q1", "Who?")]


def test_json_array_of_strings_uses_row_numbers_as_ids():
    rows = read_rows(b'["one", "two"]', "a.json")
    assert [(r.id, r.text) for r in rows] == [("1", "one"), ("2", "two")]


def test_json_object_holding_the_array():
    rows = read_rows(b'{"version": "1", "data": [{"text": "x"}, {"text": "y"}]}', "a.json")
    assert texts(rows) == ["x", "y"]


def test_jsonl_and_ndjson_with_blank_lines_and_crlf():
    data = b'{"text": "a"}\r\n\r\n{"text": "b"}\n{"text": "c"}\r'
    for name in ("a.jsonl", "a.ndjson"):
        assert texts(read_rows(data, name)) == ["a", "b", "c"]


def test_csv_with_quoted_newlines_and_bom():
    data = '\ufeffid,text\r\n1,"line one\nline two"\r\n2,plain\r\n'.encode()
    rows = read_rows(data, "a.csv")
    assert [(r.id, r.text) for r in rows] == [("1", "line one\nline two"), ("2", "plain")]


@pytest.mark.parametrize("data, name", [
    # a spreadsheet saved as CSV: empty columns to its right, empty rows below
    (b"id,question,,\r\nq1,first question,,\r\n,,,\r\nq2,\"second, quoted\",,\r\n,,,\r\n"
     b",,,\r\n", "sheet.csv"),
    (b"id\tquestion\t\nq1\tfirst question\t\n\t\t\nq2\tsecond, quoted\t\n\t\t\n", "sheet.tsv"),
])
def test_rows_of_empty_cells_are_blank_lines_and_ids_survive_them(data, name):
    rows = read_rows(data, name)
    assert [(r.id, r.text) for r in rows] == [("q1", "first question"), ("q2", "second, quoted")]


@pytest.mark.parametrize("data, name", [
    # a title and a blank line above the header; Excel pads the title's row with commas
    (b"Quiz export 2024-05-01\n\nid,question\nq1,first question\nq2,\"second, quoted\"\n",
     "titled.csv"),
    (b"Quiz export 2024-05-01,,\r\n,,\r\nid,question,answer\r\nq1,first question,A\r\n"
     b"q2,\"second, quoted\",B\r\n", "padded.csv"),
    # comments from an export tool above a TSV; a title over a semicolon CSV
    (b"# exported by quiz-tool 1.2\n# columns: id, question\nid\tquestion\nq1\tfirst question\n"
     b"q2\tsecond, quoted\n", "comments.tsv"),
    ("R\u00e9sultats du quiz\nid;question\nq1;first question\nq2;second, quoted\n".encode(),
     "titled-semicolon.csv"),
    # Excel's "sep=" line, which names the separator for Excel
    (b"sep=;\r\nid;question\r\nq1;first question\r\nq2;second, quoted\r\n", "excel-sep.csv"),
])
def test_lines_above_the_header_are_not_rows(data, name):
    """A title, comments or padding above a table's header: refused before, or read as
    rows under made-up column names with the header as a row."""
    table = read_table(data, name)
    rows = select_rows(table, None, detect_id_field(table))
    assert [(r.id, r.text) for r in rows] == [("q1", "first question"), ("q2", "second, quoted")]
    assert table.lines[0] == data.count(b"\n", 0, data.index(b"q1")) + 1
    assert any("above the header" in note for note in table.notes)


@pytest.mark.parametrize("data", [
    b"#,question\n1,first question\n2,second question\n",            # a column named "#"
    b"only one cell\nq1,first question\nq2,second question\n".replace(b"only", b"q0,only"),
    b"#1,Which gas do plants take in?,A\n#2,Who wrote Emma?,B\n#3,Why is the sky blue?,C\n",
])
def test_a_first_row_that_is_a_header_or_a_row_is_not_dropped(data):
    table = read_table(data, "a.csv")
    assert not any("above the header" in note for note in table.notes)
    assert len(table.records) == (2 if data.startswith(b"#,") else 3)


_QUESTIONS = ["What is the boiling point of water at sea level?", "Who wrote the novel Emma?"]


@pytest.mark.parametrize("document, ids", [
    # pandas' DataFrame.to_json() (orient "columns", its default), "index" and "split"
    ({"question": {"0": _QUESTIONS[0], "1": _QUESTIONS[1]}, "answer": {"0": "100 C", "1": "Austen"}},
     ["1", "2"]),
    ({"0": {"question": _QUESTIONS[0], "answer": "100 C"},
      "1": {"question": _QUESTIONS[1], "answer": "Austen"}}, ["0", "1"]),
    ({"columns": ["question", "answer"], "index": [0, 1],
      "data": [[_QUESTIONS[0], "100 C"], [_QUESTIONS[1], "Austen"]]}, ["1", "2"]),
    # Hugging Face's Dataset.to_dict(); items keyed by their ids
    ({"question": _QUESTIONS, "answer": ["100 C", "Austen"]}, ["1", "2"]),
    ({"q-17": {"question": _QUESTIONS[0], "choices": ["90 C", "100 C"]},
      "q-18": {"question": _QUESTIONS[1], "choices": ["Austen", "Eliot"]}}, ["q-17", "q-18"]),
    # MS MARCO's dev_v2.1.json: by columns, a cell a list of objects
    ({"passages": {"0": [{"passage_text": "At sea level it boils at 100 C.", "is_selected": 1}],
                   "1": [{"passage_text": "Emma is a novel.", "is_selected": 0}]},
      "question": {"0": _QUESTIONS[0], "1": _QUESTIONS[1]}, "query_id": {"0": 19, "1": 20}},
     ["19", "20"]),
    # more fields than items: the keys with digits are still the rows
    ({"q1": {"question": _QUESTIONS[0], "answer": "100 C", "topic": "physics"},
      "q2": {"question": _QUESTIONS[1], "answer": "Austen", "topic": "books"}}, ["q1", "q2"]),
])
def test_a_table_written_as_an_object_is_read_one_row_per_item(document, ids):
    """Not one row of every question joined, nor the rows of a list inside one item."""
    table = read_table(json.dumps(document).encode(), "test.json")
    rows = select_rows(table, ["question"])
    assert [r.text for r in rows] == _QUESTIONS
    assert [r.id for r in select_rows(table, ["question"], detect_id_field(table))] == ids


@pytest.mark.parametrize("document, ids", [
    ({"0": _QUESTIONS[0], "1": _QUESTIONS[1]}, ["0", "1"]),          # pandas' Series.to_json()
    ({"q-17": _QUESTIONS[0], "q-18": _QUESTIONS[1]}, ["q-17", "q-18"]),
])
def test_strings_keyed_by_row_are_one_row_each(document, ids):
    table = read_table(json.dumps(document).encode(), "test.json")
    rows = select_rows(table, None, detect_id_field(table))
    assert [(r.id, r.text) for r in rows] == list(zip(ids, _QUESTIONS))


@pytest.mark.parametrize("name, data", [
    ("values.json", json.dumps([["q1", _QUESTIONS[0], 1], ["q2", _QUESTIONS[1], 0]])),
    ("values.jsonl", "".join(json.dumps(["q1" if i == 0 else "q2", q, 1]) + "\n"
                             for i, q in enumerate(_QUESTIONS))),
])
def test_rows_that_are_arrays_are_read_as_headerless_cells(name, data):
    """pandas' to_json(orient="values"), and JSON Lines of arrays: refused before."""
    table = read_table(data.encode(), name)
    assert table.fields == ["column_1", "column_2", "column_3"]
    assert [r.text for r in select_rows(table)] == _QUESTIONS
    assert any("each row is an array" in note for note in table.notes)


def test_a_single_object_is_one_row():
    """A MATH problem file; a RACE article file, whose short parallel lists are not rows."""
    math = {"problem": _QUESTIONS[0], "level": "Level 5", "type": "Algebra",
            "solution": "Water boils at 100 degrees Celsius at sea level, so the answer is 100."}
    race = {"answers": ["A", "C"], "options": [["a", "b"], ["c", "d"]],
            "questions": ["Why did she go?", "Who wrote it?"], "id": "high1.txt",
            "article": "Mary went to the market early on Monday morning. " * 8}
    for document in (math, race):
        table = read_table(json.dumps(document).encode(), "one.json")
        assert len(table) == 1 and "the JSON object is read as one row" in table.notes
    assert select_rows(read_table(json.dumps(race).encode(), "one.json"))[0].text.startswith(
        "Mary went to the market")
    sentences = {"description": "A short description of the data.",
                 "sentences": [f"Sentence number {k} of the set." for k in range(20)]}
    assert len(read_table(json.dumps(sentences).encode(), "s.json")) == 20
    asked = {"instruction": "Answer each question in one short sentence, please. " * 4,
             "questions": _QUESTIONS}
    assert [r.text for r in select_rows(read_table(json.dumps(asked).encode(), "q.json"))] \
        == _QUESTIONS


def test_tsv():
    rows = read_rows(b"id\tsentence\nx\thello there\n", "a.tsv")
    assert [(r.id, r.text) for r in rows] == [("x", "hello there")]


def test_plain_text_one_row_per_line_any_line_ending():
    table = read_table(b"first\r\nsecond\nthird\rfourth\n", "a.txt")
    assert [r["text"] for r in table.records] == ["first", "second", "third", "fourth"]


def test_utf16_with_bom_is_read_and_said():
    rows = read_rows('[{"text": "caf\u00e9"}]'.encode("utf-16"), "a.json")
    assert texts(rows) == ["caf\u00e9"]
    table = read_table('[{"text": "caf\u00e9"}]'.encode("utf-16"), "a.json")
    assert table.notes[0] == "read as UTF-16 (its byte-order mark says so)"


@pytest.mark.parametrize("name, data, fmt", [
    ("a.json", b'{"text": "a"}\n{"text": "b"}\n', "jsonl"),     # JSONL named .json
    ("a.jsonl", b'[{"text": "a"}, {"text": "b"}]', "json"),     # an array named .jsonl
    ("data", b'[{"text": "a"}]', "json"),                       # no extension
    ("data", b'{"text": "a"}\n{"text": "b"}', "jsonl"),
    ("data", b"id,text\n1,hello\n", "csv"),
    ("data", b"id\ttext\n1\thello\n", "tsv"),
    ("data", b"just some words\nmore words\n", "text"),
    ("a.csv", b"id\ttext\n1\thello\n", "tsv"),                   # tabs in a .csv
    ("pairs.txt", b"id\ttext\n1\thello\n2\tbye\n", "tsv"),         # a .txt that is a TSV
    ("notes.txt", b"a line\twith a tab\na line without\n", "text"),
    ("indented.txt", b"\tA first paragraph, indented.\n\n\tA second one.\n\n\tA third.\n", "text"),
])
def test_format_is_sniffed_when_extension_is_missing_or_wrong(name, data, fmt):
    assert read_table(data, name).format == fmt


def test_a_txt_whose_tabs_stop_making_a_table_is_read_by_line_and_says_why():
    """Only the start decides that a .txt is a TSV: a later line of another width
    (a stray tab) makes it text again, as it was read before, not an error."""
    data = b"id\ttext\n" + b"".join(b"%d\tline %d of the file\n" % (i, i) for i in range(30))
    data += b"31\ta stray\ttab\n"
    table = read_table(data, "pairs.txt")
    assert table.format == "text" and len(table.records) == 32
    assert table.notes[-1] == ("read as text: its tabs do not make a table throughout "
                               "(line 32: has 3 fields where the header has 2)")
    with pytest.raises(InputError, match="line 32: has 3 fields"):
        read_table(data, "pairs.tsv")            # named as a TSV: an error, as before


def test_a_txt_of_tabs_read_by_line_when_asked():
    table = read_table(b"id\ttext\n1\thello\n2\tbye\n", "pairs.txt", text_rows="line")
    assert table.format == "text" and len(table.records) == 3


def test_several_text_fields_join_with_newline_in_order():
    rows = read_rows(b'[{"q": "Q?", "a": "A.", "x": null}]', "a.json", ["a", "q", "x"])
    assert texts(rows) == ["A.\nQ?"]


def test_blank_rows_are_missing_null_or_whitespace():
    rows = read_rows(b'[{"text": "a"}, {"text": null}, {"other": 1}, {"text": " \\n\\t"}]',
                     "a.json", ["text"])
    assert [r.blank for r in rows] == [False, True, True, True]


def test_detection_prefers_common_names_and_id_suffixes():
    table = read_table(b'[{"task_id": "t1", "score": "0.5", "prompt": "Write"}]', "a.json")
    assert detect_text_fields(table) == ["prompt"]
    assert detect_id_field(table) == "task_id"


@pytest.mark.parametrize("record, id_field", [
    ({"guid": "klue-nli-v1_dev_00000", "premise": "p", "hypothesis": "h"}, "guid"),   # KLUE
    ({"captionID": "3416050480.jpg#4", "pairID": "3416050480.jpg#4r1n", "sentence1": "s"},
     "pairID"),                                                                     # SNLI
])
def test_ids_named_as_datasets_name_them(record, id_field):
    second = {k: v + "x" if k != "captionID" else v for k, v in record.items()}
    table = read_table(json.dumps([record, second]).encode(), "dev.json")
    assert detect_id_field(table) == id_field


def test_detection_falls_back_to_first_mostly_string_field():
    table = read_table(b'[{"n": 1, "body_text": "hello"}, {"n": 2, "body_text": "x"}]',
                       "a.json")
    assert detect_text_fields(table) == ["body_text"]


def test_numbers_become_text_and_lists_one_value_a_line():
    rows = read_rows(b'[{"text": 42}, {"text": ["a", "b"]}]', "a.json", ["text"])
    assert texts(rows) == ["42", "a\nb"]


def test_lone_surrogate_escape_becomes_replacement_character():
    rows = read_rows(b'[{"id": "\\udc00", "text": "a\\ud800b"}]', "a.json")
    assert rows[0].text == "a\ufffdb" and rows[0].id == "\ufffd"
    rows[0].text.encode("utf-8")                      # encodable: crosses to the page


# --- bad input: one clear message naming the file and the line -------------

@pytest.mark.parametrize("case", BAD_FILES, ids=[case.name for case in BAD_FILES])
def test_bad_files_raise_input_error_naming_file_and_line(case):
    with pytest.raises(InputError) as info:
        read_rows(case.data, case.name, case.fields)
    error = info.value
    message = str(error)
    assert error.source == case.name
    assert (error.line, error.row) == (case.line, case.row)
    assert message.startswith(where(case) + ": ")       # "a.json, line 2: ..." or "a.json: ..."
    assert case.needle in message
    assert "\n" not in message and "\r" not in message


def test_missing_field_names_the_fields_there_are():
    with pytest.raises(InputError, match=r"no field 'body'.*'id', 'text'"):
        read_rows(b'[{"id": 1, "text": "a"}]', "a.json", ["body"])
    with pytest.raises(InputError, match="as the id field"):
        read_rows(b'[{"id": 1, "text": "a"}]', "a.json", ["text"], "uid")


def test_rows_without_the_chosen_field_anywhere():
    table = read_table(b'[{"text": "a"}, {"other": "b"}]', "a.json")
    with pytest.raises(InputError, match="no row has a value in the text field 'missing'"):
        table.fields.append("missing")
        select_rows(table, ["missing"])


def test_huge_csv_field_is_read():
    big = "w " * 200_000
    rows = read_rows(f"text\n\"{big}\"\n".encode(), "a.csv")
    assert rows[0].text == big


def test_error_messages_survive_json_round_trip():
    """The message names the file as given, as text (no escaping), and the line, on one line."""
    name = "we\u00efrd <b>.json"
    with pytest.raises(InputError) as info:
        read_rows(b'[{"text": "a"},]', name)
    error = info.value
    message = str(error)
    assert type(message) is str
    assert message.startswith("we\u00efrd <b>.json, line 1: is not valid JSON")
    assert (error.source, error.line, error.row) == (name, 1, None)
    assert message.isprintable()                        # one line: no newline or control character
    assert json.loads(json.dumps(message, ensure_ascii=False)) == message
    assert message.encode("utf-8").decode("utf-8") == message    # strict UTF-8: crosses to the page


def test_json_deeper_than_100_levels_is_refused_before_parsing():
    """In the tab, parsing it would overflow the WebAssembly stack and kill the page."""
    row = b'[{"text": "x", "deep": ' + b"[" * 99 + b"]" * 99 + b"}]"     # 101 levels
    with pytest.raises(InputError, match="nested more than 100 levels deep"):
        read_rows(row, "a.json")
    with pytest.raises(InputError, match="nested more than 100 levels deep"):
        read_rows(b'{"text": "x", "deep": ' + b"[" * 100 + b"]" * 100 + b"}\n", "a.jsonl")
    ok = b'[{"text": "x", "deep": ' + b"[" * 98 + b"]" * 98 + b"}]"       # 100 levels
    assert read_rows(ok, "a.json")[0].text == "x"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ab \r\n\v\f\x1c\x1d\x1e\x85\u2028\u2029\u2027é", min_size=1))
def test_split_lines_cuts_at_cr_and_lf_only(text):
    from ngram_core.table import LINE_BREAK, split_lines
    assert split_lines(text) == LINE_BREAK.split(text)


def test_a_json_lines_file_opening_with_a_blank_line_and_no_final_break_is_read(tmp_path):
    # its head's only whole line is blank: nothing to judge it by, not "empty"
    path = tmp_path / "train.jsonl"
    path.write_text('\n{"text": "the one row"}')
    rows, _, _ = load_rows_by_file([str(path)])
    assert [row.text for row in rows] == ["the one row"]


JSONISH = st.lists(st.sampled_from(list('{}[]:," \t\r\n\\abu01é\ud800\ufeff.e-') +
                                     ["true", "null", '"text"', "1e999", "NaN"]),
                    max_size=30).map("".join)


@settings(max_examples=1500, deadline=None)
@given(st.one_of(JSONISH, JSONISH.map(lambda t: "{" + t)))
def test_a_jsonl_line_gives_what_json_loads_gives_and_its_error(text):
    """A JSON Lines row is scanned at once when it starts with "{": the same value as
    json.loads, and for a broken line json.loads's own error (message and column)."""
    from ngram_core.read.json_rows import _loads
    try:
        expected = ("value", json.loads(text))
    except (ValueError, RecursionError) as e:
        expected = ("error", repr(e))
    try:
        got = ("value", _loads(text))
    except (ValueError, RecursionError) as e:
        got = ("error", repr(e))
    assert got == expected or (got[0] == expected[0] == "value" and
                               json.dumps(got[1]) == json.dumps(expected[1]))   # NaN != NaN
