"""Geometric transforms: affine/perspective warps, coordinate mapping, elastic distortion."""

import jax
import jax.numpy as jnp

from mb_backend_jax.core import convert_to_tensor
from mb_backend_jax.image._common import (
    AFFINE_TRANSFORM_FILL_MODES,
    AFFINE_TRANSFORM_INTERPOLATIONS,
    MAP_COORDINATES_FILL_MODES,
    check_choice,
    check_rank,
    data_format_of,
    to_batched_channels_last,
)
from mb_backend_jax.image._filters import gaussian_blur
from mb_ops import numpy_shaped
from mb_ops.random import draw_seed


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0.0):
    """Sample ``inputs`` at ``coordinates`` (one row of coordinates per input axis)."""
    inputs = convert_to_tensor(inputs)
    coordinates = convert_to_tensor(coordinates)
    if coordinates.ndim < 2 or coordinates.shape[0] != inputs.ndim:
        raise ValueError(
            "map_coordinates expects coordinates of shape (inputs.ndim, ...). Received "
            f"inputs.shape={inputs.shape}, coordinates.shape={coordinates.shape}."
        )
    check_choice(fill_mode, MAP_COORDINATES_FILL_MODES, "fill_mode", "map_coordinates")
    if order not in (0, 1):
        raise ValueError(f"map_coordinates supports order 0 or 1. Received order={order!r}.")
    return jax.scipy.ndimage.map_coordinates(
        inputs, list(coordinates), order, mode=fill_mode, cval=fill_value
    )


def _sample(images, rows, cols, order, fill_mode, fill_value):
    # images (N, H, W, C); rows/cols (N, H', W') input coordinates per output pixel.
    def one_channel(channel, r, c):
        return jax.scipy.ndimage.map_coordinates(
            channel, [r, c], order, mode=fill_mode, cval=fill_value
        )

    per_channel = jax.vmap(one_channel, in_axes=(2, None, None), out_axes=-1)
    return jax.vmap(per_channel)(images, rows, cols)


def _warp(images, transforms, interpolation, fill_mode, fill_value, data_format, name):
    check_choice(interpolation, AFFINE_TRANSFORM_INTERPOLATIONS, "interpolation", name)
    check_choice(fill_mode, AFFINE_TRANSFORM_FILL_MODES, "fill_mode", name)
    batch, restore = to_batched_channels_last(images, data_format)
    if transforms.shape[0] == 1 and batch.shape[0] != 1:
        transforms = jnp.broadcast_to(transforms, (batch.shape[0], 8))
    height, width = batch.shape[1:3]
    y, x = jnp.meshgrid(jnp.arange(height), jnp.arange(width), indexing="ij")
    x = x.astype(transforms.dtype)[None]
    y = y.astype(transforms.dtype)[None]
    t = [transforms[:, i, None, None] for i in range(8)]
    k = t[6] * x + t[7] * y + 1.0
    cols = (t[0] * x + t[1] * y + t[2]) / k
    rows = (t[3] * x + t[4] * y + t[5]) / k
    order = AFFINE_TRANSFORM_INTERPOLATIONS[interpolation]
    return restore(_sample(batch, rows, cols, order, fill_mode, fill_value))


def affine_transform(
    images, transform, interpolation="bilinear", fill_mode="constant", fill_value=0,
    data_format=None,
):  # fmt: skip
    """Warp images by ``transform`` ``[a0, a1, a2, b0, b1, b2, c0, c1]`` (one or per image).

    Each output pixel ``(x, y)`` samples the input at
    ``((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)``, ``k = c0 x + c1 y + 1``.
    """
    data_format = data_format_of(data_format)
    images = convert_to_tensor(images)
    check_rank(images, "affine_transform")
    transform = convert_to_tensor(transform)
    if transform.ndim not in (1, 2) or transform.shape[-1] != 8:
        raise ValueError(
            "affine_transform expects transform of shape (8,) or (batch, 8). "
            f"Received {transform.shape}."
        )
    transform = jnp.reshape(transform, (-1, 8)).astype(jnp.result_type(float))
    return _warp(
        images, transform, interpolation, fill_mode, fill_value, data_format, "affine_transform"
    )


