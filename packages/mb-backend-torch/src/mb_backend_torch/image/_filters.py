"""Image filters: Gaussian blur and Sobel edges."""

import torch
import torch.nn.functional as tnn

from mb_backend_torch.image._color import _check_rank
from mb_backend_torch.nn._conv import data_format_of
from mb_backend_torch.numpy._common import t


def _nchw(images, data_format):
    squeeze = images.ndim == 3
    if squeeze:
        images = images.unsqueeze(0)
    channels_last = data_format_of(data_format) == "channels_last"
    if channels_last:
        images = images.permute(0, 3, 1, 2)
    return images, channels_last, squeeze


def _restore(out, channels_last, squeeze):
    if channels_last:
        out = out.permute(0, 2, 3, 1)
    return out.squeeze(0) if squeeze else out


def gaussian_kernel_1d(size, sigma, dtype, device):
    x = torch.arange(size, dtype=dtype, device=device) - (size - 1) / 2
    kernel = torch.exp(-0.5 * (x / sigma) ** 2)
    return kernel / kernel.sum()


def gaussian_blur(images, kernel_size=(3, 3), sigma=(1.0, 1.0), data_format=None):
    images = t(images)
    _check_rank(images, "gaussian_blur")
    x, channels_last, squeeze = _nchw(images, data_format)
    dtype = x.dtype if x.dtype.is_floating_point else torch.float32
    kh, kw = (
        int(k)
        for k in (kernel_size if not isinstance(kernel_size, int) else (kernel_size, kernel_size))
    )
    sy, sx = (float(s) for s in (sigma if not isinstance(sigma, int | float) else (sigma, sigma)))
    ky = gaussian_kernel_1d(kh, sy, dtype, x.device)
    kx = gaussian_kernel_1d(kw, sx, dtype, x.device)
    channels = x.shape[1]
    kernel = torch.outer(ky, kx).expand(channels, 1, kh, kw)
    out = tnn.conv2d(x.to(dtype), kernel, padding=(kh // 2, kw // 2), groups=channels)
    return _restore(out.to(images.dtype), channels_last, squeeze)


def sobel_edges(images, data_format=None):
    images = t(images)
    x, channels_last, squeeze = _nchw(images, data_format)
    channels = x.shape[1]
    sobel_x = torch.tensor([[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]], dtype=x.dtype, device=x.device)
    kernel_x = sobel_x.view(1, 1, 3, 3).repeat(channels, 1, 1, 1)
    kernel_y = sobel_x.T.contiguous().view(1, 1, 3, 3).repeat(channels, 1, 1, 1)
    edges_x = tnn.conv2d(x, kernel_x, padding=1, groups=channels)
    edges_y = tnn.conv2d(x, kernel_y, padding=1, groups=channels)
    edges = torch.stack([edges_y, edges_x], dim=-1)
    if channels_last:
        edges = edges.permute(0, 2, 3, 1, 4)
    return edges.squeeze(0) if squeeze else edges
