"""Development data for the rephrase lens (#46): code problems written by hand.

Twenty-four function stubs of our own in the style of function-completion
benchmarks (a signature, a docstring, doctest examples), none taken from a
published set, each with a rewrite as a language model asked to rephrase it
tends to write: the function and its parameters renamed, the docstring said in
other words, the examples kept. :mod:`rephrase_data`'s code rewrites are made
by rule and keep most of the docstring's words; these keep only what a
rewrite of a code problem must keep to stay the same problem (the examples, a
few words of the task). :func:`renamed_only` gives the milder rewrite of the
same items: the new names, the docstring as it was.

:func:`code_set` hides the rewrites of one half among the other half's problems
(same-style negatives), as :func:`rephrase_data.dev_set` does.
"""

from __future__ import annotations

import re

#: (problem, its rewrite), each as a test set and a training file would hold it.
PAIRS = [
('''def count_vowel_words(sentence: str) -> int:
    """ Count how many words in the sentence begin with a vowel (a, e, i, o, u),
    ignoring case. Words are separated by single spaces.
    >>> count_vowel_words("An owl ate every insect")
    5
    >>> count_vowel_words("the quick brown fox")
    0
    """
''', '''def vowel_initial_total(text: str) -> int:
    """ Return the number of space-separated words in text whose first letter is a
    vowel (a, e, i, o or u), without regard to upper or lower case.
    >>> vowel_initial_total("An owl ate every insect")
    5
    >>> vowel_initial_total("the quick brown fox")
    0
    """
'''),
('''from typing import List


def pairwise_gaps(heights: List[int]) -> List[int]:
    """ Given the heights of buildings along a street, return the absolute difference
    between each building and the next one.
    >>> pairwise_gaps([3, 7, 4, 4, 10])
    [4, 3, 0, 6]
    >>> pairwise_gaps([5])
    []
    """
''', '''from typing import List


def neighbour_differences(levels: List[int]) -> List[int]:
    """ For a list of building heights on a street, compute how much each height
    differs (in absolute value) from the one after it.
    >>> neighbour_differences([3, 7, 4, 4, 10])
    [4, 3, 0, 6]
    >>> neighbour_differences([5])
    []
    """
'''),
('''def caesar_shift(message: str, key: int) -> str:
    """ Encrypt a lowercase message by moving every letter key places forward in the
    alphabet, wrapping from z back to a. Characters that are not letters stay the same.
    >>> caesar_shift("hello, world", 3)
    'khoor, zruog'
    >>> caesar_shift("xyz", 4)
    'bcd'
    """
''', '''def rotate_letters(plain: str, offset: int) -> str:
    """ Produce the ciphertext of a lower-case string in which each letter is advanced
    offset positions through the alphabet (after z comes a again); leave any other
    character unchanged.
    >>> rotate_letters("hello, world", 3)
    'khoor, zruog'
    >>> rotate_letters("xyz", 4)
    'bcd'
    """
'''),
('''from typing import Dict, List


def group_by_length(words: List[str]) -> Dict[int, List[str]]:
    """ Group the words by their length. Return a dictionary mapping each length to the
    words of that length, in the order they appear in the input.
    >>> group_by_length(["cat", "horse", "dog", "ox"])
    {3: ['cat', 'dog'], 5: ['horse'], 2: ['ox']}
    """
''', '''from typing import Dict, List


def bucket_words_by_size(tokens: List[str]) -> Dict[int, List[str]]:
    """ Build a dict whose keys are word lengths and whose values list the words having
    that many characters, keeping their original order.
    >>> bucket_words_by_size(["cat", "horse", "dog", "ox"])
    {3: ['cat', 'dog'], 5: ['horse'], 2: ['ox']}
    """
'''),
('''def is_leap_year(year: int) -> bool:
    """ Return True if the year is a leap year in the Gregorian calendar: divisible by
    4, except centuries, which must be divisible by 400.
    >>> is_leap_year(2024)
    True
    >>> is_leap_year(1900)
    False
    >>> is_leap_year(2000)
    True
    """
''', '''def has_february_29(y: int) -> bool:
    """ Decide whether y is a Gregorian leap year. Years that are multiples of 4 are leap
    years, but years ending a century only count when they are multiples of 400.
    >>> has_february_29(2024)
    True
    >>> has_february_29(1900)
    False
    >>> has_february_29(2000)
    True
    """
'''),
('''from typing import List


def second_largest(values: List[int]) -> int:
    """ Find the second largest distinct value in a list with at least two distinct
    values.
    >>> second_largest([4, 9, 1, 9, 7])
    7
    >>> second_largest([-2, -5])
    -5
    """
''', '''from typing import List


def runner_up(nums: List[int]) -> int:
    """ Return the value that ranks just below the maximum when duplicates are counted
    once; the input always holds two or more different numbers.
    >>> runner_up([4, 9, 1, 9, 7])
    7
    >>> runner_up([-2, -5])
    -5
    """
'''),
('''def compress_runs(text: str) -> str:
    """ Compress a string by replacing each run of a repeated character with the
    character followed by the length of the run. Runs of length one are left alone.
    >>> compress_runs("aaabccdddd")
    'a3bc2d4'
    >>> compress_runs("abc")
    'abc'
    """
''', '''def run_length_encode(s: str) -> str:
    """ Shorten s so that every block of identical consecutive characters is written as
    that character and how many times it repeats; a character that appears only once in
    a row is copied as it is.
    >>> run_length_encode("aaabccdddd")
    'a3bc2d4'
    >>> run_length_encode("abc")
    'abc'
    """
'''),
('''from typing import List


def matrix_trace(grid: List[List[int]]) -> int:
    """ Return the sum of the elements on the main diagonal of a square matrix.
    >>> matrix_trace([[1, 2], [3, 4]])
    5
    >>> matrix_trace([[7]])
    7
    """
''', '''from typing import List


def diagonal_sum(m: List[List[int]]) -> int:
    """ Add up the entries running from the top-left to the bottom-right corner of a
    square two-dimensional list.
    >>> diagonal_sum([[1, 2], [3, 4]])
    5
    >>> diagonal_sum([[7]])
    7
    """
'''),
('''def celsius_to_fahrenheit(degrees: float) -> float:
    """ Convert a temperature from degrees Celsius to degrees Fahrenheit, rounded to
    one decimal place.
    >>> celsius_to_fahrenheit(100)
    212.0
    >>> celsius_to_fahrenheit(-40)
    -40.0
    >>> celsius_to_fahrenheit(36.6)
    97.9
    """
''', '''def to_fahrenheit(c: float) -> float:
    """ Take a Celsius reading and give the equivalent Fahrenheit temperature, with
    the result rounded to 1 digit after the decimal point.
    >>> to_fahrenheit(100)
    212.0
    >>> to_fahrenheit(-40)
    -40.0
    >>> to_fahrenheit(36.6)
    97.9
    """
'''),
('''from typing import List


def merge_sorted(first: List[int], second: List[int]) -> List[int]:
    """ Merge two lists that are already sorted in ascending order into one sorted list,
    without using the built-in sort.
    >>> merge_sorted([1, 4, 9], [2, 3, 10, 12])
    [1, 2, 3, 4, 9, 10, 12]
    """
''', '''from typing import List


def combine_ordered(left: List[int], right: List[int]) -> List[int]:
    """ Two input lists are each in increasing order. Interleave them into a single
    list that is also in increasing order; do not call sorted() or list.sort().
    >>> combine_ordered([1, 4, 9], [2, 3, 10, 12])
    [1, 2, 3, 4, 9, 10, 12]
    """
'''),
('''def balanced_brackets(expression: str) -> bool:
    """ Check whether every opening bracket in the expression ( [ { has a matching
    closing bracket of the same kind, in the right order.
    >>> balanced_brackets("{[()()]}")
    True
    >>> balanced_brackets("([)]")
    False
    """
''', '''def brackets_match(expr: str) -> bool:
    """ Return whether the brackets ( ) [ ] { } in expr are properly paired: each one
    that opens is closed by the same type, and they close in reverse order of opening.
    >>> brackets_match("{[()()]}")
    True
    >>> brackets_match("([)]")
    False
    """
'''),
('''from typing import List


def moving_average(series: List[float], window: int) -> List[float]:
    """ Return the average of each consecutive window of the given size over the series.
    >>> moving_average([2.0, 4.0, 6.0, 8.0], 2)
    [3.0, 5.0, 7.0]
    >>> moving_average([1.0, 2.0, 3.0], 3)
    [2.0]
    """
''', '''from typing import List


def sliding_means(data: List[float], k: int) -> List[float]:
    """ Slide a span of k neighbouring elements along data and report the mean at every
    position.
    >>> sliding_means([2.0, 4.0, 6.0, 8.0], 2)
    [3.0, 5.0, 7.0]
    >>> sliding_means([1.0, 2.0, 3.0], 3)
    [2.0]
    """
'''),
('''def digital_root(number: int) -> int:
    """ Repeatedly add the digits of a non-negative number until a single digit remains,
    and return that digit.
    >>> digital_root(9875)
    2
    >>> digital_root(0)
    0
    """
''', '''def reduce_to_one_digit(n: int) -> int:
    """ Keep replacing n (n >= 0) by the total of its decimal digits until it has only
    one digit left; return the result.
    >>> reduce_to_one_digit(9875)
    2
    >>> reduce_to_one_digit(0)
    0
    """
'''),
('''from typing import List


def unique_in_order(items: List[str]) -> List[str]:
    """ Remove duplicates from a list of strings, keeping the first occurrence of each
    and the original order.
    >>> unique_in_order(["b", "a", "b", "c", "a"])
    ['b', 'a', 'c']
    """
''', '''from typing import List


def dedupe_keep_first(strs: List[str]) -> List[str]:
    """ Drop repeated strings so each one appears once, at the position where it was
    first seen.
    >>> dedupe_keep_first(["b", "a", "b", "c", "a"])
    ['b', 'a', 'c']
    """
'''),
('''def title_case(phrase: str, minor: str) -> str:
    """ Capitalize the first letter of every word in the phrase, except the words listed
    in minor (space separated), which stay lowercase unless they are the first word.
    >>> title_case("a tale of two cities", "a of")
    'A Tale of Two Cities'
    """
''', '''def headline(words: str, small_words: str) -> str:
    """ Turn words into a headline: each word starts with a capital letter, but any word
    from the space-separated small_words is kept in lower case, unless it opens the text.
    >>> headline("a tale of two cities", "a of")
    'A Tale of Two Cities'
    """
'''),
('''from typing import List


def count_islands(grid: List[List[int]]) -> int:
    """ Count the islands in a grid of 0s (water) and 1s (land). An island is a group of
    land cells connected horizontally or vertically.
    >>> count_islands([[1, 1, 0], [0, 1, 0], [1, 0, 1]])
    3
    """
''', '''from typing import List


def land_masses(cells: List[List[int]]) -> int:
    """ In a map where 1 marks land and 0 marks sea, return how many separate pieces of
    land there are; cells touching up, down, left or right belong to the same piece.
    >>> land_masses([[1, 1, 0], [0, 1, 0], [1, 0, 1]])
    3
    """
'''),
('''def binary_to_decimal(bits: str) -> int:
    """ Convert a string of binary digits to its integer value, without using int()
    with a base.
    >>> binary_to_decimal("1011")
    11
    >>> binary_to_decimal("0")
    0
    """
''', '''def parse_base_two(digits: str) -> int:
    """ Interpret digits, made only of 0 and 1, as a base-2 number and return it as an
    int; int(x, 2) may not be used.
    >>> parse_base_two("1011")
    11
    >>> parse_base_two("0")
    0
    """
'''),
('''from typing import List, Tuple


def min_max(numbers: List[int]) -> Tuple[int, int]:
    """ Return a tuple of the smallest and the largest number in a non-empty list, in a
    single pass.
    >>> min_max([8, -3, 12, 0])
    (-3, 12)
    """
''', '''from typing import List, Tuple


def extremes(xs: List[int]) -> Tuple[int, int]:
    """ Walk through xs (never empty) once and give back (lowest value, highest value).
    >>> extremes([8, -3, 12, 0])
    (-3, 12)
    """
'''),
('''def is_anagram(first: str, second: str) -> bool:
    """ Determine whether two words are anagrams of each other, ignoring case and spaces.
    >>> is_anagram("Listen", "Silent")
    True
    >>> is_anagram("dormitory", "dirty room")
    True
    >>> is_anagram("apple", "paple s")
    False
    """
''', '''def same_letters(a: str, b: str) -> bool:
    """ Tell if a and b use exactly the same letters the same number of times, treating
    upper and lower case alike and skipping blanks.
    >>> same_letters("Listen", "Silent")
    True
    >>> same_letters("dormitory", "dirty room")
    True
    >>> same_letters("apple", "paple s")
    False
    """
'''),
('''from typing import List


def max_subarray_sum(values: List[int]) -> int:
    """ Return the largest sum of a contiguous, non-empty sub-list of values.
    >>> max_subarray_sum([-2, 1, -3, 4, -1, 2, 1, -5, 4])
    6
    >>> max_subarray_sum([-7, -2])
    -2
    """
''', '''from typing import List


def best_slice_total(arr: List[int]) -> int:
    """ Among all runs of one or more adjacent elements of arr, find the greatest total.
    >>> best_slice_total([-2, 1, -3, 4, -1, 2, 1, -5, 4])
    6
    >>> best_slice_total([-7, -2])
    -2
    """
'''),
('''def roman_numeral(value: int) -> str:
    """ Write a positive integer below 4000 as a Roman numeral.
    >>> roman_numeral(1994)
    'MCMXCIV'
    >>> roman_numeral(58)
    'LVIII'
    """
''', '''def to_roman(n: int) -> str:
    """ Give the Roman-numeral spelling of n, where 0 < n < 4000.
    >>> to_roman(1994)
    'MCMXCIV'
    >>> to_roman(58)
    'LVIII'
    """
'''),
('''from typing import List


def rotate_right(items: List[int], steps: int) -> List[int]:
    """ Rotate the list to the right by the given number of steps; elements that fall
    off the end come back at the start.
    >>> rotate_right([1, 2, 3, 4, 5], 2)
    [4, 5, 1, 2, 3]
    >>> rotate_right([1, 2], 5)
    [2, 1]
    """
''', '''from typing import List


def shift_circular(seq: List[int], k: int) -> List[int]:
    """ Move every element k places towards the end, wrapping those pushed past the last
    position around to the front.
    >>> shift_circular([1, 2, 3, 4, 5], 2)
    [4, 5, 1, 2, 3]
    >>> shift_circular([1, 2], 5)
    [2, 1]
    """
'''),
('''def longest_common_prefix(words: list) -> str:
    """ Return the longest string that is a prefix of every word in the list, or an empty
    string when there is none.
    >>> longest_common_prefix(["flower", "flow", "flight"])
    'fl'
    >>> longest_common_prefix(["dog", "racecar"])
    ''
    """
''', '''def shared_start(strings: list) -> str:
    """ Find the longest beginning that all of the given strings have in common; give ''
    if they share no first character.
    >>> shared_start(["flower", "flow", "flight"])
    'fl'
    >>> shared_start(["dog", "racecar"])
    ''
    """
'''),
('''def count_primes_below(limit: int) -> int:
    """ Count the prime numbers strictly less than limit using the sieve of
    Eratosthenes.
    >>> count_primes_below(10)
    4
    >>> count_primes_below(2)
    0
    """
''', '''def primes_under(n: int) -> int:
    """ How many primes are smaller than n? Compute it with a sieve of Eratosthenes.
    >>> primes_under(10)
    4
    >>> primes_under(2)
    0
    """
'''),
]


