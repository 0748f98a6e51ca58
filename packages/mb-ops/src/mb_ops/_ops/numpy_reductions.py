"""Reductions over axes: sums, products, means, moments, extremes, arg-extremes, counts,
``average``, ``trapezoid``, ``bincount`` and ``histogram``."""

from __future__ import annotations

from typing import Any

from mb_ops import _dtypes
from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import (
    as_int_or_none,
    float_dtype,
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
)


@op(reduction_bool)
def all(x, axis=None, keepdims=False):
    """Whether all elements along the given axes are true.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.

    Returns:
        A bool tensor: whether every element along ``axis`` is true (nonzero).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[True, False], [True, True]])
    >>> ops.convert_to_numpy(ops.all(x)).tolist()
    False
    >>> ops.convert_to_numpy(ops.all(x, axis=0)).tolist()
    [True, False]
    >>> ops.convert_to_numpy(ops.all(x, axis=1)).tolist()
    [False, True]
    """


@op(reduction_bool)
def any(x, axis=None, keepdims=False):
    """Whether any element along the given axes is true.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.

    Returns:
        A bool tensor: whether some element along ``axis`` is true (nonzero).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[False, False], [True, False]])
    >>> ops.convert_to_numpy(ops.any(x)).tolist()
    True
    >>> ops.convert_to_numpy(ops.any(x, axis=0)).tolist()
    [True, False]
    >>> ops.convert_to_numpy(ops.any(x, axis=1)).tolist()
    [False, True]
    """


@op(reduction_same)
def amax(x, axis=None, keepdims=False):
    """Maximum along the given axes.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The largest values along ``axis``, in ``x``'s dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 5, 3], [4, 2, 6]])
    >>> ops.convert_to_numpy(ops.amax(x)).tolist()
    6
    >>> ops.convert_to_numpy(ops.amax(x, axis=0)).tolist()
    [4, 5, 6]
    >>> ops.convert_to_numpy(ops.amax(x, axis=1, keepdims=True)).tolist()
    [[5], [6]]
    """


@op(reduction_same)
def amin(x, axis=None, keepdims=False):
    """Minimum along the given axes.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The smallest values along ``axis``, in ``x``'s dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 5, 3], [4, 2, 6]])
    >>> ops.convert_to_numpy(ops.amin(x)).tolist()
    1
    >>> ops.convert_to_numpy(ops.amin(x, axis=0)).tolist()
    [1, 2, 3]
    >>> ops.convert_to_numpy(ops.amin(x, axis=1, keepdims=True)).tolist()
    [[1], [2]]
    """


@op(reduction_same)
def max(x, axis=None, keepdims=False, initial=None):
    """Maximum along the given axes.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.
        initial: a starting value included in the reduction (a lower bound on the result); None:
            none.

    Returns:
        The largest values along ``axis`` (and ``initial``), in ``x``'s dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 5, 3], [4, 2, 6]])
    >>> ops.convert_to_numpy(ops.max(x)).tolist()
    6
    >>> ops.convert_to_numpy(ops.max(x, axis=1)).tolist()
    [5, 6]
    >>> ops.convert_to_numpy(ops.max(x, axis=1, initial=6)).tolist()
    [6, 6]
    """


@op(reduction_same)
def min(x, axis=None, keepdims=False, initial=None):
    """Minimum along the given axes.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.
        initial: a starting value included in the reduction (an upper bound on the result); None:
            none.

    Returns:
        The smallest values along ``axis`` (and ``initial``), in ``x``'s dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 5, 3], [4, 2, 6]])
    >>> ops.convert_to_numpy(ops.min(x)).tolist()
    1
    >>> ops.convert_to_numpy(ops.min(x, axis=1)).tolist()
    [1, 2]
    >>> ops.convert_to_numpy(ops.min(x, axis=1, initial=0)).tolist()
    [0, 0]
    """


@op(reduction_same)
def nanmax(x, axis=None, keepdims=False):
    """Maximum along the given axes, ignoring NaNs.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The largest non-NaN values along ``axis`` (NaN where all are NaN).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, float('nan'), 3.0])
    >>> ops.convert_to_numpy(ops.nanmax(x)).tolist()
    3.0
    >>> ops.convert_to_numpy(ops.max(x)).tolist()
    nan
    """


