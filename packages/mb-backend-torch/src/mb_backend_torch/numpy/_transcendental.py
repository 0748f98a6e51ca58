"""Element-wise transcendental functions: exponentials, logarithms, trigonometric and
hyperbolic functions and their inverses, angle conversion, ``sinc`` and ``i0``."""

import torch

from mb_backend_torch.numpy._common import (
    Tensor,
    float_result,
    floatx,
    int_to_float_pair,
    promote,
    t,
    to_float,
)

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


def hypot(x1, x2):
    return torch.hypot(*int_to_float_pair(x1, x2))


def arctan2(x1, x2):
    x1, x2 = promote(x1, x2)
    dtype = float_result(x1.dtype, x2.dtype)
    return torch.arctan2(x1.to(dtype), x2.to(dtype))


def logaddexp(x1, x2):
    x1, x2 = promote(x1, x2)
    dtype = float_result(x1.dtype, x2.dtype)
    return torch.logaddexp(x1.to(dtype), x2.to(dtype))


def logaddexp2(x1, x2):
    x1, x2 = promote(x1, x2)
    dtype = float_result(x1.dtype, x2.dtype)
    return torch.logaddexp2(x1.to(dtype), x2.to(dtype))
