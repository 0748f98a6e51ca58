"""Geometric transforms: affine/perspective warps, coordinate mapping, elastic distortion."""

import functools
import itertools
import operator

import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor
from mb_backend_tensorflow._dtypes import standardize_dtype
from mb_backend_tensorflow.image._common import batched, check_images, to_last
from mb_backend_tensorflow.image._filters import gaussian_blur
from mb_backend_tensorflow.nn._common import data_format as standardize_format
from mb_ops import numpy_shaped
from mb_ops.random import draw_seed

AFFINE_TRANSFORM_INTERPOLATIONS = ("nearest", "bilinear")
AFFINE_TRANSFORM_FILL_MODES = ("constant", "nearest", "wrap", "reflect")
MAP_COORDINATES_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


def _check_choice(name, value, choices):
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}. Received: {value!r}.")


def _project(images, transforms, interpolation, fill_mode, fill_value):
    out = tf.raw_ops.ImageProjectiveTransformV3(
        images=images,
        transforms=tf.cast(transforms, "float32"),
        output_shape=tf.shape(images)[1:3],
        fill_value=tf.cast(fill_value, "float32"),
        interpolation=interpolation.upper(),
        fill_mode=fill_mode.upper(),
    )
    return tf.ensure_shape(out, images.shape)


def affine_transform(
    images,
    transform,
    interpolation="bilinear",
    fill_mode="constant",
    fill_value=0,
    data_format=None,
):
    """Warp by ``[a0, a1, a2, b0, b1, b2, c0, c1]`` mapping output to input points."""
    _check_choice("interpolation", interpolation, AFFINE_TRANSFORM_INTERPOLATIONS)
    _check_choice("fill_mode", fill_mode, AFFINE_TRANSFORM_FILL_MODES)
    images, transform = convert_to_tensor(images), convert_to_tensor(transform)
    check_images(images, "affine_transform")
    if transform.shape.rank not in (1, 2):
        raise ValueError(
            "affine_transform needs a transform of shape (8,) or (batch, 8). Received "
            f"{transform.shape.as_list()}."
        )
    images, undo_layout = to_last(images, data_format)
    images, undo_batch = batched(images)
    if transform.shape.rank == 1:
        transform = transform[None]
    out = _project(images, transform, interpolation, fill_mode, fill_value)
    return undo_layout(undo_batch(out))


def compute_homography_matrix(start_points, end_points):
    """The 8 projective coefficients mapping ``end_points`` onto ``start_points``."""
    start = tf.cast(convert_to_tensor(start_points), "float32")
    end = tf.cast(convert_to_tensor(end_points), "float32")
    rows, targets = [], []
    for i in range(4):
        sx, sy = start[:, i, 0], start[:, i, 1]
        ex, ey = end[:, i, 0], end[:, i, 1]
        one, zero = tf.ones_like(ex), tf.zeros_like(ex)
        rows.append(tf.stack([ex, ey, one, zero, zero, zero, -sx * ex, -sx * ey], -1))
        rows.append(tf.stack([zero, zero, zero, ex, ey, one, -sy * ex, -sy * ey], -1))
        targets += [sx, sy]
    matrix = tf.stack(rows, axis=1)
    target = tf.stack(targets, axis=-1)[..., None]
    return tf.reshape(tf.linalg.solve(matrix, target), [-1, 8])


def perspective_transform(
    images, start_points, end_points, interpolation="bilinear", fill_value=0, data_format=None
):
    _check_choice("interpolation", interpolation, AFFINE_TRANSFORM_INTERPOLATIONS)
    images = convert_to_tensor(images)
    check_images(images, "perspective_transform")
    start = tf.cast(convert_to_tensor(start_points), "float32")
    end = tf.cast(convert_to_tensor(end_points), "float32")
    numpy_shaped.check_perspective_points(start.shape, end.shape)
    if start.shape.rank == 2:
        start, end = start[None], end[None]
    images, undo_layout = to_last(images, data_format)
    images, undo_batch = batched(images)
    transform = compute_homography_matrix(start, end)
    out = _project(images, transform, interpolation, "constant", fill_value)
    return undo_layout(undo_batch(out))


