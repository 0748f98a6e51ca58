"""mb_ops's conformance kit and backend contract check, run on the torch backend."""

import pytest

from mb_ops import testing

# The op modules whose cases run here (all of them once every module exists).
_MODULES = {"numpy", "einops", "nn", "math", "linalg", "core", "image"}


@pytest.mark.parametrize("case", testing.pytest_cases(_MODULES))
def test_op_conforms(case):
    testing.run_case(case)
