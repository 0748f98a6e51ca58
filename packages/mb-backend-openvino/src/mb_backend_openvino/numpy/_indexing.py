"""Selecting and searching: where, select, take, pad, unique, searchsorted, digitize, isin.

``x[key]`` on OpenVINO: basic indexing as one StridedSlice, advanced as a GatherND.

Slice starts and stops are inputs of the compiled model (not part of its key), so
``x[t]`` in a Python loop reuses one model for every ``t``. Integer and boolean
arrays follow NumPy's rules: the indexed dims are replaced by the broadcast index
shape, in place when the advanced indices are adjacent, else in front.
"""

import numpy as np

from mb_backend_openvino._convert import convert_to_numpy, to_tensor
from mb_backend_openvino._graph import (
    canonical_axis,
    const,
    const_like,
    cv,
    i64,
    opset,
    promote,
    rank,
    reshape,
    run,
)
from mb_backend_openvino._tensor import OpenVINOTensor
from mb_backend_openvino.numpy._shape import nonzero
from mb_ops import numpy_shaped


def _is_array(k):
    return isinstance(k, OpenVINOTensor | np.ndarray | list) or (
        hasattr(k, "__array__") and not isinstance(k, int | np.integer | slice)
    )


def _as_int(k):
    if isinstance(k, bool):
        raise TypeError(f"A Python bool cannot index a tensor. Received: {k!r}.")
    if isinstance(k, int | np.integer):
        return int(k)
    return None


def _expand(key, ndim):
    """The key with Ellipsis replaced by full slices; arrays as tensors."""
    if not isinstance(key, tuple):
        key = (key,)
    entries = []
    for k in key:
        if _is_array(k) and not isinstance(k, OpenVINOTensor):
            k = to_tensor(k)
        if (
            isinstance(k, OpenVINOTensor)
            and k.ndim == 0
            and k.dtype != "bool"
            and not k.is_symbolic
        ):
            k = int(k)
        entries.append(k)
    consumed = 0
    for k in entries:
        if k is None or k is Ellipsis:
            continue
        consumed += k.ndim if isinstance(k, OpenVINOTensor) and k.dtype == "bool" else 1
    if sum(k is Ellipsis for k in entries) > 1:
        raise IndexError("An index can only have a single ellipsis ('...').")
    if consumed > ndim:
        raise IndexError(
            f"Too many indices for a tensor of rank {ndim}: the key {key!r} indexes "
            f"{consumed} dimensions."
        )
    fill = [slice(None)] * (ndim - consumed)
    if Ellipsis in [k for k in entries if not isinstance(k, OpenVINOTensor)]:
        i = next(
            j for j, k in enumerate(entries) if k is Ellipsis and not isinstance(k, OpenVINOTensor)
        )
        entries = entries[:i] + fill + entries[i + 1 :]
    else:
        entries = entries + fill
    return entries


