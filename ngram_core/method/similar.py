r"""The rephrase lens: for each A row, the B row most similar in its words.

An n-gram test misses a test item rewritten in other words: no 13 tokens
survive a rewrite, but the item's rare words, names and numbers do. This
lens scores every pair of rows by a weighted cosine of their words and
keeps, per A row, the best B row.

Contract (one definition for the page, the command, streamed or not, and Dask):

* **Terms.** A row's terms are its runs of ASCII letters split where a word's
  case turns (``camelCase`` -> ``camel``, ``case``; ``HTTPServer`` ->
  ``http``, ``server``), runs of other letters with the combining marks on
  them (a Devanagari or Arabic word whole, vowel signs and all), runs of
  digits (a number written with thousands separators, ``1,250``, is its
  digits, ``1250``, as the same number written without them), and each CJK
  ideograph or kana alone; everything else (punctuation, ``_``, spaces)
  separates; terms are lower-cased. A run holding a letter of another script
  written without spaces (Thai, Lao, Khmer, Myanmar: :func:`unspaced_ranges`)
  is a phrase, not a word: its terms are its pairs of adjacent letters, each
  with its marks (``ภาษาไทย`` -> ``ภา``, ``าษ``, ``ษา``, ...). So ``has_close_elements`` and
  ``hasCloseElements`` both give ``has``, ``close``, ``elements``, and
  ``$2.50`` gives ``2``, ``50``. Two numbers or more joined by commas (spaces
  and brackets around a comma, a minus before a number: :data:`SEQUENCE`), as
  a code item's example lists them (but one number with thousands
  separators), are also one more term, their digits joined by commas: ``f([3, 7, -4])`` adds ``3,7,4`` (a rewrite of a code item
  renames its function and rewords its docstring, but keeps its examples; each
  of their numbers alone is in most rows). It weighs as a number, and is no
  number to the numbers rule. The n-gram settings (mode, layers) do not
  apply: the lens reads the row text the same way whatever they are.
* **Weights, from A alone.** With N the non-blank rows of A and ``df(t)`` the
  A rows holding term t, ``idf(t) = ln((N + 1) / (df(t) + 1)) + 1`` (a term
  A lacks has ``df = 0``). A term occurring ``tf`` times in a row weighs
  ``round(1000 * idf(t) * (1 + ln tf))``, a whole number, twice that for a
  term of digits (:data:`NUMBER_WEIGHT`: a rewrite keeps an item's numbers,
  and they tell apart two items of one template); so weights never
  depend on B, the same B row weighs the same wherever it is read, and memory
  on the streamed path is set by A. Stop words are in most rows, so they
  weigh least; a name or number in few rows weighs most.
* **Score.** ``similarity(a, b) = dot(a, b) / sqrt(|a|^2 * |b|^2)`` over the
  whole-number weights (the dot product and squared norms are exact
  integers, and the one formula ``dot / (sqrt(|a|^2) * sqrt(|b|^2))`` turns
  them into the same float in every engine), in [0, 1]; exactly 1 when the
  rows have the same terms in the same proportions.
* **Candidates.** An A row's *key terms* are its :data:`KEY_TERMS` rarest
  terms (fewest A rows first, then the longest, then in code-point order),
  of which those past the :data:`KEY_SHARED` rarest only when they are in at
  most one A row in :data:`KEY_RARE` (at least in one); a B row is a
  candidate for it when it holds at least :data:`KEY_SHARED` of them (all of
  them when the row has fewer). A term in more than one A row in
  :data:`COMMON_SHARE` (and more than :data:`COMMON_MIN`) is no key term: a
  row made only of such words has no candidate (a file of one-word rows of
  the same word stays linear). A rewrite keeps an item's names, numbers and
  rare words, so it shares them; a B row that shares fewer is not scored for
  that row (nor is an item of the same template with other rare words).
  A rewrite keeps an item's numbers too: when both rows hold at least
  :data:`NUMBERS_MIN` distinct numbers, a candidate holds every one of the A
  row's, or none but the A row's (a rewrite that spells some out, or of part
  of the item: the question of a test row that holds its worked solution
  too), so the same problem with other numbers (a sibling of the item in the
  training set, one number changed) is none, while a rewrite that spells its
  numbers out or leaves out a code item's examples still is. An A
  row holding examples (a line starting ``>>>`` or ``assert``: a code item's) asks
  more of such a candidate: it holds at least :data:`IN_ORDER` of the A row's
  numbers (runs of digits, every occurrence) in the same order (their longest
  common subsequence, :func:`in_order`). A rewrite keeps the examples, inputs
  and outputs; a sibling problem (the odd bits for the even ones) keeps the
  inputs and changes the outputs. This
  is what makes the lens cheap: each B row looks up its terms among A's key
  terms only and scores just the A rows it meets
  often enough, exactly -- never every pair; rows of A with the same text are
  scored once (they count in ``df`` as often as they occur).
* **Credit.** A B row counts only for the A rows it is nearly most similar
  to: those whose similarity is within :data:`NEAR_BEST` of the highest it
  has with any A row. A rewrite of one item is more similar to that item than
  to the item's siblings in A (the same template with another name or
  number, another question on the same passage), so it marks that item, not
  them; a row holding two items rewritten alike counts for both.
* **Best row.** Per A row, the B row it is credited with that has the highest
  similarity, the first in file B on a tie (none when no B row is). A row is
  *rephrased* when that similarity reaches the threshold
  (:data:`REPHRASE_THRESHOLD` by default), whether or not it shares an
  n-gram.

    >>> index = SimilarIndex.of(["Janet has 16 ducks.", "The sky is blue today."])
    >>> best = {}
    >>> _ = index.fold(["Janet owns sixteen ducks, 16 of them.", "sky blue"], 0, best)
    >>> {a: (round(score, 3), b) for a, (score, b) in sorted(best.items())}
    {0: (0.587, 0)}

    ("sky blue" holds two of the second row's three rarest terms: no candidate.) A B
    row rewriting one of two siblings counts for that one only:

    >>> index = SimilarIndex.of(["Mill argued that virtue is knowledge.",
    ...                          "Kant argued that virtue is knowledge.",
    ...                          "Mill and Kant wrote books."])
    >>> {a: round(score, 3) for a, score in index.scores(
    ...     "As Kant argued, knowledge is virtue.").items()}
    {0: 0.562, 1: 0.703}
    >>> best = {}
    >>> _ = index.fold(["As Kant argued, knowledge is virtue."], 0, best)
    >>> {a: (round(score, 3), b) for a, (score, b) in best.items()}
    {1: (0.703, 0)}
    >>> terms("parseHTTPResponse(max_len=2)")
    ['parse', 'http', 'response', 'max', 'len', '2']
    >>> terms("rotate([1, 2, 3], 2)")
    ['rotate', '1', '2', '3', '2', '1,2,3,2']
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections import Counter
from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ..steps import Pacer, run_steps
from .tokenize import UNSPACED_BLOCKS, _bmp_table, _char_class, _class_body, _runs

#: An A row's key terms: its this many rarest; a candidate B row holds KEY_SHARED.
KEY_TERMS = 8
KEY_SHARED = 3
#: Past its KEY_SHARED rarest, a row's key term is in at most one A row in this many.
KEY_RARE = 50
#: No key term at all is in more than one A row in this many (and more than
#: COMMON_MIN rows): a word most rows hold tells no row apart, and as a key term
#: would make every B row a candidate for every A row.
COMMON_SHARE = 4
COMMON_MIN = 64
#: A row is rephrased when its best similarity reaches this (chosen on the
#: development pairs in tests/rephrase_data.py; docs/method.md).
REPHRASE_THRESHOLD = 0.5
#: A B row counts for the A rows whose similarity is within this of its highest
#: (chosen on the development pairs, as the threshold: 0.02 to 0.1 give the same on
#: single items; with questions sharing a passage 0.1 lets more siblings through).
NEAR_BEST = 0.05
#: A number's idf counts this many times: a rewrite keeps the numbers, and they tell
#: apart the items of one template (chosen on the development pairs, as the threshold).
NUMBER_WEIGHT = 2
#: When an A row and a B row both hold at least NUMBERS_MIN distinct numbers (terms
#: of digits), the B row is a candidate only if one row's numbers are all the other's:
#: a rewrite keeps an item's numbers (or spells some out, or is of part of the row), a
#: sibling of it (the same problem with other numbers) does not.
NUMBERS_MIN = 2
#: ... and when the A row holds examples (:data:`EXAMPLES`), its numbers in order: their
#: longest common subsequence with the B row's is at least this share of the A row's
#: (chosen on the development siblings of tests/rephrase_code.py; docs/method.md).
IN_ORDER = 0.8
#: A line of examples: a doctest's ``>>>`` or an ``assert`` (a code item's tests).
EXAMPLES = re.compile(r"^[ \t]*(?:>>>|assert\b)", re.M)
#: Weights are whole numbers: idf scaled by this, rounded.
SCALE = 1000

_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
#: A number written with thousands separators (``1,250``, ``12,000,000``): one term,
#: its digits joined (``1250``), as the same number written without them is.
GROUPED = r"\d{1,3}(?:,\d{3})+(?!\d)"
#: The commonest shapes first (a word in lower case or capitalized): the same terms
#: as any order, as the alternatives cannot both match at one place.
_ASCII_TERMS = rf"[A-Z]?[a-z]++|[A-Z]+(?![a-z])|{GROUPED}|\d++"
_TERM_ASCII = re.compile(_ASCII_TERMS)
_COMMA_GROUP = re.compile(r",\d{3}")     # a literal first: searched fast


def holds_grouped(text: str) -> bool:
    """Whether a text may hold a number with thousands separators (a digit, a comma,
    three digits)::

        >>> holds_grouped("a 1,250 b"), holds_grouped("a, 250 and 1, 250")
        (True, False)
    """
    return "," in text and any(m.start() and text[m.start() - 1].isdecimal()
                               for m in _COMMA_GROUP.finditer(text))


@functools.cache
def _term_pattern() -> re.Pattern:
    """The terms of any text: :data:`_TERM_ASCII`'s, each CJK ideograph or kana, and
    a run of other letters, each followed by the combining marks on it (a
    Devanagari or Thai vowel sign is part of its word). Compiled on the first text
    that is not ASCII."""
    letter = rf"[^\W\d_A-Za-z{_CJK}]"
    return re.compile(rf"{_ASCII_TERMS}|[{_CJK}]|{letter}(?:{letter}|[{_mark_class()}])*")


@functools.cache
def _mark_class() -> str:
    """The body of a character class of every combining mark (:func:`_mark_runs`)."""
    return _class_body(_mark_runs())


@functools.cache
def unspaced_ranges() -> list[tuple[int, int]]:
    """The blocks of scripts written without spaces outside the lens's CJK blocks
    (Thai, Lao, Myanmar, Khmer, halfwidth katakana, the ideographs past the BMP):
    :data:`~ngram_core.method.tokenize.UNSPACED_BLOCKS` less :data:`_CJK`'s ranges."""
    lens = [(ord(m.group(1)), ord(m.group(2))) for m in re.finditer(r"(.)-(.)", _CJK)]
    ranges = []
    for first, last in UNSPACED_BLOCKS:
        pieces = [(first, last)]
        for lo, hi in lens:
            pieces = [p for a, b in pieces for p in ((a, min(b, lo - 1)), (max(a, hi + 1), b))
                      if p[0] <= p[1]]
        ranges += pieces
    return ranges


