"""Integration tests run once per backend; the backend is fixed per process by MB_BACKEND."""

from __future__ import annotations

import pytest

from mb_ops import backends, config


def _has_accelerator() -> bool:
    devices = backends.backend_module("distribution").list_devices()
    return any(not d.startswith("cpu") for d in devices)


def pytest_runtest_setup(item):
    if item.get_closest_marker("gpu") and not _has_accelerator():
        pytest.skip(f"needs an accelerator; the {config.backend()} backend sees only the CPU")
