"""numpy: every op against a NumPy formula, and result dtypes against Keras 3's TF backend.

Values: float32 inputs are compared with NumPy in float64 at rtol/atol 1e-5
(1e-4 for reductions and transcendental chains); ints and bools exactly.
"""

import os

os.environ["KERAS_BACKEND"] = "tensorflow"  # the Keras 3 reference below runs on TF

import itertools
import warnings

import keras
import numpy as np
import pytest
import tensorflow as tf

from mb_backend_tensorflow import numpy as tnp

RNG = np.random.default_rng(0)
A = RNG.uniform(-2, 2, (3, 4)).astype("float32")
B = RNG.uniform(-2, 2, (3, 4)).astype("float32")
P = RNG.uniform(0.1, 3, (3, 4)).astype("float32")
U = RNG.uniform(-0.9, 0.9, (3, 4)).astype("float32")
I = RNG.integers(-5, 6, (3, 4)).astype("int32")
J = RNG.integers(1, 6, (3, 4)).astype("int32")
BL = RNG.integers(0, 2, (3, 4)).astype(bool)
V = RNG.uniform(-2, 2, (5,)).astype("float32")
W = RNG.uniform(-2, 2, (3,)).astype("float32")
SQ = RNG.uniform(-2, 2, (4, 4)).astype("float32")
NANS = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan], [2.0, -1.0, np.inf]], "float32")

UNARY_FLOAT = [
    "abs",
    "absolute",
    "fabs",
    "sign",
    "square",
    "sqrt",
    "cbrt",
    "reciprocal",
    "floor",
    "ceil",
    "trunc",
    "exp",
    "exp2",
    "expm1",
    "sin",
    "cos",
    "tan",
    "arctan",
    "sinh",
    "cosh",
    "tanh",
    "arcsinh",
    "deg2rad",
    "rad2deg",
    "sinc",
    "i0",
    "negative",
    "isfinite",
    "isinf",
    "isnan",
    "signbit",
    "logical_not",
    "ravel",
    "copy",
    "cumsum",
    "cumprod",
    "sort",
    "argsort",
]
UNARY_POSITIVE = ["log", "log10", "log2", "log1p", "arccosh"]
UNARY_UNIT = ["arcsin", "arccos", "arctanh"]
BINARY = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "true_divide",
    "maximum",
    "minimum",
    "fmax",
    "fmin",
    "arctan2",
    "hypot",
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
    "heaviside",
    "nextafter",
    "copysign",
]
REDUCTIONS = [
    "sum",
    "prod",
    "mean",
    "max",
    "min",
    "amax",
    "amin",
    "all",
    "any",
    "argmax",
    "argmin",
    "std",
    "var",
    "ptp",
    "median",
    "count_nonzero",
    "nansum",
    "nanprod",
    "nanmean",
    "nanmax",
    "nanmin",
    "nanstd",
    "nanvar",
    "nanmedian",
]

