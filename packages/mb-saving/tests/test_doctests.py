"""The examples in mb_saving's public docstrings run."""

import doctest

import pytest

from mb_saving import _api, _limits, _object_registry, _safe_mode, _serialization


@pytest.mark.parametrize("module", [_api, _limits, _object_registry, _safe_mode, _serialization])
def test_docstring_examples_run(module):
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
