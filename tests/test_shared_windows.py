"""The review's passages (#45): overlapping shared windows that cover one run of text
are one passage, so no two passages listed share a window; against a plain loop."""

from __future__ import annotations

import random

import pytest

from ngram_core import Row, Settings, run_check
from ngram_core.report.shared_windows import most_shared


def plain_passages(a_texts, b_texts, n):
    """The passages by a plain loop: each row's matched windows, those overlapping in
    a row joined, joined again across rows through a shared window; each passage as
    (its windows, the rows holding one)."""
    b_windows = {tuple(w[i:i + n]) for t in b_texts for w in [t.split()]
                 for i in range(len(w) - n + 1)}
    parent: dict = {}

    def root(x):
        while parent[x] != x:
            x = parent[x]
        return x

    holding: dict = {}
    for r, text in enumerate(a_texts):
        words = text.split()
        last = None
        for g in range(len(words) - n + 1):
            window = tuple(words[g:g + n])
            if window not in b_windows:
                continue
            parent.setdefault(window, window)
            holding.setdefault(window, set()).add(r)
            if last is not None and g - last[0] < n:
                a, b = root(last[1]), root(window)
                if a != b:
                    parent[b] = a
            last = (g, window)
    groups: dict = {}
    for window in holding:
        groups.setdefault(root(window), set()).add(window)
    return sorted((frozenset(ws), frozenset(r for w in ws for r in holding[w]))
                  for ws in groups.values()), holding


def windows_of(text, n):
    words = text.split()
    return {tuple(words[i:i + n]) for i in range(len(words) - n + 1)}


def test_one_sentence_shifted_a_word_at_a_time_is_one_passage():
    sentence = ("the committee agreed that every member state should report its annual "
                "emissions figures before the end of march each year")
    a = [Row(i + 1, f"a{i}", f"question {i} reads: {' '.join(sentence.split()[i:])} ok")
         for i in range(6)]
    a.append(Row(7, "a6", "licensed under the apache license version two point zero"))
    b = [Row(1, "b1", f"a report says {sentence} and more"),
         Row(2, "b2", "code licensed under the apache license version two point zero here")]
    top = most_shared(run_check(a, b, Settings(n=8)))
    shared = " ".join(sentence.split()[5:])          # the part all six rows hold
    assert [p.text for p in top] == [shared, "licensed under the apache license version "
                                             "two point zero"]
    assert top[0].a_rows == (0, 1, 2, 3, 4, 5) and top[0].b_rows == 1
    assert top[1].a_rows == (6,)


def test_a_boilerplate_line_one_leak_runs_into_is_shown_as_the_line():
    """Sixty rows end with one instruction; one row's whole context, leaked, runs into
    it: one passage (they share windows), shown as the line the sixty rows hold, so
    leaving it out leaves out the line (it was the leaked row's long run, found in
    that row alone)."""
    line = ("read the passage carefully and answer the question using only the "
            "information given in the passage above")
    rng = random.Random(3)
    words = [f"w{i}" for i in range(500)]
    a = [Row(i + 1, f"a{i}", " ".join(rng.choice(words) for _ in range(30)) + " " + line)
         for i in range(60)]
    b = [Row(1, "b1", f"intro {a[7].text} outro"), Row(2, "b2", f"{line} again")]
    top = most_shared(run_check(a, b, Settings(n=8, keep_template=True)))
    assert top[0].text == line and len(top[0].a_rows) == 60
    left = run_check(a, b, Settings(n=8, keep_template=True, leave_out=(top[0].text,)))
    assert left.summary.flagged == 1                   # the leaked row alone


@pytest.mark.parametrize("seed", range(25))
def test_passages_are_the_plain_loops_and_share_no_window(seed):
    rng = random.Random(seed)
    vocabulary = [f"w{i}" for i in range(rng.choice((8, 30, 200)))]
    n = rng.choice((5, 6, 8))

    def words(k):
        return [rng.choice(vocabulary) for _ in range(k)]

    b_texts = [" ".join(words(rng.randint(5, 60))) for _ in range(rng.randint(1, 8))]
    a_texts = []
    for _ in range(rng.randint(1, 25)):
        row = words(rng.randint(0, 20))
        source = rng.choice(b_texts).split()
        if source and rng.random() < 0.7:
            i = rng.randrange(len(source))
            row += source[i:i + rng.randint(1, 30)]
        a_texts.append(" ".join(row + words(rng.randint(0, 10))) or "x")
    result = run_check([Row(i + 1, f"a{i}", t) for i, t in enumerate(a_texts)],
                       [Row(i + 1, f"b{i}", t) for i, t in enumerate(b_texts)],
                       Settings(n=n, keep_template=True))
    listed = most_shared(result, None)
    expected, holding = plain_passages(a_texts, b_texts, n)
    assert len(listed) == len(expected)
    by_rows = sorted(tuple(p.a_rows) for p in listed)
    assert by_rows == sorted(tuple(sorted(rows)) for _, rows in expected)
    seen: set = set()
    for passage in listed:                       # pairwise: no window in two passages
        windows = windows_of(passage.text, n) & set(holding)
        assert windows, passage
        assert not windows & seen
        seen |= windows
        assert passage.text in a_texts[passage.a_rows[0]] or any(
            passage.text in a_texts[r] for r in passage.a_rows)
    counts = [len(p.a_rows) for p in listed]
    assert counts == sorted(counts, reverse=True)
