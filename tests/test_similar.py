"""The rephrase lens (#46): against the every-pair reference, on each rewrite kind of
the development data and its hard negatives, and the same from every engine."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import reference
from rephrase_code import code_set
from rephrase_data import KINDS, dev_set, passage_set, rewrite, _items
from ngram_core import Row, Settings, run_check
from ngram_core.method.similar import REPHRASE_THRESHOLD, SimilarIndex, terms

VOCAB = ["Janet", "ducks", "16", "eggs", "the", "a", "of", "sells", "$2", "market",
         "hasCloseElements", "has_close_elements", "HTTPServer", "x1", "été", "日本",
         "café", "numbers", "threshold", "Return", "_", "—", "3", "1.5", "12",
         "\n>>>", "\n  assert", "assertion", "16", "1,250", "1250", ",000", "नमस्ते",
         "\u0301", "ภาษาไทย", "ตัว", "ไทย16"]
texts = st.lists(st.lists(st.sampled_from(VOCAB), max_size=12).map(" ".join),
                 min_size=1, max_size=8)


def lens(a_texts, b_texts, chunk=None):
    index = SimilarIndex.of(a_texts)
    best: dict[int, tuple[float, int]] = {}
    chunk = chunk or max(len(b_texts), 1)
    for first in range(0, len(b_texts), chunk):
        index.fold(b_texts[first:first + chunk], first, best)
    return [best.get(a) for a in range(len(a_texts))]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=30), max_size=6))
def test_terms_match_the_reference_walk(rows):
    for text in rows:
        assert terms(text) == reference.lens_terms(text), text


@settings(max_examples=200, deadline=None)
@given(texts, texts, st.lists(st.integers(0, 7), max_size=12), st.integers(1, 4))
def test_rows_of_one_text_are_scored_once_and_get_every_pair_s_answer(a_texts, b_texts,
                                                                     repeats, chunk):
    """A rows that repeat (a test set holding an item twice, blank rows) are read and
    scored once: each copy still gets what every pair gives it, and weighs in A's
    document frequencies as often as it occurs."""
    a_texts = a_texts + [a_texts[r % len(a_texts)] for r in repeats]
    assert lens(a_texts, b_texts, chunk) == reference.lens_best(a_texts, b_texts)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["1", "2", "3", "10", "x"]), max_size=12),
       st.lists(st.sampled_from(["1", "2", "3", "10", "y"]), max_size=40))
def test_numbers_in_order_match_the_textbook_table(a, b):
    from ngram_core.method.similar import in_order
    assert in_order(a, iter(b)) == reference.lcs(a, b)


@settings(max_examples=300, deadline=None)
@given(texts, texts, st.integers(1, 4))
def test_best_row_and_similarity_match_every_pair(a_texts, b_texts, chunk):
    got = lens(a_texts, b_texts, chunk)
    assert got == reference.lens_best(a_texts, b_texts)
    for found in got:
        if found is not None:
            assert 0.0 <= found[0] <= 1.0


def test_terms_match_the_reference_walk_on_every_short_string():
    """Every string of up to 5 characters drawn from each kind the rules tell apart
    (lower, upper, digit, space, other letters, CJK, underscore): the case-turn
    rules see every order of upper and lower case letters."""
    import itertools
    for size in range(1, 6):
        for chars in itertools.product("aAB1 é日_", repeat=size):
            text = "".join(chars)
            assert terms(text) == reference.lens_terms(text), text


def test_same_terms_score_one_and_ties_go_to_the_first_b_row():
    got = lens(["Janet sells 16 duck eggs"], ["eggs duck 16 sells Janet", "Janet sells 16 duck eggs"])
    assert got == [(1.0, 0)]


def test_identifiers_split_on_case_and_underscores():
    assert terms("def hasCloseElements(numbers, max_len): HTTPServer") == \
        ["def", "has", "close", "elements", "numbers", "max", "len", "http", "server"]
    assert terms("has_close_elements") == terms("hasCloseElements")


def marked(style, kind, threshold=REPHRASE_THRESHOLD):
    a, b, truth = dev_set(style, kind, *SIZES[style])
    best = lens(a, b)
    found = {i for i, f in enumerate(best) if f is not None and f[0] >= threshold}
    right = {i for i in found if i in truth and best[i][1] == truth[i]}
    return a, truth, found, right


SIZES = {"math": (120, 300), "choice": (120, 300), "code": (50, 100)}


@pytest.mark.parametrize("style,kind", [(s, k) for s, kinds in KINDS.items() for k in kinds
                                        if k != "all"])
def test_each_rewrite_kind_is_found_and_hard_negatives_are_not(style, kind):
    a, truth, found, right = marked(style, kind)
    recall = len(right) / len(truth)
    false = len(found - right) / (len(a) - len(truth))
    assert recall >= RECALL[style, kind], (recall, false)
    assert false <= FALSE[style], (recall, false)


@pytest.mark.parametrize("kind", KINDS["choice"])
def test_a_rewritten_question_marks_its_own_item_not_those_sharing_its_passage(kind):
    """A reading-comprehension set asks several questions on each passage: a B row
    holding the passage and one question rewritten is nearly as similar to the
    passage's other items, and counts for its own only (docs/method.md)."""
    a, b, truth = passage_set(kind)
    best = lens(a, b)
    found = {i for i, f in enumerate(best) if f is not None and f[0] >= REPHRASE_THRESHOLD}
    right = {i for i in found if i in truth and best[i][1] == truth[i]}
    assert 2 * len(right) / (len(found) + len(truth)) >= 0.95
    assert len(found - right) / (len(a) - len(truth)) <= 0.06


