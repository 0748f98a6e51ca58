"""Math ops on torch: segment reductions, top-k, FFTs and STFT, special functions.

Names and signatures are those of Keras 3's ``keras/src/backend/torch/math.py``.
"""

import torch
import torch.nn.functional as tnn

from mb_backend_torch._convert import convert_to_tensor
from mb_backend_torch.numpy._common import t, to_float

# Every math op is supported on torch.
UNSUPPORTED = {}

_SEGMENT_INIT = {"sum": 0.0, "prod": 1.0, "amax": float("-inf"), "amin": float("inf")}


def _segment(data, segment_ids, num_segments, reduce):
    data = t(data)
    ids = t(segment_ids).to(device=data.device, dtype=torch.int64)
    if num_segments is None:
        num_segments = int(ids.max()) + 1 if ids.numel() else 0
    num_segments = int(num_segments)
    # Out-of-range ids (negative or >= num_segments) go to a dropped extra row.
    ids = torch.where((ids >= 0) & (ids < num_segments), ids, num_segments)
    index = ids.reshape(-1, *([1] * (data.ndim - 1))).expand_as(data)
    init = _SEGMENT_INIT[reduce]
    if not data.dtype.is_floating_point and reduce in ("amax", "amin"):
        info = torch.iinfo(data.dtype) if data.dtype is not torch.bool else None
        init = (info.min if reduce == "amax" else info.max) if info else (reduce == "amin")
    out = torch.full(
        (num_segments + 1, *data.shape[1:]), init, dtype=data.dtype, device=data.device
    )
    out = out.scatter_reduce(0, index, data, reduce, include_self=True)
    return out[:-1]


def segment_sum(data, segment_ids, num_segments=None, sorted=False):
    return _segment(data, segment_ids, num_segments, "sum")


def segment_prod(data, segment_ids, num_segments=None, sorted=False):
    return _segment(data, segment_ids, num_segments, "prod")


def segment_max(data, segment_ids, num_segments=None, sorted=False):
    return _segment(data, segment_ids, num_segments, "amax")


def segment_min(data, segment_ids, num_segments=None, sorted=False):
    return _segment(data, segment_ids, num_segments, "amin")


def top_k(x, k, sorted=True):
    x = t(x)
    values, indices = torch.topk(x, k, sorted=sorted)
    return values, indices.to(torch.int32)


def in_top_k(targets, predictions, k):
    targets = t(targets).to(torch.int64)[:, None]
    predictions = t(predictions)
    kth = torch.topk(predictions, k).values[:, -1:]
    target_values = torch.take_along_dim(predictions, targets, dim=-1)
    return (target_values >= kth).squeeze(-1) & torch.isfinite(target_values).squeeze(-1)


def logsumexp(x, axis=None, keepdims=False):
    x = to_float(x)
    if axis is None:
        axis = tuple(range(x.ndim))
    return torch.logsumexp(x, dim=axis, keepdim=keepdims)


def cdist(x, y):
    x = to_float(x)
    y = t(y).to(x.dtype)
    if x.ndim < 2 or y.ndim < 2 or x.shape[-1] != y.shape[-1]:
        raise ValueError(
            "cdist needs inputs of rank >= 2 with the same last dimension. "
            f"Received shapes {tuple(x.shape)} and {tuple(y.shape)}."
        )
    diff = x.unsqueeze(-2) - y.unsqueeze(-3)
    return torch.sqrt(torch.sum(diff * diff, dim=-1))


def extract_sequences(x, sequence_length, sequence_stride):
    return t(x).unfold(-1, sequence_length, sequence_stride)


def _complex(x, op):
    if not isinstance(x, list | tuple) or len(x) != 2:
        raise ValueError(f"{op} takes a tuple (real, imag) of two tensors. Received: {x!r}.")
    real, imag = t(x[0]), t(x[1])
    if tuple(real.shape) != tuple(imag.shape):
        raise ValueError(
            f"{op}: real and imag must have the same shape. Received {tuple(real.shape)} "
            f"and {tuple(imag.shape)}."
        )
    if not real.dtype.is_floating_point or not imag.dtype.is_floating_point:
        raise ValueError(f"{op}: real and imag must be float tensors. Received {real.dtype}.")
    return torch.complex(real, imag)


