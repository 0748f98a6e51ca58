"""The ``numpy`` contract functions of the ``numpy_creation`` group (``numpy/_creation.py``)."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class NumpyCreation(Protocol):
    """Every backend defines these in ``numpy/_creation.py``."""

    def arange(self, start: Any, stop: Any = None, step: Any = None, dtype: Any = None) -> Any:
        """Evenly spaced values within an interval."""
        ...

    def array(self, x: Tensor, dtype: Any = None) -> Any:
        """Create a tensor."""
        ...

    def bartlett(self, x: Tensor) -> Any:
        """The Bartlett window of ``x`` points."""
        ...

    def blackman(self, x: Tensor) -> Any:
        """The Blackman window of ``x`` points."""
        ...

    def empty(self, shape: Any, dtype: Any = None) -> Any:
        """A tensor of the given shape with unspecified values."""
        ...

    def empty_like(self, x: Tensor, dtype: Any = None) -> Any:
        """An uninitialized tensor with the shape of ``x``."""
        ...

    def eye(self, N: Any, M: Any = None, k: Any = 0, dtype: Any = None) -> Any:
        """A 2D tensor with ones on the k-th diagonal."""
        ...

    def full(self, shape: Any, fill_value: Any, dtype: Any = None) -> Any:
        """A tensor filled with ``fill_value``."""
        ...

    def full_like(self, x: Tensor, fill_value: Any, dtype: Any = None) -> Any:
        """``fill_value`` with the shape of ``x``."""
        ...

    def geomspace(
        self,
        start: Any,
        stop: Any,
        num: Any = 50,
        endpoint: Any = True,
        dtype: Any = None,
        axis: Any = 0,
    ) -> Any:
        """Numbers spaced evenly on a log scale (geometric progression)."""
        ...

    def hamming(self, x: Tensor) -> Any:
        """The Hamming window of ``x`` points."""
        ...

    def hanning(self, x: Tensor) -> Any:
        """The Hanning window of ``x`` points."""
        ...

    def identity(self, n: Any, dtype: Any = None) -> Any:
        """The identity matrix."""
        ...

    def kaiser(self, x: Tensor, beta: Any) -> Any:
        """The Kaiser window of ``x`` points."""
        ...

    def linspace(
        self,
        start: Any,
        stop: Any,
        num: Any = 50,
        endpoint: Any = True,
        retstep: Any = False,
        dtype: Any = None,
        axis: Any = 0,
    ) -> Any:
        """Evenly spaced numbers over an interval."""
        ...

    def logspace(
        self,
        start: Any,
        stop: Any,
        num: Any = 50,
        endpoint: Any = True,
        base: Any = 10,
        dtype: Any = None,
        axis: Any = 0,
    ) -> Any:
        """Numbers spaced evenly on a log scale."""
        ...

    def meshgrid(self, *x: Any, indexing: Any = "xy") -> Any:
        """Coordinate grids from coordinate vectors."""
        ...

    def ones(self, shape: Any, dtype: Any = None) -> Any:
        """A tensor of ones."""
        ...

    def ones_like(self, x: Tensor, dtype: Any = None) -> Any:
        """Ones with the shape of ``x``."""
        ...

    def tri(self, N: Any, M: Any = None, k: Any = 0, dtype: Any = None) -> Any:
        """Ones at and below the k-th diagonal."""
        ...

    def zeros(self, shape: Any, dtype: Any = None) -> Any:
        """A tensor of zeros."""
        ...

    def zeros_like(self, x: Tensor, dtype: Any = None) -> Any:
        """Zeros with the shape of ``x``."""
        ...
