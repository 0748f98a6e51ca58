"""The ``numpy`` contract functions of the ``numpy_logic`` group (``numpy/_logic.py``)."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class NumpyLogic(Protocol):
    """Every backend defines these in ``numpy/_logic.py``."""

    def allclose(
        self, x1: Tensor, x2: Tensor, rtol: Any = 1e-05, atol: Any = 1e-08, equal_nan: Any = False
    ) -> Any:
        """Whether all elements of two tensors are close within a tolerance."""
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

    def equal(self, x1: Tensor, x2: Tensor) -> Any:
        """``x1 == x2``, element-wise."""
        ...

    def greater(self, x1: Tensor, x2: Tensor) -> Any:
        """``x1 > x2``, element-wise."""
        ...

    def greater_equal(self, x1: Tensor, x2: Tensor) -> Any:
        """``x1 >= x2``, element-wise."""
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

    def left_shift(self, x: Tensor, y: Tensor) -> Any:
        """Alias of ``bitwise_left_shift``."""
        ...

    def less(self, x1: Tensor, x2: Tensor) -> Any:
        """``x1 < x2``, element-wise."""
        ...

    def less_equal(self, x1: Tensor, x2: Tensor) -> Any:
        """``x1 <= x2``, element-wise."""
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

    def not_equal(self, x1: Tensor, x2: Tensor) -> Any:
        """``x1 != x2``, element-wise."""
        ...

    def right_shift(self, x: Tensor, y: Tensor) -> Any:
        """Alias of ``bitwise_right_shift``."""
        ...

    def signbit(self, x: Tensor) -> Any:
        """Whether the sign bit is set, element-wise."""
        ...
