"""Run this package's tests on the torch backend (set before mb_ops is imported)."""

import os

os.environ["MB_BACKEND"] = "torch"

import pytest
import torch


def pytest_collection_modifyitems(config, items):
    if torch.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA device; none is available here")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)
