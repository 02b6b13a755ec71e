"""The five published definitions: small fixtures worked out by hand, then the
engine against the plain-loop references of tests/reference_definitions.py."""

import random
from fractions import Fraction

from hypothesis import HealthCheck, given, settings, strategies as st

import reference_definitions as ref
from ngram_core import Row, Settings, run_check
from ngram_core.report.definitions import (NAMES, Findings, Measure, compute_definitions,
                                    definitions_steps, finalize_steps, find_steps, found_in_steps,
                                    gpt3_n, gpt4_samples, gpt4_text, prepare_steps,
                                    reusable_tokens)
from ngram_core.report import definitions as definitions_module
from ngram_core.steps import Pacer, abandon_steps, run_steps


def seq(prefix: str, first: int, last: int) -> str:
    """``seq("a", 1, 3)`` -> ``"a1 a2 a3"``: distinct tokens."""
    return " ".join(f"{prefix}{i}" for i in range(first, last + 1))


def rows(*texts: str) -> list[Row]:
    return [Row(i, str(i), t) for i, t in enumerate(texts, 1)]


# --- gpt3 -------------------------------------------------------------------------

def test_gpt3_n_is_the_nearest_rank_fifth_percentile_of_non_blank_rows():
    # 21 non-blank rows: position ceil(0.05 * 21) = 2 of the sorted counts [9, 10, 40, ...]
    a = rows(seq("x", 1, 9), seq("t", 1, 10), *[seq(f"f{k}_", 1, 40) for k in range(19)], "  ")
    d = compute_definitions(a, rows("nothing here"))
    assert d.gpt3.parameters["n"] == 10
    # a blank row counts in no percentile; one more short row moves position 2 to 9 tokens
    d = compute_definitions(a + rows("one two"), rows("nothing here"))
    assert d.gpt3.parameters["n"] == 9
    assert gpt3_n([3] * 30) == 8 and gpt3_n([50] * 30) == 13


def test_gpt3_ignores_windows_in_more_than_ten_b_rows():
    # N = 10 (see above). Row 2 (t1..t10) is in B once: dirty. Row 3's only B window
    # u1..u10 is in 11 B rows: ignored, clean. Row 4's window v5..v14 is in exactly 10
    # B rows: dirty. Row 1 (9 tokens) is considered but has no 10-window: clean.
    a = rows(seq("x", 1, 9), seq("t", 1, 10), seq("u", 1, 12), seq("v", 1, 30),
             *[seq(f"f{k}_", 1, 40) for k in range(17)])
    b = rows(seq("x", 1, 9), "zero " + seq("t", 1, 10),
             *["pad " + seq("u", 1, 10) + " " + seq("u", 1, 10) for _ in range(11)],
             *[seq("v", 5, 14) + f" end{k}" for k in range(10)])
    d = compute_definitions(a, b)
    assert d.gpt3.parameters["n"] == 10
    assert d.gpt3.dirty[:4] == (False, True, False, True)
    assert d.gpt3.measures[:4] == (Measure(0, 0), Measure(1, 1), Measure(0, 3),
                                   Measure(1, 21))
    assert (d.gpt3.considered_count, d.gpt3.dirty_count) == (21, 2)
    # one more B row holding v5..v14: 11 rows, ignored
    d = compute_definitions(a, b + rows(seq("v", 5, 14)))
    assert d.gpt3.dirty[3] is False


# --- palm ---------------------------------------------------------------------------

def test_palm_compares_the_share_of_8_window_positions_exactly():
    a = rows(seq("a", 1, 12),      # B holds a1..a11: 4 of 5 windows, 80 %: dirty
             seq("b", 1, 12),      # B holds b1..b10: 3 of 5, 60 %: clean
             seq("c", 1, 17),      # B holds c1..c14: 7 of 10, exactly 70 %: dirty
             seq("e", 1, 20),      # B holds e1..e16: 9 of 13, 69.2 %: clean
             seq("s", 1, 7))       # 7 tokens: not considered
    b = rows(seq("a", 1, 11), seq("b", 1, 10), seq("c", 1, 14), seq("e", 1, 16), seq("s", 1, 7))
    d = compute_definitions(a, b)
    assert d.palm.measures == (Measure(4, 5), Measure(3, 5), Measure(7, 10), Measure(9, 13),
                               None)
    assert d.palm.dirty == (True, False, True, False, False)
    assert [d.palm.cell(r) for r in range(5)] == ["true", "false", "true", "false", ""]


