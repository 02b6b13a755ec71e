"""The row explorer's rows (ngram_core.report.explore) against plain loops: every row is
listed under "all", each kind keeps exactly its rows, a search keeps exactly the
rows whose id or text holds it, each sort orders by its column with ties in
file order (the rephrase lens's similarity too), and the pages cover the list once."""

from __future__ import annotations

from fractions import Fraction
from functools import cmp_to_key

from hypothesis import given, settings
from hypothesis import strategies as st

from ngram_core.report.explore import SHOWS, SORTS, RowView, listed_rows, page_bounds
from ngram_core.method.match import BLANK, CHECKABLE, SHORT, RowMatch
from ngram_core.table import Row


@st.composite
def results(draw):
    """Random rows of A with random matches (statuses, shares, spans, B rows)."""
    count = draw(st.integers(0, 30))
    rows, matches = [], []
    for r in range(count):
        text = draw(st.text(alphabet="abcMOON ", max_size=12))
        rows.append(Row(r + 1, draw(st.sampled_from(["q1", "q2", "q10", "Q3", "x", f"r{r}"])),
                        text))
        status = draw(st.sampled_from([CHECKABLE, CHECKABLE, SHORT, BLANK]))
        tokens = 0 if status == BLANK else draw(st.integers(1, 20))
        if status == CHECKABLE:
            windows = draw(st.integers(0, 3))
            dirty = draw(st.integers(1, tokens)) if windows else 0
            span = min(dirty, draw(st.integers(0, tokens)))
            b_row = draw(st.integers(0, 5)) if windows else None
            similarity = draw(st.sampled_from([None, 0.0, 0.25, 0.5, 0.5, 0.75, 1.0]))
            matches.append(RowMatch(r, status, tokens, windows, dirty, span, b_row,
                                    similarity=similarity,
                                    similar_b_row=None if similarity is None else 3))
        else:
            kind = draw(st.sampled_from([None, "duplicate", "contained"])) if tokens else None
            matches.append(RowMatch(r, status, tokens,
                                    duplicate_of=2 if kind == "duplicate" else None,
                                    contained_in=1 if kind == "contained" else None))
    return rows, matches


def plain_kind(m: RowMatch, show: str, threshold: Fraction) -> bool:
    flagged = (m.status == CHECKABLE and m.windows >= 1
               and Fraction(m.dirty, m.tokens) * 100 >= threshold)
    return {"all": True, "flagged": flagged,
            "matched": m.status == CHECKABLE and m.windows > 0,
            "checkable": m.status == CHECKABLE,
            "duplicates": m.duplicate_of is not None,
            "contained": m.contained_in is not None,
            "unchecked": m.status != CHECKABLE,
            "rephrased": m.similarity is not None and m.similarity >= 0.5}[show]


def at_half(m: RowMatch) -> bool:
    """The rephrase lens's rule at a threshold of 0.5."""
    return m.similarity is not None and m.similarity >= 0.5


@settings(max_examples=150, deadline=None)
@given(results(), st.sampled_from(sorted(SHOWS)), st.sampled_from([0, 25, 50, 100]),
       st.sampled_from(["", "moon", "Q", "q1", "zz"]))
def test_each_kind_and_search_keeps_exactly_its_rows(result, show, threshold, search):
    rows, matches = result
    listed = listed_rows(matches, rows, RowView(show, search, "row"), threshold,
                         rephrased=at_half)
    expected = [m.row for m in matches
                if plain_kind(m, show, Fraction(threshold))
                and (not search or search.lower() in rows[m.row].id.lower()
                     or search.lower() in rows[m.row].text.lower())]
    assert listed == expected


def plain_order(matches, key, down: bool) -> list[int]:
    """Rows by ``key`` (high to low when ``down``), ties in file order: a plain comparison."""
    def compare(a, b):
        ka, kb = key(a), key(b)
        if ka != kb:
            return (-1 if ka > kb else 1) if down else (-1 if ka < kb else 1)
        return a.row - b.row
    return [m.row for m in sorted(matches, key=cmp_to_key(compare))]


@settings(max_examples=150, deadline=None)
@given(results(), st.sampled_from(sorted(set(SORTS) - {"id"})), st.sampled_from([None, True, False]))
def test_each_sort_orders_by_its_column_ties_in_file_order(result, sort, descending):
    rows, matches = result
    listed = listed_rows(matches, rows, RowView("all", "", sort, descending), 0)
    down = SORTS[sort][1] if descending is None else descending

    def checked(value):
        # rows that cannot be checked have no share, span or windows: below every checkable row
        return lambda m: (m.status == CHECKABLE, value(m) if m.status == CHECKABLE else 0)

    keys = {"row": lambda m: m.row, "tokens": lambda m: m.tokens,
            "share": checked(lambda m: Fraction(m.dirty, m.tokens)),
            "span": checked(lambda m: m.span), "windows": checked(lambda m: m.windows),
            "b_row": lambda m: (m.b_row is None, m.b_row or 0),
            "similarity": lambda m: (m.similarity is not None, m.similarity or 0)}
    if sort == "worst":
        # the product description's order (share, then span, high to low, then file
        # order), the rows that cannot be checked after it; reversed when asked
        worst = plain_order(matches, lambda m: (m.status == CHECKABLE,
                                                Fraction(m.dirty, m.tokens) if m.tokens else 0,
                                                m.span if m.status == CHECKABLE else 0), True)
        assert listed == (worst if down else worst[::-1])
    else:
        assert listed == plain_order(matches, keys[sort], down)


def test_ids_sort_in_human_order():
    rows = [Row(i + 1, name, "t") for i, name in enumerate(["q10", "q2", "Q1", "a"])]
    matches = [RowMatch(i, CHECKABLE, 1) for i in range(4)]
    assert [rows[r].id for r in listed_rows(matches, rows, RowView(sort="id"), 0)] == [
        "a", "Q1", "q2", "q10"]


def test_dirty_under_a_definition_keeps_its_rows_and_none_before_it_is_computed():
    rows = [Row(i + 1, str(i), "t") for i in range(4)]
    matches = [RowMatch(i, CHECKABLE, 1) for i in range(4)]
    view = RowView(show="dirty:gpt3", sort="row")
    assert listed_rows(matches, rows, view, 0, lambda name: {1, 3}) == [1, 3]
    assert listed_rows(matches, rows, view, 0) == []


@given(st.integers(0, 500), st.integers(1, 60))
def test_pages_cover_every_listed_row_once(count, size):
    covered = []
    page = 0
    while True:
        start, end = page_bounds(count, page, size)
        covered.extend(range(start, end))
        if end >= count:
            break
        page += 1
    assert covered == list(range(count))
    assert page_bounds(count, 10**6, size)[1] == count           # past the end: the last page
