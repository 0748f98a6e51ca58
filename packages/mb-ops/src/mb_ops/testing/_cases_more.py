"""Conformance cases for nn, math, linalg, image, core and rearrange."""

from __future__ import annotations

import numpy as np

from mb_ops.testing import _references as ref
from mb_ops.testing._case import OpCase
from mb_ops.testing._cases_extra import extra_cases
from mb_ops.testing._inputs import rand, spd

_ACTIVATIONS = {
    "relu": lambda x: np.maximum(x, 0),
    "relu6": lambda x: np.clip(x, 0, 6),
    "sigmoid": ref.sigmoid,
    "softplus": ref.softplus,
    "softsign": lambda x: x / (np.abs(x) + 1),
    "silu": lambda x: x * ref.sigmoid(x),
    "swish": lambda x: x * ref.sigmoid(x),
    "log_sigmoid": lambda x: -ref.softplus(-x),
    "elu": ref.elu,
    "selu": ref.selu,
    "celu": ref.celu,
    "hard_sigmoid": ref.hard_sigmoid,
    "hard_silu": lambda x: x * ref.hard_sigmoid(x),
    "hard_swish": lambda x: x * ref.hard_sigmoid(x),
    "hard_tanh": lambda x: np.clip(x, -1, 1),
    "tanh_shrink": lambda x: x - np.tanh(x),
    "sparse_plus": ref.sparse_plus,
    "squareplus": lambda x: (x + np.sqrt(x**2 + 4)) / 2,
    "soft_shrink": lambda x: np.where(x > 0.5, x - 0.5, np.where(x < -0.5, x + 0.5, 0.0)),
    "hard_shrink": lambda x: np.where(np.abs(x) > 0.5, x, 0.0),
    "sparse_sigmoid": lambda x: np.clip(0.5 * (x + 1), 0, 1),
    "gelu": ref.gelu,
}


