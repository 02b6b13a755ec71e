r"""Stage 1b: a :class:`~ngram_core.read.readers.Table`'s fields -> the text and id fields -> Rows.

**The text of a row is every text field it has**, joined with a newline in
reading order (:func:`reading_order`: fields from an object enclosing the
rows, such as SQuAD's passage, first; fields made from lists, options and
answers, last). What a field holds is
judged by content over the first :data:`SAMPLE_ROWS` records (tokens counted
with the loose tokenizer the check uses), never by name alone: ids, URLs,
numbers and categories (a short value repeated over rows, such as a label or a
subject) are left out, and so is a *fixed* field, the same text in nearly
every row (an instruction or a system prompt says nothing about the item and
would match any training file holding it), and a *copy*, a field holding the
words of an earlier one again (XNLI's ``sentence1_tokenized``: read, it would
count every token twice). A long text repeated over a few
rows (a passage shared by its questions) is text. A file where no field holds
text falls back to its best category, else is refused with its fields named,
rather than checked on the wrong column. Windows may cross the joins, so a
training document holding a question followed by its answer matches across
them; each row's ``parts`` say which field each character came from.

:func:`field_stats` gives the page and the command what each field holds;
:func:`choose_fields` decides a file's text and id fields (the same text
fields as the other file when it has them all); :func:`count_files_steps` and
:func:`short_rows_warning` say when the text is too short to ever match::

    >>> from ngram_core.read.readers import read_table
    >>> t = read_table(b'url,title,contents\n'
    ...                b'https://a.org/1,Moon landing,"The Apollo 11 crew landed on the Moon."\n'
    ...                b'https://a.org/2,The Sun,"The Sun is a star at the centre of our system."\n',
    ...                "pages.csv")
    >>> detect_text_fields(t), detect_id_field(t)
    (['title', 'contents'], None)
    >>> [(s.name, s.kind, s.tokens) for s in field_stats(t)]
    [('url', 'url', 4.0), ('title', 'text', 2.0), ('contents', 'text', 9.5)]
    >>> row = select_rows(t)[0]
    >>> row.text
    'Moon landing\nThe Apollo 11 crew landed on the Moon.'
    >>> row.parts
    (('title', 0, 12), ('contents', 13, 51))
"""

from __future__ import annotations

import heapq
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import NamedTuple

from ..errors import InputError
from .readers import read_table_steps
from ..table import (ID_FIELD_NAMES, LM_EVAL_ITEM, PLAIN_NUMBER, TEXT_FIELD_NAMES, Reading,
                    Row, Table, fields_label, lm_eval_samples, named_like_id, value_text)
from ..steps import Pacer, run_steps
from ..method.tokenize import PIECE_CHARS, Tokenizer

#: Records sampled to describe a field (the first ones of the file).
SAMPLE_ROWS = 200
#: Two fields whose tokens per row are within this factor are a near tie,
#: settled by characters per row: a tokenizer that makes one token of a run
#: of Han characters and one that makes a token of each agree on the winner.
NEAR_TIE = 1.25
#: Kinds of field that can be the text field, best first.
TEXT_KINDS = ("text", "category")
#: A text field of fewer tokens per row than this holds single words (a keyword, a
#: title): it is not read by default beside a longer text field.
WORD_TOKENS = 1.5
#: A category's values are short: their mean length (distinct values) is at most this.
CATEGORY_CHARS = 40
#: A field is *fixed* when one text fills at least this share of its sampled values
#: (over at least :data:`FIXED_MIN_ROWS` of them).
FIXED_SHARE = 0.9
FIXED_MIN_ROWS = 10
#: A chat's system messages are fixed over fewer rows, at least this many, when every
#: one of them is the same text: a message whose role says it instructs, the same
#: for rows that each hold their own item, is no item (a test set of five chats
#: sharing the training data's system prompt would otherwise match it in every row).
SYSTEM_FIXED_MIN_ROWS = 2

#: A parse tree has at least one "(" for this many of its words (labels included).
TREE_WORDS_PER_BRACKET = 3
#: A text field is a *copy* of an earlier one when their words are the same in at
#: least this share of the sampled rows where both hold text (in all of them when
#: fewer than :data:`FIXED_MIN_ROWS`, and at least two).
COPY_SHARE = 0.9
#: A text field may also be two earlier ones joined (HellaSwag's ``ctx`` is ``ctx_a``
#: and ``ctx_b``): looked for among this many earlier text fields (a wide sheet's pairs
#: are too many).
JOINED_FIELDS = 16

_URL = re.compile(r"\s*(?:[A-Za-z][A-Za-z0-9+.-]*://|www\.)\S+\s*")
_CODE = re.compile(r"\s*[!-~]*[0-9_#~/][!-~]*\s*")       # one ASCII "word" with a digit or _#~/


class FieldStats(NamedTuple):
    """What one field holds, over the sampled records.

    ``tokens`` and ``chars`` are means per sampled record (a record without
    the field counts 0); ``sample`` is the first non-blank value, shortened;
    ``listed``: made from a list (values joined with newlines); ``outer``:
    from an object enclosing the rows (a JSON records path). ``kind`` is
    ``text``, ``category`` (a short value repeated), ``fixed`` (the same text
    in nearly every row), ``copy`` (the words of an earlier text field, row
    by row: XNLI's ``sentence1_tokenized``, see :func:`_copies`), ``role``
    (one role's turns of a chat, whose conversation field holds every turn
    in order: :attr:`~ngram_core.table.Table.role_fields`), ``id``,
    ``url``, ``number``, ``other`` or ``empty`` (see :func:`_kind`); only
    ``text`` fields are read by default. A field no sampled record holds is
    judged on the first :data:`SAMPLE_ROWS` records of the file that hold it
    (its ``tokens`` still counted over the sample: 0 in most).
    """
    name: str
    tokens: float
    chars: float
    sample: str
    listed: bool
    outer: bool
    kind: str
    #: tokens per sampled record that holds the field (blank values aside): a field
    #: in a few rows, such as one chat's own system message, holds text all the same
    words: float = 0.0


# --- what each field holds ------------------------------------------------------

def field_stats(table: Table, sample: int = SAMPLE_ROWS) -> list[FieldStats]:
    """:func:`field_stats_steps` run to the end."""
    return run_steps(field_stats_steps(table, sample))


def field_stats_steps(table: Table, sample: int = SAMPLE_ROWS):
    """Every field of a Table with its kind, tokens and characters per row, in field order.

    A generator (a file may have 10,000 columns): yields fields done, returns
    the list of :class:`FieldStats`.
    """
    records = table.records[:sample]
    id_field = id_like_field(table)
    listed, outer = set(table.list_fields), set(table.outer_fields)
    roles, system = set(table.role_fields), system_fields(table)
    tokenizer = Tokenizer()
    out, pacer = [], Pacer()
    counted: dict[str, int] = {}      # tokens per distinct text (a wide sheet repeats its cells)
    earlier = _EarlierWords(tokenizer)
    later = _later_values(table, records, sample)
    for i, name in enumerate(table.fields):
        values = later.get(name) or [r.get(name) for r in records]
        tokens = chars = 0
        counts = []                   # tokens of each value (0: none)
        for value in values:
            if value is None:
                counts.append(0)
                continue
            text = value_text(value)
            known = counted.get(text)
            if known is None:
                known = yield from _count_tokens_steps(tokenizer, text, pacer)
                if len(text) <= PIECE_CHARS:
                    counted[text] = known
            tokens += known
            chars += len(text)
            counts.append(known)
        kind = "id" if name == id_field else _kind(values, name in listed)
        if name in roles and kind not in ("empty", "id"):
            kind = "role"                # one role's turns: the conversation field holds them
        if kind == "text" and name not in outer and _fixed(values, name in system):
            kind = "fixed"
        if kind == "text" and earlier.copied(values, counts):
            kind = "copy"
        n = max(len(records), 1)
        held = sum(1 for c in counts if c)
        out.append(FieldStats(name, tokens / n, chars / n, _sample(values), name in listed,
                              name in outer, kind, tokens / held if held else 0.0))
        if pacer.due():
            yield i
    return out


def _later_values(table: Table, records: list[dict], sample: int) -> dict[str, list]:
    """For each field no record of the sample holds (null, missing or an empty
    string in every one), its values in the first ``sample`` records after it that
    do (one pass over the file's other records)::

        >>> t = Table("t.jsonl", "jsonl", ["q", "note"], [{"q": "a", "note": ""}] * 3 +
        ...           [{"q": "b", "note": "n"}])
        >>> _later_values(t, t.records[:2], 2)
        {'note': ['n']}
    """
    missing = set(table.fields)
    for record in records:
        missing.difference_update(k for k, v in record.items() if _holds(v))
    found: dict[str, list] = {}
    if not missing:
        return found
    for record in table.records[len(records):]:
        for key in missing.intersection(record):
            value = record[key]
            if _holds(value):
                values = found.setdefault(key, [])
                values.append(value)
                if len(values) >= sample:
                    missing.discard(key)
        if not missing:
            break
    return found


def _holds(value) -> bool:
    """Whether a field's value holds anything: not null, not an empty string."""
    return value is not None and value != ""


