"""Selection and indexing numpy ops: where, take, pad, unique, search, get_item."""

from __future__ import annotations

from typing import Any

from mb_ops import _dtypes
from mb_ops._ops._machinery import op, resolve_backend_function
from mb_ops._ops._shapes import (
    as_int_or_none,
    broadcast_shapes,
    canonical_axis,
    dtype_of,
    fmt,
    num_elements,
    shape_of,
    std_dtype,
    tensor,
)


def _where_spec(op_name: str, condition: Any, x1: Any = None, x2: Any = None) -> Any:
    if x1 is None and x2 is None:
        return tuple(tensor((None,), "int32") for _ in shape_of(condition))
    if x1 is None or x2 is None:
        raise ValueError(f"{op_name}: give both x1 and x2, or neither.")
    shape = broadcast_shapes(op_name, shape_of(condition), shape_of(x1), shape_of(x2))
    return tensor(shape, _dtypes.result_type(dtype_of(x1), dtype_of(x2)))


@op(_where_spec)
def where(condition, x1=None, x2=None):
    """Elements of ``x1`` where ``condition`` is true, else of ``x2``.

    Args:
        condition: a bool tensor (or one cast to bool).
        x1: the values where `condition` is true; broadcast with the others.
        x2: the values where `condition` is false.

    Returns:
        The selected values, in the result type of `x1` and `x2`. Without `x1`
        and `x2`: the indices of the true elements, one tensor per axis.

    Example:

    >>> from mb_ops import ops
    >>> condition = ops.convert_to_tensor([True, False, True])
    >>> ops.convert_to_numpy(ops.where(condition, 1.0, -1.0)).tolist()
    [1.0, -1.0, 1.0]
    """


def _select_spec(op_name: str, condlist: Any, choicelist: Any, default: Any = 0) -> Any:
    if len(condlist) != len(choicelist):
        raise ValueError(
            f"{op_name}: condlist and choicelist must have the same length, received "
            f"{len(condlist)} and {len(choicelist)}."
        )
    shapes = [shape_of(c) for c in condlist] + [shape_of(c) for c in choicelist]
    shape = broadcast_shapes(op_name, *shapes, shape_of(default))
    dtype = _dtypes.result_type(*(dtype_of(c) for c in choicelist), dtype_of(default))
    return tensor(shape, dtype)


@op(_select_spec)
def select(condlist, choicelist, default=0):
    """Elements from ``choicelist`` chosen by the first true condition.

    Args:
        condlist: a list of bool tensors, broadcastable with each other.
        choicelist: a list of tensors, one per condition.
        default: the value where no condition is true.

    Returns:
        A tensor holding, at each position, the value of the choice whose condition is the first
        true one there, else `default`.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-2, -1, 0, 1, 2])
    >>> condlist = [x < 0, x > 0]
    >>> choicelist = [ops.negative(x), x * 10]
    >>> ops.convert_to_numpy(ops.select(condlist, choicelist, default=7)).tolist()
    [2, 1, 7, 10, 20]
    """


def _take_spec(op_name: str, x: Any, indices: Any, axis: Any = None) -> Any:
    shape = shape_of(x)
    ind = shape_of(indices)
    if axis is None:
        return tensor(ind, std_dtype(x))
    ax = canonical_axis(op_name, axis, len(shape), shape)
    return tensor(shape[:ax] + ind + shape[ax + 1 :], std_dtype(x))


@op(_take_spec)
def take(x, indices, axis=None):
    """Elements of a tensor along an axis at the given indices.

    Args:
        x: a tensor.
        indices: an int tensor of indices.
        axis: the axis to take along; ``None`` indexes the flattened tensor.

    Returns:
        The elements of `x` at `indices`; the indexed axis is replaced by the shape of `indices`.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> ops.convert_to_numpy(ops.take(x, ops.convert_to_tensor([2, 0]), axis=1)).tolist()
    [[3, 1], [6, 4]]
    >>> ops.convert_to_numpy(ops.take(x, ops.convert_to_tensor([0, 5]))).tolist()
    [1, 6]
    """


