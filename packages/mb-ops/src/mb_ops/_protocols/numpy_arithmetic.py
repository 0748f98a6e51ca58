"""The ``numpy`` contract functions of the ``numpy_arithmetic`` group (``numpy/_arithmetic.py``)."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class NumpyArithmetic(Protocol):
    """Every backend defines these in ``numpy/_arithmetic.py``."""

    def abs(self, x: Tensor) -> Any:
        """Absolute value, element-wise."""
        ...

    def absolute(self, x: Tensor) -> Any:
        """Alias of ``abs``."""
        ...

    def add(self, x1: Tensor, x2: Tensor) -> Any:
        """Add arguments element-wise (with broadcasting)."""
        ...

    def cbrt(self, x: Tensor) -> Any:
        """Element-wise cube root."""
        ...

    def ceil(self, x: Tensor) -> Any:
        """Ceiling of the input, element-wise."""
        ...

    def clip(self, x: Tensor, x_min: Any, x_max: Any) -> Any:
        """Clip (limit) the values of a tensor."""
        ...

    def divide(self, x1: Tensor, x2: Tensor) -> Any:
        """Divide arguments element-wise (true division: ints give floats)."""
        ...

    def divide_no_nan(self, x1: Tensor, x2: Tensor) -> Any:
        """Safe element-wise division: 0 where the denominator is 0."""
        ...

    def fabs(self, x: Tensor) -> Any:
        """Absolute value, element-wise (floats)."""
        ...

    def floor(self, x: Tensor) -> Any:
        """Floor of the input, element-wise."""
        ...

    def floor_divide(self, x1: Tensor, x2: Tensor) -> Any:
        """Largest integer smaller or equal to the division of the inputs."""
        ...

    def fmax(self, x1: Tensor, x2: Tensor) -> Any:
        """Element-wise maximum, ignoring NaNs."""
        ...

    def fmin(self, x1: Tensor, x2: Tensor) -> Any:
        """Element-wise minimum, ignoring NaNs."""
        ...

    def fmod(self, x1: Tensor, x2: Tensor) -> Any:
        """Element-wise remainder with the sign of the dividend."""
        ...

    def gcd(self, x1: Tensor, x2: Tensor) -> Any:
        """Greatest common divisor, element-wise."""
        ...

    def heaviside(self, x1: Tensor, x2: Tensor) -> Any:
        """Heaviside step function."""
        ...

    def lcm(self, x1: Tensor, x2: Tensor) -> Any:
        """Least common multiple, element-wise."""
        ...

    def ldexp(self, x1: Tensor, x2: Tensor) -> Any:
        """``x1 * 2**x2``, element-wise."""
        ...

    def maximum(self, x1: Tensor, x2: Tensor) -> Any:
        """Element-wise maximum."""
        ...

    def minimum(self, x1: Tensor, x2: Tensor) -> Any:
        """Element-wise minimum."""
        ...

    def mod(self, x1: Tensor, x2: Tensor) -> Any:
        """Element-wise remainder of division."""
        ...

    def multiply(self, x1: Tensor, x2: Tensor) -> Any:
        """Multiply arguments element-wise."""
        ...

    def nan_to_num(self, x: Tensor, nan: Any = 0.0, posinf: Any = None, neginf: Any = None) -> Any:
        """Replace NaN with ``nan`` and infinities with large finite numbers."""
        ...

    def negative(self, x: Tensor) -> Any:
        """Numerical negative, element-wise."""
        ...

    def nextafter(self, x1: Tensor, x2: Tensor) -> Any:
        """Next floating-point value after ``x1`` towards ``x2``."""
        ...

    def power(self, x1: Tensor, x2: Tensor) -> Any:
        """First tensor elements raised to powers from the second, element-wise."""
        ...

    def reciprocal(self, x: Tensor) -> Any:
        """Element-wise reciprocal ``1 / x``."""
        ...

    def round(self, x: Tensor, decimals: Any = 0) -> Any:
        """Evenly round to the given number of decimals."""
        ...

    def sign(self, x: Tensor) -> Any:
        """Element-wise sign (-1, 0 or 1)."""
        ...

    def sqrt(self, x: Tensor) -> Any:
        """Element-wise square root."""
        ...

    def square(self, x: Tensor) -> Any:
        """Element-wise square."""
        ...

    def subtract(self, x1: Tensor, x2: Tensor) -> Any:
        """Subtract arguments element-wise."""
        ...

    def true_divide(self, x1: Tensor, x2: Tensor) -> Any:
        """Alias of ``divide``."""
        ...

    def trunc(self, x: Tensor) -> Any:
        """Truncated value of the input, element-wise."""
        ...
