r"""Stage 1b: a :class:`~ngram_core.readers.Table`'s fields -> the text and id fields -> Rows.

The text field is chosen by what the fields hold, not by their names: the
scalar string field with the most tokens per row (over the first
:data:`SAMPLE_ROWS` records, counted with the loose tokenizer the check uses)
wins; fields of ids, URLs, numbers or a few repeated labels never do, and a
field made from a list comes only after every scalar one. A file where no
field holds text is refused with its fields named, rather than checked on the
wrong column. :func:`field_stats` gives the page and the command what each
field holds; :func:`count_short_rows` and :func:`short_rows_warning` say when
the chosen field is too short to ever match::

    >>> from ngram_core.readers import read_table
    >>> t = read_table(b'url,title,contents\n'
    ...                b'https://a.org/1,Moon,"The Apollo 11 crew landed on the Moon in 1969."\n'
    ...                b'https://a.org/2,Sun,"The Sun is a star at the centre of our system."\n',
    ...                "pages.csv")
    >>> detect_text_fields(t), detect_id_field(t)
    (['contents'], None)
    >>> [(s.name, s.kind, s.tokens) for s in field_stats(t)]
    [('url', 'url', 4.0), ('title', 'text', 1.0), ('contents', 'text', 10.5)]
    >>> select_rows(t)[0]
    Row(number=1, id='1', text='The Apollo 11 crew landed on the Moon in 1969.')
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from .errors import InputError
from .readers import read_table_steps
from .table import (ID_FIELD_NAMES, ID_SUFFIXES, PLAIN_NUMBER, TEXT_FIELD_NAMES, Row, Table,
                    value_text)
from .steps import Pacer, run_steps
from .tokenize import PIECE_CHARS, Tokenizer

#: Records sampled to describe a field (the first ones of the file).
SAMPLE_ROWS = 200
#: Two fields whose tokens per row are within this factor are a near tie,
#: settled by characters per row: a tokenizer that makes one token of a run
#: of Han characters and one that makes a token of each agree on the winner.
NEAR_TIE = 1.25
#: Kinds of field that can be the text field, best first.
TEXT_KINDS = ("text", "category")

_URL = re.compile(r"\s*(?:[A-Za-z][A-Za-z0-9+.-]*://|www\.)\S+\s*")
_CODE = re.compile(r"\s*[!-~]*[0-9_#~/][!-~]*\s*")       # one ASCII "word" with a digit or _#~/


class FieldStats(NamedTuple):
    """What one field holds, over the sampled records.

    ``tokens`` and ``chars`` are means per sampled record (a record without
    the field counts 0); ``sample`` is the first non-blank value, shortened;
    ``listed``: made from a list (values joined with newlines); ``outer``:
    from an object enclosing the rows (a JSON records path). ``kind`` is
    ``text``, ``category`` (few distinct values repeated), ``id``, ``url``,
    ``number``, ``other`` or ``empty`` (see :func:`_kind`).
    """
    name: str
    tokens: float
    chars: float
    sample: str
    listed: bool
    outer: bool
    kind: str


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
    id_field = detect_id_field(table)
    listed, outer = set(table.list_fields), set(table.outer_fields)
    tokenizer = Tokenizer()
    out, pacer = [], Pacer()
    counted: dict[str, int] = {}      # tokens per distinct text (a wide sheet repeats its cells)
    for i, name in enumerate(table.fields):
        values = [r.get(name) for r in records]
        tokens = chars = 0
        for value in values:
            if value is not None:
                text = value_text(value)
                count = counted.get(text)
                if count is None:
                    count = yield from _count_tokens_steps(tokenizer, text, pacer)
                    if len(text) <= PIECE_CHARS:
                        counted[text] = count
                tokens += count
                chars += len(text)
        kind = "id" if name == id_field else _kind(values)
        n = max(len(records), 1)
        out.append(FieldStats(name, tokens / n, chars / n, _sample(values), name in listed,
                              name in outer, kind))
        if pacer.due():
            yield i
    return out


def _count_tokens_steps(tokenizer: Tokenizer, text: str, pacer: Pacer):
    """Tokens in one text, as the check counts them; a long text in paced pieces."""
    if len(text) <= PIECE_CHARS:
        return tokenizer.count(text)
    spans = yield from tokenizer.spans_steps(text)
    if pacer.due():
        yield 0
    return len(spans)


def _is_number(value) -> bool:
    """A number, a boolean, or a string of numbers one per line (``"177\\n180"``)."""
    if isinstance(value, (bool, int, float)):
        return True
    return isinstance(value, str) and _is_number_text(value)


@lru_cache(maxsize=1 << 14)
def _is_number_text(value: str) -> bool:
    return all(PLAIN_NUMBER.fullmatch(part.strip()) for part in value.split("\n"))


def _kind(values: list) -> str:
    """The kind of field these sampled values make.

    No non-blank value: ``empty``; at most half of them strings that are not
    numbers: ``number`` (``other`` when most are not numbers either, e.g.
    objects); every line of every string a URL: ``url``; every line an ASCII
    word holding a digit, ``_``, ``#``, ``~`` or ``/`` (``q1``,
    ``Mercury_7175875``): ``id``; 10 or more strings with at most a fifth of
    them distinct: ``category``; else ``text``::

        >>> _kind(["q1", "q2", None]), _kind(["https://a.org/x"]), _kind(["Who am I?"])
        ('id', 'url', 'text')
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
    if len(strings) >= 10 and len(set(strings)) * 5 <= len(strings):
        return "category"
    return "text"


