r"""The ``ngram-overlap`` command line that gives a result again from the same files.

The page shows it under its verdict: run where the two files are, the
command prints the result the page shows (``--json``: the same summary), and
scales to files the tab cannot hold. Pure: plain values in, a string out.

What is written, in this order, and only what differs from the command's
defaults:

* the program, A's name, then B's names in the order given;
* ``--n``, ``--threshold`` (the text the person typed, stripped, when it reads
  as the threshold compared; else the number), ``--mode``, ``--layers`` (loose
  mode only), ``--short-min``, ``--max-b-rows``, ``--keep-template``, ``--tokenizer``,
  ``--leave-out-text`` per passage left out;
* for A, then for B, what the person *chose* (a :class:`CommandChoice`):
  ``--a-field`` per text field in order, ``--a-id-field`` (``''``: row
  numbers), ``--a-records``, ``--a-delimiter`` (by name: ``semicolon``),
  ``--a-no-header``, ``--a-text-rows``. What was *detected* is not written:
  the command runs the same readers and detection on the same bytes (B read
  like A when A's fields were detected, as on the page), so it finds the same,
  and the line stays short. The read options given are the ones the page
  *applied* to the slot's files (the reader's options beyond detection); the
  command applies them to every file of the side. A header row forced on has
  no flag (the command detects it): :func:`unreproduced` says so.

Each argument is one shell word, never code: quoted with :func:`shlex.quote`;
a word starting with ``=`` quoted too (zsh expands ``=name``); a name starting
with ``-`` is written ``./-x`` (a file) or ``--a-field=-x`` (a value) so it is
not read as a flag; a B name holding ``*``, ``?`` or ``[`` is glob-escaped
(the command expands globs in B), so it names that one file.

A name the line cannot show as it is: a word holding a control character, a
format character (bidi overrides, zero-width characters: they disguise what is
shown), a line or paragraph separator, or a byte that is not UTF-8 (Python's
``surrogateescape``, ``\udc80``-``\udcff``, as ``os.fsdecode`` names such a
file) is written in ``$'...'`` quotes with those characters as octal bytes
(``\n``, ``\t`` and ``\r`` by name), and ``'``, ``!`` and ``\`` escaped. The
line then holds no control character, so pasting it into a terminal sends no
keystroke. ``$'...'`` is POSIX.1-2024 (bash, zsh, ksh, busybox ash); a shell
without it (dash 0.5.12, Debian's /bin/sh) reads ``$`` and a quoted string:
still one harmless word, naming no file, and the command says so. What no
argument can carry becomes U+FFFD, so the command says the name is not found
rather than read another: NUL, and a lone surrogate that stands for no byte
(the engine reads those in field names as U+FFFD too). A value of exactly
``--`` is written ``--a-field=--``, which Python 3.11's argparse drops.
:func:`unreproduced` lists what a line cannot give again.

    >>> from ngram_core.method.settings import Settings
    >>> command_line("test.jsonl", ["train.jsonl"], Settings(), "0")
    'ngram-overlap test.jsonl train.jsonl'
    >>> command_line("my test.jsonl", ["train[1].csv", "$(x).csv"],
    ...              Settings(n=8, threshold=2.5, max_b_rows=10), " 2.50",
    ...              CommandChoice(text_fields=("question", "context"), id_field=""),
    ...              CommandChoice(text_fields=("-body",), delimiter=";", header=False))
    "ngram-overlap 'my test.jsonl' 'train[[]1].csv' '$(x).csv' --n 8 --threshold 2.50 --max-b-rows 10 --a-field question --a-field context --a-id-field '' --b-field=-body --b-delimiter semicolon --b-no-header"
    >>> print(command_line("a\nb; rm -rf ~'.txt", ["=ls"], Settings(), "0"))
    ngram-overlap $'a\nb; rm -rf ~\047.txt' '=ls'
"""

from __future__ import annotations

