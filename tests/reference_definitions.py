"""Plain-loop references for the five published definitions (ngram_core.report.definitions).

Slow on purpose: every window is compared with every B window as token
lists, every share is a Fraction, every sample is searched with ``in`` in
each processed B row separately. Each rule is read straight off the issue.
Tokens come from tests/reference.py's tokenizer (loose, L1+L3+L4).
"""

from __future__ import annotations

import math
import random
import unicodedata
from fractions import Fraction

import reference

LAYERS = ("L1", "L3", "L4")


def tokens_of(text: str) -> list[str]:
    return [t for t, _, _ in reference.tokenize(text, "loose", LAYERS)]


def is_blank(text: str) -> bool:
    return not text or text.isspace()


def windows(tokens: list[str], n: int) -> list[tuple[str, ...]]:
    return [tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)]


def occurs_in(window: tuple[str, ...], b_tokens: list[str]) -> bool:
    return window in windows(b_tokens, len(window))


def gpt3_n(a_texts) -> int:
    counts = sorted(len(tokens_of(t)) for t in a_texts if not is_blank(t))
    if not counts:
        return 13
    position = math.ceil(Fraction(5, 100) * len(counts))
    return min(max(counts[position - 1], 8), 13)


def gpt3(a_texts, b_texts):
    """Per A row: None (not considered) or dirty."""
    n = gpt3_n(a_texts)
    b_tokens = [tokens_of(t) for t in b_texts]
    out = []
    for text in a_texts:
        tokens = tokens_of(text)
        if len(tokens) < 8:
            out.append(None)
            continue
        dirty = False
        for w in windows(tokens, n):
            rows = sum(occurs_in(w, b) for b in b_tokens)
            if 1 <= rows <= 10:
                dirty = True
        out.append(dirty)
    return out


def palm(a_texts, b_texts):
    b_tokens = [tokens_of(t) for t in b_texts]
    out = []
    for text in a_texts:
        tokens = tokens_of(text)
        if len(tokens) < 8:
            out.append(None)
            continue
        ws = windows(tokens, 8)
        found = sum(any(occurs_in(w, b) for b in b_tokens) for w in ws)
        out.append(Fraction(found, len(ws)) >= Fraction(70, 100))
    return out


def llama2(a_texts, b_texts):
    """Per A row: None (blank) or the Fraction of contaminated tokens (0 for no tokens)."""
    b_tokens = [tokens_of(t) for t in b_texts]
    out = []
    for text in a_texts:
        if is_blank(text):
            out.append(None)
            continue
        tokens = tokens_of(text)
        contaminated = set()
        for i, w in enumerate(windows(tokens, 11)):
            if any(occurs_in(w, b) for b in b_tokens):
                contaminated.update(range(i, i + 11))
        out.append(Fraction(len(contaminated), len(tokens)) if tokens else Fraction(0))
    return out


def llama2_subsets(share: Fraction) -> dict[str, bool]:
    return {"clean": share < Fraction(20, 100), "not_clean": share >= Fraction(20, 100),
            "not_dirty": share < Fraction(80, 100), "dirty": share >= Fraction(80, 100)}


def gpt4_process(text: str) -> str:
    return "".join(c for c in text if unicodedata.category(c)[0] in "LNM")


def gpt4(a_texts, b_texts):
    b_processed = [gpt4_process(t) for t in b_texts]
    out = []
    for a_row, text in enumerate(a_texts, 1):
        p = gpt4_process(text)
        if not p:
            out.append(None)
            continue
        if len(p) <= 50:
            samples = [p]
        else:
            rng = random.Random(a_row)
            samples = []
            for _ in range(3):
                start = rng.randrange(len(p) - 49)
                samples.append(p[start:start + 50])
        out.append(any(s in b for s in samples for b in b_processed))
    return out


def tulu3(a_texts, b_texts, cap=32):
    """Per A row: None (not considered) or (dirty, best B row)."""
    b_tokens = [tokens_of(t) for t in b_texts]
    kept = {}                      # window -> its first `cap` (B row, position), file order
    for r, b in enumerate(b_tokens):
        for j, w in enumerate(windows(b, 8)):
            kept.setdefault(w, [])
            if len(kept[w]) < cap:
                kept[w].append((r, j))
    out = []
    for text in a_texts:
        tokens = tokens_of(text)
        if len(tokens) < 8:
            out.append(None)
            continue
        covered_by_row: dict[int, set[int]] = {}
        for i, w in enumerate(windows(tokens, 8)):
            for r, _ in kept.get(w, []):
                covered_by_row.setdefault(r, set()).update(range(i, i + 8))
        best_row, best = None, 0
        for r in sorted(covered_by_row):
            if len(covered_by_row[r]) > best:
                best_row, best = r, len(covered_by_row[r])
        out.append((Fraction(best, len(tokens)) > Fraction(1, 2), best_row))
    return out