@op(reduction_same)
def nanmin(x, axis=None, keepdims=False):
    """Minimum along the given axes, ignoring NaNs.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The smallest non-NaN values along ``axis`` (NaN where all are NaN).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, float('nan'), 3.0])
    >>> ops.convert_to_numpy(ops.nanmin(x)).tolist()
    1.0
    >>> ops.convert_to_numpy(ops.min(x)).tolist()
    nan
    """


@op(reduction_same)
def ptp(x, axis=None, keepdims=False):
    """Range (max - min) along the given axes.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.

    Returns:
        ``max - min`` along ``axis``, in ``x``'s dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 5, 3], [4, 2, 6]])
    >>> ops.convert_to_numpy(ops.ptp(x)).tolist()
    5
    >>> ops.convert_to_numpy(ops.ptp(x, axis=0)).tolist()
    [3, 3, 3]
    """


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
    """Sum along the given axes, treating NaNs as zero.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The sums of the non-NaN values along ``axis``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, float('nan'), 3.0])
    >>> ops.convert_to_numpy(ops.nansum(x)).tolist()
    4.0
    >>> ops.convert_to_numpy(ops.sum(x)).tolist()
    nan
    """


def _prod_spec(op_name: str, x: Any, axis: Any, keepdims: bool, dtype: Any = None) -> Any:
    out = reduction_sum(op_name, x, axis, keepdims)
    return out if dtype is None else tensor(out.shape, dtype)


@op(_prod_spec)
def prod(x, axis=None, keepdims=False, dtype=None):
    """Product along the given axes.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.
        dtype: the dtype of the result; None: from ``x``'s.

    Returns:
        The products along ``axis``; bool and small int inputs multiply in int32, as in Keras.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2], [3, 4]])
    >>> ops.convert_to_numpy(ops.prod(x)).tolist()
    24
    >>> ops.convert_to_numpy(ops.prod(x, axis=0)).tolist()
    [3, 8]
    >>> ops.convert_to_numpy(ops.prod(x, axis=1)).tolist()
    [2, 12]
    """


@op(reduction_sum)
def nanprod(x, axis=None, keepdims=False):
    """Product along the given axes, treating NaNs as one.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The products of the non-NaN values along ``axis``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([2.0, float('nan'), 3.0])
    >>> ops.convert_to_numpy(ops.nanprod(x)).tolist()
    6.0
    """


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
    """Mean along the given axes, ignoring NaNs.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The means of the non-NaN values along ``axis``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[2.0, float('nan')], [3.0, 4.0]])
    >>> ops.convert_to_numpy(ops.nanmean(x)).tolist()
    3.0
    >>> ops.convert_to_numpy(ops.nanmean(x, axis=1)).tolist()
    [2.0, 3.5]
    """


@op(reduction_float)
def std(x, axis=None, keepdims=False):
    """Standard deviation along the given axes.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The population standard deviations (``sqrt(var)``) along ``axis``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])  # mean 5
    >>> ops.convert_to_numpy(ops.std(x)).tolist()
    2.0
    >>> ops.convert_to_numpy(ops.std(ops.convert_to_tensor([[1, 3], [2, 2]]), axis=1)).tolist()
    [1.0, 0.0]
    """


@op(reduction_float)
def nanstd(x, axis=None, keepdims=False):
    """Standard deviation along the given axes, ignoring NaNs.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The standard deviations of the non-NaN values along ``axis``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, float('nan'), 3.0])
    >>> ops.convert_to_numpy(ops.nanstd(x)).tolist()
    1.0
    """


@op(reduction_float)
def var(x, axis=None, keepdims=False):
    """Variance along the given axes.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The population variances (mean squared deviation from the mean) along ``axis``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])  # mean 5
    >>> ops.convert_to_numpy(ops.var(x)).tolist()
    4.0
    >>> ops.convert_to_numpy(ops.var(ops.convert_to_tensor([[1, 3], [2, 2]]), axis=1)).tolist()
    [1.0, 0.0]
    """


