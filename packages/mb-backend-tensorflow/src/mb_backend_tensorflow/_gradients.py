"""Gradient primitives of ``core``: ``stop_gradient``, ``custom_gradient`` and ``remat``."""

import tensorflow as tf

from mb_backend_tensorflow._convert import convert_to_tensor as convert_to_tensor


def stop_gradient(variable):
    """``variable`` with no gradient flowing back through it."""
    return tf.stop_gradient(convert_to_tensor(variable))


def custom_gradient(fun):
    """``fun`` returns ``(y, grad_fn)``; ``grad_fn(upstream)`` gives the input gradients."""
    return tf.custom_gradient(f=fun)


def remat(f):
    """``f`` recomputed on the backward pass instead of keeping its activations."""
    return tf.recompute_grad(f)