def _names(stub: str) -> list[str]:
    """A stub's function name, then its parameters' names."""
    found = re.search(r"def (\w+)\((.*?)\)", stub)
    assert found is not None
    return [found.group(1), *re.findall(r"(\w+):", found.group(2))]


def renamed_only(problem: str, rewrite: str) -> str:
    """``problem`` with the names its rewrite gives (function and parameters), every
    other word as it was::

        >>> print(renamed_only(*PAIRS[12]).splitlines()[0])
        def reduce_to_one_digit(n: int) -> int:
    """
    for old, new in zip(_names(problem), _names(rewrite)):
        problem = re.sub(rf"\b{old}\b", new, problem)
    return problem


def code_set(half: int, rewrites: str = "both") -> tuple[list[str], list[str], dict[int, int]]:
    """A: one half of the problems (``half`` 0 or 1); B: the other half's problems
    (negatives), then A's rewrites: ``"both"`` (names and docstring), ``"names"``
    (:func:`renamed_only`) or ``"none"`` (B holds the negatives alone); and A row
    -> its rewrite's B row."""
    size = len(PAIRS) // 2
    mine = PAIRS[half * size:(half + 1) * size]
    others = [p for i, (p, _) in enumerate(PAIRS) if i // size != half]
    if rewrites == "none":
        return [p for p, _ in mine], others, {}
    written = [renamed_only(p, w) if rewrites == "names" else w for p, w in mine]
    return [p for p, _ in mine], others + written, {i: len(others) + i for i in range(size)}


#: Words a sibling problem turns around (the odd bits for the even ones).
OPPOSITES = dict(pair for a, b in [
    ("first", "last"), ("largest", "smallest"), ("maximum", "minimum"), ("even", "odd"),
    ("left", "right"), ("forward", "backward"), ("begin", "end"), ("before", "after"),
    ("increasing", "decreasing"), ("ascending", "descending"), ("longest", "shortest"),
    ("most", "least"), ("above", "below"), ("upper", "lower"), ("next", "previous"),
    ("sum", "product"), ("vowel", "consonant"), ("positive", "negative")]
    for pair in ((a, b), (b, a)))
def sibling(problem: str) -> str:
    """Another problem of the same kind, as a benchmark holds beside it: the first
    word of its task that has an opposite turned around everywhere (in the names
    too), and every expected output's numbers changed, the examples' inputs kept::

        >>> sibling(PAIRS[1][0]).splitlines()[-5:-3]
        ['    >>> pairwise_gaps([3, 7, 4, 4, 10])', '    [5, 4, 1, 7]']
    """
    task = problem.partition(">>>")[0]
    for word in re.findall(r"[a-z]+", task):
        if word in OPPOSITES:
            problem = re.sub(rf"(?<![a-z]){word}(?![a-z])", OPPOSITES[word], problem)
            break
    lines, in_example = problem.split("\n"), False
    for i, line in enumerate(lines):
        if line.lstrip().startswith(">>>"):
            in_example = True
        elif line.strip().startswith('"""'):
            in_example = False
        elif in_example:
            lines[i] = re.sub(r"\d+", lambda d: str(int(d.group()) + 1), line)
    return "\n".join(lines)


def sibling_set(half: int, rewrites: bool) -> tuple[list[str], list[str], dict[int, int]]:
    """:func:`code_set` with each A problem's sibling (:func:`sibling`) in B too, before
    the rewrites (``rewrites`` False: B holds the negatives and siblings alone)."""
    a, b, truth = code_set(half, "both" if rewrites else "none")
    siblings = [sibling(p) for p in a]
    others = len(PAIRS) - len(a)
    return a, b[:others] + siblings + b[others:], {i: r + len(siblings) for i, r in truth.items()}
