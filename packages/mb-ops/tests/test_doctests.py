"""The examples in mb_ops' public docstrings run."""

import doctest

import pytest

import mb_ops
from mb_ops import _device, _dtypes, _scopes, _variable
from mb_ops._ops import _machinery


@pytest.mark.parametrize("module", [_device, _dtypes, _scopes, _variable, _machinery])
def test_docstring_examples_run(module):
    result = doctest.testmod(module, extraglobs={"mb_ops": mb_ops}, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
