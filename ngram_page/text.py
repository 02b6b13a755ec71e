"""The page's sentences and string helpers: sizes, excerpts, labels, names. Pure: no browser.

    >>> human_size(1_234_567)
    '1.23 MB (1,234,567 bytes)'
    >>> field_label("contents", 85.2, "Apollo 11 landed on the Moon in July 1969 with a crew")
    'contents — 85 tokens/row — "Apollo 11 landed on the Moon in…"'
"""

from __future__ import annotations

import re
from array import array

from ngram_core.method.similar import REPHRASE_THRESHOLD
from ngram_core.read.fields import KIND_WORDS as HOLDS

PANE_CHARS = 20_000           # a longer row is shown around its first highlight
BOUNDARY_CHARS = 200          # an excerpt's edge moves at most this far to a word boundary
SAMPLE_CHARS = 32             # a field's sample value in its option, at most
NAME_CHARS = 40               # a file's name in a download's name, at most

#: What a field of each kind (``ngram_core.read.fields.FieldStats.kind``) holds, for its
#: option: the engine's words, but none for a text field (a fixed one has its own
#: note) and "empty" for an empty one.
KIND_WORDS = {**{kind: words for kind, words in HOLDS.items() if kind not in ("text", "fixed")},
              "empty": "empty"}


def human_size(size: int) -> str:
    """A byte count for people: ``999 bytes``, ``1.5 kB (1,500 bytes)``, ``2.00 MB (...)``."""
    if size < 1000:
        return f"{size} bytes"
    if size < 1_000_000:
        return f"{size / 1000:.1f} kB ({size:,} bytes)"
    return f"{size / 1_000_000:.2f} MB ({size:,} bytes)"


def too_big(name: str, size: int, limit: int) -> str:
    """Why a file over the page's bound was not read: both byte counts, so a file
    one byte over is not "2.00 MB" against "2 MB"."""
    over = size - limit
    return (f"{name} is {size:,} bytes, {over:,} {'byte' if over == 1 else 'bytes'} over the "
            f"page's bound of {limit:,} bytes ({limit / 1_000_000:g} MB). Nothing of it was "
            f"read: use the ngram-overlap command for larger files.")


def format_label(fmt: str) -> str:
    """A table's format as the slot shows it: ``JSON``, ``CSV``, ``plain text``."""
    return fmt.upper() if fmt != "text" else "plain text"


def fields_summary(count: int, listed: int, fold: int, limit: int) -> str:
    """The heading of a slot's field lists: it says when not every field is listed."""
    if count > limit:
        return (f"Fields (listing {listed:,} of {count:,}; the ngram-overlap "
                f"command takes any field by name)")
    if count > fold:
        return f"Fields ({count:,})"
    return "Fields"


def shorten(text: str, width: int) -> str:
    """``text`` on one line, cut to ``width`` characters with an ellipsis (after a
    whole word when one ends in the second half)."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    head = text[:width - 1]
    if text[width - 1] != " " and " " in head[width // 2:]:
        head = head[:head.rfind(" ")]
    return head.rstrip() + "\u2026"


def per_row(tokens: float) -> str:
    """Tokens per row as an option shows them: ``85``, ``1.5``, ``0``, ``1,234``."""
    if tokens >= 10 or tokens == int(tokens):
        return f"{tokens:,.0f}"
    return f"{tokens:.1f}"


def field_label(name: str, tokens: float, sample: str, kind: str = "text",
                listed: bool = False) -> str:
    """A text field's option: its name, tokens per row, what it holds, a short sample.

    ``field_label("url", 4, "https://a.org/1", "url")`` ->
    ``'url — 4 tokens/row, URLs — "https://a.org/1"'``; one token a row is singular:

        >>> field_label("label", 1, "0", "number")
        'label — 1 token/row, numbers — "0"'
    """
    count = per_row(tokens)
    what = [f"{count} {'token' if count == '1' else 'tokens'}/row"]
    if kind in KIND_WORDS:
        what.append(KIND_WORDS[kind])
    if listed:
        what.append("from a list")
    label = f"{name} \u2014 {', '.join(what)}"
    return label + (f' \u2014 "{shorten(sample, SAMPLE_CHARS)}"' if sample else "")


def id_label(name: str, sample: str) -> str:
    """An id field's option: its name and a short sample value."""
    return f'{name} \u2014 "{shorten(sample, SAMPLE_CHARS)}"' if sample else name


