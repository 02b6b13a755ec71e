r"""Does contamination change the score? Mean scores over all, clean and dirty rows.

Scores come from a numeric or boolean field of A (:func:`scores_from_field`)
or from a separate results file joined to A by id (:func:`scores_from_results`;
when A has no id field the key is A's 0-based row index, as
lm-evaluation-harness's ``doc_id`` is). A value is a score when it is a
finite number, a boolean (1 or 0) or a string holding one (``"0.5"``,
``"true"``); anything else leaves the row without a score, and it leaves
every figure.

For each group of rows (the main flag: considered = checkable rows, dirty =
flagged; and each published definition) the figures are the mean over all
considered rows with a score, over the clean and over the dirty ones, each
with its count, and GPT-3's relative difference ``(clean - all) / all``.
llama2's four subsets each add ``z = (mean of subset - mean of all) / sigma_n``
with ``sigma_n = s / sqrt(n) * sqrt((N - n) / (N - 1))``, s the population
standard deviation of the N considered scores and n the subset's size::

    >>> g = group_figures([1.0, 0.0, 0.5, None], [True] * 4, [True, False, False, False])
    >>> g["all"], g["clean"], g["dirty"], g["relative_difference"]
    ({'count': 3, 'mean': 0.5}, {'count': 2, 'mean': 0.25}, {'count': 1, 'mean': 1.0}, -0.5)
    >>> parse_score("true"), parse_score(" 0.5 "), parse_score("n/a"), parse_score(float("nan"))
    (1.0, 0.5, None, None)

Sums are ``math.fsum``, so the figures do not depend on the order of the rows.
Standard library only; nothing here prints.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from .definitions import LLAMA2_SUBSETS, NAMES, Definitions
from ..errors import InputError
from ..method.match import CHECKABLE
from .summary import flag_rule
from ..table import LM_EVAL_KEY, PLAIN_NUMBER, Row, Table, lm_eval_samples, value_text

_TRUE, _FALSE = ("true",), ("false",)


def parse_score(value) -> float | None:
    """A score from a field's value: a finite number, a boolean (1.0 or 0.0), or a
    string holding either (spaces around it ignored, ``true``/``false`` in any
    case); None for anything else (null, empty, text, NaN, infinity, lists)."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        number = float(value)
        return number if math.isfinite(number) else None
    if isinstance(value, str):
        text = value.strip()
        if text.lower() in _TRUE:
            return 1.0
        if text.lower() in _FALSE:
            return 0.0
        if PLAIN_NUMBER.fullmatch(text):
            number = float(text)
            return number if math.isfinite(number) else None
    return None


class ScoreColumn(NamedTuple):
    """One score (or None) per A row in file order, and sentences about the join
    for the command and the page to show (rows without a score are counted by
    :func:`score_impact`)."""
    scores: list[float | None]
    notes: list[str]


def _missing(table: Table, name: str, role: str) -> InputError:
    shown = ", ".join(repr(f) for f in table.fields[:20])
    more = f" and {len(table.fields) - 20} more" if len(table.fields) > 20 else ""
    return InputError(table.source, f"has no field {name!r} to use as the {role} field; "
                                    f"its fields are {shown}{more}")


def scores_from_field(table: Table, field: str) -> ScoreColumn:
    """Scores from a field of A itself (A's Table, one record per A row)."""
    if field not in table.fields:
        raise _missing(table, field, "score")
    return ScoreColumn([parse_score(record.get(field)) for record in table.records], [])