# --- llama2 ---------------------------------------------------------------------------

def test_llama2_counts_tokens_in_11_windows_and_its_four_subsets():
    a = rows(seq("d", 1, 20),      # B holds d1..d11: 11 of 20 = 55 %: not clean, not dirty
             seq("e", 1, 15),      # B holds e1..e12: 12 of 15 = 80 %: dirty
             seq("g", 1, 55),      # B holds g1..g11: 11 of 55 = 20 %: not clean
             seq("h", 1, 56),      # B holds h1..h11: 11 of 56 < 20 %: clean
             seq("k", 1, 10),      # under 11 tokens: 0 %
             "!!!",                # non-blank, no token: considered, 0 %
             "   ")                # blank: not considered
    b = rows(seq("d", 1, 11), seq("e", 1, 12), seq("g", 1, 11), seq("h", 1, 11), seq("k", 1, 10))
    d = compute_definitions(a, b)
    assert d.llama2.measures == (Measure(11, 20), Measure(12, 15), Measure(11, 55),
                                 Measure(11, 56), Measure(0, 10), Measure(0, 0), None)
    subsets = d.llama2.subsets()
    assert subsets["clean"] == [False, False, False, True, True, True, False]
    assert subsets["not_clean"] == [True, True, True, False, False, False, False]
    assert subsets["not_dirty"] == [True, False, True, True, True, True, False]
    assert subsets["dirty"] == [False, True, False, False, False, False, False]
    assert d.llama2.dirty == tuple(subsets["dirty"])
    assert d.as_dict()["llama2"] == {
        "parameters": {"n": 11, "clean_below_percent": 20, "dirty_at_percent": 80},
        "considered": 6, "dirty": 1, "clean": 3, "not_clean": 3, "not_dirty": 5}
    assert [d.llama2.cell(r) for r in range(7)] == [
        repr(11 / 20), repr(12 / 15), "0.2", repr(11 / 56), "0.0", "0.0", ""]


# --- gpt4 -------------------------------------------------------------------------------

def test_gpt4_keeps_letters_digits_and_marks_with_their_case():
    assert gpt4_text("Hello, World! 123") == "HelloWorld123"
    assert gpt4_text("e\u0301 + x\u00ady \U0001F600 \U00010400") == "e\u0301xy\U00010400"


def test_gpt4_samples_are_reproducible_from_the_row_number():
    text = "".join(chr(ord("a") + i % 26) + str(i % 10) for i in range(50))     # 100 chars
    rng = random.Random(2)
    starts = [rng.randrange(51) for _ in range(3)]
    assert gpt4_samples(text, 2) == tuple(text[s:s + 50] for s in starts)
    assert gpt4_samples("x" * 50, 7) == ("x" * 50,)
    assert gpt4_samples("", 1) == ()


def test_gpt4_whole_short_texts_and_long_samples():
    long_text = " ".join(f"word{i}" for i in range(12))          # 66 kept characters
    other = " ".join(f"item{i}" for i in range(12))              # 66 kept characters
    a = rows("Hello, World! 123",    # HelloWorld123 is in B row 1: dirty
             "hello world 123",      # case kept: not in B: clean
             long_text,              # B holds all of it: every sample is in B: dirty
             other,                  # B holds its first 30 characters: no 50-char sample fits
             "!!! ???")              # nothing kept: not considered
    b = rows("xx Hello World 123 yy", gpt4_text(long_text), gpt4_text(other)[:30])
    d = compute_definitions(a, b)
    assert d.gpt4.dirty == (True, False, True, False, False)
    assert d.gpt4.measures == (Measure(1, 1), Measure(0, 1), Measure(3, 3), Measure(0, 3), None)


