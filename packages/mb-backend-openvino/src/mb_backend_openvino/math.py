"""The ``keras.ops`` math functions on OpenVINO: segments, top-k, FFTs, STFT, erf.

Complex values travel as ``(real, imag)`` pairs of float tensors, as in Keras;
inside a model they are stacked on a trailing axis of 2, OpenVINO's layout for
``DFT``/``RDFT``.
"""

import math

import numpy as np
import openvino.opset17 as opset17

from mb_backend_openvino import _dtypes
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._graph import (
    canonical_axes,
    const,
    const_like,
    cv,
    i64,
    opset,
    run,
)
from mb_backend_openvino.linalg import slogdet_parts
from mb_backend_openvino.numpy import _reductions
from mb_ops import numpy_shaped

_COMPLEX = "OpenVINO has no complex element type; pass (real, imag) pairs to the FFT ops"

UNSUPPORTED = {
    "view_as_complex": _COMPLEX,
    "view_as_real": _COMPLEX,
}

_REDUCTION = {"sum": "sum", "prod": "prod", "max": "max", "min": "min"}


def _segment(kind, data, segment_ids, num_segments):
    data, segment_ids = to_tensor(data), to_tensor(segment_ids)
    if num_segments is None:
        num_segments = int(_reductions.max(segment_ids).numpy()) + 1 if segment_ids.size else 0
    num = int(num_segments)
    dtype = data.dtype
    work = "int32" if dtype == "bool" else dtype

    def build(d, ids):
        d = cv(d, work)
        ids = cv(ids, "int32")
        # Ids outside [0, num) (-1 marks rows to drop) go to a spare row, cut off after.
        outside = opset.logical_or(
            opset.less(ids, opset.constant(np.int32(0))),
            opset.greater_equal(ids, opset.constant(np.int32(num))),
        )
        ids = opset.select(outside, opset.constant(np.int32(num)), ids)
        rest = opset.slice(
            opset.shape_of(d, "i64"), i64([1]), i64([np.iinfo(np.int64).max]), i64([1]), i64([0])
        )
        shape = opset.concat([i64([num + 1]), rest], 0)
        start = _start(kind, work)
        init = opset.broadcast(start, shape)
        out = opset.scatter_nd_update(init, opset.unsqueeze(ids, i64([-1])), d, _REDUCTION[kind])
        out = opset.slice(out, i64([0]), i64([num]), i64([1]), i64([0]))
        return cv(out.output(0), dtype)

    return run(("segment", kind, num, dtype), build, data, segment_ids)


def _start(kind, dtype):
    if kind == "sum":
        return const(0, dtype)
    if kind == "prod":
        return const(1, dtype)
    if _dtypes.is_float_dtype(dtype):
        return const(-math.inf if kind == "max" else math.inf, dtype)
    info = _dtypes.iinfo(dtype)
    return const(info.min if kind == "max" else info.max, dtype)


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
    k = int(k)

    def build(a):
        # Stable: of equal values the first wins, as in JAX.
        found = opset.topk(a, opset.constant(np.int64(k)), -1, "max", "value", "i32", True)
        return [found.output(0), found.output(1)]

    return run(("top_k", k), build, x)


def in_top_k(targets, predictions, k):
    targets, predictions = to_tensor(targets), to_tensor(predictions)
    k = int(k)

    def build(t, p):
        picked = opset.gather_elements(p, opset.unsqueeze(cv(t, "int32"), i64([-1])), 1)
        kth = opset.topk(p, opset.constant(np.int64(k)), -1, "max", "value", "i32", True).output(0)
        kth = opset.slice(kth, i64([k - 1]), i64([k]), i64([1]), i64([-1]))
        return opset.reduce_logical_or(opset.greater_equal(picked, kth), i64([-1]), False)

    return run(("in_top_k", k), build, targets, predictions)


def logsumexp(x, axis=None, keepdims=False):
    x = to_tensor(x)
    dtype = x.dtype if _dtypes.is_float_dtype(x.dtype) else _dtypes.result_type(x.dtype, float)
    work = "float32" if dtype in ("float16", "bfloat16") else dtype
    axes = canonical_axes(axis, x.ndim, "logsumexp")

    def build(a):
        a = cv(a, work)
        if not axes:
            return cv(a, dtype)
        top = opset.reduce_max(a, i64(list(axes)), True)
        safe = opset.select(opset.is_finite(top), top, const_like(0, a))
        total = opset.reduce_sum(opset.exp(opset.subtract(a, safe)), i64(list(axes)), True)
        out = opset.add(opset.log(total), safe)
        if not keepdims:
            out = opset.squeeze(out, i64(list(axes)))
        return cv(out.output(0), dtype)

    return run(("logsumexp", axes, bool(keepdims), dtype), build, x)


