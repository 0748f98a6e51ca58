"""Element-wise ops: arithmetic, powers, logs, trigonometry, rounding, comparisons, logic, bits."""

import torch

from mb_backend_torch._dtypes import INEXACT_TORCH, _result_many
from mb_backend_torch.numpy._common import (
    Tensor,
    config,
    floatx,
    promote,
    promote_scalar,
    t,
    to_float,
)

_BOOL = torch.bool


# ----- float-valued unary functions: ints and bools compute in floatx ---------------


def _unary(fn):
    def op(x):
        if isinstance(x, Tensor) and (x.dtype.is_floating_point or x.dtype.is_complex):
            return fn(x)
        return fn(to_float(x))

    op.__name__ = fn.__name__
    return op


exp = _unary(torch.exp)
exp2 = _unary(torch.exp2)
expm1 = _unary(torch.expm1)
log = _unary(torch.log)
log10 = _unary(torch.log10)
log1p = _unary(torch.log1p)
log2 = _unary(torch.log2)
sin = _unary(torch.sin)
cos = _unary(torch.cos)
tan = _unary(torch.tan)
arcsin = _unary(torch.arcsin)
arccos = _unary(torch.arccos)
arctan = _unary(torch.arctan)
arcsinh = _unary(torch.arcsinh)
arccosh = _unary(torch.arccosh)
arctanh = _unary(torch.arctanh)
sinh = _unary(torch.sinh)
cosh = _unary(torch.cosh)
tanh = _unary(torch.tanh)
sinc = _unary(torch.sinc)


def _int64_to_float64(fn):
    def op(x):
        x = t(x)
        if x.dtype is torch.int64:
            return fn(x.to(torch.float64))
        return fn(to_float(x))

    op.__name__ = fn.__name__
    return op


deg2rad = _int64_to_float64(torch.deg2rad)
rad2deg = _int64_to_float64(torch.rad2deg)


def i0(x):
    x = t(x)
    if x.dtype in (torch.int64, torch.float64):
        return torch.special.i0(x.to(torch.float64))
    if x.dtype in (torch.float16, torch.bfloat16):
        return torch.special.i0(x.to(torch.float32)).to(x.dtype)
    return torch.special.i0(x.to(floatx()))


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
        return torch.zeros_like(x, dtype=_BOOL)
    return torch.isneginf(x)


def isposinf(x):
    x = t(x)
    if not x.dtype.is_floating_point:
        return torch.zeros_like(x, dtype=_BOOL)
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


# ----- complex parts -------------------------------------------------------------------


def conjugate(x):
    x = t(x)
    if not x.dtype.is_complex:
        return x
    return torch.conj(x).resolve_conj()


def conj(x):
    return conjugate(x)


def real(x):
    x = t(x)
    return torch.real(x) if x.dtype.is_complex else x


def imag(x):
    x = t(x)
    if x.dtype.is_complex:
        return torch.imag(x)
    return torch.zeros_like(x)


def angle(x):
    x = t(x)
    if x.dtype.is_complex:
        return torch.angle(x)
    x = to_float(x)
    if x.dtype is torch.float16 and x.device.type == "cpu":
        return torch.angle(x.to(torch.float32)).to(torch.float16)
    return torch.angle(x)


_BOOL = torch.bool

_SMALL_INTS = frozenset({torch.int8, torch.int16, torch.int32, torch.uint8})


def _float_result(d1, d2):
    # result_type(x1, x2, float): the op returns a float even for int inputs.
    return _result_many((d1, d2, float), config.floatx())


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
        and x1.dtype is not _BOOL
    ):
        return torch.subtract(x1, x2)
    x1, x2 = promote(x1, x2)
    if x1.dtype is _BOOL:
        return torch.logical_xor(x1, x2)
    return torch.subtract(x1, x2)


def multiply(x1, x2):
    if isinstance(x1, Tensor) and isinstance(x2, Tensor) and x1.dtype is x2.dtype:
        return torch.multiply(x1, x2)
    a, b = _commutative(x1, x2)
    return torch.multiply(a, b)


def divide(x1, x2):
    x1, x2 = promote(x1, x2)
    dtype = _float_result(x1.dtype, x2.dtype)
    return torch.divide(x1.to(dtype), x2.to(dtype))


def true_divide(x1, x2):
    return divide(x1, x2)


def divide_no_nan(x1, x2):
    x1, x2 = promote(x1, x2)
    dtype = _float_result(x1.dtype, x2.dtype)
    x1 = x1.to(dtype)
    x2 = x2.to(dtype)
    zero = x2 == 0
    safe = torch.where(zero, torch.ones_like(x2), x2)
    return torch.where(zero, torch.zeros_like(x1), x1 / safe)


