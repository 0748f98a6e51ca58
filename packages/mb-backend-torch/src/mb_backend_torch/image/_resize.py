"""Resizing (with crop/pad to the target aspect ratio) and scale-and-translate."""

import torch
import torch.nn.functional as tnn

from mb_backend_torch.image._color import _check_rank
from mb_backend_torch.nn._conv import data_format_of
from mb_backend_torch.numpy._common import t
from mb_ops import numpy_shaped

RESIZE_INTERPOLATIONS = (*numpy_shaped.RESIZE_INTERPOLATIONS, "area")
_INTERPOLATE = {"bilinear": "bilinear", "nearest": "nearest-exact", "bicubic": "bicubic"}


_SHARED_KERNELS = list(numpy_shaped.resize_kernels(torch).items())
# "triangle" (JAX's name of the linear kernel) is accepted too, listed after "trilinear".
_KERNELS = dict([*_SHARED_KERNELS[:3], ("triangle", _SHARED_KERNELS[0][1]), *_SHARED_KERNELS[3:]])


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


def _crop_or_pad(x, target, crop, pad, fill_value):
    """The (N, C, H, W) ``x`` cropped or padded to the aspect ratio of ``target``."""
    if crop:
        _, (top, bottom), (left, right) = numpy_shaped.aspect_crop(x.shape, target, False)
        return x[..., top:bottom, left:right]
    if pad:
        top, left = numpy_shaped.aspect_pad(x.shape, target, False)[-2:]
        return tnn.pad(x, (left, left, top, top), value=fill_value)
    return x


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
    numpy_shaped.check_resize_arguments(
        size,
        interpolation,
        fill_mode,
        crop_to_aspect_ratio,
        pad_to_aspect_ratio,
        RESIZE_INTERPOLATIONS,
    )
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
    x = _crop_or_pad(x, size, crop_to_aspect_ratio, pad_to_aspect_ratio, fill_value)
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
