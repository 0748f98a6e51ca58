"""The examples in mb_applications' docstrings run (one model of each family)."""

import doctest
import importlib

import pytest

MODULES = [
    importlib.import_module(f"mb_applications.{name}")
    for name in (
        "_convnext",
        "_densenet",
        "_efficientnet",
        "_efficientnet_v2",
        "_imagenet",
        "_inception",
        "_mobilenet",
        "_mobilenet_v3",
        "_nasnet",
        "_resnet",
        "_vgg",
        "_xception",
    )
]


@pytest.mark.parametrize("module", MODULES, ids=[m.__name__ for m in MODULES])
def test_docstring_examples_run(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