@pytest.mark.parametrize("style", ["math", "code"])
def test_the_heaviest_rewrites_are_partly_found(style):
    """Every rewrite of a kind at once: found for part of the rows only (docs/method.md)."""
    a, truth, found, right = marked(style, "all")
    assert len(right) / len(truth) >= 0.5 and len(found - right) / len(a) <= 0.05


#: At the default threshold, on the development sets (docs/method.md has the table):
#: the share of rewritten A rows whose rewrite is marked as their similar row...
RECALL = {("math", "synonyms"): 0.95, ("math", "reorder"): 0.95, ("math", "template"): 0.95,
          ("choice", "synonyms"): 0.95, ("choice", "reorder"): 0.95,
          ("choice", "template"): 0.95, ("code", "synonyms"): 0.9, ("code", "rename"): 0.8,
          ("code", "template"): 0.95}
#: ... and the share of the other A rows marked (their rewrite is not in B): at most
#: 2 %. The multiple-choice set's items come from 15 stems, so many rows have a sibling
#: of their own stem (another name or number) whose rewrite is in B; that rewrite is
#: more similar to its own item than to the sibling, and counts for its own only.
FALSE = {"math": 0.02, "code": 0.02, "choice": 0.02}


def test_a_word_problem_with_other_names_and_numbers_ranks_below_its_rewrite():
    """The rewrite is the similar row; the sibling (the same sentences, other names,
    numbers and nouns) keeps 2 of the item's 4 numbers and has 2 of its own: no
    candidate, so not marked (it scored 0.561 alone, marked, when keeping half of
    an item's numbers was enough)."""
    item = ("Janet's ducks lay 16 eggs per day. She eats 3 for breakfast every morning and "
            "bakes muffins for her friends every day with 4. She sells the remainder at the "
            "farmers' market daily for $2 per fresh duck egg. How much in dollars does she "
            "make every day at the farmers' market?")
    rewrite = ("Every day, Janet's ducks produce 16 eggs. Each morning she has 3 of them for "
               "breakfast, and she uses 4 to bake muffins for her friends. At the farmers' "
               "market she sells whatever is left at $2 an egg. What are her daily earnings "
               "in dollars?")
    sibling = ("Marco's hens lay 22 eggs per day. He eats 2 for breakfast every morning and "
               "bakes bread for his neighbours every day with 5. He sells the remainder at the "
               "corner store daily for $3 per fresh hen egg. How much in dollars does he "
               "make every day at the corner store?")
    others = [math_text for math_text in _items("math", random.Random(7), 60)]
    (score, b_row), = [x for x in lens([item] + others, [sibling, rewrite])[:1]]
    assert b_row == 1 and score >= REPHRASE_THRESHOLD
    assert lens([item] + others, [sibling])[0] is None


