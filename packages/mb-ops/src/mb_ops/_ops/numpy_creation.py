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
    """Evenly spaced values within an interval.

    Args:
        start: the first value; the end when ``stop`` is None (starting from 0).
        stop: the end of the interval (excluded).
        step: the spacing; None: 1.
        dtype: the dtype of the result; None: from the arguments.

    Returns:
        A 1D tensor: ``start``, ``start + step``, ... up to but excluding ``stop``. Its dtype is
        int32 for int arguments, float otherwise.

    Example:

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.arange(5)).tolist()
    [0, 1, 2, 3, 4]
    >>> ops.convert_to_numpy(ops.arange(1, 7, 2)).tolist()
    [1, 3, 5]
    >>> ops.convert_to_numpy(ops.arange(0.0, 1.0, 0.25)).tolist()
    [0.0, 0.25, 0.5, 0.75]
    """


def _array_spec(op_name: str, x: Any, dtype: Any = None) -> Any:
    return like(x, None if dtype is None else _dtypes.standardize_dtype(dtype))


@op(_array_spec)
def array(x, dtype=None):
    """Create a tensor.

    Args:
        x: a tensor, array, nested list or scalar.
        dtype: the dtype of the result; None: from ``x``.

    Returns:
        A tensor with the values of ``x``.

    Example:

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.array([[1, 2], [3, 4]])).tolist()
    [[1, 2], [3, 4]]
    >>> ops.convert_to_numpy(ops.array([1, 2], dtype='float32')).tolist()
    [1.0, 2.0]
    """


def _shape_arg(shape: Any) -> tuple[Any, ...]:
    if isinstance(shape, int):
        return (shape,)
    return tuple(shape)


def _filled_spec(op_name: str, shape: Any, dtype: Any = None) -> Any:
    return tensor(_shape_arg(shape), _dtype_or(dtype, _config.floatx()))


@op(_filled_spec)
def empty(shape, dtype=None):
    """A tensor of the given shape with unspecified values.

    Args:
        shape: the shape: an int or a tuple of ints.
        dtype: the dtype of the result; None: the default float dtype (float32 unless configured
            otherwise).

    Returns:
        A tensor of ``shape`` and ``dtype`` whose values are not set (do not read them).

    Example:

    >>> from mb_ops import ops
    >>> tuple(ops.empty((2, 3)).shape)
    (2, 3)
    """


@op(_filled_spec)
def zeros(shape, dtype=None):
    """A tensor of zeros.

    Args:
        shape: the shape: an int or a tuple of ints.
        dtype: the dtype of the result; None: the default float dtype (float32 unless configured
            otherwise).

    Returns:
        A tensor of ``shape`` filled with 0.

    Example:

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.zeros((2, 3))).tolist()
    [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]
    >>> ops.convert_to_numpy(ops.zeros(2, dtype='int32')).tolist()
    [0, 0]
    """


@op(_filled_spec)
def ones(shape, dtype=None):
    """A tensor of ones.

    Args:
        shape: the shape: an int or a tuple of ints.
        dtype: the dtype of the result; None: the default float dtype (float32 unless configured
            otherwise).

    Returns:
        A tensor of ``shape`` filled with 1.

    Example:

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.ones((2, 3))).tolist()
    [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
    >>> ops.convert_to_numpy(ops.ones(2, dtype='int32')).tolist()
    [1, 1]
    """


def _full_spec(op_name: str, shape: Any, fill_value: Any, dtype: Any = None) -> Any:
    return tensor(_shape_arg(shape), _dtype_or(dtype, std_dtype(fill_value)))


@op(_full_spec)
def full(shape, fill_value, dtype=None):
    """A tensor filled with ``fill_value``.

    Args:
        shape: the shape: an int or a tuple of ints.
        fill_value: the value of every element.
        dtype: the dtype of the result; None: from ``fill_value``.

    Returns:
        A tensor of ``shape`` filled with ``fill_value``.

    Example:

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.full((2, 2), 7.5)).tolist()
    [[7.5, 7.5], [7.5, 7.5]]
    >>> ops.convert_to_numpy(ops.full(3, 1, dtype='int32')).tolist()
    [1, 1, 1]
    """


def _like_spec(op_name: str, x: Any, dtype: Any = None) -> Any:
    return like(x, None if dtype is None else _dtypes.standardize_dtype(dtype))


@op(_like_spec)
def empty_like(x, dtype=None):
    """An uninitialized tensor with the shape of ``x``.

    Args:
        x: a tensor.
        dtype: the dtype of the result; None: ``x``'s.

    Returns:
        A tensor of ``x``'s shape (and dtype) whose values are not set.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> tuple(ops.empty_like(x).shape)
    (2, 3)
    """


@op(_like_spec)
def zeros_like(x, dtype=None):
    """Zeros with the shape of ``x``.

    Args:
        x: a tensor.
        dtype: the dtype of the result; None: ``x``'s.

    Returns:
        A tensor of ``x``'s shape (and dtype) filled with 0.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2], [3, 4]])
    >>> ops.convert_to_numpy(ops.zeros_like(x)).tolist()
    [[0, 0], [0, 0]]
    >>> ops.convert_to_numpy(ops.zeros_like(x, dtype='float32')).tolist()
    [[0.0, 0.0], [0.0, 0.0]]
    """


