"""Core ops: conversion, casting, control flow, scatter and slices."""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from mb_graph import KerasTensor, is_keras_tensor, tree
from mb_ops import _dtypes
from mb_ops._ops._machinery import BackendFunction, op
from mb_ops._ops._shapes import canonical_axis, fmt, like, shape_of, std_dtype, tensor

EXTRA_EXPORTS = ("convert_to_numpy", "custom_gradient", "dtype", "is_tensor", "shape")

_core_is_tensor = BackendFunction("core", "is_tensor")
_core_shape = BackendFunction("core", "shape")
_core_convert_to_numpy = BackendFunction("core", "convert_to_numpy")
_core_custom_gradient = BackendFunction("core", "custom_gradient")


def _spec_of(x: Any) -> Any:
    return tree.map_structure(lambda v: tensor(shape_of(v), std_dtype(v)), x)


def _cast_spec(op_name: str, x: Any, dtype: Any) -> Any:
    return like(x, _dtypes.standardize_dtype(dtype))


@op(_cast_spec, "core")
def cast(x, dtype):
    """Cast a tensor to ``dtype``.

    Args:
        x: a tensor (or anything `convert_to_tensor` takes).
        dtype: the dtype's name (``"float32"``, ``"int32"``, ...) or a dtype.

    Returns:
        `x` in `dtype`; floats cast to integers are truncated towards zero.

    Example:

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.cast(ops.convert_to_tensor([1.7, -1.7]), "int32")).tolist()
    [1, -1]
    """


def _dtype_range(dtype: str) -> tuple[Any, Any]:
    if dtype == "bool":
        return 0, 1
    if _dtypes.is_int_dtype(dtype):
        info = np.iinfo(dtype)
        return info.min, info.max
    np_dtype = ml_dtypes.bfloat16 if dtype == "bfloat16" else dtype
    info = ml_dtypes.finfo(np_dtype)
    return float(info.min), float(info.max)


def _saturate_cast(x: Any, dtype: Any) -> Any:
    target = _dtypes.standardize_dtype(dtype)
    source = _dtypes.standardize_dtype(getattr(x, "dtype", None) or np.asarray(x).dtype)
    lo, hi = _dtype_range(target)
    src_lo, src_hi = _dtype_range(source)
    clip = BackendFunction("numpy", "clip").fn
    if lo > src_lo or hi < src_hi:
        x = clip(x, max(lo, src_lo), min(hi, src_hi))
    return cast(x, target)


@op(_cast_spec, "core", impl=_saturate_cast)
def saturate_cast(x, dtype):
    """Cast to ``dtype``, clipping values to its range first."""


def _convert_spec(op_name: str, x: Any, dtype: Any = None, sparse: Any = None, ragged=None):
    return like(x, None if dtype is None else _dtypes.standardize_dtype(dtype))


@op(_convert_spec, "core")
def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """Convert a NumPy array, list or scalar to a tensor of the active backend.

    Args:
        x: a NumPy array, a (nested) list, a scalar, or a tensor.
        dtype: the dtype of the result; None keeps an array's dtype and gives
            Python floats `floatx()` (float32) and Python ints int32.
        sparse: accepted for Keras compatibility.
        ragged: accepted for Keras compatibility.

    Returns:
        A tensor of the active backend (a NumPy array on the numpy backend).

    Example:

    >>> from mb_ops import ops
    >>> ops.dtype(ops.convert_to_tensor([1, 2]))
    'int32'
    >>> ops.convert_to_numpy(ops.convert_to_tensor([1, 2], dtype="float32")).tolist()
    [1.0, 2.0]
    """


def convert_to_numpy(x):
    """Convert a tensor (or Variable) to a NumPy array."""
    if is_keras_tensor(x):
        raise ValueError(
            "convert_to_numpy cannot convert a symbolic KerasTensor (it holds no values). "
            f"Received: {x!r}. Call it on concrete tensors, e.g. inside a callback."
        )
    return _core_convert_to_numpy.fn(x)


def is_tensor(x):
    """Whether ``x`` is a tensor of the active backend."""
    return _core_is_tensor.fn(x)


def shape(x):
    """The shape of ``x`` as a tuple (None for unknown dims of symbolic tensors)."""
    if is_keras_tensor(x):
        return x.shape
    return _core_shape.fn(x)


def dtype(x):
    """The dtype of ``x`` as a string."""
    return _dtypes.standardize_dtype(x.dtype)


def custom_gradient(f):
    """Decorate ``f`` to define its gradient (``f`` returns ``(y, grad_fn)``)."""
    return _core_custom_gradient.fn(f)


def _stop_gradient_spec(op_name: str, variable: Any) -> Any:
    return like(variable)


@op(_stop_gradient_spec, "core")
def stop_gradient(variable):
    """The value with no gradient flowing back through it."""


def _scatter_spec(op_name: str, indices: Any, values: Any, shape: Any) -> Any:
    return tensor(tuple(shape), std_dtype(values))


@op(_scatter_spec, "core")
def scatter(indices, values, shape):
    """A zero tensor of ``shape`` with ``values`` added at ``indices``."""


def _scatter_update_spec(op_name, inputs, indices, updates, reduction=None) -> Any:
    return like(inputs)


@op(_scatter_update_spec, "core")
def scatter_update(inputs, indices, updates, reduction=None):
    """``inputs`` with ``updates`` written (or reduced) at ``indices``."""


