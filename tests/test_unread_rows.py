"""No training row left unread (#43): every path, glob, shape and field is read, or
the run refuses and says why. Each case here was a clean the tool never checked."""

from __future__ import annotations

import json
import os
import pathlib

import pytest

import ngram_overlap
from ngram_core.cli import main
from ngram_core.errors import InputError

QUESTION = ("Janet has sixteen ducks that lay eggs every single morning and she eats three "
            "of them for breakfast with her friends each day")
UNSEEN = "Which planet in our solar system has the longest day when measured against its own year"
OTHER = "A farmer sells apples at the market on Sundays and keeps the rest for the winter"


def write_jsonl(path: pathlib.Path, records: list[dict]) -> pathlib.Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A training mix in nested folders, and evals, with the question planted deep."""
    monkeypatch.chdir(tmp_path)
    write_jsonl(tmp_path / "mix" / "a.jsonl", [{"text": OTHER}])
    write_jsonl(tmp_path / "mix" / "web" / "en" / "part-0.jsonl",
                [{"text": "intro " + QUESTION + " outro"}, {"text": OTHER}])
    write_jsonl(tmp_path / "evals" / "gsm.jsonl", [{"question": QUESTION}])
    write_jsonl(tmp_path / "evals" / "mmlu.jsonl", [{"question": UNSEEN}])
    return tmp_path


def test_a_list_of_path_strings_is_read_as_the_files(tree):
    as_list = ngram_overlap.check([QUESTION, UNSEEN], ["mix/web/en/part-0.jsonl"])
    alone = ngram_overlap.check([QUESTION, UNSEEN], "mix/web/en/part-0.jsonl")
    assert as_list.summary["flagged"] == alone.summary["flagged"] == 1
    assert as_list.summary == alone.summary


def test_a_list_mixing_paths_and_text_is_refused(tree):
    with pytest.raises(InputError, match="mixes paths"):
        ngram_overlap.check([QUESTION], ["mix/a.jsonl", "mix/missing.jsonl"])


def test_a_list_of_text_is_text(tree):
    result = ngram_overlap.check([QUESTION], ["intro " + QUESTION, "What is 2*3?"])
    assert result.summary["flagged"] == 1


def test_recursive_globs_descend_from_python(tree):
    result = ngram_overlap.check([QUESTION], "mix/**/*.jsonl")
    assert result.summary["flagged"] == 1


def test_recursive_globs_descend_in_the_command(tree, capsys):
    assert main(["evals/gsm.jsonl", "mix/**/*.jsonl", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["flagged"] == 1


def test_recursive_globs_descend_in_decontaminate(tree, capsys):
    from ngram_core.decontaminate import main as decontaminate
    code = decontaminate(["--evals", "evals/*.jsonl", "--train", "mix/**/*.jsonl", "--out", "clean"])
    assert code == 0
    assert (tree / "clean" / "web" / "en" / "part-0.jsonl").read_text().count("\n") == 1


def test_a_dict_of_splits_is_refused_naming_them(tree):
    with pytest.raises(InputError, match=r"train, test.*data\['test'\]"):
        ngram_overlap.check({"train": [OTHER], "test": [QUESTION]}, "mix/a.jsonl")


def test_a_glob_of_several_test_sets_is_refused_alike(tree, capsys):
    with pytest.raises(InputError, match="matches 2 files.*decontaminate") as raised:
        ngram_overlap.check("evals/*.jsonl", "mix/a.jsonl")
    assert main(["evals/*.jsonl", "mix/a.jsonl"]) == 2
    assert str(raised.value) in capsys.readouterr().err


def test_a_glob_of_evals_in_decontaminate_is_every_file(tree):
    suite = ngram_overlap.decontaminate(["evals/*.jsonl"], "mix/**/*.jsonl")
    assert list(suite.results) == ["evals/gsm.jsonl", "evals/mmlu.jsonl"]
    assert suite.results["evals/gsm.jsonl"].summary["flagged"] == 1


def test_data_of_another_type_is_refused_naming_what_is_read(tree):
    with pytest.raises(TypeError, match="an int is no data: give a path"):
        ngram_overlap.check(42, "mix/a.jsonl")