@functools.cache
def _unspaced() -> re.Pattern:
    return re.compile(_char_class(unspaced_ranges()))


@functools.cache
def _cluster() -> re.Pattern:
    """A letter and the combining marks on it."""
    return re.compile(rf"(?s:.)[{_mark_class()}]*")


def _pairs(run: str) -> list[str]:
    """A run of letters of a script written without spaces (:func:`unspaced_ranges`)
    as its pairs of adjacent letters, each with its marks (one letter: itself)::

        >>> _pairs("ภาษาไทย")
        ['ภา', 'าษ', 'ษา', 'าไ', 'ไท', 'ทย']
        >>> _pairs("ตลาดกับมานี")[-3:]
        ['บม', 'มา', 'านี']
    """
    clusters = _cluster().findall(run)
    return [a + b for a, b in zip(clusters, clusters[1:])] or clusters


def _paired(found: Iterable[str]) -> list[str]:
    """Terms found, each run holding a letter of a script written without spaces as
    its pairs (:func:`_pairs`)."""
    unspaced = _unspaced()
    out: list[str] = []
    for term in found:
        if unspaced.search(term) is None:
            out.append(term)
        else:
            out += _pairs(term)
    return out


def _mark_runs() -> list[tuple[int, int]]:
    """The inclusive ranges of the combining marks' code points (general category
    M*: in the BMP, whose categories the tokenizer keeps, the Supplementary
    Multilingual Plane and the variation selectors supplement; none lies elsewhere)."""
    flags = [c[0] == "M" for c in _bmp_table()[0]]
    flags += [unicodedata.category(chr(cp))[0] == "M" for cp in range(0x10000, 0x20000)]
    return _runs(flags) + [(0xE0100, 0xE01EF)]


