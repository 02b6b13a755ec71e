"""ngram-overlap as a library: did a test set leak into training data, from Python.

Two calls, the command's two commands, with the same settings and the same figures
(the engine is :mod:`ngram_core`, the one the command and the page run)::

    >>> import ngram_overlap
    >>> test = ["the quick brown fox jumps over the lazy dog by the river bank at dawn",
    ...         "an unrelated question about prime numbers and their many curious properties"]
    >>> train = [{"id": "d1", "text": "yes: the quick brown fox jumps over the lazy dog by "
    ...                               "the river bank at dawn, once more"}]
    >>> result = ngram_overlap.check(test, train, n=13)
    >>> result.summary["flagged"], result.rows[0]["dirty_share"], result.rows[0]["b_id"]
    (1, 1.0, 'd1')
    >>> suite = ngram_overlap.decontaminate({"quiz": test}, train)   # out="cleaned/" writes
    >>> suite.removed[0]["id"], suite.mask()
    ('d1', [False])

``result.to_pandas()`` gives the rows as a DataFrame (with pandas installed); in a
notebook a result shows its verdict in a few kB. A test set or training data is a
path or a glob (``**`` descends into folders), a list of them (a list of strings
naming no file is text), a list of strings, a list of dicts
(records), a pandas DataFrame, a Hugging Face ``Dataset``, or any iterable of those
(a generator of training rows of any length streams: it is written to a temporary
JSON Lines file a row at a time and read back as the command reads one, then
removed). Strings become records ``{"text": ...}``; records are read as a JSON Lines
file of them is, fields detected alike (``text_field``/``id_field`` choose, and
every other flag of the command is a keyword: :mod:`ngram_overlap.options`).
Nothing here prints unless asked (``progress=True``); a bad input raises
:class:`InputError` naming the file and line. More: docs/library.md.
"""

from __future__ import annotations

import glob
import io
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, Union

from ngram_core.errors import InputError
from ngram_core.table import named_like_id
from ngram_core.read.files import (expand_paths, fields_of, index_b_whole, is_columnar,
                                   load_rows_by_file, several_test_files, strip_compression)
from ngram_core.read.readers import format_from_name
from ngram_core.report.result import training_accounts
from ngram_core.run.check import check_steps
from ngram_core.method.settings import Settings, check_jobs
from ngram_core.steps import run_steps

from .options import KEYWORDS, Chosen
from .progress import Reading, reporter
from .results import Result, SuiteResult, typed_rows
from .values import json_value, kind_of

__all__ = ["KEYWORDS", "InputError", "Result", "Settings", "SuiteResult", "check",
           "decontaminate"]
__version__ = "0.1.0"

Data = Union[str, "os.PathLike[str]", bytes, Iterable[Any]]


