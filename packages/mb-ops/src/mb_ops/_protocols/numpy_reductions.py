"""The ``numpy`` contract functions of the ``numpy_reductions`` group (``numpy/_reductions.py``)."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class NumpyReductions(Protocol):
    """Every backend defines these in ``numpy/_reductions.py``."""

    def all(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Whether all elements along the given axes are true."""
        ...

    def amax(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Maximum along the given axes."""
        ...

    def amin(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Minimum along the given axes."""
        ...

    def any(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Whether any element along the given axes is true."""
        ...

    def argmax(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Indices of the maximum values along an axis."""
        ...

    def argmin(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Indices of the minimum values along an axis."""
        ...

    def average(self, x: Tensor, axis: Any = None, weights: Any = None) -> Any:
        """Weighted average along the given axis."""
        ...

    def bincount(
        self, x: Tensor, weights: Any = None, minlength: Any = 0, sparse: Any = False
    ) -> Any:
        """Count the occurrences of each value in an int tensor."""
        ...

    def count_nonzero(self, x: Tensor, axis: Any = None) -> Any:
        """Number of non-zero values along the given axes."""
        ...

    def histogram(self, x: Tensor, bins: Any = 10, range: Any = None) -> Any:
        """Histogram of a 1D tensor: (counts, bin edges)."""
        ...

    def max(self, x: Tensor, axis: Any = None, keepdims: Any = False, initial: Any = None) -> Any:
        """Maximum along the given axes."""
        ...

    def mean(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Arithmetic mean along the given axes."""
        ...

    def min(self, x: Tensor, axis: Any = None, keepdims: Any = False, initial: Any = None) -> Any:
        """Minimum along the given axes."""
        ...

    def nanargmax(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Indices of the maximum values along an axis, ignoring NaNs."""
        ...

    def nanargmin(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Indices of the minimum values along an axis, ignoring NaNs."""
        ...

    def nanmax(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Maximum along the given axes, ignoring NaNs."""
        ...

    def nanmean(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Mean along the given axes, ignoring NaNs."""
        ...

    def nanmin(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Minimum along the given axes, ignoring NaNs."""
        ...

    def nanprod(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Product along the given axes, treating NaNs as one."""
        ...

    def nanstd(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Standard deviation along the given axes, ignoring NaNs."""
        ...

    def nansum(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Sum along the given axes, treating NaNs as zero."""
        ...

    def nanvar(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Variance along the given axes, ignoring NaNs."""
        ...

    def prod(self, x: Tensor, axis: Any = None, keepdims: Any = False, dtype: Any = None) -> Any:
        """Product along the given axes."""
        ...

    def ptp(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Range (max - min) along the given axes."""
        ...

    def std(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Standard deviation along the given axes."""
        ...

    def sum(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Sum along the given axes."""
        ...

    def trapezoid(self, y: Tensor, x: Tensor = None, dx: Any = 1.0, axis: Any = -1) -> Any:
        """Integrate along an axis with the trapezoidal rule."""
        ...

    def var(self, x: Tensor, axis: Any = None, keepdims: Any = False) -> Any:
        """Variance along the given axes."""
        ...