def cdist(x, y):
    x, y = to_tensor(x), to_tensor(y)
    numpy_shaped.check_cdist_shapes(x.shape, y.shape)
    dtype = _dtypes.result_type(x.dtype, y.dtype)

    def build(a, b):
        a, b = cv(a, dtype), cv(b, dtype)
        diff = opset.subtract(opset.unsqueeze(a, i64([-2])), opset.unsqueeze(b, i64([-3])))
        return opset.sqrt(opset.reduce_sum(opset.multiply(diff, diff), i64([-1]), False))

    return run(("cdist", dtype), build, x, y)


def _frames_node(a, n, length, stride):
    """(..., n) -> (..., frames, length): windows of ``length`` every ``stride``."""
    count = (n - length) // stride + 1
    index = np.arange(count)[:, None] * stride + np.arange(length)[None, :]
    return opset.gather(a, i64(index), i64(-1)).output(0)


def extract_sequences(x, sequence_length, sequence_stride):
    x = to_tensor(x)
    n = x.shape[-1]
    length, stride = int(sequence_length), int(sequence_stride)
    return run(
        ("extract_sequences", n, length, stride), lambda a: _frames_node(a, n, length, stride), x
    )


def _parts(x):
    return numpy_shaped.complex_parts(x, to_tensor, _dtypes.is_float_dtype)


def _work(dtype):
    return "float64" if dtype == "float64" else "float32"


def _pack(re, im, work):
    return opset.concat(
        [opset.unsqueeze(cv(re, work), i64([-1])), opset.unsqueeze(cv(im, work), i64([-1]))], -1
    ).output(0)


def _unpack(z, dtype):
    re = opset.gather(z, i64(0), i64(-1)).output(0)
    im = opset.gather(z, i64(1), i64(-1)).output(0)
    return [cv(re, dtype), cv(im, dtype)]


def _dft(name, x, axes_of, inverse):
    real, imag = _parts(x)
    dtype = real.dtype
    work = _work(dtype)
    nd = real.ndim
    axes = axes_of(nd)

    def build(re, im):
        z = _pack(re, im, work)
        op = opset.idft if inverse else opset.dft
        return _unpack(op(z, i64(axes)).output(0), dtype)

    return tuple(run((name, tuple(axes), dtype), build, real, imag))


def fft(x):
    return _dft("fft", x, lambda nd: [nd - 1], False)


def fft2(x):
    return _dft("fft2", x, lambda nd: [nd - 2, nd - 1], False)


def ifft2(x):
    return _dft("ifft2", x, lambda nd: [nd - 2, nd - 1], True)


def rfft(x, fft_length=None):
    x = to_tensor(x)
    dtype = x.dtype
    n = x.shape[-1] if fft_length is None else int(fft_length)
    work = _work(dtype)

    def build(a):
        spectrum = opset.rdft(cv(a, work), i64([-1]), i64([n]))
        return _unpack(spectrum.output(0), dtype)

    return tuple(run(("rfft", n, dtype), build, x))


def irfft(x, fft_length=None):
    real, imag = _parts(x)
    dtype = real.dtype
    n = 2 * (real.shape[-1] - 1) if fft_length is None else int(fft_length)
    work = _work(dtype)
    nd = real.ndim

    def build(re, im):
        z = _pack(re, im, work)
        return cv(opset.irdft(z, i64([nd - 1]), i64([n])).output(0), dtype)

    return run(("irfft", n, dtype), build, real, imag)


def _periodic(name, n):
    """The periodic window ``scipy.signal.get_window(name, n)`` gives (what Keras uses)."""
    a = 0.5 if name == "hann" else 0.54
    return a - (1 - a) * np.cos(2 * np.pi * np.arange(n) / n)


def _window(window, sequence_length, fft_length):
    """The window as a NumPy constant of length ``fft_length`` (centred, zero-padded)."""
    return numpy_shaped.stft_window(
        window,
        sequence_length,
        fft_length,
        _periodic,
        lambda given: np.asarray(to_tensor(given).numpy(), dtype=np.float64),
    )