def _sample(values: list, width: int = 60) -> str:
    for value in values:
        text = " ".join(value_text(value).split())
        if text:
            return text if len(text) <= width else text[:width - 1] + "\u2026"
    return ""


# --- the id field and the text field --------------------------------------------

def _id_candidates(table: Table) -> list[str]:
    """Fields named like ids: the usual names in ID_FIELD_NAMES' order, then
    ``*_id``, ``* id``, ``*.id``, ``*-id`` and camelCase ``*Id``, in field order;
    never a field made from a list."""
    listed = set(table.list_fields)
    by_lower: dict[str, str] = {}
    for f in table.fields:
        if f not in listed:
            by_lower.setdefault(f.lower(), f)
    named = [by_lower[n] for n in ID_FIELD_NAMES if n in by_lower]
    suffixed = [f for f in table.fields if f not in listed and f not in named and
                (f.lower().endswith(ID_SUFFIXES) or re.search(r"[a-z]Id$", f))]
    return named + suffixed


def _unique(table: Table, name: str) -> bool:
    values = [r.get(name) for r in table.records[:SAMPLE_ROWS]]
    if any(v is None for v in values):
        return False
    texts = [value_text(v) for v in values]
    return len(set(texts)) == len(texts)


def detect_id_field(table: Table) -> str | None:
    """The id field: of the fields named like ids (:func:`_id_candidates`), the
    first whose sampled values are all present and different, else the first.

    ``{"source_id": "v1", "ind": 7, ...}`` with ``source_id`` repeating ->
    ``"ind"``; no field named like an id -> None (rows are numbered).
    """
    candidates = _id_candidates(table)
    for name in candidates:
        if _unique(table, name):
            return name
    return candidates[0] if candidates else None


def _name_rank(name: str) -> int:
    lower = name.rsplit(".", 1)[-1].lower()
    return TEXT_FIELD_NAMES.index(lower) if lower in TEXT_FIELD_NAMES else len(TEXT_FIELD_NAMES)


