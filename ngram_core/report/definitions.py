r"""Five published contamination definitions, computed side by side on the same two files.

Whatever n, threshold, mode, layers and frequency filter the user chose, each
definition runs on file A's and file B's rows with the loose tokenizer at the
default layers (L1+L3+L4, unspaced scripts one character a token), one fresh
:class:`~ngram_core.method.tokenize.Tokenizer` shared by both files; ``gpt4`` works
on characters instead. Ratios are compared exactly, as integers. "Considered"
rows are each definition's denominator; a row not considered is neither dirty
nor clean.

* ``gpt3`` (GPT-3 report, appendix C): N = the 5th-percentile token count of
  A's non-blank rows (nearest rank: the value at position ceil(0.05 * count)
  ascending), clamped to 8..13. N-windows found in more than 10 distinct B
  rows are ignored (exact counts). Considered: rows of at least 8 tokens.
  Dirty: at least one remaining N-window is in B.
* ``palm`` (PaLM, as quoted by the Llama 2 report): considered: rows of at
  least 8 tokens; dirty: ``found * 100 >= 70 * positions``, positions being
  the row's 8-window starts and found those whose window is in B.
* ``llama2`` (Llama 2 report, A.6, without its skip-gram budget): a token is
  contaminated when an 11-token window of the row holding it is in B.
  Considered: every non-blank row (0 tokens or fewer than 11: 0 %). Subsets
  clean (< 20 %), not clean (>= 20 %), not dirty (< 80 %), dirty (>= 80 %).
* ``gpt4`` (GPT-4 report, appendix C): the raw text keeps only characters of
  category L*, N*, M* (case kept), A and B alike. A processed text of at
  most 50 characters is its own sample; a longer one gives three samples of
  50 characters at ``rng.randrange(len - 49)`` from ``random.Random(a_row)``
  (a_row 1-based). Considered: at least one kept character. Dirty: some
  sample is a substring of one processed B row.
* ``tulu3`` (Tulu 3 decontamination): considered: rows of at least 8 tokens;
  for each B row, the row's tokens lying in an 8-window matched in that B row
  (among the first 32 B positions of each window, in file order, as the
  main index keeps them); dirty: ``2 * best > tokens`` (more than 50 %), best
  being the B row covering the most (ties: the first in file B).

The work is split so that the Dask engine can run B's side on its workers:
:func:`prepare_steps` reads A once into a :class:`Prepared` (with the
:class:`Probe` a worker needs: A's windows and samples, A's vocabulary),
:func:`find_steps` passes once over (a part of) B into :class:`Findings`,
which :meth:`Findings.merge` folds, and :func:`finalize_steps` walks A once
more into :class:`Definitions`. :func:`definitions_steps` does all three;
:func:`compute_definitions` runs it to the end::

    >>> from ngram_core.table import Row
    >>> words = "w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 w11 w12"
    >>> a = [Row(1, "a", words), Row(2, "b", "w1 w2 w3"), Row(3, "c", "")]
    >>> b = [Row(1, "x", "w0 " + words)]
    >>> d = compute_definitions(a, b)
    >>> d.gpt3.parameters["n"], d.as_dict()["palm"]["dirty"], d.as_dict()["llama2"]["considered"]
    (8, 1, 2)
    >>> d.cells(0), d.cells(1), d.cells(2)
    (('true', 'true', '1.0', 'true', 'true'), ('', '', '0.0', 'true', ''), ('', '', '', '', ''))

Standard library only; nothing here prints.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Collection, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import compress
from operator import sub
from typing import NamedTuple

from ..method.index import POSITION_CAP
from ..steps import Abandoned, Pacer, relabel, release_steps, run_steps, stage_fraction
from ..table import Row
from ..method.tokenize import DEFAULT_LAYERS, Tokenizer, TokenizedRows, tokenize_rows_steps

#: The definitions, in the order of the JSON summary and the rows-CSV columns.
NAMES = ("gpt3", "palm", "llama2", "gpt4", "tulu3")
#: The rows-CSV columns, after the existing ones.
CSV_COLUMNS = NAMES

MIN_TOKENS = 8                  # gpt3, palm and tulu3 consider rows of at least 8 tokens
GPT3_N_MIN, GPT3_N_MAX, GPT3_PERCENTILE, GPT3_MAX_B_ROWS = 8, 13, 5, 10
PALM_N, PALM_PERCENT = 8, 70
LLAMA2_N, LLAMA2_CLEAN_BELOW, LLAMA2_DIRTY_AT = 11, 20, 80
GPT4_CHARS, GPT4_SAMPLES = 50, 3
TULU3_N, TULU3_PERCENT, TULU3_CAP = 8, 50, POSITION_CAP
#: The four llama2 subsets, in the order of the JSON and of the score figures.
LLAMA2_SUBSETS = ("clean", "not_clean", "not_dirty", "dirty")

#: Windows walked between two looks at the clock.
_CHUNK = 2048


class Description(NamedTuple):
    """What the page and the README say about one definition."""
    title: str
    source: str
    counts: str
    rule: str
    departs: str


DESCRIPTIONS = {
    "gpt3": Description(
        "GPT-3", "Brown et al. 2020, Language Models are Few-Shot Learners, appendix C",
        "N-token windows",
        "N = the 5th-percentile token count of A's non-blank rows (nearest rank), clamped "
        "to 8..13; windows found in more than 10 B rows are ignored; dirty: at least one "
        "N-window of the row is in B; considered: rows of 8 tokens or more.",
        "Word tokens of the loose tokenizer (L1+L3+L4), not the paper's lower-cased words "
        "without punctuation; B rows stand for training documents, and 'more than 10' "
        "counts distinct B rows. A row of 8 to N-1 tokens is considered but has no "
        "N-window, so it counts as clean."),
    "palm": Description(
        "PaLM", "Chowdhery et al. 2022, as quoted by the Llama 2 report (Touvron et al. "
        "2023), appendix A.6", "8-token windows",
        "Dirty: at least 70 % of the row's 8-window positions occur in B; considered: rows "
        "of 8 tokens or more.",
        "Word tokens of the loose tokenizer, not model tokens; B rows stand for the "
        "pre-training corpus; a window repeated in the row counts at each position."),
    "llama2": Description(
        "Llama 2", "Touvron et al. 2023, Llama 2: Open Foundation and Fine-Tuned Chat "
        "Models, appendix A.6", "tokens",
        "A token is contaminated when it lies in an 11-token window (longer than 10) found "
        "in B; clean < 20 %, not clean >= 20 %, not dirty < 80 %, dirty >= 80 % of the "
        "row's tokens; considered: every non-blank row.",
        "Word tokens of the loose tokenizer, not Llama's model tokens, and no skip-gram "
        "budget: a match is exact. A row of fewer than 11 tokens is 0 % contaminated."),
    "gpt4": Description(
        "GPT-4", "OpenAI 2023, GPT-4 Technical Report, appendix C", "characters",
        "Each text keeps only letters, digits and marks (categories L*, N*, M*; case "
        "kept); three 50-character samples (or the whole text when it has at most 50); "
        "dirty: a sample is a substring of one processed B row; considered: rows with at "
        "least one kept character.",
        "Sample positions come from random.Random(row number) so the figure is "
        "reproducible; combining marks are kept (letters without their accents would "
        "match other words); B rows stand for training examples."),
    "tulu3": Description(
        "Tülu 3", "Lambert et al. 2024, Tülu 3: Pushing Frontiers in Open Language Model "
        "Post-Training, decontamination", "tokens",
        "Dirty: more than 50 % of the row's tokens lie in 8-token windows shared with one "
        "single B row (the B row covering the most); considered: rows of 8 tokens or more.",
        "Word tokens of the loose tokenizer, an exact index instead of a search engine, and "
        "the main check's cap: a window found more than 32 times in B is seen at its first "
        "32 positions only."),
}


# --- the result -----------------------------------------------------------------

class Measure(NamedTuple):
    """What one definition measured on one considered row: ``found`` of ``total``
    (windows, tokens or samples, see :data:`UNITS`)."""
    found: int
    total: int


#: What each definition's :class:`Measure` counts.
UNITS = {"gpt3": "N-window positions", "palm": "8-window positions",
         "llama2": "tokens", "gpt4": "samples", "tulu3": "tokens"}


@dataclass(frozen=True)
class Definition:
    """One definition over A's rows (0-based, file order).

    ``measures[r]`` is None where row r is not considered, else its
    :class:`Measure`; ``dirty[r]`` is False where it is not considered. For
    ``tulu3``, ``b_rows[r]`` is the B row (0-based) covering the most tokens
    (None: none). For ``llama2``, ``dirty`` is its dirty subset.
    """
    name: str
    parameters: dict
    measures: tuple[Measure | None, ...]
    dirty: tuple[bool, ...]
    b_rows: tuple[int | None, ...] | None = None

    @property
    def considered(self) -> list[bool]:
        return [m is not None for m in self.measures]

    @cached_property
    def considered_count(self) -> int:
        return len(self.measures) - self.measures.count(None)

    @cached_property
    def dirty_count(self) -> int:
        return sum(self.dirty)

    @cached_property
    def subset_counts(self) -> dict[str, int]:
        """How many rows each of :meth:`subsets` holds, counted once. llama2's
        subsets pair up as complements among the considered rows (clean and
        not_clean; dirty and not_dirty), so only ``clean`` needs a pass."""
        considered, dirty = self.considered_count, self.dirty_count
        if self.name != "llama2":
            return {"clean": considered - dirty, "dirty": dirty}
        clean = sum(1 for m in self.measures if m is not None and _in_subset("clean", m))
        return {"clean": clean, "not_clean": considered - clean,
                "not_dirty": considered - dirty, "dirty": dirty}

    def subsets(self) -> dict[str, list[bool]]:
        """llama2's four subsets, per row (False where not considered); for any other
        definition ``clean`` and ``dirty`` (clean: considered and not dirty)."""
        if self.name != "llama2":
            return {"clean": [m is not None and not d for m, d in zip(self.measures, self.dirty)],
                    "dirty": list(self.dirty)}
        return {name: [m is not None and _in_subset(name, m) for m in self.measures]
                for name in LLAMA2_SUBSETS}

    def as_dict(self) -> dict:
        """``{"parameters": {...}, "considered": int, "dirty": int}``; llama2 adds
        ``clean``, ``not_clean`` and ``not_dirty``."""
        out = {"parameters": dict(self.parameters), "considered": self.considered_count,
               "dirty": self.dirty_count}
        if self.name == "llama2":
            out.update((name, count) for name, count in self.subset_counts.items()
                       if name != "dirty")
        return out

    def cell(self, r: int) -> str:
        """The rows-CSV cell: ``true``/``false``; llama2 its unrounded share as
        ``repr(float)`` of the exact ratio (``0.0`` for a row of no tokens); empty
        where the row is not considered."""
        m = self.measures[r]
        if m is None:
            return ""
        if self.name == "llama2":
            return repr(m.found / m.total if m.total else 0.0)
        return "true" if self.dirty[r] else "false"


def _in_subset(name: str, m: Measure) -> bool:
    """Whether a considered row's llama2 measure is in a subset, compared exactly."""
    share_100 = m.found * 100            # share * 100 * total
    if name == "clean":
        return m.total == 0 or share_100 < LLAMA2_CLEAN_BELOW * m.total
    if name == "not_clean":
        return m.total > 0 and share_100 >= LLAMA2_CLEAN_BELOW * m.total
    if name == "not_dirty":
        return m.total == 0 or share_100 < LLAMA2_DIRTY_AT * m.total
    return m.total > 0 and share_100 >= LLAMA2_DIRTY_AT * m.total


