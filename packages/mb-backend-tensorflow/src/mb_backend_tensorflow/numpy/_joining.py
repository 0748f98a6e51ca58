"""Joining and splitting tensors: concatenate, stack, hstack/vstack/dstack, append and
split, array_split, hsplit/vsplit/dsplit."""

import itertools

import tensorflow as tf

from mb_backend_tensorflow.numpy._common import canonical_axis, promote, tensor


def _joinable(xs):
    tensors, _ = promote(*xs)
    return tensors


def concatenate(xs, axis=0):
    xs = _joinable(xs)
    if axis is None:
        xs = [tf.reshape(x, [-1]) for x in xs]
        axis = 0
    return tf.concat(xs, axis=axis)


def append(x1, x2, axis=None):
    x1, x2 = _joinable([x1, x2])
    if axis is None:
        return tf.concat([tf.reshape(x1, [-1]), tf.reshape(x2, [-1])], axis=0)
    return tf.concat([x1, x2], axis=axis)


def stack(x, axis=0):
    return tf.stack(_joinable(x), axis=axis)


def hstack(xs):
    xs = _joinable(xs)
    if xs[0].shape.rank == 1:
        return tf.concat(xs, axis=0)
    return tf.concat(xs, axis=1)


def vstack(xs):
    xs = [tf.reshape(x, [1, -1]) if x.shape.rank < 2 else x for x in _joinable(xs)]
    return tf.concat(xs, axis=0)


def dstack(xs):
    out = []
    for x in _joinable(xs):
        if x.shape.rank == 0:
            x = tf.reshape(x, [1, 1, 1])
        elif x.shape.rank == 1:
            x = tf.reshape(x, [1, -1, 1])
        elif x.shape.rank == 2:
            x = tf.expand_dims(x, -1)
        out.append(x)
    return tf.concat(out, axis=2)


def _split_sizes(n, indices_or_sections, strict):
    if isinstance(indices_or_sections, int):
        sections = indices_or_sections
        if strict and n % sections:
            raise ValueError(
                f"split cannot divide an axis of length {n} into {sections} equal sections. "
                "Use array_split for unequal sections."
            )
        base, extra = divmod(n, sections)
        return [base + 1] * extra + [base] * (sections - extra)
    bounds = [0] + [min(max(int(i), 0), n) for i in indices_or_sections] + [n]
    return [max(b - a, 0) for a, b in itertools.pairwise(bounds)]


def split(x, indices_or_sections, axis=0):
    x = tensor(x)
    axis = canonical_axis(axis, x.shape.rank)
    n = x.shape[axis]
    if n is not None:
        return tf.split(x, _split_sizes(n, indices_or_sections, strict=True), axis=axis)
    if isinstance(indices_or_sections, int):
        return tf.split(x, indices_or_sections, axis=axis)
    # Unknown length (inside tf.function): sizes from the run-time length.
    n = tf.shape(x)[axis]
    bounds = [tf.clip_by_value(tf.constant(int(i)), 0, n) for i in indices_or_sections]
    bounds = [tf.constant(0), *bounds, n]
    sizes = tf.stack([tf.maximum(b - a, 0) for a, b in itertools.pairwise(bounds)])
    return tf.split(x, sizes, num=len(bounds) - 1, axis=axis)


def array_split(x, indices_or_sections, axis=0):
    x = tensor(x)
    axis = canonical_axis(axis, x.shape.rank)
    return tf.split(x, _split_sizes(x.shape[axis], indices_or_sections, strict=False), axis=axis)


def hsplit(x, indices_or_sections):
    x = tensor(x)
    return split(x, indices_or_sections, axis=0 if x.shape.rank == 1 else 1)


def vsplit(x, indices_or_sections):
    return split(x, indices_or_sections, axis=0)


def dsplit(x, indices_or_sections):
    return split(x, indices_or_sections, axis=2)
