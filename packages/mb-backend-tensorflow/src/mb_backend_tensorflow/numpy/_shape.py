"""Changing shape and layout: reshape, transpose, axes, squeeze, broadcast, flips, rolls,
tiling, views and copies."""

import tensorflow as tf

from mb_backend_tensorflow._dtypes import standardize_dtype
from mb_backend_tensorflow.numpy._common import axes_tuple, canonical_axis, dt, tensor


def reshape(x, newshape):
    x = tensor(x)
    if isinstance(newshape, int):
        newshape = [newshape]
    return tf.reshape(x, newshape)


def ravel(x):
    return tf.reshape(tensor(x), [-1])


def transpose(x, axes=None):
    return tf.transpose(tensor(x), perm=axes)


def moveaxis(x, source, destination):
    x = tensor(x)
    ndim = x.shape.rank
    source = [source] if isinstance(source, int) else list(source)
    destination = [destination] if isinstance(destination, int) else list(destination)
    if len(source) != len(destination):
        raise ValueError(
            "moveaxis needs as many source as destination axes. Received "
            f"source={source}, destination={destination}."
        )
    source = [canonical_axis(a, ndim) for a in source]
    destination = [canonical_axis(a, ndim) for a in destination]
    order = [i for i in range(ndim) if i not in source]
    for dest, src in sorted(zip(destination, source, strict=True)):
        order.insert(dest, src)
    return tf.transpose(x, order)


def swapaxes(x, axis1, axis2):
    x = tensor(x)
    ndim = x.shape.rank
    perm = list(range(ndim))
    a, b = canonical_axis(axis1, ndim), canonical_axis(axis2, ndim)
    perm[a], perm[b] = perm[b], perm[a]
    return tf.transpose(x, perm)


def expand_dims(x, axis):
    x = tensor(x)
    axes = [axis] if isinstance(axis, int) else list(axis)
    out_ndim = x.shape.rank + len(axes)
    for a in sorted(canonical_axis(a, out_ndim) for a in axes):
        x = tf.expand_dims(x, a)
    return x


def squeeze(x, axis=None):
    x = tensor(x)
    if axis is None:
        return tf.squeeze(x)
    axes = axes_tuple(axis, x.shape.rank)
    for a in axes:
        if x.shape[a] is not None and x.shape[a] != 1:
            raise ValueError(
                f"squeeze cannot remove axis {a} of size {x.shape[a]}; only size-1 axes can be "
                f"removed. Received shape {x.shape.as_list()}."
            )
    return tf.squeeze(x, axis=list(axes))


def broadcast_to(x, shape):
    return tf.broadcast_to(tensor(x), shape)


def tile(x, repeats):
    x = tensor(x)
    repeats = [repeats] if isinstance(repeats, int) else list(repeats)
    ndim = x.shape.rank
    if len(repeats) < ndim:
        repeats = [1] * (ndim - len(repeats)) + repeats
    elif len(repeats) > ndim:
        x = tf.reshape(x, [1] * (len(repeats) - ndim) + _static_shape(x))
    return tf.tile(x, repeats)


def _static_shape(x):
    dims = x.shape.as_list()
    if None in dims:
        dyn = tf.shape(x)
        return [dyn[i] if d is None else d for i, d in enumerate(dims)]
    return dims


def repeat(x, repeats, axis=None):
    x = tensor(x)
    if axis is None:
        x = tf.reshape(x, [-1])
        axis = 0
    return tf.repeat(x, repeats, axis=axis)


def flip(x, axis=None):
    x = tensor(x)
    return tf.reverse(x, list(axes_tuple(axis, x.shape.rank)))


def fliplr(x):
    return flip(x, axis=1)


def flipud(x):
    return flip(x, axis=0)


def roll(x, shift, axis=None):
    x = tensor(x)
    if axis is None:
        return tf.reshape(tf.roll(tf.reshape(x, [-1]), shift, axis=0), tf.shape(x))
    return tf.roll(x, shift, axis=axis)


def rot90(array, k=1, axes=(0, 1)):
    x = tensor(array)
    ndim = x.shape.rank
    if ndim < 2:
        raise ValueError(f"rot90 needs a tensor of rank >= 2. Received rank {ndim}.")
    if len(axes) != 2:
        raise ValueError(f"rot90 needs exactly two axes. Received axes={axes}.")
    a, b = canonical_axis(axes[0], ndim), canonical_axis(axes[1], ndim)
    if a == b:
        raise ValueError(f"rot90 needs two different axes. Received axes={axes}.")
    k = k % 4
    if k == 0:
        return x
    if k == 2:
        return tf.reverse(x, [a, b])
    perm = list(range(ndim))
    perm[a], perm[b] = perm[b], perm[a]
    if k == 1:
        return tf.transpose(tf.reverse(x, [b]), perm)
    return tf.reverse(tf.transpose(x, perm), [b])


def ndim(x):
    return tensor(x).shape.rank


def size(x):
    # int64, as the element count is on the other backends (a Python int there, and
    # NumPy's int64); tf.size defaults to int32, which overflows past 2**31 elements.
    return tf.size(tensor(x), out_type=tf.int64)


_BITS = {
    "bool": 8, "int8": 8, "uint8": 8, "int16": 16, "uint16": 16, "float16": 16,
    "bfloat16": 16, "int32": 32, "uint32": 32, "float32": 32, "int64": 64,
    "uint64": 64, "float64": 64, "complex64": 64, "complex128": 128,
}  # fmt: skip


def view(x, dtype=None):
    x = tensor(x)
    if dtype is None:
        return tf.identity(x)
    dtype = standardize_dtype(dtype)
    old, new = _BITS[dt(x)], _BITS[dtype]
    src = tf.cast(x, "uint8") if dt(x) == "bool" else x
    if old == new:
        out = tf.bitcast(src, dtype if dtype != "bool" else "uint8")
    elif old > new:
        out = tf.bitcast(src, dtype if dtype != "bool" else "uint8")
        shape = _static_shape(x)
        out = tf.reshape(out, [*shape[:-1], -1])
    else:
        ratio = new // old
        shape = _static_shape(x)
        grouped = tf.reshape(src, [*shape[:-1], -1, ratio])
        out = tf.bitcast(grouped, dtype if dtype != "bool" else "uint8")
    return tf.cast(out, "bool") if dtype == "bool" else out


def copy(x):
    return tf.identity(tensor(x))


def nonzero(x):
    x = tf.cast(tensor(x), "bool")
    coords = tf.where(x)
    return tuple(tf.cast(coords[:, i], "int32") for i in range(x.shape.rank))


def unravel_index(indices, shape):
    indices = tensor(indices)
    if None in tuple(shape):
        raise ValueError(f"unravel_index needs a fully known shape. Received shape={shape}.")
    coords = []
    for dim in reversed(tuple(shape)):
        coords.append(tf.math.floormod(indices, tf.cast(dim, indices.dtype)))
        indices = tf.math.floordiv(indices, tf.cast(dim, indices.dtype))
    return tuple(reversed(coords))
