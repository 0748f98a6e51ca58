"""Gradient primitives of ``core``: ``stop_gradient``, ``custom_gradient`` and ``remat``.

NumPy computes no gradients: ``custom_gradient`` and ``remat`` are the forward-only
ones of ``mb_ops.numpy_shaped``.
"""

from mb_backend_numpy._convert import to_tensor
from mb_ops.numpy_shaped import custom_gradient as custom_gradient
from mb_ops.numpy_shaped import remat as remat


def stop_gradient(variable):
    """Identity: NumPy computes no gradients."""
    return to_tensor(variable)