class _EarlierWords:
    """The text fields seen so far, to find a copy among them (:func:`_copies`)
    without tokenizing every field again nor comparing every pair: only a field
    with as many tokens as the new one in most rows is compared word by word (a
    sheet of 10,000 text columns stays linear)."""

    def __init__(self, tokenizer: Tokenizer):
        self.tokenizer = tokenizer
        self.fields: list[tuple[list, list]] = []    # each field's values and token counts
        self.holding: dict[tuple, list[int]] = {}    # (row, count) -> fields with it there
        self.cache: dict[str, tuple] = {}            # words per distinct text

    def words(self, value) -> tuple | None:
        """A value's token ids (None: blank, or too long to compare)."""
        if value is None:
            return None
        text = value_text(value)
        if not text.strip() or len(text) > PIECE_CHARS:
            return None
        found = self.cache.get(text)
        if found is None:
            found = self.cache[text] = tuple(self.tokenizer.ids(text))
        return found

    def copied(self, values: list, counts: list) -> bool:
        """Whether these values (a text field's, row by row, with their token
        ``counts``) copy an earlier field's words; if not, they are kept as an
        earlier field for the next ones."""
        shared = Counter(f for row, count in enumerate(counts) if count
                         for f in self.holding.get((row, count), ()))
        for f, _ in shared.most_common(3):
            earlier, earlier_counts = self.fields[f]
            if _copies(counts, earlier_counts) and _copies(
                    [self.words(v) for v in values], [self.words(v) for v in earlier]):
                return True
        if 2 <= len(self.fields) <= JOINED_FIELDS and self._joined(values, counts):
            return True
        index = len(self.fields)
        self.fields.append((values, counts))
        for row, count in enumerate(counts):
            if count:
                there = self.holding.setdefault((row, count), [])
                if len(there) < 8:                   # enough to find a copy
                    there.append(index)
        return False

    def _joined(self, values: list, counts: list) -> bool:
        """Whether these values are two earlier fields' joined, in field order, row
        by row (their words one after the other; compared only where the token
        counts add up)::

            >>> seen = _EarlierWords(Tokenizer())
            >>> a = ["A man is on a roof", "A dog runs", "She paints"]
            >>> b = ["then he", "and jumps", "a wall"]
            >>> for values in (a, b):
            ...     _ = seen.copied(values, [seen.tokenizer.count(v) for v in values])
            >>> both = [x + " " + y for x, y in zip(a, b)]
            >>> seen._joined(both, [seen.tokenizer.count(v) for v in both])
            True
        """
        for second in range(1, len(self.fields)):
            later, later_counts = self.fields[second]
            for first in range(second):
                earlier, earlier_counts = self.fields[first]
                summed = [x + y if x and y else 0 for x, y in zip(earlier_counts, later_counts)]
                if not _copies(counts, summed):
                    continue
                joined = []
                for x, y in zip(earlier, later):
                    head, tail = self.words(x), self.words(y)
                    joined.append(head + tail if head and tail else None)
                if _copies([self.words(v) for v in values], joined):
                    return True
        return False


def _copies(own: list, earlier: list) -> bool:
    """Whether a field's words (``own``, row by row) are those of
    an ``earlier`` field: the same in at least :data:`COPY_SHARE` of the rows where
    both hold text, in all of them when fewer than :data:`FIXED_MIN_ROWS`, in two
    rows at least. XNLI ships each sentence again split into words: the tokens
    are the same, the characters are not::

        >>> words = _EarlierWords(Tokenizer()).words
        >>> rows = ["And he said, Mama, I'm home.", "แม่ฉันกลับบ้านแล้ว"]
        >>> split = ["And he said , Mama , I 'm home .", "แม่ ฉัน กลับ บ้าน แล้ว"]
        >>> _copies([words(v) for v in split], [words(v) for v in rows])
        True
    """
    both = [(a, b) for a, b in zip(own, earlier) if a and b]
    same = sum(a == b for a, b in both)
    if len(both) < 2:
        return False
    return same == len(both) if len(both) < FIXED_MIN_ROWS else same >= COPY_SHARE * len(both)


def _count_tokens_steps(tokenizer: Tokenizer, text: str, pacer: Pacer):
    """Tokens in one text, as the check counts them; a long text in paced pieces."""
    if len(text) <= PIECE_CHARS:
        return tokenizer.count(text)
    count = yield from tokenizer.count_steps(text)
    if pacer.due():
        yield 0
    return count


def _is_number(value) -> bool:
    """A number, a boolean, or a string of numbers one per line (``"177\\n180"``),
    JSON's ``true``, ``false`` and ``null`` among them (a list such as
    lm-evaluation-harness's ``resps``, ``[["-2.47", false], ...]``, made into
    ``"-2.47\\nfalse\\n..."``; a lone ``"null"`` is no number)."""
    if isinstance(value, (bool, int, float)):
        return True
    return isinstance(value, str) and _is_number_text(value)


_JSON_LITERALS = frozenset(("true", "false", "null"))


@lru_cache(maxsize=1 << 14)
def _is_number_text(value: str) -> bool:
    parts = [part.strip() for part in value.split("\n")]
    numbers = [bool(PLAIN_NUMBER.fullmatch(part)) for part in parts]
    return all(n or part in _JSON_LITERALS for n, part in zip(numbers, parts)) and any(numbers)


def _kind(values: list, listed: bool = False) -> str:
    """The kind of field these sampled values make (``listed``: each value is a
    list's items joined with newlines, and the items are judged).

    No non-blank value: ``empty``; at most half of them strings that are not
    numbers: ``number`` (``other`` when most are not numbers either, e.g.
    objects); every line of every string a URL: ``url``; every line an ASCII
    word holding a digit, ``_``, ``#``, ``~`` or ``/`` (``q1``,
    ``Mercury_7175875``): ``id``; every line at most two ASCII characters
    (``A``/``B``/``C``/``D``), or short values (at most :data:`CATEGORY_CHARS`
    characters on average) repeated (10 or more strings with at most a fifth
    of them distinct; in a smaller sample, at most half distinct; in a field
    made from lists, the items: SNLI's five ``annotator_labels``):
    ``category``; every one a bracketed parse tree (:func:`_is_tree`):
    ``parse``; else ``text``. A passage repeated over its questions is long,
    so it is text::

        >>> _kind(["q1", "q2", None]), _kind(["https://a.org/x"]), _kind(["Who am I?"])
        ('id', 'url', 'text')
        >>> passage = "The Normans were the people who gave their name to Normandy."
        >>> _kind(["neutral", "entailment"] * 5), _kind(["A", "C"]), _kind([passage] * 3)
        ('category', 'category', 'text')
        >>> _kind(["neutral\\nneutral\\ncontradiction", "entailment\\nneutral\\nneutral"], listed=True)
        'category'
        >>> _kind(["-2.47\\nfalse\\n-1.09\\ntrue", "-0.4\\nfalse\\n-3.2\\nfalse"], listed=True)
        'number'
    """
    present = [v for v in values if v is not None and not (isinstance(v, str) and not v.strip())]
    if not present:
        return "empty"
    strings = [v for v in present if isinstance(v, str) and not _is_number(v)]
    if len(strings) * 2 <= len(present):
        return "number" if sum(map(_is_number, present)) * 2 > len(present) else "other"
    lines = [line for v in strings for line in v.split("\n") if line.strip()]
    if all(_URL.fullmatch(line) for line in lines):
        return "url"
    if all(_CODE.fullmatch(line) for line in lines):
        return "id"
    if all(len(line) <= 2 and line.isascii() for line in lines):
        return "category"                        # A, B, C, D; yes/no codes; "A\nB\nC\nD"
    units = lines if listed else strings
    distinct = set(units)
    repeated = (len(distinct) * 5 <= len(units) if len(units) >= 10 else
                len(distinct) * 2 <= len(units))
    if repeated and sum(map(len, distinct)) <= CATEGORY_CHARS * len(distinct):
        return "category"
    if all(map(_is_tree, strings)):
        return "parse"
    return "text"


def _is_tree(value: str) -> bool:
    """A bracketed parse tree, as SNLI and MultiNLI ship beside each sentence
    (``sentence1_parse``, ``sentence1_binary_parse``): in brackets from end to end,
    balanced, at least two pairs, a "(" for every :data:`TREE_WORDS_PER_BRACKET`
    words. Read beside its sentence, it would cut every window running from one
    sentence into the next::

        >>> _is_tree("(ROOT (S (NP (DT A) (NN man)) (VP (VBZ sleeps))))")
        True
        >>> _is_tree("( ( A man ) ( is sleeping ) )"), _is_tree("(a) a cat sat (b) a dog sat")
        (True, False)
    """
    text = value.strip()
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = opened = 0
    for char in text:
        if char == "(":
            depth += 1
            opened += 1
        elif char == ")":
            depth -= 1
            if depth < 0:
                return False
    words = len(text.replace("(", " ").replace(")", " ").split())
    return depth == 0 and opened >= 2 and opened * TREE_WORDS_PER_BRACKET >= words