import glob
import shlex
import unicodedata
from collections.abc import Sequence
from typing import NamedTuple

from .read.delimited import DELIMITERS
from .method.index import N_DEFAULT, POSITION_CAP
from .method.settings import SHORT_MIN_DEFAULT, Settings
from .method.similar import REPHRASE_THRESHOLD
from .method.tokenize import DEFAULT_LAYERS

PROGRAM = "ngram-overlap"

#: Unicode categories written as escapes: control and format characters, and
#: the line and paragraph separators (surrogates are handled on their own).
ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\\": "\\\\"}
#: Escaped even where printable: a quote would end the string in a shell without
#: ``$'...'``; ``!`` is history expansion in an interactive bash.
_OCTAL_ALWAYS = frozenset("'!")


class CommandChoice(NamedTuple):
    """What the person chose for one slot's files; None: detected, so not written.

    ``text_fields``: the chosen text fields in order (None or empty: detected).
    ``id_field``: the chosen id field, ``""`` for row numbers (None: detected).
    ``records``, ``delimiter`` (a character or its name), ``header`` and
    ``text_rows``: the read options applied to the files (``header`` False:
    the first row is a row; True cannot be written, see :func:`unreproduced`).
    """
    text_fields: tuple[str, ...] | None = None
    id_field: str | None = None
    records: str | None = None
    delimiter: str | None = None
    header: bool | None = None
    text_rows: str | None = None


def carried(text: str) -> str:
    """``text`` as a process argument can hold it: NUL and a lone surrogate that
    stands for no byte (not ``\\udc80``-``\\udcff``) become U+FFFD."""
    return "".join("\ufffd" if c == "\0" or ("\ud800" <= c <= "\udfff" and
                                              not "\udc80" <= c <= "\udcff") else c
                   for c in text)


def _needs_escapes(word: str) -> bool:
    return any(unicodedata.category(c) in ESCAPED_CATEGORIES or "\ud800" <= c <= "\udfff"
               for c in word)


def _octal(data: bytes) -> str:
    return "".join(f"\\{b:03o}" for b in data)


def shell_word(arg: str) -> str:
    r"""One argument as one POSIX shell word (see the module's rule)::

        >>> print(shell_word("a b"), shell_word("=x"), shell_word("\udcff\u202e!"))
        'a b' '=x' $'\377\342\200\256\041'
    """
    arg = carried(arg)
    if _needs_escapes(arg):
        body = []
        for c in arg:
            if c in _NAMED:
                body.append(_NAMED[c])
            elif "\udc80" <= c <= "\udcff":
                body.append(_octal(bytes([ord(c) - 0xDC00])))
            elif c in _OCTAL_ALWAYS or unicodedata.category(c) in ESCAPED_CATEGORIES:
                body.append(_octal(c.encode("utf-8")))
            else:
                body.append(c)
        return "$'" + "".join(body) + "'"
    quoted = shlex.quote(arg)
    return f"'{arg}'" if quoted == arg and arg.startswith("=") else quoted


def _option(flag: str, value: str) -> list[str]:
    """``["--a-field", "q"]``; a value that starts with "-" joined to its flag
    (``--a-field=-x``), so it is not read as a flag of its own."""
    value = carried(value)
    return [f"{flag}={value}"] if value.startswith("-") else [flag, value]


def _path(name: str, globbed: bool = False) -> str:
    """A file name as an argument: ``./`` before one that starts with "-"; a B
    name (``globbed``: the command expands globs there) with its glob characters
    escaped."""
    name = carried(name)
    name = f"./{name}" if name.startswith("-") else name
    return glob.escape(name) if globbed and glob.has_magic(name) else name


def _threshold(settings: Settings, typed: str) -> str:
    text = typed.strip()
    try:
        same = float(text) == settings.threshold
    except ValueError:
        same = False
    return text if same else repr(settings.threshold)


