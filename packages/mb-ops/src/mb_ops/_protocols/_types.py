"""Type names shared by the contract Protocols."""

from typing import Any, TypeAlias

Tensor: TypeAlias = Any
"""A tensor of the active backend (``numpy.ndarray``, ``jax.Array``, ``torch.Tensor``, ...)
or anything it converts (a Python number, a NumPy array, a ``Variable``)."""
