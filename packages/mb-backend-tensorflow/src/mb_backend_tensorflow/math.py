"""Math ops of the TensorFlow backend (``keras.ops`` math family): segments, top-k,
FFTs and short-time transforms, special functions."""

import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor
from mb_backend_tensorflow._dtypes import floatx, standardize_dtype

UNSUPPORTED = {}


def _float(x):
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        x = tf.cast(x, floatx())
    return x


def _segment(sorted_fn, unsorted_fn, data, segment_ids, num_segments, sorted):
    data = convert_to_tensor(data)
    segment_ids = convert_to_tensor(segment_ids)
    if sorted:
        if num_segments is not None:
            raise ValueError(
                "num_segments cannot be set together with sorted=True on the tensorflow "
                f"backend. Received num_segments={num_segments}."
            )
        return sorted_fn(data, segment_ids)
    if num_segments is None:
        num_segments = tf.reduce_max(segment_ids) + 1
    return unsorted_fn(data, segment_ids, num_segments)


def segment_sum(data, segment_ids, num_segments=None, sorted=False):
    return _segment(
        tf.math.segment_sum, tf.math.unsorted_segment_sum, data, segment_ids, num_segments, sorted
    )


def segment_max(data, segment_ids, num_segments=None, sorted=False):
    return _segment(
        tf.math.segment_max, tf.math.unsorted_segment_max, data, segment_ids, num_segments, sorted
    )


def segment_min(data, segment_ids, num_segments=None, sorted=False):
    return _segment(
        tf.math.segment_min, tf.math.unsorted_segment_min, data, segment_ids, num_segments, sorted
    )


def segment_prod(data, segment_ids, num_segments=None, sorted=False):
    return _segment(
        tf.math.segment_prod,
        tf.math.unsorted_segment_prod,
        data,
        segment_ids,
        num_segments,
        sorted,
    )


def top_k(x, k, sorted=True):
    x = convert_to_tensor(x)
    values, indices = tf.math.top_k(x, k, sorted=sorted)
    return values, indices


def in_top_k(targets, predictions, k):
    predictions = _float(predictions)
    targets = tf.cast(convert_to_tensor(targets), "int32")
    return tf.math.in_top_k(targets, predictions, k)


def logsumexp(x, axis=None, keepdims=False):
    return tf.math.reduce_logsumexp(_float(x), axis=axis, keepdims=keepdims)


def cdist(x, y):
    x, y = _float(x), _float(y)
    if x.shape.rank < 2 or y.shape.rank < 2:
        raise ValueError(
            f"cdist needs inputs of rank >= 2. Received shapes {x.shape.as_list()} and "
            f"{y.shape.as_list()}."
        )
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(
            f"cdist needs the same last dimension. Received {x.shape[-1]} and {y.shape[-1]}."
        )
    diff = tf.expand_dims(x, -2) - tf.expand_dims(y, -3)
    return tf.sqrt(tf.reduce_sum(tf.square(diff), axis=-1))


def extract_sequences(x, sequence_length, sequence_stride):
    return tf.signal.frame(
        convert_to_tensor(x), sequence_length, sequence_stride, axis=-1, pad_end=False
    )


def _complex(x):
    if not isinstance(x, tuple | list) or len(x) != 2:
        raise ValueError(
            f"Expected a pair (real, imag) of float tensors. Received: {type(x).__name__}."
        )
    real, imag = convert_to_tensor(x[0]), convert_to_tensor(x[1])
    if real.shape.as_list() != imag.shape.as_list():
        raise ValueError(
            "The real and imaginary parts must have the same shape. Received "
            f"{real.shape.as_list()} and {imag.shape.as_list()}."
        )
    if not (real.dtype.is_floating and imag.dtype.is_floating):
        raise ValueError(
            f"The real and imaginary parts must be floats. Received {real.dtype.name} and "
            f"{imag.dtype.name}."
        )
    return tf.complex(real, imag)


def _split(z):
    return tf.math.real(z), tf.math.imag(z)


def fft(x):
    return _split(tf.signal.fft(_complex(x)))


def fft2(x):
    return _split(tf.signal.fft2d(_complex(x)))


def ifft2(x):
    return _split(tf.signal.ifft2d(_complex(x)))


def rfft(x, fft_length=None):
    x = _float(x)
    return _split(tf.signal.rfft(x, None if fft_length is None else [fft_length]))


def irfft(x, fft_length=None):
    return tf.signal.irfft(_complex(x), None if fft_length is None else [fft_length])


def _window(window, sequence_length, fft_length, dtype):
    if window is None:
        return None
    if isinstance(window, str):
        if window not in ("hann", "hamming"):
            raise ValueError(
                f"window must be 'hann', 'hamming', an array or None. Received: {window!r}."
            )
        fn = tf.signal.hann_window if window == "hann" else tf.signal.hamming_window
        values = fn(sequence_length, periodic=True, dtype=dtype)
    else:
        values = tf.cast(convert_to_tensor(window), dtype)
        if values.shape.as_list() != [sequence_length]:
            raise ValueError(
                f"window must have shape [{sequence_length}]. Received {values.shape.as_list()}."
            )
    left = (fft_length - sequence_length) // 2
    return tf.pad(values, [[left, fft_length - sequence_length - left]])


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    x = convert_to_tensor(x)
    if standardize_dtype(x.dtype) not in ("float32", "float64"):
        raise TypeError(f"stft needs float32 or float64 input. Received {x.dtype.name}.")
    if fft_length < sequence_length:
        raise ValueError(
            f"stft needs fft_length >= sequence_length. Received fft_length={fft_length}, "
            f"sequence_length={sequence_length}."
        )
    if center:
        pads = [[0, 0]] * (x.shape.rank - 1) + [[fft_length // 2, fft_length // 2]]
        x = tf.pad(x, pads, mode="REFLECT")
    win = _window(window, sequence_length, fft_length, x.dtype)
    out = tf.signal.stft(
        x,
        frame_length=fft_length,
        frame_step=sequence_stride,
        fft_length=fft_length,
        window_fn=None if win is None else (lambda length, dtype: win),
    )
    return _split(out)


def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann", center=True):
    z = _complex(x)
    dtype = tf.math.real(z).dtype
    win = _window(window, sequence_length, fft_length, dtype)
    window_fn = None
    if win is not None:
        window_fn = tf.signal.inverse_stft_window_fn(sequence_stride, lambda n, dtype: win)
    out = tf.signal.inverse_stft(
        z,
        frame_length=fft_length,
        frame_step=sequence_stride,
        fft_length=fft_length,
        window_fn=window_fn,
    )
    start = fft_length // 2 if center else 0
    if length is not None:
        return out[..., start : start + length]
    if center:
        return out[..., start : -(fft_length // 2)]
    total = fft_length + sequence_stride * (tf.shape(z)[-2] - 1)
    return out[..., :total]


def rsqrt(x):
    return tf.math.rsqrt(_float(x))


def erf(x):
    return tf.math.erf(_float(x))


def erfc(x):
    return tf.math.erfc(_float(x))


def erfinv(x):
    x = _float(x)
    if standardize_dtype(x.dtype) in ("float16", "bfloat16"):
        return tf.cast(tf.math.erfinv(tf.cast(x, "float32")), x.dtype)
    return tf.math.erfinv(x)


def logdet(x):
    return tf.linalg.logdet(_float(x))
