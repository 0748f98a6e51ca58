"""Optimizer updates over many tensors at once: a generic one and ``_foreach`` kernels."""

import torch

from mb_backend_torch._compat import foreach
from mb_backend_torch.numpy._common import t


def fused_update(update_fn, params, grads, *slots, scalars=(), donate=False, jit_compile=None):
    """Apply ``update_fn`` to every (param, grad, *slots) tensor, under ``torch.no_grad``.

    Args:
        update_fn: ``update_fn(param, grad, *slots, *scalars) -> new_param`` or
            ``(new_param, *new_slots)``, written for one tensor.
        params, grads: lists of tensors (same length).
        *slots: optimizer slot lists (momenta, ...), each that length.
        scalars: values shared by every tensor (learning rate, step count).
        donate: write the results into ``params`` and ``slots`` in place (one
            ``torch._foreach_copy_`` per list) and return them.
        jit_compile: accepted for the contract; the update runs eagerly.

    Returns:
        ``new_params`` when there are no slots, else ``(new_params, *new_slots)``.
    """
    params, grads = list(params), list(grads)
    slots = [list(s) for s in slots]
    if len(grads) != len(params) or any(len(s) != len(params) for s in slots):
        raise ValueError(
            f"fused_update: params ({len(params)}), grads ({len(grads)}) and every slot list "
            f"({[len(s) for s in slots]}) must have the same length."
        )
    columns = [[] for _ in range(1 + len(slots))]
    with torch.no_grad():
        for i, (p, g) in enumerate(zip(params, grads, strict=True)):
            out = update_fn(p, g, *(s[i] for s in slots), *scalars)
            out = out if isinstance(out, tuple) else (out,)
            if len(out) != 1 + len(slots):
                raise ValueError(
                    f"fused_update: update_fn must return (new_param, *new_slots) with "
                    f"{len(slots)} slot(s); it returned {len(out)} value(s)."
                )
            for column, value in zip(columns, out, strict=True):
                column.append(t(value))
        if donate:
            for target, values in zip([params, *slots], columns, strict=True):
                if target:
                    foreach.copy_(target, values)
            columns = [params, *slots]
    return tuple(columns) if slots else columns[0]


def _rate(value, like):
    """A learning rate, step or other per-step scalar as a 0-d tensor of `like`'s
    float dtype on its device: no ``.item()`` (no device sync on CUDA, and a
    recorded step stays replayable), and changing it never recompiles anything."""
    dtype = like.dtype if like.is_floating_point() else torch.float32
    if isinstance(value, torch.Tensor):
        return value.detach().to(device=like.device, dtype=dtype)
    return torch.tensor(float(value), dtype=dtype, device=like.device)


def _constant(value):
    # Hyper-parameters fixed at construction (betas, momentum, epsilon) stay Python
    # numbers; a tensor (e.g. a Keras callable made concrete) is read once.
    return float(value.item()) if isinstance(value, torch.Tensor) else float(value)


def foreach_sgd(
    params,
    grads,
    momentums=None,
    learning_rate=0.01,
    momentum=0.0,
    nesterov=False,
    weight_decay=0.0,
):
    """Keras's SGD update, in place, over every tensor with ``_foreach`` kernels.

    ``v = momentum * v - lr * g``; ``p += v`` (nesterov: ``p += momentum * v - lr * g``);
    without momentum ``p -= lr * g``. ``weight_decay`` is decoupled, as Keras applies
    it: ``p -= p * weight_decay * lr`` first.
    """
    if not params:
        return
    lr = _rate(learning_rate, params[0])
    with torch.no_grad():
        if weight_decay:
            foreach.mul_(params, 1.0 - lr * _constant(weight_decay))
        step = foreach.mul(grads, lr)  # lr * g
        if momentum and momentums is not None:
            foreach.mul_(momentums, _constant(momentum))
            foreach.sub_(momentums, step)
            if nesterov:
                foreach.add_(params, foreach.mul(momentums, _constant(momentum)))
                foreach.sub_(params, step)
            else:
                foreach.add_(params, momentums)
        else:
            foreach.sub_(params, step)


def foreach_adam(
    params,
    grads,
    m,
    v,
    step,
    learning_rate=0.001,
    beta_1=0.9,
    beta_2=0.999,
    epsilon=1e-7,
    weight_decay=0.0,
    v_hat=None,
):
    """Keras's Adam (AdamW with ``weight_decay``) update, in place, with ``_foreach`` kernels.

    With ``t = step`` (1 for the first update): ``m += (g - m) * (1 - b1)``,
    ``v += (g*g - v) * (1 - b2)``, ``p -= lr * sqrt(1 - b2**t) / (1 - b1**t) *
    m / (sqrt(v) + eps)``; AMSGrad when ``v_hat`` (slot list) is given. The rate and
    the step may be tensors: nothing is read back into Python.
    """
    if not params:
        return
    lr = _rate(learning_rate, params[0])
    t = _rate(step, params[0])
    b1, b2 = _constant(beta_1), _constant(beta_2)
    lr_t = lr * torch.sqrt(1.0 - torch.pow(b2, t)) / (1.0 - torch.pow(b1, t))
    with torch.no_grad():
        if weight_decay:
            foreach.mul_(params, 1.0 - lr * _constant(weight_decay))
        foreach.lerp_(m, grads, 1 - b1)
        foreach.lerp_(v, foreach.mul(grads, grads), 1 - b2)
        second = v
        if v_hat is not None:
            foreach.maximum_(v_hat, v)
            second = v_hat
        denom = foreach.sqrt(second)
        foreach.add_(denom, _constant(epsilon))
        update = foreach.div(m, denom)
        foreach.mul_(update, lr_t)
        foreach.sub_(params, update)
