"""A shared link's state: the query string <-> settings and chosen fields. Pure: no browser.

A link carries the settings (``n``, ``threshold`` exactly as typed, ``mode``,
``layers``, ``short_min`` when not the default, ``max_b_rows`` when the
frequency filter is on, ``keep_template=1`` when file A's template is matched
too, ``leave_out`` repeated: each passage left out of the check) and each slot's
chosen fields (``a_field`` repeated,
``a_id``; ``b_...``), never a file's content; the files' names go in the
fragment (:func:`linked_files`), which no request carries. Parsing and building follow the URL
standard's ``application/x-www-form-urlencoded`` rules, as ``URLSearchParams``
does, so the link the page writes is the one the browser's own serializer would.

    >>> query = parse_query("?n=8&a_field=question&a_field=context&a_id=")
    >>> query["a_field"], link_controls(query).n
    (['question', 'context'], '8')
    >>> build_query(8, "0", "strict", (), {"a": FieldChoice(["text"], True, None)})
    '?n=8&threshold=0&mode=strict&a_field=text&a_id='
    >>> link = build_query(13, "0", "strict", (), {}, leave_out=("Licensed under MIT & co",))
    >>> link, link_controls(parse_query(link)).leave_out
    ('?n=13&threshold=0&mode=strict&leave_out=Licensed+under+MIT+%26+co', ('Licensed under MIT & co',))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple
from urllib.parse import parse_qsl

from ngram_core.method.settings import SHORT_MIN_DEFAULT
from ngram_core.method.similar import REPHRASE_THRESHOLD
from ngram_core.method.tokenize import LAYERS

_SAFE = frozenset(b"*-._0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class LinkControls:
    """What a link sets on the controls; ``None`` leaves a control as it is."""
    n: str | None = None             # as typed: the control says what is wrong with it
    threshold: str | None = None
    strict: bool = False
    layers: frozenset | None = None  # the layers to tick (of LAYERS); None: leave them
    unknown_layers: tuple[str, ...] = ()   # named by the link, none of LAYERS
    short_min: str | None = None
    max_b_rows: str | None = None    # None: the filter stays off
    keep_template: bool = False
    leave_out: tuple[str, ...] = ()
    rephrase: str | None = None      # the rephrase lens's threshold, as the link has it


@dataclass(frozen=True)
class FieldChoice:
    """A slot's chosen fields: ``text_fields`` None means detected, ``id_chosen``
    False means the id field is detected, else ``id_field`` None means row numbers."""
    text_fields: list | None = None
    id_chosen: bool = False
    id_field: str | None = None


def parse_query(search: str) -> dict[str, list[str]]:
    """A query string (``?a=1&a=2``) as ``{name: [values]}``, values in order."""
    query: dict[str, list[str]] = {}
    for name, value in parse_qsl(search.removeprefix("?"), keep_blank_values=True,
                                 errors="replace"):
        query.setdefault(name, []).append(value)
    return query


def _first(query: dict[str, list[str]], name: str) -> str | None:
    return query[name][0] if name in query else None


def link_controls(query: dict[str, list[str]]) -> LinkControls:
    """The control values a parsed link asks for; layers it names that are none of
    :data:`LAYERS` leave the layers as they are, and are said::

        >>> link_controls(parse_query("?layers=L1,L2")).layers == {"L1", "L2"}
        True
        >>> link = link_controls(parse_query("?layers=L1,L9"))
        >>> link.layers, link.unknown_layers
        (None, ('L9',))
    """
    layers: frozenset | None = None
    unknown: tuple[str, ...] = ()
    if "layers" in query:
        chosen = [part.strip().upper() for part in query["layers"][0].split(",")]
        unknown = tuple(part for part in chosen if part and part not in LAYERS)
        layers = None if unknown else frozenset(layer for layer in LAYERS if layer in chosen)
    return LinkControls(n=_first(query, "n"), threshold=_first(query, "threshold"),
                        unknown_layers=unknown,
                        strict=query.get("mode", [""])[0] == "strict", layers=layers,
                        short_min=_first(query, "short_min"),
                        max_b_rows=_first(query, "max_b_rows"),
                        keep_template=_first(query, "keep_template") == "1",
                        leave_out=tuple(t for t in query.get("leave_out", []) if t.strip()),
                        rephrase=_first(query, "rephrase"))


def asked_choice(query: dict[str, list[str]], key: str) -> FieldChoice:
    """Slot ``key``'s fields as a link names them, whatever file is loaded."""
    text_fields = query.get(f"{key}_field") or None
    values = query.get(f"{key}_id")
    if not values:
        return FieldChoice(text_fields)
    return FieldChoice(text_fields, True, values[0] or None)


def applicable(choice: FieldChoice, fields) -> FieldChoice:
    """The part of a choice a file with these fields can take: fields it lacks
    are dropped (no text field left: detected; a missing id field: detected)."""
    have = set(fields)
    text_fields = [f for f in choice.text_fields or [] if f in have] or None
    id_chosen = choice.id_chosen and (choice.id_field is None or choice.id_field in have)
    return FieldChoice(text_fields, id_chosen, choice.id_field if id_chosen else None)


