"""The numpy ops against NumPy itself, on the same inputs (tolerance: 1e-5 relative, float32)."""

import numpy as np
import pytest
import torch

from mb_backend_torch import core
from mb_backend_torch import numpy as tnp

RNG = np.random.default_rng(0)
A = RNG.normal(size=(3, 4)).astype("float32")
B = RNG.normal(size=(3, 4)).astype("float32")
P = (np.abs(A) + 0.5).astype("float32")  # positive
U = RNG.uniform(-0.9, 0.9, size=(3, 4)).astype("float32")  # in (-1, 1)
I = RNG.integers(-5, 6, size=(3, 4)).astype("int32")
J = RNG.integers(1, 6, size=(3, 4)).astype("int32")
M = RNG.normal(size=(4, 5)).astype("float32")
S = RNG.normal(size=(3, 3)).astype("float32")
V = RNG.normal(size=(4,)).astype("float32")
W = RNG.normal(size=(3,)).astype("float32")
BOOL = A > 0
NANS = A.copy()
NANS[0, 1] = np.nan
NANS[2, 3] = np.nan
INFS = np.where(BOOL, np.inf, -np.inf).astype("float32")

# (name, args, kwargs, reference); reference None means np.<name>(*args, **kwargs).
CASES = [
    ("add", (A, B), {}, None),
    ("add", (A, 2.0), {}, None),
    ("add", (3, A), {}, None),
    ("subtract", (A, B), {}, None),
    ("multiply", (A, B), {}, None),
    ("divide", (A, P), {}, None),
    ("true_divide", (I, J), {}, None),
    ("floor_divide", (I, J), {}, None),
    ("mod", (I, J), {}, None),
    ("fmod", (I, J), {}, None),
    ("power", (P, B), {}, None),
    ("negative", (A,), {}, None),
    ("reciprocal", (P,), {}, None),
    ("maximum", (A, B), {}, None),
    ("minimum", (A, 0.0), {}, None),
    ("fmax", (NANS, B), {}, None),
    ("fmin", (NANS, B), {}, None),
    ("heaviside", (A, B), {}, None),
    ("hypot", (A, B), {}, None),
    ("arctan2", (A, B), {}, None),
    ("logaddexp", (A, B), {}, None),
    ("logaddexp2", (A, B), {}, None),
    ("ldexp", (A, I), {}, None),
    ("gcd", (I, J), {}, None),
    ("lcm", (I, J), {}, None),
    ("square", (A,), {}, None),
    ("sqrt", (P,), {}, None),
    ("cbrt", (A,), {}, None),
    ("abs", (A,), {}, None),
    ("absolute", (I,), {}, None),
    ("fabs", (I,), {}, None),
    ("sign", (A,), {}, None),
    ("signbit", (A,), {}, None),
    ("round", (A * 10,), {}, None),
    ("round", (A * 10,), {"decimals": 1}, None),
    ("floor", (A,), {}, None),
    ("ceil", (A,), {}, None),
    ("trunc", (A,), {}, None),
    ("clip", (A, -0.5, 0.5), {}, None),
    ("nan_to_num", (NANS,), {}, None),
    ("exp", (A,), {}, None),
    ("exp2", (A,), {}, None),
    ("expm1", (A,), {}, None),
    ("log", (P,), {}, None),
    ("log10", (P,), {}, None),
    ("log1p", (P,), {}, None),
    ("log2", (P,), {}, None),
    ("sin", (A,), {}, None),
    ("cos", (A,), {}, None),
    ("tan", (A,), {}, None),
    ("arcsin", (U,), {}, None),
    ("arccos", (U,), {}, None),
    ("arctan", (A,), {}, None),
    ("arcsinh", (A,), {}, None),
    ("arccosh", (P + 1,), {}, None),
    ("arctanh", (U,), {}, None),
    ("sinh", (A,), {}, None),
    ("cosh", (A,), {}, None),
    ("tanh", (A,), {}, None),
    ("sinc", (A,), {}, None),
    ("deg2rad", (A,), {}, None),
    ("rad2deg", (A,), {}, None),
    ("i0", (A,), {}, None),
    ("equal", (I, J), {}, None),
    ("not_equal", (I, 1), {}, None),
    ("less", (A, B), {}, None),
    ("less_equal", (A, B), {}, None),
    ("greater", (A, 0.1), {}, None),
    ("greater_equal", (A, B), {}, None),
    ("isclose", (A, A + 1e-9), {}, None),
    ("allclose", (A, A + 1e-9), {}, None),
    ("isfinite", (NANS,), {}, None),
    ("isinf", (NANS,), {}, None),
    ("isnan", (NANS,), {}, None),
    ("isneginf", (INFS,), {}, None),
    ("isposinf", (INFS,), {}, None),
    ("isreal", (A,), {}, None),
    ("logical_and", (BOOL, A < 0.5), {}, None),
    ("logical_or", (BOOL, A < -0.5), {}, None),
    ("logical_xor", (BOOL, A < 0.5), {}, None),
    ("logical_not", (BOOL,), {}, None),
    ("bitwise_and", (I, J), {}, None),
    ("bitwise_or", (I, J), {}, None),
    ("bitwise_xor", (I, J), {}, None),
    ("bitwise_not", (I,), {}, np.invert),
    ("bitwise_invert", (I,), {}, np.invert),
    ("left_shift", (J, 2), {}, None),
    ("right_shift", (I, 1), {}, None),
    ("bitwise_left_shift", (J, J), {}, np.left_shift),
    ("bitwise_right_shift", (J, J), {}, np.right_shift),
    ("conj", (A,), {}, None),
    ("conjugate", (A,), {}, None),
    ("real", (A,), {}, None),
    ("imag", (A,), {}, None),
    ("angle", (A,), {}, None),
    # reductions
    ("sum", (A,), {"axis": 1}, None),
    ("sum", (I,), {"axis": (0, 1), "keepdims": True}, None),
    ("prod", (A,), {"axis": 0}, None),
    ("mean", (A,), {}, None),
    ("mean", (A,), {"axis": -1, "keepdims": True}, None),
    ("var", (A,), {"axis": 0}, None),
    ("std", (A,), {}, None),
    ("max", (A,), {"axis": 1}, None),
    ("min", (A,), {"keepdims": True}, None),
    ("amax", (A,), {"axis": (0, 1)}, None),
    ("amin", (A,), {"axis": 0}, None),
    ("all", (BOOL,), {"axis": 0}, None),
    ("any", (BOOL,), {}, None),
    ("argmax", (A,), {"axis": 1}, None),
    ("argmin", (A,), {}, None),
    ("count_nonzero", (I,), {"axis": 0}, None),
    ("cumsum", (A,), {"axis": 1}, None),
    ("cumprod", (A,), {}, None),
    ("median", (A,), {"axis": 1}, None),
    ("quantile", (A, 0.3), {"axis": 0}, None),
    ("percentile", (A, [10.0, 90.0]), {}, None),
    ("average", (A,), {"axis": 1, "weights": W.repeat(4).reshape(3, 4)[0]}, None),
    ("ptp", (A,), {"axis": 0}, None),
    ("trace", (S,), {}, None),
    ("bincount", (np.array([0, 1, 1, 3], "int32"),), {}, None),
    ("nansum", (NANS,), {"axis": 0}, None),
    ("nanprod", (NANS,), {}, None),
    ("nanmean", (NANS,), {"axis": 1}, None),
    ("nanvar", (NANS,), {"axis": 1}, None),
    ("nanstd", (NANS,), {}, None),
    ("nanmax", (NANS,), {"axis": 0}, None),
    ("nanmin", (NANS,), {}, None),
    ("nanargmax", (NANS,), {"axis": 1}, None),
    ("nanargmin", (NANS,), {"axis": 0}, None),
    ("nancumsum", (NANS,), {"axis": 1}, None),
    ("nancumprod", (NANS,), {"axis": 0}, None),
    ("nanmedian", (NANS,), {"axis": 1}, None),
    ("nanquantile", (NANS, 0.25), {"axis": 1}, None),
    ("nanpercentile", (NANS, 75.0), {}, None),
    # creation
    ("zeros", ((2, 3),), {}, lambda s: np.zeros(s, "float32")),
    ("ones", ((2,),), {"dtype": "int32"}, None),
    ("full", ((2, 2), 7.0), {}, None),
    ("full_like", (A, 2), {}, None),
    ("zeros_like", (I,), {}, None),
    ("ones_like", (A,), {"dtype": "int32"}, None),
    ("arange", (1, 10, 2), {}, None),
    ("arange", (5.0,), {}, None),
    ("linspace", (0.0, 1.0, 7), {}, None),
    ("linspace", (0.0, 1.0, 7), {"endpoint": False}, None),
    ("linspace", (np.zeros(2, "float32"), np.ones(2, "float32"), 4), {"axis": 1}, None),
    ("logspace", (0.0, 2.0, 5), {}, None),
    ("geomspace", (1.0, 1000.0, 4), {}, None),
    ("eye", (3, 4), {"k": 1}, None),
    ("identity", (3,), {}, None),
    ("tri", (3, 4), {"k": -1}, None),
    ("copy", (A,), {}, None),
    ("bartlett", (6,), {}, None),
    ("blackman", (6,), {}, None),
    ("hamming", (6,), {}, None),
    ("hanning", (6,), {}, None),
    ("kaiser", (6, 2.5), {}, None),
    # shapes
    ("reshape", (A, (4, 3)), {}, None),
    ("ravel", (A,), {}, None),
    ("transpose", (A,), {}, None),
    ("transpose", (A[None], (2, 0, 1)), {}, None),
    ("swapaxes", (A[None], 0, 2), {}, None),
    ("moveaxis", (A[None], 0, -1), {}, None),
    ("expand_dims", (A, (0, -1)), {}, None),
    ("squeeze", (A[None],), {}, None),
    ("broadcast_to", (V, (3, 4)), {}, None),
    ("concatenate", ([A, B],), {"axis": 1}, None),
    ("stack", ([A, B],), {"axis": -1}, None),
    ("hstack", ([A, B],), {}, None),
    ("vstack", ([A, B],), {}, None),
    ("dstack", ([A, B],), {}, None),
    ("append", (A, B), {}, None),
    ("tile", (V, (2, 2)), {}, None),
    ("repeat", (A, 2), {"axis": 0}, None),
    ("repeat", (A, [1, 2, 0, 1]), {"axis": 1}, None),
    ("flip", (A,), {"axis": 1}, None),
    ("fliplr", (A,), {}, None),
    ("flipud", (A,), {}, None),
    ("roll", (A, 2), {"axis": 1}, None),
    ("roll", (A, 5), {}, None),
    ("rot90", (A,), {"k": 3}, None),
    ("pad", (A, ((1, 2), (0, 3))), {}, None),
    ("pad", (A, ((1, 2), (2, 3))), {"mode": "reflect"}, None),
    ("pad", (A, ((2, 2), (3, 1))), {"mode": "symmetric"}, None),
    ("pad", (A, ((2, 2), (3, 1))), {"mode": "edge"}, None),
    ("pad", (A, ((2, 2), (5, 1))), {"mode": "wrap"}, None),
    ("pad", (I, 1), {"constant_values": 9}, None),
    ("tril", (A,), {"k": 1}, None),
    ("triu", (A,), {}, None),
    ("diag", (V,), {"k": -1}, None),
    ("diag", (A,), {}, None),
    ("diagflat", (S,), {}, None),
    ("diagonal", (A[None].repeat(2, 0),), {"axis1": 1, "axis2": 2}, None),
    ("take", (A, np.array([0, -1, 2])), {"axis": 1}, None),
    ("take", (A, np.array([[0, 5], [11, 3]])), {}, None),
    ("take_along_axis", (A, np.argsort(A, axis=1)), {"axis": 1}, None),
    ("where", (BOOL, A, B), {}, None),
    ("where", (BOOL, A, 0.0), {}, None),
    ("select", ([A > 0.5, A < -0.5], [A, B]), {"default": 1.0}, None),
    ("nonzero", (I,), {}, None),
    ("size", (A,), {}, None),
    ("ndim", (A,), {}, None),
    ("unravel_index", (np.array([1, 7, 11]), (3, 4)), {}, None),
    ("split", (A, 2), {"axis": 1}, None),
    ("split", (A, [1, 3]), {"axis": 1}, None),
    ("array_split", (A, 3), {"axis": 1}, None),
    ("hsplit", (A, 2), {}, None),
    ("vsplit", (A, 3), {}, None),
    ("dsplit", (A[None].reshape(1, 3, 4), 2), {}, None),
    # linear
    ("matmul", (A, M), {}, None),
    ("matmul", (I, J.T), {}, None),
    ("dot", (A, M), {}, None),
    ("dot", (V, V), {}, None),
    ("vdot", (A, B), {}, None),
    ("inner", (A, B), {}, None),
    ("outer", (V, W), {}, None),
    ("tensordot", (A, M), {"axes": 1}, None),
    ("tensordot", (A, B), {"axes": ([0, 1], [0, 1])}, None),
    ("einsum", ("ij,jk->ik", A, M), {}, None),
    ("kron", (S, S), {}, None),
    ("cross", (A[:, :3], B[:, :3]), {}, None),
    ("correlate", (V, W), {}, None),
    ("correlate", (V, W), {"mode": "full"}, None),
    ("correlate", (V, W), {"mode": "same"}, None),
    ("trapezoid", (A,), {}, None),
    ("trapezoid", (A, V), {}, None),
    ("vander", (V,), {}, None),
    ("vander", (V, 3), {"increasing": True}, None),
    ("corrcoef", (A,), {}, None),
    ("diff", (A,), {"n": 2}, None),
    ("diff", (A,), {"axis": 0}, None),
    ("slogdet", (S,), {}, lambda x: tuple(np.linalg.slogdet(x))),
    # sorting
    ("sort", (A,), {"axis": 0}, None),
    ("argsort", (A,), {}, None),
    ("searchsorted", (np.sort(V), A), {}, None),
    ("searchsorted", (np.sort(V), A), {"side": "right"}, None),
    ("digitize", (A, np.sort(V)), {}, None),
    ("isin", (I, J), {}, None),
    ("unique", (I,), {}, None),
    ("unique", (I,), {"return_index": True, "return_inverse": True, "return_counts": True}, None),
]


