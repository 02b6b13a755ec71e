"""Pathological but valid inputs, each at the 2 MB bound (2,000,000 bytes).

Shared by the pathological benchmark and the tests: each builder returns
(A bytes, A name, B bytes, B name).
"""

from __future__ import annotations

import random

BOUND = 2_000_000


def one_huge_row():
    rng = random.Random(3)
    words = [f"w{i}" for i in range(5000)]
    text = " ".join(rng.choice(words) for _ in range(BOUND // 6))[:BOUND - 1]
    return text.encode() + b"\n", "a.txt", text.encode() + b"\n", "b.txt"


def same_word_everywhere():
    text = ("same " * (BOUND // 5))[:BOUND - 1].encode() + b"\n"
    return text, "a.txt", text, "b.txt"


def many_one_word_rows():
    rows = "".join(f"w{i % 1000}\n" for i in range(200_000)).encode()
    return rows, "a.txt", rows, "b.txt"


def one_giant_token():
    token = b"x" * (BOUND - 1) + b"\n"
    return token, "a.txt", token, "b.txt"


def ten_thousand_columns():
    """The first column holds a sentence, the other 9,999 one digit each."""
    header = ",".join(f"c{i}" for i in range(10_000))
    sentence = "the quick brown fox jumps over the lazy dog near the old river bank"
    row = ",".join([sentence] + [str(i % 10) for i in range(1, 10_000)])
    count = (BOUND - len(header)) // (len(row) + 1) - 1
    data = (header + "\n" + (row + "\n") * count).encode()
    return data, "a.csv", data, "b.csv"


CASES = {
    "one row of 2 MB": one_huge_row,
    "2 MB of one word repeated": same_word_everywhere,
    "200,000 one-word rows": many_one_word_rows,
    "one 2 MB token": one_giant_token,
    "10,000 CSV columns": ten_thousand_columns,
}
