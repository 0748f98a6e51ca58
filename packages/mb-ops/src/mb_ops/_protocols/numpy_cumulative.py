"""The ``numpy`` contract functions of the ``numpy_cumulative`` group (``numpy/_cumulative.py``)."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class NumpyCumulative(Protocol):
    """Every backend defines these in ``numpy/_cumulative.py``."""

    def cumprod(self, x: Tensor, axis: Any = None, dtype: Any = None) -> Any:
        """Cumulative product along an axis."""
        ...

    def cumsum(self, x: Tensor, axis: Any = None, dtype: Any = None) -> Any:
        """Cumulative sum along an axis (of the flattened tensor when axis is None)."""
        ...

    def diff(self, a: Tensor, n: Any = 1, axis: Any = -1) -> Any:
        """The n-th discrete difference along an axis."""
        ...

    def nancumprod(self, x: Tensor, axis: Any = None, dtype: Any = None) -> Any:
        """Cumulative product treating NaNs as one."""
        ...

    def nancumsum(self, x: Tensor, axis: Any = None, dtype: Any = None) -> Any:
        """Cumulative sum treating NaNs as zero."""
        ...
