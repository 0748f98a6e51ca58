"""The ``math`` contract module of the JAX backend: segments, top-k, FFTs, special functions.

Complex results are returned as ``(real, imag)`` pairs, and complex inputs are
taken as such pairs, as in Keras 3.
"""

import math as _math

import jax
import jax.numpy as jnp
import jax.scipy as jsp

from mb_backend_jax.core import cast, convert_to_tensor
from mb_ops import dtypes


def _check_num_segments(num_segments, name):
    if num_segments is None:
        raise ValueError(
            f"{name} on the jax backend needs num_segments (output shapes must be static). "
            "Received num_segments=None; pass e.g. num_segments=int(max(segment_ids)) + 1."
        )


def _segment(jax_fn, name):
    def op(data, segment_ids, num_segments=None, sorted=False):
        _check_num_segments(num_segments, name)
        return jax_fn(
            convert_to_tensor(data),
            convert_to_tensor(segment_ids),
            num_segments,
            indices_are_sorted=sorted,
        )

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``{name}``: reduce ``data`` rows that share a segment id."
    return op


segment_sum = _segment(jax.ops.segment_sum, "segment_sum")
segment_max = _segment(jax.ops.segment_max, "segment_max")
segment_min = _segment(jax.ops.segment_min, "segment_min")
segment_prod = _segment(jax.ops.segment_prod, "segment_prod")


def top_k(x, k, sorted=True):
    """The ``k`` largest values of the last axis and their indices (always sorted)."""
    return jax.lax.top_k(convert_to_tensor(x), k)


def in_top_k(targets, predictions, k):
    """Whether each target class is among the ``k`` highest predictions (NaN ranks last)."""
    targets = convert_to_tensor(targets)
    predictions = convert_to_tensor(predictions)
    at_label = jnp.take_along_axis(predictions, targets[..., None], axis=-1)
    at_label = jnp.where(jnp.isnan(at_label), -jnp.inf, at_label)
    rank = 1 + jnp.sum(predictions > at_label, axis=-1)
    return rank <= k


def logsumexp(x, axis=None, keepdims=False):
    """``log(sum(exp(x)))`` over ``axis``, computed stably."""
    axis = tuple(axis) if isinstance(axis, list) else axis
    return jsp.special.logsumexp(convert_to_tensor(x), axis=axis, keepdims=keepdims)


def cdist(x, y):
    """Euclidean distances between the rows of ``x`` (..., P, M) and ``y`` (..., R, M)."""
    x = convert_to_tensor(x)
    y = convert_to_tensor(y)
    if x.ndim < 2 or y.ndim < 2 or x.shape[-1] != y.shape[-1]:
        raise ValueError(
            "cdist expects inputs of rank >= 2 with the same last dimension. Received "
            f"x.shape={x.shape}, y.shape={y.shape}."
        )
    diff = x[..., :, None, :] - y[..., None, :, :]
    return jnp.sqrt(jnp.sum(diff * diff, axis=-1))


def extract_sequences(x, sequence_length, sequence_stride):
    """Frames of ``sequence_length`` every ``sequence_stride`` along the last axis."""
    x = convert_to_tensor(x)
    *batch, length = x.shape
    flat = jnp.reshape(x, (_math.prod(batch), length, 1))
    frames = jax.lax.conv_general_dilated_patches(
        flat,
        (sequence_length,),
        (sequence_stride,),
        "VALID",
        dimension_numbers=("NTC", "OIT", "NTC"),
    )
    return jnp.reshape(frames, (*batch, *frames.shape[-2:]))


def _complex(x):
    if not isinstance(x, list | tuple) or len(x) != 2:
        raise ValueError(
            f"Expected a (real, imag) pair of float tensors. Received: {type(x).__name__}."
        )
    real, imag = convert_to_tensor(x[0]), convert_to_tensor(x[1])
    if real.shape != imag.shape:
        raise ValueError(
            f"The real and imaginary parts must have the same shape. Received {real.shape} "
            f"and {imag.shape}."
        )
    if not (jnp.issubdtype(real.dtype, jnp.floating) and jnp.issubdtype(imag.dtype, jnp.floating)):
        raise ValueError(
            f"The (real, imag) pair must hold floats. Received {real.dtype} and {imag.dtype}."
        )
    return jax.lax.complex(real, imag)


def _pair(z):
    return jnp.real(z), jnp.imag(z)


def fft(x):
    """1-D FFT of the last axis of a ``(real, imag)`` pair."""
    return _pair(jnp.fft.fft(_complex(x)))