def test_gpt4_a_sample_across_two_b_rows_is_not_found():
    a = rows("abcdef")
    assert compute_definitions(a, rows("xx abc", "def yy")).gpt4.dirty == (False,)
    assert compute_definitions(a, rows("xx abc def yy")).gpt4.dirty == (True,)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.text("ab\x00", min_size=1, max_size=60), min_size=1, max_size=60),
       st.text("ab\x00", max_size=300))
def test_found_in_equals_in_on_two_letters(needles, haystack):
    """Enough needles of each length to take the anchored and scanning paths too."""
    needles = [n for n in needles if "\x00" not in n]
    # plus substrings of the haystack at every length, so that many are found
    pieces = [p for p in haystack.split("\x00") if p]
    for p in pieces:
        for length in (1, 5, 11, 12, 23, 24, 49, 50):
            needles += [p[i:i + length] for i in range(0, max(len(p) - length + 1, 0), 3)]
    needles = set(needles)
    assert run_steps(found_in_steps(needles, haystack)) == {n for n in needles if n in haystack}


def test_found_in_equals_in_on_text_for_every_needle_length():
    """Needles of every length from 1 to 50, found and not, many of each length: the
    anchored indexes, the scans and ``in`` all run."""
    rng = random.Random(5)
    texts = ["".join(rng.choice("abcdefghij") for _ in range(rng.randint(0, 400)))
             for _ in range(40)]
    haystack = "\x00".join(texts)
    needles = set()
    for length in range(1, 51):
        for _ in range(40):
            text = rng.choice(texts)
            if len(text) >= length:
                start = rng.randrange(len(text) - length + 1)
                needles.add(text[start:start + length])                     # found
            needles.add("".join(rng.choice("abcdefghij") for _ in range(length)))  # mostly not
    found = run_steps(found_in_steps(needles, haystack))
    assert found == {n for n in needles if n in haystack}
    assert len(found) > 1500 and len(needles) - len(found) > 1000


# --- tulu3 ---------------------------------------------------------------------------------

def test_tulu3_takes_the_single_b_row_that_covers_most():
    a = rows(seq("g", 1, 10),       # B row 1 covers g1..g8, B row 2 g3..g10: 8 of 10: dirty
             seq("h", 1, 16))       # two B rows cover 8 each: 50 %, not more: clean
    b = rows(seq("g", 1, 8), seq("g", 3, 10), seq("h", 1, 8), seq("h", 9, 16))
    d = compute_definitions(a, b)
    assert d.tulu3.measures == (Measure(8, 10), Measure(8, 16))
    assert d.tulu3.dirty == (True, False)
    assert d.tulu3.b_rows == (0, 2)          # a tie goes to the first B row
    assert d.palm.dirty == (False, False)    # 2 of 3 and 2 of 9 windows


def test_tulu3_sees_the_first_32_b_positions_of_each_window():
    # A = m1..m8 p1..p8. B rows 1-32 hold m1..m8, taking the 32 positions of window
    # m1..m8; B row 33 holds m1..m8 p1, so only its window m2..p1 is seen: 8 of 16
    # tokens = 50 %: clean. With 31 rows before it, row 32 sees both windows: 9 of 16.
    a = rows(seq("m", 1, 8) + " " + seq("p", 1, 8))
    last = seq("m", 1, 8) + " p1"
    d = compute_definitions(a, rows(*[seq("m", 1, 8)] * 32, last))
    assert (d.tulu3.measures[0], d.tulu3.dirty[0], d.tulu3.b_rows[0]) == (Measure(8, 16), False, 0)
    d = compute_definitions(a, rows(*[seq("m", 1, 8)] * 31, last))
    assert (d.tulu3.measures[0], d.tulu3.dirty[0], d.tulu3.b_rows[0]) == (Measure(9, 16), True, 31)


# --- the whole ---------------------------------------------------------------------------------

def test_the_json_shape_and_the_csv_cells():
    a = rows(seq("a", 1, 12), "short one", "")
    d = compute_definitions(a, rows(seq("a", 1, 12)))
    out = d.as_dict()
    assert list(out) == list(NAMES)
    for name, entry in out.items():
        assert set(entry) >= {"parameters", "considered", "dirty"}
        assert all(type(entry[k]) is int for k in entry if k != "parameters")
    assert out["gpt3"]["parameters"]["n"] == 8
    assert d.cells(0) == ("true", "true", "1.0", "true", "true")
    assert d.cells(1) == ("", "", "0.0", "false", "")
    assert d.cells(2) == ("", "", "", "", "")
    assert d.dirty_names(0) == list(NAMES) and d.dirty_rows("palm") == {0}


