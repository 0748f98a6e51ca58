"""Gradient primitives of ``core``: ``stop_gradient``, ``custom_gradient`` and ``remat``."""

import jax

from mb_backend_jax._convert import convert_to_tensor
from mb_ops import Variable as BaseVariable


def _unwrap_variables(tree):
    return jax.tree_util.tree_map(
        lambda x: x.value if isinstance(x, BaseVariable) else x,
        tree,
        is_leaf=lambda x: isinstance(x, BaseVariable),
    )


def stop_gradient(variable):
    """``variable`` with its gradient blocked (``lax.stop_gradient``)."""
    return jax.lax.stop_gradient(convert_to_tensor(variable))


def custom_gradient(fun):
    """Decorate ``fun(*args)`` that returns ``(output, grad_fn)``.

    ``grad_fn(*upstream)`` returns the gradients with respect to ``args``, as
    in ``jax.custom_gradient``. ``mb_ops.Variable`` arguments are unwrapped.
    """
    with_custom = jax.custom_gradient(fun=fun)

    def wrapper(*args, **kwargs):
        args, kwargs = _unwrap_variables((args, kwargs))
        return with_custom(*args, **kwargs)

    return wrapper


def remat(f):
    """``f`` recomputed in the backward pass instead of storing activations."""
    return jax.checkpoint(f)
