"""The ``numpy`` contract functions of the ``numpy_shape`` group (``numpy/_shape.py``)."""

from typing import Any, Protocol

from mb_ops._protocols._types import Tensor


class NumpyShape(Protocol):
    """Every backend defines these in ``numpy/_shape.py``."""

    def broadcast_to(self, x: Tensor, shape: Any) -> Any:
        """Broadcast a tensor to a new shape."""
        ...

    def copy(self, x: Tensor) -> Any:
        """A copy of the tensor."""
        ...

    def expand_dims(self, x: Tensor, axis: Any) -> Any:
        """Insert new axes of size 1 at the given positions."""
        ...

    def flip(self, x: Tensor, axis: Any = None) -> Any:
        """Reverse the order of elements along the given axes."""
        ...

    def fliplr(self, x: Tensor) -> Any:
        """Reverse the order of elements along axis 1."""
        ...

    def flipud(self, x: Tensor) -> Any:
        """Reverse the order of elements along axis 0."""
        ...

    def moveaxis(self, x: Tensor, source: Any, destination: Any) -> Any:
        """Move axes to new positions."""
        ...

    def ndim(self, x: Tensor) -> Any:
        """Number of dimensions."""
        ...

    def nonzero(self, x: Tensor) -> Any:
        """Indices of the non-zero elements, one tensor per axis."""
        ...

    def ravel(self, x: Tensor) -> Any:
        """Flatten to one dimension."""
        ...

    def repeat(self, x: Tensor, repeats: Any, axis: Any = None) -> Any:
        """Repeat each element of a tensor."""
        ...

    def reshape(self, x: Tensor, newshape: Any) -> Any:
        """Give a new shape to a tensor without changing its data (one -1 allowed)."""
        ...

    def roll(self, x: Tensor, shift: Any, axis: Any = None) -> Any:
        """Roll elements along an axis."""
        ...

    def rot90(self, array: Any, k: Any = 1, axes: Any = (0, 1)) -> Any:
        """Rotate by 90 degrees in the plane of ``axes``."""
        ...

    def size(self, x: Tensor) -> Any:
        """Number of elements."""
        ...

    def squeeze(self, x: Tensor, axis: Any = None) -> Any:
        """Remove axes of size 1."""
        ...

    def swapaxes(self, x: Tensor, axis1: Any, axis2: Any) -> Any:
        """Interchange two axes."""
        ...

    def tile(self, x: Tensor, repeats: Any) -> Any:
        """Repeat a tensor ``repeats`` times along each axis."""
        ...

    def transpose(self, x: Tensor, axes: Any = None) -> Any:
        """Permute the axes of a tensor (reverse them when axes is None)."""
        ...

    def unravel_index(self, indices: Tensor, shape: Any) -> Any:
        """Convert flat indices into tuples of coordinates."""
        ...

    def view(self, x: Tensor, dtype: Any = None) -> Any:
        """View the tensor's memory with another dtype."""
        ...
