"""Deterministic, real-looking text for benchmarks: Zipf-distributed words,
sentences with punctuation and capitals, and passages shared between the two
files so that matching does real work.
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


def sentences(rng: random.Random, words: list[str], cum_weights, count: int) -> list[str]:
    out = []
    for _ in range(count):
        chosen = rng.choices(words, cum_weights=cum_weights, k=rng.randint(6, 28))
        chosen[0] = chosen[0].capitalize()
        text = " ".join(chosen)
        if rng.random() < 0.3:
            cut = text.find(" ", len(text) // 2)
            if cut > 0:
                text = text[:cut] + "," + text[cut:]
        out.append(text + rng.choice([".", ".", ".", "?", "!"]))
    return out


def make_pair(a_bytes: int, b_bytes: int, seed: int = 1, shared: float = 0.05):
    """Two lists of row texts of about the given UTF-8 sizes; B holds passages of A."""
    rng = random.Random(seed)
    words = vocabulary(30_000)
    cum_weights = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(words))))

    def rows(target: int) -> list[str]:
        out, size = [], 0
        while size < target:
            text = " ".join(sentences(rng, words, cum_weights, rng.randint(1, 8)))
            out.append(text)
            size += len(text.encode()) + 30
        return out

    a, b = rows(a_bytes), rows(b_bytes)
    for i in range(0, len(a), max(1, int(1 / shared))):
        row = a[i].split(" ")
        passage = " ".join(row[: min(len(row), 20)])
        j = rng.randrange(len(b))
        b[j] = b[j] + " " + passage
    return a, b


def to_jsonl(texts, prefix: str) -> bytes:
    return "".join(json.dumps({"id": f"{prefix}{i}", "text": t}) + "\n"
                   for i, t in enumerate(texts, 1)).encode()