def _fixed(values: list, system: bool = False) -> bool:
    """One text in at least :data:`FIXED_SHARE` of the present values, over at least
    :data:`FIXED_MIN_ROWS` of them: an instruction or a system prompt, the same in
    every row. A chat's ``system`` messages: also one text in all of them, over at
    least :data:`SYSTEM_FIXED_MIN_ROWS`::

        >>> _fixed(["Answer the question below, step by step."] * 10 + ["Other."])
        True
        >>> _fixed(["A passage."] * 9)      # too few rows to say
        False
        >>> _fixed(["Be brief."] * 3, system=True), _fixed(["Be brief.", "Be kind."], system=True)
        (True, False)
    """
    present = [v for v in values if isinstance(v, str) and v.strip()]
    if len(present) < (SYSTEM_FIXED_MIN_ROWS if system else FIXED_MIN_ROWS):
        return False
    top = Counter(present).most_common(1)[0][1]
    if len(present) < FIXED_MIN_ROWS:
        return top == len(present)
    return top >= FIXED_SHARE * len(present)


def _sample(values: list, width: int = 60) -> str:
    """The first value with text, its white space runs made one space, cut at
    ``width`` characters; only its first words are looked at (a value may be a
    20 MB line)::

        >>> _sample([None, "  two\\n words "]), _sample(["word " * 30], 12)[:-1]
        ('two words', 'word word w')
    """
    for value in values:
        words = []
        size = -1
        for word in _WORD.finditer(value_text(value)):
            words.append(word.group())
            size += len(words[-1]) + 1
            if size > width:
                break
        text = " ".join(words)
        if text:
            return text if len(text) <= width else text[:width - 1] + "\u2026"
    return ""


_WORD = re.compile(r"\S+")           # what str.split() splits at is what \s matches


# --- the id field and the text field --------------------------------------------

def _id_candidates(table: Table) -> list[str]:
    """Fields named like ids: the usual names in ID_FIELD_NAMES' order, then
    ``*_id``, ``* id``, ``*.id``, ``*-id`` and camelCase ``*Id`` or ``*ID``
    (SNLI's ``pairID``), in field order; never a field made from a list::

        >>> _id_candidates(Table("s.jsonl", "jsonl", ["captionID", "pairID", "sentence1"], []))
        ['captionID', 'pairID']
    """
    listed = set(table.list_fields)
    by_lower: dict[str, str] = {}
    for f in table.fields:
        if f not in listed:
            by_lower.setdefault(f.lower(), f)
    named = [by_lower[n] for n in ID_FIELD_NAMES if n in by_lower]
    suffixed = [f for f in table.fields if f not in listed and f not in named and
                named_like_id(f)]
    return [f for f in named + suffixed if not _holds_sentences(table, f)]


def _holds_sentences(table: Table, name: str) -> bool:
    """Whether most sampled values of a field are sentences (:func:`is_sentence`): a
    prompt cache's ``key`` is its text, never its id::

        >>> t = Table("c.jsonl", "jsonl", ["key", "value"],
        ...           [{"key": "What is the capital city of France today?", "value": "Paris"}])
        >>> _holds_sentences(t, "key"), _id_candidates(t)
        (True, [])
    """
    values = [v for v in (r.get(name) for r in table.records[:SAMPLE_ROWS]) if v is not None]
    return sum(isinstance(v, str) and is_sentence(v) for v in values) * 2 > len(values)


def _unique(table: Table, name: str, records: list | None = None) -> bool:
    values = [r.get(name) for r in (table.records[:SAMPLE_ROWS] if records is None else records)]
    if any(v is None for v in values):
        return False
    texts = [value_text(v) for v in values]
    return len(set(texts)) == len(texts)


def id_like_field(table: Table) -> str | None:
    """The field that looks like the id over the sampled records (the first of
    :func:`_id_candidates` unique there, else the first): its kind is ``id``, and
    it is the key a results file joins on (``doc_id`` repeats over tasks)."""
    candidates = _id_candidates(table)
    for name in candidates:
        if _unique(table, name):
            return name
    return candidates[0] if candidates else None


class IdChoice(NamedTuple):
    """The id field detected (None: rows are numbered) and, when a field named
    like an id was passed over because its values repeat, the sentence saying so."""
    field: str | None
    note: str | None = None


def id_field_choice(table: Table) -> IdChoice:
    """The id field: of the fields named like ids (:func:`_id_candidates`), the
    first whose values are present and different in each of the file's first
    :data:`SAMPLE_ROWS` rows, the rows every reading of the file sees first
    (whole on the page, streamed in pieces by the command or on Dask), so the
    choice never depends on how the file is read. A row past them without a
    value gets its row number in the file as its id (a repeated value stays the
    row's id). When no field is chosen, rows are numbered and the note names the
    field passed over::

        >>> t = Table("t.tsv", "tsv", ["id", "s"], [{"id": "1", "s": "x"}, {"id": "1", "s": "y"}])
        >>> id_field_choice(t)
        IdChoice(field=None, note="the id field 'id' repeats (1 distinct value in 2 rows): rows are numbered instead")
        >>> id_field_choice(Table("t.jsonl", "jsonl", ["id", "s"], [{"id": "a", "s": "x"}, {"s": "y"}])).note
        "the id field 'id' has no value in 1 of 2 rows: rows are numbered instead"
    """
    candidates = _id_candidates(table)
    for name in candidates:
        if _unique(table, name):
            return IdChoice(name)
    if not candidates:
        return IdChoice(None)
    first = candidates[0]
    judged = table.records[:SAMPLE_ROWS]     # what every reading sees: the same note
    values = [value_text(r[first]) for r in judged if r.get(first) is not None
              and value_text(r[first]).strip()]
    distinct, missing = len(set(values)), len(judged) - len(values)
    rows = f"its first {SAMPLE_ROWS} rows" if len(table) > SAMPLE_ROWS else f"{len(table):,} rows"
    why = []
    if distinct < len(values):
        why.append(f"repeats ({distinct:,} distinct value{'' if distinct == 1 else 's'} in "
                   f"{rows})")
    if missing:
        why.append(f"has no value in {missing:,} of {rows}")
    if not why:                           # values that differ only as written (1 and "1")
        why.append(f"does not tell {rows} apart")
    return IdChoice(None, f"the id field {value_text(first)!r} {' and '.join(why)}: "
                          f"rows are numbered instead")


def detect_id_field(table: Table) -> str | None:
    """The id field (see :func:`id_field_choice`), or None: rows are numbered.

    ``{"source_id": "v1", "ind": 7, ...}`` with ``source_id`` repeating ->
    ``"ind"``; no field named like an id, or every one repeating -> None.
    """
    return id_field_choice(table).field


def _name_rank(name: str) -> int:
    lower = name.rsplit(".", 1)[-1].lower()
    return TEXT_FIELD_NAMES.index(lower) if lower in TEXT_FIELD_NAMES else len(TEXT_FIELD_NAMES)


def rank_text_fields(stats: list[FieldStats]) -> list[FieldStats]:
    """The fields that could be the text, best first (the fallback when no field is
    ``text``, and the order of the notices about fields left out).

    Tiers, in order: scalar ``text`` fields, list-made ``text`` fields, scalar
    ``category`` fields, list-made ``category`` fields (ids, URLs, numbers and
    empty fields never). Within a tier, most tokens per row; fields within
    :data:`NEAR_TIE` of the best count as tied and the one with more
    characters per row goes first; then a name in TEXT_FIELD_NAMES; then
    field order.
    """
    eligible = [s for s in stats if s.kind in TEXT_KINDS]
    ranked: list[FieldStats] = []
    for tier in sorted({_tier(s) for s in eligible}):
        ranked.extend(_order_tier([s for s in eligible if _tier(s) == tier]))
    return ranked


def _tier(s: FieldStats) -> tuple[int, bool]:
    return TEXT_KINDS.index(s.kind), s.listed


def _order_tier(group: list[FieldStats]) -> list[FieldStats]:
    """One tier ordered: repeatedly take the best of the near-tied leaders.

    Fields are taken most tokens first; the leaders near-tied with the best
    left (within :data:`NEAR_TIE`) wait in a heap by characters, name and
    field order, so the whole is O(k log k) in the tier's k fields."""
    by_tokens = sorted(range(len(group)), key=lambda i: -group[i].tokens)
    waiting: list[tuple] = []         # (-chars, name rank, index): the near-tied leaders
    pushed = done = 0                 # by_tokens[:pushed] waited; ordered: a set of indexes
    ordered: list[FieldStats] = []
    out: set[int] = set()
    while len(ordered) < len(group):
        while by_tokens[done] in out:
            done += 1
        top = group[by_tokens[done]].tokens        # the most tokens among those left
        while pushed < len(by_tokens) and group[by_tokens[pushed]].tokens * NEAR_TIE >= top:
            i = by_tokens[pushed]
            heapq.heappush(waiting, (-group[i].chars, _name_rank(group[i].name), i))
            pushed += 1
        i = heapq.heappop(waiting)[2]
        out.add(i)
        ordered.append(group[i])
    return ordered


