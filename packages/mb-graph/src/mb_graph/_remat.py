"""Rematerialization (gradient checkpointing), Keras's `RematScope` and `remat`.

mb_graph holds the scope and the per-operation policy; the engine's checkpoint
(``jax.checkpoint``, ``torch.utils.checkpoint``, ``tf.recompute_grad``) comes from the op
library registered with `set_remat_hook` (mb_ops registers the active backend's).
"""

from __future__ import annotations

from collections import namedtuple

_MODES = ("full", "activations", "larger_than", "list_of_layers", None)

RematMode = namedtuple("RematMode", ["mode", "output_size_threshold", "layer_names"])


class _Registry:
    remat = None
    stack: list = []


class RematScope:
    """Rematerialization for the layers and operations *created* inside the scope.

    Rematerialization (gradient checkpointing) trades memory for computation: the
    intermediate activations of a rematerialized call are not kept for the backward
    pass but recomputed there (``jax.checkpoint`` on jax, ``torch.utils.checkpoint``
    on torch, ``tf.recompute_grad`` on tensorflow; numpy and openvino do not train).

    Args:
        mode: ``"full"`` (every call), ``"activations"`` (the ``activation`` of layers
            that have one), ``"larger_than"`` (calls whose outputs have more than
            `output_size_threshold` elements), ``"list_of_layers"`` (the layers named
            in `layer_names`), or None (none: turns an outer scope off).
        output_size_threshold: the element count for ``"larger_than"``.
        layer_names: the layer names for ``"list_of_layers"``.

    Example:

    >>> with RematScope(mode="list_of_layers", layer_names=["big"]) as scope:
    ...     pass
    >>> scope.mode, scope.layer_names
    ('list_of_layers', ['big'])
    """

    def __init__(self, mode="full", output_size_threshold=1024, layer_names=None):
        if mode not in _MODES:
            raise ValueError(
                f"Invalid RematScope mode {mode!r}. Supported modes are 'full', "
                "'activations', 'larger_than', 'list_of_layers', or None."
            )
        self.mode = mode
        self.output_size_threshold = output_size_threshold
        self.layer_names = list(layer_names or [])
        self._pop_on_exit = False

    def __enter__(self):
        _Registry.stack.append(self)
        self._pop_on_exit = True
        return self

    def __exit__(self, *exc_info):
        if self._pop_on_exit:
            _Registry.stack.remove(self)
            self._pop_on_exit = False


def get_current_remat_mode():
    """The innermost active `RematScope` as a `RematMode`, or None outside any scope."""
    if not _Registry.stack:
        return None
    scope = _Registry.stack[-1]
    return RematMode(scope.mode, scope.output_size_threshold, scope.layer_names)


def set_remat_hook(fn):
    """Registers ``fn(f) -> f'``, the engine's rematerialization. Returns the previous."""
    previous = _Registry.remat
    _Registry.remat = fn
    return previous


def remat(f):
    """`f` wrapped so that its intermediate values are recomputed in the backward pass.

    Args:
        f: a callable of tensors (other arguments are passed through unchanged).

    Returns:
        A callable with `f`'s results; its gradients are those of `f`.
    """
    if _Registry.remat is None:
        raise NotImplementedError(
            "remat needs an op library that knows the engine's checkpointing: import "
            "mb_ops (or mb) first, which registers the active backend's."
        )
    return _Registry.remat(f)
