"""Every engine module keeps a worked example in its docstrings.

pytest runs the examples themselves (``--doctest-modules`` over ``ngram_core/``
in pyproject.toml); this holds each module to having at least one, so a module
cannot silently lose its doctests, and holds the configuration to running them.
"""

import doctest
import importlib

import pytest

#: Modules whose docstrings must hold an example (report has none: its output
#: is held by tests/test_report.py).
WITH_EXAMPLES = ["errors", "read.readers", "read.fields", "method.tokenize", "method.index",
                 "method.match", "report.summary", "report.export", "report.result",
                 "method.settings", "read.files", "run.check", "steps", "report.definitions",
                 "report.scores", "report.clean_split", "report.contamination"]


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_module_has_docstring_examples(name):
    module = importlib.import_module(f"ngram_core.{name}")
    tests = doctest.DocTestFinder().find(module)
    assert sum(len(t.examples) for t in tests) > 0, \
        f"ngram_core/{name.replace('.', '/')}.py lost its examples"


def test_pytest_runs_the_engine_doctests(pytestconfig):
    assert pytestconfig.getoption("doctestmodules")
    assert "ngram_core" in pytestconfig.getini("testpaths")
