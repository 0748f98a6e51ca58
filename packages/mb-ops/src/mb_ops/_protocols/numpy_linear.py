"""The ``numpy`` contract functions of the ``numpy_linear`` group (``numpy/_linear.py``)."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class NumpyLinear(Protocol):
    """Every backend defines these in ``numpy/_linear.py``."""

    def corrcoef(self, x: Tensor) -> Any:
        """Pearson correlation coefficients of the rows."""
        ...

    def correlate(self, x1: Tensor, x2: Tensor, mode: Any = "valid") -> Any:
        """Cross-correlation of two 1D tensors."""
        ...

    def cross(
        self,
        x1: Tensor,
        x2: Tensor,
        axisa: Any = -1,
        axisb: Any = -1,
        axisc: Any = -1,
        axis: Any = None,
    ) -> Any:
        """Cross product of 2- or 3-element vectors."""
        ...

    def diag(self, x: Tensor, k: Any = 0) -> Any:
        """Extract a diagonal (2D input) or build a diagonal matrix (1D input)."""
        ...

    def diagflat(self, x: Tensor, k: Any = 0) -> Any:
        """A 2D tensor with the flattened input on the k-th diagonal."""
        ...

    def diagonal(self, x: Tensor, offset: Any = 0, axis1: Any = 0, axis2: Any = 1) -> Any:
        """The given diagonals."""
        ...

    def dot(self, x1: Tensor, x2: Tensor) -> Any:
        """Dot product: matmul for matrices, sum product over the last axes otherwise."""
        ...

    def einsum(self, subscripts: Any, *operands: Any, **kwargs: Any) -> Any:
        """Einstein summation over the operands."""
        ...

    def inner(self, x1: Tensor, x2: Tensor) -> Any:
        """Inner product over the last axes."""
        ...

    def kron(self, x1: Tensor, x2: Tensor) -> Any:
        """Kronecker product."""
        ...

    def matmul(self, x1: Tensor, x2: Tensor) -> Any:
        """Matrix product of two tensors (batched over leading axes)."""
        ...

    def outer(self, x1: Tensor, x2: Tensor) -> Any:
        """Outer product of two flattened tensors."""
        ...

    def slogdet(self, x: Tensor) -> Any:
        """Sign and natural log of the determinant."""
        ...

    def tensordot(self, x1: Tensor, x2: Tensor, axes: Any = 2) -> Any:
        """Tensor dot product along the given axes."""
        ...

    def trace(self, x: Tensor, offset: Any = 0, axis1: Any = 0, axis2: Any = 1) -> Any:
        """Sum along diagonals."""
        ...

    def tril(self, x: Tensor, k: Any = 0) -> Any:
        """Lower triangle of a tensor (zeros above the k-th diagonal)."""
        ...

    def triu(self, x: Tensor, k: Any = 0) -> Any:
        """Upper triangle of a tensor (zeros below the k-th diagonal)."""
        ...

    def vander(self, x: Tensor, N: Any = None, increasing: Any = False) -> Any:
        """Vandermonde matrix."""
        ...

    def vdot(self, x1: Tensor, x2: Tensor) -> Any:
        """Dot product of two flattened tensors (conjugating the first)."""
        ...
