"""Stage 2: row text -> word tokens, each with the character range it came from.

Two modes, one rule each:

* **loose** (default): a token is a maximal run of characters whose Unicode
  general category is a letter (L*), number (N*), combining mark (M*) or
  format character (Cf). Each token is then normalized on its own by layers,
  applied in this order when switched on:

  - L4 drop format characters (soft hyphen, zero-width space and joiners,
    BOM): they join a word rather than split it, then disappear;
  - L3 compatibility form, NFKC (full-width ``Ａ`` -> ``A``, ``ﬁ`` -> ``fi``);
  - L1 lower case (``str.lower``);
  - L2 strip diacritics: NFD, drop combining marks (M*), NFC.

  The default is L1+L3+L4. A token that normalizes to nothing is dropped.
* **strict**: a token is a maximal run of non-whitespace (``str.isspace``
  separates) and nothing is folded, so ``"Fact:"`` stays one token.

Ranges are half-open code-point offsets ``[start, end)`` into the row text::

    >>> t = Tokenizer()
    >>> t.tokenize("Fact: the MOON,")
    [('fact', 0, 4), ('the', 6, 9), ('moon', 10, 14)]
    >>> Tokenizer("strict").tokenize("Fact: the MOON,")
    [('Fact:', 0, 5), ('the', 6, 9), ('MOON,', 10, 15)]

The character class is matched with the ``regex`` package
(``[\\p{L}\\p{N}\\p{M}\\p{Cf}]+``) when it can be imported and with ``re`` and
a class built from ``unicodedata`` when it cannot (Pyodide in the tab); a test
holds the two to the same tokens.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from .steps import Pacer, run_steps

LAYERS = ("L1", "L2", "L3", "L4")
DEFAULT_LAYERS = ("L1", "L3", "L4")
MODES = ("loose", "strict")
_TOKEN_CATEGORIES = ("L", "N", "M")


def parse_layers(spec) -> tuple[str, ...]:
    """``"l4,L1"`` or ``["L1", "L4"]`` -> ``("L1", "L4")``; ``""`` -> no layers."""
    if isinstance(spec, str):
        spec = [part for part in re.split(r"[\s,+]+", spec) if part]
    chosen = {part.strip().upper() for part in spec}
    unknown = chosen - set(LAYERS)
    if unknown:
        raise ValueError(f"unknown normalization layer {sorted(unknown)[0]!r}; "
                         f"choose from {', '.join(LAYERS)}")
    return tuple(layer for layer in LAYERS if layer in chosen)


def layers_label(layers) -> str:
    """``("L1", "L3", "L4")`` -> ``"L1+L3+L4"``; no layers -> ``"none"``."""
    return "+".join(layers) or "none"


def _in_token_class(category: str) -> bool:
    return category[0] in _TOKEN_CATEGORIES or category == "Cf"


def _class_ranges(first: int, last: int) -> list[tuple[int, int]]:
    """Inclusive ranges of code points in ``[first, last]`` that are in the class."""
    category = unicodedata.category
    ranges: list[tuple[int, int]] = []
    start, previous = -1, -1
    for cp in range(first, last + 1):
        if _in_token_class(category(chr(cp))):
            if start < 0:
                start = cp
            previous = cp
        elif start >= 0:
            ranges.append((start, previous))
            start = -1
    if start >= 0:
        ranges.append((start, previous))
    return ranges


def _char_class(ranges) -> str:
    def esc(cp: int) -> str:
        return "\\U%08x" % cp
    return "[" + "".join(esc(a) if a == b else f"{esc(a)}-{esc(b)}" for a, b in ranges) + "]"


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


class _StdlibPattern:
    """``re`` matching of the token class, fast for text in the BMP.

    ``re`` checks a class of BMP characters with one table look-up but scans
    the astral ranges one by one, which made the full class more than ten
    times slower on plain text. So the class is compiled for the BMP only, and a
    text holding astral characters is matched on a copy in which each astral
    character is replaced by ``a`` (in the class) or a space (not in it): one
    code point for one, so every ``[start, end)`` still points into the
    original text, from which each token is sliced.
    """

    def __init__(self):
        self._bmp = re.compile(_char_class(_class_ranges(0, 0xFFFF)) + "+")

    def _stand_in(self, text: str) -> str:
        def one(m):
            return "a" if _in_token_class(unicodedata.category(m.group())) else " "
        return _ASTRAL.sub(one, text)

    def findall(self, text: str) -> list[str]:
        if text.isascii() or not _ASTRAL.search(text):
            return self._bmp.findall(text)
        return [text[s:e] for s, e in self.spans(text)]

    def spans(self, text: str) -> list[tuple[int, int]]:
        if not text.isascii() and _ASTRAL.search(text):
            text = self._stand_in(text)
        return [m.span() for m in self._bmp.finditer(text)]


class _RePattern:
    """A compiled ``re``/``regex`` pattern behind the same two calls."""

    def __init__(self, compiled):
        self._compiled = compiled

    def findall(self, text: str) -> list[str]:
        return self._compiled.findall(text)

    def spans(self, text: str) -> list[tuple[int, int]]:
        return [m.span() for m in self._compiled.finditer(text)]


BACKENDS = ("re", "regex")


@lru_cache(maxsize=4)
def token_pattern(mode: str, backend: str = "re"):
    """The matcher for a mode: an object with ``findall(text)`` and ``spans(text)``.

    Loose mode uses ``backend``: ``"re"`` (standard library, the default
    everywhere, so the page and the command agree) or ``"regex"`` (the
    ``regex`` package, ``[\\p{L}\\p{N}\\p{M}\\p{Cf}]+``, when installed).
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown tokenizer backend {backend!r}; choose re or regex")
    if mode == "strict":
        return _RePattern(re.compile(r"[^\s]+"))
    if backend == "regex":
        import regex
        return _RePattern(regex.compile(r"[\p{L}\p{N}\p{M}\p{Cf}]+"))
    return _StdlibPattern()


