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
    """Cast to ``dtype``, clipping values to its range first.

    Unlike ``cast``, values out of the target's range become its smallest or largest value
    instead of wrapping around.

    Args:
        x: a tensor.
        dtype: the dtype of the result.

    Returns:
        A tensor of ``dtype`` shaped as ``x``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.saturate_cast(np.array([-5.0, 100.0, 300.0]), "uint8")).tolist()
    [0, 100, 255]
    """


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
    """Convert a tensor (or Variable) to a NumPy array.

    Args:
        x: a tensor of the active backend, a ``Variable``, or anything ``np.asarray``
            accepts. Symbolic tensors (``KerasTensor``) have no values and are refused.

    Returns:
        A ``numpy.ndarray`` (copied to host memory).

    Example:

    >>> from mb_ops import ops
    >>> array = ops.convert_to_numpy(ops.ones((2,)))
    >>> type(array).__name__, array.tolist()
    ('ndarray', [1.0, 1.0])
    """
    if is_keras_tensor(x):
        raise ValueError(
            "convert_to_numpy cannot convert a symbolic KerasTensor (it holds no values). "
            f"Received: {x!r}. Call it on concrete tensors, e.g. inside a callback."
        )
    return _core_convert_to_numpy.fn(x)


def is_tensor(x):
    """Whether ``x`` is a tensor of the active backend.

    Args:
        x: any object.

    Returns:
        A bool. (On the numpy backend, NumPy arrays are its tensors.)

    Example:

    >>> from mb_ops import ops
    >>> ops.is_tensor(ops.ones((2,))), ops.is_tensor([1.0, 2.0])
    (True, False)
    """
    return _core_is_tensor.fn(x)


def shape(x):
    """The shape of ``x`` as a tuple (None for unknown dims of symbolic tensors).

    Args:
        x: a tensor, a ``Variable`` or a symbolic ``KerasTensor``.

    Returns:
        A tuple of ints (and None for the unknown dimensions of a symbolic tensor).

    Example:

    >>> from mb_ops import ops
    >>> ops.shape(ops.ones((2, 3)))
    (2, 3)
    """
    if is_keras_tensor(x):
        return x.shape
    return _core_shape.fn(x)


def dtype(x):
    """The dtype of ``x`` as a string.

    Args:
        x: a tensor, a ``Variable`` or a symbolic ``KerasTensor``.

    Returns:
        The standardized dtype name, e.g. ``"float32"``.

    Example:

    >>> from mb_ops import ops
    >>> ops.dtype(ops.ones((2,), dtype="int32"))
    'int32'
    """
    return _dtypes.standardize_dtype(x.dtype)


def custom_gradient(f):
    """Decorate ``f`` to define its gradient (``f`` returns ``(y, grad_fn)``).

    Args:
        f: a function of tensors returning ``(y, grad_fn)``: ``y`` its output and
            ``grad_fn(*args, upstream=None)`` the gradient with respect to its inputs,
            given the upstream gradient (passed positionally on some backends, as the
            ``upstream`` keyword on others).

    Returns:
        A function with ``f``'s output and the given gradient.

    Example (it differentiates, so it needs a backend that trains):

    >>> from mb_ops import backends
    >>> value_and_grad = backends.backend_module("training").value_and_grad
    >>> from mb_ops import ops
    >>> @ops.custom_gradient
    ... def clip_gradient(x):
    ...     def grad(*args, upstream=None):
    ...         if upstream is None:
    ...             (upstream,) = args
    ...         return ops.clip(upstream, -1.0, 1.0)
    ...     return x * 1.0, grad
    >>> f = value_and_grad(lambda x: ops.sum(clip_gradient(x) * 5.0))
    >>> value, gradient = f(ops.convert_to_tensor([1.0, 2.0]))
    >>> float(value), ops.convert_to_numpy(gradient).tolist()
    (15.0, [1.0, 1.0])
    """
    return _core_custom_gradient.fn(f)


def _stop_gradient_spec(op_name: str, variable: Any) -> Any:
    return like(variable)


@op(_stop_gradient_spec, "core")
def stop_gradient(variable):
    """The value with no gradient flowing back through it.

    Args:
        variable: a tensor or ``Variable``.

    Returns:
        A tensor equal to ``variable``, treated as a constant when differentiating.

    Example (it differentiates, so it needs a backend that trains):

    >>> from mb_ops import backends
    >>> value_and_grad = backends.backend_module("training").value_and_grad
    >>> from mb_ops import ops
    >>> f = value_and_grad(lambda x: ops.sum(x * ops.stop_gradient(x)))
    >>> value, gradient = f(ops.convert_to_tensor([1.0, 2.0]))
    >>> float(value), ops.convert_to_numpy(gradient).tolist()  # not 2 * x
    (5.0, [1.0, 2.0])
    """


def _scatter_spec(op_name: str, indices: Any, values: Any, shape: Any) -> Any:
    return tensor(tuple(shape), std_dtype(values))


