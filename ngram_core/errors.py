r"""The one exception the package raises for bad input.

Every problem with a user's file becomes an :class:`InputError` that names the
file and, where it applies, the line or row, so a caller can show one clear
message and keep its last good result::

    >>> str(InputError("train.jsonl", "not valid JSON: Expecting value", line=7))
    'train.jsonl, line 7: not valid JSON: Expecting value'

A file name that is not valid UTF-8 (bytes a terminal cannot show, kept by Python
as lone surrogates) is shown with those bytes escaped, so no message, CSV cell or
line of output fails to encode::

    >>> shown("caf\udcff.jsonl")
    'caf\\xff.jsonl'

Text shown to a person (a terminal, the page) has its control characters made
visible, so an id or a field name holding an escape sequence cannot clear a
screen, hide text or write a clipboard; files keep the bytes as they are::

    >>> visible("b\x1b]52;c;aGk=\x07 row\ttab")
    'b\\x1b]52;c;aGk=\\x07 row\ttab'
"""

from __future__ import annotations

import re

#: C0 and C1 control characters but tab and line feed, DEL, and the bidirectional
#: embeddings, overrides and isolates (U+202A-202E, U+2066-2069), which would turn
#: the text around a name shown in a sentence right to left.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """``text`` with every control character but tab and line feed written as
    ``\\xNN``, and each bidirectional control as ``\\uNNNN``: a file named
    ``gnp.jsonl`` after a right-to-left override shows as written, never as
    ``lnosj.png`` nor turning the rest of its sentence around::

        >>> print(visible("test\u202egnp.jsonl checked"))
        test\\u202egnp.jsonl checked
    """
    return _CONTROL.sub(_escaped, text)


def _escaped(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def shown(name: str) -> str:
    """A name as text that encodes as UTF-8: bytes that were not UTF-8 (Python's
    ``surrogateescape``) become ``\\xNN``; any other name is returned as it is."""
    if name.isascii():
        return name
    try:
        name.encode("utf-8")
        return name
    except UnicodeEncodeError:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


class InputError(ValueError):
    """A file (or a setting) that cannot be checked, with where and why."""

    def __init__(self, source: str, message: str, *, line: int | None = None,
                 row: int | None = None):
        self.source = source
        self.message = message
        self.line = line
        self.row = row
        super().__init__(str(self))

    def __reduce__(self):          # survive pickling (e.g. back from a Dask worker)
        return (_rebuild, (self.source, self.message, self.line, self.row))

    def __str__(self) -> str:
        where = visible(shown(self.source))     # a file name's bidi controls written out
        if self.line is not None:
            where += f", line {self.line}"
        elif self.row is not None:
            where += f", row {self.row}"
        return f"{where}: {shown(self.message)}" if where else shown(self.message)


def _rebuild(source, message, line, row):
    return InputError(source, message, line=line, row=row)
