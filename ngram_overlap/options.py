"""The command's flags as keywords: one mapping for :func:`ngram_overlap.check` and
:func:`ngram_overlap.decontaminate`, made from the command's own parser so a flag
added there is a keyword here.

A flag's keyword is its name without the dashes, ``-`` as ``_``; the test side's
``--a-*`` flags (the eval's, in a suite) drop the ``a_`` (``--a-id-field`` is
``id_field``, ``eval_id_field`` alike), the training side's ``--b-*`` flags say
``train_`` (``--b-id-field`` is ``train_id_field``); the field flags say what they
choose: ``--a-field`` is ``text_field`` (``eval_text_field``), ``--b-field``
``train_text_field``; ``--tokenizer`` is ``backend`` too. Where the flag is
repeated, the keyword takes a list (one value alone is a list of one)::

    >>> KEYWORDS["train_text_field"], KEYWORDS["eval_text_field"], KEYWORDS["no_header"]
    ('--b-field', '--a-field', '--a-no-header')

Where the run goes (``--engine``, ``--workers``...) and what it writes (``--out``,
``--json``...) are the calls' own business, not keywords.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import replace
from collections.abc import Mapping
from typing import Any

from ngram_core.errors import InputError
from ngram_core.flags import add_matching_flags, add_reading_flags, read_options, settings_of
from ngram_core.table import ReadOptions

#: The keywords that are no flag: the positions kept per window (fixed on the command).
OWN_KEYWORDS = ("cap",)
#: Keywords that say a flag the other way round: ``rephrase=False`` is ``--no-rephrase``
#: (``run_check``'s ``Settings`` calls it so).
NEGATED = {"rephrase": "no_rephrase"}


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(add_help=False)
    add_matching_flags(p)
    add_reading_flags(p, "the test set", "the training data")
    return p


def _keyword_of(dest: str) -> list[str]:
    if dest == "a_field":
        return ["text_field", "eval_text_field"]
    if dest == "b_field":
        return ["train_text_field"]
    if dest == "tokenizer":
        return ["tokenizer", "backend"]
    if dest.startswith("a_"):
        return [dest[2:], "eval_" + dest[2:]]
    if dest.startswith("b_"):
        return ["train_" + dest[2:]]
    return [dest]


_ACTIONS = {a.dest: a for a in _parser()._actions if a.option_strings}
#: Each keyword and the flag it stands for.
KEYWORDS: dict[str, str] = {kw: action.option_strings[0] for dest, action in _ACTIONS.items()
                            for kw in _keyword_of(dest)}
_DEST = {kw: dest for dest in _ACTIONS for kw in _keyword_of(dest)}


class Chosen:
    """The keywords given, as the command's settings and each side's reading."""

    def __init__(self, options: Mapping[str, Any]) -> None:
        known = set(KEYWORDS) | set(OWN_KEYWORDS) | set(NEGATED)
        unknown = set(options) - known
        if unknown:
            raise TypeError(f"unknown settings: {', '.join(sorted(unknown))} (known: the "
                            f"command's flags as keywords, see help(ngram_overlap.options): "
                            f"{', '.join(sorted(known))})")
        options = dict(options)
        for keyword, flag in NEGATED.items():
            if keyword in options:
                if flag in options:
                    raise TypeError(f"{keyword} and {flag} are one setting: give one")
                options[flag] = not options.pop(keyword)
        args = _parser().parse_args([])
        given: dict[str, str] = {}
        for keyword, value in options.items():
            if keyword in OWN_KEYWORDS:
                continue
            dest = _DEST[keyword]
            if dest in given:
                raise TypeError(f"{keyword} and {given[dest]} are one setting: give one")
            given[dest] = keyword
            action = _ACTIONS[dest]
            if action.nargs == 0 or isinstance(action, argparse._StoreTrueAction):
                value = bool(value)
            elif isinstance(action, argparse._AppendAction) and value is not None:
                value = [os.fspath(value)] if isinstance(value, (str, os.PathLike)) \
                    else [os.fspath(v) if isinstance(v, os.PathLike) else v for v in value]
            if action.choices is not None and value is not None and value not in action.choices:
                raise InputError(keyword, f"must be one of {', '.join(map(str, action.choices))}, "
                                          f"not {value!r}")
            if keyword == "layers" and not isinstance(value, str):
                value = ",".join(value)
            setattr(args, dest, value)
        self.args = args
        self.given = given
        settings = settings_of(args)
        if "cap" in options:
            settings = replace(settings, cap=options["cap"])
        self.settings = settings

    @property
    def a_fields(self) -> list[str] | None:
        return self.args.a_field or None

    @property
    def b_fields(self) -> list[str] | None:
        return self.args.b_field or None

    @property
    def a_id_field(self) -> str | None:
        return self.args.a_id_field

    @property
    def b_id_field(self) -> str | None:
        return self.args.b_id_field

    def read_options(self, side: str, given_as_rows: bool) -> ReadOptions:
        """How a side's files are read: data given as rows is a JSON Lines file of
        them, read as one whatever the format keywords say."""
        return ReadOptions(role=side) if given_as_rows else read_options(self.args, side)
