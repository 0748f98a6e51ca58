"""numpy: values against NumPy, result dtypes against Keras 3 on JAX.

Tolerances: float32 results rtol=1e-5/atol=1e-6 against NumPy float64 unless a
test says otherwise; dtype checks are exact.
"""

import jax.numpy as jnp
import numpy as np
import pytest
from jax_keras_reference import numpy as keras_jax_numpy
from jax_keras_reference import ops as kops

from mb_backend_jax import numpy as mnp

RNG = np.random.default_rng(0)
X = RNG.uniform(0.1, 0.9, (3, 4)).astype("float32")
Y = RNG.uniform(0.1, 0.9, (3, 4)).astype("float32")
I = np.arange(-5, 7, dtype="int32").reshape(3, 4)
B = X > 0.5

UNARY = [
    "abs",
    "absolute",
    "arccos",
    "arccosh",
    "arcsin",
    "arcsinh",
    "arctan",
    "arctanh",
    "cbrt",
    "ceil",
    "conj",
    "conjugate",
    "copy",
    "cos",
    "cosh",
    "deg2rad",
    "exp",
    "exp2",
    "expm1",
    "fabs",
    "floor",
    "imag",
    "isfinite",
    "isinf",
    "isnan",
    "isneginf",
    "isposinf",
    "isreal",
    "log",
    "log10",
    "log1p",
    "log2",
    "logical_not",
    "negative",
    "rad2deg",
    "real",
    "reciprocal",
    "sign",
    "signbit",
    "sin",
    "sinc",
    "sinh",
    "sqrt",
    "square",
    "tan",
    "tanh",
    "trunc",
    "angle",
    "round",
    "i0",
    "nan_to_num",
    "ravel",
    "transpose",
    "fliplr",
    "flipud",
]
BINARY = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "true_divide",
    "floor_divide",
    "mod",
    "fmod",
    "power",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "heaviside",
    "hypot",
    "arctan2",
    "logaddexp",
    "logaddexp2",
    "equal",
    "not_equal",
    "less",
    "less_equal",
    "greater",
    "greater_equal",
    "logical_and",
    "logical_or",
    "logical_xor",
    "divide_no_nan",
    "nextafter",
]
REDUCTIONS = [
    "sum",
    "prod",
    "mean",
    "var",
    "std",
    "max",
    "min",
    "amax",
    "amin",
    "all",
    "any",
    "ptp",
    "median",
    "nansum",
    "nanprod",
    "nanmax",
    "nanmin",
    "nanmean",
    "nanstd",
    "nanvar",
    "nanmedian",
    "argmax",
    "argmin",
]
INPUT_DTYPES = ["float32", "bfloat16", "int32", "uint8", "bool"]


def _sample(dtype):
    if dtype == "bool":
        return B
    if "int" in dtype:
        return np.abs(I).astype(dtype) if dtype.startswith("u") else I.astype(dtype)
    return X.astype("float32")


def _as_jax(x, dtype):
    return jnp.asarray(x).astype(dtype)


@pytest.mark.parametrize("dtype", INPUT_DTYPES)
@pytest.mark.parametrize("name", UNARY)
def test_unary_matches_keras_dtype_and_values(name, dtype):
    x = _as_jax(_sample(dtype), dtype)
    try:
        expected = getattr(kops, name)(x)
    except (TypeError, ValueError):
        with pytest.raises((TypeError, ValueError)):
            getattr(mnp, name)(x)
        return
    got = getattr(mnp, name)(x)
    assert str(got.dtype) == str(expected.dtype), name
    np.testing.assert_allclose(
        np.asarray(got, "float64"), np.asarray(expected, "float64"), rtol=1e-6, equal_nan=True
    )


@pytest.mark.parametrize(
    "dtypes",
    [
        ("float32", "int32"),
        ("int8", "uint8"),
        ("bool", "int32"),
        ("float16", "float32"),
        ("bfloat16", "int8"),
        ("int32", "int32"),
        ("float32", "float32"),
    ],
)
@pytest.mark.parametrize("name", BINARY)
def test_binary_matches_keras_dtype_and_values(name, dtypes):
    a = _as_jax(_sample(dtypes[0]), dtypes[0])
    b = _as_jax(_sample(dtypes[1]), dtypes[1])
    try:
        expected = getattr(kops, name)(a, b)
    except (TypeError, ValueError):
        with pytest.raises((TypeError, ValueError)):
            getattr(mnp, name)(a, b)
        return
    got = getattr(mnp, name)(a, b)
    assert str(got.dtype) == str(expected.dtype), name
    np.testing.assert_allclose(
        np.asarray(got, "float64"), np.asarray(expected, "float64"), rtol=1e-6, equal_nan=True
    )


