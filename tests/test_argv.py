"""The command line the page shows gives the page's result: the command's own parser
reads back every setting and choice from it, each name stays one shell word (through
shlex, and through a real bash and dash), and run on the same files it prints the
summary the engine gives when called the way the page calls it."""

from __future__ import annotations

import fnmatch
import glob
import io
import json
import re
import shlex
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest
from hypothesis import assume, given, settings as hsettings
from hypothesis import strategies as st

from ngram_core import Settings, cli
from ngram_core.argv import (PROGRAM, CommandChoice, carried,
                             command_arguments, command_line, shell_word, unreproduced)
from ngram_core.run.check import run_check
from ngram_core.read.delimited import DELIMITERS
from ngram_core.report.export import RowFiles
from ngram_core.read.fields import (detect_text_fields, id_field_choice, reads_like, select_rows)
from ngram_core.read.readers import read_table
from ngram_core.table import TEXT_ROWS, Row
from ngram_core.method.tokenize import DEFAULT_LAYERS, LAYERS

FIXTURES = Path(__file__).parent / "fixtures" / "argv"
BY_NAME = {name: char for char, name in DELIMITERS.items()}
#: What a line must not hold as it is: surrogates, control and format characters, line
#: and paragraph separators (a paste would send keystrokes, or disguise the line).
SHELL_SAFE_CATEGORIES = ("Cs", "Cc", "Cf", "Zl", "Zp")

# --- strategies ------------------------------------------------------------------------

#: Names shlex reads back: anything but what the line writes as $'...' escapes.
plain_names = st.text(st.characters(blacklist_categories=SHELL_SAFE_CATEGORIES),
                      min_size=1, max_size=12)
#: Any name: control and format characters, NUL, bytes that are not UTF-8
#: (surrogateescape) and lone surrogates too.
any_names = st.text(st.characters(blacklist_categories=("Cs",))
                    | st.characters(min_codepoint=0xDC80, max_codepoint=0xDCFF)
                    | st.sampled_from(["\0", "\ud800", "\n", "\x15", "\x1b", "'", "!", "\\",
                                       "\u202e", "\u200d", "\u2028", "-", "=", "*", "["]),
                    min_size=1, max_size=12)


def choices(names):
    return st.builds(
        CommandChoice,
        text_fields=st.none() | st.lists(names, min_size=1, max_size=3).map(tuple),
        id_field=st.none() | st.just("") | names,
        records=st.none() | st.just("") | names,
        delimiter=st.none() | st.sampled_from([*DELIMITERS, ":", "-", "#", " ", "x"]),
        header=st.none() | st.booleans(),
        text_rows=st.none() | st.sampled_from(TEXT_ROWS))


thresholds = st.sampled_from(["0", "0.0", "12.5", " 33.33334 ", "1e1", "100", "7"]) | \
    st.floats(0, 100).map(repr)
all_settings = st.builds(
    lambda n, threshold, mode, layers, short_min, max_b_rows, backend: (
        Settings(n=n, mode=mode, layers=layers, threshold=float(threshold),
                 short_min=short_min, max_b_rows=max_b_rows, backend=backend), threshold),
    st.integers(5, 25), thresholds, st.sampled_from(["loose", "strict"]),
    st.lists(st.sampled_from(LAYERS), unique=True), st.integers(0, 25),
    st.none() | st.integers(1, 10**9), st.sampled_from(["re", "regex"]))


# --- reading a line back ---------------------------------------------------------------

def same_file(arg: str, name: str) -> bool:
    """Whether the command's argument names the file ``name`` (``./-x`` is ``-x``)."""
    return arg == name or (name.startswith("-") and arg == "./" + name)


def globbed_file(arg: str, name: str) -> bool:
    """Whether a B argument, which the command expands as a glob, names exactly ``name``."""
    if not glob.has_magic(arg):
        return same_file(arg, name)
    literal = re.sub(r"\[(.)\]", r"\1", arg)     # glob.escape's [*] [?] [[] read back
    return same_file(literal, name) and fnmatch.fnmatchcase(literal, arg) and \
        glob.escape(literal) == arg