def _slice_spec(op_name: str, inputs: Any, start_indices: Any, shape: Any) -> Any:
    if len(tuple(shape)) != len(shape_of(inputs)):
        raise ValueError(
            f"{op_name}: shape={tuple(shape)} must have one entry per axis of the input of "
            f"shape {fmt(shape_of(inputs))}."
        )
    return tensor(tuple(shape), std_dtype(inputs))


@op(_slice_spec, "core")
def slice(inputs, start_indices, shape):
    """The block of ``shape`` starting at ``start_indices``."""


def _slice_update_spec(op_name: str, inputs: Any, start_indices: Any, updates: Any) -> Any:
    return like(inputs)


@op(_slice_update_spec, "core")
def slice_update(inputs, start_indices, updates):
    """``inputs`` with the block at ``start_indices`` replaced by ``updates``."""


def _unstack_spec(op_name: str, x: Any, num: Any = None, axis: int = 0) -> Any:
    s = shape_of(x)
    ax = canonical_axis(op_name, axis, len(s), s)
    n = s[ax] if num is None else num
    if n is None:
        raise ValueError(
            f"{op_name}: cannot unstack axis {axis} of unknown size (shape {fmt(s)}); pass num."
        )
    rest = s[:ax] + s[ax + 1 :]
    return [tensor(rest, std_dtype(x)) for _ in range(n)]


@op(_unstack_spec, "core")
def unstack(x, num=None, axis=0):
    """Unpack a tensor along an axis into a list of tensors."""


def _check_same_specs(op_name: str, a: Any, b: Any, what: str) -> None:
    try:
        tree.assert_same_structure(a, b)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{op_name}: {what} return different structures: {error}") from None
    for x, y in zip(tree.flatten(a), tree.flatten(b), strict=True):
        if shape_of(x) != shape_of(y) or std_dtype(x) != std_dtype(y):
            raise ValueError(
                f"{op_name}: {what} return tensors of different shapes or dtypes: "
                f"{fmt(shape_of(x))} {std_dtype(x)} vs {fmt(shape_of(y))} {std_dtype(y)}."
            )


def _cond_spec(op_name: str, pred: Any, true_fn: Any, false_fn: Any) -> Any:
    a, b = true_fn(), false_fn()
    _check_same_specs(op_name, a, b, "true_fn and false_fn")
    return _spec_of(a)


@op(_cond_spec, "core")
def cond(pred, true_fn, false_fn):
    """``true_fn()`` if ``pred`` else ``false_fn()``."""


def _switch_spec(op_name: str, index: Any, branches: Any, operands: Any) -> Any:
    outs = [branch(*operands) for branch in branches]
    for other in outs[1:]:
        _check_same_specs(op_name, outs[0], other, "the branches")
    return _spec_of(outs[0])


@op(_switch_spec, "core")
def switch(index, branches, *operands):
    """``branches[index](*operands)``."""


def _while_spec(op_name, cond, body, loop_vars, maximum_iterations=None) -> Any:
    return _spec_of(loop_vars)


@op(_while_spec, "core")
def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """Run ``body`` while ``cond`` holds; returns the final loop variables."""


def _fori_spec(op_name, lower, upper, body_fun, init_val) -> Any:
    return _spec_of(init_val)


@op(_fori_spec, "core")
def fori_loop(lower, upper, body_fun, init_val):
    """``for i in range(lower, upper): val = body_fun(i, val)``."""


def _slice0(x: Any) -> Any:
    s = shape_of(x)
    if not s:
        raise ValueError(f"Cannot iterate over a scalar of shape {fmt(s)}.")
    return KerasTensor(s[1:], dtype=std_dtype(x))


def _stacked(spec: Any, n: Any) -> Any:
    return tree.map_structure(lambda v: tensor((n, *shape_of(v)), std_dtype(v)), spec)


def _scan_spec(op_name, f, init, xs=None, length=None, reverse=False, unroll=1) -> Any:
    n = length
    x0 = None
    if xs is not None:
        flat = tree.flatten(xs)
        n = shape_of(flat[0])[0] if flat else length
        x0 = tree.map_structure(_slice0, xs)
    carry, y = f(_spec_of(init), x0)
    _check_same_specs(op_name, init, carry, "init and the carry of f")
    return _spec_of(init), _stacked(y, n)


@op(_scan_spec, "core")
def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """Scan ``f`` over the leading axis of ``xs`` carrying state."""


def _associative_scan_spec(op_name, f, elems, reverse=False, axis=0) -> Any:
    return _spec_of(elems)


@op(_associative_scan_spec, "core")
def associative_scan(f, elems, reverse=False, axis=0):
    """Parallel prefix scan with an associative binary function."""


def _map_spec(op_name: str, f: Any, xs: Any) -> Any:
    flat = tree.flatten(xs)
    n = shape_of(flat[0])[0] if flat else None
    return _stacked(f(tree.map_structure(_slice0, xs)), n)


@op(_map_spec, "core")
def map(f, xs):
    """Apply ``f`` to each slice of ``xs`` along the leading axis; stack the results."""


@op(lambda op_name, function, elements: _map_spec(op_name, function, elements), "core")
def vectorized_map(function, elements):
    """Map ``function`` over the leading axis of ``elements`` (vectorized)."""