@op(_like_spec)
def ones_like(x, dtype=None):
    """Ones with the shape of ``x``.

    Args:
        x: a tensor.
        dtype: the dtype of the result; None: ``x``'s.

    Returns:
        A tensor of ``x``'s shape (and dtype) filled with 1.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2], [3, 4]])
    >>> ops.convert_to_numpy(ops.ones_like(x)).tolist()
    [[1, 1], [1, 1]]
    """


def _full_like_spec(op_name: str, x: Any, fill_value: Any, dtype: Any = None) -> Any:
    return like(x, None if dtype is None else _dtypes.standardize_dtype(dtype))


@op(_full_like_spec)
def full_like(x, fill_value, dtype=None):
    """``fill_value`` with the shape of ``x``.

    Args:
        x: a tensor.
        fill_value: the value of every element.
        dtype: the dtype of the result; None: ``x``'s.

    Returns:
        A tensor of ``x``'s shape (and dtype) filled with ``fill_value``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2], [3, 4]])
    >>> ops.convert_to_numpy(ops.full_like(x, 9)).tolist()
    [[9, 9], [9, 9]]
    """


def _eye_spec(op_name: str, N: Any, M: Any = None, k: int = 0, dtype: Any = None) -> Any:
    return tensor((N, N if M is None else M), _dtype_or(dtype, _config.floatx()))


@op(_eye_spec)
def eye(N, M=None, k=0, dtype=None):
    """A 2D tensor with ones on the k-th diagonal.

    Args:
        N: the number of rows.
        M: the number of columns; None: ``N``.
        k: the diagonal: 0 the main one, positive above it, negative below it.
        dtype: the dtype of the result; None: the default float dtype (float32 unless configured
            otherwise).

    Returns:
        An ``(N, M)`` tensor of zeros with ones on the ``k``-th diagonal.

    Example:

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.eye(2)).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    >>> ops.convert_to_numpy(ops.eye(2, 3, k=1, dtype='int32')).tolist()
    [[0, 1, 0], [0, 0, 1]]
    """


@op(_eye_spec)
def tri(N, M=None, k=0, dtype=None):
    """Ones at and below the k-th diagonal.

    Args:
        N: the number of rows.
        M: the number of columns; None: ``N``.
        k: the diagonal: 0 the main one, positive above it, negative below it.
        dtype: the dtype of the result; None: the default float dtype (float32 unless configured
            otherwise).

    Returns:
        An ``(N, M)`` tensor with ones at and below the ``k``-th diagonal, zeros above.

    Example:

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.tri(3, dtype='int32')).tolist()
    [[1, 0, 0], [1, 1, 0], [1, 1, 1]]
    >>> ops.convert_to_numpy(ops.tri(2, 3, k=1, dtype='int32')).tolist()
    [[1, 1, 0], [1, 1, 1]]
    """


def _identity_spec(op_name: str, n: Any, dtype: Any = None) -> Any:
    return tensor((n, n), _dtype_or(dtype, _config.floatx()))


@op(_identity_spec)
def identity(n, dtype=None):
    """The identity matrix.

    Args:
        n: the number of rows and columns.
        dtype: the dtype of the result; None: the default float dtype (float32 unless configured
            otherwise).

    Returns:
        The ``(n, n)`` identity matrix.

    Example:

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.identity(3, dtype='int32')).tolist()
    [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    """


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
    """Evenly spaced numbers over an interval.

    Args:
        start: the first value.
        stop: the end of the interval.
        num: the number of values.
        endpoint: whether ``stop`` is the last value (else it is excluded).
        retstep: whether to also return the spacing.
        dtype: the dtype of the result; None: a float dtype.
        axis: the axis of the result along which the values lie, when ``start`` and ``stop`` are
            tensors.

    Returns:
        ``num`` evenly spaced values from ``start`` to ``stop``; with ``retstep``, the tuple
        ``(values, step)``.

    Example:

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.linspace(0.0, 1.0, 5)).tolist()
    [0.0, 0.25, 0.5, 0.75, 1.0]
    >>> ops.convert_to_numpy(ops.linspace(0.0, 1.0, 4, endpoint=False)).tolist()
    [0.0, 0.25, 0.5, 0.75]
    >>> values, step = ops.linspace(0.0, 2.0, 5, retstep=True)
    >>> float(step)
    0.5
    """


@op(_space_spec)
def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    """Numbers spaced evenly on a log scale.

    Args:
        start: the first exponent.
        stop: the last exponent.
        num: the number of values.
        endpoint: whether ``stop`` is the last value (else it is excluded).
        base: the base of the powers.
        dtype: the dtype of the result; None: a float dtype.
        axis: the axis of the result along which the values lie, when ``start`` and ``stop`` are
            tensors.

    Returns:
        ``base ** v`` for ``num`` values ``v`` evenly spaced from ``start`` to ``stop``.

    Example:

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.logspace(0.0, 3.0, 4)).astype("float64").round(4).tolist()
    [1.0, 10.0, 100.0, 1000.0]
    >>> ops.convert_to_numpy(ops.logspace(0.0, 3.0, 4, base=2)).astype("float64").round(4).tolist()
    [1.0, 2.0, 4.0, 8.0]
    """


