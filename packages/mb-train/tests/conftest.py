"""Fixtures shared by mb-train's test folders."""

import os

import pytest


@pytest.fixture(params=[0o022, 0o077, 0o002])
def umask(request):
    """The process umask set to each of three values for the test, then restored."""
    old = os.umask(request.param)
    yield request.param
    os.umask(old)
