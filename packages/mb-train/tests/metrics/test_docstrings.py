"""The examples in mb_train.metrics' public docstrings run (and show the right numbers)."""

import pytest

from mb_ops import ops, testing

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
    testing.check_doctests(f"mb_train.metrics.{name}", ops=ops)
