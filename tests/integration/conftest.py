"""Integration tests run once per backend; the backend is fixed per process by MB_BACKEND."""

from __future__ import annotations

import pytest

from mb_ops import backends, config


def _has_accelerator() -> bool:
    devices = backends.backend_module("distribution").list_devices()
    return any(not d.startswith("cpu") for d in devices)


def _can_train() -> bool:
    try:
        module = backends.backend_module("training")
    except ModuleNotFoundError:
        return False
    return "value_and_grad" not in getattr(module, "UNSUPPORTED", {})


def pytest_runtest_setup(item):
    if item.get_closest_marker("gpu") and not _has_accelerator():
        pytest.skip(f"needs an accelerator; the {config.backend()} backend sees only the CPU")
    if item.get_closest_marker("trains") and not _can_train():
        pytest.skip(f"the {config.backend()} backend is inference-only: it cannot train")
    if item.get_closest_marker("inference_only") and _can_train():
        pytest.skip(f"the {config.backend()} backend can train")