def _take_along_axis_spec(op_name: str, x: Any, indices: Any, axis: Any = None) -> Any:
    shape, ind = shape_of(x), shape_of(indices)
    if axis is None:
        return tensor(ind, std_dtype(x))
    if len(shape) != len(ind):
        raise ValueError(
            f"{op_name}: x and indices must have the same rank, received shapes {fmt(shape)} "
            f"and {fmt(ind)}."
        )
    ax = canonical_axis(op_name, axis, len(shape), shape)
    rest = broadcast_shapes(op_name, shape[:ax] + shape[ax + 1 :], ind[:ax] + ind[ax + 1 :])
    return tensor((*rest[:ax], ind[ax], *rest[ax:]), std_dtype(x))


@op(_take_along_axis_spec)
def take_along_axis(x, indices, axis=None):
    """Values of ``x`` at ``indices`` along an axis.

    Args:
        x: a tensor.
        indices: an int tensor of the same rank as `x`.
        axis: the axis to pick along; ``None`` indexes the flattened tensor.

    Returns:
        The values of `x` picked by `indices` along `axis` (as from ``argsort``).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[10, 30, 20], [60, 40, 50]])
    >>> indices = ops.convert_to_tensor([[0, 2], [1, 1]])
    >>> ops.convert_to_numpy(ops.take_along_axis(x, indices, axis=1)).tolist()
    [[10, 20], [40, 40]]
    """


def _pad_spec(
    op_name: str, x: Any, pad_width: Any, mode: str = "constant", constant_values: Any = None
) -> Any:
    shape = shape_of(x)
    widths = pad_width
    if isinstance(widths, int):
        widths = [(widths, widths)] * len(shape)
    widths = [tuple(w) if isinstance(w, (list, tuple)) else (w, w) for w in widths]
    if len(widths) == 1 and len(shape) > 1:
        widths = widths * len(shape)
    if len(widths) != len(shape):
        raise ValueError(
            f"{op_name}: pad_width has {len(widths)} entries for an input of shape "
            f"{fmt(shape)}; expected one (before, after) pair per axis."
        )
    out = [None if d is None else d + w[0] + w[-1] for d, w in zip(shape, widths, strict=True)]
    return tensor(out, std_dtype(x))


@op(_pad_spec)
def pad(x, pad_width, mode="constant", constant_values=None):
    """Pad a tensor.

    Args:
        x: a tensor.
        pad_width: an int, or one ``(before, after)`` pair per axis (or one pair for all axes).
        mode: ``"constant"``, ``"edge"``, ``"reflect"``, ``"symmetric"``, ... as in numpy.
        constant_values: the fill value for ``mode="constant"`` (0 if ``None``).

    Returns:
        `x` with `pad_width[i]` values added before and after axis ``i``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2], [3, 4]])
    >>> ops.convert_to_numpy(ops.pad(x, [[0, 1], [1, 1]])).tolist()
    [[0, 1, 2, 0], [0, 3, 4, 0], [0, 0, 0, 0]]
    >>> y = ops.convert_to_tensor([1, 2, 3])
    >>> ops.convert_to_numpy(ops.pad(y, [[2, 2]], mode="reflect")).tolist()
    [3, 2, 1, 2, 3, 2, 1]
    """


def _unique_spec(
    op_name: str,
    x: Any,
    sorted: bool = True,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: Any = None,
    size: Any = None,
    fill_value: Any = None,
) -> Any:
    shape = shape_of(x)
    if axis is None:
        values = tensor((size,), std_dtype(x))
    else:
        ax = canonical_axis(op_name, axis, len(shape), shape)
        out = list(shape)
        out[ax] = size
        values = tensor(out, std_dtype(x))
    extras = []
    if return_index:
        extras.append(tensor((size,), "int32"))
    if return_inverse:
        n = (
            num_elements(shape)
            if axis is None
            else shape[canonical_axis(op_name, axis, len(shape))]
        )
        extras.append(tensor((n,), "int32"))
    if return_counts:
        extras.append(tensor((size,), "int32"))
    return (values, *extras) if extras else values