def compute_homography_matrix(start_points, end_points):
    """The 8 projective coefficients mapping ``end_points`` onto ``start_points``.

    Args:
        start_points, end_points: ``(batch, 4, 2)`` corner ``(x, y)`` pairs.

    Returns:
        ``(batch, 8)`` coefficients in ``affine_transform``'s order.
    """
    start_points = convert_to_tensor(start_points)
    end_points = convert_to_tensor(end_points)
    sx, sy = start_points[..., 0], start_points[..., 1]
    ex, ey = end_points[..., 0], end_points[..., 1]
    zeros, ones = jnp.zeros_like(ex), jnp.ones_like(ex)
    x_rows = jnp.stack([ex, ey, ones, zeros, zeros, zeros, -sx * ex, -sx * ey], axis=-1)
    y_rows = jnp.stack([zeros, zeros, zeros, ex, ey, ones, -sy * ex, -sy * ey], axis=-1)
    matrix = jnp.concatenate([x_rows, y_rows], axis=-2)
    target = jnp.concatenate([sx, sy], axis=-1)[..., None]
    return jnp.linalg.solve(matrix, target)[..., 0]


def perspective_transform(
    images, start_points, end_points, interpolation="bilinear", fill_value=0, data_format=None
):
    """Warp images so the quadrilateral ``start_points`` lands on ``end_points``."""
    data_format = data_format_of(data_format)
    images = convert_to_tensor(images)
    check_rank(images, "perspective_transform")
    start_points = convert_to_tensor(start_points, dtype="float32")
    end_points = convert_to_tensor(end_points, dtype="float32")
    numpy_shaped.check_perspective_points(start_points.shape, end_points.shape)
    transforms = compute_homography_matrix(
        jnp.reshape(start_points, (-1, 4, 2)), jnp.reshape(end_points, (-1, 4, 2))
    )
    return _warp(
        images, transforms, interpolation, "constant", fill_value, data_format,
        "perspective_transform",
    )  # fmt: skip


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
    """Distort images by a random displacement field smoothed with a Gaussian.

    Displacements are ``alpha * blur(normal * sigma)`` with a blur of standard
    deviation ``sigma``, drawn independently for x and y.
    """
    data_format = data_format_of(data_format)
    check_choice(interpolation, AFFINE_TRANSFORM_INTERPOLATIONS, "interpolation", "elastic")
    check_choice(fill_mode, AFFINE_TRANSFORM_FILL_MODES, "fill_mode", "elastic_transform")
    images = convert_to_tensor(images)
    check_rank(images, "elastic_transform")
    batch, restore = to_batched_channels_last(images, data_format)
    n, height, width, _ = batch.shape
    dtype = batch.dtype if jnp.issubdtype(batch.dtype, jnp.floating) else jnp.float32
    key_x, key_y = jax.random.split(draw_seed(seed))
    size = int(6 * float(sigma)) | 1
    fields = []
    for key in (key_x, key_y):
        noise = jax.random.normal(key, (n, height, width, 1), dtype) * sigma
        smooth = gaussian_blur(noise, (size, size), (sigma, sigma), "channels_last")
        fields.append(smooth[..., 0] * alpha)
    y, x = jnp.meshgrid(jnp.arange(height, dtype=dtype), jnp.arange(width, dtype=dtype),
                        indexing="ij")  # fmt: skip
    order = AFFINE_TRANSFORM_INTERPOLATIONS[interpolation]
    out = _sample(batch, y + fields[1], x + fields[0], order, fill_mode, fill_value)
    return restore(out.astype(images.dtype))
