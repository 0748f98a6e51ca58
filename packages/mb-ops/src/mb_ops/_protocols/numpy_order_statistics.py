"""The ``numpy`` contract functions of the ``numpy_order_statistics`` group
(``numpy/_order_statistics.py``)."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class NumpyOrderStatistics(Protocol):
    """Every backend defines these in ``numpy/_order_statistics.py``."""

    def argpartition(self, x: Tensor, kth: Any, axis: Any = -1) -> Any:
        """Indices that would partition the tensor around the ``kth`` element."""
        ...

    def argsort(self, x: Tensor, axis: Any = -1) -> Any:
        """Indices that would sort the tensor along an axis."""
        ...

    def median(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Median along the given axes."""
        ...

    def nanmedian(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Median along the given axes, ignoring NaNs."""
        ...

    def nanpercentile(
        self, x: Tensor, q: Any, axis: Any = None, method: Any = "linear", keepdims: Any = False
    ) -> Any:
        """The q-th percentiles along the given axes, ignoring NaNs."""
        ...

    def nanquantile(
        self, x: Tensor, q: Any, axis: Any = None, method: Any = "linear", keepdims: Any = False
    ) -> Any:
        """The q-th quantiles along the given axes, ignoring NaNs."""
        ...

    def percentile(
        self, x: Tensor, q: Any, axis: Any = None, method: Any = "linear", keepdims: Any = False
    ) -> Any:
        """The q-th percentiles along the given axes (q in [0, 100])."""
        ...

    def quantile(
        self, x: Tensor, q: Any, axis: Any = None, method: Any = "linear", keepdims: Any = False
    ) -> Any:
        """The q-th quantiles along the given axes (q in [0, 1])."""
        ...

    def sort(self, x: Tensor, axis: Any = -1) -> Any:
        """Sorted copy of the tensor along an axis."""
        ...