CASES = [
    *[(n, (A,), {}, None) for n in UNARY_FLOAT],
    *[(n, (P,), {}, None) for n in UNARY_POSITIVE],
    *[(n, (U,), {}, None) for n in UNARY_UNIT],
    *[(n, (A, B), {}, None) for n in BINARY if hasattr(tnp, n)],
    ("round", (A * 10,), {"decimals": -1}, None),
    ("round", (A,), {"decimals": 2}, None),
    ("floor_divide", (I, J), {}, None),
    ("mod", (I, J), {}, None),
    ("mod", (A, P), {}, None),
    ("fmod", (I, J), {}, None),
    ("fmod", (A, P), {}, None),
    ("power", (P, B), {}, None),
    ("power", (I, np.abs(J)), {}, None),
    (
        "divide_no_nan",
        (A, np.where(BL, B, 0)),
        {},
        lambda a, b: np.where(b == 0, 0, a / np.where(b == 0, 1, b)),
    ),
    ("gcd", (I, J), {}, None),
    ("lcm", (I, J), {}, None),
    ("ldexp", (A, I), {}, None),
    ("bitwise_and", (I, J), {}, None),
    ("bitwise_or", (I, J), {}, None),
    ("bitwise_xor", (I, J), {}, None),
    ("bitwise_not", (I,), {}, np.invert),
    ("bitwise_invert", (I,), {}, np.invert),
    ("left_shift", (J, J), {}, None),
    ("right_shift", (np.abs(I) * 64, J), {}, None),
    ("clip", (A, -0.5, 0.7), {}, None),
    ("clip", (I, -2, 3), {}, None),
    ("isclose", (A, A + 1e-6), {}, None),
    ("allclose", (A, A + 1e-3), {}, None),
    ("isin", (I, J[0]), {}, None),
    ("nan_to_num", (NANS,), {}, lambda x: np.nan_to_num(x.astype("float32"))),
    ("isneginf", (-NANS,), {}, None),
    ("isposinf", (NANS,), {}, None),
    ("angle", (A,), {}, None),
    ("real", (A,), {}, None),
    ("imag", (A,), {}, None),
    ("conj", (A,), {}, None),
    ("isreal", (A,), {}, None),
    *[(n, (A,), {}, None) for n in REDUCTIONS],
    *[(n, (A,), {"axis": 1}, None) for n in REDUCTIONS],
    *[
        (n, (A,), {"axis": -2, "keepdims": True}, None)
        for n in REDUCTIONS
        if n not in ("count_nonzero",)
    ],
    *[
        (n, (NANS,), {"axis": 1}, None)
        for n in (
            "nansum",
            "nanmean",
            "nanmax",
            "nanmin",
            "nanprod",
            "nanvar",
            "nanstd",
            "nanmedian",
        )
    ],
    ("nanargmax", (NANS[[0, 2]],), {"axis": 1}, None),
    ("nanargmin", (NANS[[0, 2]],), {"axis": 1}, None),
    ("nancumsum", (NANS[:1],), {"axis": 1}, None),
    ("nancumprod", (NANS[:1],), {"axis": 1}, None),
    ("sum", (A,), {"axis": (0, 1)}, None),
    ("max", (A,), {"axis": 0, "initial": 1.0}, None),
    ("min", (I,), {"initial": -2}, None),
    ("cumsum", (A,), {"axis": 0}, None),
    ("cumprod", (I,), {"axis": 1}, None),
    ("average", (A,), {"axis": 1, "weights": P}, None),
    ("average", (A,), {"axis": 1, "weights": P[0]}, None),
    ("quantile", (A, [0.1, 0.5, 0.9]), {"axis": 1}, None),
    *[
        ("quantile", (A, 0.3), {"axis": 0, "method": m}, None)
        for m in ("lower", "higher", "midpoint", "nearest")
    ],
    ("quantile", (A, 0.25), {"axis": (0, 1), "keepdims": True}, None),
    ("percentile", (A, [20, 70]), {}, None),
    ("nanquantile", (np.nan_to_num(NANS, posinf=5.0), 0.5), {"axis": 1}, None),
    ("nanpercentile", (np.nan_to_num(NANS, posinf=5.0, nan=np.nan), 40), {"axis": 1}, None),
    ("arange", (2, 11, 3), {}, None),
    ("arange", (0.5, 3.0, 0.25), {}, None),
    ("linspace", (0.0, 1.0, 7), {}, None),
    ("linspace", (0.0, 1.0, 6), {"endpoint": False}, None),
    ("linspace", (np.zeros(2), np.ones(2), 5), {"axis": 1}, None),
    ("logspace", (0.0, 2.0, 5), {}, None),
    ("geomspace", (1.0, 1000.0, 4), {}, None),
    ("eye", (3, 4, 1), {}, None),
    ("identity", (3,), {}, None),
    ("tri", (3, 4, -1), {}, None),
    ("ones", ((2, 3),), {}, None),
    ("zeros", ((2,),), {}, None),
    ("full", ((2, 2), 7.0), {}, None),
    ("full_like", (I, 3), {}, None),
    ("zeros_like", (A,), {}, None),
    ("ones_like", (A,), {}, None),
    ("bartlett", (6,), {}, None),
    ("blackman", (6,), {}, None),
    ("hamming", (6,), {}, None),
    ("hanning", (6,), {}, None),
    ("kaiser", (6, 3.0), {}, None),
    ("vander", (W,), {}, None),
    ("vander", (W, 4), {"increasing": True}, None),
    ("diag", (W, 1), {}, None),
    ("diag", (SQ, -1), {}, None),
    ("diagflat", (W,), {}, None),
    ("diagonal", (A,), {"offset": 1}, None),
    ("trace", (SQ,), {}, None),
    ("tril", (A, -1), {}, None),
    ("triu", (A, 1), {}, None),
    ("reshape", (A, (4, 3)), {}, None),
    ("transpose", (A,), {}, None),
    ("moveaxis", (A[None], 0, -1), {}, None),
    ("swapaxes", (A[None], 0, 2), {}, None),
    ("expand_dims", (A, 1), {}, None),
    ("squeeze", (A[None, :, None],), {}, None),
    ("squeeze", (A[None],), {"axis": 0}, None),
    ("broadcast_to", (W, (2, 3)), {}, None),
    ("concatenate", ([A, B],), {"axis": 1}, None),
    ("append", (A, B), {}, None),
    ("append", (A, B), {"axis": 0}, None),
    ("stack", ([A, B],), {"axis": 1}, None),
    ("hstack", ([A, B],), {}, None),
    ("vstack", ([V, V],), {}, None),
    ("dstack", ([A, B],), {}, None),
    ("split", (A, 2), {"axis": 1}, None),
    ("split", (A, [1, 3]), {"axis": 1}, None),
    ("array_split", (V, 3), {}, None),
    ("hsplit", (A, 2), {}, None),
    ("vsplit", (A, [1]), {}, None),
    ("dsplit", (A.reshape(1, 3, 4), 2), {}, None),
    ("tile", (W, (2, 2)), {}, None),
    ("repeat", (A, 2), {"axis": 1}, None),
    ("repeat", (W, [1, 0, 2]), {}, None),
    ("flip", (A,), {"axis": 1}, None),
    ("fliplr", (A,), {}, None),
    ("flipud", (A,), {}, None),
    ("roll", (A, 2), {}, None),
    ("roll", (A, -1), {"axis": 1}, None),
    *[("rot90", (A,), {"k": k}, None) for k in (1, 2, 3, -1)],
    ("rot90", (A[None],), {"k": 1, "axes": (1, 2)}, None),
    *[
        ("pad", (A, ((1, 2), (0, 1))), {"mode": m}, None)
        for m in ("constant", "reflect", "symmetric", "edge", "wrap")
    ],
    ("pad", (A, 1), {"constant_values": 9.0}, None),
    ("take", (A, [0, 2, -1]), {"axis": 1}, None),
    ("take", (A, [[0, 5]]), {}, None),
    ("take_along_axis", (A, np.argsort(A, axis=1)), {"axis": 1}, None),
    ("take_along_axis", (A, np.argsort(A, axis=0)[:2]), {"axis": 0}, None),
    ("where", (BL, A, B), {}, None),
    ("where", (BL, A, 0.0), {}, None),
    ("searchsorted", (np.sort(V), A), {}, None),
    ("searchsorted", (np.sort(V), A), {"side": "right"}, None),
    ("digitize", (A, np.array([-1.0, 0.0, 1.0])), {}, None),
    ("sort", (A,), {"axis": 0}, None),
    ("argsort", (A,), {"axis": 0}, None),
    ("bincount", (np.abs(I[0]),), {}, None),
    ("bincount", (np.abs(I[0]),), {"weights": A[0], "minlength": 8}, None),
    ("unravel_index", (np.array([0, 5, 11]), (3, 4)), {}, None),
    ("matmul", (A, B.T), {}, None),
    ("matmul", (A[None], SQ), {}, None),
    ("matmul", (W, A), {}, None),
    ("matmul", (A, V[:4]), {}, None),
    ("matmul", (I, J.T), {}, None),
    ("dot", (A, B.T), {}, None),
    ("dot", (A, V[:4]), {}, None),
    ("dot", (A[None], SQ), {}, None),
    ("vdot", (A, B), {}, None),
    ("inner", (A, B), {}, None),
    ("outer", (W, V), {}, None),
    ("tensordot", (A, B), {"axes": 2}, None),
    ("tensordot", (A, B.T), {"axes": 1}, None),
    ("tensordot", (A, B), {"axes": ([0], [0])}, None),
    ("kron", (A[:2, :2], SQ[:3, :2]), {}, None),
    ("cross", (A[:, :3], B[:, :3]), {}, None),
    ("cross", (A[:, :2], B[:, :3]), {}, None),
    ("cross", (A[:, :2], B[:, :2]), {}, None),
    *[("correlate", (V, W), {"mode": m}, None) for m in ("valid", "same", "full")],
    ("correlate", (W[:2], V), {"mode": "full"}, None),
    ("corrcoef", (A,), {}, None),
    ("diff", (A,), {}, None),
    ("diff", (A,), {"n": 2, "axis": 0}, None),
    ("trapezoid", (A,), {}, None),
    ("trapezoid", (A,), {"dx": 0.5, "axis": 0}, None),
    ("trapezoid", (A, np.cumsum(P[0])), {}, None),
    ("meshgrid", (W, V), {}, None),
    ("meshgrid", (W, V), {"indexing": "ij"}, None),
    ("select", ([A > 0.5, A < -0.5], [A, B]), {"default": 1.0}, None),
    ("nonzero", (BL,), {}, None),
    ("histogram", (V,), {"bins": 4}, None),
    ("histogram", (V,), {"bins": 3, "range": (-1.0, 1.0)}, None),
    ("ndim", (A,), {}, None),
    ("size", (A,), {}, None),
]