@dataclass(frozen=True)
class Definitions:
    """The five definitions over the same A rows."""
    gpt3: Definition
    palm: Definition
    llama2: Definition
    gpt4: Definition
    tulu3: Definition

    def __getitem__(self, name: str) -> Definition:
        if name not in NAMES:
            raise KeyError(name)
        return getattr(self, name)

    def __iter__(self):
        return (getattr(self, name) for name in NAMES)

    @property
    def rows(self) -> int:
        return len(self.gpt3.measures)

    def as_dict(self) -> dict:
        """The JSON summary's ``definitions``: ``{name: {"parameters", "considered",
        "dirty", ...}}`` in :data:`NAMES` order."""
        return {d.name: d.as_dict() for d in self}

    def cells(self, r: int) -> tuple[str, ...]:
        """A row's cells for the :data:`CSV_COLUMNS`."""
        return tuple(d.cell(r) for d in self)

    def dirty_names(self, r: int) -> list[str]:
        """The definitions that call row r dirty (llama2: its dirty subset)."""
        return [d.name for d in self if d.dirty[r]]

    def dirty_rows(self, name: str) -> set[int]:
        """The 0-based A rows dirty under one definition (the clean split drops them)."""
        return {r for r, dirty in enumerate(self[name].dirty) if dirty}


