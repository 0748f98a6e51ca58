"""Decompositions written as OpenVINO graphs, and the counter-based random streams."""

import numpy as np
import pytest

from mb_backend_openvino import core, linalg, random

RNG = np.random.default_rng(3)


def _np(t):
    return core.convert_to_numpy(t).astype("float64")


def _spd(n, batch=()):
    a = RNG.standard_normal((*batch, n, n))
    return (a @ np.swapaxes(a, -1, -2) + n * np.eye(n)).astype("float32")


def test_batched_inverse_solve_and_determinant():
    a = _spd(4, (2,))
    b = RNG.standard_normal((2, 4, 3)).astype("float32")
    np.testing.assert_allclose(_np(linalg.inv(a)), np.linalg.inv(a), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(_np(linalg.solve(a, b)), np.linalg.solve(a, b), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(_np(linalg.det(a)), np.linalg.det(a), rtol=1e-4)


def test_lu_factor_gives_lapack_pivots_that_rebuild_the_matrix():
    a = RNG.standard_normal((5, 5)).astype("float32")
    lu, piv = linalg.lu_factor(a)
    lu, piv = _np(lu), core.convert_to_numpy(piv)
    lower, upper = np.tril(lu, -1) + np.eye(5), np.triu(lu)
    swapped = a.astype("float64")
    for i, p in enumerate(piv):  # LAPACK's convention: row i was swapped with row piv[i]
        swapped[[i, p]] = swapped[[p, i]]
    np.testing.assert_allclose(lower @ upper, swapped, atol=1e-5)
    # Partial pivoting keeps every multiplier at most 1 in size.
    assert np.abs(np.tril(lu, -1)).max() <= 1.0 + 1e-6


def test_eigh_reconstructs_the_matrix_with_orthonormal_vectors():
    a = _spd(5)
    w, v = (_np(t) for t in linalg.eigh(a))
    np.testing.assert_allclose(w, np.linalg.eigvalsh(a), rtol=1e-4)
    np.testing.assert_allclose(v @ np.diag(w) @ v.T, a, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(v.T @ v, np.eye(5), atol=1e-5)


@pytest.mark.parametrize("shape", [(4, 3), (3, 5)])
def test_svd_factors_multiply_back_and_are_orthogonal(shape):
    x = RNG.standard_normal(shape).astype("float32")
    u, s, vt = (_np(t) for t in linalg.svd(x, full_matrices=True))
    m, n = shape
    assert u.shape == (m, m) and vt.shape == (n, n)
    np.testing.assert_allclose(s, np.linalg.svd(x, compute_uv=False), rtol=1e-4)
    np.testing.assert_allclose(u[:, : len(s)] * s @ vt[: len(s)], x, atol=1e-4)
    np.testing.assert_allclose(u.T @ u, np.eye(m), atol=1e-4)
    np.testing.assert_allclose(vt @ vt.T, np.eye(n), atol=1e-4)


def test_qr_complete_and_matrix_norms():
    x = RNG.standard_normal((5, 3)).astype("float32")
    q, r = (_np(t) for t in linalg.qr(x, mode="complete"))
    np.testing.assert_allclose(q @ r, x, atol=1e-5)
    np.testing.assert_allclose(q.T @ q, np.eye(5), atol=1e-5)
    for order in (2, "nuc", np.inf, -1):
        np.testing.assert_allclose(
            _np(linalg.norm(x, ord=order, axis=(0, 1))), np.linalg.norm(x, ord=order), rtol=1e-4
        )


def test_lstsq_and_matrix_power():
    a = RNG.standard_normal((6, 3)).astype("float32")
    b = RNG.standard_normal((6, 2)).astype("float32")
    np.testing.assert_allclose(
        _np(linalg.lstsq(a, b)), np.linalg.lstsq(a, b, rcond=None)[0], rtol=1e-3, atol=1e-4
    )
    m = _spd(3) / 4
    np.testing.assert_allclose(
        _np(linalg.matrix_power(m, 3)), np.linalg.matrix_power(m, 3), rtol=1e-4
    )
    np.testing.assert_allclose(
        _np(linalg.matrix_power(m, -2)), np.linalg.matrix_power(m.astype("float64"), -2), rtol=1e-3
    )


def test_same_seed_same_numbers_new_seed_new_numbers():
    a = core.convert_to_numpy(random.normal((64,), seed=5))
    b = core.convert_to_numpy(random.normal((64,), seed=5))
    c = core.convert_to_numpy(random.normal((64,), seed=6))
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, c)


def test_distributions_have_their_moments():
    n = 20000
    normal = _np(random.normal((n,), mean=1.0, stddev=2.0, seed=1))
    assert abs(normal.mean() - 1.0) < 0.05 and abs(normal.std() - 2.0) < 0.05
    truncated = _np(random.truncated_normal((n,), seed=2))
    assert truncated.min() >= -2 and truncated.max() <= 2
    assert abs(truncated.std() - 0.8796) < 0.02  # the std of N(0, 1) cut at +-2
    small = _np(random.gamma((n,), 0.5, seed=3))
    assert small.min() > 0 and abs(small.mean() - 0.5) < 0.03
    many = _np(random.binomial((n,), 5000, 0.2, seed=4))
    assert abs(many.mean() - 1000) < 2 and abs(many.std() - np.sqrt(800)) < 1.5
    ints = core.convert_to_numpy(random.randint((n,), -3, 3, seed=5))
    assert set(np.unique(ints)) == {-3, -2, -1, 0, 1, 2}


def test_shuffle_moves_whole_rows():
    x = np.arange(20, dtype="float32").reshape(10, 2)
    out = core.convert_to_numpy(random.shuffle(x, seed=3))
    np.testing.assert_array_equal(np.sort(out[:, 0]), x[:, 0])
    np.testing.assert_array_equal(out[:, 1], out[:, 0] + 1)


def _with_singular_values(m, n, values, seed):
    rng = np.random.default_rng(seed)
    u, _ = np.linalg.qr(rng.standard_normal((m, m)))
    v, _ = np.linalg.qr(rng.standard_normal((n, n)))
    s = np.zeros((m, n))
    np.fill_diagonal(s, values)
    return u @ s @ v.T


@pytest.mark.parametrize("shape", [(6, 3), (3, 6)])
def test_svd_pinv_lstsq_keep_small_singular_values_of_ill_conditioned_float32(shape):
    """Condition number 1e5 in float32: through AᵀA (condition 1e10, past float32's 1e7)
    the small singular values would be noise of ~3e-4; computed on A itself they are
    accurate to ~eps*s_max, so pinv and lstsq see the true small directions."""
    m, n = shape
    k = min(m, n)
    values = np.array([1.0, 1e-5, 1e-2][:k])
    a64 = _with_singular_values(m, n, values, seed=3)
    a = a64.astype(np.float32)
    u, s, vt = (_np(t) for t in linalg.svd(a, full_matrices=False))
    np.testing.assert_allclose(s, np.sort(values)[::-1], atol=2e-6)
    np.testing.assert_allclose((u * s) @ vt, a, atol=1e-6)
    # pinv of the float32 matrix against float64 NumPy on the same (rounded) matrix:
    # entries reach 1e5, float32 gives them ~1e-7 relative accuracy times the condition.
    expected = np.linalg.pinv(a.astype(np.float64))
    np.testing.assert_allclose(_np(linalg.pinv(a, rcond=1e-6)), expected, rtol=0, atol=0.05 * 1e5)
    b = np.arange(m, dtype=np.float32)
    x = _np(linalg.lstsq(a, b, rcond=1e-6))
    np.testing.assert_allclose(
        a64 @ x, a64 @ (expected @ b.astype(np.float64)), atol=2e-2 * np.abs(b).max()
    )
