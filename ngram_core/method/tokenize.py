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

Scripts written without spaces, in both modes and both backends: a token
character (loose: L*, N*, M*, Cf; strict: any non-whitespace) that is not a
combining mark and lies in one of the :data:`UNSPACED_BLOCKS` is a token of its
own: CJK Unified Ideographs U+4E00-9FFF and Extension A U+3400-4DBF,
Extensions B-I U+20000-2EE5F, Extensions G-H U+30000-323AF, CJK Compatibility
Ideographs U+F900-FAFF and U+2F800-2FA1F, Hiragana U+3040-309F, Katakana
U+30A0-30FF, Katakana Phonetic Extensions U+31F0-31FF, Halfwidth Katakana
U+FF66-FF9F, Kana Supplement to Small Kana Extension U+1B000-1B16F, Thai
U+0E00-0E7F, Lao U+0E80-0EFF, Khmer U+1780-17FF, Myanmar U+1000-109F. The
combining marks (M*) after such a character, and the halfwidth sound marks
U+FF9E and U+FF9F, belong to its token; any other character after it starts a
new token. The characters between two such tokens form runs as above, and in
loose mode each token is normalized by the layers as every other::

    >>> Tokenizer().tokenize("GPT4は日本語")
    [('gpt4', 0, 4), ('は', 4, 5), ('日', 5, 6), ('本', 6, 7), ('語', 7, 8)]
    >>> [t for t, _, _ in Tokenizer().tokenize("ｶﾞｯｺｳ")]     # NFKC: ｶﾞ -> ガ
    ['ガ', 'ッ', 'コ', 'ウ']
    >>> [t for t, _, _ in Tokenizer("strict").tokenize("你好，世界。")]
    ['你', '好', '，', '世', '界', '。']
    >>> Tokenizer().tokenize("ที่นั่น")    # Thai vowel signs and tone marks are Mn
    [('ที่', 0, 3), ('นั่', 3, 6), ('น', 6, 7)]

Ranges are half-open code-point offsets ``[start, end)`` into the row text::

    >>> t = Tokenizer()
    >>> t.tokenize("Fact: the MOON,")
    [('fact', 0, 4), ('the', 6, 9), ('moon', 10, 14)]
    >>> Tokenizer("strict").tokenize("Fact: the MOON,")
    [('Fact:', 0, 5), ('the', 6, 9), ('MOON,', 10, 15)]

The character class is matched with the ``regex`` package
(``[\\p{L}\\p{N}\\p{M}\\p{Cf}]+``) when it can be imported and with ``re`` and
a class built from ``unicodedata`` when it cannot (Pyodide in the tab); a test
holds the two to the same tokens. Only a text holding a character of the
blocks is matched with ``[unspaced][marks]*|[other token characters]+``: other
text (all Latin text) takes the single class, as fast as before.
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import islice

from ..steps import Pacer, run_steps

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


#: Each layer in words, in the order the layers apply.
LAYER_WORDS = {"L4": "format characters (soft hyphens, zero-width spaces) dropped",
               "L3": "compatibility forms folded (NFKC: full-width letters, ligatures)",
               "L1": "lower-cased",
               "L2": "accents stripped"}


def layers_words(layers, mode: str = "loose") -> str:
    """The layers of a loose check in words, for a reader who does not know the labels::

        >>> layers_words(("L1", "L3", "L4"))
        'L1+L3+L4: format characters (soft hyphens, zero-width spaces) dropped, compatibility forms folded (NFKC: full-width letters, ligatures), lower-cased, in that order, token by token.'
        >>> layers_words(("L1",)), layers_words(()), layers_words(("L1",), "strict")
        ('L1: lower-cased, token by token.', 'No normalization: tokens are compared as written.', '')
    """
    if mode != "loose":
        return ""
    steps = [LAYER_WORDS[layer] for layer in LAYER_WORDS if layer in layers]
    if not steps:
        return "No normalization: tokens are compared as written."
    order = ", in that order" if len(steps) > 1 else ""
    return f"{layers_label(layers)}: {', '.join(steps)}{order}, token by token."


def _in_token_class(category: str) -> bool:
    return category[0] in _TOKEN_CATEGORIES or category == "Cf"


