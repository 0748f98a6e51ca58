"""Joining and splitting tensors: concatenate, stack, hstack/vstack/dstack, append and
split, array_split, hsplit/vsplit/dsplit."""

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy.numpy._common import promote, stack_dtype


def concatenate(xs, axis=0):
    return np.concatenate(stack_dtype(xs), axis=axis)


def stack(x, axis=0):
    return np.stack(stack_dtype(x), axis=axis)


def hstack(xs):
    return np.hstack(stack_dtype(xs))


def vstack(xs):
    return np.vstack(stack_dtype(xs))


def dstack(xs):
    return np.dstack(stack_dtype(xs))


def append(x1, x2, axis=None):
    (x1, x2), _ = promote(to_tensor(x1), to_tensor(x2))
    return np.append(x1, x2, axis=axis)


def _sections(indices_or_sections):
    if isinstance(indices_or_sections, int | np.integer):
        return int(indices_or_sections)
    return [int(i) for i in np.asarray(to_tensor(indices_or_sections)).tolist()]


def split(x, indices_or_sections, axis=0):
    return np.split(to_tensor(x), _sections(indices_or_sections), axis=axis)


def array_split(x, indices_or_sections, axis=0):
    return np.array_split(to_tensor(x), _sections(indices_or_sections), axis=axis)


def hsplit(x, indices_or_sections):
    return np.hsplit(to_tensor(x), _sections(indices_or_sections))


def vsplit(x, indices_or_sections):
    return np.vsplit(to_tensor(x), _sections(indices_or_sections))


def dsplit(x, indices_or_sections):
    return np.dsplit(to_tensor(x), _sections(indices_or_sections))
