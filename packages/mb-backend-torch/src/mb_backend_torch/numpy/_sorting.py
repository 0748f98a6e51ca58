"""Sorting, searching, set membership, ``unique`` and ``vectorize``."""

import re

import torch

from mb_backend_torch.numpy._helpers import canonicalize_axis, promote, t

_BOOL = torch.bool


def sort(x, axis=-1):
    x = t(x)
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    if x.dtype is _BOOL:
        return torch.sort(x.to(torch.uint8), dim=axis, stable=True).values.to(_BOOL)
    return torch.sort(x, dim=axis, stable=True).values


def argsort(x, axis=-1):
    x = t(x)
    if x.dtype is _BOOL:
        x = x.to(torch.uint8)
    if axis is None:
        x = x.reshape(-1)
        axis = 0
    return torch.argsort(x, dim=axis, stable=True).to(torch.int32)


def argpartition(x, kth, axis=-1):
    # A full stable argsort is a valid partition (every element left of kth is
    # <= x[kth] and every element right of it is >=).
    return argsort(x, axis=axis)


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


_DIMS = re.compile(r"\(([^()]*)\)")


def _parse_signature(signature):
    inputs, outputs = signature.replace(" ", "").split("->")
    parse = lambda part: [  # noqa: E731
        tuple(d for d in group.split(",") if d) for group in _DIMS.findall(part)
    ]
    return parse(inputs), parse(outputs)


def vectorize(pyfunc, *, excluded=None, signature=None):
    """``pyfunc`` mapped over the leading (loop) dimensions of its inputs with torch.vmap."""
    excluded = set(excluded or ())
    core_in = None
    if signature is not None:
        core_in, _ = _parse_signature(signature)

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