def _as_numpy(x):
    if isinstance(x, tuple | list):
        return [_as_numpy(v) for v in x]
    return np.asarray(x)


def _reference(name, args, kwargs, ref):
    fn = ref or getattr(np, name)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")  # NumPy warns on all-NaN slices and 2-vectors
        return fn(
            *[
                np.asarray(a, dtype="float64")
                if isinstance(a, np.ndarray) and a.dtype == np.float32
                else a
                for a in args
            ],
            **kwargs,
        )


@pytest.mark.parametrize(
    ("name", "args", "kwargs", "ref"),
    CASES,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)],
)
def test_op_matches_numpy(name, args, kwargs, ref):
    out = getattr(tnp, name)(*args, **kwargs)
    expected = _reference(name, args, kwargs, ref)
    if isinstance(expected, tuple | list):
        assert len(out) == len(expected)
        for o, e in zip(out, expected, strict=True):
            np.testing.assert_allclose(_as_numpy(o), e, rtol=1e-4, atol=1e-5, equal_nan=True)
        return
    out = _as_numpy(out)
    assert out.shape == np.shape(expected), (out.shape, np.shape(expected))
    np.testing.assert_allclose(out, expected, rtol=1e-4, atol=1e-5, equal_nan=True)


def test_unique_with_all_outputs():
    x = np.array([3, 1, 3, 2, 1, 3], "int32")
    values, index, inverse, counts = tnp.unique(
        x, return_index=True, return_inverse=True, return_counts=True
    )
    expected = np.unique(x, return_index=True, return_inverse=True, return_counts=True)
    for got, want in zip((values, index, inverse, counts), expected, strict=True):
        np.testing.assert_array_equal(np.asarray(got), want)
    rows = np.array([[1, 2], [0, 5], [1, 2]], "int32")
    np.testing.assert_array_equal(tnp.unique(rows, axis=0), np.unique(rows, axis=0))
    padded = tnp.unique(x, size=5, fill_value=-1)
    np.testing.assert_array_equal(padded, [1, 2, 3, -1, -1])


