"""Run this package's tests on the torch backend (set before mb_ops is imported)."""

import os

os.environ["MB_BACKEND"] = "torch"

from pathlib import Path

import pytest
import torch

_HERE = Path(__file__).parent


def pytest_collection_modifyitems(config, items):
    if torch.cuda.is_available():
        return
    skip = pytest.mark.skip(reason="needs a CUDA device; none is available here")
    for item in items:
        # this package's own tests only: pytest hands this hook every collected item
        if "gpu" in item.keywords and _HERE in Path(item.path).parents:
            item.add_marker(skip)
