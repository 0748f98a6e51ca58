"""Selecting and searching: where, select, take, pad, unique, searchsorted, digitize, isin."""

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy.numpy._common import axis_arg, cast, promote
from mb_ops import numpy_shaped


def where(condition, x1=None, x2=None):
    condition = to_tensor(condition)
    if x1 is None and x2 is None:
        return tuple(cast(i, "int32") for i in np.where(condition))
    if x1 is None or x2 is None:
        raise ValueError(
            "where expects both `x1` and `x2`, or neither. "
            f"Received: x1={'None' if x1 is None else 'a value'}, "
            f"x2={'None' if x2 is None else 'a value'}."
        )
    (x1, x2), _ = promote(x1, x2)
    return np.where(condition, x1, x2)


def select(condlist, choicelist, default=0):
    condlist = [to_tensor(c) for c in condlist]
    choicelist = [to_tensor(c) for c in choicelist]
    return np.select(condlist, choicelist, default=default)


def take(x, indices, axis=None):
    return np.take(to_tensor(x), to_tensor(indices), axis=axis_arg(axis))


def take_along_axis(x, indices, axis=None):
    x, indices = to_tensor(x), to_tensor(indices)
    if axis is not None and indices.ndim == x.ndim:
        # Broadcast the non-indexed axes, as JAX does.
        ax = axis % x.ndim
        shape = np.broadcast_shapes(
            tuple(d for i, d in enumerate(x.shape) if i != ax),
            tuple(d for i, d in enumerate(indices.shape) if i != ax),
        )
        x_shape = list(shape)
        x_shape.insert(ax, x.shape[ax])
        i_shape = list(shape)
        i_shape.insert(ax, indices.shape[ax])
        x = np.broadcast_to(x, x_shape)
        indices = np.broadcast_to(indices, i_shape)
    return np.take_along_axis(x, indices, axis=axis)


def searchsorted(sorted_sequence, values, side="left"):
    sorted_sequence = to_tensor(sorted_sequence)
    if sorted_sequence.ndim != 1:
        raise ValueError(
            "searchsorted supports only 1-D sorted sequences. Received: "
            f"sorted_sequence.shape={sorted_sequence.shape}. Use vectorized_map for N-D inputs."
        )
    out = "int32" if sorted_sequence.shape[0] <= np.iinfo(np.int32).max else "int64"
    return cast(np.searchsorted(sorted_sequence, to_tensor(values), side=side), out)


def digitize(x, bins):
    return cast(np.digitize(to_tensor(x), to_tensor(bins)), "int32")


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
    x = to_tensor(x)
    found = np.unique(
        x,
        return_index=return_index,
        return_inverse=return_inverse,
        return_counts=return_counts,
        axis=axis,
        equal_nan=False,
    )
    outputs = list(found) if (return_index or return_inverse or return_counts) else [found]
    if size is not None:
        outputs = _fix_unique_size(x, outputs, axis, size, fill_value, return_index, return_counts)
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


def _fix_unique_size(x, outputs, axis, size, fill_value, return_index, return_counts):
    values = outputs[0]
    dim = 0 if axis is None else axis % x.ndim
    count = values.shape[dim]
    if count > size:
        window = [slice(None)] * values.ndim
        window[dim] = slice(0, size)
        outputs[0] = values[tuple(window)]
        if return_index:
            outputs[1] = outputs[1][:size]
        if return_counts:
            outputs[-1] = outputs[-1][:size]
    elif count < size:
        widths = [(0, 0)] * values.ndim
        widths[dim] = (0, size - count)
        fill = 0 if fill_value is None else fill_value
        outputs[0] = np.pad(values, widths, constant_values=fill)
        if return_index:
            outputs[1] = np.pad(outputs[1], (0, size - count), constant_values=1)
        if return_counts:
            outputs[-1] = np.pad(outputs[-1], (0, size - count), constant_values=0)
    return outputs


def vectorize(pyfunc, *, excluded=None, signature=None):
    return np.vectorize(pyfunc, excluded=excluded, signature=signature)


def isin(x1, x2, assume_unique=False, invert=False):
    return np.isin(to_tensor(x1), to_tensor(x2), assume_unique=assume_unique, invert=invert)


def pad(x, pad_width, mode="constant", constant_values=None):
    x = to_tensor(x)
    kwargs = numpy_shaped.pad_keywords(mode, constant_values)
    return np.pad(x, np.asarray(pad_width).tolist(), mode=mode, **kwargs)