def test_argpartition_puts_the_kth_element_in_place():
    x = RNG.permutation(10).astype("float32")
    idx = np.asarray(tnp.argpartition(x, 3))
    part = x[idx]
    assert part[3] == np.sort(x)[3]
    assert (part[:3] <= part[3]).all() and (part[4:] >= part[3]).all()


def test_einsum_matches_numpy():
    for spec, ops in [
        ("ij,jk->ik", (A, B.T)),
        ("bij,jk->bik", (A[None], SQ)),
        ("ii->i", (SQ,)),
        ("i,j->ij", (W, V)),
        ("...j,j->...", (A, V[:4])),
    ]:
        np.testing.assert_allclose(
            tnp.einsum(spec, *ops), np.einsum(spec, *ops), rtol=1e-5, atol=1e-5
        )
    assert tnp.einsum("ij,jk->ik", I, J.T).dtype == tf.int32


def test_vectorize_with_and_without_signature():
    add_one = tnp.vectorize(lambda v: v + 1.0)
    np.testing.assert_allclose(add_one(A), A + 1.0)
    rowdot = tnp.vectorize(lambda a, b: tf.reduce_sum(a * b), signature="(n),(n)->()")
    np.testing.assert_allclose(rowdot(A, B), (A * B).sum(-1), rtol=1e-5)


