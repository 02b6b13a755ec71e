"""What :func:`ngram_overlap.check` and :func:`ngram_overlap.decontaminate` return: a
:class:`Result` and a :class:`SuiteResult`, with typed rows, DataFrames of fixed
dtypes, and a short display for a notebook (``repr`` of one line, ``_repr_html_`` of
at most a screen, every text escaped, never the training data)."""

from __future__ import annotations

import csv
import html
import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ngram_core.errors import visible
from ngram_core.report.definitions import NAMES as DEFINITION_NAMES
from ngram_core.report.export import csv_line, neutralize
from ngram_core.report.summary import counted_table, flagged_figure, headline, percent

#: The rows' columns that hold whole numbers; "a_row" and "tokens" are never absent.
INT_COLUMNS = frozenset({"a_row", "tokens", "dirty_tokens", "longest_span", "windows",
                         "b_row", "duplicate_of", "contained_in", "contained_b_start",
                         "contained_b_end", "a_span_start", "a_span_end", "b_span_start",
                         "b_span_end", "similar_b_row"})
ALWAYS = frozenset({"a_row", "tokens", "a_id", "status"})
#: The rows' columns that hold a share (from 0 to 1).
FLOAT_COLUMNS = frozenset({"dirty_share", "llama2", "similarity"})
#: The rows' columns that hold true or false (absent where the row is not checked).
BOOL_COLUMNS = frozenset({"flagged", "rephrased",
                          *(n for n in DEFINITION_NAMES if n != "llama2")})
#: The rows' text columns that are absent (None) where nothing applies.
OPTIONAL_TEXT_COLUMNS = frozenset({"b_id", "b_file", "matched_fields", "contained_field"})
#: How many rows a display lists at most.
SHOWN_ROWS = 20
#: How many characters of an id or a name a display shows.
SHOWN_CHARS = 60


def typed_value(column: str, cell: str) -> Any:
    """A rows-CSV cell as its value: a whole number, a share, true/false, or text;
    None where the cell is empty and the column's value can be absent.

    >>> typed_value("tokens", "15"), typed_value("dirty_share", "0.5"), typed_value("flagged", "true")
    (15, 0.5, True)
    >>> typed_value("b_row", ""), typed_value("b_id", ""), typed_value("a_id", "")
    (None, None, '')
    """
    if column in INT_COLUMNS:
        return int(cell) if cell != "" else None
    if column in FLOAT_COLUMNS:
        return float(cell) if cell != "" else None
    if column in BOOL_COLUMNS:
        return None if cell == "" else cell == "true"
    if column in OPTIONAL_TEXT_COLUMNS:
        return cell if cell != "" else None
    return cell


def pandas_dtype(column: str) -> str:
    """The DataFrame dtype of a rows column: the same whatever the rows' statuses
    (nullable where a value can be absent)."""
    if column in INT_COLUMNS:
        return "int64" if column in ALWAYS else "Int64"
    if column in FLOAT_COLUMNS:
        return "Float64"
    if column in BOOL_COLUMNS:
        return "boolean"
    return "string"


def typed_rows(rows_csv: str, report: Any, named: Callable[[Any], Any]
               ) -> tuple[list[str], list[dict], str]:
    """The rows CSV's columns, one dict per row with typed values (ids as read: a CSV
    cell's apostrophe against formulas is the CSV's only; files by ``named``; the
    similarity unrounded, as ``rephrased`` is decided, where the CSV has three
    decimals), and the CSV again with its files so named."""
    reader = csv.DictReader(io.StringIO(rows_csv))
    columns = list(reader.fieldnames or [])
    out = []
    lines = [csv_line(columns)]
    for i, row in enumerate(reader):
        typed = {k: typed_value(k, v) for k, v in row.items()}
        if row.get("b_file"):
            row["b_file"] = neutralize(named(row["b_file"]))
        lines.append(csv_line(row.values()))
        match = report.matches[i]
        typed["a_id"] = report.a_rows[match.row].id
        if typed.get("similarity") is not None:     # unrounded, as `rephrased` reads it
            typed["similarity"] = match.similarity
        if typed.get("b_row") is not None:
            typed["b_id"] = report.b_id(typed["b_row"] - 1)
        if typed.get("b_file") is not None:
            typed["b_file"] = named(typed["b_file"])
        out.append(typed)
    return columns, out, "".join(lines)


def _frame(columns: Sequence[str], rows: Sequence[Mapping[str, Any]],
           dtypes: Callable[[str], str]) -> Any:
    import pandas as pd
    return pd.DataFrame({c: pd.array([r.get(c) for r in rows], dtype=dtypes(c))
                         for c in columns}, columns=list(columns))