def get_item(x, key):
    """``x[key]`` with NumPy's basic and advanced indexing rules."""
    x = to_tensor(x)
    entries = _expand(key, x.ndim)
    has_array = any(isinstance(k, OpenVINOTensor) for k in entries)
    # Basic part: one StridedSlice; advanced entries keep their dims (full slice) for now.
    begin, end, strides = [], [], []
    begin_mask, end_mask, new_axis, shrink = [], [], [], []
    advanced = []  # (position in the sliced result, index tensor)
    in_dim = 0
    out_pos = 0
    for k in entries:
        if k is None:
            begin.append(0), end.append(0), strides.append(1)
            begin_mask.append(1), end_mask.append(1), new_axis.append(1), shrink.append(0)
            out_pos += 1
            continue
        integer = _as_int(k)
        if integer is not None and has_array:
            k = to_tensor(np.asarray(integer, dtype=np.int32))
            integer = None
        if integer is not None:
            n = x.shape[in_dim]
            if n is not None and not -n <= integer < n:
                raise IndexError(
                    f"Index {integer} is out of bounds for axis {in_dim} with size {n}."
                )
            begin.append(integer), end.append(integer + 1)
            strides.append(1)
            begin_mask.append(0), end_mask.append(int(integer == -1))
            new_axis.append(0), shrink.append(1)
            in_dim += 1
            continue
        if isinstance(k, slice):
            step = 1 if k.step is None else int(k.step)
            if step == 0:
                raise ValueError("A slice step cannot be zero.")
            begin.append(0 if k.start is None else int(k.start))
            end.append(0 if k.stop is None else int(k.stop))
            strides.append(step)
            begin_mask.append(int(k.start is None)), end_mask.append(int(k.stop is None))
            new_axis.append(0), shrink.append(0)
            in_dim += 1
            out_pos += 1
            continue
        if isinstance(k, OpenVINOTensor):
            span = k.ndim if k.dtype == "bool" else 1
            for _ in range(span):
                begin.append(0), end.append(0), strides.append(1)
                begin_mask.append(1), end_mask.append(1), new_axis.append(0), shrink.append(0)
            advanced.append((out_pos, k, span))
            in_dim += span
            out_pos += span
            continue
        raise TypeError(
            f"Unsupported index {k!r} of type {type(k).__name__}. Use ints, slices, None, "
            "Ellipsis, or integer/boolean arrays."
        )
    masks = (tuple(begin_mask), tuple(end_mask), tuple(new_axis), tuple(shrink), tuple(strides))
    sliced = (
        any(new_axis)
        or any(shrink)
        or not all(begin_mask)
        or not all(end_mask)
        or any(s != 1 for s in strides)
    )
    if not sliced and not advanced:
        return x
    bounds = to_tensor(np.asarray([begin, end], dtype=np.int64))
    layout = tuple((pos, k.dtype == "bool", span) for pos, k, span in advanced)

    def build(a, b, *indices):
        b_begin = opset.gather(b, i64(0), i64(0))
        b_end = opset.gather(b, i64(1), i64(0))
        if sliced:
            a = opset.strided_slice(
                a,
                b_begin,
                b_end,
                i64(list(strides)),
                list(begin_mask),
                list(end_mask),
                list(new_axis),
                list(shrink),
            ).output(0)
        if not layout:
            return a
        return _advanced(a, layout, indices)

    return run(("get_item", masks, layout), build, x, bounds, *[k for _, k, _ in advanced])


def _advanced(a, layout, indices):
    shape = opset.shape_of(a, "i32")
    positions = []
    index_nodes = []
    for (pos, is_bool, span), idx in zip(layout, indices, strict=True):
        if is_bool:
            found = opset.non_zero(idx, "i32")
            for j in range(span):
                index_nodes.append(opset.gather(found, i64(j), i64(0)).output(0))
                positions.append(pos + j)
        else:
            index_nodes.append(cv(idx, "int32"))
            positions.append(pos)
    nd = rank(a)
    # Negative indices count from the end of their axis.
    fixed = []
    for p, idx in zip(positions, index_nodes, strict=True):
        n = opset.gather(shape, i64(p), i64(0))
        fixed.append(
            opset.select(opset.less(idx, opset.constant(np.int32(0))), opset.add(idx, n), idx)
        )
    # Broadcast all index arrays to one shape and gather the indexed dims at once.
    ref = fixed[0]
    for f in fixed[1:]:
        ref = opset.add(opset.multiply(ref, opset.constant(np.int32(0))), f)
    zero = opset.multiply(ref, opset.constant(np.int32(0)))
    fixed = [opset.add(f, zero) for f in fixed]
    rest = [d for d in range(nd) if d not in positions]
    moved = opset.transpose(a, i64(positions + rest))
    stacked = opset.concat([opset.unsqueeze(f, i64([-1])) for f in fixed], -1).output(0)
    out = opset.gather_nd(moved, stacked, 0).output(0)
    adjacent = positions == list(range(positions[0], positions[0] + len(positions)))
    if adjacent and positions[0] > 0:
        batch = rank(stacked) - 1
        before = positions[0]
        perm = (
            list(range(batch, batch + before))
            + list(range(batch))
            + list(range(batch + before, rank(out)))
        )
        out = opset.transpose(out, i64(perm)).output(0)
    return out


def isin(x1, x2, assume_unique=False, invert=False):
    a, b = to_tensor(x1), to_tensor(x2)
    (a, b), dtype = promote(a, b)

    def build(p, q):
        p, q = cv(p, dtype), cv(q, dtype)
        flat_q = opset.reshape(q, i64([-1]), False)
        # Compare every element with every candidate: x[..., None] == flat_q.
        expanded = opset.unsqueeze(p, i64([-1]))
        hit = opset.reduce_logical_or(opset.equal(expanded, flat_q), i64([-1]), False)
        return opset.logical_not(hit) if invert else hit

    return run(("isin", dtype, bool(invert)), build, a, b)


