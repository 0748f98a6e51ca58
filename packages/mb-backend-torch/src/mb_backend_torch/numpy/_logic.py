"""Element-wise logic: comparisons, closeness, float classification, logical and bitwise
ops."""

import torch

from mb_backend_torch._dtypes import _result_many
from mb_backend_torch.numpy._common import BOOL, Tensor, config, promote, promote_scalar, t

# ----- comparisons ---------------------------------------------------------------------


def _compare(fn):
    def op(x1, x2):
        if isinstance(x1, Tensor):
            if isinstance(x2, Tensor):
                if x1.dtype is x2.dtype:
                    return fn(x1, x2)
                return fn(*promote(x1, x2))
            if x2.__class__ in (int, float, bool):
                return fn(x1, x2)
        return fn(*promote(x1, x2))

    op.__name__ = fn.__name__
    return op


equal = _compare(torch.eq)
not_equal = _compare(torch.ne)
less = _compare(torch.lt)
less_equal = _compare(torch.le)
greater = _compare(torch.gt)
greater_equal = _compare(torch.ge)


def isclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    x1, x2 = promote(x1, x2)
    if x1.dtype.is_floating_point or x1.dtype.is_complex:
        return torch.isclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan)
    return torch.eq(x1, x2)


def allclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    return torch.all(isclose(x1, x2, rtol=rtol, atol=atol, equal_nan=equal_nan))


def isfinite(x):
    return torch.isfinite(t(x))


def isinf(x):
    return torch.isinf(t(x))


def isnan(x):
    return torch.isnan(t(x))


def isneginf(x):
    x = t(x)
    if not x.dtype.is_floating_point:
        return torch.zeros_like(x, dtype=BOOL)
    return torch.isneginf(x)


def isposinf(x):
    x = t(x)
    if not x.dtype.is_floating_point:
        return torch.zeros_like(x, dtype=BOOL)
    return torch.isposinf(x)


def isreal(x):
    return torch.isreal(t(x))


# ----- logic ---------------------------------------------------------------------------


def _logical(fn):
    def op(x1, x2):
        return fn(t(x1), t(x2))

    op.__name__ = fn.__name__
    return op


logical_and = _logical(torch.logical_and)
logical_or = _logical(torch.logical_or)
logical_xor = _logical(torch.logical_xor)


def logical_not(x):
    return torch.logical_not(t(x))


# ----- bitwise -------------------------------------------------------------------------


def _bitwise(fn):
    def op(x, y):
        x, y = promote_scalar(t(x), y)
        return fn(x, y)

    op.__name__ = fn.__name__
    return op


bitwise_and = _bitwise(torch.bitwise_and)
bitwise_or = _bitwise(torch.bitwise_or)
bitwise_xor = _bitwise(torch.bitwise_xor)


def bitwise_invert(x):
    return torch.bitwise_not(t(x))


def bitwise_not(x):
    return bitwise_invert(x)


def bitwise_left_shift(x, y):
    x = t(x)
    if not isinstance(y, int):
        y = t(y)
        dtype = _result_many((x.dtype, y.dtype), config.floatx())
        x, y = x.to(dtype), y.to(dtype)
    return torch.bitwise_left_shift(x, y)


def bitwise_right_shift(x, y):
    x = t(x)
    if not isinstance(y, int):
        y = t(y)
        dtype = _result_many((x.dtype, y.dtype), config.floatx())
        x, y = x.to(dtype), y.to(dtype)
    return torch.bitwise_right_shift(x, y)


def left_shift(x, y):
    return bitwise_left_shift(x, y)


def right_shift(x, y):
    return bitwise_right_shift(x, y)


def signbit(x):
    x = t(x)
    if x.dtype is BOOL:
        return torch.zeros_like(x)
    if not x.dtype.is_floating_point:
        return x < 0
    return torch.signbit(x)