def _term_finder(text: str) -> re.Pattern:
    return _TERM_ASCII if text.isascii() else _term_pattern()


#: Two numbers or more joined by commas, brackets and spaces around the commas (a
#: code item's example ``f([3, 7, -4], 2.5)``; a number's own point and digits kept).
SEQUENCE = re.compile(r"\d+(?:\.\d+)?(?:[\s\[\]()]*,[\s\[\]()]*-?\d+(?:\.\d+)?)+")
#: What every such list holds, found fast (a search for a comma first): a row without
#: one is not searched for lists.
_COMMA_NUMBER = re.compile(r",[\s\[\]()]*-?\d")
_DIGITS = re.compile(r"\d+")
#: A list that is one number with thousands separators (``1,250``): no list.
_ONE_GROUPED = re.compile(GROUPED)


def terms(text: str) -> list[str]:
    """A row's terms, in order (see the module docstring), then its number lists'.
    Lower-cased at once, joined by spaces: no term holds a space, and a space stops
    every rule of ``str.lower`` that looks at the letters around one (the Greek
    final sigma), so each term is lower-cased as if alone."""
    found = _term_finder(text).findall(text)
    if not found:
        out = []
    elif "," in text:                 # a number with thousands separators: its digits
        out = " ".join(found).replace(",", "").lower().split(" ")
    else:
        out = " ".join(found).lower().split(" ")
    if found and not text.isascii() and _unspaced().search(text) is not None:
        out = _paired(out)
    return out + number_lists(text) if "," in text else out