def _as_list(value):
    if isinstance(value, tuple | list):
        return list(value)
    return [value]


@pytest.mark.parametrize(
    ("name", "args", "kwargs", "reference"),
    CASES,
    ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)],
)
def test_numpy_op_matches_numpy(name, args, kwargs, reference):
    expected = (reference or getattr(np, name))(*args, **kwargs)
    torch_args = [core.convert_to_tensor(a) if isinstance(a, np.ndarray) else a for a in args]
    got = getattr(tnp, name)(*torch_args, **kwargs)
    expected_list = _as_list(expected)
    got_list = _as_list(got)
    assert len(got_list) == len(expected_list)
    for g, e in zip(got_list, expected_list, strict=True):
        g = core.convert_to_numpy(g) if isinstance(g, torch.Tensor) else np.asarray(g)
        e = np.asarray(e)
        assert g.shape == e.shape, (name, g.shape, e.shape)
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-5, err_msg=name)


def test_argpartition_partitions_around_kth():
    x = core.convert_to_tensor(A)
    idx = core.convert_to_numpy(tnp.argpartition(x, 2, axis=1))
    part = np.take_along_axis(A, idx, axis=1)
    kth = part[:, 2:3]
    assert (part[:, :2] <= kth).all() and (part[:, 3:] >= kth).all()