def _strip_format(s: str) -> str:
    return "".join(c for c in s if unicodedata.category(c) != "Cf")


def _strip_marks(s: str) -> str:
    decomposed = unicodedata.normalize("NFD", s)
    return unicodedata.normalize(
        "NFC", "".join(c for c in decomposed if not unicodedata.category(c).startswith("M")))


def make_normalizer(layers):
    """A function applying the chosen layers to one token, in the order L4, L3, L1, L2.

    >>> make_normalizer(("L1", "L2", "L3", "L4"))("Ｃａｆé\\u00ad")
    'cafe'
    """
    steps: list[Callable[[str], str]] = []
    if "L4" in layers:
        steps.append(_strip_format)
    if "L3" in layers:
        steps.append(lambda s: unicodedata.normalize("NFKC", s))
    if "L1" in layers:
        steps.append(str.lower)
    if "L2" in layers:
        steps.append(_strip_marks)

    def normalize(token: str) -> str:
        if token.isascii():           # every layer but L1 leaves ASCII alone
            return token.lower() if "L1" in layers else token
        for step in steps:
            token = step(token)
        return token

    return normalize


#: Rows longer than this are tokenized in pieces, so no single step runs long.
PIECE_CHARS = 1 << 16


def _pieces(text: str, size: int = PIECE_CHARS):
    """Cut a text at spaces into pieces of about ``size`` characters.

    A space separates tokens in both modes, so the tokens of the pieces are
    the tokens of the text: ``"ab cd ef"`` with size 3 -> ``"ab ", "cd ef"``.
    """
    start = 0
    while len(text) - start > size:
        cut = text.find(" ", start + size)
        if cut < 0:
            break
        yield text[start:cut + 1]
        start = cut + 1
    yield text[start:] if start else text


class _Vocabulary(dict):
    """Raw token -> id of its normalized form (-1 when that is empty), filled on demand."""

    def __init__(self, normalize, known: dict | None = None):
        super().__init__()
        self.normalize = normalize
        self.ids: dict[str, int] = {} if known is None else known   # normalized -> id
        self.frozen = known is not None
        self.dropped = False          # some raw token normalized to nothing

    def __missing__(self, raw: str) -> int:
        token = self.normalize(raw)
        if not token:
            self.dropped = True
            ident = -1
        elif self.frozen:
            ident = self.ids.get(token, UNKNOWN)
        else:
            ident = self.ids.setdefault(token, len(self.ids))
        self[raw] = ident
        return ident


#: The id a frozen vocabulary gives every token it does not know: no window of
#: the indexed side holds it, so a window containing it can never match.
UNKNOWN = 2**32 - 1


