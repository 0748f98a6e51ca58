"""Optimizer updates over many tensors at once: any per-tensor rule (`fused_update`) and
elementwise rules on torch's multi-tensor ``_foreach`` kernels (`foreach_update`)."""

import types

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


def _scalar(value):
    """A Python number stays one (the kernels take it as a Scalar); anything else (a 0-d
    tensor of mb's) becomes a torch tensor."""
    if isinstance(value, bool | int | float):
        return value
    return t(value)


def _binary(name, operator, kernel):
    """``xp.<name>(a, b)``: list-list and list-scalar through ``kernel``
    (``torch._foreach_<name>``, one launch for every tensor), scalar-list tensor by
    tensor, scalar-scalar as a 0-d tensor."""

    def function(a, b):
        if isinstance(a, list | tuple):
            return list(kernel(a, b if isinstance(b, list | tuple) else _scalar(b)))
        a = torch.as_tensor(_scalar(a))
        if isinstance(b, list | tuple):
            return [operator(a, x) for x in b]
        return operator(a, torch.as_tensor(_scalar(b)))

    function.__name__ = name
    return function


def _unary(name, operator, kernel):
    def function(a):
        if isinstance(a, list | tuple):
            return list(kernel(a))
        return operator(torch.as_tensor(_scalar(a)))

    function.__name__ = name
    return function


LIST_MATH = types.SimpleNamespace(
    add=_binary("add", torch.add, foreach.add),
    subtract=_binary("subtract", torch.sub, foreach.sub),
    multiply=_binary("multiply", torch.mul, foreach.mul),
    divide=_binary("divide", torch.div, foreach.div),
    maximum=_binary("maximum", torch.maximum, foreach.maximum),
    minimum=_binary("minimum", torch.minimum, foreach.minimum),
    abs=_unary("abs", torch.abs, foreach.abs),
    negative=_unary("negative", torch.neg, foreach.neg),
    sign=_unary("sign", torch.sign, foreach.sign),
    sqrt=_unary("sqrt", torch.sqrt, foreach.sqrt),
    square=_unary("square", torch.square, lambda a: foreach.mul(a, a)),
)
"""The ``xp`` an elementwise update rule gets from `foreach_update`: mb-train's
``ELEMENTWISE`` functions over lists of tensors (one per parameter), each one
multi-tensor kernel (``torch._foreach_<name>``) per call, returning a list."""


def foreach_update(rule, params, grads, *slots, scalars=()):
    """Run an elementwise update rule over every tensor at once, in place.

    Args:
        rule: ``rule(xp, param, grad, *slots, *scalars) -> new_param`` or
            ``(new_param, *new_slots)``, written over ``xp``'s elementwise functions
            (`LIST_MATH` here: each call is one multi-tensor kernel).
        params, grads: lists of tensors (same length); ``params`` are written in place.
        *slots: optimizer slot lists (momenta, ...), written in place.
        scalars: values shared by every tensor (Python numbers or 0-d tensors).
    """
    params, grads = list(params), list(grads)
    slots = [list(s) for s in slots]
    if not params:
        return
    if len(grads) != len(params) or any(len(s) != len(params) for s in slots):
        raise ValueError(
            f"foreach_update: params ({len(params)}), grads ({len(grads)}) and every slot "
            f"list ({[len(s) for s in slots]}) must have the same length."
        )
    with torch.no_grad():
        out = rule(LIST_MATH, params, grads, *slots, *scalars)
        out = out if isinstance(out, tuple) else (out,)
        if len(out) != 1 + len(slots):
            raise ValueError(
                f"foreach_update: the rule must return (new_param, *new_slots) with "
                f"{len(slots)} slot(s); it returned {len(out)} value(s)."
            )
        for target, values in zip([params, *slots], out, strict=True):
            if values is not target:
                foreach.copy_(target, values)