#: Blocks of the scripts written without spaces between words, as inclusive
#: code-point ranges: a token character in one of them that is not a
#: combining mark is a token of its own (see the module docstring).
UNSPACED_BLOCKS = (
    (0x0E00, 0x0E7F),      # Thai
    (0x0E80, 0x0EFF),      # Lao
    (0x1000, 0x109F),      # Myanmar
    (0x1780, 0x17FF),      # Khmer
    (0x3040, 0x309F),      # Hiragana
    (0x30A0, 0x30FF),      # Katakana
    (0x31F0, 0x31FF),      # Katakana Phonetic Extensions
    (0x3400, 0x4DBF),      # CJK Unified Ideographs Extension A
    (0x4E00, 0x9FFF),      # CJK Unified Ideographs
    (0xF900, 0xFAFF),      # CJK Compatibility Ideographs
    (0xFF66, 0xFF9F),      # Halfwidth Katakana
    (0x1B000, 0x1B16F),    # Kana Supplement .. Small Kana Extension
    (0x20000, 0x2EE5F),    # CJK Unified Ideographs Extensions B-I
    (0x2F800, 0x2FA1F),    # CJK Compatibility Ideographs Supplement
    (0x30000, 0x323AF),    # CJK Unified Ideographs Extensions G-H
)
_BMP_BLOCKS = tuple(block for block in UNSPACED_BLOCKS if block[1] <= 0xFFFF)
#: Halfwidth katakana voiced and semi-voiced sound marks: letters (Lm), yet
#: part of the token of the unspaced character they follow, like a mark.
SOUND_MARKS = "\uff9e\uff9f"


def in_unspaced_block(cp: int) -> bool:
    return any(first <= cp <= last for first, last in UNSPACED_BLOCKS)


def _runs(flags) -> list[tuple[int, int]]:
    """Inclusive ranges of the indexes whose flag (a bool, or 0 or 1) is true, found
    in C with ``re``.

    >>> _runs([0, 1, True, False, 1])
    [(1, 2), (4, 4)]
    """
    return [(m.start(), m.end() - 1) for m in re.finditer(b"\x01+", bytes(flags))]


@lru_cache(maxsize=1)
def _bmp_table() -> tuple[list[str], bytearray]:
    """The general category of every BMP code point, and 1 for those in a block."""
    in_block = bytearray(0x10000)
    for first, last in _BMP_BLOCKS:
        in_block[first:last + 1] = b"\x01" * (last - first + 1)
    return list(map(unicodedata.category, map(chr, range(0x10000)))), in_block


def _class_ranges(first: int, last: int) -> list[tuple[int, int]]:
    """Inclusive ranges of code points in ``[first, last]`` that are in the class."""
    if last <= 0xFFFF:
        categories = _bmp_table()[0][first:last + 1]
    else:
        categories = list(map(unicodedata.category, map(chr, range(first, last + 1))))
    in_class = {c: _in_token_class(c) for c in set(categories)}
    return [(first + a, first + b) for a, b in _runs(map(in_class.__getitem__, categories))]


def _esc(cp: int) -> str:
    return "\\U%08x" % cp


def _class_body(ranges) -> str:
    return "".join(_esc(a) if a == b else f"{_esc(a)}-{_esc(b)}" for a, b in ranges)


def _char_class(ranges) -> str:
    return "[" + _class_body(ranges) + "]"


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch)[0] == "M"


def _is_token_char(mode: str, ch: str) -> bool:
    if mode == "strict":
        return not ch.isspace()
    return _in_token_class(unicodedata.category(ch))


_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
#: A character of a BMP block, or any astral character: a text with neither
#: is matched with the class of old (the fast path for Latin text).
_BLOCK_OR_ASTRAL = re.compile("[" + _class_body(_BMP_BLOCKS) + "\\U00010000-\\U0010ffff]")
#: A cheaper first look for it (two ranges, no table): it skips the Latin,
#: Greek, Cyrillic... letters below U+0E00 and the punctuation and symbols of
#: U+2000-2BFF (quotes, dashes, currency signs), where no block lies.
_COARSE = re.compile("[\u0e00-\u1fff\u2c00-\U0010ffff]")
#: A character of any block (searched in text holding astral characters only).
_ANY_BLOCK = re.compile(_char_class(UNSPACED_BLOCKS))


