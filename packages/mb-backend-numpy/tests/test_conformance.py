"""mb_ops's conformance kit and backend contract check, run on the numpy backend."""

import pytest

from mb_ops import testing


@pytest.mark.parametrize("case", testing.pytest_cases())
def test_op_conforms(case):
    testing.run_case(case)


@pytest.mark.parametrize("check", testing.pytest_random_checks())
def test_random_conforms(check):
    testing.run_random_check(check)


def test_backend_contract_is_complete():
    assert testing.check_backend_contract("mb_backend_numpy") == []


def test_every_function_takes_the_contracts_signature():
    assert testing.check_backend_signatures("mb_backend_numpy") == []