def detect_text_fields(table: Table) -> list[str]:
    """The text fields chosen by content, in reading order (see the module's rule).

    ``{"id": "x1", "label": 3, "question": "Who?"}`` -> ``["question"]``.
    """
    return run_steps(detect_text_fields_steps(table))


def reading_order(table: Table, names) -> list[str]:
    """Fields in the order a row reads: those from enclosing objects (a passage)
    first, then the row's own scalar fields (a question), then its fields made from
    lists (its options, its answers), each in the table's field order. SQuAD's
    ``answers`` come before ``question`` in the file; read between the passage and
    the question they would break every window running from one into the other::

        >>> t = Table("s.json", "json", ["answers.text", "question", "context"], [],
        ...           list_fields=["answers.text"], outer_fields=["context"])
        >>> reading_order(t, ["answers.text", "question", "context"])
        ['context', 'question', 'answers.text']
    """
    wanted, outer, listed = set(names), set(table.outer_fields), set(table.list_fields)
    return ([f for f in table.fields if f in wanted and f in outer] +
            [f for f in table.fields if f in wanted and f not in outer and f not in listed] +
            [f for f in table.fields if f in wanted and f not in outer and f in listed])


#: The parts of a test item, in the order a person reads them, by the words a field's
#: name is made of (any dotted part, digits dropped: ``ending0``, ``sol1``, ``ctx_a``).
ITEM_ROLES = (
    ("context", frozenset({"context", "ctx", "passage", "body", "article", "story", "document",
                           "paragraph", "support", "background", "premise", "title",
                           "evidence", "knowledge", "system"})),
    ("question", frozenset({"question", "questions", "query", "goal", "prompt", "problem",
                            "instruction", "input", "sentence", "stem", "claim", "statement",
                            "hypothesis", "user", "human"})),
    ("options", frozenset({"options", "option", "choices", "choice", "endings", "ending",
                           "candidates", "distractor", "sol", "alternatives"})),
    ("answer", frozenset({"answer", "answers", "solution", "target", "targets", "output",
                          "response", "completion", "rationale", "explanation", "gold",
                          "assistant", "gpt"})),
)
_NAME_WORDS = re.compile(r"[^\W\d_]+")
#: A formula: digits and operators, no letter (``( 14.0 - 5.0 )``); a bare number is none.
_FORMULA = re.compile(r"[\d\s.,()\[\]+\-*/^=%<>]*\d[\d\s.,()\[\]+\-*/^=%<>]*")
_OPERATOR = re.compile(r"\d\s*[-+*/^=%<>]\s*[\d(]|[()\[\]]")


def item_role(name: str, listed: bool = False) -> int | None:
    """A field's place in a test item: 0 context, 1 question, 2 options, 3 answer,
    by the words of its name, the last dotted part first; a single capital letter
    (MMLU's and CMMLU's ``A`` to ``D``) is an option; a name of none of these words
    is 2 when made from a list (a list of options), else None (unknown)::

        >>> [item_role(f) for f in ("Body", "Question", "ending0", "choices.text", "A",
        ...                         "answers.text", "sentence1", "ctx_a", "label_text")]
        [0, 1, 2, 2, 2, 3, 1, 0, None]
    """
    for part in reversed(name.split(".")):
        if len(part) == 1 and part.isupper():
            return 2
        words = _NAME_WORDS.findall(part.lower())
        for word in (*words[-1:], *words[:1]):
            for rank, (_, names) in enumerate(ITEM_ROLES):
                if word in names:
                    return rank
    return 2 if listed else None


def is_formula(stats_sample: list) -> bool:
    """Whether sampled values are formulas, not words (SVAMP's ``Equation``): every
    non-blank string made of digits and operators, no letter, and most of them with
    an operator between numbers or a bracket (a column of bare numbers or ids is no
    formula)::

        >>> is_formula(["( 14.0 - 5.0 )", "8.0 * 12.0"]), is_formula(["x = 3", "4"])
        (True, False)
        >>> is_formula(["1", "2", "3"]), is_formula(["-5", "12.5"])
        (False, False)
    """
    strings = [v.strip() for v in stats_sample if isinstance(v, str) and v.strip()]
    return (bool(strings) and all(_FORMULA.fullmatch(v) for v in strings)
            and sum(1 for v in strings if _OPERATOR.search(v)) * 2 > len(strings))


def item_order(table: Table, names) -> list[str]:
    """Fields in the order of a test item: context, passage, body or article first;
    then the question, query, goal or prompt; then the options, choices or endings;
    then the answer, solution or target (:func:`item_role`); a field of formulas or
    numbers (:func:`is_formula`) last, never between two text fields. A field whose
    name says none of these goes with the field read before it (the first: with the
    one after it), so HellaSwag's ``activity_label`` stays before its ``ctx``; fields
    of one role keep :func:`reading_order`. SVAMP's file order is ``Answer,
    Question, Equation, Body``; a person reads the body, then the question::

        >>> t = Table("svamp.json", "json", ["Answer", "Question", "Equation", "Body"],
        ...           [{"Answer": 9.0, "Question": "How many are left?",
        ...             "Equation": "( 14.0 - 5.0 )", "Body": "Maya has 14 stickers."}])
        >>> item_order(t, ["Question", "Equation", "Body"])
        ['Body', 'Question', 'Equation']
    """
    ordered = reading_order(table, names)
    listed = set(table.list_fields)
    records = table.records[:SAMPLE_ROWS]

    formulas = {name for name in ordered if is_formula([r.get(name) for r in records])}
    words = [name for name in ordered if name not in formulas]
    found = [item_role(name, name in listed) for name in words]
    known = [role for role in found if role is not None]
    last = known[0] if known else 1
    roles: list[int] = []
    for role in found:                       # an unknown name goes with the one before it
        last = last if role is None else role
        roles.append(last)
    # stable: one role keeps the reading order
    ranked = [name for _, name in sorted(zip(roles, words), key=lambda pair: pair[0])]
    return ranked + [name for name in ordered if name in formulas]


def detect_text_fields_steps(table: Table, stats: list[FieldStats] | None = None):
    """:func:`detect_text_fields` as steps; pass ``stats`` when already computed.

    In an lm-evaluation-harness samples file (:func:`~ngram_core.table.lm_eval_samples`)
    only the test item's fields (``doc.*``) are considered: its ``arguments``
    are the item formatted after few-shot examples of another split, which
    would make every row match a training file holding those examples, and
    ``resps`` the model's answers. Of the fields considered: every ``text``
    field (none: every ``fixed`` one, the file's only text;
    none either: every ``parse`` one), in
    :func:`reading_order`, but those of single words
    (fewer than :data:`WORD_TOKENS` tokens per row that holds them: a keyword,
    a title, a one-word answer) while a longer one exists: set between a question and
    its options, a keyword would break every window running from one into
    the other. With no ``text`` field, the best
    category (:func:`rank_text_fields`); a table of one field (plain text, an
    array of strings) uses it whatever it holds unless it holds no strings or
    is the id. Nothing: InputError naming the fields and what they hold.
    """
    if stats is None:
        stats = yield from field_stats_steps(table)
    stats = _test_item(table, stats) or stats    # not the prompts or the model's answers
    text = ([s for s in stats if s.kind == "text"] or [s for s in stats if s.kind == "fixed"] or
            [s for s in stats if s.kind == "parse"])
    if any(s.words >= WORD_TOKENS for s in text):
        text = [s for s in text if s.words >= WORD_TOKENS]      # single words left out
    if text:
        return item_order(table, [s.name for s in text])
    ranked = rank_text_fields(stats)
    if ranked:
        return [ranked[0].name]
    only = stats[0] if len(stats) == 1 else None
    if only and only.kind not in ("number", "other", "empty") and \
            only.name != detect_id_field(table):
        return [only.name]
    raise no_text_error(table, stats)


def _test_item(table: Table, stats: list[FieldStats]) -> list[FieldStats]:
    """In an lm-evaluation-harness samples file whose test item (``doc.*``) holds
    text, the item's fields (the only ones detection considers); else none."""
    item = [s for s in stats if s.name.startswith(LM_EVAL_ITEM)]
    if lm_eval_samples(table.fields) and any(s.kind == "text" for s in item):
        return item
    return []


class FieldSelection(NamedTuple):
    """A file's text fields and id field (None: row numbers) as decided by
    :func:`choose_fields`, with the sentences a person should read about the
    choice (a fixed field left out, an id passed over)."""
    text_fields: list[str]
    id_field: str | None
    notes: list[str]
    detected: bool = False

    @property
    def reading(self) -> Reading:
        """The text fields as :func:`select_rows` reads them: by each row's shape
        unless a person chose them."""
        return Reading(tuple(self.text_fields), self.detected)