def _survey(text: str, astral: bool = True) -> tuple[bool, bool]:
    """(holds a character of a block, holds an astral character: asked for
    with ``astral``, else False), in one scan for text without either."""
    if text.isascii():
        return False, False
    try:
        text.encode("latin-1")       # every code point below U+0100 (a plain copy in
        return False, False          # CPython when so): most accented Latin text
    except UnicodeEncodeError:
        pass
    first = _COARSE.search(text)
    if first is not None:
        first = _BLOCK_OR_ASTRAL.search(text, first.start())
    if first is None:
        return False, False
    if first.group() <= "\uffff":
        return True, astral and _ASTRAL.search(text, first.end()) is not None
    return _ANY_BLOCK.search(text, first.start()) is not None, astral


@lru_cache(maxsize=1)
def _piece_cut():
    """The characters a long text may be cut before (see :func:`_pieces`): in a
    BMP block, assigned, not a combining mark, not a sound mark. Each starts a
    token or is no token character, in both modes."""
    categories, in_block = _bmp_table()
    flags = [in_block[cp] and c[0] != "M" and c != "Cn" for cp, c in enumerate(categories)]
    for mark in SOUND_MARKS:
        flags[ord(mark)] = False
    return re.compile(_char_class(_runs(flags)))


@lru_cache(maxsize=4096)
def _stand_in_char(mode: str, ch: str) -> str:
    """The BMP character that stands in for an astral one (see :class:`_StdlibPattern`)."""
    if not _is_token_char(mode, ch):
        return " "
    if _is_mark(ch):
        return "\u0301"
    return "\u4e00" if in_unspaced_block(ord(ch)) else "a"


class _StdlibPattern:
    """``re`` matching of a mode's tokens, fast for text in the BMP.

    ``re`` checks a class of BMP characters with one table look-up but scans
    the astral ranges one by one, which made the full class more than ten
    times slower on plain text. So the classes are compiled for the BMP only,
    and a text holding astral characters is matched on a copy in which each
    astral character is replaced by a BMP character of the same kind: ``一``
    (a token of its own), a combining acute (a mark), ``a`` (another token
    character) or a space (none): one code point for one, so every
    ``[start, end)`` still points into the original text, from which each
    token is sliced.

    A text without any character of :data:`UNSPACED_BLOCKS` (all Latin text)
    is matched with one class, as before unspaced scripts were split; other
    text with ``[unspaced][marks]*|[other token characters]+``.
    """

    def __init__(self, mode: str = "loose"):
        self.mode = mode
        if mode == "strict":
            self._plain = re.compile(r"[^\s]+")
        else:
            self._plain = re.compile(_char_class(_class_ranges(0, 0xFFFF)) + "+")
        self._split_compiled: re.Pattern[str] | None = None

    def _split(self):
        """``[unspaced][marks]*|[other]+`` over the BMP, compiled on first use."""
        if self._split_compiled is None:
            categories, in_block = _bmp_table()
            marks = [c[0] == "M" for c in categories]
            for mark in SOUND_MARKS:
                marks[ord(mark)] = True
            if self.mode == "strict":
                token = [not chr(cp).isspace() for cp in range(0x10000)]
            else:
                token = [_in_token_class(c) for c in categories]
            unspaced = [t and b and c[0] != "M" for t, b, c in zip(token, in_block, categories)]
            other = [t and not u for t, u in zip(token, unspaced)]
            self._split_compiled = re.compile(
                f"{_char_class(_runs(unspaced))}{_char_class(_runs(marks))}*"
                f"|{_char_class(_runs(other))}+")
        return self._split_compiled

    def _stand_in(self, text: str) -> str:
        return _ASTRAL.sub(self._one_stand_in, text)

    def _one_stand_in(self, m) -> str:
        return _stand_in_char(self.mode, m.group())

    def _prepare(self, text: str):
        """(compiled pattern, text to match it on, whether that is a stand-in copy)."""
        unspaced, astral = _survey(text)
        if unspaced:
            if astral:
                return self._split(), self._stand_in(text), True
            return self._split(), text, False
        if astral and self.mode == "loose":
            return self._plain, self._stand_in(text), True
        return self._plain, text, False

    def findall(self, text: str) -> list[str]:
        if text.isascii():
            return self._plain.findall(text)
        pattern, matched, stood_in = self._prepare(text)
        if not stood_in:
            return pattern.findall(text)
        return [text[s:e] for s, e in self._spans(pattern, matched)]

    def spans(self, text: str, limit: int | None = None) -> list[tuple[int, int]]:
        """The ``[start, end)`` of each token (the first ``limit`` of them)."""
        pattern, matched, _ = self._prepare(text)
        return self._spans(pattern, matched, limit)

    @staticmethod
    def _spans(pattern, text: str, limit: int | None = None) -> list[tuple[int, int]]:
        return [m.span() for m in islice(pattern.finditer(text), limit)]