@op(_unique_spec)
def unique(
    x,
    sorted=True,
    return_index=False,
    return_inverse=False,
    return_counts=False,
    axis=None,
    size=None,
    fill_value=None,
):
    """The unique elements of a tensor (static size given by ``size``).

    Args:
        x: a tensor.
        sorted: whether to return the values sorted.
        return_index: also return the index of each value's first occurrence.
        return_inverse: also return, for each element of `x`, the index of its value.
        return_counts: also return how often each value occurs.
        axis: the axis to find unique slices along; ``None`` flattens `x`.
        size: a static output size: the values are cut to it or padded with `fill_value`.
        fill_value: the padding value when `size` exceeds the number of unique values.

    Returns:
        The sorted unique values; with the ``return_*`` flags, a tuple that also holds the first
        indices, the inverse indices and/or the counts.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([3, 1, 3, 2, 1, 3])
    >>> ops.convert_to_numpy(ops.unique(x)).tolist()
    [1, 2, 3]
    >>> values, counts = ops.unique(x, return_counts=True)
    >>> ops.convert_to_numpy(counts).tolist()
    [2, 1, 3]
    >>> ops.convert_to_numpy(ops.unique(x, size=5, fill_value=0)).tolist()
    [1, 2, 3, 0, 0]
    """


def _searchsorted_spec(op_name: str, sorted_sequence: Any, values: Any, side: str = "left") -> Any:
    if len(shape_of(sorted_sequence)) != 1:
        raise ValueError(
            f"{op_name}: sorted_sequence must be 1D, received shape "
            f"{fmt(shape_of(sorted_sequence))}."
        )
    return tensor(shape_of(values), "int32")


@op(_searchsorted_spec)
def searchsorted(sorted_sequence, values, side="left"):
    """Indices where ``values`` would be inserted to keep the order.

    Args:
        sorted_sequence: a sorted 1D tensor.
        values: the values to insert.
        side: ``"left"`` gives the first suitable index, ``"right"`` the last.

    Returns:
        An int32 tensor of insertion indices, shaped like `values`.

    Example:

    >>> from mb_ops import ops
    >>> seq = ops.convert_to_tensor([1, 3, 5, 7])
    >>> ops.convert_to_numpy(ops.searchsorted(seq, ops.convert_to_tensor([0, 3, 6, 9]))).tolist()
    [0, 1, 3, 4]
    >>> v = ops.convert_to_tensor([3])
    >>> ops.convert_to_numpy(ops.searchsorted(seq, v, side="right")).tolist()
    [2]
    """


def _digitize_spec(op_name: str, x: Any, bins: Any) -> Any:
    return tensor(shape_of(x), "int32")


@op(_digitize_spec)
def digitize(x, bins):
    """Indices of the bins each value belongs to.

    Args:
        x: the values to place.
        bins: a sorted 1D tensor of bin edges.

    Returns:
        An int32 tensor: for each value, ``i`` with ``bins[i-1] <= x < bins[i]`` (increasing bins).

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([0.5, 1.0, 2.5, 4.0])
    >>> bins = ops.convert_to_tensor([1.0, 2.0, 3.0])
    >>> ops.convert_to_numpy(ops.digitize(x, bins)).tolist()
    [0, 1, 2, 3]
    """


def _isin_spec(op_name: str, x1: Any, x2: Any, assume_unique=False, invert=False) -> Any:
    return tensor(shape_of(x1), "bool")


@op(_isin_spec)
def isin(x1, x2, assume_unique=False, invert=False):
    """Whether each element of ``x1`` is in ``x2``.

    Args:
        x1: the values to test.
        x2: the values to look for.
        assume_unique: whether both inputs are known to hold unique values (a speed hint).
        invert: return whether each element is *not* in `x2`.

    Returns:
        A bool tensor shaped like `x1`.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1, 2, 3, 4])
    >>> ops.convert_to_numpy(ops.isin(x, ops.convert_to_tensor([2, 4, 6]))).tolist()
    [False, True, False, True]
    >>> ops.convert_to_numpy(ops.isin(x, ops.convert_to_tensor([2, 4, 6]), invert=True)).tolist()
    [True, False, True, False]
    """