def where(condition, x1=None, x2=None):
    condition = to_tensor(condition)
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError(
            "where expects both `x1` and `x2`, or neither. "
            f"Received: x1={'None' if x1 is None else 'a value'}, "
            f"x2={'None' if x2 is None else 'a value'}."
        )
    (a, b), dtype = promote(x1, x2)

    def build(c, p, q):
        return opset.select(cv(c, "bool"), cv(p, dtype), cv(q, dtype))

    return run(("where", dtype), build, condition, a, b)


def select(condlist, choicelist, default=0):
    conds = [to_tensor(c) for c in condlist]
    choices, dtype = promote(*choicelist, default)
    n = len(conds)

    def build(*nodes):
        cs, vs = nodes[:n], nodes[n:]
        out = cv(vs[-1], dtype)
        for c, v in zip(reversed(cs), reversed(vs[:-1]), strict=True):
            out = opset.select(cv(c, "bool"), cv(v, dtype), out).output(0)
        return out

    return run(("select", n, dtype), build, *conds, *choices)


def take(x, indices, axis=None):
    x, indices = to_tensor(x), to_tensor(indices)
    flatten = axis is None
    ax = 0 if flatten else canonical_axis(axis, x.ndim, "take")

    def build(a, idx):
        if flatten:
            a = reshape(a, [-1])
        idx = cv(idx, "int32") if not idx.get_element_type().is_integral_number() else idx
        return opset.gather(a, idx, i64(ax))

    return run(("take", None if flatten else ax), build, x, indices)


def take_along_axis(x, indices, axis=None):
    x, indices = to_tensor(x), to_tensor(indices)
    if axis is None:
        return take(reshape_flat(x), indices)
    ax = canonical_axis(axis, x.ndim, "take_along_axis")

    def build(a, idx):
        idx = cv(idx, "int32")
        # Broadcast every other axis, as JAX does; negative indices count from the end.
        sa, si = opset.shape_of(a, "i32"), opset.shape_of(idx, "i32")
        mask = np.zeros(rank(a), dtype=bool)
        mask[ax] = True
        both = opset.maximum(sa, si)
        a_shape = opset.select(opset.constant(mask), sa, both)
        i_shape = opset.select(opset.constant(mask), si, both)
        a = opset.broadcast(a, a_shape)
        idx = opset.broadcast(idx, i_shape)
        n = opset.gather(sa, i64([ax]), i64(0))
        idx = opset.select(opset.less(idx, const_like(0, idx)), opset.add(idx, n), idx)
        return opset.gather_elements(a, idx, ax)

    return run(("take_along_axis", ax), build, x, indices)


def reshape_flat(x):
    return run(("reshape", (-1,)), lambda a: reshape(a, [-1]), x)


def searchsorted(sorted_sequence, values, side="left"):
    sorted_sequence, values = to_tensor(sorted_sequence), to_tensor(values)
    if sorted_sequence.ndim != 1:
        raise ValueError(
            "searchsorted supports only 1-D sorted sequences. Received: "
            f"sorted_sequence.shape={sorted_sequence.shape}. Use vectorized_map for N-D inputs."
        )
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted side must be 'left' or 'right', received {side!r}.")
    (s, v), dtype = promote(sorted_sequence, values)

    def build(p, q):
        found = opset.search_sorted(cv(p, dtype), cv(q, dtype), right_mode=side == "right")
        return cv(found.output(0), "int32")

    return run(("searchsorted", side, dtype), build, s, v)


def digitize(x, bins):
    """Bin indices for increasing ``bins`` (``bins[i-1] <= x < bins[i]``)."""
    x, bins = to_tensor(x), to_tensor(bins)
    (a, b), dtype = promote(x, bins)

    def build(p, q):
        found = opset.search_sorted(cv(q, dtype), cv(p, dtype), right_mode=True)
        return cv(found.output(0), "int32")

    return run(("digitize", dtype), build, a, b)


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
    flatten = axis is None
    ax = 0 if flatten else canonical_axis(axis, x.ndim, "unique")
    fill = 0 if fill_value is None else fill_value
    dtype = x.dtype

    def build(a):
        if flatten:
            a = reshape(a, [-1])
        found = opset.unique(
            a, axis=i64(ax), sorted=True, index_element_type="i32", count_element_type="i32"
        )
        values, index, inverse, counts = (found.output(i) for i in range(4))
        if size is not None:
            values = _fix_size(values, ax, int(size), const(fill, dtype))
            index = _fix_size(index, 0, int(size), const(1, "int32"))
            counts = _fix_size(counts, 0, int(size), const(0, "int32"))
        outs = [values]
        if return_index:
            outs.append(index)
        if return_inverse:
            outs.append(reshape(inverse, list(x.shape)) if flatten else inverse)
        if return_counts:
            outs.append(counts)
        return outs

    key = (
        "unique",
        None if flatten else ax,
        size,
        fill,
        bool(return_index),
        bool(return_inverse),
        bool(return_counts),
        tuple(x.shape) if flatten else None,
    )
    out = run(key, build, x)
    return out[0] if len(out) == 1 else tuple(out)


