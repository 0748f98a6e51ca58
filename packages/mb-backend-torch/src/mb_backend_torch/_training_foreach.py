"""Optimizer updates over many tensors at once: any per-tensor rule (`fused_update`) and
elementwise rules on torch's multi-tensor ``_foreach`` kernels (`foreach_update`)."""

import itertools
import math
import operator

import torch

from mb_backend_torch import _foreach_fusion
from mb_backend_torch._compat import foreach
from mb_backend_torch._foreach_fusion import Scalar as _Scalar
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
    on lists (`_Value`s) or on tensor scalars (`_Scalar`s); functions of Python numbers
    only are computed at once."""

    def __init__(self):
        self.steps = []
        self.scalar_steps = []

    def _record(self, op, *args):
        if all(type(a) in (int, float) for a in args):
            # Python numbers stay numbers, so the kernels can take them as a Scalar
            # (``addcmul_(..., value=1 - rho)``; a 0-d tensor would need a kernel of its own).
            number_function = _number_function(op, *args)
            if number_function is not None:
                return number_function(*args)
        if not any(isinstance(a, _Value) for a in args):
            value = _Scalar(op, args)
            self.scalar_steps.append(value)
            return value
        value = _Value(op, args)
        self.steps.append(value)
        return value


for _name in (*_UNARY, *_BINARY):
    setattr(
        _Trace,
        _name,
        (lambda name: lambda self, *args: self._record(name, *args))(_name),
    )


def _alike(tensors, others):
    return len(tensors) == len(others) and all(
        x.dtype == y.dtype and x.shape == y.shape for x, y in zip(tensors, others, strict=True)
    )


class _Scratch:
    """The lists of tensors the steps of one `_run` allocated, and who holds each.

    On the CPU a step that would allocate a new list computes in one of them instead,
    once nothing reads it any more (a copy, then the in-place kernel): a fresh list is
    memory the process may have handed back, whose pages fault in again (Adamax's
    ``u + eps`` after ``maximum(beta_2 * u, abs(g))`` reuses ``abs(g)``'s list).
    """

    def __init__(self, program, enabled):
        self.graph, self.enabled = program.graph, enabled
        self.last_read = program.last_read
        self.given = {id(value.tensors) for value in program.read_inputs}
        self.holders = {}  # id(list) -> (list, values holding it), for lists allocated here

    def held(self, step):
        """Notes that `step`'s result is in ``step.tensors``."""
        tensors = step.tensors
        found = self.holders.get(id(tensors))
        if found is not None:
            found[1].append(step)
        elif id(tensors) not in self.given:
            self.holders[id(tensors)] = (tensors, [step])

    def free(self, index, like):
        """A list allocated here that nothing reads from step `index` on, of `like`'s
        dtypes and shapes, or None."""
        if not self.enabled:
            return None
        kept, last_read = self.graph.kept, self.last_read
        for tensors, values in self.holders.values():
            if _alike(tensors, like) and all(
                id(v) not in kept and last_read.get(id(v), -1) < index for v in values
            ):
                del self.holders[id(tensors)]
                return tensors
        return None

    def into(self, index, source, in_place, *args):
        """``in_place`` applied to a copy of `source`, in a free list; None if none is."""
        tensors = self.free(index, source)
        if tensors is None:
            return None
        foreach.copy_(tensors, source)
        in_place(tensors, *args)
        return tensors


class _Program:
    """An elementwise rule traced once, on placeholders, with its plan of fusions.

    `foreach_update` keeps one per kind of call (`_program_key`): the rule, its number
    of slots, the scalars that are Python numbers (by value: the trace computes with
    them) and whether the tensors are on the CPU (the plan differs). A call binds its
    lists of tensors and its tensor scalars (the learning rate) to the placeholders
    (`bind`) and runs the planned steps (`_run`); nothing is traced or planned again.
    """

    def __init__(self, rule, slot_count, scalars, on_cpu):
        self.targets = [_Value("input", target=i) for i in range(1 + slot_count)]
        self.grad = _Value("input")
        self.scalars = [None if _is_number(s) else _Scalar("input") for s in scalars]
        trace = _Trace()
        args = [s if node is None else node for s, node in zip(scalars, self.scalars, strict=True)]
        out = rule(trace, self.targets[0], self.grad, *self.targets[1:], *args)
        out = out if isinstance(out, tuple) else (out,)
        if len(out) != len(self.targets) or not all(isinstance(v, _Value) for v in out):
            raise ValueError(
                f"foreach_update: the rule must return (new_param, *new_slots) with "
                f"{slot_count} slot(s), each computed from the lists; it returned {out!r}."
            )
        self.steps, self.scalar_steps, self.outputs = trace.steps, trace.scalar_steps, out
        self.on_cpu = on_cpu
        self.graph = _foreach_fusion.Graph(self.steps, out, on_cpu)
        self.fusions, self.absorbed = _foreach_fusion.plan(self.graph)
        # When each list is read last (`_Scratch`); a fusion reads its operands at its root.
        self.last_read = dict(self.graph.last_read)
        for index, fusion in self.fusions.items():
            for value in fusion.operands:
                if isinstance(value, _Value):
                    self.last_read[id(value)] = max(self.last_read.get(id(value), index), index)
        read = {
            id(arg): arg
            for step in self.steps
            for arg in step.args
            if isinstance(arg, _Value) and arg.op == "input"
        }
        self.read_inputs = tuple(read.values())

    def bind(self, targets, grads, scalars):
        """Sets the placeholders to this call's lists and scalars."""
        for value, tensors in zip(self.targets, targets, strict=True):
            value.tensors = tensors
        self.grad.tensors = grads
        for node, given in zip(self.scalars, scalars, strict=True):
            if node is not None:
                node.value = t(given)
        for node in self.scalar_steps:
            function = _UNARY.get(node.op) or _BINARY[node.op]
            node.value = function(*(torch.as_tensor(_scalar(a)) for a in node.args))

    def release(self):
        """Drops this call's tensors, so a kept program holds no memory between calls."""
        for value in itertools.chain(self.targets, (self.grad,), self.steps):
            value.tensors = None
        for node in itertools.chain(self.scalars, self.scalar_steps):
            if node is not None:
                node.value = None


def _is_number(value):
    return isinstance(value, bool | int | float)


def _number_key(value):
    # -0.0 == 0.0, but a trace computed with one may differ from one with the other.
    return (type(value), value, math.copysign(1.0, value) if value == 0 else 0.0)


def _program_key(rule, slot_count, scalars, on_cpu):
    return (
        rule,
        slot_count,
        on_cpu,
        tuple(_number_key(s) if _is_number(s) else None for s in scalars),
    )


_PROGRAMS = {}  # _program_key -> _Program
_PROGRAMS_KEPT = 64
_TRACE_COUNT = [0]  # rules traced so far (tests check that a steady step traces none)


def _program(key, rule, slot_count, scalars, on_cpu):
    """The kept program of this kind of call, taken out of the cache while it runs (a
    concurrent call of the same kind, on another thread, traces its own), or a new one."""
    program = _PROGRAMS.pop(key, None) if key is not None else None
    if program is None:
        _TRACE_COUNT[0] += 1
        program = _Program(rule, slot_count, scalars, on_cpu)
    return program


def _keep(key, program):
    if key is None:
        return
    if len(_PROGRAMS) >= _PROGRAMS_KEPT:
        _PROGRAMS.clear()
    _PROGRAMS[key] = program


def _run(program, on_cpu=False):
    """Computes the traced steps of `program` (bound to this call's tensors) with
    torch's multi-tensor kernels.

    A step writes into the memory of an argument, instead of allocating, when nothing
    reads that argument afterwards and the memory is scratch (allocated by an earlier
    step) or a parameter's or slot's (never a gradient's) (`_foreach_fusion.Graph`);
    so momentum's ``m = m * momentum - g * lr`` scales ``m`` in place, as hand-written
    kernels do. Chains of steps that torch has one in-place kernel for run as that
    kernel (`_foreach_fusion.plan`): Adam's moments are one ``lerp_`` and one
    ``mul_`` + ``addcmul_``, its parameter update one ``addcdiv_``. On the CPU a step
    that must not write into its arguments reuses a list an earlier step allocated,
    once it is read no more (`_Scratch`).
    """
    graph, fusions, absorbed = program.graph, program.fusions, program.absorbed
    scratch = _Scratch(program, on_cpu)

    def operand(arg):
        return arg.tensors if isinstance(arg, _Value) else _scalar(arg)

    def same_dtype(a, b):
        if isinstance(b, _Value):
            return b.tensors[0].dtype == a.tensors[0].dtype
        return isinstance(b, bool | int | float)

    for index, step in enumerate(program.steps):
        if id(step) not in absorbed:
            _run_step(graph, fusions, scratch, index, step, operand, same_dtype)
            scratch.held(step)


def _run_step(graph, fusions, scratch, index, step, operand, same_dtype):
    op = step.op
    if index in fusions:
        step.tensors = fusions[index].run()
        return
    if op in _UNARY:
        (x,) = step.args
        if op == "square":
            if graph.writable(x, index):
                foreach.mul_(x.tensors, x.tensors)
                step.tensors = x.tensors
            else:
                square = scratch.into(index, x.tensors, lambda t: foreach.mul_(t, t))
                if square is None:
                    square = list(foreach.mul(x.tensors, x.tensors))
                step.tensors = square
            return
        out_of_place, in_place = _KERNELS[op]
        if graph.writable(x, index):
            in_place(x.tensors)
            step.tensors = x.tensors
        else:
            tensors = scratch.into(index, x.tensors, in_place)
            step.tensors = list(out_of_place(x.tensors)) if tensors is None else tensors
        return
    a, b = step.args
    out_of_place, in_place = _KERNELS[op]
    if not isinstance(a, _Value) and op not in _COMMUTATIVE:
        # scalar - x and scalar / x: negate or invert x, then add or scale.
        first, second = (foreach.neg_, foreach.add_)
        if op == "divide":
            first, second = (foreach.reciprocal_, foreach.mul_)
        if graph.writable(b, index):
            tensors = b.tensors
            first(tensors)
        else:
            tensors = scratch.into(index, b.tensors, first)
            if tensors is None:
                tensors = [x.clone() for x in b.tensors]
                first(tensors)
        second(tensors, _scalar(a))
        step.tensors = tensors
        return
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
        return
    tensors = scratch.into(index, a.tensors, in_place, operand(b)) if same_dtype(a, b) else None
    step.tensors = list(out_of_place(a.tensors, operand(b))) if tensors is None else tensors


def foreach_update(rule, params, grads, *slots, scalars=()):
    """Run an elementwise update rule over every tensor at once, in place.

    The rule is traced (its functions record steps on lists of tensors and on tensor
    scalars) and its fusions planned once per kind of call (`_Program`), then run with
    torch's multi-tensor ``_foreach_*`` kernels, updating in place wherever the value
    overwritten is not read again (see `_run`).

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
    on_cpu = _on_cpu(params)
    # Under torch.compile the rule is traced afresh: TorchDynamo follows the trace.
    key = None if torch.compiler.is_compiling() else _program_key(rule, len(slots), scalars, on_cpu)
    program = _program(key, rule, len(slots), scalars, on_cpu)
    try:
        program.bind(targets, grads, scalars)
        with torch.no_grad():
            _run(program, on_cpu=on_cpu)
            sources = [value.tensors for value in program.outputs]
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
    finally:
        program.release()
    _keep(key, program)


def _on_cpu(params):
    """Whether the update runs on the CPU, read from its first parameter: an optimizer's
    lists share one device, and the answer only picks among kernels that give the same
    numbers on any device (a pass over 100 tensors' ``is_cpu`` was ~7 us a call)."""
    return params[0].is_cpu
