"""JSON and JSON Lines -> a :class:`~ngram_core.table.Table` of flat records.

A JSON document's rows are the items of one of its arrays, named by a dotted
path (``data.paragraphs.qas``: every ``qas`` item of every paragraph of every
``data`` entry). By default: when the top level holds arrays named like
splits, A reads test (then validation, dev, eval) and B reads train;
otherwise an array of objects before an array of strings, the one with the
most items, ties to the one whose items carry ids, then more text, then the
shallower path, then the first in the document.
Fields of the objects that enclose a nested array's items come with each row,
named by their full path (SQuAD's ``data.paragraphs.context``)::

    >>> doc = b'{"train": [{"q": "x"}], "test": [{"q": "y"}, {"q": "z"}]}'
    >>> table = run_steps(read_json_steps(doc.decode(), "d.json", "json", ReadOptions(role="b")))
    >>> table.records_path, [r["q"] for r in table.records]
    ('train', ['x'])

Nesting deeper than MAX_JSON_DEPTH is refused before parsing.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field

from ..errors import InputError
from ..steps import Pacer, run_steps
from ..table import (ARRAY_ROWS_NOTE, ID_FIELD_NAMES, ID_SUFFIXES, ReadOptions, RecordArray,
                    Table, as_record, fields_steps, flatten_record, join_path,
                    repair_surrogates, split_lines, table_from_records_steps)

#: Top-level array names read as dataset splits: file A takes the first of
#: SPLITS_A present, file B the first of SPLITS_B.
SPLITS_A = ("test", "testing", "validation", "valid", "val", "dev", "development",
            "eval", "evaluation")
SPLITS_B = ("train", "training")

#: Deepest JSON nesting read. Deeper documents are refused before parsing:
#: in the browser the parser's recursion would overflow the WebAssembly stack
#: and kill the interpreter, taking the page with it.
MAX_JSON_DEPTH = 100
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_EMPTY_PAIR = re.compile(r"\[\]|\{\}")


def json_too_deep(text: str, limit: int = MAX_JSON_DEPTH) -> bool:
    """True when brackets outside strings nest deeper than ``limit``.

    Each pass deletes the innermost ``[]``/``{}`` pairs, so a document of depth
    d empties in d passes: ``json_too_deep("[[1]]", 1)`` is True.
    """
    if text.count("[") + text.count("{") <= limit:
        return False
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    for _ in range(limit):
        inner = _EMPTY_PAIR.sub("", brackets)
        if inner == brackets or not inner:
            return False          # empty: shallow enough; stuck: unbalanced, json says so
        brackets = inner
    return bool(brackets)


#: The JSON scanner ``json.loads`` runs, called directly for a line that starts
#: with ``{`` (a JSON Lines row): the same value, without three wrapper calls a row.
_SCAN = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def _loads(text: str):
    """json.loads, refusing nesting deeper than MAX_JSON_DEPTH first.

    A text that starts with ``{`` is scanned at once, and its value is json.loads's
    when nothing but JSON whitespace follows it; any other text, and any text the
    scanner refuses, goes through json.loads itself (so every error is its own)::

        >>> [_loads(t) for t in ('{"a": [1, "é"]} \\r', ' {"a": 1}', '"x"')]
        [{'a': [1, 'é']}, {'a': 1}, 'x']
        >>> _loads('{"a": 1} {')
        Traceback (most recent call last):
        json.decoder.JSONDecodeError: Extra data: line 1 column 10 (char 9)
    """
    if json_too_deep(text):
        raise RecursionError
    if text[:1] == "{":
        try:
            value, end = _SCAN(text, 0)
        except (ValueError, StopIteration, RecursionError):
            pass
        else:
            if end == len(text) or not text[end:].strip(" \t\n\r"):
                return value
    return json.loads(text)


def parses_as_json(text: str) -> bool:
    try:
        _loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def json_reason(e: json.JSONDecodeError) -> str:
    """What the JSON parser says is wrong, without the ``at`` its own message runs on
    with (``Invalid control character at: line 1 column 31``)::

        >>> try:
        ...     json.loads('"a' + chr(9) + 'b"')
        ... except json.JSONDecodeError as e:
        ...     json_reason(e)
        'Invalid control character'
    """
    return e.msg.removesuffix(" at")


def _json_error(name: str, e: Exception, line_offset: int = 0) -> InputError:
    if isinstance(e, json.JSONDecodeError):
        return InputError(name, f"is not valid JSON: {json_reason(e)} (column {e.colno})",
                          line=e.lineno + line_offset)
    if isinstance(e, RecursionError):
        return InputError(name, f"is not usable JSON: nested more than {MAX_JSON_DEPTH} "
                                f"levels deep",
                          line=(line_offset + 1) if line_offset else None)
    return InputError(name, f"is not usable JSON: {e}",
                      line=(line_offset + 1) if line_offset else None)


# --- JSON: which array holds the rows ---------------------------------------------

@dataclass
class _Array:
    """What the walk of a document learned about one array path."""
    keys: tuple
    order: int
    nested: bool = False          # reached through the items of another array
    items: int = 0
    objects: bool = False         # some item is an object
    usable: bool = True           # every item is an object or a string
    ids: bool = False             # some item has an id-named key
    text: int = 0                 # characters of the strings in its items (see _text_chars)

    @property
    def path(self) -> str:
        return ".".join(self.keys)


def _has_id_key(item: dict) -> bool:
    return any(isinstance(k, str) and (k.lower() in ID_FIELD_NAMES or
                                       k.lower().endswith(ID_SUFFIXES)) for k in item)


def _text_chars(item, depth: int = 2) -> int:
    """Characters of the strings in an array's item: the item itself, or its values
    and those of the objects inside it, ``depth`` levels down (not inside lists).

        >>> _text_chars({"row_idx": 0, "row": {"question": "Why?", "answer": "No"}})
        6
    """
    if isinstance(item, str):
        return len(item)
    if not isinstance(item, dict) or depth == 0:
        return 0
    return sum(len(v) if isinstance(v, str) else _text_chars(v, depth - 1)
               for v in item.values() if isinstance(v, (str, dict)))


def _note_array(found: dict, keys: tuple, value: list, nested: bool) -> None:
    info = found.get(keys)
    if info is None:
        info = found[keys] = _Array(keys, len(found))
    info.nested = info.nested or nested
    info.items += len(value)
    for item in value:
        if isinstance(item, dict):
            info.objects = True
            if not info.ids and _has_id_key(item):
                info.ids = True
        elif not isinstance(item, str):
            info.usable = False
            break
        info.text += _text_chars(item)


def json_arrays_steps(document):
    """Every array in a JSON document, in document order, by dotted path.

    The walk goes through objects and through the objects inside arrays, so
    ``data.paragraphs.qas`` gathers the ``qas`` arrays of every paragraph of
    every item of ``data``; a path's item count is summed over them. Yields
    progress; returns ``{keys: _Array}``.
    """
    found: dict[tuple, _Array] = {}
    stack = [iter([((), document, False)])]
    pacer = Pacer()
    while stack:
        entry = next(stack[-1], None)
        if entry is None:
            stack.pop()
            continue
        keys, value, nested = entry
        if isinstance(value, list):
            _note_array(found, keys, value, nested)
        stack.append(_children(keys, value, nested))
        if pacer.due():
            yield len(found)
    return found


def _children(keys: tuple, value, nested: bool):
    """The containers inside one list (its objects) or object (its values), to walk."""
    if isinstance(value, list):
        return ((keys, item, True) for item in value if isinstance(item, dict))
    return ((keys + (repair_surrogates(k),), v, nested) for k, v in value.items()
            if isinstance(v, (dict, list)))


def _candidates(found: dict) -> list[_Array]:
    """The arrays that can hold rows (non-empty, objects or strings), one per path name."""
    seen, out = set(), []
    for info in found.values():
        if info.usable and info.items and info.path not in seen:
            seen.add(info.path)
            out.append(info)
    return out


def _split_choice(candidates: list[_Array], role: str | None) -> tuple[_Array | None, str]:
    """With two or more top-level arrays named like splits: the one for ``role``."""
    splits = {c.keys[0].lower(): c for c in candidates if len(c.keys) == 1
              and c.keys[0].lower() in SPLITS_A + SPLITS_B}
    if len(splits) < 2:
        return None, ""
    wanted = SPLITS_B if role == "b" else SPLITS_A
    others = ", ".join(f"`{c.path}`" for c in splits.values())
    for name in wanted:
        if name in splits:
            side = "B, the training data" if role == "b" else "A, the test set"
            return splits[name], (f"the file holds the splits {others}: read `{splits[name].path}` "
                                  f"as file {side}")
    return None, f"the file holds the splits {others}, none named like {wanted[0]}"


def default_array(candidates: list[_Array], role: str | None = None) -> tuple[_Array, str]:
    """The array whose items are the rows of a top-level JSON object, and a note.

    Split arrays first (:data:`SPLITS_A` for A, :data:`SPLITS_B` for B). Else an
    array reached through another array's items (choices, answers) counts only
    when its items carry an id-named key (SQuAD's ``qas``); among those, arrays
    of objects before arrays of strings, then the most items; between as many
    items, the one whose items carry ids (SQuAD's ``qas`` with one question per
    article), then the one with more text in its items (a dataset viewer's
    ``rows`` beside its ``features``), then the shallower path, then the first
    in the document.
    """
    chosen, note = _split_choice(candidates, role)
    if chosen is not None:
        return chosen, note
    eligible = [c for c in candidates if not c.nested or (c.objects and c.ids)] or candidates
    best = min(eligible, key=lambda c: (not c.objects, -c.items, not c.ids, -c.text,
                                        len(c.keys), c.order))
    return best, note


def _arrays_listing(candidates: list[_Array], skip: str | None, limit: int = 5) -> str:
    others = [c for c in candidates if c.path != skip]
    shown = ", ".join(f"`{c.path}` ({c.items:,})" if c.path else f"the top-level array "
                      f"({c.items:,})" for c in others[:limit])
    return shown + (f" and {len(others) - limit} more" if len(others) > limit else "")


def _forced_array(name: str, document, candidates: list[_Array], path: str) -> _Array:
    for c in candidates:
        if c.path == path:
            return c
    if path == "" and isinstance(document, list):
        return _Array((), 0)
    listing = _arrays_listing(candidates, None, 20) or "none"
    raise InputError(name, f"has no array of rows at `{path}`; its arrays are {listing}")


def _rows_at(node, keys: tuple, listed: set, depth: int = 0, outer: dict | None = None,
             prefix: str = ""):
    """Yield ``(item, outer fields)`` for every item of the arrays at ``keys``.

    The outer fields of an item are the flattened fields of every array item
    enclosing it on the path, other than the key leading on, each named by
    that array's path: a SQuAD question gets ``data.paragraphs.context``.
    The names of list-made outer fields are added to ``listed``.
    """
    outer = outer or {}
    if depth == len(keys):
        if isinstance(node, list):
            for item in node:
                yield item, outer
        return
    if isinstance(node, list):            # an array on the way: its items enclose the rows
        for item in node:
            if isinstance(item, dict):
                yield from _rows_at(item, keys, listed, depth,
                                    _outer_of(item, keys[depth], prefix, outer, listed), prefix)
        return
    if isinstance(node, dict):
        child = node.get(keys[depth])
        if child is None:
            child = next((v for k, v in node.items() if repair_surrogates(k) == keys[depth]), None)
        yield from _rows_at(child, keys, listed, depth + 1, outer,
                            join_path(prefix, keys[depth]))


def _outer_of(item: dict, leading: str, prefix: str, outer: dict, listed: set) -> dict:
    """``outer`` plus the fields of one enclosing item but ``leading``, named under ``prefix``."""
    own = {k: v for k, v in item.items() if repair_surrogates(k) != leading}
    merged = dict(outer)
    own_listed: set[str] = set()
    for path, value in flatten_record(own, own_listed).items():
        merged.setdefault(join_path(prefix, repair_surrogates(path)), value)
    listed.update(join_path(prefix, repair_surrogates(path)) for path in own_listed)
    return merged


def read_json_steps(text: str, name: str, fmt: str, options: ReadOptions):
    yield 0
    try:
        document = _loads(text)
    except (ValueError, RecursionError) as e:
        raise _json_error(name, e) from None
    if not isinstance(document, (list, dict)):
        as_record(document, name, "the top level of the JSON")     # a number, true, null: refused
        return (yield from table_from_records_steps(name, fmt, [document]))   # a string
    shaped = _object_table(document) if options.records is None else None
    if shaped is not None:
        records, shape = shaped
        table = yield from table_from_records_steps(name, fmt, records)
        table.notes.append(f"rows are the {len(records):,} {shape}")
        return table
    found = yield from json_arrays_steps(document)
    candidates = _candidates(found)
    chosen, note = _choose_array(name, document, candidates, options)
    if chosen is None:
        table = yield from table_from_records_steps(name, fmt, [document])
        table.notes.append("the JSON object is read as one row")
        return table
    table = yield from _table_at_steps(name, fmt, document, chosen)
    table.arrays = [RecordArray(c.path, c.items, c.objects) for c in candidates]
    if note:
        table.notes.append(note)
    if isinstance(document, dict):
        table.notes.append(_rows_note(table, candidates))
    elif document:
        table.notes.extend(_array_rows(document[0]))
    return table


# --- JSON: a table written as an object ------------------------------------------

def _row_labels(keys) -> bool:
    """Whether every key holds a digit, as row labels do ("0" in pandas' index, ids
    such as "q-17") and field names seldom do."""
    return all(any(c.isdigit() for c in k) for k in keys)


def _object_table(document) -> tuple[list[dict], str] | None:
    """The rows of a JSON object that is a table not written as an array of rows,
    and what they are; None for any other document.

    - pandas' ``to_json(orient="split")``: ``{"columns": [...], "data": [[...], ...]}``;
    - by columns, pandas' default ``to_json()``: ``{"question": {"0": "...", "1":
      "..."}, "answer": {...}}``, each column an object keyed by the same rows
      (the keys that hold digits are the rows' labels; when only the inner keys
      do, the cells may be lists or objects, as in MS MARCO's ``passages``; when
      both or neither do, the cells are plain and the more numerous are rows), or a
      Hugging Face ``Dataset.to_dict()``: ``{"question": [...], "answer": [...]}``,
      two or more lists of the same length, none holding objects;
    - by row, pandas' ``orient="index"`` or items keyed by their ids: ``{"q1":
      {"question": ...}, "q2": {...}}``, each value an object sharing a field
      with the first; the key is kept as the field ``key``;
    - strings keyed by row, pandas' ``Series.to_json()`` or texts keyed by
      their ids: ``{"0": "...", "1": "..."}``, every key holding a digit; the
      fields ``key`` and ``value``.

    An object whose keys are split names (``{"train": {...}, "test": {...}}``)
    is none of these. ::

        >>> _object_table({"question": {"0": "a b", "1": "c d"}, "label": {"0": 1, "1": 0}})
        ([{'question': 'a b', 'label': 1}, {'question': 'c d', 'label': 0}], 'rows of a table written by columns')
        >>> _object_table({"q1": {"question": "a b"}, "q2": {"question": "c d"}})[0]
        [{'key': 'q1', 'question': 'a b'}, {'key': 'q2', 'question': 'c d'}]
    """
    if not isinstance(document, dict) or len(document) == 0:
        return None
    columns, data = document.get("columns"), document.get("data")
    if {"columns", "data"} <= document.keys() <= {"columns", "data", "index", "name"} \
            and isinstance(columns, list) and isinstance(data, list) \
            and all(isinstance(c, str) for c in columns) \
            and all(isinstance(r, list) and len(r) == len(columns) for r in data):
        return [dict(zip(columns, r)) for r in data], "rows of `data` (with `columns`)"
    values = list(document.values())
    outer = list(document)
    if any(k.lower() in SPLITS_A + SPLITS_B for k in outer):
        return None
    if len(values) >= 2 and all(isinstance(v, list) and v and len(v) == len(values[0]) and
                                not any(isinstance(x, dict) for x in v) for v in values):
        return ([dict(zip(outer, row)) for row in zip(*values)],
                "rows of a table written by columns")
    if len(values) >= 2 and all(isinstance(v, str) for v in values) and _row_labels(outer):
        return ([{"key": k, "value": v} for k, v in document.items()],
                "strings of the object, keyed by row")
    if not all(isinstance(v, dict) and v for v in values):
        return None
    inner = list(values[0])
    plain = all(not isinstance(x, (dict, list)) for v in values for x in v.values())
    inner_rows, outer_rows = _row_labels(inner), _row_labels(outer)
    if all(list(v) == inner for v in values) and \
            (inner_rows and not outer_rows or
             plain and inner_rows == outer_rows and len(inner) > len(outer)):
        return ([{col: document[col][row] for col in outer} for row in inner],
                "rows of a table written by columns")
    first = set(inner)
    if len(values) >= 2 and all(first & v.keys() for v in values):
        key = "key" if not any("key" in v for v in values) else "key_"
        return ([{key: k, **v} for k, v in document.items()],
                "items of the object, keyed by row")
    return None


def _choose_array(name: str, document, candidates: list[_Array], options: ReadOptions):
    """The array the rows are the items of (None: the document is one row), and a note."""
    if options.records is not None:
        return _forced_array(name, document, candidates, options.records), ""
    if isinstance(document, list):
        return _Array((), 0), ""
    if not document:
        raise InputError(name, "is an empty JSON object: it holds no rows")
    if candidates and not _one_record(document, candidates):
        return default_array(candidates, options.role)
    return None, ""                       # a single object is a single row


def _one_record(document: dict, candidates: list[_Array]) -> bool:
    """Whether a JSON object with arrays is itself one record: its arrays are
    top-level lists of strings only (no objects: no rows of fields), two or
    more of them parallel (the same length), holding fewer characters all
    together than the object's own strings. RACE's files are one article
    each, with parallel short ``questions`` and ``answers``; a description
    beside 500 sentences, or an instruction beside a list of questions, are
    the sentences and the questions::

        >>> race = {"article": "A long passage. " * 20, "questions": ["Why?", "Who?"],
        ...         "answers": ["A", "C"], "id": "high1.txt"}
        >>> _one_record(race, _candidates(run_steps(json_arrays_steps(race))))
        True
        >>> asked = {"instruction": "Answer briefly. " * 20, "questions": ["Why?", "Who?"]}
        >>> _one_record(asked, _candidates(run_steps(json_arrays_steps(asked))))
        False
    """
    if any(c.objects for c in candidates):
        return False
    own = sum(len(v) for v in document.values() if isinstance(v, str))
    listed, lengths = 0, []
    for c in candidates:
        items = document.get(c.keys[0]) if len(c.keys) == 1 else None
        if not isinstance(items, list):
            return False                  # nested deeper: an array of rows
        listed += sum(len(x) for x in items if isinstance(x, str))
        lengths.append(len(items))
    parallel = max(Counter(lengths).values()) >= 2
    return parallel and own > listed


def _rows_note(table: Table, candidates: list[_Array]) -> str:
    others = _arrays_listing(candidates, table.records_path)
    note = f"rows are the {len(table):,} items of `{table.records_path}`"
    return note + (f"; other arrays: {others}" if others else "")


def _table_at_steps(name: str, fmt: str, document, chosen: _Array):
    """The Table of the items of one array path, with the outer fields after the own."""
    where = chosen.path
    records: list[dict] = []
    listed: set[str] = set()
    roles: set[str] = set()
    pacer = Pacer()
    outer_names: dict[str, None] = {}
    for i, (item, outer) in enumerate(_rows_at(document, chosen.keys, listed), 1):
        what = f"item {i}" if not where else f"item {i} of `{where}`"
        record = flatten_record(as_record(item, name, what, row=i), listed, roles)
        if outer:
            record = dict(record)
            for key, value in outer.items():
                if key not in record:
                    record[key] = value
                    outer_names[key] = None
        records.append(record)
        if pacer.due():
            yield len(records)
    fields = yield from fields_steps(records)
    outer_set = {repair_surrogates(k) for k in outer_names}
    fields = [f for f in fields if f not in outer_set] + [f for f in fields if f in outer_set]
    return Table(name, fmt, fields, records, [], records_path=chosen.path,
                 list_fields=[f for f in fields if f in listed],
                 outer_fields=[f for f in fields if f in outer_set],
                 role_fields=[f for f in fields if f in roles])


def array_items_table(name: str, items: list, first_number: int, first_item: object) -> Table:
    """The Table of a run of a top-level array's items, the first numbered
    ``first_number`` (a piece of the array, read as :func:`_table_at_steps` reads it
    whole; ``first_item``: the array's first, for its note)."""
    listed: set[str] = set()
    roles: set[str] = set()
    records = [flatten_record(as_record(item, name, f"item {i}", row=i), listed, roles)
               for i, item in enumerate(items, first_number)]
    fields = run_steps(fields_steps(records))
    return Table(name, "json", fields, records, [], records_path="",
                 list_fields=[f for f in fields if f in listed], outer_fields=[],
                 role_fields=[f for f in fields if f in roles], notes=_array_rows(first_item))


# --- JSON Lines -------------------------------------------------------------------

def _array_rows(first) -> list[str]:
    """The note for rows that are arrays, when the first row is one."""
    return [ARRAY_ROWS_NOTE] if isinstance(first, list) else []


def read_jsonl_steps(text: str, name: str, fmt: str, options: ReadOptions):
    first = None                          # the first row, as JSON
    records: list[dict] = []
    lines: list[int] = []
    listed: set[str] = set()
    roles: set[str] = set()
    pacer = Pacer()
    for number, line in enumerate(split_lines(text), 1):
        if pacer.due():
            yield len(records)
        if not line.strip():
            continue
        try:
            value = _loads(line)
        except (ValueError, RecursionError) as e:
            if isinstance(e, json.JSONDecodeError):
                raise InputError(name, f"is not valid JSON Lines: {json_reason(e)} "
                                       f"(column {e.colno})",
                                 line=number) from None
            raise _json_error(name, e, number - 1) from None
        records.append(flatten_record(as_record(value, name, "this line", line=number), listed,
                                      roles))
        lines.append(number)
        if first is None:
            first = value
    fields = yield from fields_steps(records)
    return Table(name, fmt, fields, records, lines,
                 list_fields=[f for f in fields if f in listed],
                 role_fields=[f for f in fields if f in roles], notes=_array_rows(first))


