"""Integration tests run once per backend; the backend is fixed per process by MB_BACKEND."""

from __future__ import annotations

import os
from pathlib import Path

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


# `ci/test --gpu` sets MB_REQUIRE_GPU: there a `gpu` test without an accelerator fails
# instead of skipping. `ci/test --gpu --dry-run` sets MB_GPU_DRY_RUN: the `gpu` tests run
# on the CPU device (they are written for whatever device the backend puts data on).
_REQUIRE_GPU = os.environ.get("MB_REQUIRE_GPU") == "1"
_GPU_DRY_RUN = os.environ.get("MB_GPU_DRY_RUN") == "1"


def _backend() -> str:
    return config.backend()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    # Marked so that `-m "gpu or integration"` picks this suite next to a package's gpu tests.
    here = Path(__file__).parent
    # A `heavy` test (a Keras-interop test of tens of seconds whose Keras side is the
    # same on every backend) is `slow` on every backend but jax, the default one: the
    # default matrix runs it once, on jax; `ci/test --slow` runs it on the others.
    heavy_is_slow = _backend() != "jax"
    for item in items:
        if here in Path(item.path).parents:
            item.add_marker(pytest.mark.integration)
        if heavy_is_slow and item.get_closest_marker("heavy"):
            item.add_marker(pytest.mark.slow)


def pytest_runtest_setup(item):
    if item.get_closest_marker("gpu") and not _GPU_DRY_RUN and not _has_accelerator():
        if _REQUIRE_GPU:
            pytest.fail(f"ci/test --gpu: the {config.backend()} backend sees no accelerator")
        pytest.skip(f"needs an accelerator; the {config.backend()} backend sees only the CPU")
    if item.get_closest_marker("trains") and not _can_train():
        pytest.skip(f"the {config.backend()} backend is inference-only: it cannot train")
    if item.get_closest_marker("inference_only") and _can_train():
        pytest.skip(f"the {config.backend()} backend can train")