def _nn_cases() -> list[OpCase]:
    out = []
    for name, fn in _ACTIVATIONS.items():
        out.append(
            OpCase(
                f"nn.{name}", (rand((3, 4), low=-3, high=3),), reference=fn, tol=8, label="float32"
            )
        )
        out.append(
            OpCase(
                f"nn.{name}",
                (rand((2, 3), "float16", -3, 3),),
                reference=fn,
                tol=8,
                label="float16",
            )
        )
    out += [
        OpCase(
            "nn.gelu",
            (rand((5,)),),
            {"approximate": False},
            reference=lambda x, approximate: ref.gelu(x, False),
            tol=8,
            label="exact",
        ),
        OpCase(
            "nn.leaky_relu",
            (rand((5,)),),
            {"negative_slope": 0.1},
            reference=lambda x, negative_slope: np.where(x > 0, x, negative_slope * x),
        ),
        OpCase(
            "nn.threshold", (rand((5,)), 0.3, -1.0), reference=lambda x, t, d: np.where(x > t, x, d)
        ),
        OpCase("nn.glu", (rand((2, 6)),), reference=ref.glu, tol=4),
        OpCase(
            "nn.softmax",
            (rand((2, 5)),),
            {"axis": -1},
            reference=lambda x, axis: ref.softmax(x, axis),
            tol=4,
        ),
        OpCase(
            "nn.softmax",
            (rand((3, 2)),),
            {"axis": 0},
            reference=lambda x, axis: ref.softmax(x, axis),
            tol=4,
            label="axis0",
        ),
        OpCase("nn.log_softmax", (rand((2, 5)),), reference=ref.log_softmax, tol=8),
        OpCase(
            "nn.one_hot",
            (np.array([0, 2, 1], "int32"), 4),
            reference=lambda x, n: ref.one_hot(x, n),
        ),
        OpCase(
            "nn.one_hot",
            (np.array([[0, 2]], "int32"), 3),
            {"axis": 0},
            reference=lambda x, n, axis: ref.one_hot(x, n, axis),
            label="axis0",
        ),
        OpCase(
            "nn.conv",
            (rand((2, 6, 6, 3)), rand((3, 3, 3, 4), seed=1)),
            reference=lambda x, k: ref.conv2d(x, k),
            tol=16,
            label="valid",
        ),
        OpCase(
            "nn.conv",
            (rand((1, 5, 5, 2)), rand((3, 3, 2, 2), seed=1)),
            {"padding": "same", "strides": 2},
            reference=lambda x, k, padding, strides: ref.conv2d(x, k, strides, padding),
            tol=16,
            label="same_stride2",
        ),
        OpCase(
            "nn.max_pool", (rand((2, 4, 4, 3)), 2), reference=lambda x, s: ref.pool2d(x, s, np.max)
        ),
        OpCase(
            "nn.average_pool",
            (rand((2, 4, 4, 3)), 2),
            reference=lambda x, s: ref.pool2d(x, s, np.mean),
            tol=4,
        ),
        OpCase(
            "nn.batch_normalization",
            (rand((4, 3)), rand((3,), seed=1), rand((3,), seed=2, low=0.5), -1),
            {"offset": rand((3,), seed=3), "scale": rand((3,), seed=4)},
            reference=lambda x, m, v, axis, offset, scale: (
                (x - m) / np.sqrt(v + 1e-3) * scale + offset
            ),
            tol=8,
        ),
        OpCase(
            "nn.moments",
            (rand((4, 3)), [0]),
            reference=lambda x, axes: (x.mean(axis=0), x.var(axis=0)),
            tol=8,
        ),
        OpCase(
            "nn.layer_normalization",
            (rand((2, 5)),),
            {"epsilon": 1e-3},
            reference=lambda x, epsilon: ref.layer_norm(x, -1, epsilon),
            tol=16,
        ),
        OpCase(
            "nn.rms_normalization",
            (rand((2, 5)),),
            {"epsilon": 1e-6},
            reference=lambda x, epsilon: x / np.sqrt(np.mean(x**2, -1, keepdims=True) + epsilon),
            tol=16,
        ),
        OpCase(
            "nn.normalize",
            (rand((2, 5)),),
            reference=lambda x: x / np.linalg.norm(x, axis=-1, keepdims=True),
            tol=8,
        ),
        OpCase(
            "nn.binary_crossentropy",
            (rand((3, 2), low=0, high=1), rand((3, 2), low=0.05, high=0.95, seed=1)),
            reference=ref.binary_crossentropy,
            tol=16,
        ),
        OpCase(
            "nn.categorical_crossentropy",
            (ref.one_hot(np.array([0, 2]), 3), rand((2, 3), low=0.1, high=1, seed=1)),
            reference=ref.categorical_crossentropy,
            tol=16,
        ),
        OpCase(
            "nn.sparse_categorical_crossentropy",
            (np.array([0, 2], "int32"), rand((2, 3), low=0.1, high=1, seed=1)),
            reference=lambda t, o: ref.categorical_crossentropy(ref.one_hot(t, 3), o),
            tol=16,
        ),
        OpCase(
            "nn.dot_product_attention",
            (rand((2, 4, 2, 8)), rand((2, 5, 2, 8), seed=1), rand((2, 5, 2, 8), seed=2)),
            reference=ref.attention,
            tol=16,
        ),
        OpCase("nn.depth_to_space", (rand((1, 2, 2, 4)), 2), check_values=False),
        OpCase("nn.space_to_depth", (rand((1, 4, 4, 1)), 2), check_values=False),
        OpCase(
            "nn.psnr",
            (rand((4, 4), low=0, high=1), rand((4, 4), low=0, high=1, seed=1), 1.0),
            reference=lambda a, b, m: 10 * np.log10(m**2 / np.mean((a - b) ** 2)),
            tol=16,
        ),
        OpCase(
            "nn.polar",
            (rand((3,), low=0.5), rand((3,), seed=1)),
            reference=lambda r, t: r * np.exp(1j * t),
            tol=8,
        ),
    ]
    return out


