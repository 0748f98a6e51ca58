"""The examples in mb_graph's docstrings run and print what they show."""

import doctest
import importlib

import pytest

MODULES = [
    "mb_graph.tree",
    "mb_graph.naming",
    "mb_graph._keras_tensor",
    "mb_graph._operation",
    "mb_graph._function",
    "mb_graph._serialization",
    "mb_graph._deserialization",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
