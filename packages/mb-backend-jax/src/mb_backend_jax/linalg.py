"""The ``linalg`` contract module of the JAX backend (``jnp.linalg``/``jax.scipy.linalg``)."""

import jax
import jax.numpy as jnp
import jax.scipy as jsp

from mb_backend_jax.core import cast, convert_to_tensor
from mb_ops import config, dtypes


def _float(x):
    x = convert_to_tensor(x)
    dtype = dtypes.standardize_dtype(x.dtype)
    target = config.floatx() if dtype == "int64" else dtypes.result_type(dtype, float)
    return cast(x, target)


def _check_matrix(x, name):
    if x.ndim < 2:
        raise ValueError(f"{name} expects an input of rank >= 2. Received shape {x.shape}.")


def cholesky(x, upper=False):
    """Cholesky factor of positive-definite ``a``; raises eagerly when it fails."""
    out = jnp.linalg.cholesky(_float(x), upper=upper)
    if not isinstance(out, jax.core.Tracer) and bool(jnp.any(jnp.isnan(out))):
        raise ValueError(
            "cholesky failed: the input is not (numerically) positive definite. "
            "Check that the matrix is symmetric with positive eigenvalues."
        )
    return out


def cholesky_inverse(x, upper=False):
    """The inverse of ``A`` from its Cholesky factor ``a``."""
    x = _float(x)
    identity = jnp.broadcast_to(jnp.eye(x.shape[-1], dtype=x.dtype), x.shape)
    inv_factor = jsp.linalg.solve_triangular(x, identity, lower=not upper)
    inv_t = jnp.swapaxes(inv_factor, -1, -2)
    return inv_factor @ inv_t if upper else inv_t @ inv_factor


def det(x):
    """Determinant."""
    return jnp.linalg.det(_float(x))


def eig(x):
    """Eigenvalues and eigenvectors of a general matrix (CPU only in JAX)."""
    return jnp.linalg.eig(_float(x))


def eigh(x):
    """Eigenvalues and eigenvectors of a symmetric matrix."""
    return jnp.linalg.eigh(_float(x))


def inv(x):
    """Matrix inverse."""
    return jnp.linalg.inv(_float(x))


def lu_factor(x):
    """LU factorization with pivots, batched over leading axes."""
    x = _float(x)
    fn = jsp.linalg.lu_factor
    for _ in range(x.ndim - 2):
        fn = jax.vmap(fn)
    return fn(x)


def norm(x, ord=None, axis=None, keepdims=False):
    """Vector or matrix norm."""
    axis = tuple(axis) if isinstance(axis, list) else axis
    return jnp.linalg.norm(_float(x), ord=ord, axis=axis, keepdims=keepdims)


def qr(x, mode="reduced"):
    """QR decomposition (``mode`` 'reduced' or 'complete')."""
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr mode must be 'reduced' or 'complete'. Received: mode={mode!r}.")
    return jnp.linalg.qr(_float(x), mode=mode)


def solve(a, b):
    """Solve ``a @ x = b``."""
    return jnp.linalg.solve(_float(a), _float(b))


def solve_triangular(a, b, lower=False):
    """Solve ``a @ x = b`` for triangular ``a``."""
    return jsp.linalg.solve_triangular(_float(a), _float(b), lower=lower)


def svd(x, full_matrices=True, compute_uv=True):
    """Singular value decomposition."""
    return jnp.linalg.svd(_float(x), full_matrices=full_matrices, compute_uv=compute_uv)


def lstsq(a, b, rcond=None):
    """The least-squares solution of ``a @ x = b``."""
    return jnp.linalg.lstsq(_float(a), _float(b), rcond=rcond)[0]


def matrix_rank(x, tol=None):
    """Rank of a matrix, as int32."""
    x = convert_to_tensor(x)
    _check_matrix(x, "matrix_rank")
    return jnp.linalg.matrix_rank(_float(x), tol=tol).astype("int32")


def pinv(x, rcond=None):
    """Moore-Penrose pseudo-inverse."""
    x = convert_to_tensor(x)
    _check_matrix(x, "pinv")
    return jnp.linalg.pinv(_float(x), rtol=rcond)


def jvp(fun, primals, tangents, has_aux=False):
    """Jacobian-vector product of ``fun`` at ``primals`` along ``tangents``."""
    return jax.jvp(fun, primals, tangents, has_aux=has_aux)


UNSUPPORTED = {}
