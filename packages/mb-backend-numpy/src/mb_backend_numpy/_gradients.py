"""Gradient primitives of ``core``: ``stop_gradient``, ``custom_gradient`` and ``remat``."""

from mb_backend_numpy._convert import to_tensor


def stop_gradient(variable):
    """Identity: NumPy computes no gradients."""
    return to_tensor(variable)


class custom_gradient:
    """Decorator for a function returning ``(outputs, grad_fn)``.

    The NumPy backend computes no gradients, so the forward outputs are
    returned and ``grad_fn`` is never called.
    """

    def __init__(self, fun):
        self.fun = fun

    def __call__(self, *args, **kwargs):
        outputs, _ = self.fun(*args, **kwargs)
        return outputs


def remat(f):
    """Identity: rematerialization saves memory during backprop, which NumPy never runs."""
    return f