def fft(x):
    out = torch.fft.fft(_complex(x, "fft"))
    return out.real, out.imag


def fft2(x):
    out = torch.fft.fft2(_complex(x, "fft2"))
    return out.real, out.imag


def ifft2(x):
    out = torch.fft.ifft2(_complex(x, "ifft2"))
    return out.real, out.imag


def rfft(x, fft_length=None):
    out = torch.fft.rfft(to_float(x), n=fft_length, dim=-1)
    return out.real, out.imag


def irfft(x, fft_length=None):
    return torch.fft.irfft(_complex(x, "irfft"), n=fft_length, dim=-1)


def _window(window, length, dtype, device):
    if window is None:
        return torch.ones(length, dtype=dtype, device=device)
    if isinstance(window, str):
        if window == "hann":
            return torch.hann_window(length, periodic=True, dtype=dtype, device=device)
        if window == "hamming":
            return torch.hamming_window(length, periodic=True, dtype=dtype, device=device)
        raise ValueError(
            f"window must be 'hann', 'hamming', a tensor or None. Received {window!r}."
        )
    win = convert_to_tensor(window, dtype).to(device)
    if win.ndim != 1 or win.shape[0] != length:
        raise ValueError(f"The window must have shape ({length},). Received {tuple(win.shape)}.")
    return win


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    x = t(x)
    if x.dtype not in (torch.float32, torch.float64):
        raise TypeError(f"stft needs a float32 or float64 input. Received {x.dtype}.")
    if fft_length < sequence_length:
        raise ValueError(
            f"stft: fft_length ({fft_length}) must be >= sequence_length ({sequence_length})."
        )
    win = _window(window, sequence_length, x.dtype, x.device)
    *batch, samples = x.shape
    flat = x.reshape(-1, samples)
    out = torch.stft(
        flat,
        n_fft=fft_length,
        hop_length=sequence_stride,
        win_length=sequence_length,
        window=win,
        center=center,
        pad_mode="reflect" if center else "constant",
        return_complex=True,
    )
    out = out.reshape(*batch, *out.shape[-2:]).transpose(-2, -1)
    return out.real, out.imag


def _overlap_add(frames, stride):
    *batch, count, length = frames.shape
    flat = frames.reshape(-1, count, length).transpose(1, 2)
    total = stride * (count - 1) + length
    out = tnn.fold(flat, output_size=(1, total), kernel_size=(1, length), stride=(1, stride))
    return out.reshape(*batch, total)


def istft(
    x,
    sequence_length,
    sequence_stride,
    fft_length,
    length=None,
    window="hann",
    center=True,
):
    frames = irfft(x, fft_length)
    dtype = frames.dtype
    if window is not None:
        win = _window(window, sequence_length, dtype, frames.device)
        left = (fft_length - sequence_length) // 2
        win = tnn.pad(win, (left, fft_length - sequence_length - left))
        # Normalize by the overlapped squared window (as Keras does).
        overlaps = -(-fft_length // sequence_stride)
        denom = tnn.pad(win * win, (0, overlaps * sequence_stride - fft_length))
        denom = denom.reshape(overlaps, sequence_stride).sum(0, keepdim=True)
        denom = denom.tile(overlaps, 1).reshape(-1)[:fft_length]
        frames = frames * (win / denom)
    out = _overlap_add(frames, sequence_stride)
    start = fft_length // 2 if center else 0
    if length is not None:
        return out[..., start : start + length]
    if center:
        return out[..., start : out.shape[-1] - fft_length // 2]
    return out[..., : fft_length + sequence_stride * (frames.shape[-2] - 1)]


def rsqrt(x):
    return torch.rsqrt(to_float(x))


def erf(x):
    return torch.erf(to_float(x))


def erfc(x):
    return torch.erfc(to_float(x))


def erfinv(x):
    return torch.erfinv(to_float(x))


def logdet(x):
    return torch.logdet(to_float(x))


def gammainc(x, y):
    x = to_float(x)
    return torch.special.gammainc(x, t(y).to(x.dtype))


def view_as_complex(x):
    return torch.view_as_complex(t(x).contiguous())


def view_as_real(x):
    return torch.view_as_real(t(x))