def test_the_same_problem_with_other_numbers_is_not_a_rewrite_of_it():
    """A training set holds siblings of a test item: the same frame with other numbers
    (and often other names). A rewrite keeps the numbers: a B row that both lacks a
    number of an A row and holds one of its own is no candidate for it, however
    alike the words, even keeping most of them; one holding them all (and more)
    still is, and so is one that spells some out."""
    item = ("Max bought stamps at the post office: 16 with a snowflake design, 3 more "
            "with a truck than with a snowflake, and 9 fewer with a rose than with a "
            "truck. How many stamps did Max buy?")
    sibling = ("Bella bought stamps at the post office: 11 with a snowflake design, 9 more "
               "with a truck than with a snowflake, and 13 fewer with a rose than with a "
               "truck. How many stamps did Bella buy?")
    rewrite = ("At the post office Max got 16 snowflake stamps, 3 more truck stamps than "
               "snowflake ones, and 9 fewer rose stamps than truck ones. How many stamps "
               "in all?")
    others = _items("math", random.Random(7), 60)
    index = SimilarIndex.of([item, *others])
    assert 0 in index.key_rows(sibling) and 0 not in index.scores(sibling)  # 1 of 3 kept
    assert lens([item, *others], [sibling])[0] is None
    (score, b_row), = lens([item, *others], [sibling, rewrite])[:1]
    assert b_row == 1 and score >= REPHRASE_THRESHOLD
    half = sibling.replace("11", "16")                  # 16 and 9 of 16, 3, 9, and 13
    assert 0 not in index.scores(half)
    more = rewrite.replace("in all?", "in all, with 12 left?")     # 16, 3, 9 and 12
    assert 0 in index.scores(more)
    spelled = rewrite.replace("16", "sixteen").replace("3 ", "three ").replace("9", "nine")
    assert 0 in index.scores(spelled)


def test_a_rewritten_question_is_found_from_a_test_row_holding_its_solution_too():
    """A test file read as question + worked answer (GSM8K's) against a training row
    holding only the question, rewritten: the B row holds fewer numbers than the A
    row, every one of them the A row's, so it is a candidate (it was none: it held
    fewer than half of the A row's numbers); a sibling with a number of its own is
    still none."""
    item = ("Janet's ducks lay 16 eggs per day. She eats three for breakfast every morning "
            "and bakes muffins for her friends every day with four. She sells the remainder "
            "at the farmers' market daily for $2 per fresh duck egg. How much in dollars does "
            "she make every day at the farmers' market?\nJanet sells 16 - 3 - 4 = "
            "<<16-3-4=9>>9 duck eggs a day. She makes 9 * 2 = $<<9*2=18>>18 every day at the "
            "farmer's market. #### 18")
    rewrite = ("Each day, Janet's ducks produce 16 eggs. Every morning she eats three of them "
               "for breakfast, and she uses four daily to bake muffins for her friends. "
               "Whatever is left she sells at the farmers' market at $2 per egg. How many "
               "dollars does she earn at the farmers' market each day?")
    sibling = rewrite.replace("16 eggs", "22 eggs").replace("$2", "$3")
    others = _items("math", random.Random(7), 60)
    (score, b_row), = lens([item, *others], [rewrite])[:1]
    assert b_row == 0 and score >= REPHRASE_THRESHOLD
    assert lens([item, *others], [sibling])[0] is None