@op(_scatter_spec, "core")
def scatter(indices, values, shape):
    """A zero tensor of ``shape`` with ``values`` added at ``indices``.

    Args:
        indices: an integer tensor ``(n, k)``: ``n`` index tuples into the first ``k`` axes
            of the result.
        values: a tensor ``(n, *shape[k:])``: what is added at each index (duplicates sum).
        shape: the shape of the result.

    Returns:
        A tensor of ``shape`` with the dtype of ``values``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> out = ops.scatter(np.array([[0], [2], [0]]), np.array([1.0, 2.0, 3.0]), (4,))
    >>> ops.convert_to_numpy(out).tolist()
    [4.0, 0.0, 2.0, 0.0]
    """


def _scatter_update_spec(op_name, inputs, indices, updates, reduction=None) -> Any:
    return like(inputs)


@op(_scatter_update_spec, "core")
def scatter_update(inputs, indices, updates, reduction=None):
    """``inputs`` with ``updates`` written (or reduced) at ``indices``.

    Args:
        inputs: a tensor.
        indices: an integer tensor ``(n, k)``: ``n`` index tuples into the first ``k`` axes
            of ``inputs``.
        updates: a tensor ``(n, *inputs.shape[k:])``.
        reduction: None (the updates replace the values), or ``"add"``, ``"max"``,
            ``"min"`` or ``"mul"`` (they are combined with them).

    Returns:
        A new tensor shaped as ``inputs``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> out = ops.scatter_update(np.zeros((3,)), np.array([[1]]), np.array([5.0]))
    >>> ops.convert_to_numpy(out).tolist()
    [0.0, 5.0, 0.0]
    """


def _slice_spec(op_name: str, inputs: Any, start_indices: Any, shape: Any) -> Any:
    if len(tuple(shape)) != len(shape_of(inputs)):
        raise ValueError(
            f"{op_name}: shape={tuple(shape)} must have one entry per axis of the input of "
            f"shape {fmt(shape_of(inputs))}."
        )
    return tensor(tuple(shape), std_dtype(inputs))


@op(_slice_spec, "core")
def slice(inputs, start_indices, shape):
    """The block of ``shape`` starting at ``start_indices``.

    Args:
        inputs: a tensor.
        start_indices: one start index per axis (ints or a tensor).
        shape: the size of the block along each axis.

    Returns:
        A tensor of ``shape``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.arange(12).reshape(3, 4)
    >>> ops.convert_to_numpy(ops.slice(x, (1, 1), (2, 2))).tolist()
    [[5, 6], [9, 10]]
    """


def _slice_update_spec(op_name: str, inputs: Any, start_indices: Any, updates: Any) -> Any:
    return like(inputs)


@op(_slice_update_spec, "core")
def slice_update(inputs, start_indices, updates):
    """``inputs`` with the block at ``start_indices`` replaced by ``updates``.

    Args:
        inputs: a tensor.
        start_indices: one start index per axis (ints or a tensor).
        updates: a tensor of ``inputs``'s rank: the new values of the block.

    Returns:
        A new tensor shaped as ``inputs``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> out = ops.slice_update(np.zeros((3, 3), "int32"), (1, 1), np.ones((2, 2), "int32"))
    >>> ops.convert_to_numpy(out).tolist()
    [[0, 0, 0], [0, 1, 1], [0, 1, 1]]
    """


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
    """Unpack a tensor along an axis into a list of tensors.

    Args:
        x: a tensor.
        num: the size of ``axis`` (needed only where it is not known statically).
        axis: the axis to unpack.

    Returns:
        A list of ``x.shape[axis]`` tensors, each without ``axis``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([[1, 2], [3, 4]])
    >>> [ops.convert_to_numpy(t).tolist() for t in ops.unstack(x)]
    [[1, 2], [3, 4]]
    >>> [ops.convert_to_numpy(t).tolist() for t in ops.unstack(x, axis=1)]
    [[1, 3], [2, 4]]
    """


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
    """``true_fn()`` if ``pred`` else ``false_fn()``.

    Inside a compiled function both branches are traced and must return the same
    structure of shapes and dtypes.

    Args:
        pred: a bool, or a scalar boolean tensor.
        true_fn: a function of no arguments.
        false_fn: a function of no arguments.

    Returns:
        The output of the branch taken.

    Example:

    >>> from mb_ops import ops
    >>> out = ops.cond(ops.convert_to_tensor(False), lambda: ops.ones(()), lambda: ops.zeros(()))
    >>> float(out)
    0.0
    """


def _switch_spec(op_name: str, index: Any, branches: Any, operands: Any) -> Any:
    outs = [branch(*operands) for branch in branches]
    for other in outs[1:]:
        _check_same_specs(op_name, outs[0], other, "the branches")
    return _spec_of(outs[0])


@op(_switch_spec, "core")
def switch(index, branches, *operands):
    """``branches[index](*operands)``.

    Args:
        index: an int or a scalar integer tensor; clamped to ``[0, len(branches) - 1]``.
        branches: a list of functions, each returning the same structure of shapes and
            dtypes.
        *operands: the arguments given to the branch.

    Returns:
        The output of the branch taken.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> out = ops.switch(1, [lambda x: x + 1, lambda x: x * 10], np.array(3))
    >>> int(out)
    30
    """


