"""Quantized matrix products: the kernels the quantized layers run on.

Each backend provides them in its ``nn/_quantization.py`` with the engine's native
kernel where it has one (``torch._int_mm`` / ``torch._scaled_mm``, ``jax.lax.dot_general``
with ``preferred_element_type``, TensorFlow's int8 matmul under XLA); the composites
below are the plain fallback a backend without them gets.
"""

from __future__ import annotations

from typing import Any

from mb_ops import _dtypes
from mb_ops._ops import numpy_arithmetic as ew
from mb_ops._ops import numpy_linear as lin
from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import fmt, shape_of, std_dtype, tensor
from mb_ops._ops.core import cast

_FLOAT8 = ("float8_e4m3fn", "float8_e5m2")


def _contraction_shape(op_name: str, x1: Any, x2: Any) -> tuple[Any, ...]:
    s1, s2 = shape_of(x1), shape_of(x2)
    if len(s1) < 1 or len(s2) != 2:
        raise ValueError(
            f"{op_name}: x1 must have rank >= 1 and x2 rank 2 (a (K, N) kernel); received "
            f"shapes {fmt(s1)} and {fmt(s2)}."
        )
    if s1[-1] is not None and s2[0] is not None and s1[-1] != s2[0]:
        raise ValueError(
            f"{op_name}: the last axis of x1 (shape {fmt(s1)}) must match the first axis of "
            f"x2 (shape {fmt(s2)}); received {s1[-1]} and {s2[0]}."
        )
    return (*s1[:-1], s2[1])


def _int8_matmul_spec(op_name: str, x1: Any, x2: Any) -> Any:
    dtypes = (std_dtype(x1), std_dtype(x2))
    if dtypes != ("int8", "int8"):
        raise TypeError(
            f"{op_name} multiplies int8 tensors. Received dtypes {dtypes[0]} and {dtypes[1]}. "
            "Quantize the operands first, e.g. with mb.quantizers.abs_max_quantize."
        )
    return tensor(_contraction_shape(op_name, x1, x2), "int32")


def _int8_matmul(x1: Any, x2: Any) -> Any:
    return lin.matmul(cast(x1, "int32"), cast(x2, "int32"))


@op(_int8_matmul_spec, "nn", fallback=_int8_matmul)
def int8_matmul(x1, x2):
    """``x1 @ x2`` for int8 ``x1`` ``(..., K)`` and ``x2`` ``(K, N)``, exact in int32.

    Args:
        x1: an int8 tensor ``(..., K)``.
        x2: an int8 tensor ``(K, N)``.

    Returns:
        An int32 tensor ``(..., N)``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, quantizers
    >>> y = quantizers.int8_matmul(np.array([[1, -2]], "int8"), np.array([[3], [4]], "int8"))
    >>> ops.convert_to_numpy(y).tolist(), str(ops.convert_to_numpy(y).dtype)
    ([[-5]], 'int32')
    """


def _scaled_matmul_spec(op_name, x1, x2, x1_scale, x2_scale, output_dtype="float32"):
    for name, x in (("x1", x1), ("x2", x2)):
        dtype = _dtypes.standardize_dtype(getattr(x, "dtype", "float32"))
        if dtype not in _FLOAT8:
            raise TypeError(
                f"{op_name}: {name} must be float8_e4m3fn or float8_e5m2. Received dtype "
                f"{dtype}. Cast it with ops.cast after dividing it by its scale."
            )
    return tensor(_contraction_shape(op_name, x1, x2), _dtypes.standardize_dtype(output_dtype))


def _float8_matmul(x1, x2, x1_scale, x2_scale, output_dtype="float32"):
    product = lin.matmul(cast(x1, "float32"), cast(x2, "float32"))
    scale = ew.multiply(cast(x1_scale, "float32"), cast(x2_scale, "float32"))
    return cast(ew.multiply(product, scale), output_dtype)


@op(_scaled_matmul_spec, "nn", fallback=_float8_matmul)
def float8_matmul(x1, x2, x1_scale, x2_scale, output_dtype="float32"):
    """``(x1 * x1_scale) @ (x2 * x2_scale)`` for float8 ``x1`` ``(..., K)`` and ``x2`` ``(K, N)``.

    The scales are scalars (a float8 value times its scale is the real value); the
    product accumulates in float32 and is returned in ``output_dtype``.

    Args:
        x1: a float8 tensor ``(..., K)``.
        x2: a float8 tensor ``(K, N)``.
        x1_scale: a scalar: the scale of ``x1``.
        x2_scale: a scalar: the scale of ``x2``.
        output_dtype: the dtype of the result.

    Returns:
        A tensor ``(..., N)`` of ``output_dtype``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops, quantizers
    >>> a = ops.cast(np.array([[1.0, 2.0]]), "float8_e4m3fn")
    >>> b = ops.cast(np.array([[3.0], [4.0]]), "float8_e4m3fn")
    >>> ops.convert_to_numpy(quantizers.float8_matmul(a, b, 0.5, 2.0)).tolist()
    [[11.0]]
    """