def choose_fields_steps(table: Table, stats: list[FieldStats], text_fields=None,
                        id_field: str | None = None, like=None):
    """The text and id fields of one file (see :func:`choose_fields`), as steps."""
    detected = not text_fields and not reads_like(table, like)
    if text_fields:
        chosen = list(text_fields)
    elif not detected:
        try:
            own = yield from detect_text_fields_steps(table, stats)
        except InputError:             # none of its own: the other file's fields hold text
            own = []
        chosen = fields_like(like, own)
    else:
        chosen = yield from detect_text_fields_steps(table, stats)
    notes = fixed_notes(stats, chosen) + (order_notes(table, chosen) if detected else [])
    if not text_fields and _test_item(table, stats):
        notes.append("lm-evaluation-harness samples: the test item (doc) is read, not the prompts "
                     "with their few-shot examples (arguments) nor the model's answers")
    if id_field is None:
        ident = id_field_choice(table)
        if ident.note:
            notes.append(ident.note)
        id_field = ident.field
    return FieldSelection(chosen, id_field or None, notes, not text_fields)


def fields_like(like, own) -> list[str]:
    """The text fields of a file that has every one of ``like`` (the other file's
    detected text fields: the same schema, :func:`reads_like`): those, in their
    order, so both sides read the same text, then the file's ``own`` detected ones
    they lack, so text the other file has no field for (a training row's own
    system message, an explanation beside its question and answer) is read too,
    never passed over::

        >>> fields_like(["question", "answer"], ["question", "explanation", "answer"])
        ['question', 'answer', 'explanation']
    """
    return [*like, *(f for f in own if f not in like)]


def reads_like(table: Table, like) -> bool:
    """Whether a file has every one of ``like``, the other file's detected text
    fields (the same schema), so that it reads them too."""
    if not like:
        return False
    have = set(table.fields)
    return all(f in have for f in like)


def choose_fields(table: Table, stats: list[FieldStats], text_fields=None,
                  id_field: str | None = None, like=None) -> FieldSelection:
    """The text and id fields of one file: those asked for, else detected.

    ``text_fields``: the person's choice (None: detect). ``like``: the other
    file's detected text fields; when this file has every one of them (the
    same schema: a test and a train split), they are read here too, so both
    sides read the same text, and this file's own detected text fields after
    them (:func:`fields_like`). ``id_field``: the person's (``""``: row numbers;
    None: :func:`id_field_choice`)::

        >>> t = Table("t.tsv", "tsv", ["s1", "s2", "note"],
        ...           [{"s1": "a b", "s2": "c", "note": "why it holds"}])
        >>> choose_fields(t, field_stats(t), like=["s2", "s1"])
        FieldSelection(text_fields=['s2', 's1', 'note'], id_field=None, notes=[], detected=True)
    """
    return run_steps(choose_fields_steps(table, stats, text_fields, id_field, like))


def order_notes(table: Table, detected) -> list[str]:
    """A sentence when the detected text fields join in a test item's order rather than
    the file's (:func:`item_order`), else none."""
    if len(detected) > 1 and list(detected) != reading_order(table, detected):
        return [f"text read in a test item's order (context, question, options, answer, "
                f"then formulas), not the file's: {fields_label(detected)}"]
    return []


def fixed_notes(stats: list[FieldStats], chosen) -> list[str]:
    """A sentence for each fixed field left out of the ``chosen`` text fields."""
    chosen = set(chosen)
    return [f"{s.name} holds the same text in nearly every row ({s.sample}): left out of "
            f"the text where a row holds it, as it says nothing about the row"
            for s in stats if s.kind == "fixed" and s.name not in chosen]


#: What a field of each kind (:attr:`FieldStats.kind`) holds, in words.
KIND_WORDS = {"id": "ids", "url": "URLs", "number": "numbers", "empty": "nothing",
              "other": "objects", "category": "labels", "text": "text",
              "fixed": "the same text in every row", "parse": "parse trees",
              "copy": "another field's words again", "role": "one role's turns of a chat"}


def no_text_error(table: Table, stats: list[FieldStats]) -> InputError:
    """The message for a file where no field holds text: every field and what it holds."""
    shown = ", ".join(f"{s.name!r} ({KIND_WORDS[s.kind]})" for s in stats[:20])
    more = f" and {len(stats) - 20} more" if len(stats) > 20 else ""
    if not stats:
        return InputError(table.source, "has no fields: no row holds text to check")
    return InputError(table.source, f"has no field that holds text: its fields are {shown}"
                                    f"{more}; choose the text field")


# --- rows ----------------------------------------------------------------------------

def _expand(table: Table, name: str, have: set) -> list[str]:
    """A field name as fields: itself, else every field under it as a path prefix
    (``question`` -> ``question.stem``, ``question.choices.text``...), else none.
    ``have``: the table's fields as a set (a sheet may have 10,000)."""
    if name in have:
        return [name]
    roles = set(table.role_fields)        # the conversation field holds their turns
    return [f for f in table.fields if f.startswith(name + ".") and f not in roles]


def select_rows(table: Table, text_fields: list[str] | Reading | None = None,
                id_field: str | None = None, number_missing_ids: bool = True,
                fields_read: dict[tuple[str, ...], None] | None = None) -> list[Row]:
    """Turn records into Rows (see :func:`select_rows_steps`)."""
    return run_steps(select_rows_steps(table, text_fields, id_field, number_missing_ids,
                                       fields_read))


def select_rows_steps(table: Table, text_fields: list[str] | Reading | None = None,
                      id_field: str | None = None, number_missing_ids: bool = True,
                      fields_read: dict[tuple[str, ...], None] | None = None):
    """Turn records into Rows: the chosen text fields joined by a newline, and an id.

    A text field may be named by a path prefix, which stands for every field
    under it in order. Missing or null text fields are left out of the join;
    a row with none is blank. With two or more fields, each row's ``parts``
    say where each field's text lies (one field: ``()``, the text is all
    its). ``fields_read``, when given, gains the fields each shape's rows were
    read by, in order (a piece of a file streamed: see :func:`fields_beside`).
    ``id_field=None`` detects the id field and ``""`` asks for none;
    without one the row number is the id, and so it is for a row without a
    value of the id field (``number_missing_ids`` False: ``""``, for a piece of
    a file whose row numbers in the file are known only later, whose rows may
    all lack the id field its first rows hold). A field that
    no record has raises an InputError naming the fields the file does have.

    Detected fields (None, or a :class:`~ngram_core.table.Reading` that says so)
    read every row by its own shape (:func:`shape_readings`): in a file of
    ``messages`` rows and ShareGPT ``conversations`` rows, each row's text
    comes from its own conversation, and a system prompt left out as fixed is
    read in the rows whose prompt differs::

        >>> t = Table("mix.jsonl", "jsonl", ["q", "body"], [{"q": "Who came?"},
        ...                                                  {"body": "My friend and I."}])
        >>> [r.text for r in select_rows(t, Reading(("q",), detected=True))]
        ['Who came?', 'My friend and I.']
        >>> [r.text for r in select_rows(t, ["q"])]       # chosen: read as chosen
        ['Who came?', '']
    """
    if isinstance(text_fields, Reading):
        reading = text_fields
    elif text_fields:
        reading = Reading(tuple(text_fields))
    else:
        reading = Reading(tuple((yield from detect_text_fields_steps(table))), detected=True)
    asked = list(reading.fields)
    if id_field is None:
        id_field = detect_id_field(table)
    elif id_field == "":
        id_field = None                   # asked for row numbers
    elif id_field not in set(table.fields) and number_missing_ids:
        # refused for a whole file; a piece of a file whose first rows hold it is
        # read, its rows numbered later
        raise _missing_field(table, id_field, "id")
    have = set(table.fields)
    if not reading.detected:
        fields, system, by_prefix = [], system_fields(table), set()
        for f in asked:
            expanded = _expand(table, f, have)
            if not expanded:
                raise _missing_field(table, f, "text")
            fields.extend(expanded)
            if f not in have:             # a chat's system messages, under its name
                by_prefix.update(system.intersection(expanded))
        # ... are read as detection reads them: a shared prompt left out where a row
        # holds it (--a-field messages reads the conversation, not the prompt again)
        fields = [f for f in fields if f not in by_prefix or f in asked]
        left = tuple(left for left in _fixed_values(table, table.records[:SAMPLE_ROWS],
                                                    tuple(fields), reading.training)
                     if left.field in by_prefix) if by_prefix else ()
        rows = yield from _rows_steps(table, [ShapeReading(tuple(fields), left)] *
                                      len(table.records), id_field, number_missing_ids)
        return rows
    readings = yield from shape_readings_steps(table, asked, reading.training, reading.shapes)
    rows = yield from _rows_steps(table, readings, id_field, number_missing_ids)
    if fields_read is not None:           # few distinct readings, shared by their rows
        fields_read.update(dict.fromkeys({id(r): r.fields for r in readings}.values()))
    return rows


class LeftOut(NamedTuple):
    """A field left out of a shape's reading, read in a row where its value differs
    from ``text`` (the fixed text most rows hold; ``""``: none) and is not blank; a
    ``label``'s only where its value is a sentence (:func:`is_sentence`). ``once``: the
    fixed text itself is read too, in the first row of the rows read together that
    holds it (a training file's: a test item repeated as every row's prompt, as in
    best-of-n samples, is searched)."""
    field: str
    text: str
    label: bool = False
    once: bool = False
    #: a text field left out of a training file's reading (a copy of another, as
    #: ``question_with_context`` is of ``question`` in most rows): read in a row
    #: where it holds a word the row's text read lacks (:func:`_holds_more`)
    beyond: bool = False

    def reads(self, value: str) -> bool:
        """Whether a row's value of this field is read (for ``beyond``: may be)."""
        if self.label:                # a sentence is longer than a label (most values)
            return len(value) >= SENTENCE_WORDS * 2 - 1 and value != self.text and \
                is_sentence(value)
        return value != self.text and bool(value.strip())


