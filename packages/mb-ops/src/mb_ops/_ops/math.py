"""Math ops (``keras.ops`` top level): segments, top-k, FFTs, special functions."""

from __future__ import annotations

from typing import Any

from mb_ops import _dtypes
from mb_ops._ops import numpy_elementwise as ew
from mb_ops._ops import numpy_shape as shp
from mb_ops._ops._machinery import op
from mb_ops._ops._shapes import (
    as_int_or_none,
    dtype_of,
    float_dtype,
    fmt,
    like,
    reduce_shape,
    shape_of,
    std_dtype,
    tensor,
)
from mb_ops._ops._specs import unary_float
from mb_ops._ops.core import cast
from mb_ops._ops.numpy_indexing import get_item


def _segment_spec(op_name, data, segment_ids, num_segments=None, sorted=False) -> Any:
    d, s = shape_of(data), shape_of(segment_ids)
    if len(s) != 1:
        raise ValueError(f"{op_name}: segment_ids must be 1D, received shape {fmt(s)}.")
    if d and d[0] is not None and s[0] is not None and d[0] != s[0]:
        raise ValueError(
            f"{op_name}: data (shape {fmt(d)}) and segment_ids (shape {fmt(s)}) must have the "
            "same leading size."
        )
    return tensor((as_int_or_none(num_segments), *d[1:]), std_dtype(data))


@op(_segment_spec, "math")
def segment_sum(data, segment_ids, num_segments=None, sorted=False):
    """Sum of ``data`` per segment."""


@op(_segment_spec, "math")
def segment_max(data, segment_ids, num_segments=None, sorted=False):
    """Maximum of ``data`` per segment."""


@op(_segment_spec, "math")
def segment_min(data, segment_ids, num_segments=None, sorted=False):
    """Minimum of ``data`` per segment."""


@op(_segment_spec, "math")
def segment_prod(data, segment_ids, num_segments=None, sorted=False):
    """Product of ``data`` per segment."""


def _top_k_spec(op_name: str, x: Any, k: Any, sorted: bool = True) -> Any:
    s = list(shape_of(x))
    if not s:
        raise ValueError(f"{op_name}: expected rank >= 1, received a scalar.")
    if s[-1] is not None and isinstance(k, int) and k > s[-1]:
        raise ValueError(f"{op_name}: k={k} exceeds the last axis size {s[-1]} (shape {fmt(s)}).")
    s[-1] = as_int_or_none(k)
    return tensor(s, std_dtype(x)), tensor(s, "int32")


@op(_top_k_spec, "math")
def top_k(x, k, sorted=True):
    """The ``k`` largest values along the last axis and their indices."""


def _in_top_k_spec(op_name: str, targets: Any, predictions: Any, k: Any) -> Any:
    t, p = shape_of(targets), shape_of(predictions)
    if len(p) != 2 or len(t) != 1:
        raise ValueError(
            f"{op_name}: expected targets (batch,) and predictions (batch, classes); received "
            f"{fmt(t)} and {fmt(p)}."
        )
    return tensor(t, "bool")


@op(_in_top_k_spec, "math")
def in_top_k(targets, predictions, k):
    """Whether each target is among the top ``k`` predictions."""


def _logsumexp_spec(op_name, x, axis=None, keepdims=False) -> Any:
    return tensor(reduce_shape(op_name, shape_of(x), axis, keepdims), float_dtype(std_dtype(x)))


@op(_logsumexp_spec, "math")
def logsumexp(x, axis=None, keepdims=False):
    """``log(sum(exp(x)))`` along axes, computed stably."""


def _cdist_spec(op_name: str, x: Any, y: Any) -> Any:
    a, b = shape_of(x), shape_of(y)
    if len(a) < 2 or len(b) < 2 or (a[-1] is not None and b[-1] is not None and a[-1] != b[-1]):
        raise ValueError(
            f"{op_name}: expected (..., P, M) and (..., R, M) inputs, received {fmt(a)} and "
            f"{fmt(b)}."
        )
    dtype = float_dtype(_dtypes.result_type(dtype_of(x), dtype_of(y)))
    return tensor((*a[:-2], a[-2], b[-2]), dtype)


@op(_cdist_spec, "math")
def cdist(x, y):
    """Pairwise Euclidean distances between the rows of two sets."""


