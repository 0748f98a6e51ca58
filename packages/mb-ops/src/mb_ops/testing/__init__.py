"""The conformance kit every backend runs on itself, and the backend contract check.

A backend package's test module needs only::

    from mb_ops import testing

    globals().update(testing.conformance_tests("mb_backend_numpy"))

(run with ``MB_BACKEND`` set to that backend): every case, the random checks, the
contract's completeness and its signatures. The pieces (``pytest_cases``,
``run_case``, ``check_backend_contract``, ...) serve a backend that runs a part.
"""

from __future__ import annotations

from typing import Any

from mb_ops._contract import OPTIONAL as OPTIONAL
from mb_ops._contract import REQUIRED as REQUIRED
from mb_ops._contract import check_backend_contract as check_backend_contract
from mb_ops._contract import check_backend_signatures as check_backend_signatures
from mb_ops.testing._case import TOLERANCES as TOLERANCES
from mb_ops.testing._case import OpCase as OpCase
from mb_ops.testing._case import assert_close as assert_close
from mb_ops.testing._case import check_unsupported as check_unsupported
from mb_ops.testing._case import provided_by_backend as provided_by_backend
from mb_ops.testing._case import run_case as run_case
from mb_ops.testing._cases_more import more_cases
from mb_ops.testing._cases_numpy import numpy_cases
from mb_ops.testing._host_memory import freed_buffer_faults as freed_buffer_faults
from mb_ops.testing._host_memory import glibc as glibc
from mb_ops.testing._random_checks import RandomCheck as RandomCheck
from mb_ops.testing._random_checks import random_checks as random_checks
from mb_ops.testing._random_checks import run_random_check as run_random_check
from mb_ops.testing._skips import declared_ops_only as declared_ops_only
from mb_ops.testing._skips import is_declared_unsupported as is_declared_unsupported
from mb_ops.testing._suites import ENGINES as ENGINES
from mb_ops.testing._suites import KERAS_CASES_HEAD as KERAS_CASES_HEAD
from mb_ops.testing._suites import check_doctests as check_doctests
from mb_ops.testing._suites import conformance_tests as conformance_tests
from mb_ops.testing._suites import engines_loaded_by as engines_loaded_by
from mb_ops.testing._suites import keras_cases as keras_cases
from mb_ops.testing._suites import keras_json as keras_json
from mb_ops.testing._suites import run_keras as run_keras


def cases(modules: Any = None) -> list[OpCase]:
    """All conformance cases, optionally only those of some op modules (``{"numpy", "nn"}``)."""
    everything = [*numpy_cases(), *more_cases()]
    if modules is None:
        return everything
    return [c for c in everything if c.module in set(modules)]


def pytest_cases(modules: Any = None) -> list[Any]:
    """``cases()`` as ``pytest.param`` objects with readable ids."""
    import pytest

    return [pytest.param(c, id=c.id) for c in cases(modules)]


def pytest_random_checks() -> list[Any]:
    """``random_checks()`` as ``pytest.param`` objects with readable ids."""
    import pytest

    return [pytest.param(c, id=c.id) for c in random_checks()]


def covered_ops() -> set[str]:
    """The ``module.name`` of every op with at least one case."""
    return {c.op for c in cases()}


__all__ = [
    "ENGINES",
    "KERAS_CASES_HEAD",
    "OPTIONAL",
    "REQUIRED",
    "TOLERANCES",
    "OpCase",
    "RandomCheck",
    "assert_close",
    "cases",
    "check_backend_contract",
    "check_backend_signatures",
    "check_doctests",
    "check_unsupported",
    "conformance_tests",
    "covered_ops",
    "declared_ops_only",
    "engines_loaded_by",
    "freed_buffer_faults",
    "glibc",
    "is_declared_unsupported",
    "keras_cases",
    "provided_by_backend",
    "pytest_cases",
    "pytest_random_checks",
    "random_checks",
    "run_case",
    "run_keras",
    "run_random_check",
]
