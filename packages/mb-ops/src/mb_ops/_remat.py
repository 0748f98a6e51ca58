"""`remat`: the active backend's gradient checkpointing over a function of any arguments."""

from __future__ import annotations

import functools
from typing import Any

from mb_graph import tree
from mb_ops import _backends


def remat(f: Any) -> Any:
    """`f`, with its intermediate activations recomputed in the backward pass instead
    of kept (``jax.checkpoint``, ``torch.utils.checkpoint``, ``tf.recompute_grad``).

    Only the tensor arguments go through the engine's checkpoint; the others (flags
    such as ``training``, None, Python numbers) reach `f` unchanged. On numpy and
    openvino, which never run a backward pass, `f` runs as is.

    Args:
        f: a callable (a function, a layer's ``call``, an activation).

    Returns:
        A callable with the same results as `f` and the same gradients.

    Example:

    >>> import numpy as np
    >>> double_tanh = remat(lambda x, scale=1.0: scale * np.tanh(x))
    >>> value = float(double_tanh(np.float32(0.5), scale=2.0))
    >>> round(value, 6) == round(2.0 * float(np.tanh(0.5)), 6)
    True
    """

    @functools.wraps(f)
    def rematerialized(*args, **kwargs):
        core = _backends.backend_module("core")
        structure = (args, kwargs)
        leaves = tree.flatten(structure)
        where = [i for i, leaf in enumerate(leaves) if core.is_tensor(leaf)]

        def on_tensors(*tensors):
            full = list(leaves)
            for i, tensor in zip(where, tensors, strict=True):
                full[i] = tensor
            call_args, call_kwargs = tree.pack_sequence_as(structure, full)
            return f(*call_args, **call_kwargs)

        return core.remat(on_tensors)(*(leaves[i] for i in where))

    return rematerialized