def rank_text_fields(stats: list[FieldStats]) -> list[FieldStats]:
    """The fields that can be the text field, best first.

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
    """One tier ordered: repeatedly take the best of the near-tied leaders."""
    rest, ordered = list(group), []
    while rest:
        top = max(s.tokens for s in rest)
        near = [s for s in rest if s.tokens * NEAR_TIE >= top]
        best = min(near, key=lambda s: (-s.chars, _name_rank(s.name), rest.index(s)))
        ordered.append(best)
        rest.remove(best)
    return ordered


def detect_text_fields(table: Table) -> list[str]:
    """The text field chosen by content (see :func:`rank_text_fields`), as a list.

    ``{"id": "x1", "label": 3, "question": "Who?"}`` -> ``["question"]``.
    """
    return run_steps(detect_text_fields_steps(table))


def detect_text_fields_steps(table: Table, stats: list[FieldStats] | None = None):
    """:func:`detect_text_fields` as steps; pass ``stats`` when already computed.

    A table of one field (plain text, an array of strings) uses it whatever
    it holds unless it holds no strings or is the id. No field that can be
    the text field: InputError naming the fields and what they hold.
    """
    if stats is None:
        stats = yield from field_stats_steps(table)
    ranked = rank_text_fields(stats)
    if ranked:
        return [ranked[0].name]
    only = stats[0] if len(stats) == 1 else None
    if only and only.kind not in ("number", "other", "empty") and \
            only.name != detect_id_field(table):
        return [only.name]
    raise no_text_error(table, stats)


_WHAT = {"id": "ids", "url": "URLs", "number": "numbers", "empty": "nothing", "other": "objects",
         "category": "labels", "text": "text"}


def no_text_error(table: Table, stats: list[FieldStats]) -> InputError:
    """The message for a file where no field holds text: every field and what it holds."""
    shown = ", ".join(f"{s.name!r} ({_WHAT[s.kind]})" for s in stats[:20])
    more = f" and {len(stats) - 20} more" if len(stats) > 20 else ""
    if not stats:
        return InputError(table.source, "has no fields: no row holds text to check")
    return InputError(table.source, f"has no field that holds text: its fields are {shown}"
                                    f"{more}; choose the text field")


# --- rows ----------------------------------------------------------------------------

def _expand(table: Table, name: str) -> list[str]:
    """A field name as fields: itself, else every field under it as a path prefix
    (``question`` -> ``question.stem``, ``question.choices.text``...), else none."""
    if name in table.fields:
        return [name]
    return [f for f in table.fields if f.startswith(name + ".")]


def select_rows(table: Table, text_fields: list[str] | None = None,
                id_field: str | None = None) -> list[Row]:
    """Turn records into Rows (see :func:`select_rows_steps`)."""
    return run_steps(select_rows_steps(table, text_fields, id_field))


def select_rows_steps(table: Table, text_fields: list[str] | None = None,
                      id_field: str | None = None):
    """Turn records into Rows: the chosen text fields joined by a newline, and an id.

    A text field may be named by a path prefix, which stands for every field
    under it in order. Missing or null text fields are left out of the join;
    a row with none is blank. ``id_field=None`` detects the id field and
    ``""`` asks for none; without one the row number is the id. A field that
    no record has raises an InputError naming the fields the file does have.
    """
    asked = list(text_fields) if text_fields else (yield from detect_text_fields_steps(table))
    if id_field is None:
        id_field = detect_id_field(table)
    elif id_field == "":
        id_field = None                   # asked for row numbers
    elif id_field not in table.fields:
        raise _missing_field(table, id_field, "id")
    fields = []
    for f in asked:
        expanded = _expand(table, f)
        if not expanded:
            raise _missing_field(table, f, "text")
        fields.extend(expanded)
    rows = yield from _rows_steps(table, fields, id_field)
    return rows


def _rows_steps(table: Table, fields: list[str], id_field: str | None):
    rows, any_text, pacer = [], False, Pacer()
    for number, record in enumerate(table.records, 1):
        if pacer.due():
            yield number
        parts = [value_text(record.get(f)) for f in fields if record.get(f) is not None]
        any_text = any_text or bool(parts)
        ident = record.get(id_field) if id_field else None
        rows.append(Row(number, str(number) if ident is None else value_text(ident),
                        "\n".join(parts)))
    if not any_text:
        raise InputError(table.source, f"no row has a value in the text field "
                                       f"{', '.join(map(repr, fields))}")
    return rows


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

    ``short`` rows have text but fewer than ``n`` tokens; ``blank`` rows none.
    """
    rows: int
    blank: int
    short: int
    n: int

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


def longer_fields(stats: list[FieldStats], n: int, chosen=()) -> list[FieldStats]:
    """Fields that could be text and hold at least ``n`` tokens per row, most first,
    leaving out the ``chosen`` ones."""
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
    sentence = (f"{count.short:,} of {with_text:,} rows of {', '.join(fields)} are shorter "
                f"than {count.n} tokens: nothing can match in them.")
    if longer:
        sentence += " Longer fields: " + ", ".join(
            f"{s.name} ({s.tokens:,.0f} tokens per row)" for s in longer[:3]) + "."
    return sentence


#: A field holding at least this many tokens per row is text worth checking on
#: its own (a title, a name or a label is not).
OTHER_TEXT_TOKENS = 5


def other_text_fields(stats: list[FieldStats], chosen=()) -> list[FieldStats]:
    """The text fields left out of the check: kind ``text``, not ``chosen`` (by name,
    or under a chosen name that is a path prefix, as ``select_rows`` reads it), at
    least :data:`OTHER_TEXT_TOKENS` tokens per row; most tokens first."""
    names = {s.name for s in stats}
    prefixes = tuple(f"{c}." for c in chosen if c not in names)

    def left_out(s: FieldStats) -> bool:
        return s.name not in chosen and not s.name.startswith(prefixes)

    others = [s for s in stats if s.kind == "text" and s.tokens >= OTHER_TEXT_TOKENS
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

