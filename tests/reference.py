"""A small, obviously-correct reference for the method: plain loops, no index.

Slow on purpose (every A window against every B window) so that each rule
can be read straight off the code and compared with ``ngram_core``.
"""

from __future__ import annotations

import unicodedata


def in_token_class(ch: str) -> bool:
    cat = unicodedata.category(ch)
    return cat[0] in "LNM" or cat == "Cf"


def normalize(token: str, layers) -> str:
    if "L4" in layers:
        token = "".join(c for c in token if unicodedata.category(c) != "Cf")
    if "L3" in layers:
        token = unicodedata.normalize("NFKC", token)
    if "L1" in layers:
        token = token.lower()
    if "L2" in layers:
        decomposed = unicodedata.normalize("NFD", token)
        token = unicodedata.normalize(
            "NFC", "".join(c for c in decomposed if not unicodedata.category(c).startswith("M")))
    return token


#: Scripts written without spaces (inclusive ranges), copied from the issue,
#: not from ngram_core: Thai, Lao, Myanmar, Khmer, Hiragana, Katakana, Katakana
#: Phonetic Extensions, CJK Extension A, CJK Unified, CJK Compatibility,
#: Halfwidth Katakana, Kana Supplement .. Small Kana Extension, CJK Extensions
#: B-I, CJK Compatibility Supplement, CJK Extensions G-H.
UNSPACED = [(0x0E00, 0x0E7F), (0x0E80, 0x0EFF), (0x1000, 0x109F), (0x1780, 0x17FF),
            (0x3040, 0x309F), (0x30A0, 0x30FF), (0x31F0, 0x31FF), (0x3400, 0x4DBF),
            (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFF66, 0xFF9F), (0x1B000, 0x1B16F),
            (0x20000, 0x2EE5F), (0x2F800, 0x2FA1F), (0x30000, 0x323AF)]


def is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")


def own_token(ch: str) -> bool:
    """In a listed block and not a combining mark (the caller checks it is a token character)."""
    return not is_mark(ch) and any(a <= ord(ch) <= b for a, b in UNSPACED)


def tokenize(text: str, mode="loose", layers=("L1", "L3", "L4")):
    """[(token, start, end)] by walking the text one character at a time.

    A token character of an unspaced script (not a mark) is a token of its
    own; the marks after it, and the halfwidth sound marks U+FF9E/U+FF9F,
    join it; any other character after it starts a new token.
    """
    keep = in_token_class if mode == "loose" else (lambda c: not c.isspace())
    bounds = []                      # [start, end) of the raw tokens
    start, unspaced = None, False    # the open token; is it an unspaced character (+ marks)?
    for i, ch in enumerate(text):
        if not keep(ch):
            if start is not None:
                bounds.append((start, i))
            start = None
            continue
        if start is not None:
            if unspaced and (is_mark(ch) or ch in "\uff9e\uff9f"):
                continue             # joins the unspaced character before it
            if not unspaced and not own_token(ch):
                continue             # the run goes on
            bounds.append((start, i))
        start, unspaced = i, own_token(ch)
    if start is not None:
        bounds.append((start, len(text)))
    out = []
    for s, e in bounds:
        raw = text[s:e]
        token = normalize(raw, layers) if mode == "loose" else raw
        if token:
            out.append((token, s, e))
    return out