@op(_space_spec)
def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """Numbers spaced evenly on a log scale (geometric progression).

    Args:
        start: the first value (nonzero).
        stop: the last value (same sign as ``start``).
        num: the number of values.
        endpoint: whether ``stop`` is the last value (else it is excluded).
        dtype: the dtype of the result; None: a float dtype.
        axis: the axis of the result along which the values lie, when ``start`` and ``stop`` are
            tensors.

    Returns:
        ``num`` values from ``start`` to ``stop`` with a constant ratio between neighbours.

    Example:

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.geomspace(1.0, 8.0, 4)).astype("float64").round(4).tolist()
    [1.0, 2.0, 4.0, 8.0]
    >>> ops.convert_to_numpy(ops.geomspace(2.0, 32.0, 3)).astype("float64").round(4).tolist()
    [2.0, 8.0, 32.0]
    """


def _window_spec(op_name: str, x: Any, *_: Any) -> Any:
    return tensor((as_int_or_none(x),), _config.floatx())


@op(_window_spec)
def bartlett(x):
    """The Bartlett window of ``x`` points.

    Args:
        x: the number of points (an int).

    Returns:
        A 1D float tensor: the triangular window, 0 at both ends and 1 in the middle (for an odd
        ``x``).

    Example:

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.bartlett(5)).astype("float64").round(4).tolist()
    [0.0, 0.5, 1.0, 0.5, 0.0]
    """


@op(_window_spec)
def blackman(x):
    """The Blackman window of ``x`` points.

    Args:
        x: the number of points (an int).

    Returns:
        A 1D float tensor: ``0.42 - 0.5 cos(2 pi n / (x - 1)) + 0.08 cos(4 pi n / (x - 1))``.

    Example:

    >>> from mb_ops import ops
    >>> w = ops.convert_to_numpy(ops.blackman(5))
    >>> w[1:-1].astype("float64").round(4).tolist()  # the ends are ~0
    [0.34, 1.0, 0.34]
    """


@op(_window_spec)
def hamming(x):
    """The Hamming window of ``x`` points.

    Args:
        x: the number of points (an int).

    Returns:
        A 1D float tensor: ``0.54 - 0.46 cos(2 pi n / (x - 1))``.

    Example:

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.hamming(5)).astype("float64").round(4).tolist()
    [0.08, 0.54, 1.0, 0.54, 0.08]
    """


@op(_window_spec)
def hanning(x):
    """The Hanning window of ``x`` points.

    Args:
        x: the number of points (an int).

    Returns:
        A 1D float tensor: ``0.5 - 0.5 cos(2 pi n / (x - 1))``.

    Example:

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.hanning(5)).astype("float64").round(4).tolist()
    [0.0, 0.5, 1.0, 0.5, 0.0]
    """


@op(_window_spec)
def kaiser(x, beta):
    """The Kaiser window of ``x`` points.

    Args:
        x: the number of points (an int).
        beta: the shape parameter.

    Returns:
        A 1D float tensor: the Kaiser window (a taper that narrows as ``beta`` grows; all ones at
        ``beta == 0``).

    Example:

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(ops.kaiser(5, 0.0)).astype("float64").round(4).tolist()
    [1.0, 1.0, 1.0, 1.0, 1.0]
    >>> ops.convert_to_numpy(ops.kaiser(5, 5.0)).astype("float64").round(4).tolist()
    [0.0367, 0.5529, 1.0, 0.5529, 0.0367]
    """


def _meshgrid_spec(op_name: str, x: Any, indexing: str = "xy") -> Any:
    if indexing not in ("xy", "ij"):
        raise ValueError(f"{op_name}: indexing must be 'xy' or 'ij', received {indexing!r}.")
    sizes = [shape_of(v)[0] if shape_of(v) else 1 for v in x]
    if indexing == "xy" and len(sizes) >= 2:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    return [tensor(sizes, std_dtype(v)) for v in x]


@op(_meshgrid_spec)
def meshgrid(*x, indexing="xy"):
    """Coordinate grids from coordinate vectors.

    Args:
        x: 1D tensors of coordinates.
        indexing: ``"xy"`` (Cartesian: the first two output axes are ``(len(y), len(x))``) or
            ``"ij"`` (matrix: ``(len(x), len(y))``).

    Returns:
        A list of tensors, one per input: the coordinates of a grid, each input repeated along the
        other axes.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2, 3])
    >>> y = ops.convert_to_tensor([4, 5])
    >>> xx, yy = ops.meshgrid(x, y)
    >>> ops.convert_to_numpy(xx).tolist()
    [[1, 2, 3], [1, 2, 3]]
    >>> ops.convert_to_numpy(yy).tolist()
    [[4, 4, 4], [5, 5, 5]]
    >>> tuple(ops.meshgrid(x, y, indexing='ij')[0].shape)
    (3, 2)
    """
