"""Selecting and searching: where, select, take, pad, unique, searchsorted, digitize, isin."""

import numpy as np
import torch

from mb_backend_torch.numpy._common import canonicalize_axis, promote, promote_many, t
from mb_ops import numpy_shaped

_BOOL = torch.bool


def searchsorted(sorted_sequence, values, side="left"):
    sorted_sequence = t(sorted_sequence)
    if sorted_sequence.ndim != 1:
        raise ValueError(
            "searchsorted needs a 1-D sorted_sequence. Received shape "
            f"{tuple(sorted_sequence.shape)}; use vectorized_map for N-D sequences."
        )
    sorted_sequence, values = promote(sorted_sequence, values)
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right'. Received {side!r}.")
    return torch.searchsorted(sorted_sequence, values, side=side, out_int32=True)


def digitize(x, bins):
    x = t(x)
    bins = t(bins)
    if x.dtype is _BOOL:
        x = x.to(torch.uint8)
    x, bins = promote(x, bins)
    return torch.bucketize(x, bins, right=True).to(torch.int32)


def isin(x1, x2, assume_unique=False, invert=False):
    x1, x2 = promote(x1, x2)
    if x1.dtype is _BOOL:
        x1, x2 = x1.to(torch.int32), x2.to(torch.int32)
    return torch.isin(x1, x2, assume_unique=assume_unique, invert=invert)


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
    x = t(x)
    values, inverse, counts = torch.unique(
        x, sorted=True, return_inverse=True, return_counts=True, dim=axis
    )
    dim = 0 if axis is None else canonicalize_axis(axis, x.ndim)
    index = None
    if return_index:
        flat_inverse = inverse.reshape(-1)
        positions = torch.arange(flat_inverse.shape[0], device=x.device)
        index = torch.full(
            (values.shape[dim],), flat_inverse.shape[0], device=x.device, dtype=torch.int64
        )
        index = index.scatter_reduce(0, flat_inverse, positions, reduce="amin")
    if size is not None:
        n = values.shape[dim]
        if n >= size:
            values = values.narrow(dim, 0, size)
            counts = counts[:size]
            index = index[:size] if index is not None else None
        else:
            pad_shape = list(values.shape)
            pad_shape[dim] = size - n
            fill = 0 if fill_value is None else fill_value
            values = torch.cat(
                [values, torch.full(pad_shape, fill, dtype=values.dtype, device=values.device)], dim
            )
            counts = torch.cat([counts, counts.new_zeros(size - n)])
            if index is not None:
                index = torch.cat([index, index.new_zeros(size - n)])
    out = [values]
    if return_index:
        out.append(index.to(torch.int32))
    if return_inverse:
        if axis is None:
            inverse = inverse.reshape(x.shape)
        out.append(inverse.to(torch.int32))
    if return_counts:
        out.append(counts.to(torch.int32))
    return out[0] if len(out) == 1 else tuple(out)


def vectorize(pyfunc, *, excluded=None, signature=None):
    """``pyfunc`` mapped over the leading (loop) dimensions of its inputs with torch.vmap."""
    excluded = set(excluded or ())
    core_in = None
    if signature is not None:
        core_in, _ = numpy_shaped.parse_gufunc_signature(signature)

    def wrapped(*args, **kwargs):
        positions = [i for i in range(len(args)) if i not in excluded]
        tensors = [t(args[i]) for i in positions]
        cores = [len(core_in[k]) if core_in else 0 for k in range(len(tensors))]
        loops = [x.shape[: x.ndim - c] for x, c in zip(tensors, cores, strict=True)]
        loop_shape = torch.broadcast_shapes(*loops) if loops else ()
        flat = [
            x.expand(*loop_shape, *x.shape[x.ndim - c :]).reshape(-1, *x.shape[x.ndim - c :])
            for x, c in zip(tensors, cores, strict=True)
        ]

        def call(*inner):
            full = list(args)
            for i, v in zip(positions, inner, strict=True):
                full[i] = v
            return pyfunc(*full, **kwargs)

        out = torch.vmap(call)(*flat)
        if isinstance(out, tuple):
            return tuple(o.reshape(*loop_shape, *o.shape[1:]) for o in out)
        return out.reshape(*loop_shape, *out.shape[1:])

    return wrapped


