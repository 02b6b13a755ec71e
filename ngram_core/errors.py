"""The one exception the package raises for bad input.

Every problem with a user's file becomes an :class:`InputError` that names the
file and, where it applies, the line or row, so a caller can show one clear
message and keep its last good result::

    >>> str(InputError("train.jsonl", "not valid JSON: Expecting value", line=7))
    'train.jsonl, line 7: not valid JSON: Expecting value'
"""

from __future__ import annotations


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
        where = self.source
        if self.line is not None:
            where += f", line {self.line}"
        elif self.row is not None:
            where += f", row {self.row}"
        return f"{where}: {self.message}" if where else self.message


def _rebuild(source, message, line, row):
    return InputError(source, message, line=line, row=row)
