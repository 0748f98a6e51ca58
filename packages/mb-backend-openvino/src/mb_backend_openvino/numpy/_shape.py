"""Changing shape and layout: reshape, transpose, axes, squeeze, broadcast, flips, rolls,
tiling, views and copies."""

import numpy as np

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._engine import NeedsStaticShape
from mb_backend_openvino._graph import (
    canonical_axes,
    canonical_axis,
    const,
    cv,
    i64,
    opset,
    rank,
    run,
)
from mb_backend_openvino.numpy._common import floor_divide_node
from mb_backend_openvino.numpy._creation import _dtype

_INT64_MIN = np.iinfo(np.int64).min


def known_dim(x, axis):
    """``x.shape[axis]`` as an int (traced tensors need it static)."""
    d = x.shape[axis]
    if d is None:
        raise NeedsStaticShape(f"the op needs the size of axis {axis}, unknown while tracing")
    return d


def slice_axis(node, axis, start, stop, step=1):
    """``node[..., start:stop:step, ...]`` along one axis (Python slice bounds)."""
    if stop is None:
        stop = _INT64_MIN if step < 0 else np.iinfo(np.int64).max
    if start is None:
        start = -1 if step < 0 else 0
    return opset.slice(node, i64([start]), i64([stop]), i64([step]), i64([axis])).output(0)


def reshape(x, newshape):
    x = to_tensor(x)
    if isinstance(newshape, int | np.integer):
        newshape = (int(newshape),)
    target = tuple(int(d) for d in newshape)
    if target.count(-1) > 1:
        raise ValueError(f"reshape: at most one -1 is allowed in newshape, received {target}.")
    size = x.size if None not in x.shape else None
    known = int(np.prod([d for d in target if d != -1]))
    if size is not None and -1 not in target and known != size:
        raise ValueError(
            f"Cannot reshape a tensor of shape {x.shape} ({size} elements) into shape {target}."
        )
    return run(("reshape", target), lambda a: opset.reshape(a, i64(list(target)), False), x)


def ravel(x):
    return reshape(x, (-1,))


def transpose(x, axes=None):
    x = to_tensor(x)
    nd = x.ndim
    perm = (
        tuple(range(nd))[::-1]
        if axes is None
        else tuple(canonical_axis(a, nd, "transpose") for a in axes)
    )
    if sorted(perm) != list(range(nd)):
        raise ValueError(f"transpose: axes {axes} are not a permutation of the {nd} axes of x.")
    if perm == tuple(range(nd)):
        return x
    return run(("transpose", perm), lambda a: opset.transpose(a, i64(list(perm))), x)


def moveaxis(x, source, destination):
    x = to_tensor(x)
    nd = x.ndim
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    src = [canonical_axis(a, nd, "moveaxis") for a in src]
    dst = [canonical_axis(a, nd, "moveaxis") for a in dst]
    if len(src) != len(dst):
        raise ValueError("moveaxis: source and destination need the same number of axes.")
    order = [a for a in range(nd) if a not in src]
    for d, s in sorted(zip(dst, src, strict=True)):
        order.insert(d, s)
    return transpose(x, order)


def swapaxes(x, axis1, axis2):
    x = to_tensor(x)
    perm = list(range(x.ndim))
    a, b = canonical_axis(axis1, x.ndim, "swapaxes"), canonical_axis(axis2, x.ndim, "swapaxes")
    perm[a], perm[b] = perm[b], perm[a]
    return transpose(x, perm)


def expand_dims(x, axis):
    x = to_tensor(x)
    axes = [axis] if isinstance(axis, int | np.integer) else list(axis)
    out_rank = x.ndim + len(axes)
    axes = sorted(canonical_axis(a, out_rank, "expand_dims") for a in axes)
    return run(("expand_dims", tuple(axes)), lambda a: opset.unsqueeze(a, i64(axes)), x)


def squeeze(x, axis=None):
    x = to_tensor(x)
    if axis is None:
        axes = tuple(i for i, d in enumerate(x.shape) if d == 1)
        if None in x.shape:
            raise NeedsStaticShape("squeeze(axis=None) needs static dims")
    else:
        axes = canonical_axes(axis, x.ndim, "squeeze")
        for a in axes:
            if x.shape[a] not in (1, None):
                raise ValueError(
                    f"squeeze cannot remove axis {a} of size {x.shape[a]} (shape {x.shape}). "
                    "Only axes of size 1 can be squeezed."
                )
    if not axes:
        return x
    return run(("squeeze", axes), lambda a: opset.squeeze(a, i64(list(axes))), x)


def broadcast_to(x, shape):
    x = to_tensor(x)
    target = tuple(int(d) for d in shape)
    if tuple(x.shape) == target:
        # Nothing to broadcast; OpenVINO's Broadcast to a rank-0 shape (an empty shape
        # constant) crashes its compiler, so a scalar to () must not reach it.
        return x
    if len(target) < len(x.shape):
        raise ValueError(
            f"broadcast_to cannot broadcast shape {tuple(x.shape)} to the lower-rank shape "
            f"{target}. Pass a shape of rank {len(x.shape)} or more."
        )
    return run(("broadcast_to", target), lambda a: opset.broadcast(a, i64(list(target))), x)


def ndim(x):
    return to_tensor(x).ndim


def size(x):
    return to_tensor(x).size


def tile(x, repeats):
    x = to_tensor(x)
    reps = [int(repeats)] if isinstance(repeats, int | np.integer) else [int(r) for r in repeats]
    nd = max(x.ndim, len(reps))
    reps = [1] * (nd - len(reps)) + reps
    lead = nd - x.ndim

    def build(a):
        if lead:
            a = opset.unsqueeze(a, i64(list(range(lead)))).output(0)
        return opset.tile(a, i64(reps))

    return run(("tile", tuple(reps)), build, x)