def test_renamed_identifiers_still_match():
    a = ['def has_close_elements(numbers, threshold):\n    """Check if in given list of '
         'numbers, are any two numbers closer to each other than given threshold.\n    '
         '>>> has_close_elements([1.0, 2.8, 3.0, 4.0, 5.0, 2.0], 0.3)\n    True\n    """\n',
         'def rolling_max(numbers):\n    """From a given list of integers, generate a list '
         'of rolling maximum element found until given moment in the sequence.\n    >>> '
         'rolling_max([1, 2, 3, 2, 3, 4, 2])\n    [1, 2, 3, 3, 3, 4, 4]\n    """\n']
    b = ['def anyNearPair(values, eps):\n    """Check if in given list of values, are any two '
         'values closer to each other than given eps.\n    >>> anyNearPair([1.0, 2.8, 3.0, '
         '4.0, 5.0, 2.0], 0.3)\n    True\n    """\n']
    (score, b_row), other = lens(a, b)
    assert b_row == 0 and score >= REPHRASE_THRESHOLD and other is None


EVEN_BITS = ("Write a python function to set all even bits of a given number.\n"
             "assert even_bit_set_number(10) == 10\nassert even_bit_set_number(20) == 30\n"
             "assert even_bit_set_number(30) == 30")
ODD_BITS = ("Write a python function to set all odd bits of a given number.\n"
            "assert odd_bit_set_number(10) == 15\nassert odd_bit_set_number(20) == 21\n"
            "assert odd_bit_set_number(30) == 31")
EVEN_REWRITE = ("Create a Python function that turns on every even-positioned bit of the "
                "number it is given.\nassert set_even_position_bits(10) == 10\n"
                "assert set_even_position_bits(20) == 30\nassert set_even_position_bits(30) == 30")
EVEN_REFORMATTED = ("In Python, turn on every even-positioned bit of a given number: "
                    "set_even_bits(10) returns 10, set_even_bits(20) returns 30 and "
                    "set_even_bits(30) returns 30.")


def test_a_sibling_problem_with_the_same_inputs_and_other_outputs_is_no_rewrite():
    """A code item's tests keep their inputs in a sibling problem (the odd bits for
    the even ones) and change the outputs: not scored, though nearly every word is
    shared; its rewrite, examples reformatted or not, is found, and wins with the
    sibling beside it."""
    others = ["Write a function to find the perimeter of a square.\n"
              "assert square_perimeter(10) == 40"] * 3
    assert lens([EVEN_BITS, *others], [ODD_BITS])[0] is None
    assert SimilarIndex.of([ODD_BITS, *others]).scores(EVEN_BITS) == {}
    for rewrite in (EVEN_REWRITE, EVEN_REFORMATTED):
        found = lens([EVEN_BITS, ODD_BITS, *others], [ODD_BITS.replace("odd", "uneven"), rewrite])
        assert found[0] is not None and found[0][1] == 1 and found[0][0] >= REPHRASE_THRESHOLD


@pytest.mark.parametrize("half", [0, 1])
def test_code_problems_with_new_names_are_found_and_their_neighbours_are_not(half):
    """Code problems written by hand (tests/rephrase_code.py), their function and
    parameters renamed as a rewrite renames them, hidden among the other half's
    problems: each is marked with its own rewrite; with no rewrite in B, no problem
    is marked. (Rewrites that also reword the docstring are found for about half
    of the problems: a limit, docs/method.md.)"""
    a, b, truth = code_set(half, "names")
    best = lens(a, b)
    assert all(best[i] is not None and best[i][1] == truth[i] and
               best[i][0] >= REPHRASE_THRESHOLD for i in truth), best
    a, b, _ = code_set(half, "none")
    assert all(f is None or f[0] < REPHRASE_THRESHOLD for f in lens(a, b))