def check_row(a_tokens, b_rows_tokens, n, cap=32):
    """The per-row contract for one A row against all B rows.

    Returns dict(windows, dirty, span, b_row, a_start, b_start, duplicate_of).
    The cap keeps, for each distinct window, only its first ``cap``
    occurrences in file order (row by row, left to right).
    """
    kept = {}
    for r, b in enumerate(b_rows_tokens):
        for j in range(len(b) - n + 1):
            kept.setdefault(tuple(b[j:j + n]), [])
            if len(kept[tuple(b[j:j + n])]) < cap:
                kept[tuple(b[j:j + n])].append((r, j))
    matched = []                     # (i, r, j) for every verified window pair kept
    for i in range(len(a_tokens) - n + 1):
        for r, j in kept.get(tuple(a_tokens[i:i + n]), []):
            assert a_tokens[i:i + n] == b_rows_tokens[r][j:j + n]
            matched.append((i, r, j))
    starts = {i for i, _, _ in matched}
    covered = set()
    for i in starts:
        covered.update(range(i, i + n))
    pairs = set(matched)
    best = None
    for i, r, j in matched:
        if (i - 1, r, j - 1) in pairs:
            continue                 # not the start of a diagonal run
        k = 1
        while (i + k, r, j + k) in pairs:
            k += 1
        key = (-k, r, i, j)
        if best is None or key < best:
            best = key
    duplicate_of = None
    if a_tokens:
        for r, b in enumerate(b_rows_tokens):
            if list(b) == list(a_tokens):
                duplicate_of = r
                break
    return {
        "windows": len(starts), "dirty": len(covered),
        "span": (-best[0] + n - 1) if best else 0,
        "b_row": best[1] if best else None,
        "a_start": best[2] if best else None,
        "b_start": best[3] if best else None,
        "duplicate_of": duplicate_of,
    }


def longest_common_run(a, b) -> int:
    """Longest common contiguous token run of two sequences, by brute force."""
    best = 0
    for i in range(len(a)):
        for j in range(len(b)):
            k = 0
            while i + k < len(a) and j + k < len(b) and a[i + k] == b[j + k]:
                k += 1
            best = max(best, k)
    return best


def covered_tokens(a_tokens, b_rows_tokens, n, cap=32) -> set:
    """The A token positions inside any window matched in B (the cap as in check_row)."""
    kept = {}
    for r, b in enumerate(b_rows_tokens):
        for j in range(len(b) - n + 1):
            positions = kept.setdefault(tuple(b[j:j + n]), [])
            if len(positions) < cap:
                positions.append((r, j))
    covered = set()
    for i in range(len(a_tokens) - n + 1):
        if kept.get(tuple(a_tokens[i:i + n])):
            covered.update(range(i, i + n))
    return covered


def order_fields(group, near_tie, name_rank):
    """Fields of one tier in order, by the rule's plain loop: repeatedly, of the fields
    left whose tokens are within ``near_tie`` of the most, take the one with the most
    characters, then the best name rank, then the first in field order."""
    rest, ordered = list(range(len(group))), []
    while rest:
        top = max(group[i].tokens for i in rest)
        near = [i for i in rest if group[i].tokens * near_tie >= top]
        best = min(near, key=lambda i: (-group[i].chars, name_rank(group[i].name), i))
        ordered.append(group[best])
        rest.remove(best)
    return ordered


# --- the rephrase lens (#46), by plain loops over every pair ------------------------