def array_label(path: str, items: int, objects: bool) -> str:
    """A JSON array the rows can be read from: ``data.paragraphs.qas — 570 items (objects)``."""
    where = path if path else "the top-level array"
    return f"{where} \u2014 {items:,} {'item' if items == 1 else 'items'} " \
           f"({'objects' if objects else 'strings'})"


def several_names(names) -> str:
    """How a result names one or several files (as the command does)."""
    names = list(names)
    if len(names) == 1:
        return names[0]
    more = len(names) - 1
    return f"{names[0]} and {more} more {'file' if more == 1 else 'files'}"


def file_line(name: str, size: int, fmt: str, rows: int, counted=None) -> str:
    """One file of a slot holding several: ``part-1.jsonl: 1.2 kB (...), JSONL, 12 rows``,
    then ``counted`` = (tokens, short, n) once a check counted them."""
    line = (f"{name}: {human_size(size)}, {format_label(fmt)}, "
            f"{rows:,} {'row' if rows == 1 else 'rows'}")
    if counted is not None:
        tokens, short, n = counted
        line += f", {tokens:,} tokens, {short:,} shorter than {n} tokens"
    return line


def needs_file(key: str) -> str:
    """What a slot says once the other slot holds the person's own file."""
    other = "A" if key == "b" else "B"
    what = "the test set" if key == "a" else "the training data"
    return (f"Load file {key.upper()}, {what}, to check your file {other}: your file is never "
            f"checked against the worked example.")


def linked_file(key: str, names: list[str]) -> str:
    """What a slot says when a link names its files and they are not here (no file
    and no worked example is shown, so neither is mentioned)::

        >>> linked_file("b", ["p1.jsonl", "p2.jsonl"])
        'Pick file B as the link asks: p1.jsonl, p2.jsonl.'
    """
    return f"Pick file {key.upper()} as the link asks: {', '.join(names)}."


def linked_files_sentence(linked: dict[str, list[str]]) -> str:
    """What the verdict says when a link names the files it was made with and they
    are not here: no figure, which files, and what to do::

        >>> linked_files_sentence({"a": ["test.json"], "b": ["p1.jsonl", "p2.jsonl"]})
        "This link was made with file A test.json and file B p1.jsonl, p2.jsonl. Pick the same files below to see its result: the link's settings are already in place."
    """
    parts = [f"file {key.upper()} {', '.join(names)}" for key, names in linked.items()]
    return (f"This link was made with {' and '.join(parts)}. Pick the same files below to see "
            f"its result: the link's settings are already in place.")


def other_files(linked: dict[str, list[str]], picked: dict[str, list[str]],
                suite_a: list[str] | None = None) -> str:
    """What the verdict says, above the first figure of a link's check, when the files
    picked are not the ones the link names (empty when they are, in any order;
    ``suite_a``: every test set picked in slot A)::

        >>> other_files({"a": ["csqa_dev.jsonl"]}, {"a": ["mmlu_stem_test.csv"], "b": ["t.jsonl"]})
        "This link was made with file A csqa_dev.jsonl; you picked mmlu_stem_test.csv. The figures below are those of the files you picked, at the link's settings (its view of the rows is not applied)."
        >>> other_files({"a": ["x", "y"], "b": ["t"]}, {"a": ["x"], "b": ["t"]}, ["y", "x"])
        ''
        >>> other_files({"a": ["t.json", "t.json"]}, {"a": ["t.json"]}, ["t.json", "t.json"])[:72]
        'This link shows the test set t.json, and 2 of the test sets you picked a'
    """
    parts = []
    for key in ("a", "b"):
        want = linked.get(key)
        have = suite_a if key == "a" and suite_a else picked.get(key, [])
        if want and sorted(want) != sorted(have):
            parts.append(f"file {key.upper()} {', '.join(want)}; you picked {', '.join(have)}")
    if not parts and suite_a and linked.get("a") and suite_a.count(linked["a"][0]) > 1:
        shown = linked["a"][0]
        return (f"This link shows the test set {shown}, and {suite_a.count(shown)} of the "
                f"test sets you picked are named so: a link names files by name only, so the "
                f"first of them picked is shown, which may not be the one the link was made "
                f"with (its view of the rows is not applied). Pick another in the table above "
                f"to see its rows.")
    if not parts:
        return ""
    return (f"This link was made with {' and with '.join(parts)}. The figures below are "
            f"those of the files you picked, at the link's settings (its view of the rows "
            f"is not applied).")


