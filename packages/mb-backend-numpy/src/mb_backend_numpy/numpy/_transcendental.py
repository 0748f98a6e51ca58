"""Element-wise transcendental functions: exponentials, logarithms, trigonometric and
hyperbolic functions and their inverses, angle conversion, ``sinc`` and ``i0``."""

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy._dtypes import result_type, standardize_dtype
from mb_backend_numpy.numpy._common import (
    as_float,
    binary,
    cast,
    float_unary,
    floatx,
    int_input_to_float,
    promote,
    quiet,
    small_int_to_float,
)

arctan2 = binary(np.arctan2, extra=(float,))
logaddexp = binary(np.logaddexp, extra=(float,))

sin = float_unary(np.sin)
cos = float_unary(np.cos)
tan = float_unary(np.tan)
arcsin = float_unary(np.arcsin)
arccos = float_unary(np.arccos)
arctan = float_unary(np.arctan)
sinh = float_unary(np.sinh)
cosh = float_unary(np.cosh)
tanh = float_unary(np.tanh)
arcsinh = float_unary(np.arcsinh)
arccosh = float_unary(np.arccosh)
arctanh = float_unary(np.arctanh)
log = float_unary(np.log)
log2 = float_unary(np.log2)
log10 = float_unary(np.log10)
log1p = float_unary(np.log1p)


@quiet
def exp(x):
    return np.exp(int_input_to_float(x))


@quiet
def exp2(x):
    return np.exp2(int_input_to_float(x))


@quiet
def expm1(x):
    return np.expm1(int_input_to_float(x))


def hypot(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    return cast(np.hypot(x1, x2), small_int_to_float(dtype))


@quiet
def logaddexp2(x1, x2):
    (x1, x2), dtype = promote(x1, x2, extra=(float,))
    return cast(np.logaddexp2(x1, x2), dtype)


@quiet
def sinc(x):
    x = as_float(x)
    return cast(np.sinc(x), standardize_dtype(x.dtype))


def i0(x):
    x = to_tensor(x)
    dtype = standardize_dtype(x.dtype)
    dtype = "float64" if dtype in ("int64", "float64") else result_type(dtype, float)
    compute = "float32" if dtype in ("bfloat16", "float16") else dtype
    return cast(np.i0(cast(x, compute)), dtype)


def _degrees_dtype(dtype):
    if dtype in ("int64", "float64"):
        return "float64"
    if dtype in ("bfloat16", "float16"):
        return dtype
    return floatx()


def deg2rad(x):
    x = to_tensor(x)
    dtype = _degrees_dtype(standardize_dtype(x.dtype))
    return cast(np.deg2rad(cast(x, dtype)), dtype)


def rad2deg(x):
    x = to_tensor(x)
    dtype = _degrees_dtype(standardize_dtype(x.dtype))
    return cast(np.rad2deg(cast(x, dtype)), dtype)