def _fix_size(node, axis, size, fill):
    """``node`` cut or padded (with ``fill``) to ``size`` along ``axis``."""
    nd = rank(node)
    n = opset.gather(opset.shape_of(node, "i64"), i64([axis]), i64(0))
    missing = opset.maximum(opset.subtract(i64([size]), n), i64([0]))
    zeros = i64([0] * nd)
    pads_end = opset.scatter_update(zeros, i64([axis]), missing, i64(0))
    padded = opset.pad(node, zeros, pads_end, "constant", fill)
    return opset.slice(padded, i64([0]), i64([size]), i64([1]), i64([axis])).output(0)


def vectorize(pyfunc, *, excluded=None, signature=None):
    """``pyfunc`` applied to every element (or core-dims slice) of broadcast inputs."""
    if signature is not None:
        raise NotImplementedError(
            "vectorize is not supported on the openvino backend with a `signature`: only "
            "element-wise functions can be vectorized. Use vectorized_map instead."
        )
    excluded = set(excluded or ())

    def wrapped(*args, **kwargs):
        mapped = [i for i, a in enumerate(args) if i not in excluded]
        tensors = [to_tensor(args[i]) for i in mapped]
        shape = np.broadcast_shapes(*[t.shape for t in tensors])
        flat = [reshape_flat(broadcast(t, shape)) for t in tensors]
        outs = []
        for j in range(int(np.prod(shape))):
            call = list(args)
            for i, t in zip(mapped, flat, strict=True):
                call[i] = t[j]
            outs.append(to_tensor(pyfunc(*call, **kwargs)))
        from_stack = stack_flat(outs)
        return run(("reshape", tuple(shape)), lambda a: reshape(a, list(shape)), from_stack)

    return wrapped


def broadcast(x, shape):
    return run(("broadcast_to", tuple(shape)), lambda a: opset.broadcast(a, i64(list(shape))), x)


def stack_flat(xs):
    dtype = xs[0].dtype
    return run(
        ("stack_flat", len(xs), dtype),
        lambda *n: opset.concat([reshape(cv(v, dtype), [1]) for v in n], 0),
        *xs,
    )


_PAD_MODES = {
    "constant": "constant",
    "edge": "edge",
    "reflect": "reflect",
    "symmetric": "symmetric",
}


def pad(x, pad_width, mode="constant", constant_values=None):
    x = to_tensor(x)
    if mode not in _PAD_MODES:
        raise ValueError(
            f"pad mode {mode!r} is not supported on the openvino backend. Expected one of "
            f"{', '.join(_PAD_MODES)}."
        )
    numpy_shaped.pad_keywords(mode, constant_values)
    widths = np.asarray(convert_to_numpy(pad_width), dtype=np.int64)
    if widths.ndim == 0 or widths.size == 1:
        widths = np.full((x.ndim, 2), int(widths.reshape(-1)[0]))
    elif widths.ndim == 1:
        widths = np.broadcast_to(widths.reshape(1, 2), (x.ndim, 2))
    else:
        widths = np.broadcast_to(widths, (x.ndim, 2))
    begin, end = [int(v) for v in widths[:, 0]], [int(v) for v in widths[:, 1]]
    value = 0 if constant_values is None else constant_values
    dtype = x.dtype

    def build(a):
        if mode == "constant":
            return opset.pad(a, i64(begin), i64(end), "constant", const(value, dtype))
        return opset.pad(a, i64(begin), i64(end), _PAD_MODES[mode])

    return run(
        ("pad", tuple(begin), tuple(end), mode, value if mode == "constant" else None), build, x
    )
