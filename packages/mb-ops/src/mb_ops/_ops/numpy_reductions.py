"""Reductions, scans, sorting and statistics of the numpy op family."""

from __future__ import annotations

import builtins
from typing import Any

from mb_ops import _dtypes
from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import (
    as_int_or_none,
    canonical_axis,
    float_dtype,
    like,
    num_elements,
    reduce_shape,
    shape_of,
    std_dtype,
    tensor,
)
from mb_ops._ops._specs import (
    reduction_bool,
    reduction_float,
    reduction_index,
    reduction_same,
    reduction_sum,
    same_shape_keep_dtype_along_axis,
)


@op(reduction_bool)
def all(x, axis=None, keepdims=False):
    """Whether all elements along the given axes are true."""


@op(reduction_bool)
def any(x, axis=None, keepdims=False):
    """Whether any element along the given axes is true."""


@op(reduction_same)
def amax(x, axis=None, keepdims=False):
    """Maximum along the given axes."""


@op(reduction_same)
def amin(x, axis=None, keepdims=False):
    """Minimum along the given axes."""


@op(reduction_same)
def max(x, axis=None, keepdims=False, initial=None):
    """Maximum along the given axes."""


@op(reduction_same)
def min(x, axis=None, keepdims=False, initial=None):
    """Minimum along the given axes."""


@op(reduction_same)
def nanmax(x, axis=None, keepdims=False):
    """Maximum along the given axes, ignoring NaNs."""


@op(reduction_same)
def nanmin(x, axis=None, keepdims=False):
    """Minimum along the given axes, ignoring NaNs."""


@op(reduction_same)
def ptp(x, axis=None, keepdims=False):
    """Range (max - min) along the given axes."""


@op(reduction_sum)
def sum(x, axis=None, keepdims=False):
    """Sum along the given axes.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to sum over; None sums every element.
        keepdims: keep the summed axes with size 1.

    Returns:
        The sums. Their dtype is `x`'s, except that bool, int8 and int16 sum in
        int32 and uint8 and uint16 in uint32, as in Keras.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> ops.convert_to_numpy(ops.sum(x)).tolist()
    21
    >>> ops.convert_to_numpy(ops.sum(x, axis=0)).tolist()
    [5, 7, 9]
    >>> tuple(ops.sum(x, axis=1, keepdims=True).shape)
    (2, 1)
    """


@op(reduction_sum)
def nansum(x, axis=None, keepdims=False):
    """Sum along the given axes, treating NaNs as zero."""


def _prod_spec(op_name: str, x: Any, axis: Any, keepdims: bool, dtype: Any = None) -> Any:
    out = reduction_sum(op_name, x, axis, keepdims)
    return out if dtype is None else tensor(out.shape, dtype)


@op(_prod_spec)
def prod(x, axis=None, keepdims=False, dtype=None):
    """Product along the given axes."""


@op(reduction_sum)
def nanprod(x, axis=None, keepdims=False):
    """Product along the given axes, treating NaNs as one."""


@op(reduction_float)
def mean(x, axis=None, keepdims=False):
    """Arithmetic mean along the given axes.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to average over; None averages every
            element.
        keepdims: keep the averaged axes with size 1.

    Returns:
        The means: float inputs keep their dtype, integer and bool inputs give
        floats (float32 by default).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> ops.convert_to_numpy(ops.mean(x)).tolist()
    3.5
    >>> ops.convert_to_numpy(ops.mean(x, axis=1)).tolist()
    [2.0, 5.0]
    """


@op(reduction_float)
def nanmean(x, axis=None, keepdims=False):
    """Mean along the given axes, ignoring NaNs."""


@op(reduction_float)
def median(x, axis=None, keepdims=False):
    """Median along the given axes."""


@op(reduction_float)
def nanmedian(x, axis=None, keepdims=False):
    """Median along the given axes, ignoring NaNs."""


@op(reduction_float)
def std(x, axis=None, keepdims=False):
    """Standard deviation along the given axes."""


@op(reduction_float)
def nanstd(x, axis=None, keepdims=False):
    """Standard deviation along the given axes, ignoring NaNs."""


@op(reduction_float)
def var(x, axis=None, keepdims=False):
    """Variance along the given axes."""


@op(reduction_float)
def nanvar(x, axis=None, keepdims=False):
    """Variance along the given axes, ignoring NaNs."""


def _quantile_spec(
    op_name: str, x: Any, q: Any, axis: Any = None, method: str = "linear", keepdims=False
) -> Any:
    out = reduce_shape(op_name, shape_of(x), axis, keepdims)
    return tensor(shape_of(q) + out, float_dtype(std_dtype(x)))


@op(_quantile_spec)
def quantile(x, q, axis=None, method="linear", keepdims=False):
    """The q-th quantiles along the given axes (q in [0, 1])."""


@op(_quantile_spec)
def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    """The q-th quantiles along the given axes, ignoring NaNs."""


@op(_quantile_spec)
def percentile(x, q, axis=None, method="linear", keepdims=False):
    """The q-th percentiles along the given axes (q in [0, 100])."""


@op(_quantile_spec)
def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    """The q-th percentiles along the given axes, ignoring NaNs."""