class ShapeReading(NamedTuple):
    """How the rows of one shape are read: their text fields, expanded, and the fields
    left out but read in the rows where they hold a text of their own
    (:class:`LeftOut`: a fixed instruction's other values, a label's sentences)."""
    fields: tuple[str, ...]
    fixed: tuple[LeftOut, ...]


#: Shapes of record read each by its own fields, in order of first appearance; the
#: rows of any further shape are read by the file's fields.
MAX_SHAPES = 32


def record_shape(fields) -> frozenset:
    """The shape of a record holding these fields (its field names; a record, its
    keys): their top-level names (``messages.content`` is ``messages``), so nested
    variation (a ``meta`` object's keys) is one shape. The caller leaves out a field
    whose value is null (a DataFrame or a ``Dataset`` of two schemas gives every row
    every column, null where it has none)::

        >>> sorted(record_shape({"id": 1, "messages.content": "Hi", "messages.user": "Hi"}))
        ['id', 'messages']
    """
    return frozenset(name.split(".", 1)[0] for name in fields)


def _shape_members(table: Table) -> dict[frozenset, list[int]]:
    """The records' indexes by :func:`record_shape` of their non-null fields."""
    keys: dict[tuple, list[int]] = {}
    for i, record in enumerate(table.records):     # a null is no field (a DataFrame's NaN)
        key = tuple(record)
        if None in record.values():
            key = tuple(k for k, v in record.items() if v is not None)
        keys.setdefault(key, []).append(i)
    shapes: dict[frozenset, list[int]] = {}
    for key, members in keys.items():
        shapes.setdefault(record_shape(key), []).extend(members)
    return shapes


def record_shapes(table: Table) -> frozenset:
    """The shapes of ``table``'s records (:func:`record_shape` of their non-null
    fields)::

        >>> t = Table("t.jsonl", "jsonl", ["q", "a", "x"],
        ...           [{"q": "Q", "a": "A"}, {"q": "Q", "a": None}, {"q": "Q", "a": "A", "x": "X"}])
        >>> sorted(sorted(shape) for shape in record_shapes(t))
        [['a', 'q'], ['a', 'q', 'x'], ['q']]
    """
    return frozenset(_shape_members(table))


def shape_readings_steps(table: Table, fields: list[str], training: bool = False,
                         known: frozenset = frozenset()):
    """Each record's :class:`ShapeReading`, for fields detected as ``fields``.

    Records are grouped by :func:`record_shape` of their non-null fields. Where
    every record has one shape and it holds the file's fields, all are read by
    ``fields`` (the one reading of a file of one schema), unless ``known`` (the
    shapes of the rows the fields were detected on, for a piece of a file
    streamed) lacks that shape. Otherwise, for
    each shape, detection runs on the shape's own first :data:`SAMPLE_ROWS`
    records: a shape whose detected text fields are all among the file's is read
    by the file's fields (a row without an optional field reads those it has),
    any other by its own. In every shape a *fixed* field (one text in nearly
    every sampled row, see :func:`_fixed`) is read in the rows whose value differs
    from that text: left out as an instruction repeated, never as a row's own
    words. ``training``: a training file's, whose fields left out as labels are
    read in a row where they hold a sentence (see :func:`_fixed_values`).
    """
    have = set(table.fields)
    main = tuple(f for name in fields for f in _expand(table, name, have))
    shapes = _shape_members(table)
    main_fixed = _fixed_values(table, table.records[:SAMPLE_ROWS], main, training)
    if len(shapes) == 1 and main and (not known or set(shapes) <= known):
        # one shape, holding the file's fields (and seen where they were chosen)
        return [ShapeReading(main, main_fixed)] * len(table.records)
    out: list[ShapeReading | None] = [None] * len(table.records)
    main_set = set(main)
    ordered = sorted(shapes.values(), key=lambda members: min(members))
    for number, members in enumerate(ordered):
        members.sort()
        reading = ShapeReading(main, main_fixed)
        if number < MAX_SHAPES:
            own = yield from _shape_fields_steps(table, members, training)
            if own is not None and not set(own.fields) <= main_set:
                reading = own
            elif number:              # the file's fields, its fixed ones judged on the shape
                reading = ShapeReading(main, _fixed_values(
                    table, [table.records[i] for i in members[:SAMPLE_ROWS]], main, training))
        for i in members:
            out[i] = reading
    return out


def fields_beside(named: Sequence[str], read: Iterable[Sequence[str]]) -> list[str]:
    """The fields ``named``, then those of ``read`` that are none of them nor under
    one (``choices`` stands for ``choices.0``...), in order: a file's fields as chosen
    on its first rows, with those its later rows' own shapes were read by::

        >>> fields_beside(["messages.content", "choices"],
        ...               [("messages.content", "choices.0"), ("conversations.value",)])
        ['messages.content', 'choices', 'conversations.value']
    """
    out = dict.fromkeys(named)
    for fields in read:
        for f in fields:
            if f not in out and not any(f.startswith(name + ".") for name in named):
                out[f] = None
    return list(out)


def shape_notes(table: Table, reading: Reading) -> tuple[list[str], list[str]]:
    """The text fields a detected reading of ``table`` reads over all its rows' shapes
    (the file's first, then each other shape's), and a sentence for each thing a
    person should know: rows read by their own shape, and rows whose fixed field
    differs from its fixed text, so read::

        >>> t = Table("mix.jsonl", "jsonl", ["q", "body"], [{"q": "Who came?"},
        ...                                                  {"body": "My friend and I."}])
        >>> shape_notes(t, Reading(("q",), detected=True))
        (['q', 'body'], ['rows read by their own fields: 1 row q, 1 row body'])
    """
    if not reading.detected:
        return list(reading.fields), []
    readings = run_steps(shape_readings_steps(table, list(reading.fields), reading.training,
                                              reading.shapes))
    by_fields: Counter = Counter(r.fields for r in readings)
    fields = list(reading.fields)
    notes = []
    if len(by_fields) > 1:
        fields = list(dict.fromkeys(f for shape in by_fields for f in shape))
        each = ", ".join(f"{count:,} row{'s' if count != 1 else ''} {fields_label(shape) or '(no text)'}"
                         for shape, count in by_fields.items())
        notes.append(f"rows read by their own fields: {each}")
    differing: Counter = Counter()
    for record, shape in zip(table.records, readings):
        read = None
        for left in shape.fixed:
            value = record.get(left.field)
            if value is None:
                continue
            if left.beyond:
                if read is None:
                    read = [value_text(record[f]) for f in shape.fields
                            if record.get(f) is not None]
                if _holds_more(value_text(value), read):
                    differing[left.field] += 1
            elif left.reads(value_text(value)):
                differing[left.field] += 1
    once = dict.fromkeys(left.field for shape in readings for left in shape.fixed
                         if left.once and left.text)
    if once:                          # a training file's fixed texts: read in one row
        notes.append(f"the fixed text of {fields_label(once)} is read once, in the first "
                     f"row holding it")
    prompts = {left.field for shape in readings for left in shape.fixed if left.text}
    labels = {left.field for shape in readings for left in shape.fixed if left.label}
    beyond = {left.field for shape in readings for left in shape.fixed if left.beyond}
    for f, count in differing.items():
        if f in beyond:
            notes.append(f"{count:,} {'row' if count == 1 else 'rows'}' {f} "
                         f"{'holds' if count == 1 else 'hold'} words the rest of the row "
                         f"lacks, and {'is' if count == 1 else 'are'} read"
                         .replace("row'", "row's", 1))
        elif f in labels and f not in prompts:
            notes.append(f"{count:,} {'row' if count == 1 else 'rows'}' {f} "
                         f"{'holds' if count == 1 else 'hold'} a sentence, not a label, and "
                         f"{'is' if count == 1 else 'are'} read".replace("row'", "row's", 1))
        elif f in prompts:
            notes.append(f"{count:,} {'row' if count == 1 else 'rows'}' {f} "
                         f"{'differs' if count == 1 else 'differ'} from the fixed text and "
                         f"{'is' if count == 1 else 'are'} read".replace("row'", "row's", 1))
        else:
            notes.append(f"{count:,} {'row' if count == 1 else 'rows'}' own {f} "
                         f"{'is' if count == 1 else 'are'} read".replace("row'", "row's", 1))
    return fields, notes