@pytest.mark.parametrize("blocksize", [200, 1 << 20])
def test_streamed_gives_the_indexed_columns(tmp_path, blocksize):
    from ngram_core.read.files import fields_of, load_rows_by_file
    from ngram_core.run.distributed import check_distributed
    a_texts, b_texts, _ = dev_set("math", "all", 40, 60)
    a_path, b_path = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a_path.write_text("".join(json.dumps({"text": t}) + "\n" for t in a_texts))
    b_path.write_text("".join(json.dumps({"text": t}) + "\n" for t in b_texts + a_texts[:3]))
    a_rows, _, _ = load_rows_by_file([str(a_path)], ["text"])
    b_rows, b_files, b_reads = load_rows_by_file([str(b_path)], ["text"])
    for s in (Settings(n=8), Settings(n=8, rephrase_threshold=0.45),
              Settings(n=8, rephrase=False)):
        indexed = run_check(a_rows, b_rows, s, b_files, fields=(["text"], fields_of(b_reads)))
        streamed = check_distributed(None, a_rows, [str(b_path)], s, a_fields=["text"],
                                     b_fields=["text"], blocksize=blocksize)
        assert streamed.rows_csv() == indexed.rows_csv()
        assert streamed.summary.as_dict() == indexed.summary.as_dict()
        expected = [f and (f[0], f[1]) for f in lens(a_texts, b_texts + a_texts[:3])]
        got = [m.similarity is not None and (m.similarity, m.similar_b_row)
               for m in indexed.matches]
        if s.rephrase:
            assert got == [e if e is not None else False for e in expected]
            assert indexed.summary.rephrased == sum(
                1 for e in expected if e is not None and e[0] >= s.rephrase_threshold)
            assert indexed.summary.rephrase_threshold == s.rephrase_threshold
        else:
            assert "similarity" not in indexed.rows_csv().splitlines()[0]
            assert indexed.summary.rephrase_threshold is None


def test_rows_csv_columns_trail_and_the_figure_is_unchanged():
    a = [Row(1, "q1", "Janet sells 16 duck eggs at the market for $2 each, every day."),
         Row(2, "q2", "")]
    b = [Row(1, "t1", "Every day Janet sells duck eggs: 16 of them, $2 each, at the market.")]
    on = run_check(a, b, Settings(n=5))
    off = run_check(a, b, Settings(n=5, rephrase=False))
    assert on.summary.flagged == off.summary.flagged and on.csv() == off.csv()
    on_lines, off_lines = on.rows_csv().splitlines(), off.rows_csv().splitlines()
    assert on_lines[0] == off_lines[0] + ",similar_b_row,similarity,rephrased"
    assert on_lines[1].startswith(off_lines[1] + ",1,")
    assert on_lines[1].endswith(",true") and on_lines[2] == off_lines[2] + ",,,false"
    assert (on.summary.rephrased, on.summary.rephrased_unflagged) == (1, 1)


#: A word problem and an LLM-style rewrite of it that shares no 13-token sequence.
MUFFINS = ("Priya bakes 48 muffins for the school fair. She sells 3 of every 4 muffins at $2 "
           "each and gives the rest to her neighbours. How much money does she make at the "
           "fair?")
MUFFINS_REWRITTEN = ("Priya baked 48 muffins for the school fair. She sold 3 out of every 4 "
                     "muffins for $2 apiece and handed the remaining muffins to her neighbours. "
                     "How much did she earn at the fair?")


def test_the_headline_names_the_rephrased_rows_not_flagged():
    from ngram_core.report.summary import headline
    item, rewrite = MUFFINS, MUFFINS_REWRITTEN
    a = [Row(1, "a1", item), Row(2, "a2", "Tomas has 12 marbles. He wins 7 more and loses 4. "
                                          "How many marbles does he have now?")]
    result = run_check(a, [Row(1, "b1", rewrite)], Settings())
    assert (result.summary.flagged, result.summary.rephrased) == (0, 1)
    assert headline(result.summary).endswith(
        " 1 more row looks rephrased from rows of the other file (similarity 0.5 or more): "
        "it shares no 13-token sequence; review it.")
    off = run_check(a, [Row(1, "b1", rewrite)], Settings(rephrase=False))
    assert "rephrased" not in headline(off.summary)
    assert run_check(a, [Row(1, "b1", rewrite)], Settings(rephrase_threshold=0.8)
                     ).summary.rephrased == 0


