"""Math ops (``keras.ops`` top level): segments, top-k, FFTs, special functions."""

from __future__ import annotations

from typing import Any

from mb_ops import _dtypes
from mb_ops._ops import numpy_arithmetic as arith
from mb_ops._ops import numpy_complex as cplx
from mb_ops._ops import numpy_joining as join
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
    """Sum of ``data`` per segment.

    Args:
        data: a tensor whose first axis is segmented.
        segment_ids: an int tensor of the segment of each entry of `data`'s first axis.
        num_segments: the number of segments (the output's first dimension); give it where a static
            shape is needed.
        sorted: whether `segment_ids` is known to be sorted (a speed hint).

    Returns:
        A tensor with one row per segment: the sum of the rows of `data` in it.

    Example:

    >>> from mb_ops import ops
    >>> data = ops.convert_to_tensor([1, 2, 3, 4, 5])
    >>> ids = ops.convert_to_tensor([0, 0, 1, 1, 2])
    >>> ops.convert_to_numpy(ops.segment_sum(data, ids, num_segments=3)).tolist()
    [3, 7, 5]
    """


@op(_segment_spec, "math")
def segment_max(data, segment_ids, num_segments=None, sorted=False):
    """Maximum of ``data`` per segment.

    Args:
        data: a tensor whose first axis is segmented.
        segment_ids: an int tensor of the segment of each entry of `data`'s first axis.
        num_segments: the number of segments (the output's first dimension); give it where a static
            shape is needed.
        sorted: whether `segment_ids` is known to be sorted (a speed hint).

    Returns:
        A tensor with one row per segment: the maximum of the rows of `data` in it.

    Example:

    >>> from mb_ops import ops
    >>> data = ops.convert_to_tensor([1, 2, 3, 4, 5])
    >>> ids = ops.convert_to_tensor([0, 0, 1, 1, 2])
    >>> ops.convert_to_numpy(ops.segment_max(data, ids, num_segments=3)).tolist()
    [2, 4, 5]
    """


@op(_segment_spec, "math")
def segment_min(data, segment_ids, num_segments=None, sorted=False):
    """Minimum of ``data`` per segment.

    Args:
        data: a tensor whose first axis is segmented.
        segment_ids: an int tensor of the segment of each entry of `data`'s first axis.
        num_segments: the number of segments (the output's first dimension); give it where a static
            shape is needed.
        sorted: whether `segment_ids` is known to be sorted (a speed hint).

    Returns:
        A tensor with one row per segment: the minimum of the rows of `data` in it.

    Example:

    >>> from mb_ops import ops
    >>> data = ops.convert_to_tensor([1, 2, 3, 4, 5])
    >>> ids = ops.convert_to_tensor([0, 0, 1, 1, 2])
    >>> ops.convert_to_numpy(ops.segment_min(data, ids, num_segments=3)).tolist()
    [1, 3, 5]
    """


@op(_segment_spec, "math")
def segment_prod(data, segment_ids, num_segments=None, sorted=False):
    """Product of ``data`` per segment.

    Args:
        data: a tensor whose first axis is segmented.
        segment_ids: an int tensor of the segment of each entry of `data`'s first axis.
        num_segments: the number of segments (the output's first dimension); give it where a static
            shape is needed.
        sorted: whether `segment_ids` is known to be sorted (a speed hint).

    Returns:
        A tensor with one row per segment: the product of the rows of `data` in it.

    Example:

    >>> from mb_ops import ops
    >>> data = ops.convert_to_tensor([1, 2, 3, 4, 5])
    >>> ids = ops.convert_to_tensor([0, 0, 1, 1, 2])
    >>> ops.convert_to_numpy(ops.segment_prod(data, ids, num_segments=3)).tolist()
    [2, 12, 5]
    """


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
    """The ``k`` largest values along the last axis and their indices.

    Args:
        x: a tensor.
        k: how many values to keep.
        sorted: whether the values are sorted in descending order.

    Returns:
        A ``(values, indices)`` pair, each with last axis `k`; the indices are int32.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1, 5, 3, 4], [8, 6, 7, 9]])
    >>> values, indices = ops.top_k(x, 2)
    >>> ops.convert_to_numpy(values).tolist()
    [[5, 4], [9, 8]]
    >>> ops.convert_to_numpy(indices).tolist()
    [[1, 3], [3, 0]]
    """


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
    """Whether each target is among the top ``k`` predictions.

    Args:
        targets: an int tensor of class indices, shape ``(batch,)``.
        predictions: the scores, shape ``(batch, classes)``.
        k: how many of the highest scores count.

    Returns:
        A bool tensor, one entry per target.

    Example:

    >>> from mb_ops import ops
    >>> targets = ops.convert_to_tensor([1, 2])
    >>> predictions = ops.convert_to_tensor([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2]])
    >>> ops.convert_to_numpy(ops.in_top_k(targets, predictions, k=1)).tolist()
    [True, False]
    >>> ops.convert_to_numpy(ops.in_top_k(targets, predictions, k=3)).tolist()
    [True, True]
    """