def _shape_fields_steps(table: Table, members: list[int], training: bool = False):
    """The :class:`ShapeReading` detection gives the records ``members`` of one shape,
    or None when none of their fields holds text (a field of single words, such as a
    label beside an empty text field, is none)."""
    sample = [table.records[i] for i in members[:SAMPLE_ROWS]]
    names = set().union(*(record.keys() for record in sample))
    sub = replace(table, records=sample, fields=[f for f in table.fields if f in names],
                  lines=[])
    stats = yield from field_stats_steps(sub)
    try:
        chosen = yield from detect_text_fields_steps(sub, stats)
    except InputError:
        return None
    tokens = {s.name: s.words for s in stats if s.kind in ("text", "fixed", "parse")}
    if not any(tokens.get(name, 0) >= WORD_TOKENS for name in chosen):
        return None               # a label or a word is no text of its own to read
    have = set(sub.fields)
    fields = tuple(f for name in chosen for f in _expand(sub, name, have))
    fixed = _fixed_values(sub, sample, fields, training)
    return ShapeReading(fields, fixed)


def _fixed_values(table: Table, sample: list[dict], fields: tuple[str, ...],
                  labels: bool = False) -> tuple[LeftOut, ...]:
    """The fixed fields left out of ``fields`` (kind ``fixed``, as :func:`field_stats`
    judges one: text, one value in nearly every sampled row), each with its fixed
    text (the value most of the sampled rows hold). Judged on the raw values, so a
    file of one fixed field costs a count, not a tokenization.

    A chat's system messages (:func:`system_fields`) not among ``fields`` are
    here too when they are no shared prompt, with ``""`` as their text: read in
    every row that holds one, however few rows do or wherever they are (a
    training row's own instructions can hold a test item). A shared one is here
    whatever its kind: "Be brief." in every row is a label's length, and a row
    whose own system message differs from it is read. With ``labels`` (a training
    file), every other field left out whose sampled values are short strings (a
    label, a category, or nothing at all), and every fixed one of another kind than
    text, is here as a label: read in a row where it holds a sentence of its own
    (:func:`is_sentence`)::

        >>> from ngram_core.table import flatten_record
        >>> rows = [flatten_record({"messages": [{"role": "user", "content": "Hi"}]})] * 3
        >>> rows.append(flatten_record({"messages": [{"role": "system", "content": "Be kind."},
        ...                                          {"role": "user", "content": "Hi"}]}))
        >>> t = Table("c.jsonl", "jsonl", list(rows[-1]), rows, role_fields=["messages.user"])
        >>> _fixed_values(t, rows, ("messages.content",))
        (LeftOut(field='messages.system', text='', label=False, once=False, beyond=False),)
    """
    chosen = set(fields)
    listed, outer, roles = set(table.list_fields), set(table.outer_fields), set(table.role_fields)
    system = system_fields(table)
    id_field = (id_like_field(table) or "") if labels else None
    fixed: list[LeftOut] = []
    for name in table.fields:
        if name in chosen or name in outer or name in roles:
            continue
        values = [r.get(name) for r in sample]
        if not _fixed(values, name in system):
            if name in system:
                fixed.append(LeftOut(name, ""))
            elif labels and name != id_field and _short_strings(values):
                fixed.append(LeftOut(name, "", label=True))
            elif labels and name != id_field and _kind(values, name in listed) == "text":
                fixed.append(LeftOut(name, "", beyond=True))
            continue
        if id_field is None:
            id_field = id_like_field(table) or ""
        if name == id_field:
            continue
        text = _top(values)
        if _kind(values, name in listed) == "text" or name in system:
            fixed.append(LeftOut(name, text, once=labels))   # a system message: however short
        elif labels:
            fixed.append(LeftOut(name, text, label=True, once=True))
    return tuple(fixed)


def _top(values: list) -> str:
    """The text most of a fixed field's values hold."""
    top = Counter(v for v in values if isinstance(v, str) and v.strip()).most_common(1)
    return top[0][0] if top else ""


#: A value of at least this many words (or of this many characters of a script written
#: without spaces) is a sentence, no label: read from a training file's label field.
SENTENCE_WORDS = 6
SENTENCE_CHARS = 12


def is_sentence(text: str) -> bool:
    """Whether a field's value holds a sentence (:data:`SENTENCE_WORDS` words or more,
    or :data:`SENTENCE_CHARS` characters of a script written without spaces)::

        >>> is_sentence("positive"), is_sentence("Step 1: add 3 and 4, then 7."), is_sentence("积极")
        (False, True, False)
    """
    if len(text.split(None, SENTENCE_WORDS - 1)) >= SENTENCE_WORDS:
        return True
    return not text.isascii() and len(text.strip()) >= SENTENCE_CHARS and " " not in text.strip()


def _short_strings(values: list) -> bool:
    """Whether sampled values are a label's: strings, or nothing, most of them no
    sentence (a worked answer among labels, in a row sampled, is still one to read)::

        >>> _short_strings(["positive"] * 9 + ["Worked answer: the train meets them at noon."])
        True
        >>> _short_strings(["The train meets them at noon today.", "positive"])
        False
    """
    held = [v for v in values if v is not None]
    return all(isinstance(v, str) for v in held) and \
        sum(map(is_sentence, held)) * 2 < len(held)


def system_fields(table: Table) -> set[str]:
    """The fields of a table that hold a chat's system messages (``messages.system``
    beside a conversation whose roles are :attr:`~ngram_core.table.Table.role_fields`)."""
    prefixes = {role.rsplit(".", 1)[0] for role in table.role_fields}
    return {f"{prefix}.system" for prefix in prefixes} & set(table.fields)