def assert_parsed(words, a_name, b_names, s: Settings, a: CommandChoice, b: CommandChoice):
    """The command's parser, given ``words``, holds every setting and choice."""
    args = cli.build_parser().parse_args(words)
    assert same_file(args.a, carried(a_name))
    assert len(args.b) == len(b_names)
    assert all(globbed_file(arg, carried(name)) for arg, name in zip(args.b, b_names))
    parsed = Settings(n=args.n, mode=args.mode, layers=args.layers, threshold=args.threshold,
                      backend=args.tokenizer, short_min=args.short_min,
                      max_b_rows=args.max_b_rows)
    # strict mode reads no layers: the command keeps its default ones
    expected = s if s.mode == "loose" else Settings(**{**vars(s), "layers": DEFAULT_LAYERS})
    assert parsed == expected
    value = vars(args)
    for side, choice in (("a", a), ("b", b)):
        fields = [carried(f) for f in choice.text_fields] if choice.text_fields else None
        assert value[f"{side}_field"] == fields
        assert value[f"{side}_id_field"] == (None if choice.id_field is None
                                             else carried(choice.id_field))
        options = cli.read_options(args, side)
        assert options.records == (None if choice.records is None else carried(choice.records))
        assert BY_NAME.get(options.delimiter, options.delimiter) == choice.delimiter
        # a header forced on has no flag (unreproduced says so): the command detects
        assert options.header == (False if choice.header is False else None)
        assert options.text_rows == choice.text_rows
        assert options.format is None


def through_shell(shell: str, line: str, cwd: Path | None = None) -> list[str]:
    """The arguments ``shell`` passes to the program of ``line`` (a function here)."""
    assert line.startswith(PROGRAM + " ")
    script = "f() { printf '%s\\0' \"$@\"; }\nf" + line[len(PROGRAM):] + "\n"
    done = subprocess.run([shell, "-c", script], capture_output=True, cwd=cwd, check=True)
    return [w.decode("utf-8", "surrogateescape") for w in done.stdout.split(b"\0")[:-1]]


def passable(*choices: CommandChoice) -> bool:
    """No value is exactly "--", which argparse drops (see test_what_the_line_cannot...)."""
    return not any(v == "--" for c in choices
                   for v in (*(c.text_fields or ()), c.id_field, c.records))


def paste_safe(line: str) -> bool:
    """No control, format or separator character, no surrogate: a paste sends no keystroke."""
    return not any(unicodedata.category(c) in SHELL_SAFE_CATEGORIES for c in line)


# --- (1) round trip --------------------------------------------------------------------

@hsettings(max_examples=300, deadline=None)
@given(all_settings, plain_names, st.lists(plain_names, min_size=1, max_size=3),
       choices(plain_names), choices(plain_names))
def test_the_commands_parser_reads_back_every_setting_and_choice(
        settings_typed, a_name, b_names, a, b):
    s, threshold = settings_typed
    assume(passable(a, b))
    line = command_line(a_name, b_names, s, threshold, a, b)
    words = shlex.split(line)
    assert words[0] == PROGRAM
    assert words[1:] == command_arguments(a_name, b_names, s, threshold, a, b)
    assert_parsed(words[1:], a_name, b_names, s, a, b)
    assert paste_safe(line)


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@hsettings(max_examples=150, deadline=None)
@given(all_settings, any_names, st.lists(any_names, min_size=1, max_size=2),
       choices(any_names), choices(any_names))
def test_bash_passes_every_name_as_given_even_control_characters_and_bytes(
        settings_typed, a_name, b_names, a, b):
    s, threshold = settings_typed
    assume(passable(a, b))
    line = command_line(a_name, b_names, s, threshold, a, b)
    assert paste_safe(line)
    words = through_shell("bash", line)
    assert words == command_arguments(a_name, b_names, s, threshold, a, b)
    assert_parsed(words, a_name, b_names, s, a, b)


def test_a_threshold_that_is_not_the_one_compared_is_written_as_the_number():
    assert command_arguments("a", ["b"], Settings(threshold=5.0), "abc")[-2:] == \
        ["--threshold", "5.0"]
    assert command_arguments("a", ["b"], Settings(threshold=5.0), " 5.00 ")[-2:] == \
        ["--threshold", "5.00"]
    assert command_arguments("a", ["b"], Settings(threshold=10.0), "1e1")[-1] == "1e1"


# --- (2) defaults ----------------------------------------------------------------------

def test_defaults_write_only_the_files():
    assert command_line("a.jsonl", ["b.jsonl"], Settings(), "0") == \
        "ngram-overlap a.jsonl b.jsonl"
    assert command_line("a.jsonl", ["b1.jsonl", "b2.csv"], Settings(layers="L4,L1,L3"),
                        " 0.0 ", CommandChoice(), CommandChoice(text_fields=())) == \
        "ngram-overlap a.jsonl b1.jsonl b2.csv"
    # strict mode reads no layers: they are not written
    assert command_line("a", ["b"], Settings(mode="strict", layers=""), "0") == \
        "ngram-overlap a b --mode strict"
    assert command_line("a", ["b"], Settings(layers=""), "0") == "ngram-overlap a b --layers ''"


