"""Geometric transforms: affine/perspective warps, coordinate mapping, elastic distortion.

Every output pixel's source coordinates are computed in the model, the
neighbouring samples are fetched with ``GatherND`` (one per corner: 1 for
nearest, 4 for bilinear) and blended; out-of-range indices follow JAX's fill
modes (constant, nearest, wrap, mirror, reflect).
"""

import itertools

import numpy as np

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import (
    abs_node,
    const,
    const_like,
    cv,
    i64,
    opset,
    reshape,
    run,
)
from mb_backend_openvino.image._common import check_rank, restore, to_batch_channels_last
from mb_backend_openvino.image._filters import _depthwise, _gaussian_taps
from mb_backend_openvino.linalg import _solve_nodes
from mb_backend_openvino.nn._common import data_format as standardize_data_format
from mb_backend_openvino.numpy._common import floor_divide_node
from mb_backend_openvino.random import _normal01, _seed
from mb_ops import numpy_shaped

INTERPOLATION_ORDERS = numpy_shaped.INTERPOLATION_ORDERS


def _i32(v):
    return opset.constant(np.int32(v)).output(0)


def _mirror(index, size):
    s = size - 1
    if s == 0:
        return opset.multiply(index, _i32(0)).output(0)
    folded = opset.subtract(opset.floor_mod(opset.add(index, _i32(s)), _i32(2 * s)), _i32(s))
    return abs_node(folded.output(0))


def _fix(index, size, mode):
    """int32 indices mapped into [0, size) by the fill mode (JAX's rules)."""
    if mode in ("nearest", "constant"):
        return opset.minimum(opset.maximum(index, _i32(0)), _i32(size - 1)).output(0)
    if mode == "wrap":
        return opset.floor_mod(index, _i32(size)).output(0)
    if mode == "mirror":
        return _mirror(index, size)
    doubled = opset.add(opset.multiply(index, _i32(2)), _i32(1)).output(0)
    return floor_divide_node(
        opset.subtract(_mirror(doubled, 2 * size + 1), _i32(1)).output(0), _i32(2)
    )


def _corners(coordinate, order):
    """(int32 index, weight) pairs of one coordinate array."""
    if order == 0:
        # Half away from zero, as jax.scipy.ndimage.map_coordinates rounds.
        half = const_like(0.5, coordinate)
        nearest = opset.multiply(
            opset.sign(coordinate), opset.floor(opset.add(abs_node(coordinate), half))
        )
        return [(cv(nearest.output(0), "int32"), None)]
    low = opset.floor(coordinate).output(0)
    frac = opset.subtract(coordinate, low).output(0)
    low_i = cv(low, "int32")
    return [
        (low_i, opset.subtract(const_like(1, frac), frac).output(0)),
        (opset.add(low_i, _i32(1)).output(0), frac),
    ]


def _sample(data, coordinates, sizes, order, fill_mode, fill_value, batch_dims, work):
    """Blend the samples of ``data`` at ``coordinates`` (one float node per indexed axis)."""
    result = None
    per_axis = [_corners(c, order) for c in coordinates]
    for combo in itertools.product(*per_axis):
        weight, valid, indices = None, None, []
        for (index, w), size in zip(combo, sizes, strict=True):
            if w is not None:
                weight = w if weight is None else opset.multiply(weight, w).output(0)
            if fill_mode == "constant":
                inside = opset.logical_and(
                    opset.greater_equal(index, _i32(0)), opset.less(index, _i32(size))
                )
                valid = inside if valid is None else opset.logical_and(valid, inside)
            indices.append(opset.unsqueeze(_fix(index, size, fill_mode), i64([-1])))
        stacked = opset.concat(indices, -1)
        sampled = cv(opset.gather_nd(data, stacked, batch_dims).output(0), work)
        extra = len(sampled.get_partial_shape()) - len(stacked.get_output_partial_shape(0)) + 1
        if fill_mode == "constant":
            keep = valid if extra == 0 else opset.unsqueeze(valid, i64(list(range(-extra, 0))))
            sampled = opset.select(keep, sampled, const(fill_value, work)).output(0)
        if weight is not None:
            w = weight if extra == 0 else opset.unsqueeze(weight, i64(list(range(-extra, 0))))
            sampled = opset.multiply(sampled, w).output(0)
        result = sampled if result is None else opset.add(result, sampled).output(0)
    return result