def test_view_reinterprets_bits():
    x = np.array([1.0, -2.0], "float32")
    np.testing.assert_array_equal(tnp.view(x, "int32"), x.view("int32"))
    np.testing.assert_array_equal(tnp.view(x, "int16"), x.view("int16"))
    np.testing.assert_array_equal(tnp.view(x.view("int16"), "float32"), x)


def test_slogdet_and_linspace_retstep():
    sign, logdet = tnp.slogdet(SQ)
    ref = np.linalg.slogdet(SQ.astype("float64"))
    np.testing.assert_allclose([float(sign), float(logdet)], ref, rtol=1e-4)
    values, step = tnp.linspace(0.0, 2.0, 5, retstep=True)
    assert float(step) == 0.5 and np.asarray(values).tolist() == [0.0, 0.5, 1.0, 1.5, 2.0]


def test_ops_trace_in_tf_function_with_an_unknown_leading_dim():
    # What tf.function(reduce_retracing=True) does to a batch axis after a retrace.
    spec = tf.TensorSpec([None, 4], tf.float32)

    @tf.function(input_signature=[spec])
    def f(x):
        return (
            tnp.split(x, [1, 3], axis=0),
            tnp.kron(x, tf.ones((2, 1))),
            tnp.correlate(x[:, 0], tf.constant([1.0, 2.0]), mode="same"),
            tnp.quantile(x, 0.5, axis=0),
            tnp.take_along_axis(x, tf.argsort(x, axis=0), axis=0),
        )

    parts, kron, corr, quant, taken = f(A)
    for got, want in zip(parts, np.split(A, [1, 3], axis=0), strict=True):
        np.testing.assert_allclose(got, want)
    np.testing.assert_allclose(kron, np.kron(A, np.ones((2, 1))), rtol=1e-6)
    np.testing.assert_allclose(corr, np.correlate(A[:, 0], [1.0, 2.0], "same"), rtol=1e-5)
    np.testing.assert_allclose(quant, np.quantile(A, 0.5, axis=0), rtol=1e-5)
    np.testing.assert_allclose(taken, np.sort(A, axis=0))


