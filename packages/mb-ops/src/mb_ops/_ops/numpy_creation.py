"""Tensor creation numpy ops: ranges, constants, identities, windows, grids."""

from __future__ import annotations

import math
from typing import Any

from mb_ops import _config, _dtypes
from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import (
    as_int_or_none,
    canonical_axis,
    dtype_of,
    float_dtype,
    like,
    shape_of,
    std_dtype,
    tensor,
)


def _dtype_or(dtype: Any, default: Any) -> str:
    return _dtypes.standardize_dtype(default if dtype is None else dtype)


def _arange_spec(op_name: str, start: Any, stop: Any = None, step: Any = None, dtype=None) -> Any:
    values = [v for v in (start, stop, step) if v is not None]
    if dtype is None:
        dtype = _dtypes.result_type(*(dtype_of(v) for v in values))
    ints = [as_int_or_none(v) if not isinstance(v, float) else v for v in values]
    length = None
    if all(isinstance(v, (int, float)) for v in ints):
        lo, hi = (0, ints[0]) if stop is None else (ints[0], ints[1])
        st = ints[2] if step is not None else 1
        length = max(0, math.ceil((hi - lo) / st))
    return tensor((length,), dtype)


@op(_arange_spec)
def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values within an interval."""


def _array_spec(op_name: str, x: Any, dtype: Any = None) -> Any:
    return like(x, None if dtype is None else _dtypes.standardize_dtype(dtype))


@op(_array_spec)
def array(x, dtype=None):
    """Create a tensor."""


def _shape_arg(shape: Any) -> tuple[Any, ...]:
    if isinstance(shape, int):
        return (shape,)
    return tuple(shape)


def _filled_spec(op_name: str, shape: Any, dtype: Any = None) -> Any:
    return tensor(_shape_arg(shape), _dtype_or(dtype, _config.floatx()))


@op(_filled_spec)
def empty(shape, dtype=None):
    """A tensor of the given shape with unspecified values."""


@op(_filled_spec)
def zeros(shape, dtype=None):
    """A tensor of zeros."""


@op(_filled_spec)
def ones(shape, dtype=None):
    """A tensor of ones."""


def _full_spec(op_name: str, shape: Any, fill_value: Any, dtype: Any = None) -> Any:
    return tensor(_shape_arg(shape), _dtype_or(dtype, std_dtype(fill_value)))


@op(_full_spec)
def full(shape, fill_value, dtype=None):
    """A tensor filled with ``fill_value``."""


def _like_spec(op_name: str, x: Any, dtype: Any = None) -> Any:
    return like(x, None if dtype is None else _dtypes.standardize_dtype(dtype))


@op(_like_spec)
def empty_like(x, dtype=None):
    """An uninitialized tensor with the shape of ``x``."""


@op(_like_spec)
def zeros_like(x, dtype=None):
    """Zeros with the shape of ``x``."""


@op(_like_spec)
def ones_like(x, dtype=None):
    """Ones with the shape of ``x``."""


def _full_like_spec(op_name: str, x: Any, fill_value: Any, dtype: Any = None) -> Any:
    return like(x, None if dtype is None else _dtypes.standardize_dtype(dtype))


@op(_full_like_spec)
def full_like(x, fill_value, dtype=None):
    """``fill_value`` with the shape of ``x``."""


def _eye_spec(op_name: str, N: Any, M: Any = None, k: int = 0, dtype: Any = None) -> Any:
    return tensor((N, N if M is None else M), _dtype_or(dtype, _config.floatx()))


@op(_eye_spec)
def eye(N, M=None, k=0, dtype=None):
    """A 2D tensor with ones on the k-th diagonal."""


@op(_eye_spec)
def tri(N, M=None, k=0, dtype=None):
    """Ones at and below the k-th diagonal."""


def _identity_spec(op_name: str, n: Any, dtype: Any = None) -> Any:
    return tensor((n, n), _dtype_or(dtype, _config.floatx()))


@op(_identity_spec)
def identity(n, dtype=None):
    """The identity matrix."""


def _space_spec(op_name: str, start: Any, stop: Any, num: Any, endpoint: Any, *rest: Any) -> Any:
    *middle, dtype, axis = rest
    start_shape, stop_shape = shape_of(start), shape_of(stop)
    batch = start_shape if len(start_shape) >= len(stop_shape) else stop_shape
    out = list(batch)
    out.insert(canonical_axis(op_name, axis, len(out) + 1), as_int_or_none(num))
    if dtype is None:
        dtype = float_dtype(_dtypes.result_type(dtype_of(start), dtype_of(stop)))
    result = tensor(out, dtype)
    if op_name == "linspace" and middle and middle[0]:
        return result, tensor((), dtype)
    return result


@op(_space_spec)
def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """Evenly spaced numbers over an interval."""


@op(_space_spec)
def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    """Numbers spaced evenly on a log scale."""


@op(_space_spec)
def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers spaced evenly on a log scale (geometric progression)."""


def _window_spec(op_name: str, x: Any, *_: Any) -> Any:
    return tensor((as_int_or_none(x),), _config.floatx())


@op(_window_spec)
def bartlett(x):
    """The Bartlett window of ``x`` points."""


@op(_window_spec)
def blackman(x):
    """The Blackman window of ``x`` points."""


@op(_window_spec)
def hamming(x):
    """The Hamming window of ``x`` points."""


@op(_window_spec)
def hanning(x):
    """The Hanning window of ``x`` points."""


@op(_window_spec)
def kaiser(x, beta):
    """The Kaiser window of ``x`` points."""


def _meshgrid_spec(op_name: str, x: Any, indexing: str = "xy") -> Any:
    if indexing not in ("xy", "ij"):
        raise ValueError(f"{op_name}: indexing must be 'xy' or 'ij', received {indexing!r}.")
    sizes = [shape_of(v)[0] if shape_of(v) else 1 for v in x]
    if indexing == "xy" and len(sizes) >= 2:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    return [tensor(sizes, std_dtype(v)) for v in x]


@op(_meshgrid_spec)
def meshgrid(*x, indexing="xy"):
    """Coordinate grids from coordinate vectors."""