def field_choice(query: dict[str, list[str]], key: str, fields: list[str]) -> FieldChoice:
    """Slot ``key``'s fields as a link names them, keeping only fields the file has."""
    return applicable(asked_choice(query, key), fields)


def build_query(n: int, threshold: str, mode: str, layers: tuple,
                choices: dict[str, FieldChoice], *, short_min: int = SHORT_MIN_DEFAULT,
                max_b_rows: int | None = None, keep_template: bool = False,
                leave_out: tuple[str, ...] = (),
                rephrase: float = REPHRASE_THRESHOLD) -> str:
    """The query string (with its ``?``) a link to these settings and fields carries.

    ``threshold`` is the text the person typed (stripped), so the link opens
    on exactly the value compared, never a rounded one; ``rephrase``, the rephrase
    lens's threshold, is named only when it is not the default (a float's shortest
    text, which reads back as the same float).
    """
    params = [("n", str(n)), ("threshold", str(threshold).strip()), ("mode", mode)]
    if mode == "loose":
        params.append(("layers", ",".join(layers)))
    if short_min != SHORT_MIN_DEFAULT:
        params.append(("short_min", str(short_min)))
    if max_b_rows is not None:
        params.append(("max_b_rows", str(max_b_rows)))
    if keep_template:
        params.append(("keep_template", "1"))
    if rephrase != REPHRASE_THRESHOLD:
        params.append(("rephrase", repr(float(rephrase))))
    params += [("leave_out", text) for text in leave_out]
    for key, choice in choices.items():
        for field in choice.text_fields or []:
            params.append((f"{key}_field", field))
        if choice.id_chosen:
            params.append((f"{key}_id", choice.id_field or ""))
    return "?" + "&".join(f"{_encode(name)}={_encode(value)}" for name, value in params)


#: The slots whose files a link names, in its fragment.
FILE_SLOTS = ("a", "b")


class ViewLink(NamedTuple):
    """The explorer's view a link names: the kind of row shown, the sort (``column:desc``
    or ``column:asc``), the search, and the open row (A's row, 1-based); None and
    ``""``: as the page opens."""
    show: str | None = None
    sort: str | None = None
    search: str = ""
    row: int | None = None


def linked_files(fragment: str) -> dict[str, list[str]]:
    """The names of the files a link was made with, by slot, from its fragment (the
    part after ``#``, which the browser never sends to any server): names only, never
    what the files hold::

        >>> linked_files("#a_file=test.json&b_file=part-1.jsonl&b_file=part-2.jsonl")
        {'a': ['test.json'], 'b': ['part-1.jsonl', 'part-2.jsonl']}
        >>> linked_files("")
        {}
    """
    query = parse_query(fragment.removeprefix("#"))
    return {key: [name for name in query[f"{key}_file"] if name]
            for key in FILE_SLOTS if any(query.get(f"{key}_file", []))}


def linked_view(fragment: str) -> ViewLink:
    """The explorer's view a link's fragment names (a search may hold the files' words,
    so it stays in the fragment too)::

        >>> linked_view("#a_file=t.json&show=flagged&sort=tokens%3Aasc&search=fox&row=3")
        ViewLink(show='flagged', sort='tokens:asc', search='fox', row=3)
        >>> linked_view("#row=x").row is None
        True
    """
    query = parse_query(fragment.removeprefix("#"))
    row = _first(query, "row")
    return ViewLink(_first(query, "show"), _first(query, "sort"), _first(query, "search") or "",
                    int(row) if row and row.isdigit() and int(row) > 0 else None)


def files_fragment(names: dict[str, list[str]], view: ViewLink = ViewLink()) -> str:
    """The fragment naming each slot's files and the explorer's view (see
    :func:`linked_files`, :func:`linked_view`), or ``""``::

        >>> files_fragment({"a": ["my test.json"], "b": ["train.jsonl"]})
        '#a_file=my+test.json&b_file=train.jsonl'
        >>> files_fragment({"a": ["t.json"]}, ViewLink("flagged", "tokens:asc", "", 3))
        '#a_file=t.json&show=flagged&sort=tokens%3Aasc&row=3'
    """
    params = [(f"{key}_file", name) for key in FILE_SLOTS for name in names.get(key, [])]
    for name, value in (("show", view.show), ("sort", view.sort), ("search", view.search),
                        ("row", None if view.row is None else str(view.row))):
        if value:
            params.append((name, value))
    return "#" + "&".join(f"{_encode(k)}={_encode(v)}" for k, v in params) if params else ""


def _encode(text: str) -> str:
    """The form-urlencoded serializer: UTF-8, space as ``+``, only ``*-._`` and
    ASCII letters and digits kept (lone surrogates become U+FFFD, as in a USVString)."""
    data = _SURROGATE.sub("\ufffd", text).encode("utf-8")
    return "".join(chr(b) if b in _SAFE else "+" if b == 0x20 else f"%{b:02X}" for b in data)