def number_lists(text: str) -> list[str]:
    """The terms of a row's lists of numbers (:data:`SEQUENCE`), in order::

        >>> number_lists("f([1.0, 2.8], -4) and 1990, 25 people, 7")
        ['1,0,2,8,4', '1990,25']
    """
    if _COMMA_NUMBER.search(text) is None:
        return []
    return [_sequence(found) for found in SEQUENCE.findall(text)
            if _ONE_GROUPED.fullmatch(found) is None]


def _sequence(numbers: str) -> str:
    """A list of numbers as its term: their runs of digits joined by commas::

        >>> _sequence("[1.0, 2.8], -4")
        '1,0,2,8,4'
    """
    return ",".join(_DIGITS.findall(numbers))


def in_order(a_numbers: Sequence[str], b_numbers: Iterable[str]) -> int:
    """The length of the longest common subsequence of two sequences of numbers, the
    first held whole, the second read once (a row of any length): bit-parallel, one
    step per number of the second that the first holds (Hyyro 2004)::

        >>> in_order(["3", "7", "4", "10", "4"], ["3", "7", "4", "10", "5", "9"])
        4
        >>> in_order(["1", "2", "3"], ["3", "2", "1"])
        1
    """
    masks: dict[str, int] = {}
    for i, number in enumerate(a_numbers):
        masks[number] = masks.get(number, 0) | 1 << i
    whole = (1 << len(a_numbers)) - 1
    v, get = whole, masks.get
    for number in b_numbers:
        match = get(number)
        if match:
            u = v & match
            v = ((v + u) | (v - u)) & whole
    return len(a_numbers) - bin(v).count("1")


def has_examples(text: str) -> bool:
    """Whether a row holds a line of examples (:data:`EXAMPLES`; a substring search
    first, as most rows hold neither)."""
    return ("assert" in text or ">>>" in text) and EXAMPLES.search(text) is not None


def is_number(term: str) -> bool:
    """Whether a term is a number (a run of digits; a list of numbers is none)."""
    return term[0].isdecimal() and "," not in term


#: A row longer than this many characters is counted term by term, never listed
#: whole: one 20 MB line of B stays within the memory a row's distinct terms take.
LONG_ROW = 1 << 16


def term_counts(text: str) -> Counter[str]:
    """How often each of a row's terms occurs (see :func:`terms`); a long row is
    counted as it is read, each term lower-cased alone (as :func:`terms` does)::

        >>> term_counts("Ducks, 16 ducks") == term_counts("Ducks, 16 ducks" + " " * LONG_ROW)
        True
    """
    if len(text) <= LONG_ROW:
        return Counter(terms(text))
    found = (_group(m).replace(",", "").lower() for m in _term_finder(text).finditer(text))
    counts = Counter(_paired(found) if not text.isascii() and _unspaced().search(text)
                     else found)
    if _COMMA_NUMBER.search(text) is not None:
        counts.update(_sequence(found) for found in map(_group, SEQUENCE.finditer(text))
                      if _ONE_GROUPED.fullmatch(found) is None)
    return counts


def _numbers_in(counts: Iterable[str]) -> int:
    """How many of a row's distinct terms are numbers (terms of digits)."""
    return sum(1 for t in counts if is_number(t))


def _group(match: re.Match) -> str:
    return match.group()


def _idf(rows: int, df: int, term: str) -> float:
    """The idf of a term in ``df`` of A's ``rows`` (a number's counts NUMBER_WEIGHT times)."""
    idf = math.log((rows + 1) / (df + 1)) + 1
    return idf * NUMBER_WEIGHT if term[0].isdecimal() else idf