class DefinitionsProgress(NamedTuple):
    """One step's report: ``stage`` is one of :data:`STAGES`; done and total in its units."""
    stage: str
    done: int
    total: int

    @property
    def fraction(self) -> float:
        return stage_fraction(_STAGE_SPAN, self.stage, self.done, self.total)


STAGES = ("tokenize A", "prepare A", "tokenize B", "search B", "samples in B", "verdicts")
_STAGE_SPAN = {"tokenize A": (0.0, 0.1), "prepare A": (0.1, 0.1), "tokenize B": (0.2, 0.15),
               "search B": (0.35, 0.25), "samples in B": (0.6, 0.15), "verdicts": (0.75, 0.25)}


def _stage(stage: str, total: int, steps):
    return relabel(steps, lambda done: DefinitionsProgress(stage, done, total))


# --- gpt4's characters ------------------------------------------------------------

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


@lru_cache(maxsize=1)
def _dropped_bmp() -> re.Pattern[str]:
    """Runs of BMP characters that are not L*, N* or M* (astral ones: see :func:`gpt4_text`)."""
    category = unicodedata.category
    ranges: list[tuple[int, int]] = []
    start = -1
    for cp in range(0x10001):
        drop = cp < 0x10000 and category(chr(cp))[0] not in "LNM"
        if drop and start < 0:
            start = cp
        elif not drop and start >= 0:
            ranges.append((start, cp - 1))
            start = -1
    body = "".join("\\u%04x" % a if a == b else "\\u%04x-\\u%04x" % (a, b) for a, b in ranges)
    return re.compile(f"[{body}]+")


def _astral(m: re.Match[str]) -> str:
    ch = m.group()
    return ch if unicodedata.category(ch)[0] in "LNM" else ""


def gpt4_text(text: str) -> str:
    """A text as gpt4 compares it: only letters, digits and marks, case kept.

    >>> gpt4_text("Fact #1: l'été, 10°C!")
    'Fact1lété10C'
    """
    if not text.isascii() and _ASTRAL.search(text):
        text = _ASTRAL.sub(_astral, text)
    return _dropped_bmp().sub("", text)


