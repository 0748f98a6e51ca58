"""Joining and splitting tensors: concatenate, stack, hstack/vstack/dstack, append and
split, array_split, hsplit/vsplit/dsplit."""

import numpy as np

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import convert_to_numpy, to_tensor
from mb_backend_openvino._graph import canonical_axis, cv, i64, opset, promote, run
from mb_backend_openvino.numpy._shape import expand_dims, known_dim, ravel, reshape, slice_axis
from mb_ops import numpy_shaped


def _common(xs):
    xs = [to_tensor(x) for x in xs]
    dtype = (
        _dtypes.result_type(*[x.dtype for x in xs])
        if len({x.dtype for x in xs}) > 1
        else xs[0].dtype
    )
    return xs, dtype


def concatenate(xs, axis=0):
    xs, dtype = _common(xs)
    if axis is None:
        xs = [ravel(x) for x in xs]
        axis = 0
    ax = canonical_axis(axis, xs[0].ndim, "concatenate")

    def build(*nodes):
        return opset.concat([cv(n, dtype) for n in nodes], ax)

    return run(("concatenate", ax, dtype), build, *xs)


def stack(x, axis=0):
    xs, dtype = _common(x)
    ax = canonical_axis(axis, xs[0].ndim + 1, "stack")

    def build(*nodes):
        return opset.concat([opset.unsqueeze(cv(n, dtype), i64([ax])) for n in nodes], ax)

    return run(("stack", ax, dtype), build, *xs)


def _at_least(x, n):
    x = to_tensor(x)
    if x.ndim >= n:
        return x
    if n == 2:
        return reshape(x, (1, -1)) if x.ndim == 1 else reshape(x, (1, 1))
    if x.ndim == 0:
        return reshape(x, (1, 1, 1))
    if x.ndim == 1:
        return reshape(x, (1, -1, 1))
    return expand_dims(x, -1)


def hstack(xs):
    xs = [reshape(x, (1,)) if to_tensor(x).ndim == 0 else to_tensor(x) for x in xs]
    return concatenate(xs, axis=0 if xs[0].ndim == 1 else 1)


def vstack(xs):
    return concatenate([_at_least(x, 2) for x in xs], axis=0)


def dstack(xs):
    return concatenate([_at_least(x, 3) for x in xs], axis=2)


def append(x1, x2, axis=None):
    (a, b), _dtype = promote(to_tensor(x1), to_tensor(x2))
    if axis is None:
        a, b = ravel(a), ravel(b)
        axis = 0
    return concatenate([a, b], axis=axis)


def _split_points(x, indices_or_sections, axis, even):
    n = known_dim(x, axis)
    if isinstance(indices_or_sections, int | np.integer):
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError(f"split needs a positive number of sections, received {sections}.")
        if even and n % sections:
            raise ValueError(
                f"array split does not result in an equal division: axis {axis} of size {n} "
                f"into {sections} sections. Use array_split for unequal parts."
            )
        base, extra = divmod(n, sections)
        sizes = [base + 1] * extra + [base] * (sections - extra)
        points = list(np.cumsum([0, *sizes]))
        return [(int(points[i]), int(points[i + 1])) for i in range(sections)]
    cuts = [int(c) for c in np.asarray(convert_to_numpy(indices_or_sections)).reshape(-1)]
    bounds = [0, *[min(max(c if c >= 0 else c + n, 0), n) for c in cuts], n]
    return [(bounds[i], max(bounds[i], bounds[i + 1])) for i in range(len(bounds) - 1)]


def _split(x, indices_or_sections, axis, even):
    x = to_tensor(x)
    ax = canonical_axis(axis, x.ndim, "split")
    parts = tuple(_split_points(x, indices_or_sections, ax, even))

    def build(a):
        return [slice_axis(a, ax, lo, hi) for lo, hi in parts]

    out = run(("split", ax, parts), build, x)
    return list(out) if isinstance(out, tuple) else [out]


def split(x, indices_or_sections, axis=0):
    return _split(x, indices_or_sections, axis, True)


def array_split(x, indices_or_sections, axis=0):
    return _split(x, indices_or_sections, axis, False)


hsplit, vsplit, dsplit = numpy_shaped.axis_splits(split, to_tensor, "openvino")
