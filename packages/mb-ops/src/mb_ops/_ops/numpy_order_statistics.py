"""Order statistics: sorting, partitioning, medians, quantiles and percentiles."""

from __future__ import annotations

from typing import Any

from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import (
    float_dtype,
    like,
    num_elements,
    reduce_shape,
    shape_of,
    std_dtype,
    tensor,
)
from mb_ops._ops._specs import reduction_float, same_shape_keep_dtype_along_axis


@op(reduction_float)
def median(x, axis=None, keepdims=False):
    """Median along the given axes.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The medians along ``axis`` (the mean of the two middle values for even counts), as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 5, 3], [4, 2, 6]])
    >>> ops.convert_to_numpy(ops.median(x)).tolist()
    3.5
    >>> ops.convert_to_numpy(ops.median(x, axis=1)).tolist()
    [3.0, 4.0]
    """


@op(reduction_float)
def nanmedian(x, axis=None, keepdims=False):
    """Median along the given axes, ignoring NaNs.

    Args:
        x: a tensor.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The medians of the non-NaN values along ``axis``, as floats.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, float('nan'), 3.0, 4.0])
    >>> ops.convert_to_numpy(ops.nanmedian(x)).tolist()
    3.0
    """


def _quantile_spec(
    op_name: str, x: Any, q: Any, axis: Any = None, method: str = "linear", keepdims=False
) -> Any:
    out = reduce_shape(op_name, shape_of(x), axis, keepdims)
    return tensor(shape_of(q) + out, float_dtype(std_dtype(x)))


@op(_quantile_spec)
def quantile(x, q, axis=None, method="linear", keepdims=False):
    """The q-th quantiles along the given axes (q in [0, 1]).

    Args:
        x: a tensor.
        q: a quantile or a tensor of quantiles, in ``[0, 1]``.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        method: the interpolation between data points when the quantile falls between them:
            ``"linear"``, ``"lower"``, ``"higher"``, ``"midpoint"`` or ``"nearest"``.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The quantiles, as floats: ``q``'s shape followed by the reduced shape of ``x``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 2.0, 3.0, 4.0])
    >>> ops.convert_to_numpy(ops.quantile(x, 0.5)).tolist()
    2.5
    >>> ops.convert_to_numpy(ops.quantile(x, ops.convert_to_tensor([0.0, 0.25, 1.0]))).tolist()
    [1.0, 1.75, 4.0]
    >>> ops.convert_to_numpy(ops.quantile(x, 0.25, method='lower')).tolist()
    1.0
    """


@op(_quantile_spec)
def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    """The q-th quantiles along the given axes, ignoring NaNs.

    Args:
        x: a tensor.
        q: a quantile or a tensor of quantiles, in ``[0, 1]``.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        method: the interpolation between data points when the quantile falls between them:
            ``"linear"``, ``"lower"``, ``"higher"``, ``"midpoint"`` or ``"nearest"``.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The quantiles of the non-NaN values, as floats: ``q``'s shape followed by the reduced shape
        of ``x``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, float('nan'), 2.0, 3.0, 4.0])
    >>> ops.convert_to_numpy(ops.nanquantile(x, 0.5)).tolist()
    2.5
    """


@op(_quantile_spec)
def percentile(x, q, axis=None, method="linear", keepdims=False):
    """The q-th percentiles along the given axes (q in [0, 100]).

    Args:
        x: a tensor.
        q: a percentile or a tensor of percentiles, in ``[0, 100]``.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        method: the interpolation between data points when the quantile falls between them:
            ``"linear"``, ``"lower"``, ``"higher"``, ``"midpoint"`` or ``"nearest"``.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The percentiles, as floats: ``q``'s shape followed by the reduced shape of ``x``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 2.0, 3.0, 4.0])
    >>> ops.convert_to_numpy(ops.percentile(x, 50)).tolist()
    2.5
    >>> ops.convert_to_numpy(ops.percentile(x, ops.convert_to_tensor([25.0, 75.0]))).tolist()
    [1.75, 3.25]
    """


@op(_quantile_spec)
def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    """The q-th percentiles along the given axes, ignoring NaNs.

    Args:
        x: a tensor.
        q: a percentile or a tensor of percentiles, in ``[0, 100]``.
        axis: an axis or a tuple of axes to reduce; None reduces every element.
        method: the interpolation between data points when the quantile falls between them:
            ``"linear"``, ``"lower"``, ``"higher"``, ``"midpoint"`` or ``"nearest"``.
        keepdims: keep the reduced axes with size 1.

    Returns:
        The percentiles of the non-NaN values, as floats: ``q``'s shape followed by the reduced
        shape of ``x``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, float('nan'), 2.0, 3.0, 4.0])
    >>> ops.convert_to_numpy(ops.nanpercentile(x, 50)).tolist()
    2.5
    """


def _argsort_spec(op_name: str, x: Any, axis: Any = -1) -> Any:
    same_shape_keep_dtype_along_axis(op_name, x, axis)
    if axis is None:
        return tensor((num_elements(shape_of(x)),), "int32")
    return like(x, "int32")


@op(_argsort_spec)
def argsort(x, axis=-1):
    """Indices that would sort the tensor along an axis.

    Args:
        x: a tensor.
        axis: the axis to sort along; None sorts the flattened tensor.

    Returns:
        The int32 indices that sort ``x`` in ascending order along ``axis``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([30, 10, 20])
    >>> ops.convert_to_numpy(ops.argsort(x)).tolist()
    [1, 2, 0]
    >>> ops.convert_to_numpy(ops.argsort(ops.convert_to_tensor([[3, 1], [2, 4]]), axis=0)).tolist()
    [[1, 0], [0, 1]]
    """


def _argpartition_spec(op_name: str, x: Any, kth: Any, axis: Any = -1) -> Any:
    return _argsort_spec(op_name, x, axis)


@op(_argpartition_spec)
def argpartition(x, kth, axis=-1):
    """Indices that would partition the tensor around the ``kth`` element.

    Args:
        x: a tensor.
        kth: the position of the element to partition around.
        axis: the axis to partition along; None partitions the flattened tensor.

    Returns:
        int32 indices such that the ``kth`` one is that of the value a full sort would put there,
        those before it of values no larger and those after it of values no smaller (each side in no
        given order).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([5, 1, 4, 2, 3])
    >>> idx = ops.convert_to_numpy(ops.argpartition(x, 2))
    >>> idx[2].tolist()  # x[4] == 3 is the third smallest
    4
    >>> sorted(idx[:2].tolist())
    [1, 3]
    >>> sorted(idx[3:].tolist())
    [0, 2]
    """


def _sort_spec(op_name: str, x: Any, axis: Any = -1) -> Any:
    same_shape_keep_dtype_along_axis(op_name, x, axis)
    return like(x)


@op(_sort_spec)
def sort(x, axis=-1):
    """Sorted copy of the tensor along an axis.

    Args:
        x: a tensor.
        axis: the axis to sort along; None sorts the flattened tensor.

    Returns:
        The sorted values, ascending along ``axis``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[3, 7, 2], [1, 9, 8]])
    >>> ops.convert_to_numpy(ops.sort(x)).tolist()
    [[2, 3, 7], [1, 8, 9]]
    >>> ops.convert_to_numpy(ops.sort(x, axis=0)).tolist()
    [[1, 7, 2], [3, 9, 8]]
    """