#: Longer texts are processed in pieces of this many characters (each character is
#: kept or dropped on its own, so the pieces give the same text).
_TEXT_PIECE = 1 << 16


def _gpt4_text_steps(text: str, pacer: Pacer):
    """:func:`gpt4_text` of a long text piece by piece, yielding when due."""
    if len(text) <= _TEXT_PIECE:
        return gpt4_text(text)
    parts = []
    for at in range(0, len(text), _TEXT_PIECE):
        parts.append(gpt4_text(text[at:at + _TEXT_PIECE]))
        if pacer.due():
            yield at
    return "".join(parts)


def gpt4_samples(processed: str, a_row: int) -> tuple[str, ...]:
    """The samples of one processed A text (``a_row`` 1-based): none for an empty
    text, the text itself up to 50 characters, else three 50-character slices."""
    if not processed:
        return ()
    if len(processed) <= GPT4_CHARS:
        return (processed,)
    rng = random.Random(a_row)
    starts = [rng.randrange(len(processed) - GPT4_CHARS + 1) for _ in range(GPT4_SAMPLES)]
    return tuple(processed[s:s + GPT4_CHARS] for s in starts)


#: Anchored indexes of the haystack for needles of at least k + s - 1 characters:
#: the k characters at every s-th position (see :func:`found_in_steps`).
_ANCHORS = ((25, 26), (12, 13), (6, 7))
#: Fewer needles than this at one anchor level or one length: searched with ``in``.
_FEW_NEEDLES = 24
#: Candidate positions above which a needle is searched by a scan of its length.
_CANDIDATES_MAX = 2048
_SCAN_CHUNK = 1 << 17


def found_in_steps(needles: Collection[str], haystack: str):
    """The needles that are substrings of the haystack (joined texts), as steps.

    No needle may hold the haystack's separator. A needle of at least
    ``k + s - 1`` characters is looked up in an index of the haystack's
    k-character slices at every s-th position: an occurrence at p holds the
    indexed slice at the one multiple of s in ``[p, p + s)``, at offset j of
    the needle, so the needle's slices at offsets 0..s-1 find every
    occurrence, each candidate verified with ``startswith``. Shorter needles
    (and those whose slices are too common) are found by one scan of the
    haystack's slices of their length, or with ``in`` when they are few::

        >>> sorted(run_steps(found_in_steps({"abc", "bcd", "zz"}, "xabc\\x00bcd")))
        ['abc', 'bcd']
    """
    found: set[str] = set()
    by_level: dict[tuple[int, int], list[str]] = {}
    by_length: dict[int, list[str]] = {}
    for needle in needles:
        level = next(((k, s) for k, s in _ANCHORS if len(needle) >= k + s - 1), None)
        if level is None:
            by_length.setdefault(len(needle), []).append(needle)
        else:
            by_level.setdefault(level, []).append(needle)
    pacer = Pacer()
    done = 0
    for (k, s), group in by_level.items():
        if len(group) < _FEW_NEEDLES:
            for needle in group:
                by_length.setdefault(len(needle), []).append(needle)
            continue
        anchors: dict[str, int | list[int]] = {}
        for q in range(0, len(haystack) - k + 1, s):
            key = haystack[q:q + k]
            value = anchors.get(key)
            if value is None:
                anchors[key] = q
            elif isinstance(value, int):
                anchors[key] = [value, q]
            else:
                value.append(q)
            if q % _SCAN_CHUNK < s and pacer.due():
                yield done
        get = anchors.get
        for needle in group:
            candidates: list[tuple[int, int | list[int]]] = []
            count = 0
            for j in range(s):
                value = get(needle[j:j + k])
                if value is not None:
                    candidates.append((j, value))
                    count += 1 if isinstance(value, int) else len(value)
            if count > _CANDIDATES_MAX:
                by_length.setdefault(len(needle), []).append(needle)
                continue
            for j, value in candidates:
                if any(q >= j and haystack.startswith(needle, q - j)
                       for q in ((value,) if isinstance(value, int) else value)):
                    found.add(needle)
                    break
            done += 1
            if pacer.due():
                yield done
        del anchors
    for length, group in by_length.items():
        if len(group) < _FEW_NEEDLES:
            for needle in group:
                if needle in haystack:
                    found.add(needle)
                done += 1
                if pacer.due():
                    yield done
            continue
        wanted = set(group)
        last = len(haystack) - length + 1
        for first in range(0, max(last, 0), _SCAN_CHUNK):
            stop = min(first + _SCAN_CHUNK, last)
            found |= wanted.intersection(map(haystack.__getitem__,
                                             map(slice, range(first, stop),
                                                 range(first + length, stop + length))))
            if pacer.due():
                yield done
        done += len(group)
    return found


# --- A's side: what to look for in B ----------------------------------------------