def _pad_index(n, before, after, mode, device):
    # Source index of every position of the padded axis.
    i = torch.arange(-before, n + after, device=device)
    if mode == "edge":
        return i.clamp(0, n - 1)
    if mode == "wrap":
        return i.remainder(n)
    if mode == "reflect":
        if n == 1:
            return torch.zeros_like(i)
        period = 2 * n - 2
        j = i.remainder(period)
        return torch.where(j < n, j, period - j)
    # symmetric
    period = 2 * n
    j = i.remainder(period)
    return torch.where(j < n, j, period - 1 - j)


_PAD_MODES = ("constant", "edge", "reflect", "symmetric", "wrap")


def pad(x, pad_width, mode="constant", constant_values=None):
    x = t(x)
    widths = np.broadcast_to(
        np.asarray(pad_width, dtype=np.int64).reshape(-1, 2)
        if np.ndim(pad_width)
        else np.asarray([[pad_width] * 2]),
        (x.ndim, 2),
    )
    if mode not in _PAD_MODES:
        raise ValueError(
            f"pad: mode {mode!r} is not supported on the torch backend. "
            f"Expected one of {_PAD_MODES}."
        )
    if constant_values is not None and mode != "constant":
        raise ValueError(
            f"pad: constant_values can only be given with mode='constant'. Received mode={mode!r}."
        )
    if mode == "constant":
        flat = []
        for before, after in reversed(widths.tolist()):
            flat += [before, after]
        value = 0 if constant_values is None else constant_values
        if x.dtype is torch.bool:
            return torch.nn.functional.pad(x.to(torch.uint8), flat, value=value).to(torch.bool)
        return torch.nn.functional.pad(x, flat, mode="constant", value=value)
    for axis, (before, after) in enumerate(widths.tolist()):
        if before or after:
            index = _pad_index(x.shape[axis], before, after, mode, x.device)
            x = torch.index_select(x, axis, index)
    return x


def take(x, indices, axis=None):
    x = t(x)
    indices = t(indices).to(device=x.device, dtype=torch.int64)
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    axis = canonicalize_axis(axis, x.ndim)
    size = x.shape[axis]
    indices = torch.where(indices < 0, indices + size, indices)
    out = torch.index_select(x, axis, indices.reshape(-1))
    return out.reshape(x.shape[:axis] + indices.shape + x.shape[axis + 1 :])


def take_along_axis(x, indices, axis=None):
    x = t(x)
    indices = t(indices).to(device=x.device, dtype=torch.int64)
    if axis is None:
        x = x.reshape(-1)
        indices = indices.reshape(-1)
        axis = 0
    axis = canonicalize_axis(axis, x.ndim)
    size = x.shape[axis]
    indices = torch.where(indices < 0, indices + size, indices)
    # Broadcast every axis but ``axis`` (as numpy does).
    shape_x = list(x.shape)
    shape_i = list(indices.shape)
    shape_x[axis] = 1
    shape_i[axis] = 1
    common = list(torch.broadcast_shapes(tuple(shape_x), tuple(shape_i)))
    x = x.expand([*common[:axis], x.shape[axis], *common[axis + 1 :]])
    indices = indices.expand([*common[:axis], indices.shape[axis], *common[axis + 1 :]])
    return torch.gather(x, axis, indices)


def where(condition, x1=None, x2=None):
    condition = t(condition)
    if condition.dtype is not torch.bool:
        condition = condition.to(torch.bool)
    if x1 is None and x2 is None:
        return tuple(i.to(torch.int32) for i in torch.nonzero(condition, as_tuple=True))
    if x1 is None or x2 is None:
        raise ValueError("where: pass both x1 and x2, or neither.")
    x1, x2 = promote(x1, x2)
    return torch.where(condition, x1, x2)


def select(condlist, choicelist, default=0):
    choices = promote_many(*choicelist, default)
    out = choices[-1]
    for cond, value in zip(reversed(condlist), reversed(choices[:-1]), strict=True):
        out = torch.where(t(cond).to(torch.bool), value, out)
    return out
