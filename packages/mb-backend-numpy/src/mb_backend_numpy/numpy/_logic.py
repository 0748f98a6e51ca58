"""Element-wise logic: comparisons, closeness, float classification, logical and bitwise
ops."""

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy.numpy._common import promote


def signbit(x):
    return np.signbit(to_tensor(x))


def _compare(np_fn):
    def op(x1, x2):
        (x1, x2), _ = promote(x1, x2)
        return np_fn(x1, x2)

    op.__name__ = np_fn.__name__
    op.__doc__ = f"Element-wise ``numpy.{np_fn.__name__}``; returns bool."
    return op


equal = _compare(np.equal)

not_equal = _compare(np.not_equal)

less = _compare(np.less)

less_equal = _compare(np.less_equal)

greater = _compare(np.greater)

greater_equal = _compare(np.greater_equal)


def logical_and(x1, x2):
    return np.logical_and(to_tensor(x1), to_tensor(x2))


def logical_or(x1, x2):
    return np.logical_or(to_tensor(x1), to_tensor(x2))


def logical_xor(x1, x2):
    return np.logical_xor(to_tensor(x1), to_tensor(x2))


def logical_not(x):
    return np.logical_not(to_tensor(x))


def isclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    (x1, x2), _ = promote(x1, x2)
    return np.isclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan)


def allclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    (x1, x2), _ = promote(x1, x2)
    return np.asarray(np.allclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan))


def isfinite(x):
    return np.isfinite(to_tensor(x))


def isinf(x):
    return np.isinf(to_tensor(x))


def isnan(x):
    return np.isnan(to_tensor(x))


def isneginf(x):
    return np.isneginf(to_tensor(x))


def isposinf(x):
    return np.isposinf(to_tensor(x))


def isreal(x):
    return np.isreal(to_tensor(x))


def _bitwise(np_fn):
    def op(x, y):
        (x, y), _ = promote(x, y)
        return np_fn(x, y)

    op.__name__ = np_fn.__name__
    op.__doc__ = f"Element-wise ``numpy.{np_fn.__name__}`` on integers or bools."
    return op


bitwise_and = _bitwise(np.bitwise_and)

bitwise_or = _bitwise(np.bitwise_or)

bitwise_xor = _bitwise(np.bitwise_xor)


def bitwise_invert(x):
    return np.bitwise_not(to_tensor(x))


def bitwise_not(x):
    return bitwise_invert(x)


def _shift(np_fn, x, y):
    x = to_tensor(x)
    if isinstance(y, int):
        return np_fn(x, np.asarray(y, dtype=x.dtype))
    (x, y), _ = promote(x, y)
    return np_fn(x, y)


def bitwise_left_shift(x, y):
    return _shift(np.left_shift, x, y)


def left_shift(x, y):
    return bitwise_left_shift(x, y)


def bitwise_right_shift(x, y):
    return _shift(np.right_shift, x, y)


def right_shift(x, y):
    return bitwise_right_shift(x, y)
