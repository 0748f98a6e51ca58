"""Element-wise ops: arithmetic, powers, logs, trigonometry, rounding, comparisons, logic, bits."""

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy._dtypes import INT_TYPES, result_type, standardize_dtype
from mb_backend_numpy.numpy._common import as_float, cast, floatx, promote, quiet


def _binary(np_fn, *, extra=(), warns=True):
    def op(x1, x2):
        (x1, x2), _ = promote(x1, x2, extra=extra)
        return np_fn(x1, x2)

    if warns:
        op = quiet(op)

    op.__name__ = np_fn.__name__
    op.__doc__ = f"Element-wise ``numpy.{np_fn.__name__}`` with mb's dtype promotion."
    return op


def _float_unary(np_fn):
    @quiet
    def op(x):
        return np_fn(as_float(x))

    op.__name__ = np_fn.__name__
    op.__doc__ = f"``numpy.{np_fn.__name__}``; integer and bool inputs give floatx."
    return op


add = _binary(np.add, warns=False)
subtract = _binary(np.subtract, warns=False)
multiply = _binary(np.multiply, warns=False)
divide = _binary(np.divide, extra=(float,))
maximum = _binary(np.maximum, warns=False)
minimum = _binary(np.minimum, warns=False)
fmax = _binary(np.fmax, warns=False)
fmin = _binary(np.fmin, warns=False)
floor_divide = _binary(np.floor_divide)
power = _binary(np.power)
arctan2 = _binary(np.arctan2, extra=(float,))
logaddexp = _binary(np.logaddexp, extra=(float,))

sin = _float_unary(np.sin)
cos = _float_unary(np.cos)
tan = _float_unary(np.tan)
arcsin = _float_unary(np.arcsin)
arccos = _float_unary(np.arccos)
arctan = _float_unary(np.arctan)
sinh = _float_unary(np.sinh)
cosh = _float_unary(np.cosh)
tanh = _float_unary(np.tanh)
arcsinh = _float_unary(np.arcsinh)
arccosh = _float_unary(np.arccosh)
arctanh = _float_unary(np.arctanh)
log = _float_unary(np.log)
log2 = _float_unary(np.log2)
log10 = _float_unary(np.log10)
log1p = _float_unary(np.log1p)
sqrt = _float_unary(np.sqrt)
ceil = _float_unary(np.ceil)
floor = _float_unary(np.floor)
angle = _float_unary(np.angle)


def true_divide(x1, x2):
    return divide(x1, x2)


@quiet
def divide_no_nan(x1, x2):
    """``x1 / x2``, with 0 wherever ``x2`` is 0."""
    (x1, x2), dtype = promote(x1, x2, extra=(float,))
    return np.where(x2 == 0, cast(0, dtype), np.divide(x1, x2))


@quiet
def mod(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    if dtype == "bool":
        x1, x2 = x1.astype("int32"), x2.astype("int32")
    return np.mod(x1, x2)


@quiet
def fmod(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    if dtype == "bool":
        x1, x2 = x1.astype("int32"), x2.astype("int32")
    return np.fmod(x1, x2)


def _int_input_to_float(x):
    x = to_tensor(x)
    dtype = standardize_dtype(x.dtype)
    if "int" in dtype or dtype == "bool":
        return x.astype(floatx())
    return x


@quiet
def exp(x):
    return np.exp(_int_input_to_float(x))


@quiet
def exp2(x):
    return np.exp2(_int_input_to_float(x))


@quiet
def expm1(x):
    return np.expm1(_int_input_to_float(x))


def fabs(x):
    return np.fabs(_int_input_to_float(x))


def _small_int_to_float(dtype):
    """Keras's rule for cbrt, hypot, heaviside: ints give floatx, int64 gives float64."""
    if dtype in ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32"):
        return floatx()
    if dtype in ("int64", "uint64"):
        return "float64"
    return dtype


def cbrt(x):
    x = to_tensor(x)
    return cast(np.cbrt(x), _small_int_to_float(standardize_dtype(x.dtype)))


def hypot(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    return cast(np.hypot(x1, x2), _small_int_to_float(dtype))


def heaviside(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    return cast(np.heaviside(x1, x2), _small_int_to_float(dtype))


@quiet
def logaddexp2(x1, x2):
    (x1, x2), dtype = promote(x1, x2, extra=(float,))
    return cast(np.logaddexp2(x1, x2), dtype)


def nextafter(x1, x2):
    (x1, x2), dtype = promote(x1, x2, extra=(float,))
    return cast(np.nextafter(x1, x2), dtype)


def ldexp(x1, x2):
    x1, x2 = to_tensor(x1), to_tensor(x2)
    if standardize_dtype(x2.dtype) not in INT_TYPES:
        raise TypeError(
            f"ldexp expects an integer exponent `x2`. Received: x2 dtype={x2.dtype}. "
            "Cast it, e.g. ops.cast(x2, 'int32')."
        )
    dtype = result_type(x1.dtype, x2.dtype, float)
    compute = "float32" if dtype == "bfloat16" else dtype
    return cast(np.ldexp(cast(x1, compute), x2), dtype)


def gcd(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    return cast(np.gcd(x1, x2), dtype)


def lcm(x1, x2):
    (x1, x2), dtype = promote(x1, x2)
    return cast(np.lcm(x1, x2), dtype)


def absolute(x):
    return np.absolute(to_tensor(x))


def abs(x):
    return absolute(x)


def negative(x):
    return np.negative(to_tensor(x))


def sign(x):
    return np.sign(to_tensor(x))


def signbit(x):
    return np.signbit(to_tensor(x))


def square(x):
    x = to_tensor(x)
    if x.dtype == np.bool_:
        x = x.astype("int32")
    return np.square(x)


@quiet
def reciprocal(x):
    return np.reciprocal(to_tensor(x))


def round(x, decimals=0):
    return np.round(to_tensor(x), decimals=decimals)


def trunc(x):
    x = to_tensor(x)
    dtype = standardize_dtype(x.dtype)
    if "int" in dtype or dtype == "bool":
        return x
    return np.trunc(x)


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


def real(x):
    return np.real(to_tensor(x))


def imag(x):
    return np.imag(to_tensor(x))


def conjugate(x):
    return np.conjugate(to_tensor(x))


def conj(x):
    return conjugate(x)


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    return np.nan_to_num(to_tensor(x), nan=nan, posinf=posinf, neginf=neginf)


def clip(x, x_min, x_max):
    x = to_tensor(x)
    dtype = standardize_dtype(x.dtype)
    if dtype == "bool":
        dtype = "int32"
    return cast(np.clip(x, to_tensor(x_min), to_tensor(x_max)), dtype)


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