def first_rows(a_texts: Sequence[str]) -> tuple[dict[str, int], dict[int, list[int]]]:
    """Each distinct text's first row, and the later rows of a text that recurs (rows
    of one text are read, indexed and scored once, so a file of repeated rows stays
    linear, and counted as often as they occur)::

        >>> first_rows(["a", "b", "a", "a"])
        ({'a': 0, 'b': 1}, {0: [2, 3]})
    """
    first_of: dict[str, int] = {}
    copies: dict[int, list[int]] = {}
    for a, text in enumerate(a_texts):
        first = first_of.setdefault(text, a)
        if first != a:
            copies.setdefault(first, []).append(a)
    return first_of, copies


def idf_table(df: Mapping[str, int], rows: int) -> dict[str, float]:
    """Each term's idf from its document frequency in A's ``rows`` (:func:`_idf`: each
    document frequency's once, as many terms share one)."""
    of_df = {d: _idf(rows, d, "a") for d in set(df.values())}
    idf = {t: of_df[d] for t, d in df.items()}
    for t in [t for t in idf if t[0].isdecimal()]:
        idf[t] *= NUMBER_WEIGHT               # a number's, as _idf gives it
    return idf


def _weight(idf: float, tf: int) -> int:
    if tf == 1:
        return int(SCALE * idf + 0.5)
    return int(SCALE * idf * (1 + math.log(tf)) + 0.5)