def test_decontaminate_removes_the_rephrased_rows_when_asked(tmp_path):
    import io
    from ngram_core.decontaminate import main as decontaminate_main
    item, rewrite = MUFFINS, MUFFINS_REWRITTEN
    other = "Tomas has 12 marbles. He wins 7 more and loses 4. How many marbles does he have now?"
    evals = tmp_path / "eval.jsonl"
    evals.write_text("".join(json.dumps({"id": f"q{i}", "text": t}) + "\n"
                             for i, t in enumerate([item, other], 1)))
    train = tmp_path / "train.jsonl"
    lines = [json.dumps({"id": f"t{i}", "text": t}) + "\n" for i, t in enumerate(
        ["The weather was mild all week long in the valley.", rewrite,
         "A recipe for bread needs flour, water, salt and yeast."], 1)]
    train.write_text("".join(lines))
    for flag, kept in (([], lines), (["--remove-rephrased"], [lines[0], lines[2]])):
        out = tmp_path / ("out" + "".join(flag))
        code = decontaminate_main(["--evals", str(evals), "--train", str(train), "--out",
                                   str(out), "--json", *flag], io.StringIO(), io.StringIO())
        assert code == 0
        assert (out / "train.jsonl").read_text() == "".join(kept)
        removed = [json.loads(line) for line in (out / "removed.jsonl").read_text().splitlines()]
        report = json.loads((out / "report.json").read_text())
        # a model card built from report.json says the rows were removed by similarity too
        assert report["settings"]["remove_rephrased"] is bool(flag)
        assert report["settings"]["rephrase_threshold"] == 0.5
        if flag:
            assert removed == [{"file": str(train), "row": 2, "id": "t2", "causes": [
                {"eval": str(evals), "row": 1, "id": "q1", "rule": "rephrased",
                 "similarity": 0.757}]}]           # the training row's id, as every removal
            assert report["removals"].endswith("1 of them is removed only as the most similar "
                                               "row of an eval row marked rephrased "
                                               "(--remove-rephrased).")
        else:
            assert removed == []
            assert "rephrased" not in report["removals"]


def test_decontaminates_table_counts_each_evals_rephrased_rows(tmp_path):
    """The per-eval table on stdout gains a Rephrased column (the rows the lens marks,
    as each eval's summary counts them); none with --no-rephrase."""
    import io
    from ngram_core.decontaminate import main as decontaminate_main
    evals = tmp_path / "eval.jsonl"
    evals.write_text(json.dumps({"id": "q1", "text": MUFFINS}) + "\n")
    train = tmp_path / "train.jsonl"
    train.write_text(json.dumps({"text": MUFFINS_REWRITTEN}) + "\n")
    for flags, heading, last in (([], "Contained  Rephrased", "0          1"),
                                 (["--no-rephrase"], "Contained", "0")):
        out = io.StringIO()
        assert decontaminate_main(["--evals", str(evals), "--train", str(train), "--out",
                                   str(tmp_path / f"out{len(flags)}"), *flags], out,
                                  io.StringIO()) == 0
        table = out.getvalue().split("\n\n")[0].splitlines()
        assert table[0].endswith(heading) and table[1].endswith(last), table


def test_the_lens_reads_a_in_paced_steps_to_the_same_index(monkeypatch):
    """The page runs the check in steps so the tab stays responsive: reading and
    indexing A's terms (0.2 s for 2 MB) yields whenever its pacer says so, and the
    index made in steps is the one made at once."""
    from ngram_core.steps import Pacer, run_steps
    texts = [f"Row {i} holds word{i % 7} and word{i % 11}, {i} times" for i in range(40)]
    whole = SimilarIndex.of(texts)
    monkeypatch.setattr(Pacer, "due", lambda self: True)       # a step after each row
    steps = SimilarIndex.of_steps(texts)
    yielded = 0
    try:
        while True:
            next(steps)
            yielded += 1
    except StopIteration as done:
        paced = done.value
    assert yielded >= 2 * len(texts)                           # reading, then indexing
    assert (paced.keys, paced.needed, paced.idf, paced.counted) == \
        (whole.keys, whole.needed, whole.idf, whole.counted)
    assert run_steps(SimilarIndex.of_steps(texts)).keys == whole.keys


