"""Geometric transforms: affine/perspective warps, coordinate mapping, elastic distortion."""

import functools
import itertools
import operator

import torch

from mb_backend_torch.image._color import _check_rank
from mb_backend_torch.image._filters import gaussian_blur
from mb_backend_torch.nn._conv import data_format_of
from mb_backend_torch.numpy._common import floatx, t
from mb_backend_torch.random import _generator
from mb_ops import numpy_shaped

_ORDERS = {"nearest": 0, "bilinear": 1}
_FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


# ----- index arithmetic shared by the samplers --------------------------------------------


def _mirror(index, size):
    s = size - 1
    if s == 0:
        return torch.zeros_like(index)
    return torch.abs((index + s) % (2 * s) - s)


def _reflect(index, size):
    return torch.div(_mirror(2 * index + 1, 2 * size + 1) - 1, 2, rounding_mode="floor")


_FIXERS = {
    "constant": lambda i, n: i.clamp(0, n - 1),
    "nearest": lambda i, n: i.clamp(0, n - 1),
    "wrap": lambda i, n: torch.remainder(i, n),
    "mirror": _mirror,
    "reflect": _reflect,
}


def _nodes(coordinate, order):
    if order == 0:
        return [(torch.round(coordinate).to(torch.int64), None)]
    lower = torch.floor(coordinate)
    upper_weight = coordinate - lower
    index = lower.to(torch.int64)
    return [(index, 1 - upper_weight), (index + 1, upper_weight)]


def _check_modes(order, fill_mode, op):
    if order not in (0, 1):
        raise NotImplementedError(
            f"{op} with order={order} is not supported on the torch backend: only orders 0 "
            "(nearest) and 1 (linear) are implemented."
        )
    if fill_mode not in _FILL_MODES:
        raise ValueError(f"{op}: fill_mode must be one of {_FILL_MODES}. Received {fill_mode!r}.")


def _interpolate(gather, coordinates, sizes, order, fill_mode, fill_value, dtype):
    # Sum over the 2**d corners of gathered values times their weights.
    fixer = _FIXERS[fill_mode]
    per_axis = []
    for coordinate, size in zip(coordinates, sizes, strict=True):
        nodes = []
        for index, weight in _nodes(coordinate, order):
            valid = (index >= 0) & (index < size) if fill_mode == "constant" else None
            nodes.append((fixer(index, size), valid, weight))
        per_axis.append(nodes)
    total = None
    for corner in itertools.product(*per_axis):
        indices, valids, weights = zip(*corner, strict=True)
        value = gather(indices)
        checks = [v for v in valids if v is not None]
        if checks:
            ok = functools.reduce(operator.and_, checks)
            while ok.ndim < value.ndim:
                ok = ok.unsqueeze(-1)
            value = torch.where(ok, value, torch.as_tensor(fill_value, dtype=value.dtype))
        ws = [w for w in weights if w is not None]
        if ws:
            w = functools.reduce(operator.mul, ws)
            while w.ndim < value.ndim:
                w = w.unsqueeze(-1)
            value = value * w
        total = value if total is None else total + value
    if not dtype.is_floating_point:
        total = torch.round(total)
    return total.to(dtype)


def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0.0):
    x = t(inputs)
    coords = [t(c) for c in coordinates]
    if len(coords) != x.ndim:
        raise ValueError(
            f"map_coordinates needs one coordinate array per input axis ({x.ndim}). "
            f"Received {len(coords)}."
        )
    _check_modes(order, fill_mode, "map_coordinates")
    work = x if x.dtype.is_floating_point else x.to(floatx())
    coords = [c.to(work.dtype) for c in coords]
    return _interpolate(
        lambda idx: work[idx], coords, x.shape, order, fill_mode, fill_value, x.dtype
    )


def _sample_nhwc(images, ys, xs, order, fill_mode, fill_value):
    # images (B, H, W, C); ys, xs (B, H', W') -> (B, H', W', C)
    batch, height, width, _ = images.shape
    work = images if images.dtype.is_floating_point else images.to(floatx())
    b = torch.arange(batch, device=images.device).view(batch, 1, 1)
    return _interpolate(
        lambda idx: work[b, idx[0], idx[1]],
        [ys.to(work.dtype), xs.to(work.dtype)],
        (height, width),
        order,
        fill_mode,
        fill_value,
        images.dtype,
    )


def _batch_nhwc(images, data_format, op):
    images = t(images)
    _check_rank(images, op)
    squeeze = images.ndim == 3
    if squeeze:
        images = images.unsqueeze(0)
    channels_first = data_format_of(data_format) == "channels_first"
    if channels_first:
        images = images.permute(0, 2, 3, 1)
    return images, channels_first, squeeze


def _unbatch(out, channels_first, squeeze):
    if channels_first:
        out = out.permute(0, 3, 1, 2)
    return out.squeeze(0) if squeeze else out


