"""Records as data: the values a pandas DataFrame, an Arrow table or a Hugging Face
``Dataset`` hands over, as the same file would be read (see
:func:`ngram_core.table.scalar_text`): numpy arrays and lists as lists, numpy
scalars as numbers, dates and times in ISO form, decimals as written, bytes as
UTF-8 text, a missing value (``NaN``, ``NaT``, ``pd.NA``) as null. Anything else
raises :class:`~ngram_core.errors.InputError` naming the data, the row and the
column::

    >>> import datetime, decimal
    >>> json_value({"when": datetime.datetime(2019, 4, 25, 12, 57), "price": decimal.Decimal("3.10"),
    ...             "raw": b"caf\\xc3\\xa9", "tags": ("a", "b"), "gone": float("nan")})
    {'when': '2019-04-25T12:57:00', 'price': '3.10', 'raw': 'café', 'tags': ['a', 'b'], 'gone': None}
    >>> json_value({"x": object()}, "train", 4)
    Traceback (most recent call last):
    ...
    ngram_core.errors.InputError: train: row 5, column 'x' holds an object, which is not data: give text, numbers, true/false, dates, lists or records
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from ngram_core.errors import InputError

_PLAIN = (str, bool, int)


def json_value(value: Any, name: str = "data", row: int = 0, column: str = "") -> Any:
    """``value`` as JSON can hold it (see the module); ``name``, ``row`` (0-based) and
    ``column`` (a dotted path) say where a value that cannot be read lies."""
    if value is None or isinstance(value, _PLAIN):
        return value
    if isinstance(value, float):
        return None if math.isnan(value) else value
    if isinstance(value, Mapping):
        return {str(k): json_value(v, name, row, f"{column}.{k}" if column else str(k))
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_value(v, name, row, column) for v in value]
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).decode("utf-8", "replace")
    if isinstance(value, Decimal):
        return None if value.is_nan() else str(value)
    kind = type(value)
    module = kind.__module__.split(".")[0]
    if module == "numpy":
        if hasattr(value, "tolist"):                  # an array or a scalar
            if getattr(value, "dtype", None) is not None and value.dtype.kind == "M" \
                    and getattr(value, "ndim", 1) == 0:
                return None if value != value else str(value)    # NaT, or datetime64 as ISO
            return json_value(value.tolist(), name, row, column)
    if module == "pandas":
        if value is getattr(_pandas(), "NA", None) or value is getattr(_pandas(), "NaT", None):
            return None
    if hasattr(value, "isoformat"):                   # datetime, date, time, Timestamp
        try:
            return value.isoformat()
        except (TypeError, ValueError):               # NaT
            return None
    if hasattr(value, "as_py"):                       # a pyarrow scalar
        return json_value(value.as_py(), name, row, column)
    if hasattr(value, "to_pylist"):                   # a pyarrow array
        return json_value(value.to_pylist(), name, row, column)
    raise InputError(name, f"row {row + 1}, column {column!r} holds {kind_of(value)}, which "
                           f"is not data: give text, numbers, true/false, dates, lists or "
                           f"records")


def kind_of(value: Any) -> str:
    """A value's type with its article, for a message: ``an int``, ``a dict``."""
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _pandas() -> Any:
    import sys
    return sys.modules.get("pandas")
