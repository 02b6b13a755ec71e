"""The test file's template: the n-token windows most of A's rows share.

An eval file whose every prompt holds the same instruction, or the same few-shot
examples, before its item holds those windows in every row: against a training file
that quotes the instruction, every row would be flagged, whatever leaked. A window
found in at least :data:`TEMPLATE_SHARE` of A's rows with text, and in at least
:data:`TEMPLATE_MIN_ROWS` of them, is the file's template, not an item. Its tokens
are left out of matching (unless the check keeps them): no window holding one of
them matches, so a window running from the instruction into the item's first word
is no finding either; the item's own windows match as ever. The reading names each
passage. A passage shared by a few questions (SQuAD's contexts, HellaSwag's, an NLI
premise over its 8 hypotheses) lies in far fewer than half of the rows, so it is
matched as any text is; and a row that is all template (a file of one text
repeated) is its own item, masked nowhere.

Rows are counted once per window however often a row repeats it. With n = 5, twelve
rows holding one instruction of 7 tokens before items of their own: each row is 12
tokens, window starts 0 to 7; the starts 0 to 6 hold an instruction token and are
masked, 7 lies in the item::

    >>> from ngram_core.method.tokenize import Tokenizer, tokenize_rows
    >>> from ngram_core.table import Row
    >>> t = Tokenizer()
    >>> rows = [Row(i, str(i), f"Answer the question below with one word. {i} plus {i} "
    ...                        f"makes what?") for i in range(1, 13)]
    >>> found = run_steps(find_template_steps(tokenize_rows(rows, t), 5, t))
    >>> len(found.windows), found.rows, found.masked[:4]
    (3, 12, (0, 7, 12, 19))
    >>> print(found.passages[0].describe("text", 12))
    text: a passage of 7 tokens shared by 12 of 12 rows left out as the file's template (Answer the question below with one word)
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections import Counter
from itertools import islice
from collections.abc import Sequence
from typing import NamedTuple

from .match import covered_runs
from ..steps import Pacer, run_steps
from .tokenize import TokenizedRows, tokenize_rows
from ..table import Row

#: A template window is in at least this share of A's rows with text...
TEMPLATE_SHARE = 0.5
#: ...and in at least this many of them.
TEMPLATE_MIN_ROWS = 10
#: Passages named in the reading, at most.
PASSAGES_SHOWN = 3
SAMPLE_CHARS = 60

__all__ = ["Passage", "Template", "find_template", "find_template_steps", "left_out",
           "template_for", "NO_TEMPLATE"]


class Passage(NamedTuple):
    """One run of template tokens as the first row holding it has it: its field
    (``""``: the row's only one), its tokens, the rows holding its first window,
    and its text, shortened."""
    field: str
    tokens: int
    rows: int
    sample: str

    def describe(self, single_field: str, rows_with_text: int) -> str:
        """The sentence for the reading."""
        return (f"{self.field or single_field}: a passage of {self.tokens:,} tokens shared by "
                f"{self.rows:,} of {rows_with_text:,} rows left out as the file's template "
                f"({self.sample})")


class Template(NamedTuple):
    """The template's windows (their keys, as the index's), the A rows holding one, the
    rows with text counted, its passages (at most :data:`PASSAGES_SHOWN`), and the A
    window starts it masks: global positions as sorted half-open ranges flattened
    ``(lo0, hi0, lo1, hi1, ...)``, see :func:`~ngram_core.method.match.masked_at`."""
    windows: frozenset
    rows: int
    rows_with_text: int
    passages: tuple[Passage, ...]
    masked: tuple[int, ...] = ()
    #: the rows where a passage the check was told to leave out was found (:func:`left_out`)
    left_out_rows: int = 0


NO_TEMPLATE = Template(frozenset(), 0, 0, ())
#: Tokens of A flagged at a time (common or not) between the steps' yields.
FLAG_CHUNK = 1 << 15


def find_template_steps(a: TokenizedRows, n: int, tokenizer):
    """A's template (see the module's rule), as steps yielding A tokens done."""
    offsets, buf = a.offsets, a.buffer
    rows = len(offsets) - 1
    with_text = sum(1 for r in range(rows) if offsets[r + 1] > offsets[r])
    need = max(TEMPLATE_MIN_ROWS, math.ceil(TEMPLATE_SHARE * with_text))
    if with_text < need:
        return NO_TEMPLATE
    # Every token of a window in `need` rows is in `need` rows: only the runs of n or more
    # such tokens can hold one (in prose, a run of 13 words each in half the rows is a
    # template or nothing), so only their windows are counted, and exactly.
    ids = a.ids
    token_rows: Counter = Counter()
    pacer = Pacer()
    for r in range(rows):
        token_rows.update(set(ids[offsets[r]:offsets[r + 1]]))
        if pacer.due():
            yield offsets[r] // 2
    common = frozenset(token for token, count in token_rows.items() if count >= need)
    if not common:
        return NO_TEMPLATE
    flag_parts = []                                # a byte per token: 1 if common
    for lo in range(0, len(ids), FLAG_CHUNK):
        flag_parts.append(bytes(map(common.__contains__, ids[lo:lo + FLAG_CHUNK])))
        if pacer.due():
            yield offsets[rows] // 2
    flags = b"".join(flag_parts)
    rows_of: Counter = Counter()
    width = 4 * n
    row_windows: set = set()                      # the windows of the row `current`
    current = -1
    in_rows: list[tuple[int, int, int]] = []      # (row, start, stop): runs cut at rows
    for run in re.finditer(b"\x01{%d,}" % n, flags):
        start, end = run.span()
        r = bisect_right(offsets, start) - 1
        while start <= end - n:                   # the run's part in each row it crosses
            stop = min(end, offsets[r + 1])
            if stop - start >= n:
                in_rows.append((r, start, stop))
                if r != current:                  # each row's windows counted once
                    rows_of.update(row_windows)
                    row_windows, current = set(), r
                first, last = 4 * start, 4 * (stop - n)
                row_windows.update(map(buf.__getitem__, map(slice, range(first, last + 4, 4),
                                                             range(first + width,
                                                                   last + width + 4, 4))))
            start, r = stop, r + 1
        if pacer.due():
            yield offsets[min(r, rows)] // 2 + offsets[rows] // 2
    rows_of.update(row_windows)
    windows = frozenset(key for key, count in rows_of.items() if count >= need)
    if not windows:
        return NO_TEMPLATE
    found_in: dict[int, list[int]] = {}   # row -> its template windows' starts, in order
    for r, start, stop in in_rows:        # a template window lies in a run of common tokens
        found_in.setdefault(r, []).extend(
            g - offsets[r] for g in range(start, stop - n + 1)
            if buf[4 * g:4 * g + width] in windows)
    holding = 0                           # rows holding a template window
    first_row, starts = -1, []            # the first of them, and its template's starts
    masked: list[int] = []                # sorted: rows and runs come in file order
    for r, found in found_in.items():     # rows in file order
        begin, end = offsets[r], offsets[r + 1]
        edges = covered_runs(found, n)           # the template's tokens in this row
        if found and edges != [0, end - begin]:  # a row all template is its own item
            holding += 1
            if first_row < 0:
                first_row, starts = r, found
            for lo, hi in zip(edges[::2], edges[1::2]):
                _add_range(masked, *_holding_starts(begin + lo, begin + hi, begin, end, n))
        if pacer.due():
            yield offsets[r]
    if not holding:
        return NO_TEMPLATE
    passages = []
    spans = tokenizer.spans(a.rows[first_row].text)
    text = a.rows[first_row].text
    begin = offsets[first_row]
    edges = covered_runs(starts, n)
    for start, end in islice(zip(edges[::2], edges[1::2]), PASSAGES_SHOWN):
        key = buf[4 * (begin + start):4 * (begin + start) + width]
        sample = text[spans[start][0]:spans[end - 1][1]]
        sample = " ".join(sample.split())
        if len(sample) > SAMPLE_CHARS:
            sample = sample[:SAMPLE_CHARS - 1].rstrip() + "…"
        passages.append(Passage(_field_at(a, first_row, start), end - start, rows_of[key],
                                sample))
    return Template(windows, holding, with_text, tuple(passages), tuple(masked))


def _field_at(a: TokenizedRows, row: int, token: int) -> str:
    """The field of ``row`` holding its token ``token`` (``""``: one field)."""
    ends = a.part_ends.get(row)
    if not ends:
        return ""
    part = next(i for i, end in enumerate(ends) if token < end)
    return a.rows[row].parts[part][0]


def find_template(a: TokenizedRows, n: int, tokenizer) -> Template:
    """:func:`find_template_steps` run to the end."""
    return run_steps(find_template_steps(a, n, tokenizer))


def left_out(template: Template, a: TokenizedRows, n: int, tokenizer,
             texts: Sequence[str]) -> Template:
    """``template`` with the passages ``texts`` left out too, as the template is: the
    ones a person dismissed (a licence line, a stock phrase). Wherever a text's whole
    token sequence lies in an A row, every window holding one of its tokens matches
    nothing; ``left_out_rows`` counts the rows where one was found. With n = 3, "the
    end" (matched as tokens: any case) in the second row, ``a b The end c``, tokens
    ``[4, 9)``: every window of that row holds one of its tokens (``a b the``, ``b the
    end``, ``the end c``), so the starts ``[4, 7)`` are masked::

        >>> from ngram_core.method.tokenize import Tokenizer
        >>> t = Tokenizer()
        >>> a = tokenize_rows([Row(1, "1", "x y z w"), Row(2, "2", "a b The end c")], t)
        >>> found = left_out(NO_TEMPLATE, a, 3, t, ["the END"])
        >>> found.masked, found.left_out_rows
        ((4, 7), 1)
    """
    texts = [text for text in texts if text.strip()]
    if not texts:
        return template
    passages = tokenize_rows([Row(k + 1, "", text) for k, text in enumerate(texts)], tokenizer)
    buf, offsets = a.buffer, a.offsets
    ranges = list(zip(template.masked[::2], template.masked[1::2]))
    rows: set[int] = set()
    for k in range(len(texts)):
        needle = passages.buffer[4 * passages.offsets[k]:4 * passages.offsets[k + 1]]
        size = len(needle) // 4
        at = buf.find(needle) if size else -1
        while at >= 0:
            g = at // 4
            r = bisect_right(offsets, g) - 1
            if at % 4 == 0 and g + size <= offsets[r + 1]:     # whole tokens, in one row
                ranges.append(_holding_starts(g, g + size, offsets[r], offsets[r + 1], n))
                rows.add(r)
            at = buf.find(needle, at + 1)
    merged: list[int] = []
    for first, stop in sorted(ranges):
        _add_range(merged, first, stop)
    return template._replace(masked=tuple(merged), left_out_rows=len(rows))


def template_for(a: TokenizedRows, settings, tokenizer) -> Template:
    """What a check masks in A: its template (none with ``settings.keep_template``),
    and the passages ``settings.leave_out`` names (:func:`left_out`)."""
    template = NO_TEMPLATE if settings.keep_template else find_template(a, settings.n,
                                                                        tokenizer)
    return left_out(template, a, settings.n, tokenizer, settings.leave_out)


def _holding_starts(lo: int, hi: int, begin: int, end: int, n: int) -> tuple[int, int]:
    """The ``[first, stop)`` starts of the windows of the row ``[begin, end)`` holding
    one of its tokens ``[lo, hi)``: ``lo - n + 1`` to ``hi - 1``, within the row
    (empty when no window of the row holds one)."""
    return max(lo - n + 1, begin), min(hi, end - n + 1)


def _add_range(ranges: list[int], first: int, stop: int) -> None:
    """Append ``[first, stop)`` to sorted flattened ranges (``first`` never before the
    last range's start), merged with the last one where they touch; empty: nothing."""
    if first >= stop:
        return
    if ranges and first <= ranges[-1]:
        ranges[-1] = max(ranges[-1], stop)
    else:
        ranges += (first, stop)