@pytest.mark.parametrize("scalar", [2, 2.5, True])
@pytest.mark.parametrize("dtype", ["int8", "int32", "float16", "float32"])
def test_python_scalars_are_weak(scalar, dtype):
    x = _as_jax(_sample(dtype), dtype)
    for name in ("add", "multiply", "power", "maximum"):
        assert str(getattr(mnp, name)(x, scalar).dtype) == str(getattr(kops, name)(x, scalar).dtype)


@pytest.mark.parametrize("dtype", ["float32", "float16", "int32", "bool"])
@pytest.mark.parametrize("axis", [None, -1, (0, 1)])
@pytest.mark.parametrize("name", REDUCTIONS)
def test_reductions_match_keras(name, axis, dtype):
    if name in ("argmax", "argmin") and isinstance(axis, tuple):
        return
    x = _as_jax(_sample(dtype), dtype)
    try:
        expected = getattr(kops, name)(x, axis=axis)
    except (TypeError, ValueError):
        with pytest.raises((TypeError, ValueError)):
            getattr(mnp, name)(x, axis=axis)
        return
    got = getattr(mnp, name)(x, axis=axis)
    assert str(got.dtype) == str(expected.dtype)
    assert got.shape == expected.shape
    np.testing.assert_allclose(
        np.asarray(got, "float64"), np.asarray(expected, "float64"), rtol=1e-3
    )


def test_reductions_match_numpy_values():
    for name in ("sum", "mean", "var", "std", "max", "min", "median", "ptp", "prod"):
        for axis in (None, 0, 1, -1):
            np.testing.assert_allclose(
                np.asarray(getattr(mnp, name)(X, axis=axis, keepdims=True)),
                getattr(np, name)(X.astype("float64"), axis=axis, keepdims=True),
                rtol=1e-5,
                atol=1e-6,
            )


def test_creation_dtypes_follow_keras():
    cases = [
        ("zeros", ((2, 3),)),
        ("ones", ((2,),)),
        ("eye", (3,)),
        ("identity", (2,)),
        ("tri", (3,)),
        ("arange", (5,)),
        ("arange", (0.0, 2.0, 0.5)),
        ("linspace", (0, 1, 5)),
        ("logspace", (0, 2, 3)),
        ("geomspace", (1, 100, 3)),
        ("full", ((2,), 3)),
        ("hamming", (5,)),
        ("hanning", (5,)),
        ("bartlett", (5,)),
        ("blackman", (5,)),
    ]
    for name, args in cases:
        got = getattr(mnp, name)(*args)
        expected = getattr(kops, name)(*args)
        assert str(got.dtype) == str(expected.dtype), name
        np.testing.assert_allclose(np.asarray(got), np.asarray(expected), rtol=1e-6, err_msg=name)
    np.testing.assert_allclose(np.asarray(mnp.kaiser(6, 2.0)), np.kaiser(6, 2.0), rtol=1e-5)
    assert str(mnp.zeros_like(I, dtype="float16").dtype) == "float16"
    assert str(mnp.full_like(X, 1).dtype) == "float32"