def repeat(x, repeats, axis=None):
    x = to_tensor(x)
    flatten = axis is None
    ax = 0 if flatten else canonical_axis(axis, x.ndim, "repeat")
    if isinstance(repeats, int | np.integer) or getattr(repeats, "ndim", np.ndim(repeats)) == 0:
        r = int(repeats)

        def build(a):
            if flatten:
                a = opset.reshape(a, i64([-1]), False).output(0)
            nd = rank(a)
            expanded = opset.unsqueeze(a, i64([ax + 1]))
            tiles = [1] * (nd + 1)
            tiles[ax + 1] = r
            tiled = opset.tile(expanded, i64(tiles))
            shape = opset.shape_of(a, "i64")
            new_dim = opset.multiply(opset.gather(shape, i64([ax]), i64(0)), i64([r]))
            target = opset.scatter_update(shape, i64([ax]), new_dim, i64(0))
            return opset.reshape(tiled, target, False)

        return run(("repeat", None if flatten else ax, r), build, x)
    reps = to_tensor(repeats)

    def build_var(a, counts):
        if flatten:
            a = opset.reshape(a, i64([-1]), False).output(0)
        counts = cv(counts, "int32")
        n = opset.gather(opset.shape_of(a, "i32"), i64([ax]), i64(0))
        counts = opset.broadcast(opset.reshape(counts, i64([-1]), False), n)
        ends = opset.cumsum(counts, i64(0))
        total = opset.squeeze(opset.gather(ends, i64([-1]), i64(0)), i64([0]))
        positions = opset.range(
            opset.constant(np.int32(0)), total, opset.constant(np.int32(1)), "i32"
        )
        index = opset.search_sorted(ends, positions, right_mode=True)
        return opset.gather(a, index, i64(ax))

    return run(("repeat_var", None if flatten else ax), build_var, x, reps)


def flip(x, axis=None):
    x = to_tensor(x)
    axes = canonical_axes(axis, x.ndim, "flip")

    def build(a):
        for ax in axes:
            a = slice_axis(a, ax, -1, None, -1)
        return a

    return run(("flip", axes), build, x) if axes else x


def fliplr(x):
    return flip(x, 1)


def flipud(x):
    return flip(x, 0)


def rot90(array, k=1, axes=(0, 1)):
    array = to_tensor(array)
    if array.ndim < 2:
        raise ValueError(
            f"rot90 expects an input of rank 2 or more. Received: shape {array.shape}."
        )
    if len(axes) != 2 or canonical_axis(axes[0], array.ndim) == canonical_axis(axes[1], array.ndim):
        raise ValueError(f"rot90 expects `axes` to name two different axes. Received: {axes}.")
    a0, a1 = canonical_axis(axes[0], array.ndim), canonical_axis(axes[1], array.ndim)
    k = int(k) % 4
    if k == 0:
        return array
    if k == 2:
        return flip(flip(array, a0), a1)
    perm = list(range(array.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return transpose(flip(array, a1), perm)
    return flip(transpose(array, perm), a1)


def roll(x, shift, axis=None):
    x = to_tensor(x)
    if axis is None:
        flat = ravel(x)
        shifts = [int(shift)] if isinstance(shift, int | np.integer) else [int(np.sum(shift))]
        out = run(
            ("roll", (0,), tuple(shifts)), lambda a: opset.roll(a, i64(shifts), i64([0])), flat
        )
        return reshape(out, x.shape)
    axes = [axis] if isinstance(axis, int | np.integer) else list(axis)
    shifts = (
        [int(shift)] * len(axes) if isinstance(shift, int | np.integer) else [int(s) for s in shift]
    )
    axes = [canonical_axis(a, x.ndim, "roll") for a in axes]
    return run(
        ("roll", tuple(axes), tuple(shifts)), lambda a: opset.roll(a, i64(shifts), i64(axes)), x
    )


def copy(x):
    """Tensors are immutable: a copy is the same tensor."""
    return to_tensor(x)


def view(x, dtype=None):
    x = to_tensor(x)
    if dtype is None or _dtype(dtype) == x.dtype:
        return x
    raise NotImplementedError(
        f"view is not supported on the openvino backend for a change of dtype "
        f"({x.dtype} -> {_dtype(dtype)}): OpenVINO has no bit-cast between element types."
    )


def nonzero(x):
    x = to_tensor(x)
    nd = x.ndim

    def build(a):
        found = opset.non_zero(cv(a, "bool") if a.get_element_type().is_real() else a, "i32")
        if nd == 0:
            return [found.output(0)]
        parts = opset.split(found, i64(0), nd)
        return [opset.squeeze(p, i64([0])).output(0) for p in parts.outputs()]

    out = run(("nonzero", nd), build, x)
    return out if isinstance(out, tuple) else (out,)


def unravel_index(indices, shape):
    indices = to_tensor(indices)
    dtype = _dtypes.result_type(indices.dtype)
    dims = [int(d) for d in shape]

    def build(idx):
        idx = cv(idx, dtype)
        outs = []
        stride = 1
        strides = []
        for d in reversed(dims):
            strides.append(stride)
            stride *= d
        strides.reverse()
        for d, s in zip(dims, strides, strict=True):
            q = floor_divide_node(idx, const(s, dtype))
            outs.append(opset.floor_mod(q, const(d, dtype)).output(0))
        return outs

    out = run(("unravel_index", tuple(dims), dtype), build, indices)
    return out if isinstance(out, tuple) else (out,)