def lens_terms(text):
    """The lens's terms, by walking the text: a run of ASCII letters is cut before an
    upper-case letter that follows a lower-case one, and before the last of a run of
    upper-case letters followed by a lower-case one; a run of other letters (with
    the combining marks on them), a run of digits (one written with thousands
    separators, 1,250: its digits) and each CJK ideograph or kana are terms of their
    own; lower-cased; a run holding a letter of another script written without
    spaces (Thai...) gives its pairs of adjacent letters instead."""
    def kind(ch):
        if "\u3040" <= ch <= "\u30ff" or "\u3400" <= ch <= "\u4dbf" or \
                "\u4e00" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff":
            return "cjk"
        if ch.isascii() and ch.isalpha():
            return "ascii"
        if ch.isdecimal():
            return "digit"
        if ch.isalnum():             # a letter, or a digit that is not decimal (²)
            return "letter"
        if unicodedata.category(ch)[0] == "M":
            return "mark"
        return None

    def grouped_end(i):
        """Where a number written with thousands separators that starts at i ends
        (its last group of three digits not followed by a digit), or None."""
        j = i
        while j < len(text) and text[j].isdecimal():
            j += 1
        if not 1 <= j - i <= 3:
            return None
        ends = []
        while j + 3 < len(text) + 0 and text[j] == "," and \
                all(c.isdecimal() for c in text[j + 1:j + 4]) and len(text[j + 1:j + 4]) == 3:
            j += 4
            ends.append(j)
        ends = [e for e in ends if e == len(text) or not text[e].isdecimal()]
        return ends[-1] if ends else None
    out, cur, cur_kind = [], "", None
    skip_to = 0
    for i, ch in enumerate(text):
        if i < skip_to:
            continue
        k = kind(ch)
        if k == "digit" and not (cur and cur_kind == "digit"):
            end = grouped_end(i)
            if end is not None:
                if cur:
                    out.append(cur)
                out.append(text[i:end].replace(",", ""))
                cur, cur_kind, skip_to = "", None, end
                continue
        if k == "mark":
            if cur and cur_kind == "letter":       # a mark on a letter: part of its word
                cur += ch
                continue
            k = None
        if cur and k == cur_kind and k in ("ascii", "digit", "letter"):
            if k == "ascii":
                prev = cur[-1]
                nxt = text[i + 1] if i + 1 < len(text) else ""
                if ch.isupper() and (prev.islower() or
                                     (prev.isupper() and nxt.isascii() and nxt.islower())):
                    out.append(cur)
                    cur = ch
                    continue
            cur += ch
            continue
        if cur:
            out.append(cur)
        cur, cur_kind = (ch, k) if k else ("", None)
        if k == "cjk":
            out.append(cur)
            cur, cur_kind = "", None
    if cur:
        out.append(cur)
    terms = []
    for t in (t.lower() for t in out):
        if not any(unspaced_letter(c) for c in t):
            terms.append(t)
            continue
        clusters = []                   # a run of a script written without spaces:
        for c in t:                     # its pairs of adjacent letters, marks and all
            if clusters and unicodedata.category(c)[0] == "M":
                clusters[-1] += c
            else:
                clusters.append(c)
        terms += [a + b for a, b in zip(clusters, clusters[1:])] or clusters
    return terms + number_lists(text)


#: The lens's CJK blocks: each ideograph or kana a term of its own.
LENS_CJK = [(0x3040, 0x30FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF)]


def unspaced_letter(ch):
    """A character of a script written without spaces outside the lens's CJK blocks."""
    return any(a <= ord(ch) <= b for a, b in UNSPACED) and \
        not any(a <= ord(ch) <= b for a, b in LENS_CJK)


def number_lists(text):
    """Each run of two numbers or more joined by commas (spaces and brackets around
    a comma, a minus before a number; a number is digits, a point and digits) as
    its digits joined by commas, by walking the text."""
    def number_at(i):                  # the end of a number starting at i, or None
        j = i
        while j < len(text) and text[j].isdecimal():
            j += 1
        if j == i:
            return None
        if j + 1 < len(text) and text[j] == "." and text[j + 1].isdecimal():
            j += 1
            while j < len(text) and text[j].isdecimal():
                j += 1
        return j

    def joiner_at(i):                  # the start of the next number past a comma, or None
        j = i
        while j < len(text) and (text[j] in "[]()" or text[j].isspace()):
            j += 1
        if j >= len(text) or text[j] != ",":
            return None
        j += 1
        while j < len(text) and (text[j] in "[]()" or text[j].isspace()):
            j += 1
        if j < len(text) and text[j] == "-":
            j += 1
        return j if number_at(j) is not None else None

    out, i = [], 0                     # a list is looked for at each place a number
    while i < len(text):               # starts; where none begins, from the next one
        end = number_at(i) if (i == 0 or not text[i - 1].isdecimal()) else None
        if end is None:
            i += 1
            continue
        numbers = [text[i:end]]
        nxt = joiner_at(end)
        while nxt is not None:
            end = number_at(nxt)
            numbers.append(text[nxt:end])
            nxt = joiner_at(end)
        if len(numbers) > 1:
            found = text[i:end].split(",")     # one number with thousands separators: none
            grouped = all(p.isdecimal() for p in found) and 1 <= len(found[0]) <= 3 and \
                all(len(p) == 3 for p in found[1:])
            if not grouped:
                out.append(",".join(d for n in numbers for d in n.split(".")))
            i = end
        else:
            i += 1
    return out


def has_examples(text):
    """Whether a row holds a line of examples: one starting (after spaces or tabs)
    with ``>>>``, or with ``assert`` and no word character after it."""
    for line in text.split("\n"):
        line = line.lstrip(" \t")
        if line.startswith(">>>"):
            return True
        if line.startswith("assert"):
            after = line[6:7]
            if not after or not (after.isalnum() or after == "_"):
                return True
    return False


