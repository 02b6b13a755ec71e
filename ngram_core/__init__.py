"""ngram_core: find the word sequences a test set shares with a training file.

Stages, one module each: :mod:`~ngram_core.readers` (bytes -> rows),
:mod:`~ngram_core.tokenize` (rows -> token ids and character ranges),
:mod:`~ngram_core.index` (B's n-token windows), :mod:`~ngram_core.match`
(walk A against the index), :mod:`~ngram_core.report` (summary, order, CSV);
:mod:`~ngram_core.check` runs them as resumable steps and
:mod:`~ngram_core.cli` is the ``ngram-overlap`` command. Standard library only;
nothing here prints.
"""

from .check import CheckCache, CheckResult, Progress, check_steps, run_check
from .errors import InputError
from .readers import Row, Table, read_rows, read_table, select_rows
from .settings import Settings

__version__ = "0.1.0"
__all__ = ["CheckCache", "CheckResult", "InputError", "Progress", "Row", "Settings", "Table",
           "check_steps", "read_rows", "read_table", "run_check", "select_rows"]