def fft2(x):
    """2-D FFT of the last two axes of a ``(real, imag)`` pair."""
    return _pair(jnp.fft.fft2(_complex(x)))


def ifft2(x):
    """Inverse 2-D FFT of a ``(real, imag)`` pair."""
    return _pair(jnp.fft.ifft2(_complex(x)))


def rfft(x, fft_length=None):
    """FFT of a real signal's last axis, as ``(real, imag)``."""
    return _pair(jnp.fft.rfft(convert_to_tensor(x), n=fft_length, axis=-1))


def irfft(x, fft_length=None):
    """Inverse of ``rfft``: a real signal from a ``(real, imag)`` pair."""
    return jnp.fft.irfft(_complex(x), n=fft_length, axis=-1)


def _window(window, sequence_length, fft_length, dtype):
    if window is None:
        return jnp.ones(fft_length, dtype)
    if isinstance(window, str):
        if window not in ("hann", "hamming"):
            raise ValueError(
                f"window must be 'hann', 'hamming', a tensor or None. Received {window!r}."
            )
        # Periodic windows (as scipy.signal.get_window builds them).
        n = jnp.arange(sequence_length, dtype=dtype)
        a = 0.5 if window == "hann" else 0.54
        win = a - (1 - a) * jnp.cos(2 * jnp.pi * n / sequence_length)
    else:
        win = convert_to_tensor(window, dtype=dtype)
        if win.shape != (sequence_length,):
            raise ValueError(f"window must have shape ({sequence_length},). Received {win.shape}.")
    left = (fft_length - sequence_length) // 2
    return jnp.pad(win, (left, fft_length - sequence_length - left))


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    """Short-time Fourier transform of a float signal, as ``(real, imag)``."""
    x = convert_to_tensor(x)
    if dtypes.standardize_dtype(x.dtype) not in ("float32", "float64"):
        raise TypeError(f"stft expects a float32 or float64 signal. Received {x.dtype}.")
    if fft_length < sequence_length:
        raise ValueError(
            f"stft needs fft_length >= sequence_length. Received fft_length={fft_length}, "
            f"sequence_length={sequence_length}."
        )
    if center:
        pad = [(0, 0)] * (x.ndim - 1) + [(fft_length // 2, fft_length // 2)]
        x = jnp.pad(x, pad, mode="reflect")
    win = _window(window, sequence_length, fft_length, x.dtype)
    frames = extract_sequences(x, fft_length, sequence_stride)
    return _pair(jnp.fft.rfft(frames * win, n=fft_length, axis=-1))


def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann", center=True):
    """Inverse STFT by windowed overlap-add, from a ``(real, imag)`` pair."""
    z = _complex(x)
    if z.ndim < 2:
        raise ValueError(f"istft expects an input of rank >= 2. Received shape {z.shape}.")
    dtype = jnp.real(z).dtype
    win = _window(window, sequence_length, fft_length, dtype)
    frames = jnp.fft.irfft(z, n=fft_length, axis=-1) * win
    count = z.shape[-2]
    total = fft_length + sequence_stride * (count - 1)
    starts = jnp.arange(count) * sequence_stride
    positions = (starts[:, None] + jnp.arange(fft_length)[None, :]).reshape(-1)
    flat = frames.reshape(*frames.shape[:-2], -1)
    signal = jnp.zeros((*frames.shape[:-2], total), dtype).at[..., positions].add(flat)
    norm = jnp.zeros(total, dtype).at[positions].add(jnp.tile(win * win, count))
    signal = signal / jnp.where(norm > 1e-10, norm, 1.0)
    start = fft_length // 2 if center else 0
    if length is not None:
        end = start + length
    elif center:
        end = total - fft_length // 2
    else:
        end = total
    return signal[..., start:end]


def rsqrt(x):
    """``1 / sqrt(x)``."""
    return jax.lax.rsqrt(convert_to_tensor(x))


def erf(x):
    """The error function."""
    x = convert_to_tensor(x)
    return jax.lax.erf(cast(x, dtypes.result_type(x.dtype, float)))


def erfc(x):
    """The complementary error function."""
    return jsp.special.erfc(convert_to_tensor(x))


def erfinv(x):
    """The inverse error function."""
    return jsp.special.erfinv(convert_to_tensor(x))


def logdet(x):
    """``log(det(x))`` of (batched) positive-definite matrices."""
    return jnp.linalg.slogdet(convert_to_tensor(x))[1]


UNSUPPORTED = {}
