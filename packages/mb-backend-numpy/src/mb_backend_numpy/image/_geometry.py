"""Geometric transforms: affine/perspective warps, coordinate mapping, elastic distortion."""

import itertools

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_backend_numpy._dtypes import result_type
from mb_backend_numpy.image._common import as_batch_channels_last
from mb_backend_numpy.image._filters import gaussian_blur
from mb_backend_numpy.numpy._common import cast
from mb_backend_numpy.random import _rng
from mb_ops import numpy_shaped

INTERPOLATION_ORDERS = numpy_shaped.INTERPOLATION_ORDERS


def _mirror(index, size):
    s = size - 1
    if s == 0:
        return np.zeros_like(index)
    return np.abs((index + s) % (2 * s) - s)


def _fix_index(index, size, mode):
    """Integer indices mapped into [0, size) by the fill mode (JAX's rules)."""
    if mode == "nearest":
        return np.clip(index, 0, size - 1)
    if mode == "wrap":
        return index % size
    if mode == "mirror":
        return _mirror(index, size)
    if mode == "reflect":
        return (_mirror(2 * index + 1, 2 * size + 1) - 1) // 2
    return index  # constant: validity is checked separately


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0.0):
    """Sample ``inputs`` at ``coordinates`` (one row per input axis), order 0 or 1."""
    inputs = to_tensor(inputs)
    coordinates = [np.asarray(to_tensor(c), dtype="float64") for c in coordinates]
    numpy_shaped.check_map_coordinates(inputs.shape, len(coordinates), fill_mode, order)
    values = inputs.astype("float64")
    corners = []
    for c in coordinates:
        if order == 0:
            # Half away from zero, as jax.scipy.ndimage.map_coordinates rounds.
            nearest = np.sign(c) * np.floor(np.abs(c) + 0.5)
            corners.append([(nearest.astype(np.int64), 1.0)])
        else:
            low = np.floor(c)
            frac = c - low
            low = low.astype(np.int64)
            corners.append([(low, 1.0 - frac), (low + 1, frac)])
    result = 0.0
    for combo in itertools.product(*corners):
        weight = 1.0
        valid = True
        index = []
        for (idx, w), size in zip(combo, inputs.shape, strict=True):
            weight = weight * w
            if fill_mode == "constant":
                valid = valid & (idx >= 0) & (idx < size)
                idx = np.clip(idx, 0, size - 1)
            else:
                idx = _fix_index(idx, size, fill_mode)
            index.append(idx)
        sampled = values[tuple(index)]
        if fill_mode == "constant":
            sampled = np.where(valid, sampled, fill_value)
        result = result + weight * sampled
    if np.issubdtype(inputs.dtype, np.integer):
        result = np.round(result)
    return cast(result, inputs.dtype)


def _sample_batch(x, y_in, x_in, order, fill_mode, fill_value):
    """Sample every channel of each (H, W, C) image at per-image coordinates."""
    out = np.empty((x.shape[0], *y_in.shape[1:], x.shape[-1]), dtype="float64")
    for b in range(x.shape[0]):
        for c in range(x.shape[-1]):
            out[b, ..., c] = map_coordinates(
                x[b, ..., c], [y_in[b], x_in[b]], order, fill_mode, fill_value
            )
    return out


def affine_transform(
    images,
    transform,
    interpolation="bilinear",
    fill_mode="constant",
    fill_value=0,
    data_format=None,
):
    numpy_shaped.check_interpolation(interpolation, fill_mode)
    images = to_tensor(images)
    transform = to_tensor(transform).astype("float64")
    numpy_shaped.check_affine_transform(transform.shape)
    x, restore = as_batch_channels_last(images, data_format)
    transform = np.broadcast_to(transform.reshape(-1, 8), (x.shape[0], 8))
    rows, cols = np.meshgrid(np.arange(x.shape[1]), np.arange(x.shape[2]), indexing="ij")
    a0, a1, a2, b0, b1, b2, c0, c1 = (transform[:, i, None, None] for i in range(8))
    k = c0 * cols + c1 * rows + 1.0
    x_in = (a0 * cols + a1 * rows + a2) / k
    y_in = (b0 * cols + b1 * rows + b2) / k
    order = INTERPOLATION_ORDERS[interpolation]
    out = _sample_batch(x, y_in, x_in, order, fill_mode, fill_value)
    return cast(restore(out), images.dtype)


def compute_homography_matrix(start_points, end_points):
    """The 8 projective coefficients mapping ``end_points`` to ``start_points`` (per batch)."""
    start, end = to_tensor(start_points), to_tensor(end_points)
    dtype = result_type(start.dtype, end.dtype, float)
    s, e = start.astype("float64"), end.astype("float64")
    rows = []
    for i in range(4):
        ex, ey, sx, sy = e[:, i, 0], e[:, i, 1], s[:, i, 0], s[:, i, 1]
        one, zero = np.ones_like(ex), np.zeros_like(ex)
        rows.append(np.stack([ex, ey, one, zero, zero, zero, -sx * ex, -sx * ey], -1))
        rows.append(np.stack([zero, zero, zero, ex, ey, one, -sy * ex, -sy * ey], -1))
    matrix = np.stack(rows, axis=1)
    target = s.reshape(s.shape[0], 8, 1)
    return cast(np.linalg.solve(matrix, target).reshape(-1, 8), dtype)


def perspective_transform(
    images, start_points, end_points, interpolation="bilinear", fill_value=0, data_format=None
):
    numpy_shaped.check_interpolation(interpolation, "constant")
    images = to_tensor(images)
    start, end = to_tensor(start_points), to_tensor(end_points)
    numpy_shaped.check_perspective_points(start.shape, end.shape)
    x, restore = as_batch_channels_last(images, data_format)
    coefficients = compute_homography_matrix(start.reshape(-1, 4, 2), end.reshape(-1, 4, 2))
    coefficients = np.broadcast_to(coefficients.astype("float64"), (x.shape[0], 8))
    rows, cols = np.meshgrid(np.arange(x.shape[1]), np.arange(x.shape[2]), indexing="ij")
    a0, a1, a2, a3, a4, a5, a6, a7 = (coefficients[:, i, None, None] for i in range(8))
    denom = a6 * cols + a7 * rows + 1.0
    x_in = (a0 * cols + a1 * rows + a2) / denom
    y_in = (a3 * cols + a4 * rows + a5) / denom
    out = _sample_batch(x, y_in, x_in, INTERPOLATION_ORDERS[interpolation], "constant", fill_value)
    return cast(restore(out), images.dtype)


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
    x, restore = as_batch_channels_last(images, data_format)
    alpha, sigma = float(to_tensor(alpha)), float(to_tensor(sigma))
    batch, height, width, _ = x.shape
    rng = _rng(seed)
    size = int(6 * sigma) | 1
    shifts = rng.normal(size=(2, batch, height, width, 1)) * sigma
    dx, dy = (
        gaussian_blur(s, (size, size), (sigma, sigma), "channels_last")[..., 0] for s in shifts
    )
    rows, cols = np.meshgrid(np.arange(height), np.arange(width), indexing="ij")
    order = INTERPOLATION_ORDERS[interpolation]
    out = _sample_batch(x, rows + alpha * dy, cols + alpha * dx, order, fill_mode, fill_value)
    return cast(restore(out), images.dtype)