def test_errors_name_what_was_received():
    with pytest.raises(ValueError, match="equal sections"):
        tnp.split(V, 2)
    with pytest.raises(ValueError, match="size 4"):
        tnp.squeeze(A, axis=1)
    with pytest.raises(TypeError, match="bool"):
        tnp.subtract(BL, BL)
    with pytest.raises(ValueError, match="1-D"):
        tnp.searchsorted(A, V)


# ----- result dtypes against Keras 3 (TensorFlow backend) --------------------------------

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
          "bfloat16", "float16", "float32", "float64"]  # fmt: skip
UNARY_DTYPE_OPS = [
    "abs",
    "sign",
    "square",
    "sqrt",
    "exp",
    "exp2",
    "log",
    "log1p",
    "sin",
    "tanh",
    "floor",
    "ceil",
    "trunc",
    "round",
    "negative",
    "reciprocal",
    "sum",
    "prod",
    "mean",
    "max",
    "argmax",
    "std",
    "var",
    "cumsum",
    "cumprod",
    "all",
    "count_nonzero",
    "median",
    "isnan",
    "sort",
    "nan_to_num",
    "cbrt",
]
BINARY_DTYPE_OPS = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "floor_divide",
    "power",
    "maximum",
    "minimum",
    "mod",
    "arctan2",
    "hypot",
    "logaddexp",
    "equal",
    "matmul",
    "dot",
    "outer",
    "where",
]


def _sample(dtype):
    base = np.array([[1, 2], [3, 1]])
    return base.astype(bool) if dtype == "bool" else base.astype(dtype)


def _dtype_str(x):
    return keras.backend.standardize_dtype(x.dtype)


def _try(fn, *args):
    try:
        return fn(*args)
    except Exception:  # Keras or TF refuses this dtype combination
        return None


@pytest.mark.parametrize("name", UNARY_DTYPE_OPS)
def test_unary_result_dtypes_match_keras(name):
    mismatches = []
    for dtype in DTYPES:
        x = _sample(dtype)
        ref = _try(getattr(keras.ops, name), tf.constant(x))
        if ref is None:
            continue
        ours = getattr(tnp, name)(x)
        if _dtype_str(ours) != _dtype_str(ref):
            mismatches.append((dtype, _dtype_str(ours), _dtype_str(ref)))
    assert not mismatches


@pytest.mark.parametrize("name", BINARY_DTYPE_OPS)
def test_binary_result_dtypes_match_keras(name):
    mismatches = []
    for d1, d2 in itertools.combinations_with_replacement(DTYPES, 2):
        x1, x2 = _sample(d1), _sample(d2)
        args = (x1 > 1, x1, x2) if name == "where" else (x1, x2)
        ref = _try(getattr(keras.ops, name), *[tf.constant(a) for a in args])
        if ref is None:
            continue
        ours = getattr(tnp, name)(*args)
        if _dtype_str(ours) != _dtype_str(ref):
            mismatches.append((d1, d2, _dtype_str(ours), _dtype_str(ref)))
    assert not mismatches


def test_python_scalars_are_weak_in_promotion():
    assert tnp.add(np.ones(2, "float16"), 1.0).dtype == tf.float16
    assert tnp.multiply(np.ones(2, "int8"), 3).dtype == tf.int8
    assert tnp.add(np.ones(2, "int32"), 1.5).dtype == tf.float32
    assert tnp.mean(np.ones(2, "int32")).dtype == tf.float32


def test_size_counts_in_int64_eagerly_and_in_a_traced_function():
    x = np.zeros((3, 5), "float32")
    eager = tnp.size(x)
    assert eager.dtype == tf.int64 and int(eager) == 15
    traced = tf.function(
        tnp.size, input_signature=[tf.TensorSpec((None, 5), tf.float32)]
    ).get_concrete_function()
    assert traced.structured_outputs.dtype == tf.int64
    assert int(tf.function(tnp.size)(tf.zeros((7, 5)))) == 35