def _projective_sample(images, transforms, order, fill_mode, fill_value):
    # transforms (B, 8): output (x, y) reads input ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)
    batch, height, width, _ = images.shape
    dtype = transforms.dtype
    ys, xs = torch.meshgrid(
        torch.arange(height, dtype=dtype, device=images.device),
        torch.arange(width, dtype=dtype, device=images.device),
        indexing="ij",
    )
    a = [transforms[:, i].view(batch, 1, 1) for i in range(8)]
    k = a[6] * xs + a[7] * ys + 1.0
    x_in = (a[0] * xs + a[1] * ys + a[2]) / k
    y_in = (a[3] * xs + a[4] * ys + a[5]) / k
    return _sample_nhwc(images, y_in, x_in, order, fill_mode, fill_value)


def affine_transform(
    images,
    transform,
    interpolation="bilinear",
    fill_mode="constant",
    fill_value=0,
    data_format=None,
):
    if interpolation not in _ORDERS:
        raise ValueError(
            f"affine_transform: interpolation must be one of {tuple(_ORDERS)}. "
            f"Received {interpolation!r}."
        )
    _check_modes(_ORDERS[interpolation], fill_mode, "affine_transform")
    images, channels_first, squeeze = _batch_nhwc(images, data_format, "affine_transform")
    transform = t(transform)
    if transform.ndim not in (1, 2):
        raise ValueError(
            f"affine_transform expects a transform of shape (8,) or (batch, 8). "
            f"Received {tuple(transform.shape)}."
        )
    if transform.ndim == 1:
        transform = transform.unsqueeze(0)
    dtype = images.dtype if images.dtype.is_floating_point else torch.float32
    transform = transform.to(dtype).expand(images.shape[0], 8)
    out = _projective_sample(images, transform, _ORDERS[interpolation], fill_mode, fill_value)
    return _unbatch(out, channels_first, squeeze)


def compute_homography_matrix(start_points, end_points):
    start = t(start_points)
    end = t(end_points).to(start.dtype)
    compute = torch.float64
    s = start.to(compute)
    e = end.to(compute)
    rows = []
    for i in range(4):
        xs, ys = s[:, i, 0], s[:, i, 1]
        xe, ye = e[:, i, 0], e[:, i, 1]
        zero, one = torch.zeros_like(xs), torch.ones_like(xs)
        rows.append(torch.stack([xe, ye, one, zero, zero, zero, -xe * xs, -ye * xs], -1))
        rows.append(torch.stack([zero, zero, zero, xe, ye, one, -xe * ys, -ye * ys], -1))
    matrix = torch.stack(rows, dim=1)
    target = torch.stack([s[:, i // 2, i % 2] for i in range(8)], dim=-1).unsqueeze(-1)
    return torch.linalg.solve(matrix, target).squeeze(-1).to(start.dtype)


def perspective_transform(
    images, start_points, end_points, interpolation="bilinear", fill_value=0, data_format=None
):
    if interpolation not in _ORDERS:
        raise ValueError(
            f"perspective_transform: interpolation must be one of {tuple(_ORDERS)}. "
            f"Received {interpolation!r}."
        )
    images, channels_first, squeeze = _batch_nhwc(images, data_format, "perspective_transform")
    start = t(start_points)
    end = t(end_points)
    numpy_shaped.check_perspective_points(start.shape, end.shape)
    if start.ndim == 2:
        start = start.unsqueeze(0)
    if end.ndim == 2:
        end = end.unsqueeze(0)
    dtype = images.dtype if images.dtype.is_floating_point else torch.float32
    transforms = compute_homography_matrix(start.to(dtype), end.to(dtype))
    transforms = transforms.expand(images.shape[0], 8)
    out = _projective_sample(images, transforms, _ORDERS[interpolation], "constant", fill_value)
    return _unbatch(out, channels_first, squeeze)


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
    if interpolation not in _ORDERS:
        raise ValueError(
            f"elastic_transform: interpolation must be one of {tuple(_ORDERS)}. "
            f"Received {interpolation!r}."
        )
    _check_modes(_ORDERS[interpolation], fill_mode, "elastic_transform")
    images, channels_first, squeeze = _batch_nhwc(images, data_format, "elastic_transform")
    batch, height, width, _ = images.shape
    dtype = images.dtype if images.dtype.is_floating_point else torch.float32
    alpha, sigma = float(alpha), float(sigma)
    generator, device = _generator(seed)
    noise = torch.randn((2, batch, height, width, 1), generator=generator, device=device)
    noise = noise.to(device=images.device, dtype=dtype) * sigma
    size = int(6 * sigma) | 1
    dx = gaussian_blur(noise[0], (size, size), (sigma, sigma), "channels_last")[..., 0]
    dy = gaussian_blur(noise[1], (size, size), (sigma, sigma), "channels_last")[..., 0]
    ys, xs = torch.meshgrid(
        torch.arange(height, dtype=dtype, device=images.device),
        torch.arange(width, dtype=dtype, device=images.device),
        indexing="ij",
    )
    out = _sample_nhwc(
        images, ys + alpha * dy, xs + alpha * dx, _ORDERS[interpolation], fill_mode, fill_value
    )
    return _unbatch(out, channels_first, squeeze)


# ----- separable kernels (scale_and_translate, lanczos resize) ----------------------------