def test_vectorize_with_signature_matches_numpy():
    fn = tnp.vectorize(lambda a, b: (a * b).sum(), signature="(n),(n)->()")
    got = core.convert_to_numpy(fn(core.convert_to_tensor(A), core.convert_to_tensor(B)))
    np.testing.assert_allclose(got, (A * B).sum(-1), rtol=1e-5)


def test_histogram_matches_numpy():
    hist, edges = tnp.histogram(core.convert_to_tensor(V), bins=3)
    exp_hist, exp_edges = np.histogram(V, bins=3)
    np.testing.assert_allclose(core.convert_to_numpy(hist), exp_hist)
    np.testing.assert_allclose(core.convert_to_numpy(edges), exp_edges, rtol=1e-6)


def test_empty_and_divide_no_nan():
    assert tuple(tnp.empty((2, 3)).shape) == (2, 3)
    assert tuple(tnp.empty_like(A).shape) == A.shape
    got = core.convert_to_numpy(tnp.divide_no_nan(A, np.where(BOOL, B, 0).astype("float32")))
    np.testing.assert_allclose(got, np.where(BOOL, A / np.where(BOOL, B, 1), 0), rtol=1e-6)
    assert tnp.view(core.convert_to_tensor(A), "int32").dtype == torch.int32
    assert tnp.nextafter(1.0, 2.0).item() > 1.0
    mesh = tnp.meshgrid(core.convert_to_tensor(V), core.convert_to_tensor(W))
    for g, e in zip(mesh, np.meshgrid(V, W), strict=True):
        np.testing.assert_array_equal(core.convert_to_numpy(g), e)
