"""Element-wise arithmetic: the four operations, powers and roots, signs and absolute
values, extremes, rounding, clipping, integer and float-bit
helpers (complex parts are in ``_complex.py``)."""

import numpy as np

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import abs_node, const_like, cv, opset, promote, run
from mb_backend_openvino.numpy._common import (
    UNSUPPORTED,
    binary,
    float_unary,
    floor_divide_node,
    int_to_floatx,
    is_float,
    is_nan,
    small_int_to_float,
    unary,
)

_FLOAT = (float,)


def _bool_or(fn, bool_fn):
    def build(a, b, dtype):
        if dtype == "bool":
            return bool_fn(a, b)
        if dtype in ("int8", "uint8"):
            # OpenVINO's CPU saturates 8-bit arithmetic; NumPy wraps around.
            return wrap8(fn(cv(a, "int32"), cv(b, "int32")).output(0), dtype)
        return fn(a, b)

    return build


def wrap8(wide, dtype):
    """An int32 node reduced modulo 256 into int8/uint8, as two's-complement wrapping."""
    mask = opset.constant(np.int32(255))
    if dtype == "int8":
        offset = opset.bitwise_and(opset.add(wide, opset.constant(np.int32(128))), mask)
        return cv(opset.add(offset, opset.constant(np.int32(-128))).output(0), dtype)
    return cv(opset.bitwise_and(wide, mask).output(0), dtype)


def add(x1, x2):
    return binary("add", _bool_or(opset.add, opset.logical_or), x1, x2)


def subtract(x1, x2):
    return binary("subtract", _bool_or(opset.subtract, opset.logical_xor), x1, x2)


def multiply(x1, x2):
    return binary("multiply", _bool_or(opset.multiply, opset.logical_and), x1, x2)


def divide(x1, x2):
    return binary("divide", lambda a, b, d: opset.divide(a, b), x1, x2, extra=_FLOAT)


def true_divide(x1, x2):
    return divide(x1, x2)


def divide_no_nan(x1, x2):
    def build(a, b, dtype):
        zero = const_like(0, b)
        safe = opset.select(opset.equal(b, zero), const_like(1, b), b)
        return opset.select(opset.equal(b, zero), zero, opset.divide(a, safe))

    return binary("divide_no_nan", build, x1, x2, extra=_FLOAT)


def _int_safe(fn):
    """Integer division-like ops give 0 where the divisor is 0 (as NumPy, without UB)."""

    def build(a, b, dtype):
        if is_float(a):
            return fn(a, b)
        if dtype == "bool":
            a, b = cv(a, "int32"), cv(b, "int32")
        zero = const_like(0, b)
        is_zero = opset.equal(b, zero)
        safe = opset.select(is_zero, const_like(1, b), b)
        out = opset.select(is_zero, const_like(0, a), fn(a, safe))
        return cv(out.output(0), dtype) if dtype != "bool" else out

    return build


def _floor_divide(a, b):
    return floor_divide_node(a, b)


def floor_divide(x1, x2):
    return binary("floor_divide", _int_safe(_floor_divide), x1, x2, out=_bool_to_int)


def _bool_to_int(dtype):
    return "int32" if dtype == "bool" else dtype


def mod(x1, x2):
    return binary("mod", _int_safe(opset.floor_mod), x1, x2, out=_bool_to_int)


def fmod(x1, x2):
    return binary("fmod", _int_safe(opset.mod), x1, x2, out=_bool_to_int)


def power(x1, x2):
    def build(a, b, dtype):
        if dtype == "bool":
            return opset.logical_or(a, opset.logical_not(b))
        return opset.power(a, b)

    return binary("power", build, x1, x2)


def _nan_aware(fn, propagate):
    def build(a, b, dtype):
        if dtype == "bool":
            return (opset.logical_or if fn is opset.maximum else opset.logical_and)(a, b)
        out = fn(a, b)
        if not is_float(a):
            return out
        if propagate:  # NumPy's maximum/minimum: a NaN operand wins
            out = opset.select(is_nan(b), b, out)
            return opset.select(is_nan(a), a, out)
        out = opset.select(is_nan(b), a, out)  # fmax/fmin: NaN loses
        return opset.select(is_nan(a), b, out)

    return build


def maximum(x1, x2):
    return binary("maximum", _nan_aware(opset.maximum, True), x1, x2)


def minimum(x1, x2):
    return binary("minimum", _nan_aware(opset.minimum, True), x1, x2)


def fmax(x1, x2):
    return binary("fmax", _nan_aware(opset.maximum, False), x1, x2)


def fmin(x1, x2):
    return binary("fmin", _nan_aware(opset.minimum, False), x1, x2)


def heaviside(x1, x2):
    (a, b), dtype = promote(x1, x2)
    work = small_int_to_float(dtype)

    def build(p, q):
        p, q = cv(p, work), cv(q, work)
        zero = const_like(0, p)
        out = opset.select(opset.less(p, zero), zero, const_like(1, p))
        out = opset.select(opset.equal(p, zero), q, out)
        return opset.select(is_nan(p), p, out) if is_float(p) else out

    return run(("heaviside", work), build, a, b)


