"""The examples in mb_train.metrics' public docstrings run (and show the right numbers)."""

import doctest
import importlib

import pytest

from mb_ops import ops

MODULES = [
    "_metric",
    "_reduction",
    "_accuracy",
    "_confusion",
    "_at_constraint",
    "_auc",
    "_iou",
    "_fscore",
    "_r2",
    "_correlation",
    "_regression",
    "_probabilistic",
    "_hinge",
    "_registry",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    module = importlib.import_module(f"mb_train.metrics.{name}")
    result = doctest.testmod(module, extraglobs={"ops": ops}, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
