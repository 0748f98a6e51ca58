"""Reusable ``compute_output_spec`` rules (``spec(op_name, *arguments)``)."""

from __future__ import annotations

from typing import Any

from mb_ops import _dtypes
from mb_ops._ops._shapes import (
    broadcast_shapes,
    dtype_of,
    float_dtype,
    like,
    reduce_shape,
    shape_of,
    std_dtype,
    tensor,
)


def unary_same(op: str, x: Any, *_: Any) -> Any:
    return like(x)


def unary_float(op: str, x: Any, *_: Any) -> Any:
    return like(x, float_dtype(std_dtype(x)))


def unary_bool(op: str, x: Any, *_: Any) -> Any:
    return like(x, "bool")


def unary_bool_to_int(op: str, x: Any, *_: Any) -> Any:
    dtype = std_dtype(x)
    return like(x, "int32" if dtype == "bool" else dtype)


def unary_real(op: str, x: Any, *_: Any) -> Any:
    """Real-valued result (abs/real/imag/angle of complex inputs)."""
    dtype = std_dtype(x)
    if dtype == "complex64":
        dtype = "float32"
    elif dtype == "complex128":
        dtype = "float64"
    return like(x, dtype)


def binary(op: str, x1: Any, x2: Any, *_: Any) -> Any:
    shape = broadcast_shapes(op, shape_of(x1), shape_of(x2))
    return tensor(shape, _dtypes.result_type(dtype_of(x1), dtype_of(x2)))


def binary_float(op: str, x1: Any, x2: Any, *_: Any) -> Any:
    shape = broadcast_shapes(op, shape_of(x1), shape_of(x2))
    return tensor(shape, float_dtype(_dtypes.result_type(dtype_of(x1), dtype_of(x2))))


def binary_bool(op: str, x1: Any, x2: Any, *_: Any) -> Any:
    shape = broadcast_shapes(op, shape_of(x1), shape_of(x2))
    return tensor(shape, "bool")


def binary_bool_to_int(op: str, x1: Any, x2: Any, *_: Any) -> Any:
    shape = broadcast_shapes(op, shape_of(x1), shape_of(x2))
    dtype = _dtypes.result_type(dtype_of(x1), dtype_of(x2))
    return tensor(shape, "int32" if dtype == "bool" else dtype)


def binary_first_dtype(op: str, x1: Any, x2: Any, *_: Any) -> Any:
    shape = broadcast_shapes(op, shape_of(x1), shape_of(x2))
    return tensor(shape, std_dtype(x1))


def reduction_same(op: str, x: Any, axis: Any = None, keepdims: bool = False, *_: Any) -> Any:
    return tensor(reduce_shape(op, shape_of(x), axis, keepdims), std_dtype(x))


def reduction_float(op: str, x: Any, axis: Any = None, keepdims: bool = False, *_: Any) -> Any:
    dtype = float_dtype(std_dtype(x))
    return tensor(reduce_shape(op, shape_of(x), axis, keepdims), dtype)


def reduction_bool(op: str, x: Any, axis: Any = None, keepdims: bool = False, *_: Any) -> Any:
    return tensor(reduce_shape(op, shape_of(x), axis, keepdims), "bool")


def reduction_index(op: str, x: Any, axis: Any = None, keepdims: bool = False, *_: Any) -> Any:
    shape = shape_of(x)
    if axis is None:
        out = tuple(1 for _ in shape) if keepdims else ()
    else:
        out = reduce_shape(op, shape, axis, keepdims)
    return tensor(out, "int32")


def reduction_sum(op: str, x: Any, axis: Any = None, keepdims: bool = False, *_: Any) -> Any:
    dtype = std_dtype(x)
    if dtype in ("bool", "int8", "int16"):
        dtype = "int32"
    elif dtype in ("uint8", "uint16"):
        dtype = "uint32"
    return tensor(reduce_shape(op, shape_of(x), axis, keepdims), dtype)


def same_shape_keep_dtype_along_axis(op: str, x: Any, axis: Any = -1, *_: Any) -> Any:
    shape = shape_of(x)
    if axis is not None and shape:
        reduce_shape(op, shape, axis, True)  # validates the axis
    return like(x)