def _finish(node, dtype, work):
    if not _dtypes.is_float_dtype(dtype):
        node = opset.round(node, "half_to_even").output(0)
    return cv(node, dtype)


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0.0):
    """Sample ``inputs`` at ``coordinates`` (one array per input axis), order 0 or 1."""
    inputs = to_tensor(inputs)
    coordinates = [to_tensor(c) for c in coordinates]
    numpy_shaped.check_map_coordinates(inputs.shape, len(coordinates), fill_mode, order)
    dtype = inputs.dtype
    work = "float64" if dtype == "float64" else "float32"
    sizes = tuple(inputs.shape)

    def build(data, *coords):
        coords = [cv(c, work) for c in coords]
        return _finish(
            _sample(data, coords, sizes, order, fill_mode, float(fill_value), 0, work), dtype, work
        )

    key = ("map_coordinates", sizes, int(order), fill_mode, float(fill_value), dtype)
    return run(key, build, inputs, *coordinates)


def _grid(height, width, work):
    rows = cv(
        opset.constant(np.arange(height, dtype=np.float32).reshape(1, height, 1)).output(0), work
    )
    cols = cv(
        opset.constant(np.arange(width, dtype=np.float32).reshape(1, 1, width)).output(0), work
    )
    return rows, cols


def _coefficients(node, batch, work):
    """(8,) or (N, 8) coefficients as eight (N, 1, 1) nodes."""
    node = opset.broadcast(
        reshape(cv(node, work), [-1, 8]), opset.concat([batch, i64([8])], 0)
    ).output(0)
    return [reshape(opset.gather(node, i64([i]), i64(1)).output(0), [-1, 1, 1]) for i in range(8)]


def _projective(x, coefficients, order, fill_mode, fill_value, work):
    """Sample (N, H, W, C) ``x`` where each output pixel maps through the 8 coefficients."""
    _, height, width, _ = (d.get_length() for d in x.get_partial_shape())
    rows, cols = _grid(height, width, work)
    a0, a1, a2, b0, b1, b2, c0, c1 = coefficients
    k = opset.add(opset.add(opset.multiply(c0, cols), opset.multiply(c1, rows)), const(1, work))
    x_in = opset.divide(
        opset.add(opset.add(opset.multiply(a0, cols), opset.multiply(a1, rows)), a2), k
    )
    y_in = opset.divide(
        opset.add(opset.add(opset.multiply(b0, cols), opset.multiply(b1, rows)), b2), k
    )
    return _sample(
        x, [y_in.output(0), x_in.output(0)], (height, width), order, fill_mode, fill_value, 1, work
    )


def _image_call(name, images, extra_inputs, body, key):
    images = to_tensor(images)
    check_rank(images)
    return run((name, *key, tuple(images.shape)), body, images, *extra_inputs, static=(0,))


def affine_transform(
    images,
    transform,
    interpolation="bilinear",
    fill_mode="constant",
    fill_value=0,
    data_format=None,
):
    numpy_shaped.check_interpolation(interpolation, fill_mode)
    images, transform = to_tensor(images), to_tensor(transform)
    numpy_shaped.check_affine_transform(transform.shape)
    fmt = standardize_data_format(data_format)
    single = images.ndim == 3
    dtype = images.dtype
    work = "float64" if dtype == "float64" else "float32"
    order = INTERPOLATION_ORDERS[interpolation]

    def build(a, t):
        x = to_batch_channels_last(a, single, fmt)
        batch = opset.gather(opset.shape_of(x, "i64"), i64([0]), i64(0))
        out = _projective(
            x, _coefficients(t, batch, work), order, fill_mode, float(fill_value), work
        )
        return restore(_finish(out, dtype, work), single, fmt)

    key = (interpolation, fill_mode, float(fill_value), fmt, dtype)
    return _image_call("affine_transform", images, [transform], build, key)


def _homography_node(start, end, work):
    """(N, 8): the projective coefficients mapping end points to start points."""
    rows, targets = [], []
    zero = opset.multiply(opset.gather(start, i64(0), i64(1)), const(0, work))
    zero = opset.gather(zero, i64(0), i64(1)).output(0)  # (N,)
    one = opset.add(zero, const(1, work)).output(0)

    def point(node, i, j):
        return opset.gather(opset.gather(node, i64(i), i64(1)), i64(j), i64(1)).output(0)

    for i in range(4):
        ex, ey, sx, sy = point(end, i, 0), point(end, i, 1), point(start, i, 0), point(start, i, 1)
        neg = lambda a, b: opset.negative(opset.multiply(a, b)).output(0)  # noqa: E731
        rows.append([ex, ey, one, zero, zero, zero, neg(sx, ex), neg(sx, ey)])
        rows.append([zero, zero, zero, ex, ey, one, neg(sy, ex), neg(sy, ey)])
        targets += [sx, sy]
    matrix = opset.concat(
        [
            opset.unsqueeze(opset.concat([opset.unsqueeze(v, i64([-1])) for v in r], -1), i64([1]))
            for r in rows
        ],
        1,
    ).output(0)
    target = opset.concat([opset.unsqueeze(t, i64([-1])) for t in targets], -1)
    solved = _solve_nodes(matrix, opset.unsqueeze(target, i64([-1])).output(0), 8)
    return opset.squeeze(solved, i64([-1])).output(0)


