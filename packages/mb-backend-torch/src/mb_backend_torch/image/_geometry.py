"""Resampling: resize, affine and perspective warps, map_coordinates, elastic transform,
scale_and_translate."""

import functools
import itertools
import math
import operator

import torch
import torch.nn.functional as tnn

from mb_backend_torch.image._color import _check_rank, gaussian_blur
from mb_backend_torch.nn._conv import data_format_of
from mb_backend_torch.numpy._helpers import floatx, t
from mb_backend_torch.random import _generator

_INTERPOLATE = {"bilinear": "bilinear", "nearest": "nearest-exact", "bicubic": "bicubic"}
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
    for name, pts in (("start_points", start), ("end_points", end)):
        if tuple(pts.shape[-2:]) != (4, 2) or pts.ndim not in (2, 3):
            raise ValueError(
                f"perspective_transform: {name} must have shape (4, 2) or (batch, 4, 2). "
                f"Received {tuple(pts.shape)}."
            )
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


def _triangle(x):
    return torch.clamp(1 - x.abs(), min=0.0)


def _keys_cubic(x):
    x = x.abs()
    out = ((1.5 * x - 2.5) * x) * x + 1.0
    out = torch.where(x >= 1.0, ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0, out)
    return torch.where(x >= 2.0, torch.zeros_like(out), out)


def _lanczos(radius):
    def kernel(x):
        x = x.abs()
        y = radius * torch.sin(math.pi * x) * torch.sin(math.pi * x / radius)
        safe = torch.where(x != 0, math.pi**2 * x**2, torch.ones_like(x))
        out = torch.where(x > 1e-3, y / safe, torch.ones_like(x))
        return torch.where(x > radius, torch.zeros_like(out), out)

    return kernel


_KERNELS = {
    "linear": _triangle,
    "bilinear": _triangle,
    "trilinear": _triangle,
    "triangle": _triangle,
    "cubic": _keys_cubic,
    "bicubic": _keys_cubic,
    "tricubic": _keys_cubic,
    "lanczos3": _lanczos(3.0),
    "lanczos5": _lanczos(5.0),
}


def _weights(in_size, out_size, scale, translation, kernel, antialias, dtype, device):
    inv_scale = 1.0 / scale
    kernel_scale = max(inv_scale, 1.0) if antialias else 1.0
    sample = (torch.arange(out_size, dtype=dtype, device=device) + 0.5) * inv_scale
    sample = sample - translation * inv_scale - 0.5
    x = (sample[None, :] - torch.arange(in_size, dtype=dtype, device=device)[:, None]).abs()
    w = kernel(x / kernel_scale)
    total = w.sum(dim=0, keepdim=True)
    eps = 1000.0 * torch.finfo(torch.float32).eps
    w = torch.where(total.abs() > eps, w / torch.where(total != 0, total, 1.0), 0.0)
    inside = (sample >= -0.5) & (sample <= in_size - 0.5)
    return torch.where(inside[None, :], w, torch.zeros_like(w))


def scale_and_translate(
    images, output_shape, scale, translation, spatial_dims, method, antialias=True
):
    if method not in _KERNELS:
        raise ValueError(
            f"scale_and_translate: method must be one of {tuple(_KERNELS)}. Received {method!r}."
        )
    x = t(images)
    scale = [float(s) for s in t(scale).reshape(-1).tolist()]
    translation = [float(s) for s in t(translation).reshape(-1).tolist()]
    integer = not x.dtype.is_floating_point
    out = x.to(torch.float32) if integer else x
    for i, d in enumerate(spatial_dims):
        d = d % x.ndim
        w = _weights(
            x.shape[d],
            int(output_shape[d]),
            scale[i],
            translation[i],
            _KERNELS[method],
            antialias,
            out.dtype,
            x.device,
        )
        out = torch.moveaxis(torch.tensordot(out, w, dims=([d], [0])), -1, d)
    if integer:
        out = torch.clamp(torch.round(out), x.min(), x.max()).to(x.dtype)
    return out


def _aspect(images, size, crop, pad, fill_value):
    height, width = images.shape[-2:]
    target_h, target_w = size
    if crop:
        crop_h = max(min(height, int(width * target_h / target_w)), 1)
        crop_w = max(min(width, int(height * target_w / target_h)), 1)
        top = int((height - crop_h) / 2)
        left = int((width - crop_w) / 2)
        return images[..., top : top + crop_h, left : left + crop_w]
    pad_h = max(height, int(width * target_h / target_w))
    pad_w = max(width, int(height * target_w / target_h))
    top = int((pad_h - height) / 2)
    left = int((pad_w - width) / 2)
    return tnn.pad(images, (left, left, top, top), value=fill_value)


def resize(
    images,
    size,
    interpolation="bilinear",
    antialias=False,
    crop_to_aspect_ratio=False,
    pad_to_aspect_ratio=False,
    fill_mode="constant",
    fill_value=0.0,
    data_format=None,
):
    allowed = (*_INTERPOLATE, "lanczos3", "lanczos5", "area")
    if interpolation not in allowed:
        raise ValueError(
            f"resize: interpolation must be one of {allowed}. Received {interpolation!r}."
        )
    if fill_mode != "constant":
        raise ValueError(f"resize: only fill_mode='constant' is supported. Received {fill_mode!r}.")
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError("resize: pass only one of crop_to_aspect_ratio and pad_to_aspect_ratio.")
    if len(size) != 2:
        raise ValueError(f"resize: size must be (height, width). Received {size!r}.")
    size = (int(size[0]), int(size[1]))
    images = t(images)
    _check_rank(images, "resize")
    squeeze = images.ndim == 3
    x = images.unsqueeze(0) if squeeze else images
    channels_last = data_format_of(data_format) == "channels_last"
    if channels_last:
        x = x.permute(0, 3, 1, 2)
    dtype = x.dtype
    if dtype not in (torch.float32, torch.float64):
        x = x.to(torch.float32)
    if crop_to_aspect_ratio or pad_to_aspect_ratio:
        x = _aspect(x, size, crop_to_aspect_ratio, pad_to_aspect_ratio, fill_value)
    if interpolation in ("lanczos3", "lanczos5"):
        scale = [size[0] / x.shape[2], size[1] / x.shape[3]]
        out = scale_and_translate(
            x, (*x.shape[:2], *size), scale, [0.0, 0.0], (2, 3), interpolation, antialias
        )
    elif interpolation == "area":
        out = tnn.interpolate(x, size=size, mode="area")
    else:
        align = False if interpolation in ("bilinear", "bicubic") else None
        out = tnn.interpolate(
            x,
            size=size,
            mode=_INTERPOLATE[interpolation],
            align_corners=align,
            antialias=antialias and interpolation in ("bilinear", "bicubic"),
        )
    if not dtype.is_floating_point:
        info = torch.iinfo(dtype)
        out = torch.round(out).clamp(info.min, info.max)
    out = out.to(dtype)
    if channels_last:
        out = out.permute(0, 2, 3, 1)
    return out.squeeze(0) if squeeze else out
