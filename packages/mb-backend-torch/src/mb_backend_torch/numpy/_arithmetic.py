"""Element-wise arithmetic: the four operations, powers and roots, signs and absolute
values, extremes, rounding, clipping, integer and float-bit
helpers (complex parts are in ``_complex.py``)."""

import torch

from mb_backend_torch._dtypes import INEXACT_TORCH, _result_many
from mb_backend_torch.numpy._common import (
    BOOL,
    Tensor,
    config,
    float_result,
    floatx,
    int_to_float_pair,
    promote,
    promote_scalar,
    t,
    to_float,
)


def _commutative(x1, x2):
    # Returns (tensor, tensor-or-number) promoted. A Python number may stay a
    # number (torch's Scalar overloads), on either side since the op commutes.
    if isinstance(x1, Tensor):
        return promote_scalar(x1, x2)
    if isinstance(x2, Tensor) and x1.__class__ in (int, float, bool):
        return promote_scalar(x2, x1)
    return promote(x1, x2)


def add(x1, x2):
    if isinstance(x1, Tensor) and isinstance(x2, Tensor) and x1.dtype is x2.dtype:
        return torch.add(x1, x2)
    a, b = _commutative(x1, x2)
    return torch.add(a, b)


def subtract(x1, x2):
    if (
        isinstance(x1, Tensor)
        and isinstance(x2, Tensor)
        and x1.dtype is x2.dtype
        and x1.dtype is not BOOL
    ):
        return torch.subtract(x1, x2)
    x1, x2 = promote(x1, x2)
    if x1.dtype is BOOL:
        return torch.logical_xor(x1, x2)
    return torch.subtract(x1, x2)


def multiply(x1, x2):
    if isinstance(x1, Tensor) and isinstance(x2, Tensor) and x1.dtype is x2.dtype:
        return torch.multiply(x1, x2)
    a, b = _commutative(x1, x2)
    return torch.multiply(a, b)


def divide(x1, x2):
    x1, x2 = promote(x1, x2)
    dtype = float_result(x1.dtype, x2.dtype)
    return torch.divide(x1.to(dtype), x2.to(dtype))


def true_divide(x1, x2):
    return divide(x1, x2)


def divide_no_nan(x1, x2):
    x1, x2 = promote(x1, x2)
    dtype = float_result(x1.dtype, x2.dtype)
    x1 = x1.to(dtype)
    x2 = x2.to(dtype)
    zero = x2 == 0
    safe = torch.where(zero, torch.ones_like(x2), x2)
    return torch.where(zero, torch.zeros_like(x1), x1 / safe)


def floor_divide(x1, x2):
    x1, x2 = promote(x1, x2)
    if x1.dtype is BOOL:
        x1, x2 = x1.to(torch.int32), x2.to(torch.int32)
        return torch.floor_divide(x1, x2).to(BOOL)
    return torch.floor_divide(x1, x2)


def mod(x1, x2):
    x1, x2 = promote(x1, x2)
    if x1.dtype is BOOL:
        x1, x2 = x1.to(torch.int32), x2.to(torch.int32)
    return torch.remainder(x1, x2)


def fmod(x1, x2):
    x1, x2 = promote(x1, x2)
    if x1.dtype is BOOL:
        x1, x2 = x1.to(torch.int32), x2.to(torch.int32)
    return torch.fmod(x1, x2)


def power(x1, x2):
    x1, x2 = promote(x1, x2)
    if x1.dtype is BOOL:
        return torch.pow(x1.to(torch.int32), x2.to(torch.int32)).to(BOOL)
    return torch.pow(x1, x2)


def negative(x):
    x = t(x)
    if x.dtype is BOOL:
        return torch.logical_not(x)
    return torch.negative(x)


def reciprocal(x):
    return torch.reciprocal(to_float(x))


def _on_promoted(fn):
    """``fn`` of the two operands promoted to one dtype."""

    def op(x1, x2):
        x1, x2 = promote(x1, x2)
        return fn(x1, x2)

    op.__name__ = op.__qualname__ = fn.__name__
    return op


