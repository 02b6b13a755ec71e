r"""The shapes every reader produces: :class:`Row`, :class:`Table`, flat records.

Every reader (:mod:`~ngram_core.read.readers` and the format modules it calls,
:mod:`~ngram_core.read.json_rows` and :mod:`~ngram_core.read.delimited`) returns a
:class:`Table` of flat records; :mod:`~ngram_core.read.fields` turns one into
:class:`Row` s. How a file is read, where sniffing is not enough, is a
:class:`ReadOptions`. A record's fields are its leaf paths joined with ``.``;
a list of scalars is one field, its values joined with a newline, and so is
each key path inside a list of objects::

    >>> flatten_record({"id": 1, "q": {"stem": "Who?", "choices": [{"text": "Me"},
    ...                                                             {"text": "You"}]}})
    {'id': 1, 'q.stem': 'Who?', 'q.choices.text': 'Me\nYou'}
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from .errors import InputError
from .steps import Pacer, run_steps

#: Names a text field usually has, most likely first (matched case-insensitively).
#: Only a tie-break now: :mod:`ngram_core.read.fields` picks the text field by content.
TEXT_FIELD_NAMES = ("text", "question", "prompt", "input", "content", "sentence",
                    "instruction", "query", "problem", "passage", "document",
                    "code", "context", "body", "premise", "article", "goal")
#: Names an id field usually has; any other ``*_id`` / ``* id`` field comes next.
ID_FIELD_NAMES = ("id", "_id", "uid", "uuid", "guid", "task_id", "question_id", "qid",
                  "doc_id", "example_id", "idx", "index", "ind", "key")
#: Endings of an id field's name (lower-cased): ``doc_id``, ``Doc ID``, ``meta.id``.
ID_SUFFIXES = ("_id", "-id", " id", ".id")


def named_like_id(name: str) -> bool:
    """Whether a field's name is an id's: one of :data:`ID_FIELD_NAMES`, or ending
    as :data:`ID_SUFFIXES` say, or in camelCase ``Id`` or ``ID`` (SNLI's ``pairID``)::

        >>> [named_like_id(n) for n in ("ID", "doc_id", "pairID", "video", "Index")]
        [True, True, True, False, True]
    """
    lower = name.lower()
    return lower in ID_FIELD_NAMES or lower.endswith(ID_SUFFIXES) or \
        re.search(r"[a-z]I[dD]$", name) is not None

#: How a plain-text file is cut into rows (``--a-text-rows`` / ``--b-text-rows``).
TEXT_ROWS = ("line", "paragraph", "conll", "file")

LINE_BREAK = re.compile(r"\r\n|\r|\n")
#: The line breaks ``str.splitlines`` knows besides ``\r`` and ``\n``.
_OTHER_BREAKS = "\v\f\x1c\x1d\x1e\x85\u2028\u2029"


def split_lines(text: str) -> list[str]:
    r"""Split at ``\r\n``, ``\r`` or ``\n`` only, not at the other breaks that
    ``str.splitlines`` knows; a final break leaves a last empty piece::

        >>> split_lines("a\r\nb\u2028c\rd\n")
        ['a', 'b\u2028c', 'd', '']
    """
    if any(brk in text for brk in _OTHER_BREAKS):     # each a fast substring search
        return LINE_BREAK.split(text)
    lines = text.splitlines()
    if text.endswith(("\n", "\r")):
        lines.append("")
    return lines


_SURROGATE = re.compile("[\ud800-\udfff]")
#: A plain decimal number, as a CSV cell or a JSON string may hold one.
PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")

class RecordArray(NamedTuple):
    """An array of a JSON document that can hold the rows: its dotted path
    (``""``: the top level), its items over every place the path reaches, and
    whether they are objects (else strings)."""
    path: str
    items: int
    objects: bool


#: The fields of an lm-evaluation-harness samples file beside ``doc_id`` (each a field
#: or a prefix of nested ones): the test item (``doc``), the prompts the model was
#: given (``arguments``: the item formatted, after the few-shot examples) and its answers.
LM_EVAL_FIELDS = ("doc", "target", "arguments", "resps", "filtered_resps")
LM_EVAL_KEY = "doc_id"
#: The prefix of the test item's fields in an lm-evaluation-harness samples file.
LM_EVAL_ITEM = "doc."


def lm_eval_samples(fields: Sequence[str]) -> bool:
    """The fields are an lm-evaluation-harness samples file's: ``doc_id`` and at least
    two of :data:`LM_EVAL_FIELDS`::

        >>> lm_eval_samples(["doc_id", "doc.question", "arguments.gen_args_0.arg_0", "acc"])
        True
    """
    if LM_EVAL_KEY not in fields:
        return False
    found = {f.split(".", 1)[0] for f in fields}
    return sum(name in found for name in LM_EVAL_FIELDS) >= 2


@dataclass
class Table:
    """The records of one file before any field is chosen.

    ``records`` are flat dicts from field name (a leaf path, see
    :func:`flatten_record`) to a scalar: strings for CSV, TSV and text; any
    JSON scalar for JSON and JSONL, a list-made field being a string of
    newline-joined values. ``lines`` gives the 1-based line each record
    starts on, for messages (empty for JSON).

    What was detected, for the page and the command to show: ``encoding``;
    ``delimiter`` and ``header`` (delimited files, else None);
    ``records_path``, the JSON array the rows are the items of (``""`` the
    top level; None: not JSON, or a single object read as one row) and
    ``arrays``, every JSON array that could hold the rows; ``list_fields``
    (made from lists) and ``outer_fields`` (from objects enclosing the rows);
    ``role_fields``, the turns of one role of a chat (``messages.user``: the
    conversation, every turn in order, is a field of its own, see
    :func:`flatten_record`);
    ``notes``, one sentence per thing a person should know.
    """
    source: str
    format: str
    fields: list[str]
    records: list[dict]
    lines: list[int] = field(default_factory=list)
    encoding: str = "utf-8"
    delimiter: str | None = None
    header: bool | None = None
    records_path: str | None = None
    arrays: list[RecordArray] = field(default_factory=list)
    list_fields: list[str] = field(default_factory=list)
    outer_fields: list[str] = field(default_factory=list)
    role_fields: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.records)


class Row(NamedTuple):
    """One row to check: its 1-based number in its file, its id and its text.

    A row is *blank* when its text is empty or only whitespace (a missing or
    null field gives the empty string). ``parts`` says which field each piece
    of the text came from: ``(field, start, end)``, half-open ``[start, end)``
    character ranges in file order, joined by one newline; ``()`` when the row
    was not read from fields::

        >>> Row(1, "q1", "Who?\\nMe", (("question", 0, 4), ("answer", 5, 7))).text[5:7]
        'Me'
    """
    number: int
    id: str
    text: str
    parts: tuple[tuple[str, int, int], ...] = ()
    #: a blank row whose text is in fields not read: their names (``""``: none). Such a
    #: row is *unread*, never counted as a row with no text.
    unread: str = ""

    @property
    def blank(self) -> bool:
        return not self.text or self.text.isspace()


@dataclass(frozen=True)
class Reading:
    """Which fields of a file make each row's text, as chosen for the file.

    ``fields``: the file's text fields in order (a prefix stands for every field
    under it). ``detected``: chosen by content, not by a person. Detected fields
    read each row *by its own shape*: a row of another schema than the file's
    first rows (a ShareGPT ``conversations`` row in a file of ``messages`` rows)
    is read from the fields detection chooses for the rows of its shape, and a
    *fixed* field (the same system prompt in nearly every row) is left out only
    where a row holds that text (see :func:`~ngram_core.read.fields.select_rows`).
    Fields a person chose are read as chosen, in every row. ``training``: a
    training file's detected reading also reads a field left out as a label (short
    strings in the rows sampled) in a row where it holds a sentence: a later row's
    worked answer in a file whose first rows' ``output`` is "positive".
    ``shapes``: where the fields were detected on a file's first rows only (a file
    streamed), the shapes of record seen there (see
    :func:`~ngram_core.read.fields.record_shapes`): a later piece of rows all of
    one other shape (an ``input`` field that appears after row 50,000) is read by
    its own shape too.
    """
    fields: tuple[str, ...]
    detected: bool = False
    training: bool = False
    shapes: frozenset = frozenset()


class ReadOptions(NamedTuple):
    """How to read one file, where sniffing is not enough; None everywhere detects.

    ``format``: one of FORMATS. ``role``: ``"a"`` (the test set) or ``"b"``
    (the training data): a JSON object holding split arrays gives A its test
    split and B its train split (None reads as A). ``records``: the dotted
    path of the JSON array whose items are the rows (``""``: the top level).
    ``delimiter`` (one character, or comma/semicolon/tab/pipe) and ``header``
    (True/False): how a delimited file is read. ``text_rows``: a plain-text
    file's rows are its lines (``"line"``), its blocks of non-blank lines
    between blank lines (``"paragraph"``), its sentences as a token-per-line
    file (``"conll"``: see :mod:`~ngram_core.read.conll`) or the whole file
    (``"file"``); None detects: a token-per-line file reads one row per
    sentence, a file made of blocks of similar shape (LogiQA's items, wrapped
    paragraphs; see :func:`~ngram_core.read.readers.made_of_blocks`) one row per
    block, and its notes say so; any other file one row per line.
    """
    format: str | None = None
    role: str | None = None
    records: str | None = None
    delimiter: str | None = None
    header: bool | None = None
    text_rows: str | None = None


#: Fields named in a sentence before the rest are counted.
FIELDS_NAMED = 6


def fields_label(names) -> str:
    """Field names as a sentence shows them: ``context + question``; past
    :data:`FIELDS_NAMED`, the first ones and a count (a sheet may have 10,000)::

        >>> fields_label(["a", "b"]), fields_label([f"c{i}" for i in range(1, 10)])
        ('a + b', 'c1 + c2 + c3 + c4 + c5 and 4 more fields')
    """
    names = list(names)
    if len(names) <= FIELDS_NAMED:
        return " + ".join(names)
    return (" + ".join(names[:FIELDS_NAMED - 1]) +
            f" and {len(names) - FIELDS_NAMED + 1:,} more fields")


def repair_surrogates(s: str) -> str:
    """Replace lone surrogates (JSON can spell them as \\ud800) by U+FFFD.

    One code point stays one code point, so character offsets are unchanged.
    """
    if s.isascii() or not _SURROGATE.search(s):     # isascii: one pass in C, no regex
        return s
    return _SURROGATE.sub("\ufffd", s)


def value_text(value) -> str:
    """A field's value as row text: strings as they are (lone surrogates
    repaired), None as ``""``, anything else as :func:`scalar_text` gives it."""
    if value is None:
        return ""
    if isinstance(value, str):
        return repair_surrogates(value)
    return repair_surrogates(scalar_text(value))


def scalar_text(value) -> str:
    r"""A value that is not a string as text: JSON's numbers, booleans, objects and
    arrays as JSON (``42`` -> ``"42"``); what a Parquet column holds besides:
    bytes decoded as UTF-8 (a byte that is not, U+FFFD), dates and times in ISO
    form, decimals as written; anything else as ``str`` gives it::

        >>> import datetime, decimal
        >>> [scalar_text(v) for v in (42, b"caf\xc3\xa9 \xff", datetime.date(2024, 1, 31),
        ...                           decimal.Decimal("3.10"))]
        ['42', 'café �', '2024-01-31', '3.10']
    """
    if isinstance(value, str):
        return value
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).decode("utf-8", "replace")
    if hasattr(value, "isoformat"):               # datetime, date, time, pandas' Timestamp
        return value.isoformat()
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):               # Decimal, timedelta, a NaN in an object...
        return str(value)



#: Said of a JSON or JSON Lines file whose rows are arrays.
ARRAY_ROWS_NOTE = "each row is an array, its values read as the fields column_1, column_2 and on"


def as_record(value, name: str, what: str, **where) -> dict:
    """One JSON row as a record: an object as it is, a string as ``{"text": ...}``,
    an array as the cells of a headerless CSV row (pandas' ``to_json(orient=
    "values")``): ``["q1", "Who?"]`` -> ``{"column_1": "q1", "column_2": "Who?"}``.
    A number, a boolean or null is refused, naming ``what`` and ``where``."""
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        return {"text": value}
    if isinstance(value, list):
        return {f"column_{i}": cell for i, cell in enumerate(value, 1)}
    kind = {bool: "a boolean", int: "a number", float: "a number",
            type(None): "null"}.get(type(value), type(value).__name__)
    raise InputError(name, f"{what} is {kind}; each row must be an object, a string or an array",
                     **where)



# --- records -> flat records -----------------------------------------------------

def join_path(path: str, key: str) -> str:
    """``join_path("question", "stem")`` -> ``"question.stem"``; ``("", "id")`` -> ``"id"``."""
    return f"{path}.{key}" if path else key


def flatten_record(record: dict, listed: set | None = None, roles: set | None = None) -> dict:
    """A record with its nested values spread into leaf-path fields.

    An object's leaves are named by their keys joined with ``.``; a list of
    scalars is one field whose value is its items joined with a newline (null
    items left out); inside a list of objects, each key path is one field
    joining the items' values. Empty objects and lists give no field. A
    top-level key keeps its name as it is, dots and all, and wins over a
    nested path spelled the same (``{"a.b": 1, "a": {"b": 2}}`` -> ``a.b`` is
    1); otherwise the first value of a name wins. The names of list-made
    fields are added to ``listed``, and those of a chat's roles to ``roles``. A
    record with no object or list values is returned as it is::

        >>> flatten_record({"id": 1, "q": {"stem": "Why?", "tags": ["x", "y"]}})
        {'id': 1, 'q.stem': 'Why?', 'q.tags': 'x\\ny'}
    """
    if not any(isinstance(v, (dict, list)) for v in record.values()):
        return record
    out: dict = {}
    parts: dict[str, list[str]] = {}
    role_paths: set[str] = set()
    for key, value in record.items():
        if isinstance(value, (dict, list)):
            _spread(value, key, False, out, parts, record, role_paths)
        elif key not in out:
            out[key] = value
    for path, values in parts.items():
        out[path] = "\n".join(values) if values else None
    if listed is not None:
        listed.update(parts)
    if roles is not None:
        roles.update(role_paths)
    return out


#: A chat message is an object with a role (OpenAI's ``role``, ShareGPT's ``from``)
#: and its text (``content``, ``value`` or ``text``).
ROLE_KEYS = ("role", "from")
CONTENT_KEYS = ("content", "value", "text")
ROLE_CHARS = 32
#: The role whose turns are not part of the conversation field (a system prompt).
SYSTEM_ROLE = "system"


def _message(item) -> tuple[str, str, str] | None:
    """``(role, role key, text key)`` of a chat message, else None: a role is a
    short word of letters, ``_`` and ``-`` (it becomes part of a field's name;
    ``{"from": "2020-01-01", ...}`` is no message)."""
    if not isinstance(item, dict):
        return None
    role_key = next((k for k in ROLE_KEYS if k in item), None)
    text_key = next((k for k in CONTENT_KEYS if k in item), None)
    if role_key is None or text_key is None:
        return None
    role = item[role_key]
    if not isinstance(role, str) or len(role) > ROLE_CHARS \
            or not role.replace("_", "").replace("-", "").isalpha():
        return None
    return role, role_key, text_key


def turn_words(message: dict, text_key: str) -> tuple[list, list]:
    """A chat message's words, in order, and the parts of its text that hold none.

    Its text, or, when the text is a list of parts (OpenAI's and Anthropic's
    ``[{"type": "text", "text": ...}, {"type": "image_url", ...}]``), each part's
    text; then the arguments of each tool it calls (OpenAI's ``tool_calls`` and
    ``function_call``): a tool call holds the turn's words as much as its text
    does. Parts without text (an image) are the second list::

        >>> turn_words({"role": "user", "content": [{"type": "text", "text": "Hi"},
        ...             {"type": "image_url", "image_url": {"url": "u"}}]}, "content")
        (['Hi'], [{'type': 'image_url', 'image_url': {'url': 'u'}}])
        >>> turn_words({"role": "assistant", "content": None, "tool_calls": [
        ...     {"type": "function", "function": {"name": "f", "arguments": '{"q": "x"}'}}]},
        ...     "content")
        ([None, '{"q": "x"}'], [])
    """
    text = message[text_key]
    words, rest = [text], []
    if isinstance(text, list):
        words = []
        for part in text:
            if isinstance(part, str):
                words.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                words.append(part["text"])
            else:
                rest.append(part)
    for call in _calls(message):
        words.append(call["arguments"])
    return words, rest


#: A chat message's keys for the tools it calls (OpenAI's, and its older one).
CALL_KEYS = ("tool_calls", "function_call")


def _calls(message: dict) -> list[dict]:
    """The functions a chat message calls whose arguments are text."""
    calls = message.get("tool_calls")
    calls = (calls if isinstance(calls, list) else []) + [message.get("function_call")]
    functions = [call.get("function", call) for call in calls if isinstance(call, dict)]
    return [f for f in functions if isinstance(f, dict) and isinstance(f.get("arguments"), str)]


def _without_arguments(value):
    """A message's tool calls without the arguments :func:`turn_words` took (so they are
    not read twice), their other keys (a call's id, a function's name) kept."""
    if isinstance(value, list):
        return [_without_arguments(item) for item in value]
    if not isinstance(value, dict):
        return value
    if isinstance(value.get("arguments"), str):
        return {k: v for k, v in value.items() if k != "arguments"}
    return {k: _without_arguments(v) if k == "function" else v for k, v in value.items()}


def _spread(value, path: str, in_list: bool, out: dict, parts: dict, record: dict,
            roles: set) -> None:
    """Put the leaves of ``value`` (found at ``path``) into ``out`` / ``parts``.

    A list of chat messages is read as a conversation: every turn's text in
    order goes to one field named by the text's key (``messages.content``,
    ``conversations.value``), but a system prompt's, which goes to
    ``messages.system`` (shared by every row, it is then left out as fixed,
    rather than text joined to every question). Each role's turns are also a
    field of their own (``messages.user``, ``conversations.gpt``), added to
    ``roles``: read only when chosen, since the conversation holds them::

        >>> flatten_record({"messages": [{"role": "system", "content": "Be brief."},
        ...                              {"role": "user", "content": "Why?"},
        ...                              {"role": "assistant", "content": "2"}]})
        {'messages.system': 'Be brief.', 'messages.content': 'Why?\\n2', 'messages.user': 'Why?', 'messages.assistant': '2'}
    """
    if isinstance(value, dict):
        for key, item in value.items():
            _spread(item, f"{path}.{key}", in_list, out, parts, record, roles)
    elif isinstance(value, list):
        for item in value:
            message = _message(item)
            if message is None:
                _spread(item, path, True, out, parts, record, roles)
                continue
            role, role_key, text_key = message
            words, rest = turn_words(item, text_key)
            for text in words:
                if role != SYSTEM_ROLE:
                    _spread(text, f"{path}.{text_key}", True, out, parts, record, roles)
                _spread(text, f"{path}.{role}", True, out, parts, record, roles)
            if role != SYSTEM_ROLE:
                roles.add(f"{path}.{role}")
            for part in rest:
                _spread(part, f"{path}.{text_key}", True, out, parts, record, roles)
            for key, other in item.items():
                if key not in (role_key, text_key):         # a call's arguments are words
                    _spread(_without_arguments(other) if key in CALL_KEYS else other,
                            f"{path}.{key}", True, out, parts, record, roles)
    elif path in record and not isinstance(record[path], (dict, list)):
        return                    # a top-level key spelled like this path wins
    elif in_list:
        if path not in parts:
            if path in out:
                return            # already a scalar field: the first value wins
            parts[path] = []
            out[path] = None      # keep the field's place in document order
        if value is not None:
            parts[path].append(scalar_text(value))
    elif path not in out:
        out[path] = value


def fields_steps(records: list[dict]):
    """Field names in first-seen order; keys with lone surrogates are repaired."""
    seen: dict[str, None] = {}
    pacer = Pacer()
    for record in records:
        for key in record:
            if key not in seen:
                seen[key] = None
        if pacer.due():
            yield len(seen)
    if any(_SURROGATE.search(key) for key in seen):
        for i, record in enumerate(records):
            records[i] = {repair_surrogates(k): v for k, v in record.items()}
        return list(dict.fromkeys(repair_surrogates(k) for k in seen))
    return list(seen)


def _flat_records_steps(values, name: str):
    """Records from parsed rows, flattened; returns (records, listed field names, chat
    role field names)."""
    records: list[dict] = []
    listed: set[str] = set()
    roles: set[str] = set()
    pacer = Pacer()
    for i, value in enumerate(values, 1):
        records.append(flatten_record(as_record(value, name, f"item {i}", row=i), listed, roles))
        if pacer.due():
            yield len(records)
    return records, listed, roles


def table_from_records(source: str, format: str, records: list, **attributes) -> Table:
    """A Table of already parsed records (e.g. Parquet rows), flattened like JSON's.

        >>> table_from_records("t.parquet", "parquet", [{"q": {"text": "Hi"}}]).fields
        ['q.text']
    """
    return run_steps(table_from_records_steps(source, format, records, **attributes))


def table_from_records_steps(source: str, format: str, values: list, **attributes):
    records, listed, roles = yield from _flat_records_steps(values, source)
    fields = yield from fields_steps(records)
    return Table(source, format, fields, records,
                 list_fields=[f for f in fields if f in listed],
                 role_fields=[f for f in fields if f in roles], **attributes)


@dataclass(frozen=True)
class RowFiles:
    """Which file each B row came from, when several files are read as one.

    ``starts[i]`` is the 0-based number of file ``names[i]``'s first row::

        >>> files = RowFiles((0, 3), ("part-1.jsonl", "part-2.jsonl"))
        >>> files.name_of(2), files.name_of(3), files.several
        ('part-1.jsonl', 'part-2.jsonl', True)
    """
    starts: tuple[int, ...]
    names: tuple[str, ...]

    def name_of(self, row: int) -> str:
        return self.names[bisect_right(self.starts, row) - 1]

    @property
    def several(self) -> bool:
        return len(self.names) > 1