def test_every_flag_in_its_fixed_order():
    s = Settings(n=9, threshold=1.5, mode="loose", layers="L1,L2,L3,L4", short_min=0,
                 max_b_rows=3, backend="regex")
    choice = CommandChoice(("t1", "t2"), "id", "data.rows", "\t", False, "paragraph")
    assert command_line("a", ["b"], s, "1.5", choice, choice) == (
        "ngram-overlap a b --n 9 --threshold 1.5 --layers L1,L2,L3,L4 --short-min 0 "
        "--max-b-rows 3 --tokenizer regex "
        "--a-field t1 --a-field t2 --a-id-field id --a-records data.rows --a-delimiter tab "
        "--a-no-header --a-text-rows paragraph "
        "--b-field t1 --b-field t2 --b-id-field id --b-records data.rows --b-delimiter tab "
        "--b-no-header --b-text-rows paragraph")


def test_what_the_line_cannot_give_again_is_named():
    assert unreproduced("a", ["b"], Settings(), CommandChoice(), CommandChoice()) == []
    gaps = unreproduced("a\0.txt", ["b"], Settings(cap=4), CommandChoice(),
                        CommandChoice(header=True))
    assert len(gaps) == 3 and gaps[0].startswith("B's first row")
    assert unreproduced("\udcff.txt", ["b"], Settings()) == []      # a byte: carried
    # Python 3.11's argparse drops "--" from an option's value, even from --a-field=--
    dashes = CommandChoice(("--",))
    assert len(unreproduced("a", ["b"], Settings(), dashes)) == 1


# --- (3) hostile names -----------------------------------------------------------------

HOSTILE = ["a b;rm -rf ~.json", "$(touch PWNED).csv", "`touch PWNED`.txt", "it's.jsonl",
           "x'; touch PWNED; '", "\"$HOME\"", "~", "=ls", "-rf", "--", "-", "*.json",
           "train[1].csv", "a\\b", "!!", "#x", "\u65e5 x", "%1", "{a,b}", "$'x'"]
CONTROL = ["a\nb; touch PWNED", "\x15touch PWNED\n", "\x03\x04\x1a", "\x1b[31mred\x1b[0m",
           "x\r\ntouch PWNED #", "\u202eevil\u202c.txt", "zero\u200dwidth", "l\u2028s",
           "\x7f\x80\x9f", "it's\n!", "\udcff\udc80 bytes", "back\\slash\n", "a\tb"]


def test_hostile_names_stay_one_shell_word_each():
    for name in HOSTILE:
        words = shlex.split(command_line(name, [name], Settings(), "0"))
        assert len(words) == 3
        assert same_file(words[1], name) and globbed_file(words[2], name)
        a, b = CommandChoice((name,), name), CommandChoice(records=name)
        words = shlex.split(command_line("a", ["b"], Settings(), "0", a, b))
        flags = ["--a-field", "--a-id-field", "--b-records"]
        assert words[3:] == ([f"{flag}={name}" for flag in flags] if name.startswith("-") else
                             [w for flag in flags for w in (flag, name)])
    assert shlex.split(command_line("-n.json", ["b"], Settings(), "0"))[1] == "./-n.json"
    assert command_line("a", ["=ls"], Settings(), "0") == "ngram-overlap a '=ls'"


@pytest.mark.parametrize("shell", ["bash", "dash"])
def test_no_name_runs_as_code_in_a_real_shell(shell, tmp_path):
    if shutil.which(shell) is None:
        pytest.skip(f"needs {shell}")
    for name in HOSTILE + CONTROL:
        choice = CommandChoice((name,), name)
        line = command_line(name, [name, "b"], Settings(), "0", choice, choice)
        assert paste_safe(line)
        words = through_shell(shell, line, cwd=tmp_path)
        expected = command_arguments(name, [name, "b"], Settings(), "0", choice, choice)
        assert len(words) == len(expected)
        if shell == "bash" or name in HOSTILE:      # dash has no $'...': still one word each
            assert words == expected
        assert not (tmp_path / "PWNED").exists()
    assert not list(tmp_path.iterdir())


def test_a_b_name_with_glob_characters_names_that_one_file(tmp_path):
    for name in ("train[1].csv", "train1.csv", "t*.csv", "t?.csv"):
        (tmp_path / name).write_text("x\n")
    for name in ("train[1].csv", "t*.csv", "t?.csv"):
        arg = command_arguments("a", [name], Settings(), "0")[1]
        assert cli.expand_paths([str(tmp_path / arg)]) == [str(tmp_path / name)]


# --- (4) end to end --------------------------------------------------------------------