def _logsumexp_spec(op_name, x, axis=None, keepdims=False) -> Any:
    return tensor(reduce_shape(op_name, shape_of(x), axis, keepdims), float_dtype(std_dtype(x)))


@op(_logsumexp_spec, "math")
def logsumexp(x, axis=None, keepdims=False):
    """``log(sum(exp(x)))`` along axes, computed stably.

    Args:
        x: a float tensor (ints are cast to floats).
        axis: the axis or axes to reduce; ``None`` reduces all.
        keepdims: keep the reduced axes with size 1.

    Returns:
        ``log(sum(exp(x), axis))``, without overflow for large `x`.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[0.0, 0.0], [1.0, 2.0]])
    >>> ops.convert_to_numpy(ops.logsumexp(x, axis=1)).astype("float64").round(4).tolist()
    [0.6931, 2.3133]
    >>> big = ops.convert_to_tensor([100.0, 100.0])
    >>> ops.convert_to_numpy(ops.logsumexp(big)).astype("float64").round(4).tolist()
    100.6931
    """


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
    """Pairwise Euclidean distances between the rows of two sets.

    Args:
        x: points, shape ``(..., n, d)``.
        y: points, shape ``(..., m, d)``.

    Returns:
        The distances, shape ``(..., n, m)``: entry ``[i, j]`` is ``|x[i] - y[j]|``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[0.0, 0.0], [1.0, 1.0]])
    >>> y = ops.convert_to_tensor([[3.0, 4.0], [0.0, 1.0]])
    >>> ops.convert_to_numpy(ops.cdist(x, y)).astype("float64").round(4).tolist()
    [[5.0, 1.0], [3.6056, 1.0]]
    """


