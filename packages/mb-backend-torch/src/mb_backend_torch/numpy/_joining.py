"""Joining and splitting tensors: concatenate, stack, hstack/vstack/dstack, append and
split, array_split, hsplit/vsplit/dsplit."""

import torch

from mb_backend_torch.numpy._common import ints, promote, promote_many, t
from mb_ops import numpy_shaped


def _same_dtype(xs):
    xs = [t(x) for x in xs]
    if len({x.dtype for x in xs}) > 1:
        xs = promote_many(*xs)
    return xs


def concatenate(xs, axis=0):
    xs = _same_dtype(xs)
    if axis is None:
        return torch.cat([x.reshape(-1) for x in xs])
    return torch.cat(xs, dim=axis)


def stack(x, axis=0):
    return torch.stack(_same_dtype(x), dim=axis)


def hstack(xs):
    return torch.hstack(_same_dtype(xs))


def vstack(xs):
    return torch.vstack(_same_dtype(xs))


def dstack(xs):
    return torch.dstack(_same_dtype(xs))


def append(x1, x2, axis=None):
    x1, x2 = promote(x1, x2)
    if axis is None:
        return torch.cat((x1.reshape(-1), x2.reshape(-1)))
    return torch.cat((x1, x2), dim=axis)


def split(x, indices_or_sections, axis=0):
    x = t(x)
    size = x.shape[axis]
    if isinstance(indices_or_sections, int):
        if size % indices_or_sections != 0:
            raise ValueError(
                f"split: axis {axis} of size {size} (shape {tuple(x.shape)}) cannot be split "
                f"into {indices_or_sections} equal sections. Use array_split for unequal parts."
            )
        return list(torch.tensor_split(x, indices_or_sections, dim=axis))
    return list(torch.tensor_split(x, ints(indices_or_sections), dim=axis))


def array_split(x, indices_or_sections, axis=0):
    x = t(x)
    if not isinstance(indices_or_sections, int):
        indices_or_sections = ints(indices_or_sections)
    return list(torch.tensor_split(x, indices_or_sections, dim=axis))


hsplit, vsplit, dsplit = numpy_shaped.axis_splits(split, t, "torch")