class _Files:
    """Data given in any form, as the paths of files the command would read: given
    paths as they are, anything else written to temporary JSON Lines (removed at the
    end)."""

    def __init__(self) -> None:
        self.folder: str | None = None
        self.names: dict[str, str] = {}      # a temporary file -> the name it stands for

    def named(self, value: Any) -> Any:
        """``value`` (a summary, rows, a report) with each temporary file's path replaced
        by the name of the data it holds (``"train"``, an eval's name)."""
        if isinstance(value, str):
            return self.names.get(value, value)
        if isinstance(value, dict):
            return {k: self.named(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.named(v) for v in value]
        return value

    def named_in(self, text: str) -> str:
        """A sentence with each temporary file's path in it replaced by its data's name."""
        for path, name in self.names.items():
            text = text.replace(path, name)
        return text

    def __enter__(self) -> _Files:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.folder is not None:
            import shutil
            shutil.rmtree(self.folder, ignore_errors=True)

    def paths(self, data: Data, name: str) -> list[str]:
        """The files ``data`` stands for (see :func:`data_paths`); data given as rows:
        a temporary JSON Lines file of them."""
        given = data_paths(data, name)
        if given is not None:
            return given
        if self.folder is None:
            self.folder = tempfile.mkdtemp(prefix="ngram-overlap-")
        own = os.path.join(self.folder, str(len(self.names)))   # its own folder: its name
        os.mkdir(own)                                           # is the data's
        base = os.path.basename(name)
        if not base or "\0" in base or len(base.encode("utf-8", "surrogatepass")) > 200:
            base = "rows"                 # a name no file can take: the folder keeps it apart
        path = os.path.join(own, f"{base}.jsonl")
        self.names[path] = name
        with open(path, "w", encoding="utf-8") as f:
            for record in _records(data, name):
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
        return [path]


def _names_files(text: str) -> bool:
    """Whether a string names a file or a folder, or is a glob matching one (a glob
    holds no white space: a question ending in "?" is not looked up as one)."""
    if len(text) > 4096 or "\n" in text:
        return False
    if os.path.exists(text):
        return True
    return glob.has_magic(text) and not any(c.isspace() for c in text) and \
        bool(glob.glob(text, recursive=True))


def _looks_like_path(text: str) -> bool:
    """Whether a string that names no file reads as a path all the same: no white
    space, and a data file's extension (compressed too) or a glob's wildcard in a
    folder path: ``data/train-00000.jsonl``, ``eval.csv.gz``, ``nodir/*``; not
    ``What?`` or ``1/2``."""
    if not text or len(text) > 4096 or any(c.isspace() for c in text):
        return False
    plain = strip_compression(text)
    return format_from_name(plain) is not None or is_columnar(plain) or \
        ("/" in text and glob.has_magic(text))


def data_paths(data: Any, name: str) -> list[str] | None:
    """Where the data is, when it is in files: their paths; None when ``data`` holds
    the rows themselves.

    A path (``str`` or ``PathLike``) or a glob (``**`` descends into folders) is the
    files it names; so is a list of them. A list of strings is paths when its strings
    name files or globs, text (one row each) when none does, and refused when it
    mixes the two, or when each string reads as a path though none names a file
    (:func:`_looks_like_path`): a path that names no file must not become a row of
    text. An open file is its path. A mapping of data sets (a dict of splits, such
    as a ``DatasetDict``) is refused, naming its keys; a mapping of columns of one
    length (:func:`_columns`) holds the rows, as anything else that iterates does
    (records, a DataFrame, an Arrow table, a ``Dataset``, a generator).
    """
    if isinstance(data, (str, os.PathLike)):
        return expand_paths([os.fspath(data)])
    if isinstance(data, (bytes, bytearray)):
        raise InputError(name, "bytes need a name saying their format: write them to a "
                               "file (or give records or strings)")
    if isinstance(data, io.IOBase) or (hasattr(data, "read") and hasattr(data, "name")):
        path = getattr(data, "name", None)
        if isinstance(path, (str, os.PathLike)) and os.path.isfile(path):
            return [os.fspath(path)]
        raise InputError(name, "is an open file without a path: give its path, or its rows")
    if isinstance(data, Mapping):
        if _columns(data):
            return None
        keys = [str(k) for k in list(data)[:6]]
        liked = ("train", "validation", "test") if name == "train" else ("test", "validation",
                                                                          "train")
        example = next((k for k in liked if k in data), keys[0] if keys else liked[0])
        raise InputError(name, f"is a mapping of {len(data):,} data sets ({', '.join(keys)}"
                               f"{', ...' if len(data) > 6 else ''}), such as a DatasetDict "
                               f"of splits: give one, such as data[{example!r}]")
    if isinstance(data, (list, tuple)) and data and all(
            isinstance(d, (str, os.PathLike)) for d in data):
        named = [isinstance(d, os.PathLike) or _names_files(d) for d in data]
        if all(named):
            return expand_paths([os.fspath(d) for d in data])
        if any(named):
            missing = [os.fspath(d) for d, is_path in zip(data, named) if not is_path]
            found = [os.fspath(d) for d, is_path in zip(data, named) if is_path]
            raise InputError(name, f"mixes paths ({found[0]!r}"
                                   f"{' and more' if len(found) > 1 else ''}) with strings "
                                   f"that name no file ({missing[0][:80]!r}"
                                   f"{' and more' if len(missing) > 1 else ''}): give paths "
                                   f"that exist, or text only")
        texts = [os.fspath(d) for d in data]
        if all(map(_looks_like_path, texts)):
            raise InputError(name, f"names no file: {texts[0][:200]!r}"
                                   f"{' and more' if len(texts) > 1 else ''} (as text, give "
                                   f"records: [{{'text': ...}}])")
        return None
    return None


#: Names of a dataset's splits: a mapping keyed by them is splits, never columns.
SPLIT_NAMES = frozenset({"train", "test", "validation", "valid", "dev", "eval"})


def _columns(data: Mapping) -> bool:
    """Whether a mapping is a table written by columns (``DataFrame.to_dict("list")``,
    ``Dataset.to_dict()``): lists of one length, keyed by no split's name, not each a
    list of records (a dict of splits)::

        >>> _columns({"question": ["Why?", "How?"], "answer": ["1", "2"]})
        True
        >>> _columns({"train": ["a", "b"], "test": ["c", "d"]}), _columns({"q": ["a"], "n": [1, 2]})
        (False, False)
    """
    values = list(data.values())
    if not values or any(not isinstance(v, (list, tuple)) for v in values) or \
            len({len(v) for v in values}) != 1 or \
            any(str(k).lower() in SPLIT_NAMES for k in data):
        return False
    return not all(v and all(isinstance(item, Mapping) for item in v) for v in values)


#: What a test set or training data can be, said when something else is given.
ACCEPTED = ("a path (a glob too), a list of pathlib.Path, a list of strings or of dicts "
            "(records), a pandas DataFrame, an Arrow table, a Hugging Face Dataset, or any "
            "iterable of strings or records")


def _accepted(data: Any, name: str) -> None:
    """Refuse, in words, what is no data at all (``check(42, ...)``)."""
    if not isinstance(data, (str, os.PathLike, bytes, bytearray, Iterable)) and \
            not (hasattr(data, "to_pylist") and hasattr(data, "column_names")):  # Arrow's table
        raise TypeError(f"{name}: {kind_of(data)} is no data: give {ACCEPTED}")


def _records(data: Any, name: str = "data") -> Iterator[dict]:
    """Records from strings, dicts, a pandas DataFrame or any iterable of them, their
    values as data (see :mod:`ngram_overlap.values`)."""
    if _is_pandas(data):
        data = _index_as_ids(data)
    if hasattr(data, "to_dict") and hasattr(data, "columns"):       # a DataFrame
        data = _whole_numbers_back(data).to_dict("records")
    elif hasattr(data, "to_pylist") and hasattr(data, "column_names"):  # an Arrow table
        data = _whole_numbers_back_arrow(data).to_pylist()
    elif isinstance(data, Mapping):                                     # columns
        keys = list(data)
        data = [dict(zip(keys, values)) for values in zip(*data.values())]
    for i, item in enumerate(data):
        if isinstance(item, str):
            yield {"text": item}
        elif isinstance(item, Mapping):
            yield json_value(item, name, i)
        else:
            raise InputError(name, f"row {i + 1} is {kind_of(item)}: give strings or "
                                   f"dicts (records)")


def _is_pandas(data: Any) -> bool:
    """Whether ``data`` is a pandas DataFrame or Series (pandas is not imported here)."""
    return type(data).__module__.split(".")[0] == "pandas" and hasattr(data, "index") and \
        hasattr(data, "to_dict")


def _index_as_ids(data: Any) -> Any:
    """A pandas DataFrame or Series with its index as a column when the index is not
    pandas' default (0, 1, 2, ...): a frame filtered, sampled or indexed by id
    (``frame.iloc[40:260]``, ``frame.set_index("id")``) is reported by its labels,
    so ``frame.loc[a_id]`` finds the row. The column takes the index's name when
    that is named like an id, else ``index`` (an id too); a frame with a column of
    that name already, or an index of several levels, is as it was::

        >>> import pandas as pd
        >>> list(_index_as_ids(pd.DataFrame({"q": ["a", "b"]}, index=[7, 3])).columns)
        ['index', 'q']
        >>> list(_index_as_ids(pd.DataFrame({"q": ["a"]}, index=pd.Index(["x"], name="qid"))))
        ['qid', 'q']
        >>> list(_index_as_ids(pd.DataFrame({"q": ["a", "b"]})).columns)
        ['q']
    """
    index = data.index
    if getattr(index, "nlevels", 1) != 1 or (type(index).__name__ == "RangeIndex" and
                                              index.start == 0 and index.step == 1):
        return data
    named = index.name if isinstance(index.name, str) else ""
    label = named if named and named_like_id(named) else "index"
    if hasattr(data, "columns"):
        return data if label in data.columns else data.rename_axis(label).reset_index()
    text = data.name if isinstance(data.name, str) and data.name != label else "text"
    return data.rename(text).rename_axis(label).reset_index()


def _whole_numbers_back(frame: Any) -> Any:
    """A DataFrame whose float columns that hold missing values and only whole numbers
    otherwise are whole numbers again: pandas reads a column of integers with a gap
    as floats (ids 1, 2, _, 4 become 1.0, 2.0, NaN, 4.0), which the file it came from
    wrote as integers (read so by the command: ``"1"``, not ``"1.0"``)."""
    fixed = {}
    for column in frame.columns:
        values = frame[column]
        if getattr(values.dtype, "kind", "") == "f" and values.isna().any():
            present = values.dropna()
            if len(present) and bool((present == present.round()).all()) and \
                    bool((present.abs() < 2 ** 53).all()):
                fixed[column] = values.astype("Int64")
    return frame.assign(**fixed) if fixed else frame


def _whole_numbers_back_arrow(table: Any) -> Any:
    """:func:`_whole_numbers_back` for an Arrow table (or record batch)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    for i, name in enumerate(table.column_names):
        column = table.column(i)
        if pa.types.is_floating(column.type) and column.null_count:
            present = pc.drop_null(column)
            if len(present) and pc.all(pc.equal(present, pc.round(present))).as_py() and \
                    pc.max(pc.abs(present)).as_py() < 2 ** 53:
                table = table.set_column(i, name, column.cast(pa.int64()))
    return table


def _source(data: Any, name: str) -> str:
    """How a message names data: its path or glob as given, else its name."""
    return os.fspath(data) if isinstance(data, (str, os.PathLike)) else name


def _evals(evals: Mapping[str, Data] | Sequence[Data]) -> dict[str, Data]:
    """Evals by name: a mapping as it is; in a list, each path or glob is its files,
    each an eval named by its path (as ``decontaminate EVALS...`` reads them), and
    any other item (rows) is ``eval1``, ``eval2``..."""
    if isinstance(evals, Mapping):           # a name is text: 2019, ("mmlu", "test")
        return {name if isinstance(name, str) else str(name): data
                for name, data in evals.items()}
    if isinstance(evals, (str, os.PathLike)):
        evals = [evals]
    named: dict[str, Data] = {}
    for i, data in enumerate(evals):
        if isinstance(data, (str, os.PathLike)):
            for path in expand_paths([os.fspath(data)]):
                named[path] = path
        else:
            named[f"eval{i}"] = data
    return named


@contextmanager
def _named_errors(files: _Files) -> Iterator[None]:
    """An error about data given as rows names the data (``test``, ``train``, an eval's
    name), not its temporary file."""
    try:
        yield
    except InputError as e:
        if e.source not in files.names:
            raise
        raise InputError(files.names[e.source], e.message, line=e.line, row=e.row) from None


def _result(report: Any, files: _Files, test: str, train: Sequence[str],
            a_reads: Sequence[Any], b_reads: Sequence[Any]) -> Result:
    """The result as the command's ``--json`` and rows give it, data named as given,
    with the lines the command writes on stderr about its files as ``notes``."""
    from ngram_core.report.notes import run_notes
    columns, rows, text = typed_rows(report.rows_csv(), report, files.named)
    summary = {**report.summary.as_dict(),
               "training_files": training_accounts(report, b_reads)}
    reads = [("A", read) for read in a_reads] + [("B", read) for read in b_reads]
    return Result(files.named(summary), rows, report, columns,
                  files.named(test), [files.named(p) for p in train], text,
                  [files.named_in(line) for line in run_notes(report, reads)])


def check(test: Data, train: Data, *, progress: bool | Callable[[Any], Any] | None = None,
          jobs: int | None = None, **options: Any) -> Result:
    """Check a test set against training data, as ``ngram-overlap TEST TRAIN`` does.

    Every matching and reading flag of the command is a keyword (see
    :mod:`ngram_overlap.options`): ``n``, ``mode``, ``layers``, ``threshold``,
    ``short_min``, ``max_b_rows``, ``keep_template``, ``leave_out``,
    ``leave_out_text``, ``tokenizer`` (``backend``); the test set's ``text_field``,
    ``id_field``, ``format``, ``records``, ``delimiter``, ``no_header``,
    ``text_rows`` and the training data's, with ``train_`` before them.
    ``progress=True`` reports progress (a tqdm bar, else lines on stderr), a callable
    is given each step; silent by default. ``jobs``: worker processes walking large
    training data (as ``--jobs``: by default one per core from 64 MiB; 1, this
    process alone)."""
    chosen = Chosen(options)
    check_jobs(jobs)
    _accepted(test, "test")
    _accepted(train, "train")
    on_progress = reporter(progress)
    with _Files() as files, _named_errors(files):
        if on_progress is not None:
            on_progress(Reading("read test"))
        a_paths = files.paths(test, "test")
        if len(a_paths) > 1:
            raise several_test_files(_source(test, "test"), a_paths)
        if on_progress is not None:
            on_progress(Reading("read train"))
        b_paths = files.paths(train, "train")
        a_rows, _, a_reads = load_rows_by_file(
            a_paths, chosen.a_fields, chosen.a_id_field,
            chosen.read_options("a", a_paths[0] in files.names))
        like = None if chosen.a_fields else a_reads[0].text_fields
        b_options = chosen.read_options("b", all(p in files.names for p in b_paths))
        report: Any
        b_reads: Sequence[Any]
        if index_b_whole(b_paths):        # small: indexed whole, as the command and page do
            b_rows, b_files, b_reads = load_rows_by_file(b_paths, chosen.b_fields,
                                                         chosen.b_id_field, b_options, like)
            report = run_steps(check_steps(a_rows, b_rows, chosen.settings, b_files=b_files,
                                           fields=(fields_of(a_reads), fields_of(b_reads))),
                               on_progress)
        else:
            from ngram_core.run.processes import local_processes
            from ngram_core.run.stream import check_streamed
            with local_processes(jobs) as executor:
                report = check_streamed(a_rows, b_paths, chosen.settings,
                                        a_fields=a_reads[0].text_fields,
                                        b_fields=chosen.b_fields, b_like=like,
                                        b_id_field=chosen.b_id_field, b_options=b_options,
                                        on_progress=on_progress, executor=executor)
            b_reads = report.b_reads
        if on_progress is not None:
            on_progress.close()
        return _result(report, files, a_paths[0], b_paths, a_reads, b_reads)


def decontaminate(evals: Mapping[str, Data] | Sequence[Data], train: Data, *,
                  out: str | os.PathLike[str] | None = None,
                  progress: bool | Callable[[Any], Any] | None = None,
                  jobs: int | None = None, **options: Any) -> SuiteResult:
    """Check every eval against the training data, read once, as ``ngram-overlap
    decontaminate`` does, with its flags as keywords (as :func:`check`'s: the evals'
    fields as ``text_field`` or ``eval_text_field``, the training data's as
    ``train_text_field``...). The result holds the removed training rows
    (``removed``, the records of ``removed.jsonl``) and which rows to keep
    (``keep``, ``mask()``: aligned with the training input); with ``out``, the
    cleaned training files, ``removed.jsonl`` and ``report.json`` are written there,
    all of them or none. ``jobs``: as :func:`check`'s."""
    from ngram_core.decontaminate import (now, output_names, plan_suite_outputs,
                                          removed_lines, suite_files, suite_report)
    from ngram_core.write.outputs import made_folders_kept_tidy, write_folder
    from ngram_core.run.processes import local_processes
    from ngram_core.run.suite import (check_suite, read_eval, refuse_evals_in_training,
                                      refuse_files_named_twice)

    started = now()
    check_jobs(jobs)
    remove_rephrased = bool(options.pop("remove_rephrased", False))
    chosen = Chosen(options)
    if not isinstance(evals, (str, os.PathLike)) and not isinstance(evals, Iterable):
        raise TypeError(f"evals: {kind_of(evals)} is no suite: give a dict of names "
                        f"to data, or a list of paths")
    named = _evals(evals)
    for name, data in named.items():
        _accepted(data, name)
    _accepted(train, "train")
    on_progress = reporter(progress)
    with _Files() as files, _named_errors(files):
        sets, eval_paths, eval_reads = [], [], []
        for name, data in named.items():
            if on_progress is not None:
                on_progress(Reading(f"read {name}"))
            paths = files.paths(data, name)
            if len(paths) > 1:
                raise several_test_files(_source(data, name), paths)
            eval_paths.append(paths[0])
            eval_set, eval_read = read_eval(paths[0], name, fields=chosen.a_fields,
                                            id_field=chosen.a_id_field,
                                            options=chosen.read_options("a",
                                                                        paths[0] in files.names))
            sets.append(eval_set)
            eval_reads.append(eval_read)
        if on_progress is not None:
            on_progress(Reading("read train"))
        b_paths = files.paths(train, "train")
        refuse_files_named_twice(b_paths, "train")
        refuse_evals_in_training([path for path in eval_paths if path not in files.names],
                                 b_paths)
        names = output_names(list(named), b_paths)
        folder = os.fspath(out) if out is not None else ""
        planned = plan_suite_outputs(folder, names, b_paths) if out is not None else None
        with made_folders_kept_tidy(planned), local_processes(jobs) as executor:
            suite = check_suite(sets, b_paths, chosen.settings, b_fields=chosen.b_fields,
                                b_id_field=chosen.b_id_field,
                                b_options=chosen.read_options("b", all(p in files.names
                                                                       for p in b_paths)),
                                on_progress=on_progress, remove_rephrased=remove_rephrased,
                                executor=executor)
        report = files.named(suite_report(suite, [os.path.join(folder, name) if folder else ""
                                                  for name in names[2:]], started, now()))
        removed = [files.named(json.loads(line))
                   for line in removed_lines(suite).decode().splitlines()]
        if planned is not None:   # as the command writes them: all of them or none
            written = suite_files(suite, report, names)
            written["removed.jsonl"] = "".join(   # data given as rows: named, not by a path
                json.dumps(r, ensure_ascii=False) + "\n" for r in removed).encode()
            write_folder(planned, written)
        keep = {}
        for i, entry in enumerate(report["training"]):
            mask = [True] * suite.b_rows[i]
            for removal in suite.removals:
                if removal.file_index == i:
                    mask[removal.row - 1] = False
            keep[entry["file"]] = mask
        if on_progress is not None:
            on_progress.close()
        return SuiteResult({name: _result(r, files, name, b_paths, [read], r.b_reads)
                            for name, r, read in zip(named, suite.results, eval_reads)},
                           report, removed, keep)
