"""The ``numpy`` contract functions of the ``numpy_arithmetic`` group (``_elementwise.py``)."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class NumpyElementwise(Protocol):
    """Every backend defines these in ``numpy/_elementwise.py``."""

    def abs(self, x: Tensor) -> Any:
        """Absolute value, element-wise."""
        ...

    def absolute(self, x: Tensor) -> Any:
        """Alias of ``abs``."""
        ...

    def add(self, x1: Tensor, x2: Tensor) -> Any:
        """Add arguments element-wise (with broadcasting)."""
        ...

    def allclose(
        self, x1: Tensor, x2: Tensor, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: Any = False
    ) -> Any:
        """Whether all elements of two tensors are close within a tolerance."""
        ...

    def angle(self, x: Tensor) -> Any:
        """Angle of a complex argument, element-wise."""
        ...

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

    def bitwise_and(self, x: Tensor, y: Tensor) -> Any:
        """Bit-wise AND, element-wise."""
        ...

    def bitwise_invert(self, x: Tensor) -> Any:
        """Bit-wise NOT, element-wise."""
        ...

    def bitwise_left_shift(self, x: Tensor, y: Tensor) -> Any:
        """Shift the bits of ``x`` to the left by ``y``."""
        ...

    def bitwise_not(self, x: Tensor) -> Any:
        """Alias of ``bitwise_invert``."""
        ...

    def bitwise_or(self, x: Tensor, y: Tensor) -> Any:
        """Bit-wise OR, element-wise."""
        ...

    def bitwise_right_shift(self, x: Tensor, y: Tensor) -> Any:
        """Shift the bits of ``x`` to the right by ``y``."""
        ...

    def bitwise_xor(self, x: Tensor, y: Tensor) -> Any:
        """Bit-wise XOR, element-wise."""
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

    def conj(self, x: Tensor) -> Any:
        """Complex conjugate, element-wise."""
        ...

    def conjugate(self, x: Tensor) -> Any:
        """Alias of ``conj``."""
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

    def divide(self, x1: Tensor, x2: Tensor) -> Any:
        """Divide arguments element-wise (true division: ints give floats)."""
        ...

    def divide_no_nan(self, x1: Tensor, x2: Tensor) -> Any:
        """Safe element-wise division: 0 where the denominator is 0."""
        ...

    def equal(self, x1: Tensor, x2: Tensor) -> Any:
        """``x1 == x2``, element-wise."""
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

    def greater(self, x1: Tensor, x2: Tensor) -> Any:
        """``x1 > x2``, element-wise."""
        ...

    def greater_equal(self, x1: Tensor, x2: Tensor) -> Any:
        """``x1 >= x2``, element-wise."""
        ...

    def heaviside(self, x1: Tensor, x2: Tensor) -> Any:
        """Heaviside step function."""
        ...

    def hypot(self, x1: Tensor, x2: Tensor) -> Any:
        """Element-wise ``sqrt(x1**2 + x2**2)``."""
        ...

    def i0(self, x: Tensor) -> Any:
        """Modified Bessel function of the first kind, order 0."""
        ...

    def imag(self, x: Tensor) -> Any:
        """Imaginary part, element-wise."""
        ...

    def isclose(
        self, x1: Tensor, x2: Tensor, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: Any = False
    ) -> Any:
        """Whether two tensors are element-wise close within a tolerance."""
        ...

    def isfinite(self, x: Tensor) -> Any:
        """Whether each element is finite."""
        ...

    def isinf(self, x: Tensor) -> Any:
        """Whether each element is positive or negative infinity."""
        ...

    def isnan(self, x: Tensor) -> Any:
        """Whether each element is NaN."""
        ...

    def isneginf(self, x: Tensor) -> Any:
        """Whether each element is negative infinity."""
        ...

    def isposinf(self, x: Tensor) -> Any:
        """Whether each element is positive infinity."""
        ...

    def isreal(self, x: Tensor) -> Any:
        """Whether each element is real (zero imaginary part)."""
        ...

    def lcm(self, x1: Tensor, x2: Tensor) -> Any:
        """Least common multiple, element-wise."""
        ...

    def ldexp(self, x1: Tensor, x2: Tensor) -> Any:
        """``x1 * 2**x2``, element-wise."""
        ...

    def left_shift(self, x: Tensor, y: Tensor) -> Any:
        """Alias of ``bitwise_left_shift``."""
        ...

    def less(self, x1: Tensor, x2: Tensor) -> Any:
        """``x1 < x2``, element-wise."""
        ...

    def less_equal(self, x1: Tensor, x2: Tensor) -> Any:
        """``x1 <= x2``, element-wise."""
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

    def logical_and(self, x1: Tensor, x2: Tensor) -> Any:
        """Element-wise logical AND."""
        ...

    def logical_not(self, x: Tensor) -> Any:
        """Element-wise logical NOT."""
        ...

    def logical_or(self, x1: Tensor, x2: Tensor) -> Any:
        """Element-wise logical OR."""
        ...

    def logical_xor(self, x1: Tensor, x2: Tensor) -> Any:
        """Element-wise logical XOR."""
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

    def not_equal(self, x1: Tensor, x2: Tensor) -> Any:
        """``x1 != x2``, element-wise."""
        ...

    def power(self, x1: Tensor, x2: Tensor) -> Any:
        """First tensor elements raised to powers from the second, element-wise."""
        ...

    def rad2deg(self, x: Tensor) -> Any:
        """Convert angles from radians to degrees."""
        ...

    def real(self, x: Tensor) -> Any:
        """Real part, element-wise."""
        ...

    def reciprocal(self, x: Tensor) -> Any:
        """Element-wise reciprocal ``1 / x``."""
        ...

    def right_shift(self, x: Tensor, y: Tensor) -> Any:
        """Alias of ``bitwise_right_shift``."""
        ...

    def round(self, x: Tensor, decimals: Any = 0) -> Any:
        """Evenly round to the given number of decimals."""
        ...

    def sign(self, x: Tensor) -> Any:
        """Element-wise sign (-1, 0 or 1)."""
        ...

    def signbit(self, x: Tensor) -> Any:
        """Whether the sign bit is set, element-wise."""
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

    def sqrt(self, x: Tensor) -> Any:
        """Element-wise square root."""
        ...

    def square(self, x: Tensor) -> Any:
        """Element-wise square."""
        ...

    def subtract(self, x1: Tensor, x2: Tensor) -> Any:
        """Subtract arguments element-wise."""
        ...

    def tan(self, x: Tensor) -> Any:
        """Tangent, element-wise."""
        ...

    def tanh(self, x: Tensor) -> Any:
        """Hyperbolic tangent, element-wise."""
        ...

    def true_divide(self, x1: Tensor, x2: Tensor) -> Any:
        """Alias of ``divide``."""
        ...

    def trunc(self, x: Tensor) -> Any:
        """Truncated value of the input, element-wise."""
        ...