class _RegexPattern:
    """The ``regex`` package's matching of loose tokens, by Unicode properties."""

    def __init__(self):
        import regex
        blocks = _char_class(UNSPACED_BLOCKS)
        unspaced = rf"[[\p{{L}}\p{{N}}\p{{Cf}}]&&{blocks}]"
        self._plain = regex.compile(r"[\p{L}\p{N}\p{M}\p{Cf}]+")
        self._split = regex.compile(
            rf"(?V1){unspaced}[\p{{M}}{SOUND_MARKS}]*|[[\p{{L}}\p{{N}}\p{{M}}\p{{Cf}}]--{unspaced}]+")

    def _pattern(self, text: str):
        return self._split if _survey(text, astral=False)[0] else self._plain

    def findall(self, text: str) -> list[str]:
        if text.isascii():
            return self._plain.findall(text)
        return self._pattern(text).findall(text)

    def spans(self, text: str, limit: int | None = None) -> list[tuple[int, int]]:
        return [m.span() for m in islice(self._pattern(text).finditer(text), limit)]


BACKENDS = ("re", "regex")


@lru_cache(maxsize=4)
def token_pattern(mode: str, backend: str = "re"):
    """The matcher for a mode: an object with ``findall(text)`` and ``spans(text)``.

    Loose mode uses ``backend``: ``"re"`` (standard library, the default
    everywhere, so the page and the command agree) or ``"regex"`` (the
    ``regex`` package, ``[\\p{L}\\p{N}\\p{M}\\p{Cf}]+``, when installed).
    Strict mode always uses ``re``.
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown tokenizer backend {backend!r}; choose re or regex")
    if mode == "strict":
        return _StdlibPattern("strict")
    if backend == "regex":
        return _RegexPattern()
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
    the tokens of the text (a piece ends at the first space at least ``size``
    characters in). Text of a script written without spaces is cut before one of its
    characters too (a token of its own, or no token character, in both modes;
    never a mark or a sound mark, which join the token before them), whichever
    comes first::

        >>> list(_pieces("ab cd ef", 3)), list(_pieces("日本語の文", 3))
        (['ab cd ', 'ef'], ['日本語', 'の文'])
    """
    start = 0
    cut_before = None if text.isascii() else _piece_cut()
    while len(text) - start > size:
        at = start + max(size, 1)
        space = text.find(" ", at)
        end = space + 1 if space >= 0 else 0
        if cut_before is not None:
            found = cut_before.search(text, at, space if space >= 0 else len(text))
            if found:
                end = found.start()
        if not end:
            break
        yield text[start:end]
        start = end
    if not start:
        yield text
    elif start < len(text):
        yield text[start:]


def _keeps_every_token(text: str) -> bool:
    """Whether no token of ``text`` can normalize to nothing, whatever the layers:
    true of ASCII text (no format characters, no combining marks)."""
    return text.isascii()