def gpt3_n(token_counts: Iterable[int]) -> int:
    """GPT-3's N from the token counts of A's non-blank rows: the nearest-rank 5th
    percentile (position ceil(0.05 * count), 1-based, ascending), clamped to 8..13;
    13 when there is no row.

    >>> gpt3_n([20] * 19 + [9]), gpt3_n([20] * 20 + [9]), gpt3_n([3, 11]), gpt3_n([])
    (9, 13, 8, 13)
    """
    counts = sorted(token_counts)
    if not counts:
        return GPT3_N_MAX
    position = -(-len(counts) * GPT3_PERCENTILE // 100)       # ceil, at least 1
    return min(max(counts[position - 1], GPT3_N_MIN), GPT3_N_MAX)


@dataclass
class Probe:
    """What B is searched for (small: a Dask worker receives it): A's vocabulary,
    gpt3's N and A's windows of N, 8 and 11 tokens, and gpt4's samples."""
    vocabulary: dict[str, int]
    n_gpt3: int
    windows_gpt3: set[bytes]
    windows_8: set[bytes]
    windows_11: set[bytes]
    samples: set[str]

    def tokenizer(self) -> Tokenizer:
        """The definitions' tokenizer with A's vocabulary, frozen (B tokens A lacks
        get an id no window of A holds)."""
        return Tokenizer("loose", DEFAULT_LAYERS, known=self.vocabulary)


@dataclass
class Prepared:
    """A's side, kept by the caller: A's tokens and blank rows, each row's gpt4
    samples, and the :class:`Probe` for B."""
    a: TokenizedRows
    blank: list[bool]
    samples: list[tuple[str, ...]]
    probe: Probe


def _windows(buf: bytes, start: int, end: int, n: int):
    """The keys of the n-token windows starting in tokens ``[start, end - n]``, in order
    (an iterator run in C: slices of ``buf``, 4 bytes a token)."""
    width, last = 4 * n, 4 * (end - n + 1)
    return map(buf.__getitem__, map(slice, range(4 * start, last, 4),
                                    range(4 * start + width, last + width, 4)))


def _chunks(start: int, end: int, n: int):
    """``(first, stop)``: the n-window starts of tokens ``[start, end)`` in pieces of
    :data:`_CHUNK` (so a 2 MB row is walked in short steps)."""
    last = end - n + 1
    return ((first, min(first + _CHUNK, last)) for first in range(start, last, _CHUNK))


def prepare_steps(a_rows: Sequence[Row], a: TokenizedRows | None = None,
                  tokenizer: Tokenizer | None = None):
    """Read A once: yields :class:`DefinitionsProgress`, returns a :class:`Prepared`.

    ``a``: A's rows already tokenized by ``tokenizer`` (loose, default layers);
    without it A is tokenized here by ``tokenizer`` or a fresh Tokenizer.
    """
    tokenizer = tokenizer if tokenizer is not None else Tokenizer()
    yield DefinitionsProgress("prepare A", 0, len(a_rows))
    if a is None:
        chars = sum(len(r.text) for r in a_rows)
        a = yield from _stage("tokenize A", chars, tokenize_rows_steps(a_rows, tokenizer))
    blank = [row.blank for row in a_rows]
    lengths = list(map(sub, a.offsets[1:], a.offsets[:-1]))
    n_gpt3 = gpt3_n(t for t, is_blank in zip(lengths, blank) if not is_blank)
    buf, offsets = a.buffer, a.offsets
    windows_gpt3: set[bytes] = set()
    windows_8: set[bytes] = set()
    windows_11: set[bytes] = set()
    samples: list[tuple[str, ...]] = []
    needles: set[str] = set()
    pacer = Pacer()
    total = len(a_rows)
    try:
        for r, row in enumerate(a_rows):
            start, end = offsets[r], offsets[r + 1]
            if lengths[r] >= MIN_TOKENS:
                for n, into in ((n_gpt3, windows_gpt3), (TULU3_N, windows_8),
                                (LLAMA2_N, windows_11)):
                    for first, stop in _chunks(start, end, n):
                        into.update(_windows(buf, first, stop + n - 1, n))
                        if pacer.due():
                            yield DefinitionsProgress("prepare A", r, total)
            processed = yield from relabel(_gpt4_text_steps(row.text, pacer),
                                           lambda _: DefinitionsProgress("prepare A", r, total))
            row_samples = gpt4_samples(processed, r + 1)
            samples.append(row_samples)
            needles.update(row_samples)
            if pacer.due():
                yield DefinitionsProgress("prepare A", r, total)
    except Abandoned:                    # a cancelled run: let go in steps
        yield from release_steps([windows_gpt3, windows_8, windows_11, needles])
        raise
    probe = Probe(dict(tokenizer.vocabulary), n_gpt3, windows_gpt3, windows_8, windows_11,
                  needles)
    return Prepared(a, blank, samples, probe)


# --- B's side ----------------------------------------------------------------------

#: One occurrence of an A 8-window in B, as one int (no object for the collector to
#: walk): ``partition << 80 | position << 40 | b_row``, its partition (numbered in
#: file order), its token position in that partition and its B row (0-based) in that
#: partition; so occurrences order as B's file does. See :func:`seen_code`.
Seen = int
_POSITION_SHIFT, _PARTITION_SHIFT, _ROW_MASK = 40, 80, (1 << 40) - 1


def seen_code(partition: int, position: int, b_row: int) -> Seen:
    """One occurrence as its :data:`Seen` code.

    >>> code = seen_code(2, 7, 3)
    >>> code >> 80, (code >> 40) & (2**40 - 1), code & (2**40 - 1)
    (2, 7, 3)
    """
    return partition << _PARTITION_SHIFT | position << _POSITION_SHIFT | b_row


def _as_list(value: Seen | list[Seen]) -> list[Seen]:
    return [value] if isinstance(value, int) else value


@dataclass
class Findings:
    """What (a part of) B holds of a :class:`Probe`.

    ``rows_gpt3``: per A window of N tokens, the distinct B rows holding it;
    ``seen_8``: per A 8-window, its first 32 occurrences in B in file order
    (:data:`Seen` codes: one int, or a list of them); ``found_11``: A's 11-windows found in B;
    ``found_samples``: gpt4 samples that are substrings of a processed B row.
    :meth:`merge` folds the findings of partitions (each merged once) in any
    order.
    """
    rows_gpt3: dict[bytes, int] = field(default_factory=dict)
    seen_8: dict[bytes, Seen | list[Seen]] = field(default_factory=dict)
    found_11: set[bytes] = field(default_factory=set)
    found_samples: set[str] = field(default_factory=set)

    def merge(self, other: Findings) -> Findings:
        """Add another partition's findings: counts add, sets unite, each window keeps
        its first 32 occurrences (by partition, then position)."""
        for key, rows in other.rows_gpt3.items():
            self.rows_gpt3[key] = self.rows_gpt3.get(key, 0) + rows
        for key, seen in other.seen_8.items():
            mine = self.seen_8.get(key)
            if mine is not None:
                merged = sorted(set(_as_list(mine)) | set(_as_list(seen)))[:TULU3_CAP]
                seen = merged[0] if len(merged) == 1 else merged
            self.seen_8[key] = seen
        self.found_11 |= other.found_11
        self.found_samples |= other.found_samples
        return self


def _longer_hits(buf: bytes, first: int, stop: int, end: int, n: int, hits: list[int],
                 wanted: Container[bytes]) -> list[int]:
    """Of the n-windows starting at ``first + i`` (i in ``hits``, the starts whose
    8-window matched; every wanted n-window starts with one), those in ``wanted``,
    as offsets i. Few hits: each is sliced; many: every window of the chunk is
    looked up in C."""
    last = min(stop, end - n + 1)
    if last <= first:
        return []
    if len(hits) * 4 < last - first:
        width = 4 * n
        return [i for i in hits if first + i < last and
                buf[4 * (first + i):4 * (first + i) + width] in wanted]
    return list(compress(range(last - first),
                         map(wanted.__contains__, _windows(buf, first, last + n - 1, n))))


def find_steps(probe: Probe, b_rows: Sequence[Row], b: TokenizedRows | None = None,
               partition: int = 0):
    """One pass over B's windows and one search of B's characters: yields
    :class:`DefinitionsProgress`, returns :class:`Findings`.

    ``b``: B's rows tokenized with the same vocabulary as A (by the tokenizer
    that tokenized A, or :meth:`Probe.tokenizer`); without it they are
    tokenized here with :meth:`Probe.tokenizer`. ``partition``: this part's
    number in file order (0 when B is read whole).
    """
    if b is None:
        chars = sum(len(r.text) for r in b_rows)
        b = yield from _stage("tokenize B", chars,
                              tokenize_rows_steps(b_rows, probe.tokenizer()))
    yield DefinitionsProgress("search B", 0, len(b.ids))
    out = Findings()
    buf, offsets = b.buffer, b.offsets
    n_gpt3 = probe.n_gpt3
    wanted_gpt3, wanted_8, wanted_11 = probe.windows_gpt3, probe.windows_8, probe.windows_11
    rows_gpt3, seen_8, found_11 = out.rows_gpt3, out.seen_8, out.found_11
    pacer = Pacer()
    total = len(b.ids)
    try:
        for r in range(len(offsets) - 1):
            start, end = offsets[r], offsets[r + 1]
            in_row: set[bytes] = set()
            code_row = partition << _PARTITION_SHIFT | r
            for first, stop in _chunks(start, end, TULU3_N):
                keys = list(_windows(buf, first, stop + TULU3_N - 1, TULU3_N))
                hits = list(compress(range(len(keys)), map(wanted_8.__contains__, keys)))
                for i in hits:
                    seen = seen_8.get(keys[i])
                    if seen is None:
                        seen_8[keys[i]] = code_row | (first + i) << _POSITION_SHIFT
                    elif isinstance(seen, int):
                        seen_8[keys[i]] = [seen, code_row | (first + i) << _POSITION_SHIFT]
                    elif len(seen) < TULU3_CAP:
                        seen.append(code_row | (first + i) << _POSITION_SHIFT)
                if hits:
                    for n, wanted, into in ((LLAMA2_N, wanted_11, found_11),
                                            (n_gpt3, wanted_gpt3, in_row)):
                        width = 4 * n
                        into.update(buf[4 * (first + i):4 * (first + i) + width] for i in
                                    _longer_hits(buf, first, stop, end, n, hits, wanted))
                if pacer.due():
                    yield DefinitionsProgress("search B", stop, total)
            for count, key in enumerate(in_row, 1):
                rows_gpt3[key] = rows_gpt3.get(key, 0) + 1
                if count % _CHUNK == 0 and pacer.due():
                    yield DefinitionsProgress("search B", end, total)
            if pacer.due():                  # 200,000 rows too short for a window: still steps
                yield DefinitionsProgress("search B", end, total)
        if probe.samples:
            texts = []
            for r, row in enumerate(b_rows):
                texts.append((yield from relabel(
                    _gpt4_text_steps(row.text, pacer),
                    lambda _: DefinitionsProgress("samples in B", 0, len(probe.samples)))))
                if pacer.due():
                    yield DefinitionsProgress("samples in B", 0, len(probe.samples))
            out.found_samples = yield from _stage("samples in B", len(probe.samples),
                                                  found_in_steps(probe.samples, "\x00".join(texts)))
    except Abandoned:
        yield from release_steps([rows_gpt3, seen_8, found_11])
        raise
    return out


# --- A again: the verdicts -----------------------------------------------------------

def finalize_steps(prepared: Prepared, findings: Findings,
                   first_rows: Mapping[int, int] | None = None):
    """Each A row's verdict under each definition: yields
    :class:`DefinitionsProgress`, returns :class:`Definitions`.

    ``first_rows``: the global number of each partition's first B row (None:
    one partition, numbered from 0), for tulu3's best B row.
    """
    a, probe = prepared.a, prepared.probe
    buf, offsets = a.buffer, a.offsets
    n_gpt3 = probe.n_gpt3
    seen_8, found_11 = findings.seen_8, findings.found_11
    found_samples = findings.found_samples
    per_name: dict[str, list[Measure | None]] = {name: [] for name in NAMES}
    dirty: dict[str, list[bool]] = {name: [] for name in NAMES}
    tulu3_rows: list[int | None] = []
    pacer = Pacer()
    total = len(prepared.blank)
    yield DefinitionsProgress("verdicts", 0, total)
    kept_gpt3: set[bytes] = set()            # gpt3's windows in 1..10 B rows
    for count, (key, rows) in enumerate(findings.rows_gpt3.items(), 1):
        if rows <= GPT3_MAX_B_ROWS:
            kept_gpt3.add(key)
        if count % _CHUNK == 0 and pacer.due():
            yield DefinitionsProgress("verdicts", 0, total)
    for r, is_blank in enumerate(prepared.blank):
        start, end = offsets[r], offsets[r + 1]
        tokens = end - start
        contaminated = 0                   # llama2's tokens in 11-windows found in B
        if tokens >= MIN_TOKENS:
            hits_8 = hits_gpt3 = 0
            covered_end = 0
            covered: dict[int, list[int]] = {}      # B row -> [tokens covered, covered end]
            last_seen: list[Seen] | None = None
            rows_of_seen: Iterable[int] = ()
            for first, stop in _chunks(start, end, TULU3_N):
                # every window the definitions look up starts with an 8-window B holds
                keys = list(_windows(buf, first, stop + TULU3_N - 1, TULU3_N))
                hits = list(compress(range(len(keys)), map(seen_8.__contains__, keys)))
                if not hits:
                    continue
                hits_8 += len(hits)
                hits_gpt3 += len(_longer_hits(buf, first, stop, end, n_gpt3, hits, kept_gpt3))
                offset = first - start
                for i in _longer_hits(buf, first, stop, end, LLAMA2_N, hits, found_11):
                    g = offset + i
                    contaminated += LLAMA2_N if g >= covered_end else g + LLAMA2_N - covered_end
                    covered_end = g + LLAMA2_N
                for i in hits:
                    seen = seen_8[keys[i]]
                    if isinstance(seen, int):
                        rows_of_seen = (_global_row(seen, first_rows),)
                        last_seen = None
                    elif seen is not last_seen:
                        last_seen = seen
                        rows_of_seen = {_global_row(one, first_rows) for one in seen}
                    g = offset + i
                    for b_row in rows_of_seen:
                        state = covered.get(b_row)
                        if state is None:
                            covered[b_row] = [TULU3_N, g + TULU3_N]
                        else:
                            state[0] += TULU3_N if g >= state[1] else g + TULU3_N - state[1]
                            state[1] = g + TULU3_N
                if pacer.due():
                    yield DefinitionsProgress("verdicts", r, total)
            _add(per_name, dirty, "gpt3", Measure(hits_gpt3, max(tokens - n_gpt3 + 1, 0)),
                 hits_gpt3 >= 1)
            positions = tokens - PALM_N + 1
            _add(per_name, dirty, "palm", Measure(hits_8, positions),
                 hits_8 * 100 >= PALM_PERCENT * positions)
            best_row, best = None, 0
            for b_row, (count, _) in covered.items():
                if count > best or (count == best and best_row is not None and b_row < best_row):
                    best_row, best = b_row, count
            _add(per_name, dirty, "tulu3", Measure(best, tokens),
                 best * 100 > TULU3_PERCENT * tokens)
            tulu3_rows.append(best_row)
        else:
            for name in ("gpt3", "palm", "tulu3"):
                _add(per_name, dirty, name, None, False)
            tulu3_rows.append(None)
        # llama2: every non-blank row
        if is_blank:
            _add(per_name, dirty, "llama2", None, False)
        else:
            m = Measure(contaminated, tokens)
            _add(per_name, dirty, "llama2", m, _in_subset("dirty", m))
        # gpt4
        samples = prepared.samples[r]
        if samples:
            in_b = sum(s in found_samples for s in samples)
            _add(per_name, dirty, "gpt4", Measure(in_b, len(samples)), in_b >= 1)
        else:
            _add(per_name, dirty, "gpt4", None, False)
        if pacer.due():
            yield DefinitionsProgress("verdicts", r, total)
    return Definitions(**{name: Definition(name, _parameters(name, n_gpt3),
                                           tuple(per_name[name]), tuple(dirty[name]),
                                           tuple(tulu3_rows) if name == "tulu3" else None)
                          for name in NAMES})


def _global_row(seen: Seen, first_rows: Mapping[int, int] | None) -> int:
    b_row = seen & _ROW_MASK
    return b_row if first_rows is None else first_rows[seen >> _PARTITION_SHIFT] + b_row


def _add(per_name, dirty, name: str, measure: Measure | None, is_dirty: bool) -> None:
    per_name[name].append(measure)
    dirty[name].append(is_dirty)


def _parameters(name: str, n_gpt3: int) -> dict:
    """Each definition's parameters, as the JSON summary gives them."""
    return {
        "gpt3": {"n": n_gpt3, "n_min": GPT3_N_MIN, "n_max": GPT3_N_MAX,
                 "percentile": GPT3_PERCENTILE, "max_b_rows": GPT3_MAX_B_ROWS,
                 "min_tokens": MIN_TOKENS},
        "palm": {"n": PALM_N, "min_tokens": MIN_TOKENS, "dirty_at_percent": PALM_PERCENT},
        "llama2": {"n": LLAMA2_N, "clean_below_percent": LLAMA2_CLEAN_BELOW,
                   "dirty_at_percent": LLAMA2_DIRTY_AT},
        "gpt4": {"sample_chars": GPT4_CHARS, "samples": GPT4_SAMPLES},
        "tulu3": {"n": TULU3_N, "min_tokens": MIN_TOKENS, "dirty_above_percent": TULU3_PERCENT,
                  "positions_per_window": TULU3_CAP},
    }[name]


# --- all at once ---------------------------------------------------------------------

def definitions_steps(a_rows: Sequence[Row], b_rows: Sequence[Row],
                      tokens: tuple[TokenizedRows, TokenizedRows] | None = None):
    """All five definitions: yields :class:`DefinitionsProgress`, returns :class:`Definitions`.

    ``tokens``: A's and B's rows already tokenized by one loose tokenizer at
    the default layers (see :func:`reusable_tokens`); else both are
    tokenized here by one fresh Tokenizer.
    """
    tokenizer = Tokenizer()
    a, b = tokens if tokens is not None else (None, None)
    prepared = yield from prepare_steps(a_rows, a, tokenizer)
    probe, total = prepared.probe, len(prepared.blank)
    held = [probe.windows_gpt3, probe.windows_8, probe.windows_11]    # let go in steps
    let_go = lambda: relabel(release_steps(held),                   # noqa: E731
                             lambda _: DefinitionsProgress("verdicts", total, total))
    try:
        if b is None:
            chars = sum(len(r.text) for r in b_rows)
            b = yield from _stage("tokenize B", chars, tokenize_rows_steps(b_rows, tokenizer))
        findings = yield from find_steps(probe, b_rows, b)
        held += [findings.rows_gpt3, findings.seen_8, findings.found_11]
        definitions = yield from finalize_steps(prepared, findings)
    except Abandoned:
        yield from let_go()
        raise
    yield from let_go()
    return definitions


def compute_definitions(a_rows: Sequence[Row], b_rows: Sequence[Row],
                        tokens: tuple[TokenizedRows, TokenizedRows] | None = None
                        ) -> Definitions:
    """:func:`definitions_steps` run to the end."""
    return run_steps(definitions_steps(a_rows, b_rows, tokens))


def reusable_tokens(result) -> tuple[TokenizedRows, TokenizedRows] | None:
    """A single-machine check's ``(a, b)`` tokens when its tokenizer is the
    definitions' one (loose, default layers), so they need not be tokenized
    again; else None (a Dask result, strict mode, other layers)."""
    tokenizer = getattr(result, "tokenizer", None)
    a, b = getattr(result, "a", None), getattr(result, "b", None)
    if tokenizer is None or a is None or b is None:
        return None
    if tokenizer.mode != "loose" or tuple(tokenizer.layers) != DEFAULT_LAYERS:
        return None
    return a, b
