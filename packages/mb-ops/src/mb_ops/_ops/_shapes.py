"""Static shape and dtype helpers shared by the ops' ``compute_output_spec``.

Nothing here runs an engine: shapes are tuples of ints and Nones (unknown).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from mb_graph import KerasTensor
from mb_ops import _dtypes


def shape_of(x: Any) -> tuple[Any, ...]:
    """The static shape of a tensor, KerasTensor, Variable, array or Python value."""
    shape = getattr(x, "shape", None)
    if shape is not None:
        if hasattr(shape, "as_list"):
            shape = shape.as_list()
        return tuple(None if d is None else int(d) for d in shape)
    if isinstance(x, (list, tuple)):
        if not x:
            return (0,)
        inner = shape_of(x[0])
        return (len(x), *inner)
    return ()


# What a Python scalar of each type brings to promotion: int and float stay weak.
_SCALAR_PROMOTION = {bool: "bool", int: int, float: float, complex: "complex64"}


def dtype_of(x: Any) -> Any:
    """What an operand contributes to ``result_type`` (Python scalars are weak)."""
    dtype = getattr(x, "dtype", None)
    if dtype is not None:
        return _dtypes.standardize_dtype(dtype)
    kind = _dtypes.python_scalar_type(x)
    if kind is not None:
        return _SCALAR_PROMOTION[kind]
    if isinstance(x, (list, tuple)):
        if not x:
            return float
        return _dtypes.result_type(*(dtype_of(v) for v in x))
    return _dtypes.standardize_dtype(np.asarray(x).dtype)


def std_dtype(x: Any) -> str:
    """The strong dtype of an operand (Python ``int`` -> int32, ``float`` -> floatx)."""
    return _dtypes.result_type(dtype_of(x))


def tensor(shape: Any, dtype: Any, sparse: bool = False) -> KerasTensor:
    return KerasTensor(tuple(shape), dtype=_dtypes.standardize_dtype(dtype), sparse=sparse)


def like(x: Any, dtype: Any = None) -> KerasTensor:
    return tensor(shape_of(x), std_dtype(x) if dtype is None else dtype)


def fmt(shape: Any) -> str:
    return str(tuple(shape))


def broadcast_shapes(op: str, *shapes: Any) -> tuple[Any, ...]:
    """NumPy broadcasting with unknown dims; raises naming the op and shapes."""
    ndim = max((len(s) for s in shapes), default=0)
    out: list[Any] = []
    for i in range(ndim):
        dims = [s[len(s) - ndim + i] for s in shapes if len(s) - ndim + i >= 0]
        known = {d for d in dims if d is not None and d != 1}
        if len(known) > 1:
            raise ValueError(
                f"{op}: the input shapes {', '.join(fmt(s) for s in shapes)} cannot be "
                f"broadcast together (axis {i - ndim} has sizes {sorted(known)}). Expected "
                "each axis, aligned from the right, to match or be 1."
            )
        if known:
            out.append(known.pop())
        elif any(d is None for d in dims):
            out.append(None)
        else:
            out.append(1)
    return tuple(out)


def canonical_axis(op: str, axis: Any, ndim: int, shape: Any = None, name: str = "axis") -> int:
    """``axis`` as a non-negative int; raises when out of range for ``ndim``."""
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
        raise TypeError(f"{op}: {name} must be an int, received {name}={axis!r}.")
    axis = int(axis)
    if not -ndim <= axis < ndim:
        where = f"shape {fmt(shape)}" if shape is not None else f"rank {ndim}"
        raise ValueError(
            f"{op}: {name}={axis} is out of range for an input of {where}. "
            f"Expected {name} in [{-ndim}, {ndim - 1}]."
        )
    return axis % ndim if ndim else 0


def canonical_axes(op: str, axis: Any, ndim: int, shape: Any = None) -> tuple[int, ...]:
    """``axis`` (None = all, int, or sequence) as sorted non-negative ints."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (list, tuple)):
        axes = [canonical_axis(op, a, ndim, shape) for a in axis]
        if len(set(axes)) != len(axes):
            raise ValueError(f"{op}: repeated axis in axis={axis!r}.")
        return tuple(sorted(axes))
    return (canonical_axis(op, axis, ndim, shape),)


def reduce_shape(op: str, shape: Any, axis: Any, keepdims: bool) -> tuple[Any, ...]:
    shape = tuple(shape)
    axes = canonical_axes(op, axis, len(shape), shape)
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def num_elements(shape: Any) -> Any:
    if any(d is None for d in shape):
        return None
    return math.prod(shape)


def as_int_or_none(value: Any) -> Any:
    """A static int from a Python int/np integer, else None (a tensor value)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    return None


def float_dtype(dtype: Any) -> str:
    """The dtype of a float-valued op on ``dtype`` (ints and bools -> floatx)."""
    return _dtypes.result_type(dtype, float)


def reshape_shape(op: str, shape: Any, newshape: Any) -> tuple[Any, ...]:
    if isinstance(newshape, int):
        newshape = (newshape,)
    newshape = tuple(None if d is None else int(d) for d in newshape)
    if newshape.count(-1) > 1:
        raise ValueError(f"{op}: at most one -1 is allowed in newshape, received {newshape}.")
    total = num_elements(shape)
    known = [d for d in newshape if d not in (-1, None)]
    if -1 in newshape:
        fill = None
        if total is not None and None not in newshape:
            rest = math.prod(known)
            if rest == 0 or total % rest:
                raise ValueError(
                    f"{op}: cannot reshape an input of shape {fmt(shape)} ({total} elements) "
                    f"into {newshape}."
                )
            fill = total // rest
        return tuple(fill if d == -1 else d for d in newshape)
    if total is not None and None not in newshape and math.prod(newshape) != total:
        raise ValueError(
            f"{op}: cannot reshape an input of shape {fmt(shape)} ({total} elements) into "
            f"{newshape} ({math.prod(newshape)} elements). Expected the same number of elements."
        )
    return newshape