maximum = _on_promoted(torch.maximum)
minimum = _on_promoted(torch.minimum)
fmax = _on_promoted(torch.fmax)
fmin = _on_promoted(torch.fmin)


def heaviside(x1, x2):
    return torch.heaviside(*int_to_float_pair(x1, x2))


def ldexp(x1, x2):
    x1 = t(x1)
    x2 = t(x2)
    if x2.dtype.is_floating_point or x2.dtype is BOOL or x2.dtype.is_complex:
        raise TypeError(
            f"ldexp's exponent x2 must have an integer dtype. Received dtype {x2.dtype}."
        )
    dtype = float_result(x1.dtype, x2.dtype)
    return torch.ldexp(x1.to(dtype), x2).to(dtype)


def nextafter(x1, x2):
    x1, x2 = promote(x1, x2)
    dtype = float_result(x1.dtype, x2.dtype)
    if dtype in (torch.float32, torch.float64):
        return torch.nextafter(x1.to(dtype), x2.to(dtype))
    # torch has nextafter kernels for float32/float64 only.
    return torch.nextafter(x1.to(torch.float32), x2.to(torch.float32)).to(dtype)


def gcd(x1, x2):
    return torch.gcd(*promote(x1, x2))


def lcm(x1, x2):
    return torch.lcm(*promote(x1, x2))


def square(x):
    x = t(x)
    if x.dtype is BOOL:
        x = x.to(torch.int32)
    return torch.square(x)


def sqrt(x):
    return torch.sqrt(_float_or_int64_floatx(x))


def _float_or_int64_floatx(x):
    x = t(x)
    return x if x.dtype in INEXACT_TORCH else x.to(floatx())


def cbrt(x):
    x = t(x)
    if x.dtype is torch.int64:
        x = x.to(torch.float64)
    else:
        x = x if x.dtype in INEXACT_TORCH else x.to(floatx())
    return torch.sign(x) * torch.abs(x) ** (1.0 / 3.0)


def absolute(x):
    x = t(x)
    if x.dtype is BOOL:
        return x
    return torch.abs(x)


def abs(x):
    return absolute(x)


def fabs(x):
    return torch.abs(to_float(x))


def sign(x):
    x = t(x)
    if x.dtype is BOOL:
        return x
    if x.dtype.is_complex:
        return torch.sgn(x)
    return torch.sign(x)


def round(x, decimals=0):
    x = t(x)
    if x.dtype.is_floating_point:
        return torch.round(x, decimals=decimals)
    if x.dtype is BOOL:
        return x
    if decimals >= 0:
        return x
    factor = 10 ** (-decimals)
    return (torch.round(x.to(torch.float64) / factor) * factor).to(x.dtype)


def _round_like(fn, x):
    x = t(x)
    if x.dtype is torch.int64:
        return fn(x.to(floatx()))
    if x.dtype in INEXACT_TORCH:
        return fn(x)
    return fn(
        x.to(_result_many((torch.float32 if x.dtype is BOOL else x.dtype, float), config.floatx()))
    )


def floor(x):
    return _round_like(torch.floor, x)


def ceil(x):
    return _round_like(torch.ceil, x)


def trunc(x):
    x = t(x)
    if x.dtype.is_floating_point:
        return torch.trunc(x)
    return x


def clip(x, x_min, x_max):
    x = t(x)
    if x.dtype is BOOL:
        x = x.to(torch.int32)
    # Keras: the result keeps x's dtype; bounds are cast to it.
    x_min = x_min if x_min is None or isinstance(x_min, int | float) else t(x_min).to(x.dtype)
    x_max = x_max if x_max is None or isinstance(x_max, int | float) else t(x_max).to(x.dtype)
    if isinstance(x_min, float) and not x.dtype.is_floating_point:
        x_min = int(x_min)
    if isinstance(x_max, float) and not x.dtype.is_floating_point:
        x_max = int(x_max)
    return torch.clamp(x, x_min, x_max)


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    x = t(x)
    if not x.dtype.is_floating_point and not x.dtype.is_complex:
        return x
    return torch.nan_to_num(x, nan=nan, posinf=posinf, neginf=neginf)