class _Vocabulary(dict):
    """Raw token -> id of its normalized form (-1 when that is empty), filled on demand."""

    def __init__(self, normalize, known: dict | None = None):
        super().__init__()
        self.normalize = normalize
        self.ids: dict[str, int] = {} if known is None else known   # normalized -> id
        self.frozen = known is not None
        self.dropped = False          # some raw token normalized to nothing
        self._dropped_chars: set[str] = set()
        self._dropped_class: re.Pattern[str] | None = None
        #: a frozen vocabulary's ASCII tokens and ids as arrays (tokenize_arrow's)
        self.arrow_known: tuple | None = None

    def __missing__(self, raw: str) -> int:
        token = self.normalize(raw)
        if not token:
            self.dropped = True
            self._dropped_chars.update(raw)
            self._dropped_class = None
            ident = -1
        elif self.frozen:
            ident = self.ids.get(token, UNKNOWN)
        else:
            ident = self.ids.setdefault(token, len(self.ids))
        self[raw] = ident
        return ident

    def may_drop(self, text: str) -> bool:
        """Whether a token of ``text`` (whose tokens this vocabulary has seen) may be
        one that normalizes to nothing: only if the text holds a character of such
        a token. A frozen vocabulary has not seen them: True unless the text
        cannot hold one at all."""
        if _keeps_every_token(text):
            return False
        if self.frozen:
            return True
        if not self.dropped:
            return False
        if self._dropped_class is None:
            chars = "".join(re.escape(c) for c in sorted(self._dropped_chars))
            self._dropped_class = re.compile(f"[{chars}]")
        return self._dropped_class.search(text) is not None


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

    def count(self, text: str) -> int:
        """``len(self.ids(text))``, without normalizing text whose tokens are all kept
        (ASCII text).

        >>> Tokenizer().count("Fact: the MOON,"), Tokenizer().count("a \u00ad b")
        (3, 2)
        """
        if _keeps_every_token(text):
            return len(self._pattern.findall(text))
        return len(self.ids(text))

    def count_up_to(self, text: str, limit: int) -> int:
        """``min(len(self.ids(text)), limit)``, matching no further than needed:
        whether a row has at least n tokens is known after its first n.

        >>> Tokenizer().count_up_to("one two three four", 2), Tokenizer().count_up_to("a b", 5)
        (2, 2)
        """
        vocab = self._vocab
        raw = self._pattern.spans(text, limit)
        if _keeps_every_token(text):
            return len(raw)
        kept = sum(vocab[text[s:e]] >= 0 for s, e in raw)
        if kept == len(raw):                 # nothing dropped: the first `limit` are kept
            return kept
        return min(len(self.ids(text)), limit)

    def count_steps(self, text: str, piece_chars: int = PIECE_CHARS):
        """:meth:`count` as steps, a long text matched piece by piece as
        :meth:`spans_steps` cuts it, no span kept: memory set by a piece, not by
        the text (a 20 MB line holds 3 million tokens)."""
        vocab = self._vocab
        dropping = vocab.may_drop(text)
        total, pacer = 0, Pacer()
        for piece in _pieces(text, piece_chars):
            spans = self._pattern.spans(piece, None)
            total += sum(vocab[piece[s:e]] >= 0 for s, e in spans) if dropping else len(spans)
            if pacer.due():
                yield total
        return total

    def spans(self, text: str) -> list[tuple[int, int]]:
        """The ``[start, end)`` of every kept token of one text, in order."""
        return run_steps(self.spans_steps(text))

    def spans_steps(self, text: str, piece_chars: int = PIECE_CHARS, limit: int | None = None):
        """:meth:`spans` as steps: a long text is matched piece by piece.

        ``limit``: only the first ``limit`` spans are needed (the list may hold
        more), so matching stops early. The spans of the last few long texts
        are kept whole: the page asks for the same rows' spans for the CSV
        offsets and again for the highlight.
        """
        cached = self._spans_cache.get(text)
        if cached is not None:
            return cached
        vocab = self._vocab
        dropping = vocab.may_drop(text)
        want = None if dropping else limit       # a dropped token would shift the count
        whole = len(text) > piece_chars and limit is None
        out: list[tuple[int, int]] = []
        offset = 0
        pacer = Pacer()
        for piece in _pieces(text, piece_chars):
            spans = self._pattern.spans(piece, None if want is None else want - len(out))
            if offset:
                spans = [(offset + s, offset + e) for s, e in spans]
            if dropping:
                spans = [(s, e) for s, e in spans if vocab[text[s:e]] >= 0]
            out.extend(spans)
            offset += len(piece)
            if limit is not None and len(out) >= limit:
                break
            if pacer.due():
                yield offset
        if whole:
            if len(self._spans_cache) >= 4:
                self._spans_cache.pop(next(iter(self._spans_cache)))
            self._spans_cache[text] = out
        return out

    def char_range(self, text: str, first: int, last: int,
                   piece_chars: int = PIECE_CHARS) -> tuple[int, int]:
        """``(spans[first][0], spans[last][1])`` of :meth:`spans`: where kept tokens
        ``first`` to ``last`` (inclusive, ``first <= last``) begin and end, found a
        piece at a time as :meth:`spans_steps` cuts the text, no list of its spans
        kept and no piece past ``last`` matched (a 20 MB row holds 3 million)::

            >>> Tokenizer().char_range("Fact: the MOON, at night", 1, 2)
            (6, 14)
        """
        vocab = self._vocab
        dropping = vocab.may_drop(text)
        seen = offset = 0
        start = None
        for piece in _pieces(text, piece_chars):
            spans = self._pattern.spans(piece, None if dropping else last + 1 - seen)
            if dropping:
                spans = [(s, e) for s, e in spans if vocab[piece[s:e]] >= 0]
            if start is None and first < seen + len(spans):
                start = offset + spans[first - seen][0]
            if last < seen + len(spans):
                assert start is not None
                return start, offset + spans[last - seen][1]
            seen += len(spans)
            offset += len(piece)
        raise IndexError(f"token {last} of a text of {seen} tokens")

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
    slices are the exact keys of the window index. ``part_ends`` gives, for a
    row read from several fields (its ``parts``), where each field's tokens
    end, counted from the row's first token: ``{r: (4, 9)}`` means tokens
    ``[0, 4)`` are the first field's and ``[4, 9)`` the second's. A newline
    separates tokens in both modes, so a row's tokens are its fields' tokens
    end to end.
    """
    rows: list
    ids: array
    offsets: list[int]
    part_ends: dict[int, tuple[int, ...]] = field(default_factory=dict)

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


def tokenize_rows_steps(rows, tokenizer: Tokenizer, piece_chars: int = PIECE_CHARS,
                        by_part: bool = False):
    """Tokenize rows, yielding the characters done every few milliseconds.

    A generator: ``yield`` gives progress, and the return value (``yield from``
    or ``StopIteration.value``) is the :class:`TokenizedRows`. Rows longer than
    ``piece_chars`` are tokenized piece by piece (see :func:`_pieces`).
    ``by_part``: a row read from several fields is tokenized field by field, and
    ``part_ends`` says where each field's tokens end (the same tokens as the
    joined text: only A's per-field figures need it).
    """
    ids = array("I")
    offsets = [0]
    part_ends: dict[int, tuple[int, ...]] = {}
    done = 0
    pacer = Pacer()
    for r, row in enumerate(rows):
        text = row.text
        parts = getattr(row, "parts", ()) if by_part else ()
        if parts:
            first, ends = len(ids), []
            for _, start, end in parts:
                yield from _extend_steps(ids, text[start:end], tokenizer, piece_chars, pacer,
                                         done)
                ends.append(len(ids) - first)
            part_ends[r] = tuple(ends)
        elif len(text) <= piece_chars:
            ids.extend(tokenizer.ids(text))
        else:
            yield from _extend_steps(ids, text, tokenizer, piece_chars, pacer, done)
        done += len(text)
        offsets.append(len(ids))
        if pacer.due():
            yield done
    return TokenizedRows(list(rows), ids, offsets, part_ends)


def _extend_steps(ids: array, text: str, tokenizer: Tokenizer, piece_chars: int, pacer: Pacer,
                  done: int):
    """Add the ids of one text to ``ids`` (a long text piece by piece, yielding)."""
    if len(text) <= piece_chars:
        ids.extend(tokenizer.ids(text))
        return
    for piece in _pieces(text, piece_chars):
        ids.extend(tokenizer.ids(piece))
        if pacer.due():
            yield done


def tokenize_rows(rows, tokenizer: Tokenizer, by_part: bool = False) -> TokenizedRows:
    """:func:`tokenize_rows_steps` run to the end."""
    return run_steps(tokenize_rows_steps(rows, tokenizer, by_part=by_part))
