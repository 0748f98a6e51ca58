"""The ``numpy`` contract functions of the ``numpy_complex`` group (``numpy/_complex.py``)."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class NumpyComplex(Protocol):
    """Every backend defines these in ``numpy/_complex.py``."""

    def angle(self, x: Tensor) -> Any:
        """Angle of a complex argument, element-wise."""
        ...

    def conj(self, x: Tensor) -> Any:
        """Complex conjugate, element-wise."""
        ...

    def conjugate(self, x: Tensor) -> Any:
        """Alias of ``conj``."""
        ...

    def imag(self, x: Tensor) -> Any:
        """Imaginary part, element-wise."""
        ...

    def real(self, x: Tensor) -> Any:
        """Real part, element-wise."""
        ...
