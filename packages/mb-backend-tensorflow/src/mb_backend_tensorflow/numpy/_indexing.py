"""Selecting and searching: where, select, take, pad, unique, searchsorted, digitize, isin."""

import numpy as np
import tensorflow as tf

from mb_backend_tensorflow.numpy._common import canonical_axis, dt, promote, tensor
from mb_backend_tensorflow.numpy._shape import nonzero
from mb_ops import numpy_shaped


def take(x, indices, axis=None):
    x = tensor(x)
    if axis is None:
        x = tf.reshape(x, [-1])
        axis = 0
    axis = canonical_axis(axis, x.shape.rank)
    indices = tensor(indices)
    if not indices.dtype.is_integer:
        indices = tf.cast(indices, "int32")
    n = tf.cast(tf.shape(x)[axis], indices.dtype)
    indices = tf.where(indices < 0, indices + n, indices)
    return tf.gather(x, indices, axis=axis)


def take_along_axis(x, indices, axis=None):
    x = tensor(x)
    indices = tensor(indices, "int64")
    if axis is None:
        if indices.shape.rank != 1:
            raise ValueError(
                "take_along_axis with axis=None needs 1-D indices. "
                f"Received indices of shape {indices.shape.as_list()}."
            )
        x, axis = tf.reshape(x, [-1]), 0
    rank = x.shape.rank
    if indices.shape.rank != rank:
        raise ValueError(
            "take_along_axis needs x and indices of the same rank. Received shapes "
            f"{x.shape.as_list()} and {indices.shape.as_list()}."
        )
    axis = canonical_axis(axis, rank)
    n = tf.shape(x, out_type="int64")[axis]
    indices = tf.where(indices < 0, indices + n, indices)
    # Broadcast every axis but `axis` between x and indices.
    x_shape, i_shape = tf.shape(x, out_type="int64"), tf.shape(indices, out_type="int64")
    ones = tf.ones([1], "int64")
    x_b = tf.concat([x_shape[:axis], ones, x_shape[axis + 1 :]], 0)
    i_b = tf.concat([i_shape[:axis], ones, i_shape[axis + 1 :]], 0)
    common = tf.broadcast_dynamic_shape(x_b, i_b)
    x = tf.broadcast_to(
        x, tf.concat([common[:axis], x_shape[axis : axis + 1], common[axis + 1 :]], 0)
    )
    indices = tf.broadcast_to(
        indices, tf.concat([common[:axis], i_shape[axis : axis + 1], common[axis + 1 :]], 0)
    )
    x = tf.experimental.numpy.moveaxis(x, axis, -1)
    indices = tf.experimental.numpy.moveaxis(indices, axis, -1)
    out = tf.gather(x, indices, axis=-1, batch_dims=rank - 1)
    return tf.experimental.numpy.moveaxis(out, -1, axis)


def where(condition, x1=None, x2=None):
    condition = tf.cast(tensor(condition), "bool")
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError("where needs both x1 and x2, or neither (to get the nonzero indices).")
    (x1, x2), _ = promote(x1, x2)
    return tf.where(condition, x1, x2)


def searchsorted(sorted_sequence, values, side="left"):
    sorted_sequence = tensor(sorted_sequence)
    if sorted_sequence.shape.rank != 1:
        raise ValueError(
            "searchsorted needs a 1-D sorted_sequence (use vectorized_map for N-D). "
            f"Received shape {sorted_sequence.shape.as_list()}."
        )
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted got side={side!r}. Expected 'left' or 'right'.")
    (sorted_sequence, values), _ = promote(sorted_sequence, values)
    flat = tf.reshape(values, [1, -1])
    out = tf.searchsorted(sorted_sequence[None, :], flat, side=side, out_type="int32")
    return tf.reshape(out, tf.shape(values))


def digitize(x, bins):
    x = tensor(x)
    bins = tensor(bins)
    (x, bins), _ = promote(x, bins)
    if dt(x) in ("bool", "int8", "int16", "uint8", "uint16"):
        x, bins = tf.cast(x, "int32"), tf.cast(bins, "int32")
    elif dt(x) in ("bfloat16", "float16"):
        x, bins = tf.cast(x, "float32"), tf.cast(bins, "float32")
    flat = tf.reshape(x, [1, -1])
    out = tf.searchsorted(bins[None, :], flat, side="right", out_type="int32")
    return tf.reshape(out, tf.shape(x))


def select(condlist, choicelist, default=0):
    if len(condlist) != len(choicelist):
        raise ValueError(
            "select needs as many conditions as choices. Received "
            f"{len(condlist)} conditions and {len(choicelist)} choices."
        )
    choices, _ = promote(*choicelist, default)
    out = choices[-1]
    for cond, choice in zip(reversed(condlist), reversed(choices[:-1]), strict=True):
        cond = tf.cast(tensor(cond), "bool")
        out = tf.where(cond, choice, out)
    return out


