"""ngram_core: find the word sequences a test set shares with a training file.

The stage is the folder, each with its contract in its ``__init__``, lowest first:
the shapes every stage shares (:mod:`~ngram_core.errors`, :mod:`~ngram_core.steps`,
:mod:`~ngram_core.table`); :mod:`~ngram_core.method` (rows -> tokens -> windows ->
matches); :mod:`~ngram_core.read` (bytes and paths -> tables -> rows);
:mod:`~ngram_core.report` (matches -> figures, definitions, the CSV files) and
:mod:`~ngram_core.write` (the files a run leaves); :mod:`~ngram_core.run` (a whole
check: :mod:`~ngram_core.run.check` in memory as resumable steps, streamed, on
Dask, a suite). The front ends at the root: :mod:`~ngram_core.cli`,
:mod:`~ngram_core.decontaminate` (with :mod:`~ngram_core.flags` and
:mod:`~ngram_core.terminal`) and :mod:`~ngram_core.argv` (the page's command line).
A module imports only from its own stage or a lower one. Standard library only;
nothing here prints.
"""

from .run.check import CheckCache, CheckResult, Progress, check_steps, run_check
from .errors import InputError
from .read.fields import read_rows, select_rows
from .read.readers import read_table
from .table import Row, Table
from .method.settings import Settings

__version__ = "0.1.0"
__all__ = ["CheckCache", "CheckResult", "InputError", "Progress", "Row", "Settings", "Table",
           "check_steps", "read_rows", "read_table", "run_check", "select_rows"]
