"""Delimited files whose quotes are text: every line holds the same number of
separators and a ``"`` is part of a cell (KorSTS, KorNLI, GLUE-style TSVs,
read by pandas with ``quoting=csv.QUOTE_NONE``), beside properly quoted CSVs
that must read as they always did, and files that are refused."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import assume, given, settings, strategies as st

from conftest import FIXTURES
from ngram_core import InputError, read_table
from ngram_core.read.delimited import (consistent_delimiter, detect_delimiter, detect_header,
                                  quotes_read_as_text, sample_rows, separator_name)
from ngram_core.read.fields import select_rows

KORSTS = FIXTURES / "delimited" / "korsts-shaped.tsv"
TAB_NOTE = "quotes read as text (every line has the same number of tabs)"
COMMA_NOTE = "quotes read as text (every line has the same number of commas)"

KORNLI = (
    "sentence1\tsentence2\tgold_label\n"
    "나는 \"괜찮아\"라고 말했지만 사실은 아니었다.\t나는 괜찮지 않았다.\tentailment\n"
    "\"그 영화는 올해 본 것 중 최고였다\t그 영화는 지루했다.\tcontradiction\n"
    "버스가 \"또\" 늦게 왔다.\t버스는 제시간에 왔다.\tcontradiction\n"
    "그녀는 책을 \"빌려\" 갔다\t그녀가 책을 가져갔다.\tentailment\n"
    "\"안녕\"이라는 인사로 편지가 시작된다.\t편지는 짧았다.\tneutral\n"
)


def grid(text: str, delimiter: str = "\t") -> list[list[str]]:
    """Every non-empty line split at the separator: what QUOTE_NONE reads."""
    return [line.split(delimiter) for line in text.splitlines() if line]


def records_of(table) -> list[list[str]]:
    return [[r[f] for f in table.fields] for r in table.records]


def error_of(data: str, name: str, **options) -> InputError:
    with pytest.raises(InputError) as info:
        read_table(data.encode(), name, **options)
    return info.value


# --- literal quotes ------------------------------------------------------------

def test_korsts_shaped_tsv_keeps_every_cell_byte_for_byte():
    data = KORSTS.read_bytes()
    table = read_table(data, KORSTS.name)
    expected = grid(data.decode())
    assert (table.format, table.delimiter, table.header) == ("tsv", "\t", True)
    assert table.fields == expected[0] == ["genre", "filename", "year", "id", "score",
                                           "sentence1", "sentence2"]
    assert records_of(table) == expected[1:]
    assert table.lines == list(range(2, 11))
    assert table.notes == ["tab-separated, first row read as the header", TAB_NOTE]
    assert quotes_read_as_text(table)
    by_id = {r["id"]: r for r in table.records}
    assert by_id["0004"]["sentence1"] == '"고양이가 창문 밖을 내다본다'       # opened, never closed
    assert by_id["0019"]["sentence1"] == '"속보" 시장이 크게 흔들렸다'
    assert by_id["0033"]["sentence1"] == '정말 그럴까요?"'
    assert by_id["0051"]["sentence1"] == '"" 두 개의 따옴표로 시작하는 문장'
    assert by_id["0072"]["sentence2"] == '"남자가 춤을 추고 있다."'          # wrapped: kept too
    assert select_rows(table, ["sentence1"])[1].text == '"고양이가 창문 밖을 내다본다'


def test_korsts_shaped_tsv_is_detected_under_any_name():
    data = KORSTS.read_bytes()
    for name in ("korsts", "korsts.csv", "korsts.txt.tsv"):
        table = read_table(data, name)
        assert (table.format, table.delimiter, len(table)) == ("tsv", "\t", 9), name
        assert TAB_NOTE in table.notes


def test_kornli_shaped_tsv_with_quotes_in_odd_places():
    table = read_table(KORNLI.encode(), "xnli.train.ko.tsv")
    assert table.fields == ["sentence1", "sentence2", "gold_label"]
    assert records_of(table) == grid(KORNLI)[1:]
    assert table.records[1]["sentence1"] == '"그 영화는 올해 본 것 중 최고였다'
    assert table.notes[-1] == TAB_NOTE


def test_quoted_reading_that_swallows_lines_gives_way_to_the_lines():
    """A lone quote opening a cell and a later cell ending in one parse as one
    clean quoted cell spanning two lines, as wide as the header: the lines win."""
    text = ("sentence1\tsentence2\tgold_label\n"
            "\"우리는 새벽에 떠났다\t우리는 밤에 떠났다.\tcontradiction\n"
            "모두가 박수를 쳤다\"\t아무도 박수를 치지 않았다.\tcontradiction\n"
            "강아지가 잠들었다.\t강아지가 자고 있다.\tentailment\n")
    quoted = list(csv.reader(io.StringIO(text, newline=""), delimiter="\t", strict=True))
    assert len(quoted) == 3 and all(len(r) == 3 for r in quoted)   # the trap is real
    table = read_table(text.encode(), "nli.tsv")
    assert records_of(table) == grid(text)[1:]
    assert table.lines == [2, 3, 4]
    assert table.notes[-1] == TAB_NOTE


def test_headerless_literal_tsv_is_seen_as_headerless():
    """Sampling with quoting would stop at line 2 and call the lone line a header."""
    text = "".join(KORNLI.splitlines(keepends=True)[1:])
    assert len(sample_rows(text, "\t")) == 5
    table = read_table(text.encode(), "pairs.tsv")
    assert (table.header, table.fields) == (False, ["column_1", "column_2", "column_3"])
    assert records_of(table) == grid(text)
    assert table.notes == ["tab-separated, no header row: fields named column_1 to column_3",
                           TAB_NOTE]


def test_detection_sees_the_lines_of_a_literal_quote_file():
    text = KORSTS.read_text(encoding="utf-8")
    rows = sample_rows(text, "\t")
    assert rows == grid(text)
    assert detect_delimiter(text, ",") == "\t"
    assert consistent_delimiter(text) == "\t"
    assert detect_header(rows) is True


def test_comma_csv_with_literal_quotes_and_a_constant_comma_count():
    text = ("id,text,label\n"
            "1,She wrote \"yes\" on the form,pos\n"
            "2,\"Maybe later\" was all he said,neg\n"
            "3,the 12\" record spun slowly,pos\n"
            "4,\"an unfinished thought,neg\n")
    for name in ("notes.csv", "notes"):
        table = read_table(text.encode(), name)
        assert (table.format, table.delimiter, table.header) == ("csv", ",", True)
        assert records_of(table) == grid(text, ",")[1:]
        assert table.notes == ["comma-separated, first row read as the header", COMMA_NOTE]


def test_semicolon_file_with_literal_quotes():
    text = "id;text\r\n1;\"Bonjour\" dit-il\r\n\r\n2;un pouce = 1\"\r\n"
    table = read_table(text.encode(), "a.csv")
    assert table.delimiter == ";"
    assert records_of(table) == [["1", '"Bonjour" dit-il'], ["2", 'un pouce = 1"']]
    assert table.lines == [2, 4]                             # the blank line is skipped
    assert table.notes[-1] == "quotes read as text (every line has the same number of semicolons)"


def test_a_long_literal_tsv_past_the_sample_is_read_whole():
    lines = ["id\tsentence\tscore"]
    for i in range(4000):
        quote = '"' if i % 50 == 1 else ""
        lines.append(f"{i}\t{quote}문장 번호 {i} 는 여기서 끝난다\t{i % 5}.0")
    text = "\r\n".join(lines) + "\r\n"
    assert len(text) > 1 << 16
    table = read_table(text.encode(), "long.tsv")
    assert len(table) == 4000 and table.header is True
    assert records_of(table) == grid(text)[1:]
    assert table.records[1]["sentence"] == '"문장 번호 1 는 여기서 끝난다'
    assert table.notes[-1] == TAB_NOTE


# --- quoted CSV: as before ------------------------------------------------------

def test_spreadsheet_csv_with_embedded_commas_and_newlines_reads_as_before():
    text = ('id,question,answer\r\n'
            '1,"Where is Paris, exactly?","In France,\r\non the Seine."\r\n'
            '2,Plain question,"He said ""no"", twice"\r\n'
            '3,"Three\nlines\nhere",short\r\n')
    table = read_table(text.encode(), "export.csv")
    assert records_of(table) == [["1", "Where is Paris, exactly?", "In France,\r\non the Seine."],
                                 ["2", "Plain question", 'He said "no", twice'],
                                 ["3", "Three\nlines\nhere", "short"]]
    assert table.lines == [2, 4, 5]
    assert table.notes == ["comma-separated, first row read as the header"]
    assert not quotes_read_as_text(table)


def test_fully_quoted_csv_with_a_constant_comma_count_still_drops_its_quotes():
    text = '"id","text"\n"1","hello there"\n"2","a ""quoted"" word"\n'
    assert sample_rows(text, ",") == [["id", "text"], ["1", "hello there"],
                                      ["2", 'a "quoted" word']]
    table = read_table(text.encode(), "all-quoted.csv")
    assert table.fields == ["id", "text"]
    assert records_of(table) == [["1", "hello there"], ["2", 'a "quoted" word']]
    assert table.notes == ["comma-separated, first row read as the header"]


def test_quoted_separator_in_every_line_keeps_the_quoted_shape():
    """Every line has two commas, but quoting reads two fields in every record
    cleanly: that is the reading."""
    text = 'label,"text, in full"\nx,"one, two"\ny,"three, four"\n'
    table = read_table(text.encode(), "a.csv")
    assert table.fields == ["label", "text, in full"]
    assert records_of(table) == [["x", "one, two"], ["y", "three, four"]]
    assert len(table.notes) == 1


def test_tsv_with_quotes_inside_cells_only_reads_the_same_either_way():
    text = 'id\ttext\n1\the said "hi" to me\n2\tno quotes\n'
    table = read_table(text.encode(), "a.tsv")
    assert records_of(table) == grid(text)[1:]
    assert table.notes == ["tab-separated, first row read as the header"]


# --- refused, with the line and no raw tab -------------------------------------------

def test_malformed_tsv_is_refused_naming_the_file_and_the_line():
    lines = ["id\ttext\tscore"] + [f"{i}\tsentence {i}\t1.0" for i in range(1, 408)]
    lines += ['408\t"quoted" then more\t2.0', "409\tone\ttoo\tmany"]
    error = error_of("\n".join(lines) + "\n", "broken.tsv")
    assert (error.source, error.line) == ("broken.tsv", 409)
    assert str(error) == ("broken.tsv, line 409: is not valid TSV: a quote closing a quoted "
                          "field must be followed by a tab or the end of the line (quotes are "
                          "read as text only when every line holds one or more tabs, the same "
                          "number in each)")


def test_unclosed_quote_in_a_ragged_file_is_refused_at_its_record():
    error = error_of('id\ttext\n1\t"never closed\n2\tb\textra\n', "open.tsv")
    assert error.line == 2 and "a quoted field is still open at the end of the file" in str(error)


def test_ragged_file_without_quotes_is_refused_as_before():
    error = error_of("id\ttext\n1\ta\n2\tb\tc\n", "ragged.tsv")
    assert str(error) == "ragged.tsv, line 3: has 3 fields where the header has 2"


@pytest.mark.parametrize("data, name, named", [
    ('a\tb\n1\t"x" y\n2\tz\tw\n', "a.tsv", "a tab"),
    ('a;b\n1;"x" y\n2;z;w\n', "a.csv", "a semicolon"),
    ('a|b\n1|"x" y\n2|z|w\n', "a.csv", "a pipe"),
    ('a,b\n1,"x" y\n2,z,w\n', "a.csv", "a comma"),
    ('a\tb\n1\t"x\n2\tz\tw\n', "a.tsv", "tabs"),
    ("a\tb\n1\tx\n2\ty\tz\n", "a.tsv", "has 3 fields"),
    ("text\ttext\n1\t2\n", "a.tsv", "two columns named 'text'"),
    ("id\ttext\n", "a.tsv", "header row but no rows"),
    ('a:b\n1:"x" y\n2:z:w\n', "a.csv", "':'"),
])
def test_no_message_holds_a_raw_tab(data, name, named):
    delimiter = ":" if "':'" in named else None
    error = error_of(data, name, delimiter=delimiter)
    assert "\t" not in str(error) and "\t" not in error.message
    assert str(error).isprintable()
    assert named in error.message


def test_separator_names():
    assert [separator_name(d) for d in ",;\t|:"] == ["a comma", "a semicolon", "a tab",
                                                    "a pipe", "':'"]
    assert separator_name("\t", plural=True) == "tabs"
    assert "\t" not in separator_name("\t") + separator_name("\x0b")


# --- the rule, over any grid ------------------------------------------------------------

cell = st.text(alphabet='ab "', max_size=5)


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 4).flatmap(lambda w: st.lists(st.lists(cell, min_size=w, max_size=w),
                                                    min_size=1, max_size=6)))
def test_an_even_grid_reads_its_lines_unless_quoting_reads_them_alike(rows):
    """Lines with the same number of tabs always give one record each, but a line
    of blank cells (a spreadsheet's padding) gives none: the cells as they are
    when quotes are text (the note says so), else what quoting reads of the same
    lines."""
    text = "".join("\t".join(r) + "\n" for r in rows)
    assume(text.replace('"', "").strip())              # (a file of only blanks has no rows)
    table = read_table(text.encode(), "grid.tsv", header=False)
    if TAB_NOTE in table.notes:
        read = rows
    else:
        read = list(csv.reader(io.StringIO(text, newline=""), delimiter="\t", strict=True))
        assert len(read) == len(rows)                  # one record per line, quoting or not
    kept = [i for i, cells in enumerate(read) if any(c.strip() for c in cells)]
    assert records_of(table) == [read[i] for i in kept]
    assert table.lines == [i + 1 for i in kept]
