"""Plain-text files made of blocks (LogiQA's layout): with no ``text_rows`` given, a
file of blank-line-separated blocks of similar shape is read one row per block and
the notes say so; every other plain-text file is read one row per line, as before.
Expected counts, texts and line numbers are worked out by hand from the files."""

from __future__ import annotations

import time

import pytest

from ngram_core import read_rows, read_table
from ngram_core.read.readers import made_of_blocks, read_by_blocks

ENGLISH = [
    ["c", "David knows Mr. Zhang's friend Jack, and Jack knows David's friend Ms. Lin.",
     "If the above is true, which of the following must be true?",
     "A. David knows Ms. Lin.", "B. Jack knows Mr. Zhang.", "C. Ms. Lin knows Jack.",
     "D. Mr. Zhang knows David."],
    ["a", "All students who study logic pass the exam; some who pass the exam study music.",
     "Which of the following can be inferred?",
     "A. Some students pass the exam.", "B. Every musician studies logic.",
     "C. No student studies music.", "D. Logic is harder than music."],
    ["d", "A town built a new bridge, and traffic on the old road fell by half within a year.",
     "Which of the following best explains the fall?",
     "A. The old road was repaved.", "B. Fewer people own cars.",
     "C. The bridge charges a toll.", "D. The bridge is a shorter route to the city."],
    ["b", "Every member of the chess club also plays go, but no go player plays bridge.",
     "Which of the following must be false?",
     "A. A go player is in the chess club.", "B. A chess club member plays bridge.",
     "C. Someone plays neither game.", "D. A bridge player plays chess."],
    ["a", "The museum is open on Mondays only when a holiday falls on a Sunday.",
     "The museum was open last Monday. Which of the following must be true?",
     "A. A holiday fell on the Sunday before.", "B. Last Monday was a holiday.",
     "C. The museum is closed on Sundays.", "D. The museum opens every Monday."],
    ["c", "Researchers found that people who sleep more report fewer colds.",
     "Which of the following, if true, most weakens the conclusion that sleep prevents colds?",
     "A. The study was large.", "B. Colds are common in winter.",
     "C. People with colds tend to report their sleep less accurately.",
     "D. Sleep is good for health."],
]

CHINESE = [
    ["a", "有些教师是作家,所有作家都喜欢读书。", "由此可以推出以下哪项?",
     "A.有些教师喜欢读书。", "B.所有教师都是作家。", "C.有些作家不是教师。", "D.喜欢读书的都是作家。"],
    ["b", "如果明天下雨,运动会就会推迟。运动会没有推迟。", "由此可以推出以下哪项?",
     "A.明天下雨了。", "B.明天没有下雨。", "C.运动会取消了。", "D.明天可能下雨。"],
    ["c", "甲、乙、丙三人中只有一人说了真话,甲说乙在说谎,乙说丙在说谎。", "以下哪项一定为真?",
     "A.甲说了真话。", "B.乙说了真话。", "C.丙在说谎。", "D.三人都在说谎。"],
    ["d", "某公司所有的经理都会说英语,有的经理会说日语。", "以下哪项一定为真?",
     "A.所有会说英语的都是经理。", "B.有的经理不会说英语。", "C.会说日语的都是经理。",
     "D.有的会说日语的人会说英语。"],
    ["a", "只有通过考试,才能获得证书。小王获得了证书。", "由此可以推出以下哪项?",
     "A.小王通过了考试。", "B.小王没有通过考试。", "C.通过考试就能获得证书。", "D.小王不需要考试。"],
]

THAI = ["สวัสดี", "ฉันชอบกิน", "วันนี้อากาศดีมาก", "เขาไปโรงเรียนทุกวัน",
        "พวกเราจะไปเที่ยวทะเลกัน", "แม่ของฉันทำอาหารอร่อยที่สุด",
        "นักเรียนหลายคนกำลังอ่านหนังสือในห้องสมุด",
        "เมื่อวานนี้ฝนตกหนักมากจนถนนหลายสายน้ำท่วม"]        # one per line, by length


def logiqa(items, newline="\n", lead="\n"):
    """LogiQA's layout: a blank line, then each item's lines, a blank line after each."""
    return (lead + "".join(newline.join(item) + newline + newline for item in items)).encode()


def note(blocks: int, size: str) -> str:
    return (f"one row per block of lines between blank lines ({blocks} blocks of {size} "
            f"lines); choose lines to read one row per line")