def _while_spec(op_name, cond, body, loop_vars, maximum_iterations=None) -> Any:
    return _spec_of(loop_vars)


@op(_while_spec, "core")
def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """Run ``body`` while ``cond`` holds; returns the final loop variables.

    Args:
        cond: a function of the loop variables returning a (scalar boolean) tensor.
        body: a function of the loop variables returning their new values, in the same
            structure.
        loop_vars: the initial loop variables: a tensor, or a tuple or list of them.
        maximum_iterations: None or the most iterations run.

    Returns:
        The loop variables after the last iteration, in the structure of ``loop_vars``.

    Example:

    >>> from mb_ops import ops
    >>> i, total = ops.while_loop(lambda i, s: i < 4, lambda i, s: (i + 1, s + i), (0, 0))
    >>> int(i), int(total)  # 0 + 1 + 2 + 3
    (4, 6)
    """


def _fori_spec(op_name, lower, upper, body_fun, init_val) -> Any:
    return _spec_of(init_val)


@op(_fori_spec, "core")
def fori_loop(lower, upper, body_fun, init_val):
    """``for i in range(lower, upper): val = body_fun(i, val)``.

    Args:
        lower: the first value of the loop index.
        upper: the end of the loop index (excluded).
        body_fun: a function ``(i, val) -> val``.
        init_val: the initial value (a tensor or a structure of them).

    Returns:
        The final value.

    Example:

    >>> from mb_ops import ops
    >>> int(ops.fori_loop(0, 5, lambda i, total: total + i, 0))
    10
    """


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
    """Scan ``f`` over the leading axis of ``xs`` carrying state (``jax.lax.scan``).

    Args:
        f: a function ``(carry, x) -> (carry, y)``.
        init: the initial carry (a tensor or a structure of them).
        xs: the values scanned over, along their leading axis; None: ``length`` steps with
            ``x`` None.
        length: the number of steps when ``xs`` is None.
        reverse: whether to scan from the end.
        unroll: how many steps a loop iteration runs (a hint for compiled backends).

    Returns:
        ``(final_carry, ys)``: the last carry and the ``y``s stacked along a new leading
        axis.

    Example:

    >>> from mb_ops import ops
    >>> def step(total, x):
    ...     return total + x, total * x
    >>> total, ys = ops.scan(step, 0, ops.convert_to_tensor([1, 2, 3]))
    >>> int(total), ops.convert_to_numpy(ys).tolist()
    (6, [0, 2, 9])
    """


def _associative_scan_spec(op_name, f, elems, reverse=False, axis=0) -> Any:
    return _spec_of(elems)


@op(_associative_scan_spec, "core")
def associative_scan(f, elems, reverse=False, axis=0):
    """Parallel prefix scan with an associative binary function.

    Args:
        f: an associative function of two tensors (or structures of them), applied
            elementwise along ``axis``.
        elems: a tensor (or a structure of them, with the same size along ``axis``).
        reverse: whether to scan from the end.
        axis: the axis scanned along.

    Returns:
        The running results ``f(... f(e0, e1) ..., ei)``, shaped as ``elems``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> x = np.array([1, 2, 3, 4])
    >>> ops.convert_to_numpy(ops.associative_scan(lambda a, b: a + b, x)).tolist()
    [1, 3, 6, 10]
    >>> ops.convert_to_numpy(ops.associative_scan(lambda a, b: a + b, x, reverse=True)).tolist()
    [10, 9, 7, 4]
    """


def _map_spec(op_name: str, f: Any, xs: Any) -> Any:
    flat = tree.flatten(xs)
    n = shape_of(flat[0])[0] if flat else None
    return _stacked(f(tree.map_structure(_slice0, xs)), n)


@op(_map_spec, "core")
def map(f, xs):
    """Apply ``f`` to each slice of ``xs`` along the leading axis; stack the results.

    Args:
        f: a function of one slice (a tensor or a structure of them).
        xs: a tensor (or a structure of them) with a leading axis.

    Returns:
        The outputs of ``f`` stacked along a new leading axis.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.map(ops.sum, np.array([[1, 2], [3, 4]]))).tolist()
    [3, 7]
    """


@op(lambda op_name, function, elements: _map_spec(op_name, function, elements), "core")
def vectorized_map(function, elements):
    """Map ``function`` over the leading axis of ``elements`` (vectorized where the backend can).

    Args:
        function: a function of one slice (a tensor or a structure of them).
        elements: a tensor (or a structure of them) with a leading axis.

    Returns:
        The outputs of ``function`` stacked along a new leading axis.

    Example:

    >>> import numpy as np
    >>> from mb_ops import ops
    >>> out = ops.vectorized_map(lambda row: row * 2, np.array([[1, 2], [3, 4]]))
    >>> ops.convert_to_numpy(out).tolist()
    [[2, 4], [6, 8]]
    """