def digit_runs(text):
    """The runs of decimal digits of a text, in order."""
    runs, current = [], ""
    for ch in text:
        if ch.isdecimal():
            current += ch
        elif current:
            runs.append(current)
            current = ""
    return runs + [current] if current else runs


def lcs(a, b):
    """The longest common subsequence's length, by the textbook table."""
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(len(a)):
        for j in range(len(b)):
            table[i + 1][j + 1] = (table[i][j] + 1 if a[i] == b[j]
                                   else max(table[i][j + 1], table[i + 1][j]))
    return table[len(a)][len(b)]


def lens_best(a_texts, b_texts, key_terms=8, key_shared=3, scale=1000, near_best=0.05,
              numbers_min=2):
    """Per A row, (similarity, B row) of its best candidate credited to it, or None:
    every pair scored with the weights written out in full."""
    import math
    a_terms = [lens_terms(t) for t in a_texts]
    rows = sum(1 for t in a_terms if t)
    df = {}
    for ts in a_terms:
        for t in set(ts):
            df[t] = df.get(t, 0) + 1

    def idf(t):
        plain = math.log((rows + 1) / (df.get(t, 0) + 1)) + 1
        return plain * 2 if t[0] in "0123456789" or t[0].isdecimal() else plain

    def weights(ts):
        out = {}
        for t in set(ts):
            tf = ts.count(t)
            x = scale * idf(t) if tf == 1 else scale * idf(t) * (1 + math.log(tf))
            out[t] = int(x + 0.5)
        return out

    b_vectors = [weights(lens_terms(t)) for t in b_texts]
    scored = []                       # per A row: B row -> similarity, candidates only
    for ts in a_terms:
        va = weights(ts)
        # no key term is in more than a quarter of A's rows (and more than 64)
        keys = sorted((t for t in set(ts) if df[t] <= max(64, rows // 4)),
                      key=lambda t: (df[t], -len(t), t))[:key_terms]
        # past the key_shared rarest, only terms in at most one A row in 50 (at least 1)
        keys = keys[:key_shared] + [t for t in keys[key_shared:] if df[t] <= max(1, rows // 50)]
        need = min(key_shared, len(keys))
        # both rows with numbers_min distinct numbers or more: B holds all of A's, or
        # only numbers of A's
        numbers = {t for t in ts if t[0].isdecimal() and "," not in t}
        # ... and, A holding examples, 80 % of A's numbers in order
        a_text = a_texts[len(scored)]
        a_order = digit_runs(a_text) if has_examples(a_text) else []
        pairs = {}
        for b, vb in enumerate(b_vectors):
            if not keys or sum(1 for t in keys if t in vb) < need:
                continue
            b_numbers = {t for t in vb if t[0].isdecimal() and "," not in t}
            if (len(numbers) >= numbers_min and len(b_numbers) >= numbers_min
                    and not numbers <= b_numbers and not b_numbers <= numbers):
                continue
            if (len(numbers) >= numbers_min and len(b_numbers) >= numbers_min and a_order
                    and 10 * lcs(a_order, digit_runs(b_texts[b])) < 8 * len(a_order)):
                continue
            dot = sum(va[t] * vb[t] for t in va if t in vb)
            norm_a = sum(w * w for w in va.values())
            norm_b = sum(w * w for w in vb.values())
            if not dot:
                score = 0.0
            elif dot * dot == norm_a * norm_b:      # in proportion: exactly 1
                score = 1.0
            else:
                score = min(1.0, dot / (math.sqrt(norm_a) * math.sqrt(norm_b)))
            pairs[b] = score
        scored.append(pairs)
    # a B row counts for the A rows within near_best of its highest similarity
    top = {}
    for pairs in scored:
        for b, score in pairs.items():
            top[b] = max(top.get(b, score), score)
    best = []
    for pairs in scored:
        found = None
        for b in sorted(pairs):
            score = pairs[b]
            if score >= top[b] - near_best and (found is None or score > found[0]):
                found = (score, b)
        best.append(found)
    return best