class Tokenizer:
    """Splits text into tokens and normalizes them, with one shared vocabulary.

    The vocabulary gives each normalized token a small integer id, so file A
    and file B, tokenized by the same Tokenizer, give equal ids for equal
    tokens: the index and the probe share one normalizer.
    """

    def __init__(self, mode: str = "loose", layers=DEFAULT_LAYERS, backend: str = "re",
                 known: dict | None = None):
        """``known``: a vocabulary to use as it is, never grown (unknown tokens
        get :data:`UNKNOWN`): how a Dask worker tokenizes B against A's index."""
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}; choose loose or strict")
        self.mode = mode
        self.layers = parse_layers(layers) if mode == "loose" else ()
        self.backend = backend if mode == "loose" else "re"
        self._pattern = token_pattern(mode, self.backend)
        self.normalize = make_normalizer(self.layers)
        self._vocab = _Vocabulary(self.normalize, known)
        self._spans_cache: dict[str, list] = {}

    @property
    def vocabulary(self) -> dict:
        """Normalized token -> id, as assigned so far."""
        return self._vocab.ids

    @property
    def label(self) -> str:
        """``"L1+L3+L4"`` in loose mode (``"none"`` with no layers), ``"strict"``."""
        return layers_label(self.layers) if self.mode == "loose" else "strict"

    @property
    def description(self) -> str:
        """The sentence the result line uses for how text was split."""
        if self.mode == "strict":
            return "Tokens split on whitespace only, nothing folded."
        return ("Tokens split on runs of letters and digits, then normalized with "
                f"{self.label}.")

    @property
    def unicode_version(self) -> str:
        return unicodedata.unidata_version

    def ids(self, text: str) -> list[int]:
        """The token ids of one text, dropped tokens left out."""
        ids = list(map(self._vocab.__getitem__, self._pattern.findall(text)))
        if -1 in ids:
            ids = [i for i in ids if i >= 0]
        return ids

    def spans(self, text: str) -> list[tuple[int, int]]:
        """The ``[start, end)`` of every kept token of one text, in order."""
        return run_steps(self.spans_steps(text))

    def spans_steps(self, text: str, piece_chars: int = PIECE_CHARS):
        """:meth:`spans` as steps: a long text is matched piece by piece.

        The spans of the last few long texts are kept: the page asks for the
        same rows' spans for the CSV offsets and again for the highlight.
        """
        cached = self._spans_cache.get(text)
        if cached is not None:
            return cached
        vocab = self._vocab
        out: list[tuple[int, int]] = []
        offset = 0
        pacer = Pacer()
        for piece in _pieces(text, piece_chars):
            spans = self._pattern.spans(piece)
            if offset:
                spans = [(offset + s, offset + e) for s, e in spans]
            if vocab.dropped or vocab.frozen:
                spans = [(s, e) for s, e in spans if vocab[text[s:e]] >= 0]
            out.extend(spans)
            offset += len(piece)
            if pacer.due():
                yield offset
        if len(text) > piece_chars:
            if len(self._spans_cache) >= 4:
                self._spans_cache.pop(next(iter(self._spans_cache)))
            self._spans_cache[text] = out
        return out

    def tokenize(self, text: str) -> list[tuple[str, int, int]]:
        """``[(normalized token, start, end), ...]`` for one text."""
        out = []
        for s, e in self._pattern.spans(text):
            token = self.normalize(text[s:e])
            if token:
                out.append((token, s, e))
        return out


@dataclass
class TokenizedRows:
    """Every row of one file as token ids, end to end in one array.

    Row ``r`` holds tokens ``ids[offsets[r]:offsets[r + 1]]`` (half-open), so a
    window of n tokens starting at global position ``g`` is
    ``ids[g:g + n]``; ``buffer`` is ``ids`` as bytes, 4 per token, whose
    slices are the exact keys of the window index.
    """
    rows: list
    ids: array
    offsets: list[int]

    @property
    def buffer(self) -> bytes:
        if getattr(self, "_buffer", None) is None:
            self._buffer = self.ids.tobytes()
        return self._buffer

    def length(self, r: int) -> int:
        return self.offsets[r + 1] - self.offsets[r]

    def row_key(self, r: int) -> bytes:
        """The whole row's token sequence as bytes (for duplicate detection)."""
        return self.buffer[4 * self.offsets[r]:4 * self.offsets[r + 1]]


def tokenize_rows_steps(rows, tokenizer: Tokenizer, piece_chars: int = PIECE_CHARS):
    """Tokenize rows, yielding the characters done every few milliseconds.

    A generator: ``yield`` gives progress, and the return value (``yield from``
    or ``StopIteration.value``) is the :class:`TokenizedRows`. Rows longer than
    ``piece_chars`` are tokenized piece by piece (see :func:`_pieces`).
    """
    ids = array("I")
    offsets = [0]
    done = 0
    pacer = Pacer()
    for row in rows:
        text = row.text
        if len(text) <= piece_chars:
            ids.extend(tokenizer.ids(text))
        else:
            for piece in _pieces(text, piece_chars):
                ids.extend(tokenizer.ids(piece))
                if pacer.due():
                    yield done
        done += len(text)
        offsets.append(len(ids))
        if pacer.due():
            yield done
    return TokenizedRows(list(rows), ids, offsets)


def tokenize_rows(rows, tokenizer: Tokenizer) -> TokenizedRows:
    """:func:`tokenize_rows_steps` run to the end."""
    return run_steps(tokenize_rows_steps(rows, tokenizer))
