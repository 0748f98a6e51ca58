"""The numpy contract module against NumPy itself and against Keras 3's numpy backend."""

import numpy as np
import pytest
from _keras_ref import keras_ops
from _numpy_cases import CASES

import mb_backend_numpy.numpy as mnp
from mb_ops.testing import REQUIRED

# Keras 3's numpy backend functions: the contract's list (mb-ops checks it against Keras).
KERAS_NUMPY_OPS = sorted(REQUIRED["numpy"])

# Ops whose NumPy function of the same name is the value reference, argument for argument.
NOT_NUMPY_NAMED = {"divide_no_nan", "vectorize", "empty", "empty_like", "array", "slogdet", "view"}


# Where mb's static dtype rule (mb_ops) and Keras 3.15.1's numpy backend disagree.
KERAS_DTYPE_DIFFERS = {
    "histogram": "counts and edges take the input's dtype, as on Keras's JAX backend",
}

# Relative and absolute tolerance by result dtype (NumPy references compute in float64).
TOLERANCE = {"float16": 2e-3, "bfloat16": 2e-2, "float32": 1e-5, "float64": 1e-10}


def _case_id(case):
    name, args, _kwargs = case
    dtypes = [str(getattr(a, "dtype", type(a).__name__)) for a in args]
    return f"{name}-{'-'.join(dtypes)}"


def _leaves(x):
    if isinstance(x, list | tuple):
        return [leaf for item in x for leaf in _leaves(item)]
    return [x]


def _assert_close(mine, ref, name):
    mine, ref = _leaves(mine), _leaves(ref)
    assert len(mine) == len(ref), name
    for a, b in zip(mine, ref, strict=True):
        a, b = np.asarray(a), np.asarray(b)
        assert a.shape == b.shape, f"{name}: shape {a.shape} != {b.shape}"
        if name in ("empty", "empty_like"):
            continue
        if a.dtype.kind in "fcV" or b.dtype.kind in "fcV" or "float" in str(a.dtype):
            tol = TOLERANCE.get(str(a.dtype), 1e-5)
            np.testing.assert_allclose(
                a.astype("complex128"), b.astype("complex128"), rtol=tol, atol=tol
            )
        else:
            np.testing.assert_array_equal(a, b)


def test_every_keras_numpy_op_is_provided_and_has_a_case():
    assert len(KERAS_NUMPY_OPS) == 219
    missing = [n for n in KERAS_NUMPY_OPS if not callable(getattr(mnp, n, None))]
    assert missing == []
    assert set(KERAS_NUMPY_OPS) - {c[0] for c in CASES} == set()
    assert mnp.UNSUPPORTED == {}


@pytest.mark.parametrize("case", [c for c in CASES if c[0] not in NOT_NUMPY_NAMED], ids=_case_id)
def test_numpy_op_values_match_numpy(case):
    name, args, kwargs = case
    ref_fn = getattr(np, name, None) or getattr(np, {"bitwise_invert": "invert"}.get(name, name))
    np_kwargs = {
        k: tuple(v) if k == "axis" and isinstance(v, list) else v for k, v in kwargs.items()
    }
    with np.errstate(all="ignore"):
        ref = ref_fn(*args, **np_kwargs)
    mine = getattr(mnp, name)(*args, **kwargs)
    if name == "unique":
        ref = np.unique(*args)
    _assert_close(mine, ref, name)


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_numpy_op_values_and_dtypes_match_keras(case):
    ops = keras_ops()
    name, args, kwargs = case
    if name == "vectorize":
        mine = mnp.vectorize(np.abs)(np.array([-1.0, 2.0], "float32"))
        ref = ops.vectorize(np.abs)(np.array([-1.0, 2.0], "float32"))
    else:
        mine = getattr(mnp, name)(*args, **kwargs)
        with np.errstate(all="ignore"):
            ref = getattr(ops, name)(*args, **kwargs)
    _assert_close(mine, ref, name)
    if name in KERAS_DTYPE_DIFFERS:
        return
    for a, b in zip(_leaves(mine), _leaves(ref), strict=True):
        assert str(np.asarray(a).dtype) == str(np.asarray(b).dtype), name
