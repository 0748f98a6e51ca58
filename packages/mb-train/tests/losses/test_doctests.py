"""The examples in the public docstrings run and print what they say."""

import doctest
import importlib

import pytest

MODULES = [
    "_loss",
    "_wrapper",
    "_serialization",
    "_get",
    "_regression",
    "_binary",
    "_categorical",
    "_probabilistic",
    "_hinge",
    "_segmentation",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"mb_train.losses.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
