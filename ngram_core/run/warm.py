"""Warm-up: every stage run once on a few made-up rows, so the tables the engine
builds on first use exist before the first real file.

Rule: the engine computes some tables once, on first use, and keeps them (the
token classes compiled from the Unicode categories of all 65,536 BMP code
points, gpt4's class of dropped characters, the reader's sniffing patterns).
In a browser tab that first use costs a tenth of a second of the first check;
the page's build calls :func:`warm_caches` before it takes the interpreter's
memory snapshot, so the tab starts with those tables made. The tables are pure
functions of the code, so warming changes no result, only when the time is
spent::

    >>> warm_caches()
    >>> from ngram_core.method.tokenize import token_pattern
    >>> token_pattern.cache_info().currsize > 0
    True
"""

from __future__ import annotations

from .check import run_check
from ..report.contamination import definitions_steps_for
from ..read.fields import detect_text_fields_steps, field_stats_steps, select_rows
from ..read.readers import read_table
from ..method.settings import Settings
from ..steps import run_steps
from ..method.tokenize import Tokenizer

#: A line of text in each kind of script the tokenizer treats differently:
#: spaced letters with accents and marks, unspaced ideographs and kana, Thai,
#: Hangul, an astral character, digits and punctuation.
_TEXTS = (
    "The quick brown fox jumps over the lazy dog near the river bank at dawn, café naïve e\u0301.",
    "\u6211\u4eec\u5728\u5b66\u6821\u91cc\u5b66\u4e60\u6570\u5b66\u548c\u8bed\u6587\u3002"
    "\u3053\u308c\u306f\u65e5\u672c\u8a9e\u306e\u6587\u3067\u3059\u3002",
    "\u0e20\u0e32\u0e29\u0e32\u0e44\u0e17\u0e22 \ud55c\uad6d\uc5b4 \U0001f600 \U00020000 x\u00ady 42.",
)


def _files() -> dict[str, bytes]:
    """The same rows as JSON Lines, JSON, CSV, TSV and plain text."""
    lines = [text.replace('"', "") for text in _TEXTS]
    jsonl = "".join(f'{{"id": "q{i}", "question": "{t}"}}\n' for i, t in enumerate(lines))
    return {
        "warm.jsonl": jsonl.encode(),
        "warm.json": ("[" + ", ".join(jsonl.splitlines()) + "]").encode(),
        "warm.csv": ("id,question\n" + "".join(f'q{i},"{t}"\n' for i, t in enumerate(lines))).encode(),
        "warm.tsv": ("id\tquestion\n" + "".join(f"q{i}\t{t}\n" for i, t in enumerate(lines))).encode(),
        "warm.txt": ("\n".join(lines) + "\n").encode(),
    }


def warm_caches() -> None:
    """Read, detect, tokenize (both modes), check and compute the published
    definitions once, on rows made here; returns nothing, keeps only the
    engine's own caches."""
    tables = [read_table(data, name) for name, data in _files().items()]
    for table in tables:
        stats = run_steps(field_stats_steps(table))
        run_steps(detect_text_fields_steps(table, stats))
    rows = select_rows(tables[0])
    for mode in ("loose", "strict"):
        tokenizer = Tokenizer(mode)
        for text in _TEXTS:
            tokenizer.spans(text)
        result = run_check(rows, rows, Settings(mode=mode))
        if mode == "loose":
            run_steps(definitions_steps_for(result))