def texts(table):
    return [r["text"] for r in table.records]


# --- files made of blocks ----------------------------------------------------------------

def test_english_logiqa_reads_one_row_per_item():
    table = read_table(logiqa(ENGLISH), "logiqa_en.txt")
    assert texts(table) == ["\n".join(item) for item in ENGLISH]
    assert table.lines == [2, 10, 18, 26, 34, 42]         # a blank first line, 8 lines an item
    assert table.notes == [note(6, "7")]
    assert read_by_blocks(table)


def test_chinese_logiqa_with_crlf_reads_one_row_per_item():
    table = read_table(logiqa(CHINESE, "\r\n", lead=""), "logiqa_zh.txt")
    assert texts(table) == ["\n".join(item) for item in CHINESE]
    assert table.lines == [1, 9, 17, 25, 33]
    assert table.notes == [note(5, "7")]
    rows = read_rows(logiqa(CHINESE, "\r\n", lead=""), "logiqa_zh.txt")
    assert [(r.number, r.text.splitlines()[3]) for r in rows] == \
        [(i, item[3]) for i, item in enumerate(CHINESE, 1)]


def test_blocks_of_different_sizes_say_about_the_median_and_keep_their_lines():
    items = [["b", "A passage", "wrapped over", "three lines.", "Why?", "A. x", "B. y"],
             ["a", "One line.", "Why?", "A. x", "B. y"],
             ["c", "One line.", "Why not?", "A. x", "B. y", "C. z"],
             ["a", "Two", "lines.", "How?", "A. x", "B. y"]]
    data = "\n\n".join("\n".join(item) for item in items) + "\n"
    # 7, 5, 6, 6 lines; the middle block of the sorted sizes 5 6 6 7 has 6 lines
    table = read_table(data.encode(), "a.txt")
    assert table.lines == [1, 9, 15, 22]
    assert table.notes == [note(4, "about 6")]


def test_whitespace_only_and_repeated_blank_lines_separate_blocks():
    data = "  \n\nq1\nA. yes\nB. no\n \t\n\u3000\nq2\nA. up\nB. down\n\n\n\nq3\nA. in\nB. out"
    table = read_table(data.encode(), "a.txt")
    assert texts(table) == ["q1\nA. yes\nB. no", "q2\nA. up\nB. down", "q3\nA. in\nB. out"]
    assert table.lines == [3, 8, 14]


def test_prose_paragraphs_of_varied_lengths_read_by_paragraph():
    sizes = [1, 4, 2, 7, 3, 10, 5, 2, 6, 3]      # sorted: 1 2 2 3 3 | 4 ... : the median is 4
    paragraphs = ["\n".join(f"line {k} of paragraph {p}" for k in range(1, n + 1))
                  for p, n in enumerate(sizes, 1)]
    table = read_table(("\n\n".join(paragraphs) + "\n").encode(), "b.txt")
    assert texts(table) == paragraphs
    assert table.notes == [note(10, "about 4")]
    starts, line = [], 1
    for n in sizes:
        starts.append(line)
        line += n + 1
    assert table.lines == starts


def test_the_note_names_no_command_line_flag_and_follows_the_encoding_note():
    data = "\n\n".join(f"caf\u00e9 {i}\nline two\nline three" for i in range(3)).encode("cp1252")
    table = read_table(data, "a.txt")
    assert table.notes == ["not UTF-8: read as Windows-1252", note(3, "3")]
    assert "--" not in table.notes[1] and "text-rows" not in table.notes[1]


# --- files that stay one row per line ------------------------------------------------------

def test_thai_sentences_one_per_line_without_blank_lines_read_as_lines():
    table = read_table(("\n".join(THAI) + "\n").encode(), "th.txt")
    assert texts(table) == THAI and table.lines == list(range(1, 9))
    assert table.notes == [] and not read_by_blocks(table)


def test_a_double_spaced_file_reads_as_lines():
    data = "\n\n".join(f"item number {i}" for i in range(1, 21)) + "\n"
    table = read_table(data.encode(), "a.txt")
    assert len(table) == 39                              # 20 items and the 19 blank lines
    assert texts(table)[:3] == ["item number 1", "", "item number 2"]
    assert table.lines == list(range(1, 40)) and table.notes == []


