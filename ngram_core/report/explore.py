r"""Every row of a result, for a person to look through: shown, searched, sorted, paged.

A pure view over a result's ``matches`` (one per A row, in file order); the
page's row explorer draws what this returns and computes nothing itself.

* ``show`` keeps the rows of one kind (:data:`SHOWS`): every row, the flagged
  ones, those with at least one shared window, the checkable ones, the short
  rows equal to a whole B row (duplicates) or found inside one (contained),
  the rows that cannot be checked (short or blank), the rows the rephrase lens
  marks (``rephrased``: their most similar B row reaches the rephrase
  threshold, :mod:`~ngram_core.method.similar`), ``dirty:<name>``: the
  rows a published definition calls dirty, or ``holding``: the rows given as
  holding a passage (one of :mod:`~ngram_core.report.shared_windows`);
* ``search`` keeps the rows whose id or text holds it, compared case-folded
  (``"Moon"`` finds ``"the moon"``); blank keeps every row;
* ``sort`` orders them by one column (:data:`SORTS`), ties in file order;
  ``"worst"`` is the result's own order (dirty share, then span, high to
  low, then file order) with the rows that cannot be checked after it;
* :func:`page_bounds` gives the ``[start, end)`` of one page of them.

Row 2 is flagged (one window, 3 of 4 tokens), row 0 clean, row 1 short::

    >>> from ngram_core.method.match import RowMatch, CHECKABLE, SHORT
    >>> from ngram_core.table import Row
    >>> rows = [Row(1, "a", "w x y z"), Row(2, "b", "x y"), Row(3, "c", "The Moon is up")]
    >>> matches = [RowMatch(0, CHECKABLE, 4), RowMatch(1, SHORT, 2),
    ...            RowMatch(2, CHECKABLE, 4, windows=1, dirty=3, span=3, b_row=0)]
    >>> listed_rows(matches, rows, RowView(), threshold=0)
    [2, 0, 1]
    >>> listed_rows(matches, rows, RowView(show="flagged"), threshold=0)
    [2]
    >>> listed_rows(matches, rows, RowView(search="moon", sort="row"), threshold=0)
    [2]
    >>> listed_rows(matches, rows, RowView(show="holding"), threshold=0, holding={0, 2})
    [2, 0]
    >>> page_bounds(120, page=2, size=50)
    (100, 120)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Sequence
from typing import Any, NamedTuple

from ..method.match import BLANK, CHECKABLE, SHORT, RowMatch
from .summary import flag_rule, percent
from ..table import Row

#: What the "Show" control offers: key -> words.
SHOWS = {
    "all": "Every row",
    "flagged": "Flagged rows",
    "matched": "Rows with a shared window",
    "checkable": "Checkable rows",
    "duplicates": "Short rows equal to a whole B row",
    "contained": "Rows with a short text (the row or a field) found inside a B row",
    "unchecked": "Rows that cannot be checked (short or blank)",
    "rephrased": "Rows that look rephrased",
}
DIRTY_UNDER = "dirty:"          # + a definition's name: the rows it calls dirty
HOLDING = "holding"             # the rows holding a passage, given with the view

#: What the "Sort by" control offers: key -> (words, descending by default).
SORTS = {
    "worst": ("Worst first", True),
    "row": ("File order", False),
    "id": ("Id", False),
    "tokens": ("Tokens", True),
    "share": ("Dirty-token share", True),
    "span": ("Longest span", True),
    "windows": ("Windows", True),
    "b_row": ("Best B row", False),
    "similarity": ("Similarity", True),
}


class RowView(NamedTuple):
    """What the person asked to see: a kind of row, a search, a column to sort by
    (``descending`` None: that column's usual direction)."""
    show: str = "all"
    search: str = ""
    sort: str = "worst"
    descending: bool | None = None


def _digits_key(text: str) -> tuple:
    """Ids in human order: ``q2`` before ``q10`` (runs of digits compare as numbers)."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part)
                 for part in re.split(r"(\d+)", text.casefold()) if part)


def _kept(show: str, threshold: float, dirty_under: Callable[[str], set[int]] | None,
          holding: Container[int] | None = None,
          rephrased: Callable[[RowMatch], bool] | None = None):
    flagged = flag_rule(threshold)
    if show == HOLDING:
        kept = holding if holding is not None else set()
        return lambda m: m.row in kept
    if show.startswith(DIRTY_UNDER):
        rows = dirty_under(show[len(DIRTY_UNDER):]) if dirty_under is not None else set()
        return lambda m: m.row in rows
    tests: dict[str, Callable[[RowMatch], bool]] = {
        "all": lambda m: True,
        "flagged": flagged,
        "matched": lambda m: m.status == CHECKABLE and m.windows > 0,
        "checkable": lambda m: m.status == CHECKABLE,
        "duplicates": lambda m: m.duplicate_of is not None,
        "contained": lambda m: m.contained_in is not None,
        "unchecked": lambda m: m.status in (SHORT, BLANK),
        "rephrased": rephrased if rephrased is not None else (lambda m: False),
    }
    if show not in tests:
        raise ValueError(f"no such kind of row: {show!r}")
    return tests[show]


def _sort_key(sort: str, a_rows: Sequence[Row]) -> Callable[[RowMatch], Any]:
    """Each column's value; rows that cannot be checked have no share, span or
    windows and sort below every checkable row's."""
    def checked(value: Callable[[RowMatch], Any]):
        return lambda m: (m.status == CHECKABLE, value(m) if m.status == CHECKABLE else 0)

    keys: dict[str, Callable[[RowMatch], Any]] = {
        "row": lambda m: m.row,
        "id": lambda m: _digits_key(a_rows[m.row].id),
        "tokens": lambda m: m.tokens,
        "share": checked(lambda m: m.dirty / m.tokens),   # equal ratios: equal floats
        "span": checked(lambda m: m.span),
        "windows": checked(lambda m: m.windows),
        "b_row": lambda m: (m.b_row is None, m.b_row or 0),
        "similarity": lambda m: (m.similarity is not None, m.similarity or 0.0),
    }
    if sort not in keys:
        raise ValueError(f"no such column to sort by: {sort!r}")
    return keys[sort]


def listed_rows(matches: Sequence[RowMatch], a_rows: Sequence[Row], view: RowView,
                threshold: float,
                dirty_under: Callable[[str], set[int]] | None = None,
                holding: Container[int] | None = None,
                rephrased: Callable[[RowMatch], bool] | None = None) -> list[int]:
    """The 0-based A rows the view shows, in its order (see the module's rules).

    ``dirty_under(name)``: the rows a published definition calls dirty, for
    ``show="dirty:<name>"`` (none while the definitions are not computed);
    ``holding``: the rows ``show="holding"`` keeps; ``rephrased``: whether the
    rephrase lens marks a row (:func:`~ngram_core.report.summary.rephrase_rule`;
    None: the lens did not run, and ``show="rephrased"`` keeps no row).
    """
    keep = _kept(view.show, threshold, dirty_under, holding, rephrased)
    needle = view.search.strip().casefold()
    chosen = [m for m in matches if keep(m)]
    if needle:
        chosen = [m for m in chosen
                  if needle in a_rows[m.row].id.casefold() or needle in a_rows[m.row].text.casefold()]
    if view.sort == "worst":
        ordered = sorted(chosen, key=lambda m: (m.status != CHECKABLE, -m.share
                                                if m.status == CHECKABLE else 0, -m.span, m.row))
        if view.descending is False:
            ordered.reverse()
        return [m.row for m in ordered]
    descending = SORTS[view.sort][1] if view.descending is None else view.descending
    return [m.row for m in sorted(chosen, key=_sort_key(view.sort, a_rows), reverse=descending)]


def page_bounds(count: int, page: int, size: int) -> tuple[int, int]:
    """The ``[start, end)`` of page ``page`` (0-based, clamped to the last page) of
    ``count`` rows, ``size`` to a page."""
    last = max(0, (count - 1) // size)
    start = min(max(page, 0), last) * size
    return start, min(start + size, count)


def status_words(match: RowMatch, flagged: bool, b_id: Callable[[int], str],
                 rephrased: bool = False) -> str:
    """A row's state in words, for the explorer's Status column; ``rephrased``: the
    rephrase lens marks the row (said for a checkable row not flagged).

    >>> status_words(RowMatch(0, SHORT, 5, duplicate_of=3), False, lambda r: f"#{r + 1}")
    'short: equals B row #4'
    >>> status_words(RowMatch(0, CHECKABLE, 30, similar_b_row=6, similarity=0.7132),
    ...              False, lambda r: f"#{r + 1}", rephrased=True)
    'looks rephrased from B row #7 (similarity 0.713)'
    """
    if match.status == BLANK:
        return "blank"
    if match.status == SHORT:
        if match.duplicate_of is not None:
            return f"short: equals B row {b_id(match.duplicate_of)}"
        if match.contained_in is not None:
            return f"short: inside B row {b_id(match.contained_in)}"
        return "short"
    if flagged:
        return "flagged"
    if rephrased and match.similar_b_row is not None and match.similarity is not None:
        return (f"looks rephrased from B row {b_id(match.similar_b_row)} "
                f"(similarity {match.similarity:.3f})")
    if match.windows:
        return "shares a window, below the threshold"
    if match.contained_in is not None:
        return f"a field inside B row {b_id(match.contained_in)}"
    return "clean"


def row_figures(match: RowMatch, b_id: Callable[[int], str], b_file: str | None,
                field: str = "") -> str:
    """One row's figures in a sentence, for the panes' heading; ``field``: the field
    found whole in a B row (:func:`~ngram_core.method.match.contained_field`).

    >>> row_figures(RowMatch(0, CHECKABLE, 20, windows=2, dirty=14, span=14, b_row=4),
    ...             lambda r: f"d{r}", "train.jsonl")
    '20 tokens, 70.0% dirty, longest shared span 14 tokens, best B row d4 (train.jsonl)'
    >>> row_figures(RowMatch(0, CHECKABLE, 20, contained_in=2, contained_tokens=9),
    ...             lambda r: f"d{r}", None, "question")
    '20 tokens, 0.0% dirty, longest shared span 0 tokens, no B row shares a window, question (9 tokens) found whole in B row d2'
    """
    if match.status != CHECKABLE:
        return f"{match.tokens:,} token{'s' if match.tokens != 1 else ''}: not checkable " \
               f"({match.status})"
    words = [f"{match.tokens:,} tokens", f"{percent(match.share)} dirty",
             f"longest shared span {match.span:,} token{'s' if match.span != 1 else ''}"]
    if match.b_row is not None:
        words.append(f"best B row {b_id(match.b_row)}" + (f" ({b_file})" if b_file else ""))
    else:
        words.append("no B row shares a window")
    if field and match.contained_in is not None:
        words.append(f"{field} ({match.contained_tokens:,} tokens) found whole in B row "
                     f"{b_id(match.contained_in)}")
    return ", ".join(words)
