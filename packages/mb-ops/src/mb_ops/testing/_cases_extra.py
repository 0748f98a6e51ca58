"""Conformance cases for the less common ops of every family."""

from __future__ import annotations

import ml_dtypes
import numpy as np

from mb_ops.testing import _references as ref
from mb_ops.testing._case import OpCase
from mb_ops.testing._inputs import rand, spd


def _numpy_extra() -> list[OpCase]:
    z = rand((3, 2), "complex64")
    infs = np.array([-np.inf, 0.0, np.inf, 1.0], "float32")
    return [
        OpCase("numpy.allclose", (rand((3,)), rand((3,)) + 1e-9), reference=np.allclose),
        OpCase("numpy.angle", (z,), reference=np.angle, tol=4),
        OpCase("numpy.conj", (z,), reference=np.conj),
        OpCase("numpy.conjugate", (z,), reference=np.conjugate),
        OpCase("numpy.real", (z,), reference=np.real),
        OpCase("numpy.imag", (z,), reference=np.imag),
        OpCase("numpy.isreal", (z,), reference=np.isreal),
        OpCase("numpy.isneginf", (infs,), reference=np.isneginf),
        OpCase("numpy.isposinf", (infs,), reference=np.isposinf),
        OpCase("numpy.nextafter", (rand((4,)), np.float32(3.0)), reference=np.nextafter),
        OpCase("numpy.argpartition", (rand((6,)), 2), check_values=False),
        OpCase(
            "numpy.histogram",
            (rand((20,)),),
            {"bins": 4},
            reference=lambda x, bins: np.histogram(x, bins=bins),
            tol=4,
        ),
        OpCase("numpy.nonzero", (np.array([[0, 1], [2, 0]], "int32"),), reference=np.nonzero),
        OpCase("numpy.unique", (np.array([3, 1, 3, 2], "int32"),), reference=np.unique),
        OpCase(
            "numpy.unravel_index", (np.array([1, 5], "int32"), (2, 3)), reference=np.unravel_index
        ),
        OpCase(
            "numpy.view",
            (np.array([1.0, -2.0], "float32"), "int32"),
            reference=lambda x, d: x.view(d),
        ),
    ]


def _nn_extra() -> list[OpCase]:
    x = rand((2, 5, 5, 3))
    return [
        OpCase(
            "nn.depthwise_conv",
            (x, rand((3, 3, 3, 2), seed=1)),
            reference=ref.depthwise_conv2d,
            tol=16,
        ),
        OpCase(
            "nn.separable_conv",
            (x, rand((3, 3, 3, 2), seed=1), rand((1, 1, 6, 4), seed=2)),
            reference=lambda a, d, p: np.tensordot(ref.depthwise_conv2d(a, d), p[0, 0], 1),
            tol=32,
        ),
        OpCase(
            "nn.conv_transpose",
            (rand((1, 3, 3, 2)), rand((2, 2, 4, 2), seed=1)),
            {"strides": 2},
            reference=lambda a, k, strides: ref.conv_transpose2d(a, k, 2),
            tol=16,
        ),
        OpCase(
            "nn.adaptive_average_pool",
            (rand((1, 4, 4, 2)), 2),
            reference=lambda a, s: ref.pool2d(a, 2, np.mean),
            tol=4,
        ),
        OpCase(
            "nn.adaptive_max_pool",
            (rand((1, 4, 4, 2)), 2),
            reference=lambda a, s: ref.pool2d(a, 2, np.max),
        ),
        OpCase("nn.unfold", (rand((1, 2, 4, 4)), 2), reference=lambda a, k: ref.unfold(a, k)),
        OpCase("nn.fold", (rand((1, 8, 4)), (4, 4), 2), {"stride": 2}, check_values=False),
        OpCase(
            "nn.multi_hot",
            (np.array([[0, 2], [1, 1]], "int32"), 3),
            reference=lambda a, n: np.array([[1, 0, 1], [0, 1, 0]], "float32"),
        ),
        OpCase("nn.sparsemax", (rand((2, 5)),), reference=ref.sparsemax, tol=4),
        OpCase(
            "nn.ctc_loss",
            (
                np.array([[1, 2]], "int32"),
                rand((1, 5, 4)),
                np.array([2], "int32"),
                np.array([5], "int32"),
            ),
            check_values=False,
        ),
        OpCase("nn.ctc_decode", (rand((1, 5, 4)), np.array([5], "int32")), check_values=False),
        *_quantized_products(),
    ]


def _quantized_products() -> list[OpCase]:
    # int8 products must be exact in int32, beyond what a float32 accumulator holds.
    a = np.random.default_rng(7).integers(-127, 128, (2, 3, 1100)).astype("int8")
    b = np.random.default_rng(8).integers(-127, 128, (1100, 5)).astype("int8")
    x = ml_dtypes_cast(rand((4, 32)), "float8_e4m3fn")
    w = ml_dtypes_cast(rand((32, 16), seed=1), "float8_e4m3fn")
    return [
        OpCase(
            "nn.int8_matmul",
            (a, b),
            reference=lambda p, q: (p.astype(np.int64) @ q.astype(np.int64)).astype("int32"),
        ),
        OpCase(
            "nn.float8_matmul",
            (x, w, np.float32(0.5), np.float32(2.0)),
            reference=lambda p, q, s, t: (p.astype("float32") * s) @ (q.astype("float32") * t),
            tol=16,
        ),
    ]


def ml_dtypes_cast(x: np.ndarray, dtype: str) -> np.ndarray:
    return x.astype(getattr(ml_dtypes, dtype))


