"""Deterministic, real-looking text for benchmarks: Zipf-distributed words,
sentences with punctuation and capitals, and passages shared between the two
files so that matching does real work.

``script="han"`` writes Chinese-like text instead: words of one to three
common CJK ideographs, no spaces, full-width punctuation, so every character
is a token (as in a CMMLU- or C-Eval-style file), and the JSONL keeps the
characters as UTF-8 (``ensure_ascii=False``, as Hugging Face exports do).
"""

from __future__ import annotations

import itertools
import json
import random

_SYLLABLES = ["ka", "lo", "mi", "ten", "ra", "so", "vel", "an", "dor", "is", "ur", "pe",
              "qua", "ne", "tor", "si", "ba", "el", "gri", "on", "fa", "mu", "zen", "ti"]


def vocabulary(size: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    words = set()
    while len(words) < size:
        words.add("".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(1, 4))))
    return sorted(words)


def han_vocabulary(size: int, seed: int = 7) -> list[str]:
    """Words of 1 to 3 ideographs from the 3,000 first of CJK Unified Ideographs."""
    rng = random.Random(seed)
    words = set()
    while len(words) < size:
        words.add("".join(chr(0x4E00 + rng.randrange(3000)) for _ in range(rng.randint(1, 3))))
    return sorted(words)


def sentences(rng: random.Random, words: list[str], cum_weights, count: int,
              script: str = "latin") -> list[str]:
    han = script == "han"
    out = []
    for _ in range(count):
        chosen = rng.choices(words, cum_weights=cum_weights, k=rng.randint(6, 28))
        if han:
            if rng.random() < 0.3:
                chosen[len(chosen) // 2 - 1] += "，"
            out.append("".join(chosen) + rng.choice("。。。？！"))
            continue
        chosen[0] = chosen[0].capitalize()
        text = " ".join(chosen)
        if rng.random() < 0.3:
            cut = text.find(" ", len(text) // 2)
            if cut > 0:
                text = text[:cut] + "," + text[cut:]
        out.append(text + rng.choice([".", ".", ".", "?", "!"]))
    return out


def make_pair(a_bytes: int, b_bytes: int, seed: int = 1, shared: float = 0.05,
              script: str = "latin"):
    """Two lists of row texts of about the given UTF-8 sizes; B holds passages of A
    (20 words, or 30 characters of Chinese-like text)."""
    rng = random.Random(seed)
    han = script == "han"
    words = han_vocabulary(30_000) if han else vocabulary(30_000)
    cum_weights = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(words))))

    def rows(target: int) -> list[str]:
        out, size = [], 0
        while size < target:
            text = ("" if han else " ").join(sentences(rng, words, cum_weights,
                                                       rng.randint(1, 8), script))
            out.append(text)
            size += len(text.encode()) + 30
        return out

    a, b = rows(a_bytes), rows(b_bytes)
    for i in range(0, len(a), max(1, int(1 / shared))):
        if han:
            passage, joiner = a[i][:30], ""
        else:
            row = a[i].split(" ")
            passage, joiner = " ".join(row[: min(len(row), 20)]), " "
        j = rng.randrange(len(b))
        b[j] = b[j] + joiner + passage
    return a, b


def to_jsonl(texts, prefix: str) -> bytes:
    """One JSON object per line, ``{"id", "text"}``, characters kept as UTF-8."""
    return "".join(json.dumps({"id": f"{prefix}{i}", "text": t}, ensure_ascii=False) + "\n"
                   for i, t in enumerate(texts, 1)).encode()