def ldexp(x1, x2):
    x1, x2 = to_tensor(x1), to_tensor(x2)
    if x2.dtype not in _dtypes.INT_TYPES:
        raise TypeError(
            f"ldexp expects an integer exponent `x2`. Received: x2 dtype={x2.dtype}. "
            "Cast it, e.g. ops.cast(x2, 'int32')."
        )
    dtype = _dtypes.result_type(x1.dtype, x2.dtype, float)

    def build(a, b):
        a = cv(a, dtype)
        scale = opset.power(const_like(2.0, a), cv(b, dtype))
        return opset.multiply(a, scale)

    return run(("ldexp", dtype), build, x1, x2)


def _gcd_node(a, b):
    a, b = abs_node(a), abs_node(b)
    zero = const_like(0, a)
    one = const_like(1, a)
    # Euclid's algorithm, unrolled: 48 steps cover every 32-bit pair (Lamé's bound).
    for _ in range(48):
        done = opset.equal(b, zero)
        safe = opset.select(done, one, b)
        remainder = opset.floor_mod(a, safe)
        a, b = opset.select(done, a, b), opset.select(done, b, remainder)
    return a


def gcd(x1, x2):
    return binary("gcd", lambda a, b, d: _gcd_node(a, b), x1, x2)


def lcm(x1, x2):
    def build(a, b, d):
        g = _gcd_node(a, b)
        zero = const_like(0, a)
        safe = opset.select(opset.equal(g, zero), const_like(1, a), g)
        out = abs_node(opset.multiply(opset.divide(a, safe), b))
        return opset.select(opset.equal(g, zero), zero, out)

    return binary("lcm", build, x1, x2)


sqrt = float_unary("sqrt", opset.sqrt)
ceil = float_unary("ceil", opset.ceiling)
floor = float_unary("floor", opset.floor)


def fabs(x):
    return unary("fabs", lambda a, d: abs_node(a), x, compute=int_to_floatx)


def cbrt(x):
    def build(a, d):
        root = opset.power(abs_node(a), const_like(1 / 3, a))
        return opset.multiply(opset.sign(a), root)

    x = to_tensor(x)
    work = small_int_to_float(x.dtype)
    return unary("cbrt", build, x, compute=lambda d: work)


def absolute(x):
    def build(a, d):
        if d == "bool" or d.startswith("uint"):
            return a
        return abs_node(a)

    return unary("absolute", build, x)


def abs(x):
    return absolute(x)


def negative(x):
    def build(a, d):
        if d == "bool":
            return opset.logical_not(a)
        if d.startswith("uint"):
            return opset.subtract(const_like(0, a), a)
        return opset.negative(a)

    return unary("negative", build, x)


def sign(x):
    def build(a, d):
        if d == "bool":
            return a
        out = opset.sign(a)
        return opset.select(is_nan(a), a, out) if is_float(a) else out

    return unary("sign", build, x)


def square(x):
    return unary(
        "square",
        lambda a, d: opset.multiply(a, a),
        x,
        compute=lambda d: "int32" if d == "bool" else d,
    )


def reciprocal(x):
    return unary("reciprocal", lambda a, d: opset.divide(const_like(1, a), a), x)


def round(x, decimals=0):
    decimals = int(decimals)

    def build(a, d):
        if not is_float(a):
            if decimals >= 0:
                return a
            scale = const_like(10**-decimals, a)
            f = cv(a, "float64")
            r = opset.round(opset.divide(f, cv(scale, "float64")), "half_to_even")
            return cv(opset.multiply(r, cv(scale, "float64")).output(0), d)
        if decimals == 0:
            return opset.round(a, "half_to_even")
        scale = const_like(10.0**decimals, a)
        return opset.divide(opset.round(opset.multiply(a, scale), "half_to_even"), scale)

    return unary(("round", decimals), build, x)


def trunc(x):
    def build(a, d):
        if not is_float(a):
            return a
        zero = const_like(0, a)
        return opset.select(opset.less(a, zero), opset.ceiling(a), opset.floor(a))

    return unary("trunc", build, x)


def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    x = to_tensor(x)
    if x.dtype not in _dtypes.FLOAT_TYPES:
        return x
    info = _dtypes.finfo(x.dtype)
    pos = info.max if posinf is None else posinf
    neg = info.min if neginf is None else neginf

    def build(a, d):
        out = opset.select(is_nan(a), const_like(nan, a), a)
        out = opset.select(
            opset.logical_and(opset.is_inf(a), opset.greater(a, const_like(0, a))),
            const_like(pos, a),
            out,
        )
        return opset.select(
            opset.logical_and(opset.is_inf(a), opset.less(a, const_like(0, a))),
            const_like(neg, a),
            out,
        )

    return unary(("nan_to_num", float(nan), float(pos), float(neg)), build, x)


def clip(x, x_min, x_max):
    x = to_tensor(x)
    dtype = "int32" if x.dtype == "bool" else x.dtype
    lo, hi = (
        to_tensor(x_min) if x_min is not None else None,
        to_tensor(x_max) if x_max is not None else None,
    )
    inputs = [x] + [t for t in (lo, hi) if t is not None]

    def build(a, *bounds):
        a = cv(a, dtype)
        bounds = list(bounds)
        if lo is not None:
            a = opset.maximum(a, cv(bounds.pop(0), dtype)).output(0)
        if hi is not None:
            a = opset.minimum(a, cv(bounds.pop(0), dtype)).output(0)
        return a

    return run(("clip", dtype, lo is not None, hi is not None), build, *inputs)


def nextafter(x1, x2):
    raise NotImplementedError(
        f"nextafter is not supported on the openvino backend: {UNSUPPORTED['nextafter']}."
    )
