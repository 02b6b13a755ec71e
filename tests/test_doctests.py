"""The worked examples in the modules' docstrings are true."""

import doctest
import importlib

import pytest

MODULES = ["errors", "readers", "tokenize", "index", "match", "report", "check", "steps"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"ngram_core.{name}")
    failed, attempted = doctest.testmod(module)
    assert failed == 0
    assert attempted > 0 or name == "report"
