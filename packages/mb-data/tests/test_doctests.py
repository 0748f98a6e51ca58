"""The examples in mb_data's public docstrings run."""

import doctest
import importlib

import pytest

MODULES = (
    "mb_data._files.archive",
    "mb_data._files.get_file",
    "mb_data._files.hashing",
    "mb_data.datasets.reuters",
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