@op(reduction_float)
def nanvar(x, axis=None, keepdims=False):
    """Variance along the given axes, ignoring NaNs.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The variances of the non-NaN values along ``axis``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, float('nan'), 3.0])
    >>> ops.convert_to_numpy(ops.nanvar(x)).tolist()
    1.0
    """


def _average_spec(op_name: str, x: Any, axis: Any = None, weights: Any = None) -> Any:
    dtypes = [std_dtype(x)] if weights is None else [std_dtype(x), std_dtype(weights)]
    dtype = float_dtype(_dtypes.result_type(*dtypes))
    return tensor(reduce_shape(op_name, shape_of(x), axis, False), dtype)


@op(_average_spec)
def average(x, axis=None, weights=None):
    """Weighted average along the given axis.

    Args:
        x: a tensor.
        axis: the axis to average over; None averages every element.
        weights: a tensor of weights, with ``x``'s shape or 1D along ``axis``; None: all 1.

    Returns:
        ``sum(x * weights) / sum(weights)`` along ``axis`` (the mean without weights), as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 2.0, 3.0])
    >>> ops.convert_to_numpy(ops.average(x)).tolist()
    2.0
    >>> w = ops.convert_to_tensor([3.0, 1.0, 0.0])
    >>> ops.convert_to_numpy(ops.average(x, weights=w)).tolist()
    1.25
    """


def _count_nonzero_spec(op_name: str, x: Any, axis: Any = None) -> Any:
    return tensor(reduce_shape(op_name, shape_of(x), axis, False), "int32")


@op(_count_nonzero_spec)
def count_nonzero(x, axis=None):
    """Number of non-zero values along the given axes.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.

    Returns:
        The number of nonzero elements along ``axis``, as int32.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[0, 1, 2], [3, 0, 0]])
    >>> ops.convert_to_numpy(ops.count_nonzero(x)).tolist()
    3
    >>> ops.convert_to_numpy(ops.count_nonzero(x, axis=0)).tolist()
    [1, 1, 1]
    >>> ops.convert_to_numpy(ops.count_nonzero(x, axis=1)).tolist()
    [2, 1]
    """


@op(reduction_index)
def argmax(x, axis=None, keepdims=False):
    """Indices of the maximum values along an axis.

    Args:
        x: a tensor.
        axis: the axis to search along; None searches the flattened tensor.
        keepdims: keep the searched axis with size 1.

    Returns:
        The int32 indices of the first largest values along ``axis``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 5, 3], [4, 2, 6]])
    >>> ops.convert_to_numpy(ops.argmax(x)).tolist()
    5
    >>> ops.convert_to_numpy(ops.argmax(x, axis=0)).tolist()
    [1, 0, 1]
    >>> ops.convert_to_numpy(ops.argmax(x, axis=1)).tolist()
    [1, 2]
    """


@op(reduction_index)
def argmin(x, axis=None, keepdims=False):
    """Indices of the minimum values along an axis.

    Args:
        x: a tensor.
        axis: the axis to search along; None searches the flattened tensor.
        keepdims: keep the searched axis with size 1.

    Returns:
        The int32 indices of the first smallest values along ``axis``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 5, 3], [4, 2, 6]])
    >>> ops.convert_to_numpy(ops.argmin(x)).tolist()
    0
    >>> ops.convert_to_numpy(ops.argmin(x, axis=0)).tolist()
    [0, 1, 0]
    >>> ops.convert_to_numpy(ops.argmin(x, axis=1)).tolist()
    [0, 1]
    """


@op(reduction_index)
def nanargmax(x, axis=None, keepdims=False):
    """Indices of the maximum values along an axis, ignoring NaNs.

    Args:
        x: a tensor.
        axis: the axis to search along; None searches the flattened tensor.
        keepdims: keep the searched axis with size 1.

    Returns:
        The int32 indices of the largest non-NaN values along ``axis``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, float('nan'), 3.0])
    >>> ops.convert_to_numpy(ops.nanargmax(x)).tolist()
    2
    """


