"""Element-wise transcendental functions: exponentials, logarithms, trigonometric and
hyperbolic functions and their inverses, angle conversion, ``sinc`` and ``i0``."""

import math

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import abs_node, const_like, cv, opset, promote, run
from mb_backend_openvino.numpy._common import (
    atan2_node,
    binary,
    expm1_node,
    float_unary,
    int_to_floatx,
    log1p_node,
    small_int_to_float,
    to_float,
    unary,
)

_FLOAT = (float,)


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
    work = small_int_to_float(dtype)
    return run(("hypot", work), lambda p, q: build(cv(p, work), cv(q, work), work), a, b)


def _ln(factor):
    return lambda a: opset.divide(opset.log(a), const_like(math.log(factor), a))


sin = float_unary("sin", opset.sin)
cos = float_unary("cos", opset.cos)
tan = float_unary("tan", opset.tan)
arcsin = float_unary("arcsin", opset.asin)
arccos = float_unary("arccos", opset.acos)
arctan = float_unary("arctan", opset.atan)
sinh = float_unary("sinh", opset.sinh)
cosh = float_unary("cosh", opset.cosh)
tanh = float_unary("tanh", opset.tanh)
arcsinh = float_unary("arcsinh", opset.asinh)
arccosh = float_unary("arccosh", opset.acosh)
arctanh = float_unary("arctanh", opset.atanh)
log = float_unary("log", opset.log)
log2 = float_unary("log2", _ln(2))
log10 = float_unary("log10", _ln(10))
log1p = float_unary("log1p", log1p_node)


def exp(x):
    return unary("exp", lambda a, d: opset.exp(a), x, compute=int_to_floatx)


def exp2(x):
    def build(a, d):
        return opset.exp(opset.multiply(a, const_like(math.log(2), a)))

    return unary("exp2", build, x, compute=int_to_floatx)


def expm1(x):
    return unary("expm1", lambda a, d: expm1_node(a), x, compute=int_to_floatx)


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
