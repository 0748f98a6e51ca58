"""The ``linalg`` contract module: what every backend's ``linalg`` provides."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class Linalg(Protocol):
    """The names every backend's ``linalg`` module provides (or declares unsupported)."""

    def cholesky(self, x: Tensor, upper: Any = False) -> Any:
        """Cholesky factor of symmetric positive-definite matrices."""
        ...

    def cholesky_inverse(self, x: Tensor, upper: Any = False) -> Any:
        """Inverse of a matrix from its Cholesky factor."""
        ...

    def det(self, x: Tensor) -> Any:
        """Determinant."""
        ...

    def eig(self, x: Tensor) -> Any:
        """Eigenvalues and eigenvectors of general square matrices."""
        ...

    def eigh(self, x: Tensor) -> Any:
        """Eigenvalues and eigenvectors of symmetric (Hermitian) matrices."""
        ...

    def inv(self, x: Tensor) -> Any:
        """Matrix inverse."""
        ...

    def jvp(self, fun: Any, primals: Any, tangents: Any, has_aux: Any = False) -> Any:
        """Jacobian-vector product of ``fun`` at ``primals`` along ``tangents``."""
        ...

    def lstsq(self, a: Tensor, b: Tensor, rcond: Any = None) -> Any:
        """Least-squares solution of ``a x = b``."""
        ...

    def lu_factor(self, x: Tensor) -> Any:
        """LU factorization with pivots."""
        ...

    def matrix_rank(self, x: Tensor, tol: Any = None) -> Any:
        """Rank of matrices."""
        ...

    def norm(self, x: Tensor, ord: Any = None, axis: Any = None, keepdims: Any = False) -> Any:
        """Vector or matrix norm."""
        ...

    def pinv(self, x: Tensor, rcond: Any = None) -> Any:
        """Moore-Penrose pseudo-inverse."""
        ...

    def qr(self, x: Tensor, mode: Any = "reduced") -> Any:
        """QR decomposition."""
        ...

    def solve(self, a: Tensor, b: Tensor) -> Any:
        """Solve ``a x = b``."""
        ...

    def solve_triangular(self, a: Tensor, b: Tensor, lower: Any = False) -> Any:
        """Solve ``a x = b`` for triangular ``a``."""
        ...

    def svd(self, x: Tensor, full_matrices: Any = True, compute_uv: Any = True) -> Any:
        """Singular value decomposition."""
        ...


class LinalgOptional(Protocol):
    """Names a backend's ``linalg`` module may provide; mb uses them when present."""

    def matrix_power(self, x: Tensor, n: Any) -> Any:
        """``x`` raised to the integer power ``n``."""
        ...
