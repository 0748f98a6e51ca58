"""Deterministic NumPy inputs for the conformance cases."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np


def _np_dtype(dtype: str) -> Any:
    return ml_dtypes.bfloat16 if dtype == "bfloat16" else np.dtype(dtype)


def rand(
    shape: tuple, dtype: str = "float32", low: float = -2.0, high: float = 2.0, seed: int = 0
) -> np.ndarray:
    """Uniform values in [low, high) (integers for int dtypes, coin flips for bool)."""
    rng = np.random.default_rng(seed + 7 * len(shape) + sum(shape))
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype.startswith(("int", "uint")):
        lo = max(int(low), np.iinfo(dtype).min)
        return rng.integers(lo, int(high) + 1, size=shape).astype(dtype)
    if dtype.startswith("complex"):
        real = rng.uniform(low, high, size=shape)
        return (real + 1j * rng.uniform(low, high, size=shape)).astype(dtype)
    return rng.uniform(low, high, size=shape).astype(_np_dtype(dtype))


def spd(n: int, batch: tuple = (), seed: int = 0) -> np.ndarray:
    """Symmetric positive-definite float32 matrices."""
    a = rand((*batch, n, n), seed=seed)
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype("float32")