@dataclass
class SimilarIndex:
    """A's rows' terms counted, and their key terms indexed (built by :meth:`of`); an
    A row's weights are made the first time a B row is a candidate for it (most A
    rows never meet one)."""
    idf: dict[str, float]               # A's terms -> idf
    rows: int                           # A's rows with a term
    counted: Sequence[Counter[str]]     # A row -> its term counts
    keys: dict[str, list[int]]          # key term -> the A rows it is a key term of
    needed: list[int]                   # A row -> key terms a candidate must hold
    #: the first A row of a text that recurs -> the later rows of that text (only
    #: first rows are keyed and scored; their scores are the copies')
    copies: dict[int, list[int]] = field(default_factory=dict)
    #: passages left out of the check: B's rows are read without them (A's were
    #: indexed so: :func:`without_passages`)
    leave_out: tuple[str, ...] = ()

    @classmethod
    def of(cls, a_texts: Sequence[str], leave_out: Sequence[str] = ()) -> SimilarIndex:
        """The index of A's row texts (:meth:`of_steps` run to its end)."""
        return run_steps(cls.of_steps(a_texts, leave_out))

    @classmethod
    def of_steps(cls, a_texts: Sequence[str], leave_out: Sequence[str] = ()
                 ) -> Generator[int, None, SimilarIndex]:
        """:meth:`of` in steps of a few milliseconds (yields the A rows read, then
        indexed): the page's tab stays responsive while a 2 MB test set is read.
        ``leave_out``: passages left out of the check, read out of A's rows here and
        of B's when they are folded in (:func:`without_passages`)."""
        a_texts = [without_passages(text, leave_out) for text in a_texts]
        first_of, copies = first_rows(a_texts)
        pacer = Pacer()
        by_text: dict[str, Counter[str]] = {}
        for done, text in enumerate(first_of, 1):
            by_text[text] = term_counts(text)
            if pacer.due():
                yield done
        counted = [by_text[text] for text in a_texts]
        df: Counter[str] = Counter()
        rows = 0
        for text, first in first_of.items():
            counts, times = by_text[text], 1 + len(copies.get(first, ()))
            df.update(dict.fromkeys(counts, times) if times > 1 else counts.keys())
            rows += times if counts else 0
            if pacer.due():
                yield len(first_of)
        idf = idf_table(df, rows)
        # every term's rank by rarity, once: a row's key terms are its lowest ranks,
        # among the terms that may be key terms at all
        too_common = max(COMMON_MIN, rows // COMMON_SHARE)     # no key term is in more
        # the order of (df, -length, term), a bucket of one df and length at a time
        buckets: dict[tuple[int, int], list[str]] = {}
        for t, d in df.items():
            if d <= too_common:
                buckets.setdefault((d, -len(t)), []).append(t)
        by_rank: list[str] = []
        for bucket in sorted(buckets):
            by_rank += sorted(buckets[bucket])
            if pacer.due():
                yield len(first_of)
        # a term too common to be a key term ranks past every other (then is dropped)
        keyable = len(by_rank)
        rank = dict.fromkeys(df, keyable)
        rank.update(zip(by_rank, range(keyable)))
        rank_of = rank.__getitem__
        common = max(1, rows // KEY_RARE)   # past a row's KEY_SHARED rarest, a key term's most
        index = cls(idf, rows, counted, {}, [0] * len(counted), copies)
        keys = index.keys
        for text, a in first_of.items():
            if pacer.due():
                yield len(first_of)
            counts = counted[a]
            index.order_numbers(a, text)
            rarest = [by_rank[r] for r in sorted(map(rank_of, counts))[:KEY_TERMS] if r < keyable]
            rarest = rarest[:KEY_SHARED] + [t for t in rarest[KEY_SHARED:] if df[t] <= common]
            index.needed[a] = min(KEY_SHARED, len(rarest))
            for t in rarest:
                keys.setdefault(t, []).append(a)
        index.leave_out = tuple(leave_out)
        return index

    def order_numbers(self, a: int, text: str) -> None:
        """Keep A row ``a``'s numbers in order when it holds examples and
        :data:`NUMBERS_MIN` distinct numbers (see :meth:`keeps_order`)."""
        if has_examples(text) and _numbers_in(self.counted[a]) >= NUMBERS_MIN:
            self.ordered[a] = _DIGITS.findall(text)

    def weighed(self, a: int) -> tuple[dict[str, int], int]:
        """A row ``a``'s weights and their squared norm (made once, then kept)."""
        made = self._weighed.get(a)
        if made is None:
            vector = self._weights(self.counted[a])
            made = self._weighed[a] = (vector, sum([w * w for w in vector.values()]))
        return made

    def numbers(self, a: int) -> frozenset[str]:
        """A row ``a``'s distinct numbers (made once, then kept)."""
        made = self._numbers.get(a)
        if made is None:
            made = self._numbers[a] = frozenset(t for t in self.counted[a] if is_number(t))
        return made

    def keeps_numbers(self, a: int, counts: Mapping[str, int]) -> bool:
        """Whether a B row (its term counts) keeps A row ``a``'s numbers, as its
        candidate must when both rows hold :data:`NUMBERS_MIN` distinct numbers or
        more (any B row otherwise): every one of them, or none but them (the B row
        spells some out, or rewrites part of the A row, which holds more); a row
        that changes one number is a sibling, not a rewrite::

            >>> index = SimilarIndex.of(["Max bought 16 stamps and 3 more, 9 fewer. 16 + 3 "
            ...                          "- 9 = 10 and 10 * 2 = 20 #### 20", "Max ran."])
            >>> [index.keeps_numbers(0, term_counts(text)) for text in
            ...  ["Max got 16 stamps, 9 of them roses", "Max got 11 stamps, 9 of them roses",
            ...   "Max got sixteen stamps, 9 of them roses, 11 blue"]]
            [True, False, False]
        """
        return _numbers_in(counts) < NUMBERS_MIN or self._holds_numbers(a, counts)

    def _holds_numbers(self, a: int, counts: Mapping[str, int]) -> bool:
        """:meth:`keeps_numbers` for a B row known to hold NUMBERS_MIN numbers."""
        held = self.numbers(a)
        if len(held) < NUMBERS_MIN:
            return True
        shared = sum(1 for t in held if t in counts)
        return shared == len(held) or shared == _numbers_in(counts)

    def keeps_order(self, a: int, text: str) -> bool:
        """Whether a B row's numbers hold at least :data:`IN_ORDER` of A row ``a``'s
        (one with examples: :attr:`ordered`) in the same order::

            >>> index = SimilarIndex.of([">>> odd_bits(10)\\n15\\n>>> odd_bits(12)\\n13"])
            >>> [index.keeps_order(0, text) for text in
            ...  ["bits_at_odd(10) gives 15; bits_at_odd(12) gives 13",
            ...   ">>> even_bits(10)\\n10\\n>>> even_bits(12)\\n12"]]
            [True, False]
        """
        numbers = self.ordered[a]
        found = in_order(numbers, map(_group, _DIGITS.finditer(text)))
        return found >= IN_ORDER * len(numbers)

    def vector(self, text: str) -> dict[str, int]:
        """A B row's weights (A's idf; a term A lacks weighs the most)."""
        return self._weights(term_counts(text))

    def _weights(self, counts: Mapping[str, int]) -> dict[str, int]:
        """The weights of a row's term counts (its terms A lacks weigh the most)."""
        once = self._once
        out = {t: once.get(t, self._unseen_word) for t in counts}     # each as if once
        for t in [t for t in counts if t not in once]:
            if t[0].isdecimal():
                out[t] = self._unseen_number
        if len(counts) != sum(counts.values()):
            idf, rows = self.idf, self.rows
            for t, tf in counts.items():
                if tf > 1:
                    out[t] = _weight(idf[t] if t in idf else _idf(rows, 0, t), tf)
        return out

    def __post_init__(self) -> None:
        #: the A rows with examples (:data:`EXAMPLES`) and NUMBERS_MIN distinct numbers
        #: or more -> their numbers in order (set by :meth:`of_steps`)
        self.ordered: dict[int, list[str]] = {}
        self._weighed: dict[int, tuple[dict[str, int], int]] = {}
        self._numbers: dict[int, frozenset[str]] = {}
        #: the key terms as arrays, made once by similar_arrow.candidates_of
        self.table: object | None = None
        once = {idf: _weight(idf, 1) for idf in set(self.idf.values())}
        self._once = {t: once[idf] for t, idf in self.idf.items()}
        self._unseen_word = _weight(_idf(self.rows, 0, "a"), 1)
        self._unseen_number = _weight(_idf(self.rows, 0, "0"), 1)

    def scores(self, text: str) -> dict[int, float]:
        """The similarity of a B row to each A row it is a candidate for (its terms
        counted only when it holds enough key terms of one: most B rows hold none)."""
        met, listed = self._key_rows(text)
        if not met:
            return {}
        return self.scores_of(listed if isinstance(listed, Counter) else Counter(listed), met,
                              text)

    def key_rows(self, text: str) -> list[int]:
        """The A rows a B row holds enough key terms of (ascending): its candidates
        before their numbers are looked at (:meth:`keeps_numbers`)."""
        return sorted(self._key_rows(text)[0])

    def _key_rows(self, text: str) -> tuple[list[int], list[str] | Counter[str]]:
        """:meth:`key_rows` unsorted, and the row's terms (counted, for a long row)."""
        keys = self.keys
        listed: list[str] | Counter[str]
        if len(text) <= LONG_ROW:
            listed = terms(text)
            found = keys.keys() & listed
        else:
            listed = term_counts(text)
            found = listed.keys() & keys.keys()
        held: dict[int, int] = {}
        for t in found:
            for a in keys[t]:
                held[a] = held.get(a, 0) + 1
        needed = self.needed
        return [a for a, count in held.items() if count >= needed[a]], listed

    def scores_of(self, counts: Mapping[str, int], met: Sequence[int],
                  text: str) -> dict[int, float]:
        """The similarity of a B row (its term counts and its text) to each A row of
        ``met`` that it keeps the numbers of (:meth:`keeps_numbers`; an A row with
        examples: in order, :meth:`keeps_order`)."""
        if _numbers_in(counts) >= NUMBERS_MIN:          # the numbers rule applies
            met = [a for a in met if self._holds_numbers(a, counts) and
                   (a not in self.ordered or self.keeps_order(a, text))]
        if not met:
            return {}
        vector = self._weights(counts)
        norm = sum([w * w for w in vector.values()])
        weighed = self.weighed
        out = {}
        for a in met:
            va, norm_a = weighed(a)
            dot = sum([va[t] * vector[t] for t in va.keys() & vector.keys()])
            out[a] = similarity(dot, norm_a, norm)
        return out

    def fold(self, b_texts: Iterable[str], first: int, best: dict[int, tuple[float, int]],
             candidates: Sequence[list[int] | None] | None = None) -> set[int]:
        """Fold B rows numbered from ``first`` (in file order, after every row already
        folded into ``best``) into ``best``: A row -> (similarity, B row), the
        highest of the B rows credited to it, the first B row on a tie.
        ``candidates``: per row, the A rows it is a candidate for, found for many
        rows at once (:func:`~ngram_core.method.similar_arrow.candidate_rows`; None
        for a row, or for all, to find them here, row by row: the same rows).
        Returns the B rows that became some A row's best here."""
        texts = b_texts if isinstance(b_texts, list) else list(b_texts)
        if self.leave_out:               # a row holding a passage: read without it, here
            read = [without_passages(text, self.leave_out) for text in texts]
            if candidates is not None:
                candidates = [None if new is not old else met
                              for new, old, met in zip(read, texts, candidates)]
            texts = read
        scored_rows: Iterable[dict[int, float]] = map(self.scores, texts)
        if candidates is not None:
            scored_rows = (self.scores(text) if met is None else
                           self.scores_of(term_counts(text), met, text) if met else {}
                           for text, met in zip(texts, candidates))
        copies = self.copies
        became: set[int] = set()
        for b, scored in enumerate(scored_rows, first):
            if not scored:
                continue
            least = max(scored.values()) - NEAR_BEST
            for a, score in scored.items():
                if score < least:
                    continue
                held = best.get(a)
                if held is None or score > held[0]:
                    best[a] = (score, b)
                    became.add(b)
                    for copy in copies.get(a, ()):
                        best[copy] = (score, b)
        return became


def without_passages(text: str, passages: Sequence[str]) -> str:
    """``text`` with every occurrence of each passage (as written) replaced by a
    space: what the lens reads of a row when passages are left out of the check (a
    system prompt written into every training row would weigh more than the item).
    The same string object when none is in it::

        >>> without_passages("<s>Be brief.</s> Janet has 16 ducks.", ["<s>Be brief.</s>"])
        '  Janet has 16 ducks.'
    """
    for passage in passages:
        if passage and passage in text:
            text = text.replace(passage, " ")
    return text


def term_rows_steps(texts: Sequence[str], every: int = 256
                    ) -> Generator[int, None, tuple[Counter[str], int]]:
    """How many of the texts hold each term, and how many hold any: A's document
    frequencies, as the lens's weights read them (yields the texts done, ``every``
    at a time)::

        >>> from ngram_core.steps import run_steps
        >>> run_steps(term_rows_steps(["Janet has 16 ducks.", "Janet sings.", ""]))
        (Counter({'janet': 2, 'has': 1, '16': 1, 'ducks': 1, 'sings': 1}), 2)
    """
    df: Counter[str] = Counter()
    rows = 0
    for first in range(0, len(texts), every):
        for text in texts[first:first + every]:
            counts = term_counts(text)
            df.update(counts.keys())
            rows += bool(counts)
        yield min(first + every, len(texts))
    return df, rows


def telling_terms(a_text: str, b_text: str, df: Mapping[str, int], rows: int) -> set[str]:
    """The terms both texts hold that tell rows apart, to show a person why two rows
    look alike: those in at most half of A's ``rows`` (``df``: of A,
    :func:`term_rows_steps`), and every number (a stop word, in most rows, is
    not one of them)::

        >>> from ngram_core.steps import run_steps
        >>> df, rows = run_steps(term_rows_steps(
        ...     ["Janet has 16 ducks.", "The sky is blue.", "The end is near."]))
        >>> sorted(telling_terms("Janet has 16 ducks.", "The farm of Janet: 16 ducks", df, rows))
        ['16', 'ducks', 'janet']
    """
    shared = term_counts(a_text).keys() & term_counts(b_text).keys()
    return {t for t in shared if t[0].isdecimal() or 2 * df.get(t, 0) <= rows}


def term_ranges(text: str, chosen: set[str]) -> list[tuple[int, int]]:
    """The ``[start, end)`` character ranges of ``text``'s terms among ``chosen``
    (each term lower-cased alone, as :func:`term_counts` reads a long row)::

        >>> term_ranges("Janet's 16 Ducks", {"janet", "ducks"})
        [(0, 5), (11, 16)]
    """
    out = []
    unspaced = _unspaced() if not text.isascii() else None
    for m in _term_finder(text).finditer(text):
        if unspaced is not None and unspaced.search(m.group()) is not None:
            starts = [c.start() for c in _cluster().finditer(m.group())] + [len(m.group())]
            out += [(m.start() + starts[i], m.start() + starts[min(i + 2, len(starts) - 1)])
                    for i, pair in enumerate(_pairs(m.group().lower())) if pair in chosen]
        elif m.group().replace(",", "").lower() in chosen:
            out.append(m.span())
    return out


def set_similar(matches: Sequence, best: dict[int, tuple[float, int]] | None) -> None:
    """Put the best rows (A row -> (similarity, B row); None: the lens is off) on
    the rows' matches (:class:`~ngram_core.method.match.RowMatch`)."""
    for m in matches:
        found = best.get(m.row) if best is not None else None
        m.similarity, m.similar_b_row = found if found is not None else (None, None)


def similarity(dot: int, norm_a: int, norm_b: int) -> float:
    """The cosine from the whole-number dot product and squared norms, in [0, 1]:
    exactly 1 when the weights are in proportion (Cauchy-Schwarz holds with
    equality: ``dot ** 2 == norm_a * norm_b``), 0 when nothing is shared."""
    if not dot:
        return 0.0
    if dot * dot >= norm_a * norm_b:
        return 1.0
    return min(1.0, dot / (math.sqrt(norm_a) * math.sqrt(norm_b)))


def merge_best(into: dict[int, tuple[float, int, int]],
               part: dict[int, tuple[float, int]], order: int) -> None:
    """Fold a partition's best rows (B rows numbered within it) into ``into``:
    A row -> (similarity, partition ``order``, B row); the highest wins, then the
    earliest partition, then the earliest row (any fold order gives the same)."""
    for a, (score, b) in part.items():
        held = into.get(a)
        if held is None or (-score, order, b) < (-held[0], held[1], held[2]):
            into[a] = (score, order, b)