def join_key(value) -> str | None:
    """A join key as text: integral numbers as integers (``3``, ``3.0`` -> ``"3"``),
    other numbers as JSON, strings as they are; None for null and booleans."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return value_text(value)


LM_EVAL_NOTE = ("joined by row number: in lm-evaluation-harness samples, doc_id counts file "
                "A's rows from 0")


def scores_from_results(a_rows: Sequence[Row], a_has_id: bool, results: Table,
                        score_field: str, key_field: str | None = None) -> ScoreColumn:
    """Scores from a results file, joined to A's rows by key.

    A row's key is its id when A has an id field (``a_has_id``), else its
    0-based row index. ``key_field``: the results' key field (None: the field
    named like an id, as for A; ``doc_id`` in lm-evaluation-harness samples).
    A key the results give twice counts its first row; the notes say how many
    rows of A matched, how many keys were repeated and how many result rows
    matched no row of A. An lm-evaluation-harness samples file
    (:func:`lm_eval_samples`: ``doc_id`` counts A's rows from 0) joins by
    0-based row number whatever A's ids; so do other keys that match no id of
    A but are all row numbers. A note says so.
    """
    if score_field not in results.fields:
        raise _missing(results, score_field, "score")
    if key_field is None:
        from ..read.fields import id_like_field
        key_field = id_like_field(results)
        if key_field is None:
            raise InputError(results.source, "has no field named like an id to join on; "
                                             "name the key field")
    elif key_field not in results.fields:
        raise _missing(results, key_field, "key")
    by_key: dict[str, float | None] = {}
    repeated = 0
    for record in results.records:
        key = join_key(record.get(key_field))
        if key is None:
            continue
        if key in by_key:
            repeated += 1
            continue
        by_key[key] = parse_score(record.get(score_field))
    keys = [row.id if a_has_id else str(i) for i, row in enumerate(a_rows)]
    notes = []
    if a_has_id and key_field == LM_EVAL_KEY and lm_eval_samples(results.fields):
        keys = [str(i) for i in range(len(keys))]
        notes.append(LM_EVAL_NOTE)
    elif a_has_id and by_key and not any(key in by_key for key in keys) and \
            all(key.isdigit() for key in by_key):
        # lm-evaluation-harness samples: doc_id counts A's rows from 0, whatever A's ids
        keys = [str(i) for i in range(len(keys))]
        notes.append(f"joined by row number: {key_field!r} matches no id of A and counts its "
                     f"rows from 0, as lm-evaluation-harness samples do")
    scores = [by_key.get(key) for key in keys]
    matched = sum(key in by_key for key in keys)
    notes.insert(0, f"matched {matched:,} of {len(keys):,} rows of A")
    unmatched = len(set(by_key) - set(keys))
    if unmatched:
        notes.append(f"{unmatched:,} result {'row matches' if unmatched == 1 else 'rows match'} "
                     f"no row of A by {key_field!r}")
    if repeated:
        notes.append(f"{repeated:,} result {'row repeats' if repeated == 1 else 'rows repeat'} "
                     f"a key: the first row with each key counts")
    return ScoreColumn(scores, notes)


# --- the figures ---------------------------------------------------------------------

def _mean(values: list[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def _part(values: list[float]) -> dict:
    return {"count": len(values), "mean": _mean(values)}


def relative_difference(clean: float | None, whole: float | None) -> float | None:
    """GPT-3's ``(clean - all) / all``; None when either mean is missing or all is 0."""
    if clean is None or whole is None or whole == 0:
        return None
    return (clean - whole) / whole


def group_figures(scores: Sequence[float | None], considered: Sequence[bool],
                  dirty: Sequence[bool]) -> dict:
    """``{"all", "clean", "dirty": {"count", "mean"}, "relative_difference"}`` over the
    considered rows that have a score (clean: considered and not dirty)."""
    whole: list[float] = []
    clean: list[float] = []
    bad: list[float] = []
    for score, is_considered, is_dirty in zip(scores, considered, dirty, strict=True):
        if score is None or not is_considered:
            continue
        whole.append(score)
        (bad if is_dirty else clean).append(score)
    return {"all": _part(whole), "clean": _part(clean), "dirty": _part(bad),
            "relative_difference": relative_difference(_mean(clean), _mean(whole))}


def z_score(subset_mean: float | None, n: int, whole_mean: float | None, s: float,
            big_n: int) -> float | None:
    """``(subset_mean - whole_mean) / sigma_n``, ``sigma_n = s / sqrt(n) * sqrt((N - n) /
    (N - 1))``; None where it cannot be computed (N <= 1, n = 0, n = N, s = 0)."""
    if subset_mean is None or whole_mean is None or big_n <= 1 or n == 0 or n >= big_n \
            or s == 0:
        return None
    sigma = s / math.sqrt(n) * math.sqrt((big_n - n) / (big_n - 1))
    return (subset_mean - whole_mean) / sigma


def subset_figures(scores: Sequence[float | None], considered: Sequence[bool],
                   subsets: Mapping[str, Sequence[bool]]) -> dict:
    """llama2's figures: ``all`` and each subset's ``{"count", "mean", "z"}``, and the
    relative difference taken on the ``clean`` subset."""
    whole = [score for score, c in zip(scores, considered, strict=True)
             if c and score is not None]
    mean = _mean(whole)
    s = 0.0
    if whole and mean is not None and min(whole) != max(whole):   # equal scores: s is 0,
        s = math.sqrt(math.fsum((x - mean) ** 2 for x in whole) / len(whole))  # not 1e-17
    out: dict = {"all": _part(whole)}
    for name, members in subsets.items():
        values = [score for score, c, m in zip(scores, considered, members, strict=True)
                  if c and m and score is not None]
        part = _part(values)
        part["z"] = z_score(part["mean"], len(values), mean, s, len(whole))
        out[name] = part
    out["relative_difference"] = relative_difference(out["clean"]["mean"], mean) \
        if "clean" in out else None
    return out


def main_groups(matches, threshold: float) -> tuple[list[bool], list[bool]]:
    """The main flag's groups from a Report's matches: (considered = checkable,
    dirty = flagged at ``threshold``)."""
    flagged = flag_rule(threshold)
    considered = [m.status == CHECKABLE for m in matches]
    return considered, [flagged(m) for m in matches]


def score_impact(scores: Sequence[float | None], main: tuple[Sequence[bool], Sequence[bool]],
                 definitions: Definitions | None = None) -> dict:
    """The JSON summary's ``scores``: ``{"rows_with_score", "rows_without_score", "main",
    "gpt3", "palm", "gpt4", "tulu3", "llama2"}`` (the definitions only when given).

    ``scores``: one per A row (None: no score), counted over all rows of A;
    ``main``: (considered, dirty) per row (see :func:`main_groups`).
    """
    with_score = sum(score is not None for score in scores)
    out: dict = {"rows_with_score": with_score, "rows_without_score": len(scores) - with_score,
                 "main": group_figures(scores, *main)}
    if definitions is not None:
        for name in NAMES:
            d = definitions[name]
            if name == "llama2":
                continue
            out[name] = group_figures(scores, d.considered, d.dirty)
        llama2 = definitions.llama2
        subsets = llama2.subsets()
        out["llama2"] = subset_figures(scores, llama2.considered,
                                       {name: subsets[name] for name in LLAMA2_SUBSETS})
    return out


def _number(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _percent(value: float | None) -> str:
    """A relative difference for reading: signed, one decimal, and a change that
    rounds to nothing is ``0.0%``, never ``-0.0%``::

        >>> _percent(-0.00004), _percent(0.0123), _percent(None)
        ('0.0%', '+1.2%', '–')
    """
    if value is None:
        return "–"
    text = f"{value * 100:+.1f}%"
    return "0.0%" if text in ("+0.0%", "-0.0%") else text


IMPACT_HEADER = ("Rows", "All", "Clean", "Dirty", "Relative difference, (clean − all) / all")


def impact_table(impact: dict) -> list[tuple[str, ...]]:
    """The "Score impact" table's rows (under :data:`IMPACT_HEADER`): each group's
    mean and count as ``"0.712 (n = 120)"``; llama2's subsets on rows of their own
    with their z. Numbers are rounded here only, for reading."""
    def cell(part: dict) -> str:
        text = f"{_number(part['mean'])} (n = {part['count']:,})"
        if "z" in part:
            text += f", z = {_number(part['z'], 2)}"
        return text

    rows: list[tuple[str, ...]] = []
    for name in ("main", *NAMES):
        if name not in impact:
            continue
        g = impact[name]
        if name == "llama2":
            rows.append(("llama2 clean / not clean", cell(g["all"]), cell(g["clean"]),
                         cell(g["not_clean"]), _percent(g["relative_difference"])))
            rows.append(("llama2 not dirty / dirty", cell(g["all"]), cell(g["not_dirty"]),
                         cell(g["dirty"]), ""))
        else:
            rows.append((name, cell(g["all"]), cell(g["clean"]), cell(g["dirty"]),
                         _percent(g["relative_difference"])))
    return rows