def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    x = to_tensor(x)
    numpy_shaped.check_stft_arguments(x.dtype, sequence_length, fft_length)
    win = _window(window, sequence_length, fft_length)
    dtype = x.dtype
    stride = int(sequence_stride)
    n = x.shape[-1] + (2 * (fft_length // 2) if center else 0)
    nd = x.ndim

    def build(a):
        if center:
            half = fft_length // 2
            a = opset.pad(
                a, i64([0] * (nd - 1) + [half]), i64([0] * (nd - 1) + [half]), "reflect"
            ).output(0)
        frames = _frames_node(a, n, fft_length, stride)
        frames = opset.multiply(frames, cv(opset.constant(win).output(0), dtype))
        return _unpack(opset.rdft(frames, i64([-1]), i64([fft_length])).output(0), dtype)

    key = (
        "stft",
        int(sequence_length),
        stride,
        int(fft_length),
        tuple(win),
        bool(center),
        n,
        dtype,
    )
    return tuple(run(key, build, x))


def istft(
    x,
    sequence_length,
    sequence_stride,
    fft_length,
    length=None,
    window="hann",
    center=True,
):
    real, imag = _parts(x)
    dtype = real.dtype
    work = _work(dtype)
    win = _window(window, sequence_length, fft_length)
    stride = int(sequence_stride)
    count = real.shape[-2]
    total = fft_length + stride * (count - 1)
    index = (np.arange(count)[:, None] * stride + np.arange(fft_length)[None, :]).reshape(-1)
    norm = np.zeros(total)
    np.add.at(norm, index, np.tile(win * win, count))
    scale = np.where(norm > 1e-10, 1.0 / np.where(norm > 1e-10, norm, 1.0), 1.0)
    start, end = numpy_shaped.istft_bounds(total, fft_length, length, center)
    nd = real.ndim

    def build(re, im):
        z = _pack(re, im, work)
        frames = opset.irdft(z, i64([nd - 1]), i64([fft_length]))
        frames = opset.multiply(frames, cv(opset.constant(win).output(0), work))
        flat = opset.reshape(frames, i64([0] * (nd - 2) + [-1]), True)
        lead = opset.slice(opset.shape_of(flat, "i64"), i64([0]), i64([nd - 2]), i64([1]), i64([0]))
        out_shape = opset.concat([lead, i64([total])], 0)
        zeros = opset.broadcast(const(0, work), out_shape)
        where = opset.broadcast(i64(index), opset.shape_of(flat, "i64"))
        summed = opset.scatter_elements_update(zeros, where, flat, i64(-1), "sum")
        out = opset.multiply(summed, cv(opset.constant(scale).output(0), work))
        out = opset.slice(out, i64([start]), i64([end]), i64([1]), i64([-1]))
        return cv(out.output(0), dtype)

    key = (
        "istft",
        int(sequence_length),
        stride,
        int(fft_length),
        tuple(win),
        count,
        start,
        end,
        dtype,
    )
    return run(key, build, real, imag)


def rsqrt(x):
    x = to_tensor(x)
    dtype = _dtypes.result_type(x.dtype)
    return run(
        ("rsqrt", dtype),
        lambda a: cv(opset.divide(const_like(1, a), opset.sqrt(a)).output(0), dtype),
        x,
    )


def erf(x):
    x = to_tensor(x)
    dtype = _dtypes.result_type(x.dtype)
    return run(
        ("erf", dtype),
        lambda a: cv(
            opset.erf(cv(a, _work(dtype) if _dtypes.is_float_dtype(dtype) else "float32")).output(
                0
            ),
            dtype,
        ),
        x,
    )


def erfc(x):
    x = to_tensor(x)
    dtype = _dtypes.result_type(x.dtype, float)

    def build(a):
        a = cv(a, _work(dtype))
        return cv(opset.subtract(const_like(1, a), opset.erf(a)).output(0), dtype)

    return run(("erfc", dtype), build, x)


def erfinv(x):
    x = to_tensor(x)
    dtype = _dtypes.result_type(x.dtype, float)
    return run(
        ("erfinv", dtype), lambda a: cv(opset17.erfinv(cv(a, _work(dtype))).output(0), dtype), x
    )


def logdet(x):
    _, log_abs = slogdet_parts(x)
    return log_abs
