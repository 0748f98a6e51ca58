"""Element-wise transcendental numpy ops: exponentials, logarithms, trigonometric and
hyperbolic functions and their inverses, angle conversion, ``sinc`` and ``i0``."""

from __future__ import annotations

from mb_ops._ops._machinery import op
from mb_ops._ops._specs import binary_float, unary_float

# ----- exponentials, logarithms, trigonometric and hyperbolic functions ---------------


@op(binary_float)
def hypot(x1, x2):
    """Element-wise ``sqrt(x1**2 + x2**2)``.

    Args:
        x1: one leg of the right triangles.
        x2: the other leg, broadcastable with `x1`.

    Returns:
        The hypotenuses ``sqrt(x1**2 + x2**2)``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([3.0, 5.0])
    >>> y = ops.convert_to_tensor([4.0, 12.0])
    >>> ops.convert_to_numpy(ops.hypot(x, y)).astype("float64").round(4).tolist()
    [5.0, 13.0]
    """


@op(binary_float)
def logaddexp(x1, x2):
    """``log(exp(x1) + exp(x2))``, element-wise.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        ``log(exp(x1) + exp(x2))``, computed without overflow, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0])
    >>> ops.convert_to_numpy(ops.logaddexp(x, x)).astype("float64").round(4).tolist()
    [0.6931, 1.6931]
    """


@op(binary_float)
def logaddexp2(x1, x2):
    """``log2(2**x1 + 2**x2)``, element-wise.

    Args:
        x1: a tensor.
        x2: a tensor broadcastable with `x1`.

    Returns:
        ``log2(2**x1 + 2**x2)``, computed without overflow, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0])
    >>> y = ops.convert_to_tensor([0.0, 3.0])
    >>> ops.convert_to_numpy(ops.logaddexp2(x, y)).astype("float64").round(4).tolist()
    [1.0, 3.3219]
    """


@op(binary_float)
def arctan2(x1, x2):
    """Element-wise arc tangent of ``x1/x2`` choosing the quadrant.

    Args:
        x1: the y-coordinates.
        x2: the x-coordinates, broadcastable with `x1`.

    Returns:
        The angles in radians, in ``[-pi, pi]``, of the points ``(x2, x1)``.

    Example:

    >>> from mb_ops import ops
    >>> y = ops.convert_to_tensor([1.0, 1.0, -1.0])
    >>> x = ops.convert_to_tensor([1.0, -1.0, 0.0])
    >>> ops.convert_to_numpy(ops.arctan2(y, x)).astype("float64").round(4).tolist()
    [0.7854, 2.3562, -1.5708]
    """


@op(unary_float)
def exp(x):
    """Element-wise exponential.

    Args:
        x: a tensor.

    Returns:
        ``e**x``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0, -1.0])
    >>> ops.convert_to_numpy(ops.exp(x)).astype("float64").round(4).tolist()
    [1.0, 2.7183, 0.3679]
    """


@op(unary_float)
def exp2(x):
    """Element-wise base-2 exponential.

    Args:
        x: a tensor.

    Returns:
        ``2**x``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 3.0, -1.0])
    >>> ops.convert_to_numpy(ops.exp2(x)).astype("float64").round(4).tolist()
    [1.0, 8.0, 0.5]
    """


@op(unary_float)
def expm1(x):
    """``exp(x) - 1``, element-wise.

    Args:
        x: a tensor.

    Returns:
        ``exp(x) - 1``, accurate for small ``x``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0])
    >>> ops.convert_to_numpy(ops.expm1(x)).astype("float64").round(4).tolist()
    [0.0, 1.7183]
    """


@op(unary_float)
def log(x):
    """Natural logarithm, element-wise.

    Args:
        x: a tensor.

    Returns:
        The natural logarithms, as floats (-inf at 0, NaN below).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 2.0, 0.5])
    >>> ops.convert_to_numpy(ops.log(x)).astype("float64").round(4).tolist()
    [0.0, 0.6931, -0.6931]
    """


@op(unary_float)
def log10(x):
    """Base-10 logarithm, element-wise.

    Args:
        x: a tensor.

    Returns:
        The base-10 logarithms, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 10.0, 100.0])
    >>> ops.convert_to_numpy(ops.log10(x)).astype("float64").round(4).tolist()
    [0.0, 1.0, 2.0]
    """


@op(unary_float)
def log1p(x):
    """``log(1 + x)``, element-wise.

    Args:
        x: a tensor.

    Returns:
        ``log(1 + x)``, accurate for small ``x``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0])
    >>> ops.convert_to_numpy(ops.log1p(x)).astype("float64").round(4).tolist()
    [0.0, 0.6931]
    """


@op(unary_float)
def log2(x):
    """Base-2 logarithm, element-wise.

    Args:
        x: a tensor.

    Returns:
        The base-2 logarithms, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 8.0, 0.5])
    >>> ops.convert_to_numpy(ops.log2(x)).astype("float64").round(4).tolist()
    [0.0, 3.0, -1.0]
    """


@op(unary_float)
def sin(x):
    """Trigonometric sine, element-wise.

    Args:
        x: a tensor.

    Returns:
        The sines of ``x`` (in radians), as floats.

    Example:

    >>> from mb_ops import ops
    >>> import math
    >>> x = ops.convert_to_tensor([0.0, math.pi / 6, math.pi / 2])
    >>> ops.convert_to_numpy(ops.sin(x)).astype("float64").round(4).tolist()
    [0.0, 0.5, 1.0]
    """