def test_shape_ops_match_numpy():
    a = np.arange(24).reshape(2, 3, 4)
    checks = [
        (mnp.reshape(a, (4, -1)), a.reshape(4, -1)),
        (mnp.expand_dims(a, (0, -1)), np.expand_dims(a, (0, -1))),
        (mnp.squeeze(a[:1]), a[0]),
        (mnp.moveaxis(a, 0, -1), np.moveaxis(a, 0, -1)),
        (mnp.swapaxes(a, 0, 2), np.swapaxes(a, 0, 2)),
        (mnp.concatenate([a, a], axis=-1), np.concatenate([a, a], axis=-1)),
        (mnp.stack([a, a], axis=1), np.stack([a, a], axis=1)),
        (mnp.hstack([a, a]), np.hstack([a, a])),
        (mnp.vstack([a, a]), np.vstack([a, a])),
        (mnp.dstack([a, a]), np.dstack([a, a])),
        (mnp.append(a, a, axis=0), np.append(a, a, axis=0)),
        (mnp.flip(a, axis=(0, 2)), np.flip(a, axis=(0, 2))),
        (mnp.rot90(a, axes=(1, 2)), np.rot90(a, axes=(1, 2))),
        (mnp.roll(a, 2, axis=-1), np.roll(a, 2, axis=-1)),
        (mnp.tile(a, (1, 2, 1)), np.tile(a, (1, 2, 1))),
        (mnp.repeat(a, 2, axis=1), np.repeat(a, 2, axis=1)),
        (mnp.pad(a, ((0, 1), (1, 0), (2, 2))), np.pad(a, ((0, 1), (1, 0), (2, 2)))),
        (mnp.pad(a, 1, mode="reflect"), np.pad(a, 1, mode="reflect")),
        (mnp.broadcast_to(a[0, 0], (3, 4)), np.broadcast_to(a[0, 0], (3, 4))),
        (mnp.diag(a[0]), np.diag(a[0])),
        (mnp.diagflat(a[0, 0]), np.diagflat(a[0, 0])),
        (mnp.diagonal(a, 1, 1, 2), np.diagonal(a, 1, 1, 2)),
        (mnp.tril(a[0], -1), np.tril(a[0], -1)),
        (mnp.triu(a[0], 1), np.triu(a[0], 1)),
        (mnp.take(a, [0, 2], axis=1), np.take(a, [0, 2], axis=1)),
        (
            mnp.take_along_axis(a, np.zeros((2, 3, 1), "int32"), axis=2),
            np.take_along_axis(a, np.zeros((2, 3, 1), "int32"), axis=2),
        ),
    ]
    for got, expected in checks:
        np.testing.assert_array_equal(np.asarray(got), expected)
    for got, expected in zip(mnp.split(a, 2, axis=-1), np.split(a, 2, axis=-1), strict=True):
        np.testing.assert_array_equal(np.asarray(got), expected)
    assert len(mnp.array_split(a, 3, axis=-1)) == 3
    assert int(mnp.ndim(a)) == 3 and int(mnp.size(a)) == 24
    with pytest.raises(ValueError, match="rank 2"):
        mnp.rot90(np.ones(3))
    with pytest.raises(ValueError, match="constant_values"):
        mnp.pad(a, 1, mode="edge", constant_values=1)


def test_linear_algebra_ops_match_numpy():
    a = RNG.normal(size=(2, 3, 4)).astype("float32")
    b = RNG.normal(size=(2, 4, 5)).astype("float32")
    tol = {"rtol": 1e-5, "atol": 1e-5}
    np.testing.assert_allclose(np.asarray(mnp.matmul(a, b)), a @ b, **tol)
    np.testing.assert_allclose(np.asarray(mnp.einsum("bij,bjk->bik", a, b)), a @ b, **tol)
    np.testing.assert_allclose(
        np.asarray(mnp.tensordot(a, b, axes=([2], [1]))), np.tensordot(a, b, axes=([2], [1])), **tol
    )
    np.testing.assert_allclose(np.asarray(mnp.dot(a[0], b[0])), a[0] @ b[0], **tol)
    v, w = a[0, 0], a[1, 0]
    for name in ("outer", "inner", "vdot", "kron"):
        np.testing.assert_allclose(
            np.asarray(getattr(mnp, name)(v, w)), getattr(np, name)(v, w), **tol
        )
    np.testing.assert_allclose(np.asarray(mnp.cross(v[:3], w[:3])), np.cross(v[:3], w[:3]), **tol)
    np.testing.assert_allclose(np.asarray(mnp.trace(a[0])), np.trace(a[0]), **tol)
    np.testing.assert_allclose(
        np.asarray(mnp.correlate(v, w, mode="full")), np.correlate(v, w, mode="full"), **tol
    )
    sign, logdet = mnp.slogdet(a[:, :3, :3])
    np.testing.assert_allclose(
        np.asarray(sign) * np.exp(np.asarray(logdet)), np.linalg.det(a[:, :3, :3]), rtol=1e-4
    )
    i8 = np.ones((2, 2), "int8")
    assert str(mnp.matmul(i8, i8).dtype) == "int32"