def page_read(path: Path, role: str, choice: CommandChoice, like=None):
    """One file read the way the page reads it (ngram_page.slots): the table with the
    options applied, the text fields (chosen, else the other file's detected ones
    when this file has them, else detected), the id field (chosen, else detected)."""
    options = {k: v for k, v in (("records", choice.records), ("delimiter", choice.delimiter),
                                 ("header", choice.header), ("text_rows", choice.text_rows))
               if v is not None}
    table = read_table(path.read_bytes(), path.name, role=role, **options)
    detected = detect_text_fields(table)
    fields = list(choice.text_fields) if choice.text_fields else \
        list(like) if reads_like(table, like) else detected
    ident = choice.id_field if choice.id_field is not None else id_field_choice(table).field or ""
    return select_rows(table, fields, ident), fields, detected


def page_summary(a_path: Path, b_paths: list[Path], s: Settings, a: CommandChoice,
                 b: CommandChoice) -> dict:
    """The summary the page shows for these files and choices: the engine called directly."""
    a_rows, a_fields, a_detected = page_read(a_path, "a", a)
    like = None if a.text_fields else a_detected
    b_rows: list[Row] = []
    starts, b_fields = [], []
    for path in b_paths:
        rows, fields, _ = page_read(path, "b", b, like)
        starts.append(len(b_rows))
        offset = len(b_rows)
        b_rows += rows if not offset else [r._replace(number=offset + i)
                                           for i, r in enumerate(rows, 1)]
        b_fields += [f for f in fields if f not in b_fields]
    result = run_check(a_rows, b_rows, s, RowFiles(tuple(starts), tuple(p.name for p in b_paths)),
                       (a_fields, b_fields))
    return json.loads(json.dumps(result.summary.as_dict()))


CASES = [
    # a JSONL test set read from two chosen fields (in another order than detected), ids
    # chosen; a semicolon-separated training file whose first row the person reads as a row
    ("test set.jsonl", ["train[1].csv"],
     Settings(n=8, threshold=12.5, layers="L1,L2,L3,L4", short_min=4, max_b_rows=2), " 12.50",
     CommandChoice(text_fields=("context", "question"), id_field="id"),
     CommandChoice(text_fields=("column_2",), delimiter=";", header=False)),
    # a JSON document read from another array than detected; two plain-text B files in
    # order, read one row per line where detection reads paragraphs; strict mode
    ("nested.json", ["-wrapped.txt", "notes b.txt"],
     Settings(n=6, threshold=10.0, mode="strict", short_min=0), "1e1",
     CommandChoice(records="data.items"), CommandChoice(text_rows="line")),
]


@pytest.mark.parametrize("a_name, b_names, s, typed, a, b", CASES)
def test_the_line_run_by_the_command_gives_the_pages_summary(
        monkeypatch, a_name, b_names, s, typed, a, b):
    line = command_line(a_name, b_names, s, typed, a, b)
    assert unreproduced(a_name, b_names, s, a, b) == []
    monkeypatch.chdir(FIXTURES)          # run where the files are, as the page says
    out, err = io.StringIO(), io.StringIO()
    assert cli.main([*shlex.split(line)[1:], "--json"], out, err) == 0, err.getvalue()
    summary = json.loads(out.getvalue())
    accounts = summary.pop("training_files")     # the command's own: each file's rows
    assert [t["rows"] for t in accounts] == [t["searched"] + t["no_text"] + t["unread"]
                                             for t in accounts]
    expected = page_summary(FIXTURES / a_name, [FIXTURES / n for n in b_names], s, a, b)
    assert summary == expected
    assert summary["flagged"] and summary["checkable"] > summary["flagged"]
    # the choices matter: with detection alone the page would show another result
    assert page_summary(FIXTURES / a_name, [FIXTURES / n for n in b_names], s,
                        CommandChoice(), CommandChoice()) != expected


def test_the_worked_lines():
    assert command_line(*CASES[0][:6]) == (
        "ngram-overlap 'test set.jsonl' 'train[[]1].csv' --n 8 --threshold 12.50 "
        "--layers L1,L2,L3,L4 --short-min 4 --max-b-rows 2 --a-field context "
        "--a-field question --a-id-field id --b-field column_2 --b-delimiter semicolon "
        "--b-no-header")
    assert command_line(*CASES[1][:6]) == (
        "ngram-overlap nested.json ./-wrapped.txt 'notes b.txt' --n 6 --threshold 1e1 "
        "--mode strict --short-min 0 --a-records data.items --b-text-rows line")
    assert shell_word("\x1b[31m") == "$'\\033[31m'"