def _math_cases() -> list[OpCase]:
    data = rand((5, 2))
    ids = np.array([0, 0, 1, 2, 2], "int32")
    return [
        OpCase(
            "math.logsumexp",
            (rand((3, 4)),),
            {"axis": -1},
            reference=lambda x, axis: np.log(np.sum(np.exp(x), axis=axis)),
            tol=8,
        ),
        OpCase("math.rsqrt", (rand((4,), low=0.5),), reference=lambda x: 1 / np.sqrt(x), tol=4),
        OpCase("math.erf", (rand((4,)),), reference=ref.erf, tol=8),
        OpCase("math.erfc", (rand((4,)),), reference=lambda x: 1 - ref.erf(x), tol=8),
        OpCase(
            "math.segment_sum",
            (data, ids),
            {"num_segments": 3},
            reference=lambda d, i, num_segments: ref.segment(d, i, 3, np.add, 0.0),
            tol=4,
        ),
        OpCase(
            "math.segment_max",
            (data, ids),
            {"num_segments": 3},
            reference=lambda d, i, num_segments: ref.segment(d, i, 3, np.maximum, -np.inf),
        ),
        OpCase(
            "math.top_k",
            (rand((2, 5)), 2),
            reference=lambda x, k: (
                np.sort(x, -1)[:, ::-1][:, :k],
                np.argsort(-x, -1, kind="stable")[:, :k],
            ),
        ),
        OpCase(
            "math.in_top_k",
            (np.array([1, 0], "int32"), rand((2, 4)), 2),
            reference=lambda t, p, k: np.array(
                [t[i] in np.argsort(-p[i])[:k] for i in range(len(t))]
            ),
        ),
        OpCase(
            "math.cdist",
            (rand((3, 2)), rand((4, 2), seed=1)),
            reference=lambda a, b: np.sqrt(((a[:, None] - b[None]) ** 2).sum(-1)),
            tol=8,
        ),
        OpCase(
            "math.extract_sequences",
            (rand((2, 8)), 3, 2),
            reference=lambda x, n, s: np.stack([x[:, i : i + n] for i in range(0, 6, s)], axis=1),
        ),
        OpCase(
            "math.rfft",
            (rand((2, 8)),),
            reference=lambda x: (np.fft.rfft(x).real, np.fft.rfft(x).imag),
            tol=16,
        ),
        OpCase(
            "math.fft",
            ((rand((2, 8)), rand((2, 8), seed=1)),),
            reference=lambda p: (
                np.fft.fft(p[0] + 1j * p[1]).real,
                np.fft.fft(p[0] + 1j * p[1]).imag,
            ),
            tol=16,
        ),
        OpCase("math.logdet", (spd(3),), reference=lambda x: np.linalg.slogdet(x)[1], tol=16),
        OpCase(
            "math.view_as_real",
            (rand((3,), "complex64"),),
            reference=lambda x: np.stack([x.real, x.imag], -1),
        ),
        OpCase(
            "math.view_as_complex", (rand((3, 2)),), reference=lambda x: x[..., 0] + 1j * x[..., 1]
        ),
    ]


def _linalg_cases() -> list[OpCase]:
    a = spd(3)
    b = rand((3, 2), seed=1)
    return [
        OpCase("linalg.inv", (a,), reference=np.linalg.inv, tol=64),
        OpCase("linalg.det", (a,), reference=np.linalg.det, tol=64),
        OpCase("linalg.solve", (a, b), reference=np.linalg.solve, tol=64),
        OpCase("linalg.cholesky", (a,), reference=np.linalg.cholesky, tol=64),
        OpCase("linalg.norm", (rand((3, 4)),), reference=np.linalg.norm, tol=8),
        OpCase(
            "linalg.norm",
            (rand((3, 4)),),
            {"axis": -1},
            reference=lambda x, axis: np.linalg.norm(x, axis=axis),
            tol=8,
            label="vector",
        ),
        OpCase(
            "linalg.norm",
            (rand((3, 4)),),
            {"ord": 1, "axis": (0, 1)},
            reference=lambda x, ord, axis: np.linalg.norm(x, ord=ord, axis=axis),
            tol=8,
            label="matrix_ord1",
        ),
        OpCase(
            "linalg.svd",
            (rand((3, 4)),),
            {"compute_uv": False},
            reference=lambda x, compute_uv: np.linalg.svd(x, compute_uv=False),
            tol=64,
        ),
        OpCase("linalg.pinv", (rand((3, 4)),), reference=np.linalg.pinv, tol=256),
        OpCase("linalg.matrix_rank", (rand((3, 4)),), reference=np.linalg.matrix_rank),
        OpCase(
            "linalg.solve_triangular",
            (np.tril(a), b),
            {"lower": True},
            reference=lambda m, r, lower: np.linalg.solve(m, r),
            tol=64,
        ),
        OpCase("linalg.eigh", (a,), reference=None, check_values=False),
        OpCase("linalg.qr", (rand((4, 3)),), reference=None, check_values=False),
    ]