def _extract_sequences_spec(op_name, x, sequence_length, sequence_stride) -> Any:
    s = shape_of(x)
    if not s:
        raise ValueError(f"{op_name}: expected rank >= 1, received a scalar.")
    n = s[-1]
    frames = None if n is None else max(0, (n - sequence_length) // sequence_stride + 1)
    return tensor((*s[:-1], frames, sequence_length), std_dtype(x))


@op(_extract_sequences_spec, "math")
def extract_sequences(x, sequence_length, sequence_stride):
    """Frames of ``sequence_length`` along the last axis, every ``sequence_stride``.

    Args:
        x: a tensor; frames are taken along its last axis.
        sequence_length: the length of each frame.
        sequence_stride: the step between the starts of frames.

    Returns:
        A tensor of shape ``(..., frames, sequence_length)``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    >>> ops.convert_to_numpy(ops.extract_sequences(x, 3, 2)).tolist()
    [[1.0, 2.0, 3.0], [3.0, 4.0, 5.0]]
    """


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
    """1D FFT of a (real, imag) pair.

    Args:
        x: a ``(real, imag)`` pair of float tensors of the same shape.

    Returns:
        The ``(real, imag)`` pair of the transform along the last axis.

    Example:

    >>> from mb_ops import ops
    >>> real = ops.convert_to_tensor([1.0, 2.0, 3.0, 4.0])
    >>> imag = ops.convert_to_tensor([1.0, 0.0, 0.0, 0.0])
    >>> out_real, out_imag = ops.fft((real, imag))
    >>> ops.convert_to_numpy(out_real).astype("float64").round(4).tolist()
    [10.0, -2.0, -2.0, -2.0]
    >>> ops.convert_to_numpy(out_imag).astype("float64").round(4).tolist()
    [1.0, 3.0, 1.0, -1.0]
    """


def _pair2_spec(op_name: str, x: Any) -> Any:
    out = _pair_spec(op_name, x)
    if len(shape_of(x[0])) < 2:
        raise ValueError(f"{op_name}: expected rank >= 2, received {fmt(shape_of(x[0]))}.")
    return out


@op(_pair2_spec, "math")
def fft2(x):
    """2D FFT over the last two axes of a (real, imag) pair.

    Args:
        x: a ``(real, imag)`` pair of float tensors of rank >= 2.

    Returns:
        The ``(real, imag)`` pair of the transform over the last two axes.

    Example:

    >>> from mb_ops import ops
    >>> real = ops.convert_to_tensor([[1.0, 2.0], [3.0, 5.0]])
    >>> out_real, out_imag = ops.fft2((real, real))
    >>> ops.convert_to_numpy(out_real).astype("float64").round(4).tolist()
    [[11.0, -3.0], [-5.0, 1.0]]
    >>> ops.convert_to_numpy(out_imag).astype("float64").round(4).tolist()
    [[11.0, -3.0], [-5.0, 1.0]]
    """


@op(_pair2_spec, "math")
def ifft2(x):
    """Inverse 2D FFT of a (real, imag) pair.

    Args:
        x: a ``(real, imag)`` pair of float tensors of rank >= 2.

    Returns:
        The ``(real, imag)`` pair of the inverse transform over the last two axes.

    Example:

    >>> from mb_ops import ops
    >>> spectrum = ops.convert_to_tensor([[11.0, -3.0], [-5.0, 1.0]])
    >>> real, imag = ops.ifft2((spectrum, spectrum))
    >>> ops.convert_to_numpy(real).astype("float64").round(4).tolist()
    [[1.0, 2.0], [3.0, 5.0]]
    >>> ops.convert_to_numpy(imag).astype("float64").round(4).tolist()
    [[1.0, 2.0], [3.0, 5.0]]
    """


def _rfft_spec(op_name: str, x: Any, fft_length: Any = None) -> Any:
    s = shape_of(x)
    n = s[-1] if fft_length is None else fft_length
    out = (*s[:-1], None if n is None else n // 2 + 1)
    dtype = float_dtype(std_dtype(x))
    return tensor(out, dtype), tensor(out, dtype)


@op(_rfft_spec, "math")
def rfft(x, fft_length=None):
    """Real-input FFT along the last axis: (real, imag).

    Args:
        x: a real float tensor; transformed along its last axis.
        fft_length: the FFT length (the signal is cut or zero-padded to it); ``None`` uses the
            input's.

    Returns:
        The ``(real, imag)`` pair of the non-negative frequency terms, last axis ``fft_length // 2 +
        1``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 2.0, 3.0, 5.0])
    >>> real, imag = ops.rfft(x)
    >>> ops.convert_to_numpy(real).astype("float64").round(4).tolist()
    [11.0, -2.0, -3.0]
    >>> ops.convert_to_numpy(imag).astype("float64").round(4).tolist()
    [0.0, 3.0, 0.0]
    """


def _irfft_spec(op_name: str, x: Any, fft_length: Any = None) -> Any:
    real, _ = _pair_spec(op_name, x)
    s = shape_of(real)
    n = fft_length if fft_length is not None else (None if s[-1] is None else 2 * (s[-1] - 1))
    return tensor((*s[:-1], n), std_dtype(real))


@op(_irfft_spec, "math")
def irfft(x, fft_length=None):
    """Inverse of ``rfft``.

    Args:
        x: a ``(real, imag)`` pair, as ``rfft`` returns.
        fft_length: the FFT length (the signal is cut or zero-padded to it); ``None`` uses the
            input's.

    Returns:
        The real signal, last axis `fft_length` (``2 * (n - 1)`` by default).

    Example:

    >>> from mb_ops import ops
    >>> real = ops.convert_to_tensor([11.0, -2.0, -3.0])
    >>> imag = ops.convert_to_tensor([0.0, 3.0, 0.0])
    >>> ops.convert_to_numpy(ops.irfft((real, imag))).astype("float64").round(4).tolist()
    [1.0, 2.0, 3.0, 5.0]
    """


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
    """Short-time Fourier transform: (real, imag).

    Args:
        x: a float signal; transformed along its last axis.
        sequence_length: the length of each frame.
        sequence_stride: the step between the starts of frames.
        fft_length: the FFT length (at least `sequence_length`).
        window: the window: a name (``"hann"``, ``"hamming"``), a 1D tensor, or ``None`` for none.
        center: whether the signal is padded so that frames are centred on their time step.

    Returns:
        The ``(real, imag)`` pair, shape ``(..., frames, fft_length // 2 + 1)``.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.arange(1.0, 9.0)
    >>> real, imag = ops.stft(x, 4, 2, 4)
    >>> tuple(real.shape)
    (5, 3)
    """


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
    """Inverse short-time Fourier transform.

    Args:
        x: a ``(real, imag)`` pair, as ``stft`` returns.
        sequence_length: the length of each frame.
        sequence_stride: the step between the starts of frames.
        fft_length: the FFT length used by ``stft``.
        length: the length of the output signal; ``None`` keeps what the frames give.
        window: the window: a name (``"hann"``, ``"hamming"``), a 1D tensor, or ``None`` for none.
        center: whether the signal is padded so that frames are centred on their time step.

    Returns:
        The real signal, cut or padded to `length` if given.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.arange(1.0, 9.0)
    >>> spectrum = ops.stft(x, 4, 2, 4)
    >>> y = ops.istft(spectrum, 4, 2, 4, length=8)
    >>> ops.convert_to_numpy(y).astype("float64").round(4).tolist()
    [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]
    """


@op(unary_float, "math")
def rsqrt(x):
    """``1 / sqrt(x)``.

    Args:
        x: a float tensor (ints are cast to floats).

    Returns:
        ``1 / sqrt(x)`` elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([1.0, 4.0, 16.0])
    >>> ops.convert_to_numpy(ops.rsqrt(x)).tolist()
    [1.0, 0.5, 0.25]
    """


@op(unary_float, "math")
def erf(x):
    """Error function.

    Args:
        x: a float tensor (ints are cast to floats).

    Returns:
        ``2 / sqrt(pi) * integral(exp(-t**2), t=0..x)`` elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.0, 0.0, 0.5])
    >>> ops.convert_to_numpy(ops.erf(x)).astype("float64").round(4).tolist()
    [-0.8427, 0.0, 0.5205]
    """


@op(unary_float, "math")
def erfc(x):
    """Complementary error function.

    Args:
        x: a float tensor (ints are cast to floats).

    Returns:
        ``1 - erf(x)`` elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-1.0, 0.0, 1.0])
    >>> ops.convert_to_numpy(ops.erfc(x)).astype("float64").round(4).tolist()
    [1.8427, 1.0, 0.1573]
    """


@op(unary_float, "math")
def erfinv(x):
    """Inverse error function.

    Args:
        x: a float tensor with values in ``(-1, 1)``.

    Returns:
        ``y`` with ``erf(y) == x``, elementwise, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([-0.5, 0.0, 0.5])
    >>> ops.convert_to_numpy(ops.erfinv(x)).astype("float64").round(4).tolist()
    [-0.4769, 0.0, 0.4769]
    """


def _logdet_spec(op_name: str, x: Any) -> Any:
    s = shape_of(x)
    if len(s) < 2:
        raise ValueError(f"{op_name}: expected matrices, received shape {fmt(s)}.")
    return tensor(s[:-2], float_dtype(std_dtype(x)))


@op(_logdet_spec, "math")
def logdet(x):
    """Log-determinant of Hermitian positive-definite matrices.

    Args:
        x: Hermitian positive-definite matrices, shape ``(..., n, n)``.

    Returns:
        ``log(det(x))`` per matrix, in `x`'s float dtype.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[2.0, 1.0], [1.0, 2.0]])
    >>> ops.convert_to_numpy(ops.logdet(x)).astype("float64").round(4).tolist()
    1.0986
    """


def _view_as_complex_spec(op_name: str, x: Any) -> Any:
    s = shape_of(x)
    if not s or s[-1] not in (2, None):
        raise ValueError(f"{op_name}: the last axis must have size 2, received shape {fmt(s)}.")
    return tensor(s[:-1], "complex128" if std_dtype(x) == "float64" else "complex64")


def _view_as_complex(x):
    dtype = "complex128" if std_dtype(x) == "float64" else "complex64"
    real = cast(get_item(x, (Ellipsis, 0)), dtype)
    imag = cast(get_item(x, (Ellipsis, 1)), dtype)
    return arith.add(real, arith.multiply(imag, cast(1j, dtype)))


@op(_view_as_complex_spec, "math", fallback=_view_as_complex)
def view_as_complex(x):
    """Complex tensor from a real tensor whose last axis holds (real, imag).

    Args:
        x: a float tensor whose last axis has size 2.

    Returns:
        A complex64 (complex128 for float64) tensor without the last axis.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.convert_to_tensor([[1.0, 2.0], [3.0, -4.0]])
    >>> ops.convert_to_numpy(ops.view_as_complex(x)).tolist()
    [(1+2j), (3-4j)]
    """


def _view_as_real_spec(op_name: str, x: Any) -> Any:
    dtype = "float64" if std_dtype(x) == "complex128" else "float32"
    return tensor((*shape_of(x), 2), dtype)


def _view_as_real(x):
    return join.stack([cplx.real(x), cplx.imag(x)], axis=-1)


@op(_view_as_real_spec, "math", fallback=_view_as_real)
def view_as_real(x):
    """Real tensor with a last axis of size 2 holding (real, imag).

    Args:
        x: a complex tensor.

    Returns:
        A float32 (float64 for complex128) tensor with a new last axis of size 2.

    Example:

    >>> from mb_ops import ops
    >>> x = ops.view_as_complex(ops.convert_to_tensor([[1.0, 2.0], [3.0, -4.0]]))
    >>> ops.convert_to_numpy(ops.view_as_real(x)).tolist()
    [[1.0, 2.0], [3.0, -4.0]]
    """