def test_the_users_settings_do_not_change_the_definitions():
    a = rows(seq("a", 1, 12), seq("b", 1, 30))
    b = rows(seq("a", 1, 12), seq("b", 1, 20))
    check = run_check(a, b, Settings(n=5, mode="strict", threshold=90))
    assert reusable_tokens(check) is None                  # strict mode: tokens not reused
    fresh = compute_definitions(a, b)
    default = run_check(a, b, Settings(n=25))
    assert reusable_tokens(default) is not None
    assert compute_definitions(a, b, reusable_tokens(default)) == fresh


def test_the_steps_yield_progress_and_end_with_the_same_result():
    a = rows(*[seq(f"r{k}_", 1, 40) for k in range(50)])
    b = rows(*[seq(f"r{k}_", 5, 30) for k in range(0, 50, 2)])
    steps = definitions_steps(a, b)
    seen = []
    result = run_steps(steps, seen.append)
    assert seen and all(0 <= p.fraction <= 1 for p in seen)
    assert result == compute_definitions(a, b)
    assert result.palm.dirty_count == 0 and result.tulu3.dirty_count == 25


def test_a_run_abandoned_at_any_step_lets_go_of_what_it_built_in_steps(monkeypatch):
    """The page ends a cancelled run with abandon_steps: the windows and findings
    built so far are emptied a chunk at a time (paced steps), not freed at once."""
    monkeypatch.setattr(Pacer, "due", lambda self: True)         # a step after every chunk
    handed = []
    real_release = definitions_module.release_steps

    def recording(containers, *args):
        handed.append((list(containers), sum(map(len, containers))))
        return (yield from real_release(containers, *args))

    monkeypatch.setattr(definitions_module, "release_steps", recording)
    a = rows(*[seq(f"r{k}_", 1, 40) for k in range(20)])
    b = rows(*[seq(f"r{k}_", 5, 30) for k in range(0, 20, 2)])
    expected = compute_definitions(a, b)
    steps = sum(1 for _ in definitions_steps(a, b))
    held_somewhere = 0
    for stop in range(1, steps):
        run = definitions_steps(a, b)
        for _ in range(stop):
            next(run)
        handed.clear()
        letting_go = list(abandon_steps(run))
        assert run.gi_frame is None                          # the run is over
        held = sum(size for _, size in handed)
        assert all(not container for containers, _ in handed for container in containers)
        assert not held or letting_go                        # freeing gave the browser turns
        held_somewhere += held > 0
    assert held_somewhere > steps // 2
    assert compute_definitions(a, b) == expected             # nothing shared was emptied


# --- against the plain-loop references --------------------------------------------------------

VOCAB = ["a", "b", "c", "A", "b,", "é", "e\u0301", "ｃ", "x\u00ady", "d"]
word_rows = st.lists(st.lists(st.sampled_from(VOCAB), max_size=30), min_size=1, max_size=8)


def texts_of(word_lists):
    return [" ".join(words) for words in word_lists]