def _left_out_read(record: dict, left_out: tuple[LeftOut, ...], once: set,
                   present: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The fields left out that a record's row reads (:class:`LeftOut`), with their
    text; ``once``: the fixed texts already read in an earlier row (gains this one's);
    ``present``: the fields the row reads by its shape, with their text."""
    out = []
    for left in left_out:
        value = record.get(left.field)
        if value is None:
            continue
        text = value_text(value)
        if left.beyond:
            if text.strip() and _holds_more(text, [t for _, t in present]):
                out.append((left.field, text))
        elif left.reads(text):
            out.append((left.field, text))
        elif left.once and text == left.text and (left.field, text) not in once:
            once.add((left.field, text))
            out.append((left.field, text))
    return out


def _holds_more(text: str, read: list[str]) -> bool:
    """Whether ``text`` holds a word (a token, normalized) that none of the texts
    ``read`` holds: a copy that differs, not one split into words again::

        >>> _holds_more("Who came first? Leak: a test item", ["Who came first?"])
        True
        >>> _holds_more("And he said , Mama , I 'm home .", ["And he said, Mama, I'm home."])
        False
    """
    if any(text in other for other in read):
        return False
    tokenizer = _word_tokenizer()
    have = {token for other in read for token, _, _ in tokenizer.tokenize(other)}
    return any(token not in have for token, _, _ in tokenizer.tokenize(text))


@lru_cache(maxsize=None)
def _word_tokenizer() -> Tokenizer:
    return Tokenizer()


def _rows_steps(table: Table, readings: list[ShapeReading], id_field: str | None,
                number_missing_ids: bool = True):
    rows, any_text, pacer = [], False, Pacer()
    once: set[tuple[str, str]] = set()      # fixed texts read in a row already
    order = {name: i for i, name in enumerate(table.fields)}
    for number, (record, reading) in enumerate(zip(table.records, readings), 1):
        if pacer.due():
            yield number
        fields = reading.fields
        present = [(f, value_text(record.get(f))) for f in fields if record.get(f) is not None]
        differing = _left_out_read(record, reading.fixed, once, present) if reading.fixed else ()
        if differing:         # a fixed field's own value in this row: read, in file order
            present = sorted([*present, *differing], key=lambda pair: order.get(pair[0], 0))
        any_text = any_text or bool(present)
        ident = record.get(id_field) if id_field else None
        ident = value_text(ident) if ident is not None else ""
        if not ident and (number_missing_ids or not id_field):
            ident = str(number)
        if len(fields) > 1 or differing:
            row = Row(number, ident, "\n".join(t for _, t in present), _parts(present))
        else:
            row = Row(number, ident, present[0][1] if present else "")
        if row.blank:
            unread = unread_fields(record, reading, id_field)
            if unread:
                row = row._replace(unread=" + ".join(unread))
        rows.append(row)
    if not any_text:
        names = dict.fromkeys(f for reading in readings for f in reading.fields)
        raise InputError(table.source, f"no row has a value in the text field "
                                       f"{', '.join(map(repr, names))}")
    return rows


def unread_fields(record: dict, reading: ShapeReading, id_field: str | None) -> list[str]:
    """The fields of a row with no text read that hold text: a value of two words or
    more (or of four characters or more of a script written without spaces), not
    its id, not a fixed field's fixed text, not one role's turns of a chat (its
    conversation holds them). A row with such a field is *unread*: its text is
    somewhere the reading did not look, so it is never counted as a clean or a
    textless row::

        >>> unread_fields({"id": "7", "q": "", "body": "Who came here?"},
        ...               ShapeReading(("q",), ()), "id")
        ['body']
        >>> unread_fields({"q": None, "label": "positive"}, ShapeReading(("q",), ()), None)
        []
    """
    fixed = {left.field: left.text for left in reading.fixed}
    out = []
    for name, value in record.items():
        if name == id_field or name in reading.fields or not isinstance(value, str):
            continue
        if fixed.get(name) == value:
            continue
        text = value.strip()
        if len(text.split()) >= 2 or (len(text) >= 4 and not text.isascii()):
            out.append(name)
    return out


def unread_counts(rows) -> tuple[int, tuple[str, ...]]:
    """How many of ``rows`` are unread (see ``Row.unread``) and the fields their text
    is in, each once, in order."""
    count, fields = 0, {}
    for row in rows:
        if row.unread:
            count += 1
            fields.update(dict.fromkeys(row.unread.split(" + ")))
    return count, tuple(fields)


def unread_note(unread: int, fields) -> str:
    """The sentence for a file's unread rows: how many, and where their text is.

        >>> unread_note(2, ("body",))
        '2 rows unread: their text is only in fields not read (body): not searched, not counted as clean'
    """
    rows = "1 row" if unread == 1 else f"{unread:,} rows"
    return (f"{rows} unread: {'its' if unread == 1 else 'their'} text is only in fields "
            f"not read ({fields_label(fields)}): not searched, not counted as clean")


def _parts(present: list[tuple[str, str]]) -> tuple[tuple[str, int, int], ...]:
    """``[("q", "Who?"), ("a", "Me")]`` -> ``(("q", 0, 4), ("a", 5, 7))``: each field's
    ``[start, end)`` in the texts joined by a newline."""
    parts, at = [], 0
    for name, text in present:
        parts.append((name, at, at + len(text)))
        at += len(text) + 1
    return tuple(parts)


def _missing_field(table: Table, name: str, role: str) -> InputError:
    shown = ", ".join(repr(value_text(f)) for f in table.fields[:20])
    more = f" and {len(table.fields) - 20} more" if len(table.fields) > 20 else ""
    return InputError(table.source, f"has no field {value_text(name)!r} to use as the {role} "
                                    f"field; its fields are {shown}{more}")


def read_rows(data: bytes, name: str, text_fields: list[str] | None = None,
              id_field: str | None = None, format: str | None = None, *,
              role: str | None = None, records: str | None = None,
              delimiter: str | None = None, header: bool | None = None,
              text_rows: str | None = None) -> list[Row]:
    """``read_table`` then ``select_rows``: the one call most callers need."""
    return run_steps(read_rows_steps(data, name, text_fields, id_field, format, role=role,
                                     records=records, delimiter=delimiter, header=header,
                                     text_rows=text_rows))


def read_rows_steps(data: bytes, name: str, text_fields: list[str] | None = None,
                    id_field: str | None = None, format: str | None = None, **options):
    """:func:`read_rows` as steps (the keyword options are read_table's)."""
    table = yield from read_table_steps(data, name, format, **options)
    rows = yield from select_rows_steps(table, text_fields, id_field)
    return rows


# --- rows too short to match -----------------------------------------------------------

class ShortCount(NamedTuple):
    """How many of the chosen rows can match windows of ``n`` tokens.

    ``short`` rows have text but fewer than ``n`` tokens; ``blank`` rows none;
    ``tokens``: all the rows' tokens (when counted from a check's tokens).
    """
    rows: int
    blank: int
    short: int
    n: int
    tokens: int = 0

    @property
    def checkable(self) -> int:
        return self.rows - self.blank - self.short

    @property
    def mostly_short(self) -> bool:
        """More than half of the rows with text are shorter than n tokens."""
        return self.short * 2 > self.rows - self.blank


def count_short_rows(rows: list[Row], n: int) -> ShortCount:
    """:func:`count_short_rows_steps` run to the end."""
    return run_steps(count_short_rows_steps(rows, n))


def count_short_rows_steps(rows: list[Row], n: int):
    """Count the blank rows and the rows with fewer than ``n`` tokens (loose tokenizer).

    ``[Row(1, "1", "a b c"), Row(2, "2", " ")]`` with n = 13 -> ``ShortCount(2, 1, 1, 13)``.
    """
    tokenizer, pacer = Tokenizer(), Pacer()
    blank = short = 0
    for row in rows:
        if row.blank:
            blank += 1
        else:
            short += tokenizer.count_up_to(row.text, n) < n
        if pacer.due():
            yield blank + short
    return ShortCount(len(rows), blank, short, n)


def count_files_steps(rows: list[Row], offsets, starts, n: int):
    """Each file's rows counted exactly from a check's tokens: ``offsets`` are the
    token offsets of ``rows`` (``TokenizedRows.offsets``), ``starts`` the first
    row of each file (``RowFiles.starts``). Yields rows done; returns a
    :class:`ShortCount` per file. Every row counts, so a file sorted by length
    is judged as a whole, and the page and the command say the same numbers::

        >>> rows = [Row(1, "1", "a b"), Row(2, "2", ""), Row(3, "3", "a b c")]
        >>> run_steps(count_files_steps(rows, [0, 2, 2, 5], [0, 2], n=3))
        [ShortCount(rows=2, blank=1, short=1, n=3, tokens=2), ShortCount(rows=1, blank=0, short=0, n=3, tokens=3)]
    """
    counts = []
    ends = [*starts[1:], len(rows)]
    for start, end in zip(starts, ends):
        blank = short = 0
        for r in range(start, end):
            if rows[r].blank:
                blank += 1
            elif offsets[r + 1] - offsets[r] < n:
                short += 1
            if r % 4096 == 0:
                yield r
        counts.append(ShortCount(end - start, blank, short, n, offsets[end] - offsets[start]))
    return counts


def longer_fields(stats: list[FieldStats], n: int, chosen=()) -> list[FieldStats]:
    """Fields that could be text and hold at least ``n`` tokens per row, most first,
    leaving out the ``chosen`` ones."""
    chosen = set(chosen)
    longer = [s for s in stats if s.kind in TEXT_KINDS and s.tokens >= n and s.name not in chosen]
    return sorted(longer, key=lambda s: -s.tokens)


def short_rows_warning(count: ShortCount, fields, longer: list[FieldStats]) -> str | None:
    """The sentence to show when most rows are too short to match, else None::

        >>> stats = [FieldStats("contents", 85.0, 500.0, "", False, False, "text")]
        >>> print(short_rows_warning(ShortCount(10, 0, 9, 13), ["title"], stats))
        ... # doctest: +NORMALIZE_WHITESPACE
        9 of 10 rows of title are shorter than 13 tokens: nothing can match in them.
        Longer fields: contents (85 tokens per row).
    """
    if not count.mostly_short:
        return None
    with_text = count.rows - count.blank
    if with_text == 1:
        sentence = (f"1 of 1 row of {fields_label(fields)} is shorter than {count.n} tokens: "
                    f"nothing can match in it.")
    else:
        sentence = (f"{count.short:,} of {with_text:,} rows of {fields_label(fields)} are "
                    f"shorter than {count.n} tokens: nothing can match in them.")
    if longer:
        sentence += " Longer fields: " + ", ".join(
            f"{s.name} ({s.tokens:,.0f} tokens per row)" for s in longer[:3]) + "."
    return sentence


#: A field holding at least this many tokens per row is text worth checking on
#: its own (a title, a name or a label is not).
OTHER_TEXT_TOKENS = 5


def other_text_fields(stats: list[FieldStats], chosen=()) -> list[FieldStats]:
    """The text fields left out of the check: kind ``text`` or ``fixed`` (one text
    in nearly every row: a shared instruction, or a passage every question is
    on, whose leak would not show either), not ``chosen`` (by name, or under a
    chosen name that is a path prefix, as ``select_rows`` reads it), at least
    :data:`OTHER_TEXT_TOKENS` tokens per row; most tokens first."""
    names = {s.name for s in stats}
    prefixes = tuple(f"{c}." for c in chosen if c not in names)
    chosen = set(chosen)

    def left_out(s: FieldStats) -> bool:
        return s.name not in chosen and not s.name.startswith(prefixes)

    others = [s for s in stats if s.kind in ("text", "fixed") and s.tokens >= OTHER_TEXT_TOKENS
              and left_out(s)]
    return sorted(others, key=lambda s: -s.tokens)


def unchecked_text_notice(role: str, chosen, others: list[FieldStats]) -> str | None:
    """When a check flagged nothing, what it did not look at: a file's other text
    fields (from :func:`other_text_fields`), else None. A leak of the question while
    the check read the passage is not a clean result::

        >>> others = [FieldStats("question", 11.2, 60.0, "", False, False, "text")]
        >>> print(unchecked_text_notice("A", ["context"], others))
        ... # doctest: +NORMALIZE_WHITESPACE
        Nothing was flagged in context, the text of file A checked. File A also holds
        question (11 tokens per row), not checked: a leak of it would not show here.
    """
    if not others:
        return None
    listed = ", ".join(f"{s.name} ({s.tokens:,.0f} tokens per row)" for s in others[:3])
    more = f" and {len(others) - 3} more" if len(others) > 3 else ""
    what = "checked" if role == "A" else "searched"
    it = "it" if len(others) == 1 else "them"
    miss = (f"a leak of {it} would not show here" if role == "A"
            else f"text of file A in {it} would not be found")
    return (f"Nothing was flagged in {', '.join(chosen)}, the text of file {role} {what}. "
            f"File {role} also holds {listed}{more}, not {what}: {miss}.")