def _average_spec(op_name: str, x: Any, axis: Any = None, weights: Any = None) -> Any:
    dtypes = [std_dtype(x)] if weights is None else [std_dtype(x), std_dtype(weights)]
    dtype = float_dtype(_dtypes.result_type(*dtypes))
    return tensor(reduce_shape(op_name, shape_of(x), axis, False), dtype)


@op(_average_spec)
def average(x, axis=None, weights=None):
    """Weighted average along the given axis."""


def _count_nonzero_spec(op_name: str, x: Any, axis: Any = None) -> Any:
    return tensor(reduce_shape(op_name, shape_of(x), axis, False), "int32")


@op(_count_nonzero_spec)
def count_nonzero(x, axis=None):
    """Number of non-zero values along the given axes."""


@op(reduction_index)
def argmax(x, axis=None, keepdims=False):
    """Indices of the maximum values along an axis."""


@op(reduction_index)
def argmin(x, axis=None, keepdims=False):
    """Indices of the minimum values along an axis."""


@op(reduction_index)
def nanargmax(x, axis=None, keepdims=False):
    """Indices of the maximum values along an axis, ignoring NaNs."""


@op(reduction_index)
def nanargmin(x, axis=None, keepdims=False):
    """Indices of the minimum values along an axis, ignoring NaNs."""


def _argsort_spec(op_name: str, x: Any, axis: Any = -1) -> Any:
    same_shape_keep_dtype_along_axis(op_name, x, axis)
    if axis is None:
        return tensor((num_elements(shape_of(x)),), "int32")
    return like(x, "int32")


@op(_argsort_spec)
def argsort(x, axis=-1):
    """Indices that would sort the tensor along an axis."""


def _argpartition_spec(op_name: str, x: Any, kth: Any, axis: Any = -1) -> Any:
    return _argsort_spec(op_name, x, axis)


@op(_argpartition_spec)
def argpartition(x, kth, axis=-1):
    """Indices that would partition the tensor around the ``kth`` element."""


def _sort_spec(op_name: str, x: Any, axis: Any = -1) -> Any:
    same_shape_keep_dtype_along_axis(op_name, x, axis)
    return like(x)


@op(_sort_spec)
def sort(x, axis=-1):
    """Sorted copy of the tensor along an axis."""


def _cumulative_spec(op_name: str, x: Any, axis: Any = None, dtype: Any = None) -> Any:
    shape = shape_of(x)
    out_dtype = std_dtype(x) if dtype is None else dtype
    if out_dtype == "bool":
        out_dtype = "int32"
    if axis is None:
        return tensor((num_elements(shape),), out_dtype)
    canonical_axis(op_name, axis, len(shape), shape)
    return tensor(shape, out_dtype)


@op(_cumulative_spec)
def cumsum(x, axis=None, dtype=None):
    """Cumulative sum along an axis (of the flattened tensor when axis is None)."""


@op(_cumulative_spec)
def cumprod(x, axis=None, dtype=None):
    """Cumulative product along an axis."""


@op(_cumulative_spec)
def nancumsum(x, axis=None, dtype=None):
    """Cumulative sum treating NaNs as zero."""


@op(_cumulative_spec)
def nancumprod(x, axis=None, dtype=None):
    """Cumulative product treating NaNs as one."""


def _diff_spec(op_name: str, a: Any, n: int = 1, axis: int = -1) -> Any:
    shape = list(shape_of(a))
    ax = canonical_axis(op_name, axis, len(shape), tuple(shape))
    if shape[ax] is not None:
        shape[ax] = builtins.max(0, shape[ax] - n)
    return tensor(shape, std_dtype(a))


@op(_diff_spec)
def diff(a, n=1, axis=-1):
    """The n-th discrete difference along an axis."""


def _trapezoid_spec(op_name: str, y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Any:
    out = reduce_shape(op_name, shape_of(y), axis, False)
    return tensor(out, float_dtype(std_dtype(y)))


@op(_trapezoid_spec)
def trapezoid(y, x=None, dx=1.0, axis=-1):
    """Integrate along an axis with the trapezoidal rule."""


def _bincount_spec(
    op_name: str, x: Any, weights: Any = None, minlength: int = 0, sparse: bool = False
) -> Any:
    shape = shape_of(x)
    if len(shape) not in (1, 2):
        raise ValueError(f"{op_name}: expected a 1D or 2D input, received shape {shape}.")
    dtype = "int32" if weights is None else std_dtype(weights)
    out = (None,) if len(shape) == 1 else (shape[0], None)
    return tensor(out, dtype, sparse=sparse)


@op(_bincount_spec)
def bincount(x, weights=None, minlength=0, sparse=False):
    """Count the occurrences of each value in an int tensor."""


def _histogram_spec(op_name: str, x: Any, bins: Any = 10, range: Any = None) -> Any:
    if len(shape_of(x)) != 1:
        raise ValueError(f"{op_name}: expected a 1D input, received shape {shape_of(x)}.")
    nbins = as_int_or_none(bins)
    edges = None if nbins is None else nbins + 1
    # As in Keras, counts and edges both have the input's dtype.
    return (tensor((nbins,), std_dtype(x)), tensor((edges,), std_dtype(x)))


@op(_histogram_spec)
def histogram(x, bins=10, range=None):
    """Histogram of a 1D tensor: (counts, bin edges)."""