def test_selection_sorting_and_counting_match_numpy():
    x = np.array([3, 1, 2, 3, 0, 1], "int32")
    np.testing.assert_array_equal(np.asarray(mnp.sort(x)), np.sort(x))
    np.testing.assert_array_equal(np.asarray(mnp.argsort(x)), np.argsort(x, kind="stable"))
    np.testing.assert_array_equal(np.asarray(mnp.where(x > 1, x, 0)), np.where(x > 1, x, 0))
    np.testing.assert_array_equal(np.asarray(mnp.where(x > 1)[0]), np.where(x > 1)[0])
    np.testing.assert_array_equal(np.asarray(mnp.nonzero(x)[0]), np.nonzero(x)[0])
    np.testing.assert_array_equal(
        np.asarray(mnp.bincount(x, minlength=6)), np.bincount(x, minlength=6)
    )
    np.testing.assert_array_equal(
        np.asarray(mnp.bincount(np.stack([x, x]))), np.stack([np.bincount(x)] * 2)
    )
    np.testing.assert_array_equal(np.asarray(mnp.unique(x)), np.unique(x))
    np.testing.assert_array_equal(
        np.asarray(mnp.searchsorted(np.sort(x), 2)), np.searchsorted(np.sort(x), 2)
    )
    np.testing.assert_array_equal(np.asarray(mnp.digitize(x, [1, 2])), np.digitize(x, [1, 2]))
    np.testing.assert_array_equal(np.asarray(mnp.isin(x, [1, 3])), np.isin(x, [1, 3]))
    np.testing.assert_array_equal(np.asarray(mnp.diff(x, 2)), np.diff(x, 2))
    np.testing.assert_array_equal(np.asarray(mnp.count_nonzero(x)), np.count_nonzero(x))
    np.testing.assert_array_equal(np.asarray(mnp.cumsum(x)), np.cumsum(x))
    np.testing.assert_array_equal(
        np.asarray(mnp.select([x < 1, x > 2], [x, -x], 7)), np.select([x < 1, x > 2], [x, -x], 7)
    )
    part = np.asarray(mnp.argpartition(x, 2))
    assert set(x[part[:2]]) <= {0, 1}
    counts, edges = mnp.histogram(x.astype("float32"), bins=3)
    np_counts, np_edges = np.histogram(x, bins=3)
    np.testing.assert_array_equal(np.asarray(counts), np_counts)
    np.testing.assert_allclose(np.asarray(edges), np_edges, rtol=1e-6)
    with pytest.raises(ValueError, match="1-D"):
        mnp.searchsorted(np.ones((2, 2)), 1)
    with pytest.raises(ValueError, match="x1 and x2"):
        mnp.where(x > 1, x)


def test_quantiles_and_averages_match_numpy():
    q = np.array([0.1, 0.5, 0.9])
    tol = {"rtol": 1e-5, "atol": 1e-6}
    np.testing.assert_allclose(
        np.asarray(mnp.quantile(X, q, axis=1)), np.quantile(X, q, axis=1), **tol
    )
    np.testing.assert_allclose(
        np.asarray(mnp.percentile(X, 40, axis=0)), np.percentile(X, 40, axis=0), **tol
    )
    np.testing.assert_allclose(
        np.asarray(mnp.quantile(X, 0.3, keepdims=True)), np.quantile(X, 0.3, keepdims=True), **tol
    )
    np.testing.assert_allclose(
        np.asarray(mnp.average(X, axis=1, weights=Y)), np.average(X, axis=1, weights=Y), **tol
    )
    np.testing.assert_allclose(
        np.asarray(mnp.trapezoid(X, axis=-1)), np.trapezoid(X, axis=-1), **tol
    )
    np.testing.assert_allclose(np.asarray(mnp.corrcoef(X)), np.corrcoef(X), rtol=1e-4, atol=1e-5)


def test_bit_ops_and_ldexp():
    a = np.array([1, 2, 12], "int32")
    assert np.asarray(mnp.bitwise_and(a, 6)).tolist() == (a & 6).tolist()
    assert np.asarray(mnp.bitwise_or(a, 1)).tolist() == (a | 1).tolist()
    assert np.asarray(mnp.bitwise_xor(a, 3)).tolist() == (a ^ 3).tolist()
    assert np.asarray(mnp.bitwise_not(a)).tolist() == (~a).tolist()
    assert np.asarray(mnp.left_shift(a, 2)).tolist() == (a << 2).tolist()
    assert np.asarray(mnp.right_shift(a, 1)).tolist() == (a >> 1).tolist()
    np.testing.assert_allclose(np.asarray(mnp.ldexp(X, np.int32(3))), np.ldexp(X, 3), rtol=1e-6)
    with pytest.raises(TypeError, match="integer"):
        mnp.ldexp(X, X)


def test_every_keras_numpy_op_is_provided():
    names = [n for n in dir(keras_jax_numpy) if not n.startswith("_")]
    public = [
        n
        for n in names
        if callable(getattr(keras_jax_numpy, n))
        and getattr(getattr(keras_jax_numpy, n), "__module__", "") == keras_jax_numpy.__name__
    ]
    missing = [n for n in public if not hasattr(mnp, n)]
    assert not missing
