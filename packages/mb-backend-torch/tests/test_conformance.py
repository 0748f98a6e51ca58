"""mb_ops's conformance kit and backend contract check, run on the torch backend."""

import pytest

from mb_backend_torch import export
from mb_ops import testing

globals().update(testing.conformance_tests("mb_backend_torch"))


def test_declared_unsupported_ops_raise_clear_errors():
    with pytest.raises(NotImplementedError, match="to_tf_function is not supported on the torch"):
        export.to_tf_function()
