"""Gradient primitives of ``core``: ``stop_gradient``, ``custom_gradient`` and ``remat``."""

import torch
import torch.utils.checkpoint

from mb_backend_torch._convert import to_tensor
from mb_ops import Variable as _BaseVariable


def stop_gradient(variable):
    """The value, detached from the autograd graph."""
    if isinstance(variable, _BaseVariable):
        variable = variable.value
    return to_tensor(variable).detach()


class _CustomGradient(torch.autograd.Function):
    @staticmethod
    def forward(ctx, forward_fn, *args):
        output, grad_fn = forward_fn(*args)
        ctx.grad_fn = grad_fn
        ctx.n_args = len(args)
        ctx.arg_is_tensor = [isinstance(a, torch.Tensor) for a in args]
        return output

    @staticmethod
    def backward(ctx, *upstream):
        grads = ctx.grad_fn(*upstream)
        if not isinstance(grads, list | tuple):
            grads = (grads,)
        grads = list(grads)
        if len(grads) != sum(ctx.arg_is_tensor) and len(grads) != ctx.n_args:
            raise ValueError(
                f"The gradient function of a custom_gradient returned {len(grads)} "
                f"gradients; expected one per tensor input ({sum(ctx.arg_is_tensor)})."
            )
        if len(grads) != ctx.n_args:
            it = iter(grads)
            grads = [next(it) if is_t else None for is_t in ctx.arg_is_tensor]
        return (None, *[to_tensor(g) if g is not None else None for g in grads])


class custom_gradient:
    """Decorate ``f(*args) -> (output, grad_fn)``; ``grad_fn(upstream)`` returns input grads.

    ``grad_fn`` is called with the upstream gradient positionally, so both
    ``def grad(upstream)`` and Keras's ``def grad(*args, upstream=None)`` work.
    """

    def __init__(self, fun):
        self.forward_fn = fun

    def __call__(self, *args, **kwargs):
        if kwargs:
            fn = self.forward_fn

            def forward_fn(*a):
                return fn(*a, **kwargs)
        else:
            forward_fn = self.forward_fn
        args = [a.value if isinstance(a, _BaseVariable) else a for a in args]
        return _CustomGradient.apply(forward_fn, *args)


def remat(f):
    """``f`` that recomputes its activations in the backward pass (activation checkpointing)."""

    def wrapped(*args, **kwargs):
        return torch.utils.checkpoint.checkpoint(f, *args, use_reentrant=False, **kwargs)

    return wrapped