def _short(text: Any, width: int = SHOWN_CHARS) -> str:
    """A value as a display shows it: on one line, cut at ``width``, its control and
    bidirectional characters written out (an id ``\u202efdp.exe`` never shows as
    ``exe.pdf``)."""
    text = visible(" ".join(str(text).split()))
    return text if len(text) <= width else text[:width - 1] + "…"


def _table(head: Sequence[str], rows: Sequence[Sequence[Any]], numeric_from: int = 1) -> str:
    def cells(tag: str, row: Sequence[Any]) -> str:
        return "".join(f'<{tag} style="text-align:{"left" if i < numeric_from else "right"}">'
                       f"{html.escape(_short(c))}</{tag}>" for i, c in enumerate(row))
    return ("<table><thead><tr>" + cells("th", head) + "</tr></thead><tbody>"
            + "".join("<tr>" + cells("td", r) + "</tr>" for r in rows) + "</tbody></table>")


def _rows(count: int) -> str:
    return "1 row" if count == 1 else f"{count:,} rows"


def _files(names: Sequence[str]) -> str:
    shown = [_short(n, 40) for n in names[:2]]
    more = f" and {len(names) - 2:,} more" if len(names) > 2 else ""
    return ", ".join(shown) + more


@dataclass(repr=False)
class Result:
    """One check: ``summary`` (the command's ``--json``, as a dict) and ``rows`` (one
    dict per row of the test set, the rows CSV's columns with typed values: whole
    numbers, shares, true/false, None where nothing applies)."""
    summary: dict
    rows: list[dict]
    report: Any                    # the engine's result (ngram_core.report.result.Report)
    columns: list[str] = field(default_factory=list)
    #: the test set's name and the training files' names, as the display shows them
    test: str = "test"
    train: list[str] = field(default_factory=lambda: ["train"])
    csv_text: str = ""
    #: what the command says on stderr about the files: each one's reading (rows, text
    #: and id fields, encoding, dialect), warnings (rows too short to match), notes
    #: (text left out), the training rows left unread; nothing is printed
    notes: list[str] = field(default_factory=list)

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame, each column of one dtype whatever the rows
        (``Int64``, ``Float64``, ``boolean`` where a value can be absent; pandas is not a
        dependency: install it)."""
        return _frame(self.columns, self.rows, pandas_dtype)

    def rows_csv(self) -> str:
        """The rows CSV, the bytes ``--rows-csv`` writes (values as text; data given as
        rows named as in ``rows``)."""
        return self.csv_text

    def __repr__(self) -> str:
        s = self.summary
        return (f"<ngram_overlap.Result: {flagged_figure(self.report.summary)} flagged "
                f"({s['flagged']:,} of {s['checkable']:,} checkable rows; {_rows(s['rows'])}) "
                f"- {_short(self.test, 40)} against {_files(self.train)}, n={s['n']}>")

    def _repr_html_(self) -> str:
        s = self.report.summary
        worst = []
        for m in self.report.ordered[:SHOWN_ROWS]:
            b_id = self.report.b_id(m.b_row) if m.b_row is not None else "none"
            worst.append((self.report.a_rows[m.row].id, f"{m.tokens:,}", percent(m.share),
                          f"{m.span:,}", f"{m.windows:,}", b_id))
        more = len(self.report.ordered) - len(worst)
        return ("<div>"
                f"<p><b>Rows flagged: {html.escape(flagged_figure(s))}</b> "
                f"({html.escape(_short(self.test, 40))} against "
                f"{html.escape(_files(self.train))})</p>"
                f"<p>{html.escape(headline(s))}</p>"
                + _table(("What the run counted", ""), counted_table(s))
                + ("<p>Worst rows first:</p>" + _table(
                    ("Row", "Tokens", "Dirty", "Span", "Windows", "Best training row"), worst)
                   if worst else "")
                + (f"<p>… and {more:,} more rows: <code>result.rows</code>, "
                   f"<code>result.to_pandas()</code></p>" if more > 0 else "")
                + "</div>")


#: The suite's tables as DataFrames: each column's dtype ("string" for text).
SUITE_DTYPES = {"rows": "int64", "checkable": "int64", "flagged": "int64",
                "flagged_share": "float64", "contained": "int64", "removed": "int64",
                "eval_rows": "int64", "training_rows": "int64", "dirty_share": "float64",
                "short": "int64", "blank": "int64", "duplicates": "int64",
                "tokens": "int64", "dirty_tokens": "int64", "n": "int64", "rephrased": "int64"}
#: The per-eval table's columns.
EVAL_COLUMNS = ("eval", "rows", "checkable", "flagged", "flagged_share", "dirty_share",
                "short", "blank", "duplicates", "contained", "rephrased", "training_rows")


@dataclass(repr=False)
class SuiteResult:
    """A suite: each eval's :class:`Result` by its name, the report ``decontaminate``
    writes (``report["training"]``, ``report["found"]``), the removed training rows
    (``removed``: the records of ``removed.jsonl``) and, per training file, which rows
    to keep (``keep[name]``: one bool per row, in the file's order)."""
    results: dict[str, Result]
    report: dict
    removed: list[dict] = field(default_factory=list)
    keep: dict[str, list[bool]] = field(default_factory=dict)

    def mask(self, training: str | None = None) -> list[bool]:
        """The rows of one training input to keep, aligned with it (``frame[mask]``,
        ``dataset.select([i for i, k in enumerate(mask) if k])``); ``training``: its
        name as ``report["training"]`` gives it (default: the only one)."""
        if training is None:
            if len(self.keep) != 1:
                raise ValueError(f"the training data is {len(self.keep)} files: name one of "
                                 f"{', '.join(self.keep)}")
            return next(iter(self.keep.values()))
        return self.keep[training]

    def _eval_rows(self) -> list[dict]:
        holding: dict[str, int] = {}
        for f in self.report["found"]:
            holding[f["eval"]] = holding.get(f["eval"], 0) + f["training_rows"]
        return [{"eval": name, **{k: r.summary[k] for k in EVAL_COLUMNS[1:-1]},
                 "training_rows": holding.get(name, 0)}
                for name, r in zip(self.results, self.results.values())]

    def to_pandas(self, table: str = "evals") -> Any:
        """A table as a DataFrame: ``"evals"`` one row per eval (its figures and the
        training rows holding it), ``"training"`` one per training file, ``"found"``
        one per eval and training file."""
        rows: list[dict]
        if table == "evals":
            rows, columns = self._eval_rows(), list(EVAL_COLUMNS)
        elif table == "training":
            rows = self.report["training"]
            columns = ["file", "rows", "removed", "cleaned"]
        elif table == "found":
            rows = self.report["found"]
            columns = ["eval", "training", "eval_rows", "training_rows"]
        else:
            raise ValueError(f"table is evals, training or found, not {table!r}")
        return _frame(columns, rows, lambda c: SUITE_DTYPES.get(c, "string"))

    def __repr__(self) -> str:
        evals = [f"{_short(name, 30)} {r.summary['flagged']:,}/{r.summary['checkable']:,}"
                 for name, r in list(self.results.items())[:5]]
        if len(self.results) > 5:
            evals.append(f"and {len(self.results) - 5:,} more")
        rows = sum(t["rows"] for t in self.report["training"])
        gone = sum(t["removed"] for t in self.report["training"])
        files = _files([t["file"] for t in self.report["training"]])
        return (f"<ngram_overlap.SuiteResult: {len(self.results):,} evals (flagged/checkable: "
                f"{', '.join(evals)}); training {files}: {gone:,} of {rows:,} rows removed>")

    def _repr_html_(self) -> str:
        evals = self._eval_rows()
        rows = sum(t["rows"] for t in self.report["training"])
        gone = sum(t["removed"] for t in self.report["training"])
        leaked = [e["eval"] for e in evals if e["flagged"] or e["contained"]]
        verdict = (f"{len(leaked):,} of {len(evals):,} evals found in the training data; "
                   f"{gone:,} of {rows:,} training rows removed" if leaked else
                   f"No eval found in the training data ({len(evals):,} evals, "
                   f"{rows:,} training rows)")
        worst = sorted(evals, key=lambda e: (-e["flagged_share"], -e["contained"]))
        parts = ["<div>", f"<p><b>{html.escape(verdict)}</b></p>",
                 _table(("Eval", "Rows", "Checkable", "Flagged", "Share", "Contained",
                         "Training rows holding it"),
                        [(e["eval"], f"{e['rows']:,}", f"{e['checkable']:,}",
                          f"{e['flagged']:,}", percent(e["flagged_share"]),
                          f"{e['contained']:,}", f"{e['training_rows']:,}")
                         for e in worst[:SHOWN_ROWS]])]
        if len(worst) > SHOWN_ROWS:
            parts.append(f"<p>… and {len(worst) - SHOWN_ROWS:,} more evals: "
                         f"<code>suite.to_pandas()</code></p>")
        training = self.report["training"]
        parts.append(_table(("Training file", "Rows", "Removed"),
                            [(t["file"], f"{t['rows']:,}", f"{t['removed']:,}")
                             for t in training[:SHOWN_ROWS]]))
        if len(training) > SHOWN_ROWS:
            parts.append(f"<p>… and {len(training) - SHOWN_ROWS:,} more training files: "
                         f"<code>suite.to_pandas(\"training\")</code></p>")
        if self.report.get("removals"):
            parts.append(f"<p>{html.escape(self.report['removals'])}</p>")
        parts.append("</div>")
        return "".join(parts)