@op(unary_float)
def cos(x):
    """Cosine, element-wise.

    Args:
        x: a tensor.

    Returns:
        The cosines of ``x`` (in radians), as floats.

    Example:

    >>> from mb_ops import ops
    >>> import math
    >>> x = ops.convert_to_tensor([0.0, math.pi / 3])
    >>> ops.convert_to_numpy(ops.cos(x)).astype("float64").round(4).tolist()
    [1.0, 0.5]
    """


@op(unary_float)
def tan(x):
    """Tangent, element-wise.

    Args:
        x: a tensor.

    Returns:
        The tangents of ``x`` (in radians), as floats.

    Example:

    >>> from mb_ops import ops
    >>> import math
    >>> x = ops.convert_to_tensor([0.0, math.pi / 4])
    >>> ops.convert_to_numpy(ops.tan(x)).astype("float64").round(4).tolist()
    [0.0, 1.0]
    """


@op(unary_float)
def arcsin(x):
    """Inverse sine, element-wise.

    Args:
        x: a tensor.

    Returns:
        The angles in radians, in ``[-pi/2, pi/2]``, whose sines are ``x``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 0.5, 1.0])
    >>> ops.convert_to_numpy(ops.arcsin(x)).astype("float64").round(4).tolist()
    [0.0, 0.5236, 1.5708]
    """


@op(unary_float)
def arccos(x):
    """Inverse cosine, element-wise.

    Args:
        x: a tensor.

    Returns:
        The angles in radians, in ``[0, pi]``, whose cosines are ``x``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 0.5, 0.0])
    >>> ops.convert_to_numpy(ops.arccos(x)).astype("float64").round(4).tolist()
    [0.0, 1.0472, 1.5708]
    """


@op(unary_float)
def arctan(x):
    """Inverse tangent, element-wise.

    Args:
        x: a tensor.

    Returns:
        The angles in radians, in ``(-pi/2, pi/2)``, whose tangents are ``x``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0])
    >>> ops.convert_to_numpy(ops.arctan(x)).astype("float64").round(4).tolist()
    [0.0, 0.7854]
    """


@op(unary_float)
def sinh(x):
    """Hyperbolic sine, element-wise.

    Args:
        x: a tensor.

    Returns:
        ``(exp(x) - exp(-x)) / 2``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0])
    >>> ops.convert_to_numpy(ops.sinh(x)).astype("float64").round(4).tolist()
    [0.0, 1.1752]
    """


@op(unary_float)
def cosh(x):
    """Hyperbolic cosine, element-wise.

    Args:
        x: a tensor.

    Returns:
        ``(exp(x) + exp(-x)) / 2``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0])
    >>> ops.convert_to_numpy(ops.cosh(x)).astype("float64").round(4).tolist()
    [1.0, 1.5431]
    """


@op(unary_float)
def tanh(x):
    """Hyperbolic tangent, element-wise.

    Args:
        x: a tensor.

    Returns:
        ``sinh(x) / cosh(x)``, in ``(-1, 1)``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0, -1.0])
    >>> ops.convert_to_numpy(ops.tanh(x)).astype("float64").round(4).tolist()
    [0.0, 0.7616, -0.7616]
    """


@op(unary_float)
def arcsinh(x):
    """Inverse hyperbolic sine, element-wise.

    Args:
        x: a tensor.

    Returns:
        The values whose hyperbolic sines are ``x``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0])
    >>> ops.convert_to_numpy(ops.arcsinh(x)).astype("float64").round(4).tolist()
    [0.0, 0.8814]
    """


@op(unary_float)
def arccosh(x):
    """Inverse hyperbolic cosine, element-wise.

    Args:
        x: a tensor.

    Returns:
        The values (``>= 0``) whose hyperbolic cosines are ``x`` (``x >= 1``).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 2.0])
    >>> ops.convert_to_numpy(ops.arccosh(x)).astype("float64").round(4).tolist()
    [0.0, 1.317]
    """


@op(unary_float)
def arctanh(x):
    """Inverse hyperbolic tangent, element-wise.

    Args:
        x: a tensor.

    Returns:
        The values whose hyperbolic tangents are ``x`` (``-1 < x < 1``).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 0.5])
    >>> ops.convert_to_numpy(ops.arctanh(x)).astype("float64").round(4).tolist()
    [0.0, 0.5493]
    """


@op(unary_float)
def deg2rad(x):
    """Convert angles from degrees to radians.

    Args:
        x: a tensor.

    Returns:
        ``x * pi / 180``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 90.0, 180.0])
    >>> ops.convert_to_numpy(ops.deg2rad(x)).astype("float64").round(4).tolist()
    [0.0, 1.5708, 3.1416]
    """


@op(unary_float)
def rad2deg(x):
    """Convert angles from radians to degrees.

    Args:
        x: a tensor.

    Returns:
        ``x * 180 / pi``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> import math
    >>> x = ops.convert_to_tensor([0.0, math.pi / 2, math.pi])
    >>> ops.convert_to_numpy(ops.rad2deg(x)).astype("float64").round(4).tolist()
    [0.0, 90.0, 180.0]
    """


@op(unary_float)
def sinc(x):
    """Normalized sinc function ``sin(pi x) / (pi x)``.

    Args:
        x: a tensor.

    Returns:
        ``sin(pi x) / (pi x)``, with 1 at ``x == 0``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 0.5])
    >>> ops.convert_to_numpy(ops.sinc(x)).astype("float64").round(4).tolist()
    [1.0, 0.6366]
    """


@op(unary_float)
def i0(x):
    """Modified Bessel function of the first kind, order 0.

    Args:
        x: a tensor.

    Returns:
        ``I0(x)``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0])
    >>> ops.convert_to_numpy(ops.i0(x)).astype("float64").round(4).tolist()
    [1.0, 1.2661]
    """