def _image_cases() -> list[OpCase]:
    images = rand((2, 4, 6, 3), low=0, high=1)
    return [
        OpCase(
            "image.rgb_to_grayscale",
            (images,),
            reference=lambda x: (x @ np.array([0.2989, 0.587, 0.114]))[..., None],
            tol=64,
        ),
        OpCase(
            "image.resize",
            (images, (8, 12)),
            {"interpolation": "nearest"},
            reference=lambda x, s, interpolation: x.repeat(2, 1).repeat(2, 2),
        ),
        OpCase(
            "image.crop_images",
            (images,),
            {"top_cropping": 1, "left_cropping": 2, "target_height": 2, "target_width": 3},
            reference=lambda x, **k: x[:, 1:3, 2:5, :],
        ),
        OpCase(
            "image.pad_images",
            (images,),
            {"top_padding": 1, "left_padding": 2, "bottom_padding": 0, "right_padding": 1},
            reference=lambda x, **k: np.pad(x, ((0, 0), (1, 0), (2, 1), (0, 0))),
        ),
        OpCase(
            "image.extract_patches",
            (rand((1, 4, 4, 1)), 2),
            reference=lambda x, s: (
                x.reshape(1, 2, 2, 2, 2, 1).transpose(0, 1, 3, 2, 4, 5).reshape(1, 2, 2, 4)
            ),
        ),
        OpCase("image.rgb_to_hsv", (images,), check_values=False),
        OpCase("image.hsv_to_rgb", (images,), check_values=False),
        OpCase("image.gaussian_blur", (images,), check_values=False),
    ]


def _core_cases() -> list[OpCase]:
    x = rand((3, 4))
    return [
        OpCase("core.cast", (x, "int32"), reference=lambda a, d: a.astype(d)),
        OpCase(
            "core.cast",
            (rand((3,), "int32"), "bfloat16"),
            reference=lambda a, d: a.astype("float32"),
            label="to_bfloat16",
        ),
        OpCase(
            "core.saturate_cast",
            (np.array([-300.0, 10.0, 300.0], "float32"), "uint8"),
            reference=lambda a, d: np.clip(a, 0, 255).astype("uint8"),
        ),
        OpCase("core.convert_to_tensor", (x,), reference=lambda a: a),
        OpCase(
            "core.convert_to_tensor",
            ([1, 2, 3],),
            {"dtype": "float32"},
            reference=lambda a, dtype: np.array(a, "float32"),
            label="list",
        ),
        OpCase(
            "core.scatter",
            (np.array([[0, 1], [2, 0]], "int32"), np.array([1.0, 2.0], "float32"), (3, 2)),
            reference=lambda i, v, s: np.array([[0, 1], [0, 0], [2, 0]], "float32"),
        ),
        OpCase(
            "core.scatter_update",
            (np.zeros((3, 2), "float32"), np.array([[1, 1]], "int32"), np.array([5.0], "float32")),
            reference=lambda a, i, u: np.array([[0, 0], [0, 5], [0, 0]], "float32"),
        ),
        OpCase("core.slice", (x, (1, 0), (2, 3)), reference=lambda a, s, n: a[1:3, 0:3]),
        OpCase(
            "core.slice_update",
            (x, (1, 1), np.ones((2, 2), "float32")),
            reference=lambda a, s, u: _set(a, (slice(1, 3), slice(1, 3)), u),
        ),
        OpCase(
            "core.unstack", (x,), {"axis": 1}, reference=lambda a, axis: [a[:, i] for i in range(4)]
        ),
        OpCase("core.stop_gradient", (x,), reference=lambda a: a),
        OpCase(
            "core.cond",
            (True, lambda: np.float32(1.0), lambda: np.float32(2.0)),
            reference=lambda p, t, f: np.float32(1.0),
            check_dtype=False,
        ),
        OpCase(
            "core.fori_loop",
            (0, 4, lambda i, v: v + i, np.float32(0.0)),
            reference=lambda lo, hi, f, v: np.float32(6.0),
            check_dtype=False,
        ),
        OpCase(
            "core.while_loop",
            (lambda v: v < 5, lambda v: v + 2, 0),
            reference=lambda c, b, v: np.int32(6),
            check_dtype=False,
        ),
        OpCase(
            "einops.rearrange",
            (rand((2, 3, 4)), "b h w -> b (w h)"),
            reference=lambda t, p: t.transpose(0, 2, 1).reshape(2, 12),
        ),
    ]


def _set(a, key, value):
    out = a.copy()
    out[key] = value
    return out


def more_cases() -> list[OpCase]:
    """Every conformance case outside the numpy family."""
    return [
        *_nn_cases(),
        *_math_cases(),
        *_linalg_cases(),
        *_image_cases(),
        *_core_cases(),
        *extra_cases(),
    ]
