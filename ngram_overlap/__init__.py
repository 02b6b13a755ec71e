"""ngram-overlap as a library: did a test set leak into training data, from Python.

Two calls, the command's two commands, with the same settings and the same figures
(the engine is :mod:`ngram_core`, the one the command and the page run)::

    import ngram_overlap

    result = ngram_overlap.check(["a test question ...", ...], "train.jsonl", n=13)
    result.summary["flagged"], result.rows[0]["share"]
    result.to_pandas()                       # with pandas installed

    suite = ngram_overlap.decontaminate({"mmlu": "mmlu.jsonl", "gsm8k": rows},
                                        ["shard-0.jsonl.zst"], out="cleaned/")

A test set or training data is a path (a glob too, or a list of ``pathlib.Path``),
a list of strings, a list of dicts (records), a pandas DataFrame, or any iterable
of those (a generator of training rows of any length streams: it is written to a
temporary JSON Lines file a row at a time and read back as the command reads one,
then removed). Strings
become records ``{"text": ...}``; records are read as a JSON Lines file of them
is, fields detected alike (``text_field``/``id_field`` choose). Nothing here
prints; a bad input raises :class:`InputError` naming the file and line.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

from ngram_core.errors import InputError
from ngram_core.read.files import expand_paths, fields_of, index_b_whole, load_rows_by_file
from ngram_core.run.check import check_steps
from ngram_core.method.settings import Settings
from ngram_core.steps import run_steps
from ngram_core.table import ReadOptions

__all__ = ["InputError", "Result", "Settings", "SuiteResult", "check", "decontaminate"]
__version__ = "0.1.0"

Data = Union[str, "os.PathLike[str]", bytes, Iterable[Any]]


@dataclass
class Result:
    """One check: ``summary`` (the command's ``--json``, as a dict) and ``rows`` (one
    dict per row of the test set, the rows CSV's columns and values as text)."""
    summary: dict
    rows: list[dict]
    report: Any                    # the engine's result (ngram_core.report.result.Report)

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame (pandas is not a dependency: install it)."""
        import pandas as pd
        return pd.read_csv(io.StringIO(self.report.rows_csv()), keep_default_na=False)


@dataclass
class SuiteResult:
    """A suite: each eval's :class:`Result` by its name, and the report
    ``decontaminate`` writes (``report["training"]``, ``report["found"]``)."""
    results: dict[str, Result]
    report: dict


def _settings(options: Mapping[str, Any]) -> Settings:
    known = {"n", "mode", "layers", "threshold", "backend", "short_min", "max_b_rows",
             "keep_template", "cap", "rephrase", "rephrase_threshold"}
    unknown = set(options) - known
    if unknown:
        raise TypeError(f"unknown settings: {', '.join(sorted(unknown))} (known: "
                        f"{', '.join(sorted(known))})")
    return Settings(**options)


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

    def __enter__(self) -> _Files:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.folder is not None:
            import shutil
            shutil.rmtree(self.folder, ignore_errors=True)

    def paths(self, data: Data, name: str) -> list[str]:
        """A path (a glob too) or a list of ``pathlib.Path``: those files; anything else
        (rows): a temporary JSON Lines file of them."""
        if isinstance(data, (str, os.PathLike)):
            return expand_paths([os.fspath(data)])
        if isinstance(data, (list, tuple)) and data and all(isinstance(d, os.PathLike)
                                                             for d in data):
            return expand_paths([os.fspath(d) for d in data])
        if isinstance(data, (bytes, bytearray)):
            raise InputError(name, "bytes need a name saying their format: write them to a "
                                   "file (or give records or strings)")
        if self.folder is None:
            self.folder = tempfile.mkdtemp(prefix="ngram-overlap-")
        own = os.path.join(self.folder, str(len(self.names)))   # its own folder: its name
        os.mkdir(own)                                           # is the data's
        path = os.path.join(own, f"{os.path.basename(name) or 'rows'}.jsonl")
        self.names[path] = name
        with open(path, "w", encoding="utf-8") as f:
            for record in _records(data):
                f.write(json.dumps(record, ensure_ascii=False) + "\n")
        return [path]


def _records(data: Any) -> Iterator[dict]:
    """Records from strings, dicts, a pandas DataFrame or any iterable of them."""
    if hasattr(data, "to_dict") and hasattr(data, "columns"):       # a DataFrame
        data = data.to_dict("records")
    for item in data:
        if isinstance(item, str):
            yield {"text": item}
        elif isinstance(item, Mapping):
            yield dict(item)
        else:
            raise InputError("data", f"holds a {type(item).__name__}: give strings or "
                                     f"dicts (records)")


def _result(report: Any, files: _Files) -> Result:
    return Result(files.named(report.summary.as_dict()),
                  files.named(list(csv.DictReader(io.StringIO(report.rows_csv())))), report)


def check(test: Data, train: Data, *, text_field: str | Sequence[str] | None = None,
          id_field: str | None = None, train_text_field: str | Sequence[str] | None = None,
          train_id_field: str | None = None, **settings: Any) -> Result:
    """Check a test set against training data, as ``ngram-overlap TEST TRAIN`` does,
    with the command's settings as keywords (``n``, ``mode``, ``layers``,
    ``threshold``, ``short_min``, ``max_b_rows``, ``keep_template``, ``backend``)."""
    chosen = _settings(settings)
    a_fields = [text_field] if isinstance(text_field, str) else \
        (list(text_field) if text_field else None)
    b_fields = [train_text_field] if isinstance(train_text_field, str) else \
        (list(train_text_field) if train_text_field else None)
    with _Files() as files:
        a_paths = files.paths(test, "test")
        b_paths = files.paths(train, "train")
        a_rows, _, a_reads = load_rows_by_file(a_paths[:1], a_fields, id_field,
                                               ReadOptions(role="a"))
        like = None if a_fields else a_reads[0].text_fields
        b_options = ReadOptions(role="b")
        report: Any
        if index_b_whole(b_paths):        # small: indexed whole, as the command and page do
            b_rows, b_files, b_reads = load_rows_by_file(b_paths, b_fields, train_id_field,
                                                         b_options, like)
            report = run_steps(check_steps(a_rows, b_rows, chosen, b_files=b_files,
                                           fields=(fields_of(a_reads), fields_of(b_reads))))
        else:
            from ngram_core.run.stream import check_streamed
            report = check_streamed(a_rows, b_paths, chosen, a_fields=a_reads[0].text_fields,
                                    b_fields=b_fields, b_like=like, b_id_field=train_id_field,
                                    b_options=b_options)
        return _result(report, files)


def decontaminate(evals: Mapping[str, Data] | Sequence[Data], train: Data, *,
                  out: str | os.PathLike[str] | None = None, **settings: Any) -> SuiteResult:
    """Check every eval against the training data, read once, as ``ngram-overlap
    decontaminate`` does; with ``out``, write the cleaned training files,
    ``removed.jsonl`` and ``report.json`` there (training data given as paths)."""
    from ngram_core.decontaminate import (output_names, plan_suite_outputs, suite_files,
                                          suite_report)
    from ngram_core.write.outputs import write_outputs
    from ngram_core.run.suite import check_suite, read_eval

    remove_rephrased = bool(settings.pop("remove_rephrased", False))
    chosen = _settings(settings)
    named = dict(evals) if isinstance(evals, Mapping) else {
        (os.fspath(e) if isinstance(e, (str, os.PathLike)) else f"eval{i}"): e
        for i, e in enumerate(evals)}
    with _Files() as files:
        sets = []
        for name, data in named.items():
            sets.append(read_eval(files.paths(data, name)[0], name)[0])
        b_paths = files.paths(train, "train")
        suite = check_suite(sets, b_paths, chosen, remove_rephrased=remove_rephrased)
        names = output_names(list(named), b_paths)
        folder = os.fspath(out) if out is not None else ""
        report = files.named(suite_report(suite, [os.path.join(folder, name) if folder else ""
                                                  for name in names[2:]]))
        if out is not None:       # as the command writes them: all of them or none
            planned = plan_suite_outputs(folder, names, b_paths)
            written = suite_files(suite, report, names)
            removed = written["removed.jsonl"]
            assert isinstance(removed, bytes)
            written["removed.jsonl"] = "".join(   # data given as rows: named, not by a path
                json.dumps(files.named(json.loads(line)), ensure_ascii=False) + "\n"
                for line in removed.decode().splitlines()).encode()
            write_outputs(planned, written)
        return SuiteResult({name: _result(r, files) for name, r in zip(named, suite.results)},
                           report)