def _index_shape(op_name: str, shape: tuple[Any, ...], key: Any) -> tuple[Any, ...]:
    if not isinstance(key, tuple):
        key = (key,)
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis and not _is_bool_mask(k))
    n_real += sum(len(shape_of(k)) for k in key if _is_bool_mask(k))
    if any(k is Ellipsis for k in key):
        i = next(i for i, k in enumerate(key) if k is Ellipsis)
        fill = (slice(None),) * (len(shape) - n_real)
        key = key[:i] + fill + key[i + 1 :]
    elif n_real > len(shape):
        raise IndexError(
            f"{op_name}: too many indices ({n_real}) for a tensor of shape {fmt(shape)}."
        )
    out: list[Any] = []
    dim = 0
    advanced: list[Any] = []
    for k in key:
        if k is None:
            out.append(1)
            continue
        if dim >= len(shape):
            raise IndexError(f"{op_name}: too many indices for a tensor of shape {fmt(shape)}.")
        size = shape[dim]
        if isinstance(k, slice):
            if size is None:
                out.append(None)
            else:
                out.append(len(range(*k.indices(size))))
            dim += 1
        elif as_int_or_none(k) is not None and not hasattr(k, "shape"):
            i = as_int_or_none(k)
            if size is not None and not -size <= i < size:
                raise IndexError(
                    f"{op_name}: index {i} is out of bounds for axis {dim} of size {size} "
                    f"(shape {fmt(shape)})."
                )
            dim += 1
        elif _is_bool_mask(k):
            mask_ndim = len(shape_of(k))
            advanced.append((None,))
            out.append("adv")
            dim += mask_ndim
        else:
            k_shape = shape_of(k)
            if k_shape == () and not isinstance(k, (list, tuple)):
                dim += 1
                continue
            advanced.append(k_shape)
            out.append("adv")
            dim += 1
    out.extend(shape[dim:])
    if advanced:
        adv_shape = broadcast_shapes(op_name, *advanced)
        first = out.index("adv")
        out = [d for d in out if d != "adv"]
        out[first:first] = list(adv_shape)
    return tuple(out)


def _is_bool_mask(k: Any) -> bool:
    dtype = getattr(k, "dtype", None)
    return dtype is not None and _dtypes.standardize_dtype(dtype) == "bool"


def _get_item_spec(op_name: str, x: Any, key: Any) -> Any:
    return tensor(_index_shape(op_name, shape_of(x), key), std_dtype(x))


def _get_item(x: Any, key: Any) -> Any:
    value = getattr(x, "value", None) if hasattr(x, "_direct_assign") else None
    return (x if value is None else value)[key]


@op(_get_item_spec, impl=_get_item)
def get_item(x, key):
    """``x[key]``: basic and advanced indexing.

    Args:
        x: a tensor.
        key: an int, slice, ``None``, ``Ellipsis``, int or bool tensor, or a tuple of these.

    Returns:
        ``x[key]``, with numpy's indexing semantics.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 2, 3], [4, 5, 6]])
    >>> ops.convert_to_numpy(ops.get_item(x, 1)).tolist()
    [4, 5, 6]
    >>> ops.convert_to_numpy(ops.get_item(x, (slice(None), slice(1, None)))).tolist()
    [[2, 3], [5, 6]]
    >>> mask = ops.convert_to_tensor([[True, False, True], [False, True, False]])
    >>> ops.convert_to_numpy(ops.get_item(x, mask)).tolist()
    [1, 3, 5]
    """


def _vectorize_spec(op_name: str, *args: Any) -> Any:
    raise NotImplementedError(f"{op_name} returns a function; call that function instead.")


def _vectorize_impl(pyfunc: Any, *, excluded: Any = None, signature: Any = None) -> Any:
    return resolve_backend_function("numpy", "vectorize")(
        pyfunc, excluded=excluded, signature=signature
    )


@op(_vectorize_spec, impl=_vectorize_impl)
def vectorize(pyfunc, *, excluded=None, signature=None):
    """Turn a function on tensors into one that maps over leading axes.

    Args:
        pyfunc: the function to vectorize.
        excluded: positions or names of arguments passed through unchanged.
        signature: a generalized-ufunc signature such as ``"(n)->()"``.

    Returns:
        A function that applies `pyfunc` at each position (or each core slice, with `signature`) of
        its broadcast inputs.

    Example:

    >>> from mb_ops import ops
    >>> f = ops.vectorize(lambda a, b: a * b + 1)
    >>> a = ops.convert_to_tensor([1, 2, 3])
    >>> ops.convert_to_numpy(f(a, ops.convert_to_tensor([4, 5, 6]))).tolist()
    [5, 11, 19]
    >>> row_max = ops.vectorize(lambda v: ops.max(v), signature="(n)->()")
    >>> m = ops.convert_to_tensor([[1, 5, 2], [7, 3, 4]])
    >>> ops.convert_to_numpy(row_max(m)).tolist()
    [5, 7]
    """
