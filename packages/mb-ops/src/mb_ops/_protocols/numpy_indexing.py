"""The ``numpy`` contract functions of the ``numpy_indexing`` group (``numpy/_indexing.py``)."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class NumpyIndexing(Protocol):
    """Every backend defines these in ``numpy/_indexing.py``."""

    def digitize(self, x: Tensor, bins: Any) -> Any:
        """Indices of the bins each value belongs to."""
        ...

    def isin(self, x1: Tensor, x2: Tensor, assume_unique: Any = False, invert: Any = False) -> Any:
        """Whether each element of ``x1`` is in ``x2``."""
        ...

    def pad(
        self, x: Tensor, pad_width: Any, mode: Any = "constant", constant_values: Any = None
    ) -> Any:
        """Pad a tensor."""
        ...

    def searchsorted(self, sorted_sequence: Any, values: Tensor, side: Any = "left") -> Any:
        """Indices where ``values`` would be inserted to keep the order."""
        ...

    def select(self, condlist: Tensor, choicelist: Tensor, default: Any = 0) -> Any:
        """Elements from ``choicelist`` chosen by the first true condition."""
        ...

    def take(self, x: Tensor, indices: Tensor, axis: Any = None) -> Any:
        """Elements of a tensor along an axis at the given indices."""
        ...

    def take_along_axis(self, x: Tensor, indices: Tensor, axis: Any = None) -> Any:
        """Values of ``x`` at ``indices`` along an axis."""
        ...

    def unique(
        self,
        x: Tensor,
        sorted: Any = True,
        return_index: Any = False,
        return_inverse: Any = False,
        return_counts: Any = False,
        axis: Any = None,
        size: Any = None,
        fill_value: Any = None,
    ) -> Any:
        """The unique elements of a tensor (static size given by ``size``)."""
        ...

    def vectorize(self, pyfunc: Any, *, excluded: Any = None, signature: Any = None) -> Any:
        """``pyfunc`` mapped over the elements (or core dims, with ``signature``) of its inputs."""
        ...

    def where(self, condition: Tensor, x1: Tensor = None, x2: Tensor = None) -> Any:
        """Elements of ``x1`` where ``condition`` is true, else of ``x2``."""
        ...