def compute_homography_matrix(start_points, end_points):
    """The 8 projective coefficients mapping ``end_points`` to ``start_points`` (per batch)."""
    start, end = to_tensor(start_points), to_tensor(end_points)
    dtype = _dtypes.result_type(start.dtype, end.dtype, float)
    work = "float64" if dtype == "float64" else "float32"

    def build(s, e):
        return cv(_homography_node(cv(s, work), cv(e, work), work), dtype)

    return run(("compute_homography_matrix", dtype), build, start, end)


def perspective_transform(
    images, start_points, end_points, interpolation="bilinear", fill_value=0, data_format=None
):
    numpy_shaped.check_interpolation(interpolation, "constant")
    images = to_tensor(images)
    start, end = to_tensor(start_points), to_tensor(end_points)
    numpy_shaped.check_perspective_points(start.shape, end.shape)
    fmt = standardize_data_format(data_format)
    single = images.ndim == 3
    dtype = images.dtype
    work = "float64" if dtype == "float64" else "float32"
    order = INTERPOLATION_ORDERS[interpolation]

    def build(a, s, e):
        x = to_batch_channels_last(a, single, fmt)
        batch = opset.gather(opset.shape_of(x, "i64"), i64([0]), i64(0))
        s, e = reshape(cv(s, work), [-1, 4, 2]), reshape(cv(e, work), [-1, 4, 2])
        coefficients = _coefficients(_homography_node(s, e, work), batch, work)
        out = _projective(x, coefficients, order, "constant", float(fill_value), work)
        return restore(_finish(out, dtype, work), single, fmt)

    key = (interpolation, float(fill_value), fmt, dtype)
    return _image_call("perspective_transform", images, [start, end], build, key)


def elastic_transform(
    images,
    alpha=20.0,
    sigma=5.0,
    interpolation="bilinear",
    fill_mode="reflect",
    fill_value=0.0,
    seed=None,
    data_format=None,
):
    numpy_shaped.check_interpolation(interpolation, fill_mode)
    images = to_tensor(images)
    check_rank(images)
    alpha = float(to_tensor(alpha).numpy()) if not isinstance(alpha, int | float) else float(alpha)
    sigma = float(to_tensor(sigma).numpy()) if not isinstance(sigma, int | float) else float(sigma)
    fmt = standardize_data_format(data_format)
    single = images.ndim == 3
    shape = (1, *images.shape) if single else tuple(images.shape)
    batch, height, width = (
        (shape[0], shape[1], shape[2]) if fmt == "channels_last" else (shape[0], shape[2], shape[3])
    )
    dtype = images.dtype
    work = "float64" if dtype == "float64" else "float32"
    order = INTERPOLATION_ORDERS[interpolation]
    size = int(6 * sigma) | 1
    kernel = np.outer(_gaussian_taps(size, sigma), _gaussian_taps(size, sigma))
    count = batch * height * width

    def build(a, s):
        x = to_batch_channels_last(a, single, fmt)
        noise = opset.multiply(_normal01(s, 2 * count), opset.constant(np.float32(sigma)))
        noise = reshape(cv(noise.output(0), work), [2 * batch, height, width, 1])
        smooth = opset.squeeze(_depthwise(noise, [kernel], "constant"), i64([-1, -2])).output(0)
        dx = opset.slice(smooth, i64([0]), i64([batch]), i64([1]), i64([0]))
        dy = opset.slice(smooth, i64([batch]), i64([2 * batch]), i64([1]), i64([0]))
        rows, cols = _grid(height, width, work)
        y_in = opset.add(rows, opset.multiply(dy, const(alpha, work))).output(0)
        x_in = opset.add(cols, opset.multiply(dx, const(alpha, work))).output(0)
        out = _sample(
            x, [y_in, x_in], (height, width), order, fill_mode, float(fill_value), 1, work
        )
        return restore(_finish(out, dtype, work), single, fmt)

    key = (
        "elastic_transform",
        tuple(images.shape),
        alpha,
        sigma,
        interpolation,
        fill_mode,
        float(fill_value),
        fmt,
        dtype,
    )
    return run(key, build, images, _seed(seed))
