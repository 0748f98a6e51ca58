"""``x[key]`` on OpenVINO: basic indexing as one StridedSlice, advanced as a GatherND.

Slice starts and stops are inputs of the compiled model (not part of its key), so
``x[t]`` in a Python loop reuses one model for every ``t``. Integer and boolean
arrays follow NumPy's rules: the indexed dims are replaced by the broadcast index
shape, in place when the advanced indices are adjacent, else in front.
"""

import numpy as np

from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import cv, i64, opset, rank, run
from mb_backend_openvino._tensor import OpenVINOTensor


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