def floor_divide(x1, x2):
    x1, x2 = promote(x1, x2)
    if x1.dtype is _BOOL:
        x1, x2 = x1.to(torch.int32), x2.to(torch.int32)
        return torch.floor_divide(x1, x2).to(_BOOL)
    return torch.floor_divide(x1, x2)


def mod(x1, x2):
    x1, x2 = promote(x1, x2)
    if x1.dtype is _BOOL:
        x1, x2 = x1.to(torch.int32), x2.to(torch.int32)
    return torch.remainder(x1, x2)


def fmod(x1, x2):
    x1, x2 = promote(x1, x2)
    if x1.dtype is _BOOL:
        x1, x2 = x1.to(torch.int32), x2.to(torch.int32)
    return torch.fmod(x1, x2)


def power(x1, x2):
    x1, x2 = promote(x1, x2)
    if x1.dtype is _BOOL:
        return torch.pow(x1.to(torch.int32), x2.to(torch.int32)).to(_BOOL)
    return torch.pow(x1, x2)


def negative(x):
    x = t(x)
    if x.dtype is _BOOL:
        return torch.logical_not(x)
    return torch.negative(x)


def reciprocal(x):
    return torch.reciprocal(to_float(x))


def maximum(x1, x2):
    x1, x2 = promote(x1, x2)
    return torch.maximum(x1, x2)


def minimum(x1, x2):
    x1, x2 = promote(x1, x2)
    return torch.minimum(x1, x2)


def fmax(x1, x2):
    x1, x2 = promote(x1, x2)
    return torch.fmax(x1, x2)


def fmin(x1, x2):
    x1, x2 = promote(x1, x2)
    return torch.fmin(x1, x2)


def _int_to_float_pair(x1, x2):
    # Keras: small ints -> floatx, int64 -> float64, floats kept.
    x1, x2 = promote(x1, x2)
    dtype = x1.dtype
    if dtype in _SMALL_INTS or dtype is _BOOL:
        dtype = floatx()
    elif dtype is torch.int64:
        dtype = torch.float64
    return x1.to(dtype), x2.to(dtype)


def heaviside(x1, x2):
    return torch.heaviside(*_int_to_float_pair(x1, x2))


def hypot(x1, x2):
    return torch.hypot(*_int_to_float_pair(x1, x2))


def arctan2(x1, x2):
    x1, x2 = promote(x1, x2)
    dtype = _float_result(x1.dtype, x2.dtype)
    return torch.arctan2(x1.to(dtype), x2.to(dtype))


def logaddexp(x1, x2):
    x1, x2 = promote(x1, x2)
    dtype = _float_result(x1.dtype, x2.dtype)
    return torch.logaddexp(x1.to(dtype), x2.to(dtype))


def logaddexp2(x1, x2):
    x1, x2 = promote(x1, x2)
    dtype = _float_result(x1.dtype, x2.dtype)
    return torch.logaddexp2(x1.to(dtype), x2.to(dtype))


def ldexp(x1, x2):
    x1 = t(x1)
    x2 = t(x2)
    if x2.dtype.is_floating_point or x2.dtype is _BOOL or x2.dtype.is_complex:
        raise TypeError(
            f"ldexp's exponent x2 must have an integer dtype. Received dtype {x2.dtype}."
        )
    dtype = _float_result(x1.dtype, x2.dtype)
    return torch.ldexp(x1.to(dtype), x2).to(dtype)


def nextafter(x1, x2):
    x1, x2 = promote(x1, x2)
    dtype = _float_result(x1.dtype, x2.dtype)
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
    if x.dtype is _BOOL:
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
    if x.dtype is _BOOL:
        return x
    return torch.abs(x)


def abs(x):
    return absolute(x)


def fabs(x):
    return torch.abs(to_float(x))


def sign(x):
    x = t(x)
    if x.dtype is _BOOL:
        return x
    if x.dtype.is_complex:
        return torch.sgn(x)
    return torch.sign(x)


def signbit(x):
    x = t(x)
    if x.dtype is _BOOL:
        return torch.zeros_like(x)
    if not x.dtype.is_floating_point:
        return x < 0
    return torch.signbit(x)


def round(x, decimals=0):
    x = t(x)
    if x.dtype.is_floating_point:
        return torch.round(x, decimals=decimals)
    if x.dtype is _BOOL:
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
        x.to(_result_many((torch.float32 if x.dtype is _BOOL else x.dtype, float), config.floatx()))
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
    if x.dtype is _BOOL:
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