def test_a_word_keeps_its_combining_marks_and_a_number_its_thousands():
    """A Devanagari or Arabic word is one term with its vowel signs (it was cut at
    each); a run of Thai, a phrase, is its pairs of letters; 1,250 is the number 1250, so a rewrite that drops the separators (or adds
    them) keeps the item's numbers."""
    assert terms("नमस्ते दुनिया") == ["नमस्ते", "दुनिया"]
    assert terms("كَتَبَ الوَلَدُ") == ["كَتَبَ", "الوَلَدُ"]
    assert terms("ภาษาไทย 16 ตัว") == ["ภา", "าษ", "ษา", "าไ", "ไท", "ทย", "16", "ตัว"]
    assert terms("It cost $1,250 of 12,000,000; 1,2345") == \
        ["it", "cost", "1250", "of", "12000000", "1", "2345", "1,2345"]
    a = ["Nadia ordered 1,250 tiles for the 2,400 square feet of the community hall floor."]
    b = ["The community hall floor of 2400 square feet took 1250 tiles that Nadia ordered."]
    found = lens(a, b)
    assert found[0] is not None and found[0][0] > REPHRASE_THRESHOLD


@settings(max_examples=150, deadline=None)
@given(texts, texts, st.lists(st.sampled_from(VOCAB), min_size=1, max_size=3).map(" ".join))
def test_passages_left_out_are_read_as_if_never_written(a_texts, b_texts, passage):
    """With a passage left out of the check, the lens gives what it gives on rows
    written without it (each occurrence a space), in both files."""
    index = SimilarIndex.of(a_texts, [passage])
    best: dict[int, tuple[float, int]] = {}
    index.fold(b_texts, 0, best)
    expected = reference.lens_best([t.replace(passage, " ") for t in a_texts],
                                   [t.replace(passage, " ") for t in b_texts])
    assert [best.get(a) for a in range(len(a_texts))] == expected


@pytest.mark.parametrize("form", ["jsonl", "gz"])
def test_a_prompt_written_into_every_training_row_can_be_left_out_of_the_lens(tmp_path, form):
    """Training rows that carry a long system prompt in their text: a rewritten item
    scores low beside it (the prompt's words weigh most, as words A lacks); left out
    of the check (--leave-out-text), the rewrite is marked, whole and streamed."""
    import gzip
    import io
    from ngram_core.cli import main
    prompt = ("<|system|> You are a careful assistant for a tutoring service. Think step by "
              "step, show every calculation, check units, and give the final answer on its "
              "own line after the words Final answer. Keep explanations short and polite, "
              "never invent facts, refuse unsafe requests, cite the rule you apply, prefer "
              "plain language, avoid jargon, format lists with dashes, write fractions in "
              "lowest terms, round money to cents, and ask a clarifying question whenever "
              "the problem statement is ambiguous or incomplete in any way. <|user|> ")
    a_texts, rewrites, truth = dev_set("math", "synonym", 12, 20)
    a = tmp_path / "a.jsonl"
    a.write_text("".join(json.dumps({"question": t}) + "\n" for t in a_texts))
    b = tmp_path / "b.jsonl"
    b.write_text("".join(json.dumps({"text": prompt + t}) + "\n" for t in rewrites))
    if form == "gz":
        b = tmp_path / "b.jsonl.gz"
        b.write_bytes(gzip.compress((tmp_path / "b.jsonl").read_bytes()))
    marked = {}
    for extra in ([], ["--leave-out-text", prompt]):
        out, err = io.StringIO(), io.StringIO()
        assert main([str(a), str(b), "--json", *extra], out, err) == 0, err.getvalue()
        marked[bool(extra)] = json.loads(out.getvalue())["rephrased"]
    assert marked[True] == len(truth) and marked[False] < len(truth) // 2, marked
