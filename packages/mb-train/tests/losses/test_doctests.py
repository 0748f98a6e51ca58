"""The examples in the public docstrings run and print what they say."""

import doctest

import pytest

from mb_ops import testing

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
    testing.check_doctests(
        f"mb_train.losses.{name}", doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    )
