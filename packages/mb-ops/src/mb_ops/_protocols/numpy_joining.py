"""The ``numpy`` contract functions of the ``numpy_joining`` group (``numpy/_joining.py``)."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class NumpyJoining(Protocol):
    """Every backend defines these in ``numpy/_joining.py``."""

    def append(self, x1: Tensor, x2: Tensor, axis: Any = None) -> Any:
        """Append ``x2`` to ``x1`` along an axis (flattened when axis is None)."""
        ...

    def array_split(self, x: Tensor, indices_or_sections: Any, axis: Any = 0) -> Any:
        """Split a tensor into possibly unequal sub-tensors."""
        ...

    def concatenate(self, xs: Tensor, axis: Any = 0) -> Any:
        """Join a sequence of tensors along an existing axis."""
        ...

    def dsplit(self, x: Tensor, indices_or_sections: Any) -> Any:
        """Split along the third axis."""
        ...

    def dstack(self, xs: Tensor) -> Any:
        """Stack tensors along the third axis."""
        ...

    def hsplit(self, x: Tensor, indices_or_sections: Any) -> Any:
        """Split horizontally (column wise)."""
        ...

    def hstack(self, xs: Tensor) -> Any:
        """Stack tensors horizontally (column wise)."""
        ...

    def split(self, x: Tensor, indices_or_sections: Any, axis: Any = 0) -> Any:
        """Split a tensor into sub-tensors along an axis."""
        ...

    def stack(self, x: Tensor, axis: Any = 0) -> Any:
        """Join a sequence of tensors along a new axis."""
        ...

    def vsplit(self, x: Tensor, indices_or_sections: Any) -> Any:
        """Split vertically (row wise)."""
        ...

    def vstack(self, xs: Tensor) -> Any:
        """Stack tensors vertically (row wise)."""
        ...
