"""Small helpers shared by the tests of this package."""

import numpy as np

# Tolerances by dtype for comparing against NumPy float64 references.
TOLERANCES = {
    "float16": dict(rtol=1e-2, atol=1e-2),
    "bfloat16": dict(rtol=5e-2, atol=5e-2),
    "float32": dict(rtol=1e-5, atol=1e-5),
    "float64": dict(rtol=1e-10, atol=1e-10),
}


def assert_close(actual, expected, dtype="float32", **overrides):
    """Compare a tensor (or anything array-like) with a NumPy reference."""
    tol = dict(TOLERANCES.get(str(dtype), TOLERANCES["float32"]))
    tol.update(overrides)
    np.testing.assert_allclose(
        np.asarray(actual, dtype=np.float64) if np.asarray(actual).dtype != bool else actual,
        expected,
        equal_nan=True,
        **tol,
    )


def numeric_grad(fn, x, eps=1e-3):
    """Central finite differences of a scalar function of a float64 array."""
    x = np.array(x, dtype=np.float64)
    grad = np.zeros_like(x)
    for index in np.ndindex(x.shape):
        plus, minus = x.copy(), x.copy()
        plus[index] += eps
        minus[index] -= eps
        grad[index] = (fn(plus) - fn(minus)) / (2 * eps)
    return grad