def _math_linalg_extra() -> list[OpCase]:
    a = spd(3)
    pair = (rand((2, 4, 4)), rand((2, 4, 4), seed=1))
    data = rand((5, 2), low=0.5)
    ids = np.array([0, 0, 1, 2, 2], "int32")
    return [
        OpCase("math.erfinv", (rand((4,), low=-0.9, high=0.9),), reference=ref.erfinv, tol=64),
        OpCase(
            "math.fft2",
            (pair,),
            reference=lambda p: (
                np.fft.fft2(p[0] + 1j * p[1]).real,
                np.fft.fft2(p[0] + 1j * p[1]).imag,
            ),
            tol=64,
        ),
        OpCase(
            "math.ifft2",
            (pair,),
            reference=lambda p: (
                np.fft.ifft2(p[0] + 1j * p[1]).real,
                np.fft.ifft2(p[0] + 1j * p[1]).imag,
            ),
            tol=64,
        ),
        OpCase(
            "math.irfft",
            (
                (
                    np.fft.rfft(rand((2, 8))).real.astype("float32"),
                    np.fft.rfft(rand((2, 8))).imag.astype("float32"),
                ),
            ),
            reference=lambda p: rand((2, 8)),
            tol=64,
        ),
        OpCase(
            "math.segment_min",
            (data, ids),
            {"num_segments": 3},
            reference=lambda d, i, num_segments: ref.segment(d, i, 3, np.minimum, np.inf),
        ),
        OpCase(
            "math.segment_prod",
            (data, ids),
            {"num_segments": 3},
            reference=lambda d, i, num_segments: ref.segment(d, i, 3, np.multiply, 1.0),
            tol=4,
        ),
        OpCase("math.stft", (rand((2, 32)), 8, 4, 8), check_values=False),
        OpCase(
            "linalg.cholesky_inverse",
            (np.linalg.cholesky(a).astype("float32"),),
            reference=lambda low: np.linalg.inv(low @ low.T),
            tol=256,
        ),
        OpCase(
            "linalg.lstsq",
            (rand((5, 3)), rand((5, 2), seed=1)),
            reference=lambda m, b: np.linalg.lstsq(m, b, rcond=None)[0],
            tol=256,
        ),
        OpCase("linalg.eig", (a,), check_values=False, check_dtype=False),
        OpCase("linalg.lu_factor", (a,), check_values=False),
    ]


def _image_core_extra() -> list[OpCase]:
    images = rand((2, 4, 5, 3), low=0, high=1)
    identity = np.array([[1, 0, 0, 0, 1, 0, 0, 0]] * 2, "float32")
    corners = np.array([[[0, 0], [4, 0], [0, 3], [4, 3]]] * 2, "float32")
    x = rand((4, 3))
    return [
        OpCase(
            "image.affine_transform",
            (images, identity),
            {"interpolation": "nearest"},
            reference=lambda i, t, interpolation: i,
        ),
        OpCase(
            "image.perspective_transform",
            (images, corners, corners),
            {"interpolation": "nearest"},
            reference=lambda i, s, e, interpolation: i,
        ),
        OpCase(
            "image.map_coordinates",
            (
                rand((4, 5)),
                np.stack(np.meshgrid(np.arange(4), np.arange(5), indexing="ij")).astype("float32"),
                1,
            ),
            reference=lambda a, c, order: a,
        ),
        OpCase("image.sobel_edges", (images,), check_values=False),
        OpCase("image.elastic_transform", (images,), {"seed": 1}, check_values=False),
        OpCase(
            "image.scale_and_translate",
            (
                images,
                (2, 8, 10, 3),
                np.array([2.0, 2.0], "float32"),
                np.array([0.0, 0.0], "float32"),
                (1, 2),
                "bilinear",
            ),
            check_values=False,
        ),
        OpCase(
            "image.extract_patches_3d",
            (rand((1, 2, 2, 2, 1)), 2),
            reference=lambda v, s: v.reshape(1, 1, 1, 1, 8),
        ),
        OpCase(
            "image.ssim",
            (rand((2, 16, 16, 3), low=0, high=1),) * 2,
            reference=lambda a, b: np.ones(2),
            tol=1000,
        ),
        OpCase(
            "core.scan",
            (lambda c, v: (c + v, c * v), np.zeros(3, "float32"), x),
            reference=lambda f, init, xs: ref.scan(lambda c, v: (c + v, c * v), init, xs),
        ),
        OpCase("core.map", (lambda v: v * 2, x), reference=lambda f, xs: xs * 2),
        OpCase("core.vectorized_map", (lambda v: v * 2, x), reference=lambda f, xs: xs * 2),
        OpCase(
            "core.switch",
            (1, [lambda v: v + 1, lambda v: v * 2], x),
            reference=lambda i, b, v: v * 2,
        ),
        OpCase(
            "core.associative_scan",
            (lambda a, b: a + b, x),
            {"axis": 0},
            reference=lambda f, e, axis: np.cumsum(e, axis=0),
            tol=4,
        ),
        OpCase(
            "linalg.jvp",
            (lambda v: v * v, (x,), (np.ones_like(x),)),
            reference=lambda f, p, t: (p[0] * p[0], 2 * p[0] * t[0]),
            tol=4,
        ),
    ]


def extra_cases() -> list[OpCase]:
    """Cases for the ops the main families leave out."""
    return [*_numpy_extra(), *_nn_extra(), *_math_linalg_extra(), *_image_core_extra()]
