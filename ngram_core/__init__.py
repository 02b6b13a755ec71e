"""ngram_core: find the word sequences a test set shares with a training file.

Stages, one module each: :mod:`~ngram_core.readers` (bytes -> a Table, with
:mod:`~ngram_core.json_rows` and :mod:`~ngram_core.delimited` per format and
the shapes in :mod:`~ngram_core.table`), :mod:`~ngram_core.fields` (which
fields are the text and the id -> Rows), :mod:`~ngram_core.tokenize` (rows ->
token ids and character ranges), :mod:`~ngram_core.index` (B's n-token
windows), :mod:`~ngram_core.match` (walk A against the index),
:mod:`~ngram_core.report` (summary and sentences) and
:mod:`~ngram_core.export` (the CSV files); :mod:`~ngram_core.check` runs them
as resumable steps with :mod:`~ngram_core.settings`, and returns a
:mod:`~ngram_core.result`. The front ends: :mod:`~ngram_core.cli` (with
:mod:`~ngram_core.files` for paths) and :mod:`~ngram_core.distributed` (Dask).
Standard library only; nothing here prints.
"""

from .check import CheckCache, CheckResult, Progress, check_steps, run_check
from .errors import InputError
from .fields import read_rows, select_rows
from .readers import read_table
from .table import Row, Table
from .settings import Settings

__version__ = "0.1.0"
__all__ = ["CheckCache", "CheckResult", "InputError", "Progress", "Row", "Settings", "Table",
           "check_steps", "read_rows", "read_table", "run_check", "select_rows"]
