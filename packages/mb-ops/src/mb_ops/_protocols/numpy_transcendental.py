"""The ``numpy`` contract functions of the ``numpy_transcendental`` group
(``numpy/_transcendental.py``)."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class NumpyTranscendental(Protocol):
    """Every backend defines these in ``numpy/_transcendental.py``."""

    def arccos(self, x: Tensor) -> Any:
        """Inverse cosine, element-wise."""
        ...

    def arccosh(self, x: Tensor) -> Any:
        """Inverse hyperbolic cosine, element-wise."""
        ...

    def arcsin(self, x: Tensor) -> Any:
        """Inverse sine, element-wise."""
        ...

    def arcsinh(self, x: Tensor) -> Any:
        """Inverse hyperbolic sine, element-wise."""
        ...

    def arctan(self, x: Tensor) -> Any:
        """Inverse tangent, element-wise."""
        ...

    def arctan2(self, x1: Tensor, x2: Tensor) -> Any:
        """Element-wise arc tangent of ``x1/x2`` choosing the quadrant."""
        ...

    def arctanh(self, x: Tensor) -> Any:
        """Inverse hyperbolic tangent, element-wise."""
        ...

    def cos(self, x: Tensor) -> Any:
        """Cosine, element-wise."""
        ...

    def cosh(self, x: Tensor) -> Any:
        """Hyperbolic cosine, element-wise."""
        ...

    def deg2rad(self, x: Tensor) -> Any:
        """Convert angles from degrees to radians."""
        ...

    def exp(self, x: Tensor) -> Any:
        """Element-wise exponential."""
        ...

    def exp2(self, x: Tensor) -> Any:
        """Element-wise base-2 exponential."""
        ...

    def expm1(self, x: Tensor) -> Any:
        """``exp(x) - 1``, element-wise."""
        ...

    def hypot(self, x1: Tensor, x2: Tensor) -> Any:
        """Element-wise ``sqrt(x1**2 + x2**2)``."""
        ...

    def i0(self, x: Tensor) -> Any:
        """Modified Bessel function of the first kind, order 0."""
        ...

    def log(self, x: Tensor) -> Any:
        """Natural logarithm, element-wise."""
        ...

    def log10(self, x: Tensor) -> Any:
        """Base-10 logarithm, element-wise."""
        ...

    def log1p(self, x: Tensor) -> Any:
        """``log(1 + x)``, element-wise."""
        ...

    def log2(self, x: Tensor) -> Any:
        """Base-2 logarithm, element-wise."""
        ...

    def logaddexp(self, x1: Tensor, x2: Tensor) -> Any:
        """``log(exp(x1) + exp(x2))``, element-wise."""
        ...

    def logaddexp2(self, x1: Tensor, x2: Tensor) -> Any:
        """``log2(2**x1 + 2**x2)``, element-wise."""
        ...

    def rad2deg(self, x: Tensor) -> Any:
        """Convert angles from radians to degrees."""
        ...

    def sin(self, x: Tensor) -> Any:
        """Trigonometric sine, element-wise."""
        ...

    def sinc(self, x: Tensor) -> Any:
        """Normalized sinc function ``sin(pi x) / (pi x)``."""
        ...

    def sinh(self, x: Tensor) -> Any:
        """Hyperbolic sine, element-wise."""
        ...

    def tan(self, x: Tensor) -> Any:
        """Tangent, element-wise."""
        ...

    def tanh(self, x: Tensor) -> Any:
        """Hyperbolic tangent, element-wise."""
        ...