@pytest.mark.parametrize("blanks", [(400, 700), (5, 10, 600), (5, 10), (300, 301, 302)])
def test_a_thousand_one_line_items_with_a_few_blank_lines_read_as_lines(blanks):
    lines = [f"sentence number {i}" for i in range(1, 1001)]
    for at in sorted(blanks, reverse=True):
        lines.insert(at, "")
    table = read_table(("\n".join(lines) + "\n").encode(), "a.txt")
    assert len(table) == 1000 + len(blanks) and texts(table) == lines
    assert table.notes == []


@pytest.mark.parametrize("tail", ["\n\n", "\n\n\n", "\n  \n", "\r\n\r\n"])
def test_a_trailing_blank_line_keeps_a_file_of_lines(tail):
    data = ("\n".join(THAI) + tail).encode()
    table = read_table(data, "a.txt")
    assert texts(table)[:8] == THAI and table.notes == []


def test_one_blank_line_in_a_short_list_is_not_two_blocks():
    data = "\n".join(["one", "two", "three", "four", "five", "", "six", "seven", "eight",
                      "nine", "ten"]) + "\n"
    table = read_table(data.encode(), "a.txt")
    assert len(table) == 11 and table.notes == []


def test_explicit_lines_read_a_block_file_one_row_per_line():
    data = logiqa(ENGLISH)
    table = read_table(data, "logiqa_en.txt", text_rows="line")
    assert len(table) == 1 + 6 * 8                       # every line, blank ones too
    assert texts(table)[:3] == ["", "c", ENGLISH[0][1]]
    assert table.lines == list(range(1, 50)) and table.notes == []
    assert not read_by_blocks(table)
    assert len(read_rows(data, "logiqa_en.txt", text_rows="line")) == 49


def test_explicit_paragraphs_read_any_file_by_block_without_a_note():
    data = "\n".join(THAI[:3]) + "\n\n" + THAI[3] + "\n"
    table = read_table(data.encode(), "a.txt", text_rows="paragraph")
    assert texts(table) == ["\n".join(THAI[:3]), THAI[3]] and table.lines == [1, 5]
    assert table.notes == [] and not read_by_blocks(table)


# --- the rule ----------------------------------------------------------------------------

@pytest.mark.parametrize("sizes, typical", [
    ([7] * 651, 7),
    ([2, 2, 2], 2),                          # the smallest file of blocks
    ([40, 40, 40], 40),
    ([41, 41, 41], None),                    # blocks of more than 40 lines: a list
    ([3, 3], None),                          # two blocks: one blank line, not enough
    ([1] * 30, None),                        # double-spaced
    ([1, 1, 1, 1, 4, 4], None),              # 2/3 of the lines in blocks, but the median is 1
    ([1, 1, 2, 2, 2], 2),                    # 6 of 8 lines in blocks; the median is 2
    ([1, 1, 1, 2, 2, 2], 2),                 # the larger of the two middle blocks
    ([1, 1, 1, 1, 3, 3, 3], None),           # 9 of 13 lines in blocks, but the median is 1
    ([5, 5, 990], None),                     # two blocks alike hold 1% of the lines
    ([4, 4, 4, 9, 9, 9], 9),                 # documents of two lengths (#33)
    ([4, 4, 4, 4, 4, 9], 4),                 # 5 of 6 blocks, 20 of 29 lines near the median
    ([4, 4, 4, 4, 9, 9], 4),                 # documents: 4 of 6 blocks near, 16 of 34 lines
    ([2, 30, 4, 12, 3, 25, 8, 1, 40, 5], 8),  # documents of any length, none half the file
    ([3, 2, 4, 200], None),                  # one block holds most of the file: a list
])
def test_made_of_blocks(sizes, typical):
    assert made_of_blocks(sizes) == typical


def test_a_two_megabyte_block_file_reads_quickly_and_in_steps():
    item = "\n".join(["b", "x" * 200, "Which one?", "A. a", "B. b", "C. c", "D. d"]) + "\n\n"
    data = (item * (2_000_000 // len(item))).encode()
    started = time.perf_counter()
    table = read_table(data, "big.txt")
    assert time.perf_counter() - started < 5
    assert len(table) == 2_000_000 // len(item) and table.lines[-1] == 8 * len(table) - 7
    lines = read_table(b"\n\n".join([b"w"] * 200_000), "big.txt")
    assert len(lines) == 399_999 and lines.notes == []
