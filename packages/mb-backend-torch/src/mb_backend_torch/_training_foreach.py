"""Optimizer updates over many tensors at once: any per-tensor rule (`fused_update`) and
elementwise rules on torch's multi-tensor ``_foreach`` kernels (`foreach_update`)."""

import math
import operator

import torch

from mb_backend_torch import _foreach_fusion
from mb_backend_torch._compat import foreach
from mb_backend_torch._foreach_fusion import Value as _Value
from mb_backend_torch._foreach_fusion import scalar as _scalar
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


_IS_CPU = operator.attrgetter("is_cpu")

_UNARY = {
    "abs": torch.abs,
    "negative": torch.neg,
    "sign": torch.sign,
    "sqrt": torch.sqrt,
    "square": torch.square,
}
_BINARY = {
    "add": torch.add,
    "subtract": torch.sub,
    "multiply": torch.mul,
    "divide": torch.div,
    "maximum": torch.maximum,
    "minimum": torch.minimum,
}
_COMMUTATIVE = frozenset({"add", "multiply", "maximum", "minimum"})
# name -> (out-of-place kernel, in-place kernel) of torch's multi-tensor ops.
_KERNELS = {
    "abs": (foreach.abs, foreach.abs_),
    "negative": (foreach.neg, foreach.neg_),
    "sign": (foreach.sign, foreach.sign_),
    "sqrt": (foreach.sqrt, foreach.sqrt_),
    "add": (foreach.add, foreach.add_),
    "subtract": (foreach.sub, foreach.sub_),
    "multiply": (foreach.mul, foreach.mul_),
    "divide": (foreach.div, foreach.div_),
    "maximum": (foreach.maximum, foreach.maximum_),
    "minimum": (foreach.minimum, foreach.minimum_),
}


_NUMBERS = {
    "abs": abs,
    "negative": operator.neg,
    "square": lambda x: x * x,
    "add": operator.add,
    "subtract": operator.sub,
    "multiply": operator.mul,
    "maximum": max,
    "minimum": min,
}


def _number_function(op, *args):
    """The Python function computing ``op`` of these numbers as the kernels would, or
    None (division by 0, square root of a negative, sign: torch's result)."""
    if op == "divide":
        return operator.truediv if args[1] != 0 else None
    if op == "sqrt":
        return math.sqrt if args[0] >= 0 else None
    return _NUMBERS.get(op)


class _Trace:
    """The ``xp`` a rule runs against in `foreach_update`: each function records a step
    on lists (`_Value`s); functions of scalars only are computed at once."""

    def __init__(self):
        self.steps = []

    def _record(self, op, *args):
        if all(type(a) in (int, float) for a in args):
            # Python numbers stay numbers, so the kernels can take them as a Scalar
            # (``addcmul_(..., value=1 - rho)``; a 0-d tensor would need a kernel of its own).
            number_function = _number_function(op, *args)
            if number_function is not None:
                return number_function(*args)
        if not any(isinstance(a, _Value) for a in args):
            function = _UNARY.get(op) or _BINARY[op]
            return function(*(torch.as_tensor(_scalar(a)) for a in args))
        value = _Value(op, args)
        self.steps.append(value)
        return value


for _name in (*_UNARY, *_BINARY):
    setattr(
        _Trace,
        _name,
        (lambda name: lambda self, *args: self._record(name, *args))(_name),
    )


def _run(steps, outputs, on_cpu=False):
    """Computes the traced `steps` with torch's multi-tensor kernels.

    A step writes into the memory of an argument, instead of allocating, when nothing
    reads that argument afterwards and the memory is scratch (allocated by an earlier
    step) or a parameter's or slot's (never a gradient's) (`_foreach_fusion.Graph`);
    so momentum's ``m = m * momentum - g * lr`` scales ``m`` in place, as hand-written
    kernels do. Chains of steps that torch has one in-place kernel for run as that
    kernel (`_foreach_fusion.plan`): Adam's moments are one ``lerp_`` and one
    ``mul_`` + ``addcmul_``, its parameter update one ``addcdiv_``.
    """
    graph = _foreach_fusion.Graph(steps, outputs, on_cpu)
    fusions, absorbed = _foreach_fusion.plan(graph)

    def operand(arg):
        return arg.tensors if isinstance(arg, _Value) else _scalar(arg)

    for index, step in enumerate(steps):
        op = step.op
        if id(step) in absorbed:
            continue
        if index in fusions:
            step.tensors = fusions[index].run()
            continue
        if op in _UNARY:
            (x,) = step.args
            if op == "square":
                if graph.writable(x, index):
                    foreach.mul_(x.tensors, x.tensors)
                    step.tensors = x.tensors
                else:
                    step.tensors = list(foreach.mul(x.tensors, x.tensors))
                continue
            out_of_place, in_place = _KERNELS[op]
            if graph.writable(x, index):
                in_place(x.tensors)
                step.tensors = x.tensors
            else:
                step.tensors = list(out_of_place(x.tensors))
            continue
        a, b = step.args
        out_of_place, in_place = _KERNELS[op]
        if not isinstance(a, _Value) and op not in _COMMUTATIVE:
            # scalar - x and scalar / x: negate or invert x, then add or scale.
            first, second = (foreach.neg_, foreach.add_)
            if op == "divide":
                first, second = (foreach.reciprocal_, foreach.mul_)
            tensors = b.tensors if graph.writable(b, index) else [x.clone() for x in b.tensors]
            first(tensors)
            second(tensors, _scalar(a))
            step.tensors = tensors
            continue
        if not isinstance(a, _Value) or (
            op in _COMMUTATIVE
            and not graph.writable(a, index)
            and isinstance(b, _Value)
            and graph.writable(b, index)
        ):
            a, b = b, a
        if graph.writable(a, index):
            in_place(a.tensors, operand(b))
            step.tensors = a.tensors
        else:
            step.tensors = list(out_of_place(a.tensors, operand(b)))


def foreach_update(rule, params, grads, *slots, scalars=()):
    """Run an elementwise update rule over every tensor at once, in place.

    The rule is traced once per call (its functions record steps on lists of tensors),
    then run with torch's multi-tensor ``_foreach_*`` kernels, updating in place
    wherever the value overwritten is not read again (see `_run`).

    Args:
        rule: ``rule(xp, param, grad, *slots, *scalars) -> new_param`` or
            ``(new_param, *new_slots)``, written over ``xp``'s elementwise functions
            (mb-train's ``ELEMENTWISE``).
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
    targets = [params, *slots]
    inputs = [_Value("input", tensors=tensors, target=i) for i, tensors in enumerate(targets)]
    grad = _Value("input", tensors=grads)
    trace = _Trace()
    out = rule(trace, inputs[0], grad, *inputs[1:], *scalars)
    out = out if isinstance(out, tuple) else (out,)
    if len(out) != len(targets) or not all(isinstance(v, _Value) for v in out):
        raise ValueError(
            f"foreach_update: the rule must return (new_param, *new_slots) with "
            f"{len(slots)} slot(s), each computed from the lists; it returned {out!r}."
        )
    with torch.no_grad():
        _run(trace.steps, out, on_cpu=all(map(_IS_CPU, params)))
        sources = [value.tensors for value in out]
        # A value living in another target's memory is copied out before any write.
        sources = [
            [x.clone() for x in source]
            if any(source is other for j, other in enumerate(targets) if j != i)
            else source
            for i, source in enumerate(sources)
        ]
        for target, source in zip(targets, sources, strict=True):
            if source is not target:
                foreach.copy_(target, source)
