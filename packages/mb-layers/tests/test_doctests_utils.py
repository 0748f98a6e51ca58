"""The examples in the docstrings of mb-layers' bounding-box helpers run."""

import doctest
import importlib

import pytest

MODULES = ("mb_layers._bounding_boxes.formats", "mb_layers._bounding_boxes.iou")


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
