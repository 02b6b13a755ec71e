"""A shared link's state: the query string <-> settings and chosen fields. Pure: no browser.

A link carries the settings (``n``, ``threshold``, ``mode``, ``layers``) and
each slot's chosen fields (``a_field`` repeated, ``a_id``; ``b_...``), never
a file. Parsing and building follow the URL standard's
``application/x-www-form-urlencoded`` rules, as ``URLSearchParams`` does, so
the link the page writes is the one the browser's own serializer would.

    >>> query = parse_query("?n=8&a_field=question&a_field=context&a_id=")
    >>> query["a_field"], link_controls(query).n
    (['question', 'context'], '8')
    >>> build_query(8, 0.0, "strict", (), {"a": FieldChoice(["text"], True, None)})
    '?n=8&threshold=0&mode=strict&a_field=text&a_id='
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import parse_qsl

from ngram_core.tokenize import LAYERS

_SAFE = frozenset(b"*-._0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class LinkControls:
    """What a link sets on the controls; ``None`` leaves a control as it is."""
    n: str | None = None             # as typed: the control says what is wrong with it
    threshold: str | None = None
    strict: bool = False
    layers: frozenset | None = None  # the layers to tick (of LAYERS); None: leave them


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


def link_controls(query: dict[str, list[str]]) -> LinkControls:
    """The control values a parsed link asks for."""
    layers = None
    if "layers" in query:
        chosen = {part.strip().upper() for part in query["layers"][0].split(",")}
        layers = frozenset(layer for layer in LAYERS if layer in chosen)
    return LinkControls(n=query["n"][0] if "n" in query else None,
                        threshold=query["threshold"][0] if "threshold" in query else None,
                        strict=query.get("mode", [""])[0] == "strict", layers=layers)


def field_choice(query: dict[str, list[str]], key: str, fields: list[str]) -> FieldChoice:
    """Slot ``key``'s fields as a link names them, keeping only fields the file has."""
    have = set(fields)
    text_fields = [f for f in query.get(f"{key}_field", []) if f in have]
    values = query.get(f"{key}_id")
    first = values[0] if values else None
    id_chosen = first is not None and (first in have or first == "")
    return FieldChoice(text_fields or None, id_chosen, (first or None) if id_chosen else None)


def build_query(n: int, threshold: float, mode: str, layers: tuple,
                choices: dict[str, FieldChoice]) -> str:
    """The query string (with its ``?``) a link to these settings and fields carries."""
    params = [("n", str(n)), ("threshold", f"{threshold:g}"), ("mode", mode)]
    if mode == "loose":
        params.append(("layers", ",".join(layers)))
    for key, choice in choices.items():
        for field in choice.text_fields or []:
            params.append((f"{key}_field", field))
        if choice.id_chosen:
            params.append((f"{key}_id", choice.id_field or ""))
    return "?" + "&".join(f"{_encode(name)}={_encode(value)}" for name, value in params)


def _encode(text: str) -> str:
    """The form-urlencoded serializer: UTF-8, space as ``+``, only ``*-._`` and
    ASCII letters and digits kept (lone surrogates become U+FFFD, as in a USVString)."""
    data = _SURROGATE.sub("\ufffd", text).encode("utf-8")
    return "".join(chr(b) if b in _SAFE else "+" if b == 0x20 else f"%{b:02X}" for b in data)