def _extract_sequences_spec(op_name, x, sequence_length, sequence_stride) -> Any:
    s = shape_of(x)
    if not s:
        raise ValueError(f"{op_name}: expected rank >= 1, received a scalar.")
    n = s[-1]
    frames = None if n is None else max(0, (n - sequence_length) // sequence_stride + 1)
    return tensor((*s[:-1], frames, sequence_length), std_dtype(x))


@op(_extract_sequences_spec, "math")
def extract_sequences(x, sequence_length, sequence_stride):
    """Frames of ``sequence_length`` along the last axis, every ``sequence_stride``."""


def _pair_spec(op_name: str, x: Any, *_: Any) -> Any:
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError(f"{op_name}: expected a (real, imag) pair of tensors, received {x!r}.")
    real, imag = x
    if shape_of(real) != shape_of(imag):
        raise ValueError(
            f"{op_name}: real and imag must have the same shape, received "
            f"{fmt(shape_of(real))} and {fmt(shape_of(imag))}."
        )
    return like(real, float_dtype(std_dtype(real))), like(imag, float_dtype(std_dtype(imag)))


@op(_pair_spec, "math")
def fft(x):
    """1D FFT of a (real, imag) pair."""


def _pair2_spec(op_name: str, x: Any) -> Any:
    out = _pair_spec(op_name, x)
    if len(shape_of(x[0])) < 2:
        raise ValueError(f"{op_name}: expected rank >= 2, received {fmt(shape_of(x[0]))}.")
    return out


@op(_pair2_spec, "math")
def fft2(x):
    """2D FFT over the last two axes of a (real, imag) pair."""


@op(_pair2_spec, "math")
def ifft2(x):
    """Inverse 2D FFT of a (real, imag) pair."""


def _rfft_spec(op_name: str, x: Any, fft_length: Any = None) -> Any:
    s = shape_of(x)
    n = s[-1] if fft_length is None else fft_length
    out = (*s[:-1], None if n is None else n // 2 + 1)
    dtype = float_dtype(std_dtype(x))
    return tensor(out, dtype), tensor(out, dtype)


@op(_rfft_spec, "math")
def rfft(x, fft_length=None):
    """Real-input FFT along the last axis: (real, imag)."""


def _irfft_spec(op_name: str, x: Any, fft_length: Any = None) -> Any:
    real, _ = _pair_spec(op_name, x)
    s = shape_of(real)
    n = fft_length if fft_length is not None else (None if s[-1] is None else 2 * (s[-1] - 1))
    return tensor((*s[:-1], n), std_dtype(real))


@op(_irfft_spec, "math")
def irfft(x, fft_length=None):
    """Inverse of ``rfft``."""


def _stft_spec(
    op_name, x, sequence_length, sequence_stride, fft_length, window="hann", center=True
) -> Any:
    s = shape_of(x)
    n = s[-1]
    if n is not None:
        if center:
            n += 2 * (fft_length // 2)
        n = (n - fft_length) // sequence_stride + 1
    out = (*s[:-1], n, fft_length // 2 + 1)
    dtype = float_dtype(std_dtype(x))
    return tensor(out, dtype), tensor(out, dtype)


@op(_stft_spec, "math")
def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    """Short-time Fourier transform: (real, imag)."""


def _istft_spec(
    op_name,
    x,
    sequence_length,
    sequence_stride,
    fft_length,
    length=None,
    window="hann",
    center=True,
) -> Any:
    real, _ = _pair_spec(op_name, x)
    s = shape_of(real)
    if length is not None:
        n = length
    elif s[-2] is None:
        n = None
    else:
        n = sequence_stride * (s[-2] - 1) + fft_length
        if center:
            n -= 2 * (fft_length // 2)
    return tensor((*s[:-2], n), std_dtype(real))


@op(_istft_spec, "math")
def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann", center=True):
    """Inverse short-time Fourier transform."""


@op(unary_float, "math")
def rsqrt(x):
    """``1 / sqrt(x)``."""


@op(unary_float, "math")
def erf(x):
    """Error function."""


@op(unary_float, "math")
def erfc(x):
    """Complementary error function."""


@op(unary_float, "math")
def erfinv(x):
    """Inverse error function."""


def _logdet_spec(op_name: str, x: Any) -> Any:
    s = shape_of(x)
    if len(s) < 2:
        raise ValueError(f"{op_name}: expected matrices, received shape {fmt(s)}.")
    return tensor(s[:-2], float_dtype(std_dtype(x)))


@op(_logdet_spec, "math")
def logdet(x):
    """Log-determinant of Hermitian positive-definite matrices."""


def _view_as_complex_spec(op_name: str, x: Any) -> Any:
    s = shape_of(x)
    if not s or s[-1] not in (2, None):
        raise ValueError(f"{op_name}: the last axis must have size 2, received shape {fmt(s)}.")
    return tensor(s[:-1], "complex128" if std_dtype(x) == "float64" else "complex64")


def _view_as_complex(x):
    dtype = "complex128" if std_dtype(x) == "float64" else "complex64"
    real = cast(get_item(x, (Ellipsis, 0)), dtype)
    imag = cast(get_item(x, (Ellipsis, 1)), dtype)
    return ew.add(real, ew.multiply(imag, cast(1j, dtype)))


@op(_view_as_complex_spec, "math", fallback=_view_as_complex)
def view_as_complex(x):
    """Complex tensor from a real tensor whose last axis holds (real, imag)."""


def _view_as_real_spec(op_name: str, x: Any) -> Any:
    dtype = "float64" if std_dtype(x) == "complex128" else "float32"
    return tensor((*shape_of(x), 2), dtype)


def _view_as_real(x):
    return shp.stack([ew.real(x), ew.imag(x)], axis=-1)


@op(_view_as_real_spec, "math", fallback=_view_as_real)
def view_as_real(x):
    """Real tensor with a last axis of size 2 holding (real, imag)."""