def _file_flags(side: str, choice: CommandChoice) -> list[str]:
    flags: list[str] = []
    for field in choice.text_fields or ():
        flags += _option(f"--{side}-field", field)
    if choice.id_field is not None:
        flags += _option(f"--{side}-id-field", choice.id_field)
    if choice.records is not None:
        flags += _option(f"--{side}-records", choice.records)
    if choice.delimiter is not None:
        flags += _option(f"--{side}-delimiter",
                         DELIMITERS.get(choice.delimiter, choice.delimiter))
    if choice.header is False:
        flags.append(f"--{side}-no-header")
    if choice.text_rows is not None:
        flags += _option(f"--{side}-text-rows", choice.text_rows)
    return flags


def command_arguments(a_name: str, b_names: Sequence[str], settings: Settings,
                      threshold_text: str, a: CommandChoice = CommandChoice(),
                      b: CommandChoice = CommandChoice()) -> list[str]:
    """The arguments the command receives (after the program's name), unquoted."""
    args = [_path(a_name), *(_path(name, globbed=True) for name in b_names)]
    if settings.n != N_DEFAULT:
        args += ["--n", str(settings.n)]
    if settings.threshold:
        args += _option("--threshold", _threshold(settings, threshold_text))
    if settings.mode != "loose":
        args += ["--mode", settings.mode]
    elif tuple(settings.layers) != tuple(DEFAULT_LAYERS):
        args += ["--layers", ",".join(settings.layers)]
    if settings.short_min != SHORT_MIN_DEFAULT:
        args += ["--short-min", str(settings.short_min)]
    if settings.max_b_rows is not None:
        args += ["--max-b-rows", str(settings.max_b_rows)]
    if settings.keep_template:
        args.append("--keep-template")
    if settings.backend != "re":
        args += ["--tokenizer", settings.backend]
    for text in settings.leave_out:
        args += _option("--leave-out-text", text)
    if not settings.rephrase:
        args.append("--no-rephrase")
    elif settings.rephrase_threshold != REPHRASE_THRESHOLD:
        args += ["--rephrase-threshold", repr(settings.rephrase_threshold)]
    return args + _file_flags("a", a) + _file_flags("b", b)


def command_line(a_name: str, b_names: Sequence[str], settings: Settings,
                 threshold_text: str, a: CommandChoice = CommandChoice(),
                 b: CommandChoice = CommandChoice()) -> str:
    """The command line for a check of file ``a_name`` against ``b_names`` (in
    order) at ``settings``, the threshold as typed, and each slot's choices;
    each argument one POSIX shell word."""
    return " ".join([PROGRAM, *map(shell_word, command_arguments(
        a_name, b_names, settings, threshold_text, a, b))])


def unreproduced(a_name: str, b_names: Sequence[str], settings: Settings,
                 a: CommandChoice = CommandChoice(), b: CommandChoice = CommandChoice()
                 ) -> list[str]:
    """What the command line cannot give again, one sentence each (none: the
    line reproduces the check)::

        >>> unreproduced("a.csv", ["b.csv"], Settings(), CommandChoice(header=True))
        ["A's first row read as the header: the command has no flag for it (it detects the header row)"]
    """
    gaps = []
    for role, choice in (("A", a), ("B", b)):
        if choice.header:
            gaps.append(f"{role}'s first row read as the header: the command has no flag "
                        f"for it (it detects the header row)")
    values = [value for choice in (a, b) for value in (
        *(choice.text_fields or ()), choice.id_field or "", choice.records or "")]
    if any(carried(name) != name for name in [a_name, *b_names, *values]):
        gaps.append("a name holding a NUL or a lone surrogate, which no command argument "
                    "can hold (written as U+FFFD)")
    if "--" in values:
        gaps.append("a field or array named '--', which the command's argument parser "
                    "drops from any option's value")
    if settings.cap != POSITION_CAP:
        gaps.append(f"positions kept per window {settings.cap}: the command keeps "
                    f"{POSITION_CAP}")
    return gaps