def _sortable(x):
    if dt(x) == "bool":
        return tf.cast(x, "uint8")
    if dt(x) in ("int8", "int16", "uint16", "uint32"):
        return tf.cast(x, "int64")
    return x


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
    x = tensor(x)
    shape = tf.shape(x)
    if axis is None:
        flat = tf.reshape(x, [-1])
        values, inverse, counts = tf.unique_with_counts(flat, out_idx="int32")
        n = tf.shape(flat)[0]
        axis = 0
    else:
        axis = canonical_axis(axis, x.shape.rank)
        values, inverse, counts = tf.raw_ops.UniqueWithCountsV2(x=x, axis=[axis], out_idx="int32")
        n = shape[axis]
    num = tf.shape(values)[axis]
    first = tf.math.unsorted_segment_min(tf.range(n, dtype="int32"), inverse, num)
    if sorted:
        if values.shape.rank == 1:
            order = tf.argsort(_sortable(values), stable=True)
        else:
            # Lexicographic order of the slices along `axis`.
            moved = tf.reshape(tf.experimental.numpy.moveaxis(values, axis, 0), [num, -1])
            order = tf.range(num)
            for col in reversed(range(moved.shape[1] or 0)):
                keys = tf.gather(_sortable(moved[:, col]), order)
                order = tf.gather(order, tf.argsort(keys, stable=True))
        rank_of = tf.math.invert_permutation(order)
        values = tf.gather(values, order, axis=axis)
        counts = tf.gather(counts, order)
        first = tf.gather(first, order)
        inverse = tf.gather(rank_of, inverse)
    if size is not None:
        pad = size - tf.shape(values)[axis]
        fill = tf.cast(fill_value if fill_value is not None else 0, values.dtype)
        paddings = [[0, 0]] * values.shape.rank
        paddings[axis] = [0, tf.maximum(pad, 0)]
        values = tf.pad(values, paddings, constant_values=fill)
        values = tf.gather(values, tf.range(size), axis=axis)
        counts = tf.pad(counts, [[0, tf.maximum(pad, 0)]])[:size]
        first = tf.pad(first, [[0, tf.maximum(pad, 0)]])[:size]
    outputs = [values]
    if return_index:
        outputs.append(first)
    if return_inverse:
        if values.shape.rank == 1 and x.shape.rank > 1 and axis == 0 and x.shape.rank:
            inverse = tf.reshape(inverse, shape) if x.shape.rank else inverse
        outputs.append(inverse)
    if return_counts:
        outputs.append(counts)
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


def vectorize(pyfunc, *, excluded=None, signature=None):
    """``pyfunc`` broadcast over its inputs' leading axes (NumPy's ``vectorize``)."""
    excluded = set(excluded or ())

    def wrapped(*args, **kwargs):
        kept = [i for i in range(len(args)) if i not in excluded]
        tensors = [tensor(args[i]) for i in kept]
        if signature is None:
            core = [()] * len(tensors)
        else:
            core = numpy_shaped.parse_gufunc_signature(signature)[0]
        batch_shapes = [
            tf.shape(t)[: t.shape.rank - len(c)] for t, c in zip(tensors, core, strict=True)
        ]
        batch = batch_shapes[0]
        for s in batch_shapes[1:]:
            batch = tf.broadcast_dynamic_shape(batch, s)
        flat = []
        for t, c in zip(tensors, core, strict=True):
            core_shape = tf.shape(t)[t.shape.rank - len(c) :]
            t = tf.broadcast_to(t, tf.concat([batch, core_shape], 0))
            flat.append(tf.reshape(t, tf.concat([[-1], core_shape], 0)))

        def call(elems):
            full = list(args)
            for i, e in zip(kept, elems, strict=True):
                full[i] = e
            return pyfunc(*full, **kwargs)

        out = tf.map_fn(
            call,
            tuple(flat),
            fn_output_signature=_output_signature(call, flat),
        )

        def unflatten(o):
            return tf.reshape(o, tf.concat([batch, tf.shape(o)[1:]], 0))

        return tf.nest.map_structure(unflatten, out)

    return wrapped


def _output_signature(call, flat):
    sample = call(tuple(f[0] for f in flat))
    return tf.nest.map_structure(lambda s: tf.TensorSpec(s.shape, s.dtype), sample)


def isin(x1, x2, assume_unique=False, invert=False):
    (x1, x2), _ = promote(x1, x2)
    flat2 = tf.reshape(x2, [-1])
    hits = tf.reduce_any(tf.equal(tf.expand_dims(x1, -1), flat2), axis=-1)
    return tf.logical_not(hits) if invert else hits


def pad(x, pad_width, mode="constant", constant_values=None):
    x = tensor(x)
    pad_width = np.broadcast_to(np.asarray(pad_width, dtype="int64"), (x.shape.rank, 2))
    mode = mode.lower()
    if mode == "constant":
        value = 0 if constant_values is None else constant_values
        return tf.pad(x, pad_width, mode="CONSTANT", constant_values=tf.cast(value, x.dtype))
    if constant_values is not None:
        raise ValueError(
            f"pad accepts constant_values only with mode='constant'. Received mode={mode!r}."
        )
    if mode in ("reflect", "symmetric"):
        return tf.pad(x, pad_width, mode=mode.upper())
    if mode in ("edge", "wrap"):
        return _pad_gather(x, pad_width, mode)
    raise ValueError(
        f"pad got mode={mode!r}. Expected 'constant', 'reflect', 'symmetric', 'edge' or 'wrap'."
    )


def _pad_gather(x, pad_width, mode):
    for axis, (before, after) in enumerate(pad_width):
        if before == 0 and after == 0:
            continue
        n = tf.shape(x)[axis]
        idx = tf.range(-int(before), n + int(after))
        idx = tf.clip_by_value(idx, 0, n - 1) if mode == "edge" else tf.math.floormod(idx, n)
        x = tf.gather(x, idx, axis=axis)
    return x
