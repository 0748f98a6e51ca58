"""Shared helpers of the numpy module: operand conversion and result dtypes."""

import functools

import numpy as np

from mb_backend_numpy._convert import convert_to_tensor, to_tensor
from mb_backend_numpy._dtypes import (
    dtype_of,
    result_type,
    standardize_dtype,
    to_numpy_dtype,
)
from mb_ops import config

_PY_SCALARS = (int, float)


def quiet(fn):
    """Run ``fn`` without NumPy's floating-point warnings (log(0), 0/0, ...).

    Engines return inf/nan silently; NumPy would warn, and warnings are errors
    in many test suites.
    """

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)

    return wrapper


def promote(*xs, extra=()):
    """Operands converted to their common mb result dtype (Python scalars are weak)."""
    xs = [x if isinstance(x, _PY_SCALARS) and not isinstance(x, bool) else to_tensor(x) for x in xs]
    dtype = result_type(*[dtype_of(x) for x in xs], *extra)
    return [convert_to_tensor(x, dtype) for x in xs], dtype


def float_dtype(x):
    """The float dtype a float-valued op gives for a tensor ``x`` (Keras's rule)."""
    dtype = standardize_dtype(x.dtype)
    if dtype == "int64":
        return config.floatx()
    return result_type(dtype, float)


def as_float(x):
    x = to_tensor(x)
    return x.astype(to_numpy_dtype(float_dtype(x)), copy=False)


def cast(x, dtype):
    x = np.asarray(x)
    target = to_numpy_dtype(dtype)
    return x if x.dtype == target else x.astype(target)


def sum_dtype(dtype):
    """Accumulator dtype of sums and products (JAX's rule: small ints widen)."""
    dtype = standardize_dtype(dtype)
    if dtype in ("bool", "int8", "int16"):
        return "int32"
    if dtype in ("uint8", "uint16"):
        return "uint32"
    return dtype


def axis_arg(axis):
    if isinstance(axis, list):
        return tuple(axis)
    return axis


def floatx():
    return config.floatx()


def stack_dtype(xs):
    """Inputs of concatenate-style ops cast to their common dtype."""
    xs = [to_tensor(x) if not isinstance(x, _PY_SCALARS) else x for x in xs]
    dtypes = {dtype_of(x) for x in xs}
    if len(dtypes) <= 1:
        return [to_tensor(x) for x in xs]
    dtype = result_type(*dtypes)
    return [convert_to_tensor(x, dtype) for x in xs]
