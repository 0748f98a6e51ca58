"""The ``keras.ops`` math functions on NumPy and SciPy: segments, top-k, FFTs, STFT, erf."""

import numpy as np
import scipy.signal
import scipy.special

from mb_backend_numpy._convert import convert_to_tensor, to_tensor
from mb_backend_numpy._dtypes import result_type, standardize_dtype
from mb_backend_numpy.numpy._common import cast, quiet
from mb_ops import numpy_shaped

# Every math backend function runs on NumPy/SciPy.
UNSUPPORTED = {}

_SEGMENT_START = {"sum": 0, "prod": 1, "max": -np.inf, "min": np.inf}
_SEGMENT_UFUNC = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}


def _segment(kind, data, segment_ids, num_segments):
    data, segment_ids = to_tensor(data), to_tensor(segment_ids)
    if num_segments is None:
        num_segments = int(np.max(segment_ids)) + 1 if segment_ids.size else 0
    keep = segment_ids >= 0  # -1 marks rows to drop, as in TF and JAX
    data, segment_ids = data[keep], segment_ids[keep]
    start = _SEGMENT_START[kind]
    if data.dtype.kind in "iub" and kind in ("max", "min"):
        info = np.iinfo(data.dtype) if data.dtype.kind != "b" else None
        start = (info.min if kind == "max" else info.max) if info else kind == "min"
    out = np.full((int(num_segments), *data.shape[1:]), start, dtype=data.dtype)
    inside = segment_ids < num_segments
    _SEGMENT_UFUNC[kind].at(out, segment_ids[inside], data[inside])
    return out


def segment_sum(data, segment_ids, num_segments=None, sorted=False):
    return _segment("sum", data, segment_ids, num_segments)


def segment_prod(data, segment_ids, num_segments=None, sorted=False):
    return _segment("prod", data, segment_ids, num_segments)


def segment_max(data, segment_ids, num_segments=None, sorted=False):
    return _segment("max", data, segment_ids, num_segments)


def segment_min(data, segment_ids, num_segments=None, sorted=False):
    return _segment("min", data, segment_ids, num_segments)


def top_k(x, k, sorted=True):
    x = to_tensor(x)
    # Stable descending order: the first of equal values wins, as in JAX.
    order = np.argsort(-x, axis=-1, kind="stable")[..., :k]
    return np.take_along_axis(x, order, axis=-1), order.astype("int32")


def in_top_k(targets, predictions, k):
    targets, predictions = to_tensor(targets), to_tensor(predictions)
    target_values = np.take_along_axis(predictions, targets[:, None].astype("int64"), axis=-1)
    kth = top_k(predictions, k)[0][..., -1:]
    return np.any(target_values >= kth, axis=-1)


@quiet
def logsumexp(x, axis=None, keepdims=False):
    x = to_tensor(x)
    axis = tuple(axis) if isinstance(axis, list) else axis
    out = scipy.special.logsumexp(x, axis=axis, keepdims=keepdims)
    return cast(out, x.dtype if x.dtype.kind == "f" else result_type(x.dtype, float))


def cdist(x, y):
    x, y = to_tensor(x), to_tensor(y)
    numpy_shaped.check_cdist_shapes(x.shape, y.shape)
    diff = x[..., :, None, :] - y[..., None, :, :]
    return np.sqrt(np.sum(diff * diff, axis=-1))


def extract_sequences(x, sequence_length, sequence_stride):
    x = to_tensor(x)
    frames = np.lib.stride_tricks.sliding_window_view(x, sequence_length, axis=-1)
    return frames[..., ::sequence_stride, :].copy()


def _complex_from_parts(x):
    real, imag = numpy_shaped.complex_parts(x, to_tensor, lambda dtype: dtype.kind == "f")
    return real + 1j * imag.astype(real.dtype), real.dtype


def _split(z, dtype):
    return np.real(z).astype(dtype), np.imag(z).astype(dtype)


def fft(x):
    z, dtype = _complex_from_parts(x)
    return _split(np.fft.fft(z), dtype)


def fft2(x):
    z, dtype = _complex_from_parts(x)
    return _split(np.fft.fft2(z), dtype)


def ifft2(x):
    z, dtype = _complex_from_parts(x)
    return _split(np.fft.ifft2(z), dtype)


def rfft(x, fft_length=None):
    x = to_tensor(x)
    return _split(np.fft.rfft(x, n=fft_length, axis=-1), x.dtype)


def irfft(x, fft_length=None):
    z, dtype = _complex_from_parts(x)
    return np.fft.irfft(z, n=fft_length, axis=-1).astype(dtype)


def _window(window, sequence_length, fft_length, dtype):
    win = numpy_shaped.stft_window(
        window,
        sequence_length,
        fft_length,
        lambda name, n: scipy.signal.get_window(name, n).astype(dtype),
        lambda given: convert_to_tensor(given, dtype=dtype),
    )
    return win.astype(dtype, copy=False)


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    x = to_tensor(x)
    numpy_shaped.check_stft_arguments(standardize_dtype(x.dtype), sequence_length, fft_length)
    if center:
        widths = [(0, 0)] * (x.ndim - 1) + [(fft_length // 2, fft_length // 2)]
        x = np.pad(x, widths, mode="reflect")
    win = _window(window, sequence_length, fft_length, x.dtype)
    frames = extract_sequences(x, fft_length, sequence_stride) * win
    spectrum = np.fft.rfft(frames, n=fft_length, axis=-1)
    return _split(spectrum, x.dtype)


def istft(
    x,
    sequence_length,
    sequence_stride,
    fft_length,
    length=None,
    window="hann",
    center=True,
):
    z, dtype = _complex_from_parts(x)
    win = _window(window, sequence_length, fft_length, dtype)
    frames = np.fft.irfft(z, n=fft_length, axis=-1) * win
    count = frames.shape[-2]
    total = fft_length + sequence_stride * (count - 1)
    out = np.zeros((*frames.shape[:-2], total), dtype=frames.dtype)
    norm = np.zeros(total, dtype=frames.dtype)
    for i in range(count):
        start = i * sequence_stride
        out[..., start : start + fft_length] += frames[..., i, :]
        norm[start : start + fft_length] += win * win
    with np.errstate(all="ignore"):
        out = np.where(norm > 1e-10, out / np.where(norm > 1e-10, norm, 1), out)
    start, end = numpy_shaped.istft_bounds(total, fft_length, length, center)
    return out[..., start:end].astype(dtype)


@quiet
def rsqrt(x):
    x = to_tensor(x)
    return cast(1.0 / np.sqrt(x), result_type(x.dtype))


def erf(x):
    x = to_tensor(x)
    return cast(scipy.special.erf(x), result_type(x.dtype))


def erfc(x):
    x = to_tensor(x)
    return cast(scipy.special.erfc(x), result_type(x.dtype, float))


@quiet
def erfinv(x):
    x = to_tensor(x)
    return cast(scipy.special.erfinv(x), result_type(x.dtype, float))


def logdet(x):
    return np.linalg.slogdet(to_tensor(x))[1]
