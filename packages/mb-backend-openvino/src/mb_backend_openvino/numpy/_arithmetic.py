"""Element-wise ops: arithmetic, powers, logs, trigonometry, rounding, comparisons, logic, bits."""

import math

import numpy as np

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import abs_node, const_like, cv, i64, opset, promote, run
from mb_backend_openvino._tensor import OpenVINOTensor
from mb_backend_openvino.numpy._common import (
    UNSUPPORTED,
    atan2_node,
    binary,
    expm1_node,
    floor_divide_node,
    int_to_floatx,
    is_float,
    is_nan,
    log1p_node,
    signbit_node,
    to_float,
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


def arctan2(x1, x2):
    return binary("arctan2", lambda a, b, d: atan2_node(a, b), x1, x2, extra=_FLOAT)


def _logaddexp(a, b, d):
    big = opset.maximum(a, b)
    diff = opset.negative(abs_node(opset.subtract(a, b)))
    out = opset.add(big, log1p_node(opset.exp(diff).output(0)))
    # Equal infinities: the difference is nan, the answer is that infinity.
    return opset.select(opset.equal(a, b), opset.add(a, const_like(math.log(2), a)), out)


def logaddexp(x1, x2):
    return binary("logaddexp", _logaddexp, x1, x2, extra=_FLOAT)


def logaddexp2(x1, x2):
    def build(a, b, d):
        ln2 = const_like(math.log(2), a)
        out = _logaddexp(opset.multiply(a, ln2), opset.multiply(b, ln2), d)
        return opset.divide(out, ln2)

    return binary("logaddexp2", build, x1, x2, extra=_FLOAT)


def _small_int_to_float(dtype):
    """Keras's rule for cbrt, hypot, heaviside: ints give floatx, int64 gives float64."""
    if dtype in ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32"):
        return _dtypes.floatx()
    if dtype in ("int64", "uint64"):
        return "float64"
    return dtype


def hypot(x1, x2):
    def build(a, b, d):
        a, b = abs_node(a), abs_node(b)
        big = opset.maximum(a, b)
        small = opset.minimum(a, b)
        safe = opset.select(opset.equal(big, const_like(0, big)), const_like(1, big), big)
        ratio = opset.divide(small, safe)
        out = opset.multiply(
            big, opset.sqrt(opset.add(const_like(1, big), opset.multiply(ratio, ratio)))
        )
        inf = opset.logical_or(opset.is_inf(a), opset.is_inf(b))
        return opset.select(inf, const_like(math.inf, big), out)

    (a, b), dtype = promote(x1, x2)
    work = _small_int_to_float(dtype)
    return run(("hypot", work), lambda p, q: build(cv(p, work), cv(q, work), work), a, b)


def heaviside(x1, x2):
    (a, b), dtype = promote(x1, x2)
    work = _small_int_to_float(dtype)

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


# ----- unary ---------------------------------------------------------------------------


def _float_unary(name, fn):
    def op(x):
        return unary(name, lambda a, d: fn(a), x, compute=to_float)

    op.__name__ = name
    op.__doc__ = f"Element-wise ``{name}``; integer and bool inputs give floatx."
    return op


def _ln(factor):
    return lambda a: opset.divide(opset.log(a), const_like(math.log(factor), a))


sin = _float_unary("sin", opset.sin)
cos = _float_unary("cos", opset.cos)
tan = _float_unary("tan", opset.tan)
arcsin = _float_unary("arcsin", opset.asin)
arccos = _float_unary("arccos", opset.acos)
arctan = _float_unary("arctan", opset.atan)
sinh = _float_unary("sinh", opset.sinh)
cosh = _float_unary("cosh", opset.cosh)
tanh = _float_unary("tanh", opset.tanh)
arcsinh = _float_unary("arcsinh", opset.asinh)
arccosh = _float_unary("arccosh", opset.acosh)
arctanh = _float_unary("arctanh", opset.atanh)
log = _float_unary("log", opset.log)
log2 = _float_unary("log2", _ln(2))
log10 = _float_unary("log10", _ln(10))
log1p = _float_unary("log1p", log1p_node)
sqrt = _float_unary("sqrt", opset.sqrt)
ceil = _float_unary("ceil", opset.ceiling)
floor = _float_unary("floor", opset.floor)


def _real_only(name, x):
    """``x`` as a tensor; complex data raise NotImplementedError (declared unsupported)."""
    if np.iscomplexobj(x) and not isinstance(x, OpenVINOTensor):
        raise NotImplementedError(
            f"{name} is not supported on the openvino backend for complex input: "
            "OpenVINO has no complex element type. Real inputs work."
        )
    return to_tensor(x)


def angle(x):
    x = _real_only("angle", x)

    def build(a, d):
        zero = const_like(0, a)
        out = opset.select(signbit_node(a), const_like(math.pi, a), zero)
        return opset.select(is_nan(a), a, out)

    return unary("angle", build, x, compute=to_float)


def exp(x):
    return unary("exp", lambda a, d: opset.exp(a), x, compute=int_to_floatx)


def exp2(x):
    def build(a, d):
        return opset.exp(opset.multiply(a, const_like(math.log(2), a)))

    return unary("exp2", build, x, compute=int_to_floatx)


def expm1(x):
    return unary("expm1", lambda a, d: expm1_node(a), x, compute=int_to_floatx)


def fabs(x):
    return unary("fabs", lambda a, d: abs_node(a), x, compute=int_to_floatx)


def cbrt(x):
    def build(a, d):
        root = opset.power(abs_node(a), const_like(1 / 3, a))
        return opset.multiply(opset.sign(a), root)

    x = to_tensor(x)
    work = _small_int_to_float(x.dtype)
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


def signbit(x):
    return unary("signbit", lambda a, d: signbit_node(a), x, out=lambda d: "bool")


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


def sinc(x):
    def build(a, d):
        zero = const_like(0, a)
        pix = opset.multiply(a, const_like(math.pi, a))
        safe = opset.select(opset.equal(pix, zero), const_like(1, a), pix)
        out = opset.divide(opset.sin(safe), safe)
        return opset.select(opset.equal(a, zero), const_like(1, a), out)

    return unary("sinc", build, x, compute=to_float)


def _i0_node(a):
    """Modified Bessel I0 (Abramowitz & Stegun 9.8.1-2, relative error below 2e-7)."""
    ax = abs_node(a)
    t = opset.divide(ax, const_like(3.75, a))
    t2 = opset.multiply(t, t)
    small = const_like(0.0045813, a)
    for c in (0.0360768, 0.2659732, 1.2067492, 3.0899424, 3.5156229, 1.0):
        small = opset.add(opset.multiply(small, t2), const_like(c, a))
    inv = opset.divide(
        const_like(1, a), opset.select(opset.less(t, const_like(1, a)), const_like(1, a), t)
    )
    big = const_like(0.00392377, a)
    for c in (
        -0.01647633,
        0.02635537,
        -0.02057706,
        0.00916281,
        -0.00157565,
        0.00225319,
        0.01328592,
        0.39894228,
    ):
        big = opset.add(opset.multiply(big, inv), const_like(c, a))
    safe = opset.select(opset.less(ax, const_like(1, a)), const_like(1, a), ax)
    big = opset.multiply(big, opset.divide(opset.exp(ax), opset.sqrt(safe)))
    return opset.select(opset.less(ax, const_like(3.75, a)), small, big)


def i0(x):
    x = to_tensor(x)
    dtype = "float64" if x.dtype in ("int64", "float64") else _dtypes.result_type(x.dtype, float)
    compute = "float32" if dtype in ("bfloat16", "float16") else dtype

    def build(a):
        return cv(_i0_node(cv(a, compute)).output(0), dtype)

    return run(("i0", dtype), build, x)


def _degrees_dtype(dtype):
    if dtype in ("int64", "float64"):
        return "float64"
    if dtype in ("bfloat16", "float16"):
        return dtype
    return _dtypes.floatx()


def deg2rad(x):
    def build(a, d):
        return opset.multiply(a, const_like(math.pi / 180, a))

    return unary("deg2rad", build, x, compute=_degrees_dtype)


def rad2deg(x):
    def build(a, d):
        return opset.multiply(a, const_like(180 / math.pi, a))

    return unary("rad2deg", build, x, compute=_degrees_dtype)


def real(x):
    return _real_only("real", x)


def imag(x):
    x = _real_only("imag", x)
    return unary(
        "imag",
        lambda a, d: (
            opset.multiply(a, const_like(0, a))
            if d != "bool"
            else opset.logical_and(a, opset.logical_not(a))
        ),
        x,
    )


def conjugate(x):
    return _real_only("conjugate", x)


def conj(x):
    return _real_only("conj", x)


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


def _bool(dtype):
    return "bool"


def _compare(name, fn):
    def op(x1, x2):
        return binary(name, lambda a, b, d: fn(a, b), x1, x2, out=_bool)

    op.__name__ = name
    op.__doc__ = f"Element-wise ``{name}``; returns bool."
    return op


equal = _compare("equal", opset.equal)

not_equal = _compare("not_equal", opset.not_equal)

less = _compare("less", opset.less)

less_equal = _compare("less_equal", opset.less_equal)

greater = _compare("greater", opset.greater)

greater_equal = _compare("greater_equal", opset.greater_equal)


def _logical(name, fn):
    def op(x1, x2):
        a, b = to_tensor(x1), to_tensor(x2)
        return run(name, lambda p, q: fn(cv(p, "bool"), cv(q, "bool")), a, b)

    op.__name__ = name
    return op


logical_and = _logical("logical_and", opset.logical_and)

logical_or = _logical("logical_or", opset.logical_or)

logical_xor = _logical("logical_xor", opset.logical_xor)


def logical_not(x):
    return run("logical_not", lambda p: opset.logical_not(cv(p, "bool")), to_tensor(x))


def _isclose(a, b, rtol, atol, equal_nan):
    if not is_float(a):
        a, b = cv(a, "float32"), cv(b, "float32")
    diff = abs_node(opset.subtract(a, b))
    bound = opset.add(const_like(atol, a), opset.multiply(const_like(rtol, a), abs_node(b)))
    close = opset.less_equal(diff, bound)
    # Equal infinities are close; mixed ones are not (their difference is inf or nan).
    close = opset.logical_or(close, opset.equal(a, b))
    if equal_nan:
        close = opset.logical_or(close, opset.logical_and(is_nan(a), is_nan(b)))
    return close


def isclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    def build(a, b, d):
        return _isclose(a, b, rtol, atol, equal_nan)

    return binary(("isclose", rtol, atol, bool(equal_nan)), build, x1, x2, out=_bool)


def allclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    def build(a, b, d):
        close = _isclose(a, b, rtol, atol, equal_nan)
        flat = opset.reshape(close, i64([-1]), False)
        return opset.reduce_logical_and(flat, i64([0]), False)

    return binary(("allclose", rtol, atol, bool(equal_nan)), build, x1, x2, out=_bool)


def _float_predicate(name, fn, default):
    def op(x):
        x = to_tensor(x)

        def build(a, d):
            if not is_float(a):
                return opset.equal(a, a) if default else opset.not_equal(a, a)
            return fn(a)

        return unary(name, build, x, out=_bool)

    op.__name__ = name
    return op


isfinite = _float_predicate("isfinite", opset.is_finite, True)

isinf = _float_predicate("isinf", opset.is_inf, False)

isnan = _float_predicate("isnan", opset.is_nan, False)

isposinf = _float_predicate(
    "isposinf",
    lambda a: opset.logical_and(opset.is_inf(a), opset.greater(a, const_like(0, a))),
    False,
)

isneginf = _float_predicate(
    "isneginf",
    lambda a: opset.logical_and(opset.is_inf(a), opset.less(a, const_like(0, a))),
    False,
)


def isreal(x):
    x = _real_only("isreal", x)
    return unary(
        "isreal",
        lambda a, d: (
            opset.equal(a, a) if not is_float(a) else opset.logical_or(opset.equal(a, a), is_nan(a))
        ),
        x,
        out=_bool,
    )


def _bitwise(name, fn, bool_fn):
    def op(x, y):
        def build(a, b, d):
            return bool_fn(a, b) if d == "bool" else fn(a, b)

        return binary(name, build, x, y)

    op.__name__ = name
    return op


bitwise_and = _bitwise("bitwise_and", opset.bitwise_and, opset.logical_and)

bitwise_or = _bitwise("bitwise_or", opset.bitwise_or, opset.logical_or)

bitwise_xor = _bitwise("bitwise_xor", opset.bitwise_xor, opset.logical_xor)


def bitwise_invert(x):
    def build(a, d):
        return opset.logical_not(a) if d == "bool" else opset.bitwise_not(a)

    return unary("bitwise_not", build, x)


def bitwise_not(x):
    return bitwise_invert(x)


def _shift(name, x, y, left):
    x = to_tensor(x)
    if isinstance(y, int) and not isinstance(y, bool):
        (a, b), dtype = [x, to_tensor(y)], x.dtype
    else:
        (a, b), dtype = promote(x, y)

    def build(p, q):
        p, q = cv(p, dtype), cv(q, dtype)
        if left:
            return opset.bitwise_left_shift(p, q)
        if dtype in ("uint8", "uint16"):
            # OpenVINO's CPU shifts unsigned values arithmetically: widen them first.
            wide = opset.bitwise_right_shift(cv(p, "int32"), cv(q, "int32"))
            return cv(wide.output(0), dtype)
        if dtype in ("uint32", "uint64"):
            width = const_like(32 if dtype == "uint32" else 64, q)
            one = const_like(1, p)
            mask = opset.subtract(opset.bitwise_left_shift(one, opset.subtract(width, q)), one)
            full = opset.bitwise_not(const_like(0, p))
            mask = opset.select(opset.equal(q, const_like(0, q)), full, mask)
            return opset.bitwise_and(opset.bitwise_right_shift(p, q), mask)
        return opset.bitwise_right_shift(p, q)

    return run((name, dtype), build, a, b)


def bitwise_left_shift(x, y):
    return _shift("left_shift", x, y, True)


def left_shift(x, y):
    return bitwise_left_shift(x, y)


def bitwise_right_shift(x, y):
    return _shift("right_shift", x, y, False)


def right_shift(x, y):
    return bitwise_right_shift(x, y)