@op(reduction_index)
def nanargmin(x, axis=None, keepdims=False):
    """Indices of the minimum values along an axis, ignoring NaNs.

    Args:
        x: a tensor.
        axis: the axis to search along; None searches the flattened tensor.
        keepdims: keep the searched axis with size 1.

    Returns:
        The int32 indices of the smallest non-NaN values along ``axis``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, float('nan'), 3.0])
    >>> ops.convert_to_numpy(ops.nanargmin(x)).tolist()
    0
    """


def _trapezoid_spec(op_name: str, y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Any:
    out = reduce_shape(op_name, shape_of(y), axis, False)
    return tensor(out, float_dtype(std_dtype(y)))


@op(_trapezoid_spec)
def trapezoid(y, x=None, dx=1.0, axis=-1):
    """Integrate along an axis with the trapezoidal rule.

    Args:
        y: the values to integrate.
        x: the sample points of ``y`` along ``axis``; None: spaced ``dx`` apart.
        dx: the spacing of the sample points when ``x`` is None.
        axis: the axis to integrate along.

    Returns:
        The integrals of ``y`` along ``axis``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> y = ops.convert_to_tensor([1.0, 2.0, 3.0])
    >>> ops.convert_to_numpy(ops.trapezoid(y)).tolist()
    4.0
    >>> ops.convert_to_numpy(ops.trapezoid(y, dx=0.5)).tolist()
    2.0
    >>> ops.convert_to_numpy(ops.trapezoid(y, x=ops.convert_to_tensor([0.0, 1.0, 3.0]))).tolist()
    6.5
    """


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
    """Count the occurrences of each value in an int tensor.

    Args:
        x: a 1D or 2D tensor of non-negative ints.
        weights: a tensor of ``x``'s shape: what each element adds to its count; None: 1.
        minlength: the least length of the result.
        sparse: whether to return a sparse tensor (on backends that have them).

    Returns:
        ``counts[i]``: the number of times ``i`` occurs in ``x`` (or the sum of its weights); length
        ``max(max(x) + 1, minlength)``. A 2D ``x`` counts each row.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0, 1, 1, 3])
    >>> ops.convert_to_numpy(ops.bincount(x)).tolist()
    [1, 2, 0, 1]
    >>> ops.convert_to_numpy(ops.bincount(x, minlength=6)).tolist()
    [1, 2, 0, 1, 0, 0]
    >>> w = ops.convert_to_tensor([0.5, 1.0, 1.0, 2.0])
    >>> ops.convert_to_numpy(ops.bincount(x, weights=w)).tolist()
    [0.5, 2.0, 0.0, 2.0]
    """


def _histogram_spec(op_name: str, x: Any, bins: Any = 10, range: Any = None) -> Any:
    if len(shape_of(x)) != 1:
        raise ValueError(f"{op_name}: expected a 1D input, received shape {shape_of(x)}.")
    nbins = as_int_or_none(bins)
    edges = None if nbins is None else nbins + 1
    # As in Keras, counts and edges both have the input's dtype.
    return (tensor((nbins,), std_dtype(x)), tensor((edges,), std_dtype(x)))


@op(_histogram_spec)
def histogram(x, bins=10, range=None):
    """Histogram of a 1D tensor: (counts, bin edges).

    Args:
        x: a 1D tensor.
        bins: the number of equal-width bins.
        range: the ``(low, high)`` range of the bins; None: ``(min(x), max(x))``. Values outside are
            not counted.

    Returns:
        A tuple ``(counts, edges)``: the counts in each of the ``bins`` bins and the ``bins + 1``
        bin edges, both in ``x``'s dtype. The last bin includes its upper edge.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.0, 1.0, 1.5, 2.0, 4.0])
    >>> counts, edges = ops.histogram(x, bins=4)
    >>> ops.convert_to_numpy(counts).tolist()
    [1.0, 2.0, 1.0, 1.0]
    >>> ops.convert_to_numpy(edges).tolist()
    [0.0, 1.0, 2.0, 3.0, 4.0]
    >>> ops.convert_to_numpy(ops.histogram(x, bins=2, range=(0.0, 2.0))[0]).tolist()
    [1.0, 3.0]
    """