def excerpt(text: str, ranges: list[tuple[int, int]]):
    """A window of at most PANE_CHARS characters of a long row, and the ranges in it.

    Returns ``(start, end, ranges shifted to the window)``, every range
    half-open ``[start, end)`` and clipped to the window; short rows are whole.
    The window starts about a quarter of its width before the first
    highlight, at a word boundary (after whitespace) when one is near, and
    ends at one too.
    """
    if len(text) <= PANE_CHARS:
        return 0, len(text), ranges
    centre = ranges[0][0] if ranges else 0
    start = max(0, min(centre - PANE_CHARS // 4, len(text) - PANE_CHARS))
    end = start + PANE_CHARS
    start, end = word_start(text, start), word_end(text, end)
    inside = [(max(s, start) - start, min(e, end) - start) for s, e in ranges
              if s < end and e > start]
    return start, end, inside


def word_start(text: str, start: int) -> int:
    """``start``, moved forward past the rest of a word it cuts (at most BOUNDARY_CHARS)."""
    if start == 0 or text[start - 1].isspace():
        return start
    for i in range(start, min(len(text), start + BOUNDARY_CHARS)):
        if text[i].isspace():
            return i + 1
    return start


def word_end(text: str, end: int) -> int:
    """``end``, moved back before a word it cuts (at most BOUNDARY_CHARS)."""
    if end >= len(text) or text[end].isspace():
        return end
    for i in range(end - 1, max(0, end - BOUNDARY_CHARS), -1):
        if text[i].isspace():
            return i
    return end


def excerpt_note(start: int, end: int, total: int) -> str:
    """The note above an excerpt, in 1-based character numbers."""
    return f"[Characters {start + 1:,} to {end:,} of {total:,}, around the first highlight.]\n"


def window_words(key: bytes, words: dict) -> str:
    """A window key of the index (4 bytes a token id, native order, as
    ``array("I")`` writes them) as its tokens, from ``words`` (id -> token)."""
    ids = array("I")
    ids.frombytes(key)
    return " ".join(words.get(i, "?") for i in ids)


def words_by_id(vocabulary: dict, keys) -> dict:
    """The tokens of the ids the ``keys`` hold: one pass over the vocabulary."""
    wanted: set[int] = set()
    for key in keys:
        ids = array("I")
        ids.frombytes(key)
        wanted.update(ids)
    return {ident: token for token, ident in vocabulary.items() if ident in wanted}


def ignored_summary(count: int, limit: int) -> str:
    """The summary line of the ignored n-grams' list."""
    grams = "1 n-gram was" if count == 1 else f"{count:,} n-grams were"
    return (f"{grams} ignored: each occurs in more than {limit:,} training rows. "
            f"Show the most frequent.")


def ignored_line(words: str, rows: int) -> str:
    return f"\u201c{words}\u201d \u2014 in {rows:,} training rows"


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def safe_part(name: str, width: int = NAME_CHARS) -> str:
    """A file name's stem as a safe piece of a download's name: ASCII letters,
    digits, ``.``, ``_`` and ``-`` only, other runs as one ``-``."""
    stem = name.rsplit("/", 1)[-1]
    if "." in stem.strip("."):
        stem = stem[:stem.rfind(".")]
    part = _UNSAFE.sub("-", stem).strip("-.")[:width].strip("-.")
    return part or "file"


def download_name(kind: str, a_name: str, b_names, n: int, threshold: str = "0",
                  mode: str = "loose") -> str:
    """The name a CSV is saved under: what was checked against what, and how.

    ``download_name("ngram-overlap", "test.jsonl", ["train.csv"], 13)`` ->
    ``'ngram-overlap_test_vs_train_n13.csv'``; several B files add ``+2``; a
    threshold adds ``_t50`` (as typed), strict matching ``_strict``.
    """
    b_names = list(b_names)
    b = safe_part(b_names[0]) + (f"+{len(b_names) - 1}" if len(b_names) > 1 else "")
    parts = [kind, safe_part(a_name), "vs", b, f"n{n}"]
    if float(threshold):
        parts.append("t" + _UNSAFE.sub("-", threshold.strip()))
    if mode == "strict":
        parts.append("strict")
    return "_".join(parts) + ".csv"


def timing_line(check: float, draw: float, held: float, where: str) -> str:
    """The body's ``data-timing`` marker the browser benchmark reads (seconds in)."""
    return (f"check {check:.3f} s, draw {draw:.3f} s, longest Python step "
            f"{held * 1000:.0f} ms ({where})")


def more_settings_line(mode: str, layers, short_min: int, max_b_rows: int | None,
                       keep_template: bool = False,
                       rephrase: float = REPHRASE_THRESHOLD) -> str:
    """The folded matching settings in one line (the rephrase lens's threshold named
    when it is not the default)::

        >>> more_settings_line("loose", ("L1", "L3", "L4"), 8, None)
        'loose matching, L1, L3 and L4; short rows of 8 tokens or more looked for whole; no n-gram ignored'
        >>> more_settings_line("strict", (), 0, 10)
        'strict matching; short rows not looked for; n-grams in more than 10 training rows ignored'
        >>> more_settings_line("strict", (), 0, None, rephrase=0.6)[-46:]
        'no n-gram ignored; rephrased at similarity 0.6'
    """
    how = f"{mode} matching"
    if mode == "loose":
        names = list(layers)
        how += ", " + (" and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1
                                    else names) if names else "no normalization layer")
    short = (f"short rows of {short_min} tokens or more looked for whole" if short_min
             else "short rows not looked for")
    ignored = (f"n-grams in more than {max_b_rows:,} training rows ignored"
               if max_b_rows is not None else "no n-gram ignored")
    line = f"{how}; {short}; {ignored}"
    if keep_template:
        line += "; file A's template matched too"
    if rephrase != REPHRASE_THRESHOLD:
        from ngram_core.report.summary import number
        line += f"; rephrased at similarity {number(rephrase)}"
    return line


def rows_moved(before_csv: str, after_csv: str) -> int:
    """The rows whose line of the rows CSV differs between two checks of the same
    files (a line more or fewer counts too)::

        >>> rows_moved("h\\n1,a\\n2,b\\n", "h\\n1,a\\n2,c\\n"), rows_moved("h\\n1,a\\n", "h\\n1,a\\n")
        (1, 0)
    """
    old, new = before_csv.splitlines(), after_csv.splitlines()
    return sum(1 for x, y in zip(old, new) if x != y) + abs(len(old) - len(new))


def change_line(before, after, rows_changed: int = 0) -> str:
    """What a change of the controls moved, between two checks of the same files:
    ``before`` and ``after`` are ``(settings, summary)``; ``rows_changed``: the rows
    whose line of the rows CSV differs (:func:`rows_moved`). Empty when no setting and
    no field read changed (new files: nothing to compare). "Nothing changed" only
    when no row's line changed, nor any figure::

        >>> from ngram_core.method.settings import Settings
        >>> from ngram_core.report.summary import Summary
        >>> def summary(flagged, checkable):
        ...     return Summary(1300, checkable, flagged, 0, 0, 0, 0, 100, 9, 0, 9, 13,
        ...                    "loose", "L1+L3+L4", 0.0, "re", "15")
        >>> change_line((Settings(n=13), summary(26, 1193)), (Settings(n=8), summary(53, 1221)))
        'n 13 → 8: rows flagged 2.2% → 4.3%; 28 more rows are checkable.'
        >>> change_line((Settings(), summary(26, 1193)), (Settings(threshold=10), summary(26, 1193)))
        'threshold 0% → 10%: nothing changed (2.2% of 1,193 checkable rows flagged).'
        >>> from dataclasses import replace
        >>> left = replace(summary(26, 1193), dirty_tokens=5)
        >>> change_line((Settings(), summary(26, 1193)), (Settings(leave_out=("x",)), left), 7)
        'passages left out 0 → 1: rows flagged unchanged (2.2%); dirty tokens 9 → 5; the figures of 7 rows changed.'
    """
    from ngram_core.method.tokenize import layers_label
    from ngram_core.report.summary import flagged_figure, number

    (s0, r0), (s1, r1) = before, after
    moves = []
    if s0.n != s1.n:
        moves.append(f"n {s0.n} → {s1.n}")
    if s0.threshold != s1.threshold:
        moves.append(f"threshold {number(s0.threshold)}% → {number(s1.threshold)}%")
    if s0.mode != s1.mode:
        moves.append(f"{s0.mode} → {s1.mode} matching")
    elif s0.layers != s1.layers:
        moves.append(f"layers {layers_label(s0.layers)} → {layers_label(s1.layers)}")
    if s0.short_min != s1.short_min:
        moves.append(f"short-row minimum {s0.short_min} → {s1.short_min}")
    if s0.max_b_rows != s1.max_b_rows:
        moves.append(f"B-row limit {s0.max_b_rows or 'off'} → {s1.max_b_rows or 'off'}")
    if s0.keep_template != s1.keep_template:
        moves.append("A's template matched" if s1.keep_template else "A's template left out")
    if s0.leave_out != s1.leave_out:
        moves.append(f"passages left out {len(s0.leave_out)} → {len(s1.leave_out)}")
    if s0.rephrase_threshold != s1.rephrase_threshold:
        moves.append(f"rephrase similarity {number(s0.rephrase_threshold)} → "
                     f"{number(s1.rephrase_threshold)}")
    for side, f0, f1 in (("A", r0.a_fields, r1.a_fields), ("B", r0.b_fields, r1.b_fields)):
        if f0 != f1:
            moves.append(f"text of {side} {' + '.join(f0) or 'text'} → "
                         f"{' + '.join(f1) or 'text'}")
    if not moves:
        return ""
    effects = []
    if flagged_figure(r0) != flagged_figure(r1):
        effects.append(f"rows flagged {flagged_figure(r0)} → {flagged_figure(r1)}")
    elif r0.flagged != r1.flagged:
        effects.append(f"flagged rows {r0.flagged:,} → {r1.flagged:,}")
    more = r1.checkable - r0.checkable
    if more:
        effects.append(f"{abs(more):,} {'more' if more > 0 else 'fewer'} "
                       f"{'row is' if abs(more) == 1 else 'rows are'} checkable")
    if r0.dirty_tokens != r1.dirty_tokens:
        effects.append(f"dirty tokens {r0.dirty_tokens:,} → {r1.dirty_tokens:,}")
    if r0.rephrased != r1.rephrased:
        effects.append(f"rows that look rephrased {r0.rephrased:,} → {r1.rephrased:,}")
    if rows_changed and not any(e.startswith(("rows flagged", "flagged rows"))
                                for e in effects):
        effects.insert(0, f"rows flagged unchanged ({flagged_figure(r1)})")
    if rows_changed:
        effects.append(f"the figures of {rows_changed:,} "
                       f"{'row' if rows_changed == 1 else 'rows'} changed")
    if not effects:
        return (f"{', '.join(moves)}: nothing changed ({flagged_figure(r1)} of "
                f"{r1.checkable:,} checkable rows flagged).")
    return f"{', '.join(moves)}: {'; '.join(effects)}."
