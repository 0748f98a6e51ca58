"""The examples in the optimizers' and schedules' public docstrings run and show the numbers."""

import pytest

from mb_ops import ops, testing

MODULES = [
    "_base",
    "_sgd",
    "_adam",
    "_adam_variants",
    "_adagrad",
    "_adafactor",
    "_ftrl",
    "_lion",
    "_rmsprop",
    "_schedule_free",
    "_loss_scale",
    "_multi",
    "legacy",
    "_registry",
    "schedules",
    "schedules._base",
    "schedules._decay",
    "schedules._cosine",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name):
    testing.check_doctests(f"mb_train.optimizers.{name}", ops=ops)
