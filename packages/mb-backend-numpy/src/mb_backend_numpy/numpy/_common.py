"""Shared helpers of the numpy module: operand conversion and result dtypes."""

import functools
import warnings

import numpy as np

from mb_backend_numpy._convert import convert_to_tensor, to_tensor
from mb_backend_numpy._dtypes import (
    dtype_of,
    fast_result_type,
    name_of,
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


def silent(fn):
    """Run ``fn`` without NumPy's warnings, including ``warnings.warn`` ones.

    For NaN-ignoring reductions, which warn on all-NaN or empty slices where
    engines quietly return NaN.
    """

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore", RuntimeWarning)
            return fn(*args, **kwargs)

    return wrapper


def promote(*xs, extra=()):
    """Operands converted to their common mb result dtype (Python scalars are weak).

    A Python scalar next to an array that already has the result dtype is left
    as is: NumPy treats it as weak too (NEP 50), and skipping the conversion
    keeps the eager path short.
    """
    if len(xs) == 2:
        fast = _promote_pair_fast(xs[0], xs[1], extra)
        if fast is not None:
            return fast
    operands = []
    kinds = []
    for x in xs:
        kind = type(x)
        if kind is np.ndarray:
            operands.append(x)
            kinds.append(name_of(x.dtype))
        elif kind is int or kind is float:
            operands.append(x)
            kinds.append(kind)
        else:
            x = to_tensor(x)
            operands.append(x)
            kinds.append(name_of(x.dtype))
    dtype = fast_result_type(*kinds, *extra)
    target = to_numpy_dtype(dtype)
    anchored = any(type(x) is np.ndarray and x.dtype == target for x in operands)
    out = []
    for x in operands:
        if type(x) is np.ndarray:
            out.append(x if x.dtype == target else x.astype(target))
        elif anchored:
            out.append(x)
        else:
            out.append(np.asarray(x, dtype=target))
    return out, dtype


def _promote_pair_fast(a, b, extra):
    """The common cases (same-dtype arrays, array and Python scalar), or None."""
    if type(a) is not np.ndarray:
        if type(b) is not np.ndarray:
            return None
        a, b = b, a
        swapped = True
    else:
        swapped = False
    kind = a.dtype.kind
    if extra and (extra != (float,) or kind != "f"):
        return None
    other = type(b)
    if other is np.ndarray:
        if b.dtype != a.dtype:
            return None
    elif not ((other is float and kind == "f") or (other is int and kind in "iuf")):
        return None
    pair = [b, a] if swapped else [a, b]
    return pair, name_of(a.dtype)


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
    target = to_numpy_dtype(dtype)
    if type(x) is not np.ndarray:
        x = np.asarray(x)
    return x if x.dtype == target else x.astype(target)


def sum_dtype(dtype):
    """Accumulator dtype of sums and products (JAX's rule: small ints widen)."""
    dtype = name_of(dtype) if isinstance(dtype, np.dtype) else standardize_dtype(dtype)
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


def binary(np_fn, *, extra=(), warns=True):
    def op(x1, x2):
        (x1, x2), _ = promote(x1, x2, extra=extra)
        return np_fn(x1, x2)

    if warns:
        op = quiet(op)

    op.__name__ = np_fn.__name__
    op.__doc__ = f"Element-wise ``numpy.{np_fn.__name__}`` with mb's dtype promotion."
    return op


def float_unary(np_fn):
    @quiet
    def op(x):
        return np_fn(as_float(x))

    op.__name__ = np_fn.__name__
    op.__doc__ = f"``numpy.{np_fn.__name__}``; integer and bool inputs give floatx."
    return op


def int_input_to_float(x):
    x = to_tensor(x)
    dtype = standardize_dtype(x.dtype)
    if "int" in dtype or dtype == "bool":
        return x.astype(floatx())
    return x


def small_int_to_float(dtype):
    """Keras's rule for cbrt, hypot, heaviside: ints give floatx, int64 gives float64."""
    if dtype in ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32"):
        return floatx()
    if dtype in ("int64", "uint64"):
        return "float64"
    return dtype
