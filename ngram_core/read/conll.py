"""Stage 1 (plain text): a token-per-line file (CoNLL) -> one row per sentence.

NER, chunking and tagging benchmarks (CoNLL-2003, WNUT, OntoNotes exports)
hold one token per line, the word then its tags in columns separated by
spaces or tabs, with a blank line after each sentence; CoNLL-U (Universal
Dependencies) has ten tab-separated columns after an integer id, and
``# text = ...`` comments. Read one row per line, every row is a word and its
tags, shorter than any window; read one row per block, the tags sit between
the words. Either way nothing can match: a false clean. So such a file is
read one row per sentence, the sentence being its ``# text`` comment when it
has one, else the words of its word column joined with spaces (a contraction
such as ``n't`` or ``'s`` joined to the word before it, as it was written).

:func:`looks_like_conll` tells such a file from prose and from a list of
pairs; :func:`conll_rows` gives each sentence with its first line (1-based)::

    >>> lines = ["-DOCSTART- -X- -X- O", "",
    ...          "EU NNP B-NP O", "does VBZ B-VP O", "n't RB I-VP O", "", "",
    ...          "Peter NNP B-NP O", "Blackburn NNP I-NP O", ""]
    >>> looks_like_conll(lines, min_lines=4)
    True
    >>> conll_rows(lines)
    [Sentence(line=3, text="EU doesn't", sent_id=None), Sentence(line=8, text='Peter Blackburn', sent_id=None)]
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from typing import NamedTuple

from ..steps import Pacer, run_steps

#: Non-blank lines sampled from the top of a file to detect the layout.
SAMPLE_LINES = 2000
#: At least this many token lines in the sample (a file of a few lines is prose).
MIN_TOKEN_LINES = 10
#: Columns of a token line: the word and at least one tag, at most this many in all.
MAX_COLUMNS = 20
#: The share of sampled lines (comments aside) that must have the same columns,
#: and of their word column that must be one word.
SHARE = 0.95
#: The word column has at least this many distinct values per token line (text,
#: about 0.3-0.5 over 2,000 tokens; "line 1 of paragraph 1" lines, one).
WORD_VARIETY = 0.15
#: A tag column has at most this many distinct values (45 Penn Treebank POS tags,
#: 17 UPOS, 9 CoNLL-2003 NER), and at most half as many as token lines.
TAG_VALUES = 64

_ID = re.compile(r"\d+(?:[-.]\d+)?")         # CoNLL-U ids: 7, a word range 3-4, an empty node 8.1
_COMMENT = re.compile(r"#\s*(text|sent_id)\s*=\s?(.*)")
_ATTACHED = frozenset({"n't", "'s", "'re", "'ve", "'ll", "'d", "'m", "'"})
DOCSTART = "-DOCSTART-"


class Layout(NamedTuple):
    """Where a token-per-line file keeps its words: ``column`` (0-based) of
    ``width`` columns a token line."""
    column: int
    width: int


def _columns(line: str, most: int = -1) -> list[str]:
    """A token line's columns: split at tabs when it has one (CoNLL-U, where a
    word may hold a space), else at runs of whitespace (CoNLL-2003); with ``most``,
    at most that many splits (the rest is the last column)."""
    return line.rstrip("\r\n").split("\t", most) if "\t" in line else line.split(None, most)


def conll_layout(lines: list[str], min_lines: int = MIN_TOKEN_LINES) -> Layout | None:
    """The layout of these lines (a file's, in order) when they are a
    token-per-line file, else None: see :func:`looks_like_conll`. The word
    column is the first, unless it holds CoNLL-U's integer ids: then the second::

        >>> conll_layout(["1\\tThe\\t_", "2\\tdog\\t_", "", "1\\tIt\\t_", "2\\truns\\t_"], 4)
        Layout(column=1, width=3)
        >>> conll_layout(["The cat sat on the mat.", "", "It purred.", "Then it slept."], 1) is None
        True
    """
    return _detect(lines, min_lines)


def looks_like_conll(lines: list[str], min_lines: int = MIN_TOKEN_LINES) -> bool:
    """Whether these lines (a file's, in order) are a token-per-line file.

    Over the first :data:`SAMPLE_LINES` non-blank lines, those that are not
    ``#`` comments: at least ``min_lines`` of them; at least :data:`SHARE` with
    the same number of columns, 2 to :data:`MAX_COLUMNS`; the word column one
    word (no space) in at least :data:`SHARE` of them; and sentences, not a
    list: at least two blocks between blank lines, of two token lines or more
    on average; the words varied (distinct in at least :data:`WORD_VARIETY`
    of the lines) and, after them, a tag column of few values (at most
    :data:`TAG_VALUES`, and half the lines). Prose has lines of every length,
    and lines of one shape ("line 1 of paragraph 1") the same first word; a
    list of pairs has no blank lines between its sentences, or one after
    every line.
    """
    return _detect(lines, min_lines) is not None


def _detect(lines: list[str], min_lines: int) -> Layout | None:
    token_lines: list[list[str]] = []
    blocks = 0
    in_block = False
    for line in lines:
        if not line.strip():
            in_block = False
            continue
        if line.startswith("#"):
            continue
        if not in_block:
            blocks += 1
            in_block = True
        # more than MAX_COLUMNS columns is no token line, however many: a 20 MB line of
        # prose is not split into its 3 million words to learn that
        token_lines.append(_columns(line, MAX_COLUMNS))
        if len(token_lines) >= SAMPLE_LINES:
            break
    if len(token_lines) < max(min_lines, 1) or blocks < 2 or len(token_lines) < 2 * blocks:
        return None
    width, count = Counter(map(len, token_lines)).most_common(1)[0]
    if not 2 <= width <= MAX_COLUMNS or count < SHARE * len(token_lines):
        return None
    rows = [cols for cols in token_lines if len(cols) == width]
    column = 1 if sum(bool(_ID.fullmatch(cols[0])) for cols in rows) >= SHARE * len(rows) else 0
    if column >= width:
        return None
    words = [cols[column] for cols in rows]
    one_word = sum(bool(word) and not any(c.isspace() for c in word) for word in words)
    if one_word < SHARE * len(rows) or len(set(words)) < WORD_VARIETY * len(rows):
        return None
    tag_values = min(TAG_VALUES, len(rows) // 2)
    tagged = any(len({cols[k] for cols in rows}) <= tag_values
                 for k in range(column + 1, width))
    return Layout(column, width) if tagged else None


class Sentence(NamedTuple):
    """One sentence of a token-per-line file: its first line (1-based), its text,
    and its ``# sent_id`` (CoNLL-U) or None."""
    line: int
    text: str
    sent_id: str | None = None


def conll_rows(lines: list[str], layout: Layout | None = None) -> list[Sentence]:
    """Each sentence of a token-per-line file, as a :class:`Sentence` (see
    :func:`conll_rows_steps`)::

        >>> ud = Layout(column=1, width=3)
        >>> conll_rows(["# sent_id = s1", "# text = Du vin.", "1-2\\tDu\\t_", "1\\tde\\tde",
        ...             "2\\tle\\tle", "3\\tvin\\tvin", "4\\t.\\t."], ud)
        [Sentence(line=1, text='Du vin.', sent_id='s1')]
        >>> conll_rows(["1-2\\tDu\\t_", "1\\tde\\tde", "2\\tle\\tle", "3\\tvin\\tvin"], ud)[0].text
        'Du vin'
    """
    return run_steps(conll_rows_steps(lines, layout))


def conll_rows_steps(lines: list[str], layout: Layout | None = None):
    """Step generator: yields sentences done now and then, returns the list of
    :class:`Sentence`.

    ``layout``: where the words are (None: detected, else the first column). A
    sentence is a block of lines between blank lines. Its text is its ``# text
    =`` comment (CoNLL-U) when it has one, else its words in order: a CoNLL-U
    word range (``3-4 du``) read in place of the lines it covers, empty nodes
    (``8.1``) and ``-DOCSTART-`` lines left out. Its id is its ``# sent_id =``
    comment. ``#`` lines of another width than a token line's are comments; a
    block of nothing else is no sentence.
    """
    layout = layout or _detect(lines, 1) or Layout(0, 2)
    column = layout.column
    out: list[Sentence] = []
    start, comments, words = 0, dict[str, str](), list[str]()
    skip_to = 0                                  # last id covered by a word range
    pacer = Pacer()
    for number, line in enumerate(itertools.chain(lines, [""]), 1):
        if not line.strip():
            if "text" in comments or words:
                out.append(Sentence(start, comments.get("text", _join(words)),
                                    comments.get("sent_id")))
                if pacer.due():
                    yield len(out)
            start, comments, words, skip_to = 0, {}, [], 0
            continue
        start = start or number
        cols = _columns(line)
        if line.startswith("#") and len(cols) != layout.width:
            found = _COMMENT.fullmatch(line.rstrip("\r\n"))
            if found:
                comments[found.group(1)] = found.group(2).strip()
            continue
        if column >= len(cols) or cols[0] == DOCSTART:
            continue
        if column == 1:
            first = cols[0]
            if "." in first:
                continue                         # an empty node
            if "-" in first:
                high = first.partition("-")[2]
                skip_to = int(high) if high.isdigit() else 0
            elif first.isdigit() and int(first) <= skip_to:
                continue                         # inside the word range just read
        words.append(cols[column])
    return out


def _join(words: list[str]) -> str:
    """Words as written: spaces between, a contraction joined to the word before."""
    out: list[str] = []
    for word in words:
        if out and word.lower() in _ATTACHED:
            out[-1] += word
        else:
            out.append(word)
    return " ".join(out)