def _fix_coordinates(index, size, fill_mode):
    """(in-range index, validity or None) for one interpolation tap (scipy's modes)."""
    if fill_mode == "constant":
        valid = (index >= 0) & (index < size)
        return tf.clip_by_value(index, 0, size - 1), valid
    if fill_mode == "nearest":
        return tf.clip_by_value(index, 0, size - 1), None
    if fill_mode == "wrap":
        return tf.math.floormod(index, size), None
    if fill_mode == "mirror":  # about the edge pixels' centers: period 2 * (size - 1)
        if size == 1:
            return tf.zeros_like(index), None
        period = 2 * (size - 1)
        folded = tf.math.floormod(tf.abs(index), period)
        return tf.where(folded >= size, period - folded, folded), None
    # reflect: about the image edges, period 2 * size
    folded = tf.math.floormod(index, 2 * size)
    return tf.where(folded >= size, 2 * size - 1 - folded, folded), None


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0.0):
    """Sample ``inputs`` at ``coordinates`` (one array per input axis), order 0 or 1."""
    x = convert_to_tensor(inputs)
    coords = convert_to_tensor(coordinates)
    if coords.shape.rank < 2 or coords.shape[0] != x.shape.rank:
        raise ValueError(
            "map_coordinates needs coordinates of shape (inputs.ndim, ...). Received "
            f"inputs.shape={x.shape.as_list()}, coordinates.shape={coords.shape.as_list()}."
        )
    _check_choice("fill_mode", fill_mode, MAP_COORDINATES_FILL_MODES)
    if order not in (0, 1):
        raise NotImplementedError(
            f"map_coordinates supports order 0 or 1 on the tensorflow backend. Received {order}."
        )
    compute = coords.dtype if coords.dtype.is_floating else tf.float32
    coords = tf.cast(coords, compute)
    per_axis = []
    for axis, coord in enumerate(tf.unstack(coords, axis=0)):
        size = x.shape[axis]
        if order == 0:
            nodes = [(tf.cast(tf.round(coord), "int32"), tf.ones_like(coord))]
        else:
            lower = tf.floor(coord)
            frac = coord - lower
            lower = tf.cast(lower, "int32")
            nodes = [(lower, 1.0 - frac), (lower + 1, frac)]
        per_axis.append([(*_fix_coordinates(i, size, fill_mode), w) for i, w in nodes])
    fill = tf.cast(fill_value, compute)
    total = None
    for combo in itertools.product(*per_axis):
        indices = tf.stack([c[0] for c in combo], axis=-1)
        values = tf.cast(tf.gather_nd(x, indices), compute)
        if fill_mode == "constant":
            valid = functools.reduce(tf.logical_and, [c[1] for c in combo])
            values = tf.where(valid, values, fill)
        term = functools.reduce(operator.mul, [c[2] for c in combo]) * values
        total = term if total is None else total + term
    if x.dtype.is_integer:
        total = tf.round(total)
    return tf.cast(total, x.dtype)


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
    _check_choice("interpolation", interpolation, AFFINE_TRANSFORM_INTERPOLATIONS)
    _check_choice("fill_mode", fill_mode, AFFINE_TRANSFORM_FILL_MODES)
    images = convert_to_tensor(images)
    check_images(images, "elastic_transform")
    dtype = images.dtype if images.dtype.is_floating else tf.float32
    images, undo_layout = to_last(images, standardize_format(data_format))
    batch, undo_batch = batched(images)
    n, h, w = tf.shape(batch)[0], batch.shape[1], batch.shape[2]
    key = tf.cast(tf.math.floormod(tf.cast(draw_seed(seed), "int64"), 2**31 - 1), "int32")
    alpha, sigma_t = tf.cast(alpha, dtype), tf.cast(sigma, dtype)
    size = 6 * int(sigma) | 1
    noise = [
        tf.random.stateless_normal([n, h, w, 1], seed=key + i, dtype=dtype) * sigma_t
        for i in range(2)
    ]
    dy, dx = (
        gaussian_blur(d, (size, size), (sigma, sigma), "channels_last")[..., 0] for d in noise
    )
    yy, xx = tf.meshgrid(tf.range(h, dtype=dtype), tf.range(w, dtype=dtype), indexing="ij")
    src_y, src_x = yy[None] + alpha * dy, xx[None] + alpha * dx
    order = AFFINE_TRANSFORM_INTERPOLATIONS.index(interpolation)

    def warp_one(args):
        image, sy, sx = args
        channels = [
            map_coordinates(image[..., c], tf.stack([sy, sx]), order, fill_mode, fill_value)
            for c in range(image.shape[-1])
        ]
        return tf.stack(channels, axis=-1)

    out = tf.map_fn(warp_one, (tf.cast(batch, dtype), src_y, src_x), fn_output_signature=dtype)
    out = tf.cast(out, images.dtype) if standardize_dtype(images.dtype) != dtype.name else out
    return undo_layout(undo_batch(out))