def compare(a_texts, b_texts):
    d = compute_definitions(rows(*a_texts), rows(*b_texts))
    assert [None if m is None else dirty for m, dirty in zip(d.gpt3.measures, d.gpt3.dirty)] \
        == ref.gpt3(a_texts, b_texts)
    assert d.gpt3.parameters["n"] == ref.gpt3_n(a_texts)
    assert [None if m is None else dirty for m, dirty in zip(d.palm.measures, d.palm.dirty)] \
        == ref.palm(a_texts, b_texts)
    shares = ref.llama2(a_texts, b_texts)
    assert [None if m is None else Fraction(m.found, m.total) if m.total else Fraction(0)
            for m in d.llama2.measures] == shares
    subsets = d.llama2.subsets()
    for r, share in enumerate(shares):
        expected = ref.llama2_subsets(share) if share is not None else dict.fromkeys(subsets, False)
        assert {k: v[r] for k, v in subsets.items()} == expected
    assert [None if m is None else dirty for m, dirty in zip(d.gpt4.measures, d.gpt4.dirty)] \
        == ref.gpt4(a_texts, b_texts)
    assert [None if m is None else (dirty, row) for m, dirty, row
            in zip(d.tulu3.measures, d.tulu3.dirty, d.tulu3.b_rows)] == ref.tulu3(a_texts, b_texts)
    for definition in d:                 # the counts the table and JSON give, counted row by row
        assert definition.considered_count == sum(m is not None for m in definition.measures)
        assert definition.subset_counts == {name: sum(members) for name, members
                                            in definition.subsets().items()}
    return d


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word_rows, word_rows)
def test_definitions_equal_the_references(a, b):
    a_texts = texts_of(a)
    compare(a_texts, texts_of(b) + a_texts[:2])       # B repeats some of A: matches happen


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(st.sampled_from(["x", "y"]), min_size=8, max_size=20), min_size=1,
                max_size=3), st.integers(1, 4))
def test_definitions_equal_the_references_when_windows_repeat(a, copies):
    """Few words: windows repeat in many B rows (gpt3's filter, tulu3's 32-position cap)."""
    a_texts = texts_of(a)
    compare(a_texts, a_texts * (12 * copies))


unicode_text = st.text(st.characters(codec=None, exclude_categories=("Cs",)), max_size=120)


@settings(max_examples=100, deadline=None)
@given(st.lists(unicode_text, min_size=1, max_size=4), st.lists(unicode_text, max_size=4))
def test_gpt4_equals_the_reference_on_any_text(a, b):
    d = compute_definitions(rows(*a), rows(*(b + [f"zz{t[3:60]}zz" for t in a])))
    assert [None if m is None else dirty for m, dirty in zip(d.gpt4.measures, d.gpt4.dirty)] \
        == ref.gpt4(a, b + [f"zz{t[3:60]}zz" for t in a])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(word_rows, word_rows, st.lists(st.integers(0, 10), max_size=4), st.randoms())
def test_partitions_merged_in_any_order_give_the_same_definitions(a, b, cuts, rnd):
    """B's side run per partition (as Dask workers do) and merged: the same result."""
    a_rows, b_rows = rows(*texts_of(a)), rows(*(texts_of(b) + texts_of(a)[:2]) * 40)
    whole = compute_definitions(a_rows, b_rows)
    prepared = run_steps(prepare_steps(a_rows))
    bounds = sorted({0, len(b_rows), *(c % (len(b_rows) + 1) for c in cuts)})
    parts = list(zip(bounds, bounds[1:]))
    found = [run_steps(find_steps(prepared.probe, b_rows[s:e], partition=i))
             for i, (s, e) in enumerate(parts)]
    rnd.shuffle(found)
    merged = Findings()
    for f in found:
        merged.merge(f)
    first_rows = {i: s for i, (s, _) in enumerate(parts)}
    assert run_steps(finalize_steps(prepared, merged, first_rows)) == whole


def test_merged_partitions_keep_the_first_32_positions_in_file_order():
    """Partitions arriving last-first still keep each window's first 32 B positions."""
    a = rows(seq("m", 1, 8) + " " + seq("p", 1, 8))
    b = rows(*[seq("m", 1, 8)] * 40, seq("m", 1, 8) + " p1")
    prepared = run_steps(prepare_steps(a))
    parts = [(0, 20), (20, 41)]
    found = [run_steps(find_steps(prepared.probe, b[s:e], partition=i))
             for i, (s, e) in enumerate(parts)]
    merged = Findings().merge(found[1]).merge(found[0])
    assert [s >> 80 for s in merged.seen_8[next(iter(merged.seen_8))]] == [0] * 20 + [1] * 12
    d = run_steps(finalize_steps(prepared, merged, {0: 0, 1: 20}))
    assert d == compute_definitions(a, b)
    assert (d.tulu3.measures[0], d.tulu3.b_rows[0]) == (Measure(8, 16), 0)
