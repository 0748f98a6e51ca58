"""Control flow on the OpenVINO backend: Python loops and branches over eager ops.

Each op inside a loop body runs as its own cached OpenVINO model. While a
function is traced (symbolic tensors), ``cond`` with a symbolic predicate runs
both branches and selects between them; loops need concrete trip counts.
"""

from mb_backend_openvino import numpy as ovnp
from mb_backend_openvino._convert import convert_to_tensor, to_tensor
from mb_backend_openvino._tensor import OpenVINOTensor
from mb_ops import tree


def _is_symbolic(x):
    return isinstance(x, OpenVINOTensor) and x.is_symbolic


def cond(pred, true_fn, false_fn):
    if _is_symbolic(pred):
        a, b = true_fn(), false_fn()
        return tree.map_structure(lambda t, f: ovnp.where(pred, t, f), a, b)
    if pred:
        return true_fn()
    return false_fn()


def switch(index, branches, *operands):
    index = int(to_tensor(index).numpy())
    index = min(max(index, 0), len(branches) - 1)
    return branches[index](*operands)


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    is_sequence = isinstance(loop_vars, list | tuple)
    loop_vars = tuple(loop_vars) if is_sequence else (loop_vars,)
    loop_vars = tree.map_structure(convert_to_tensor, loop_vars)
    step = 0
    while (maximum_iterations is None or step < maximum_iterations) and bool(cond(*loop_vars)):
        loop_vars = body(*loop_vars)
        if not isinstance(loop_vars, list | tuple):
            loop_vars = (loop_vars,)
        loop_vars = tuple(loop_vars)
        step += 1
    return loop_vars if is_sequence else loop_vars[0]


def fori_loop(lower, upper, body_fun, init_val):
    value = init_val
    for i in range(int(lower), int(upper)):
        value = body_fun(i, value)
    return value


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    if not callable(f):
        raise TypeError(f"scan expects a callable `f`. Received: f={f!r}")
    if isinstance(unroll, bool) is False and (not isinstance(unroll, int) or unroll < 1):
        raise ValueError(f"`unroll` must be a positive integer or a boolean. Received: {unroll!r}")
    if xs is None and length is None:
        raise ValueError("scan needs `xs` to scan over or a `length`. Received neither.")
    xs_nested = tree.is_nested(xs)
    carry_nested = tree.is_nested(init)
    if xs is None:
        xs_flat = []
        n = int(length)
    else:
        xs_flat = [convert_to_tensor(x) for x in tree.flatten(xs)]
        n = int(length) if length is not None else xs_flat[0].shape[0]
    init_flat = [convert_to_tensor(v) for v in tree.flatten(init)]
    carry = tree.pack_sequence_as(init, init_flat) if carry_nested else init_flat[0]
    order = range(n - 1, -1, -1) if reverse else range(n)
    ys = []
    for i in order:
        if xs_flat:
            step_xs = [x[i] for x in xs_flat]
            step_in = tree.pack_sequence_as(xs, step_xs) if xs_nested else step_xs[0]
        else:
            step_in = None
        carry, y = f(carry, step_in)
        ys.append(y)
    if reverse:
        ys.reverse()
    if not ys:
        return carry, None
    if ys[0] is None:
        return carry, tree.map_structure(lambda v: ovnp.zeros((n, *v.shape), v.dtype), init_flat)
    stacked = tree.map_structure(lambda *items: ovnp.stack(items), *ys)
    return carry, stacked


def map(f, xs):
    def step(_, x):
        return (), f(x)

    _, ys = scan(step, (), xs)
    return ys


def vectorized_map(function, elements):
    if not isinstance(elements, list | tuple):
        return ovnp.stack([function(x) for x in to_tensor(elements)])
    batch = len(elements[0])
    return ovnp.stack([function([x[i] for x in elements]) for i in range(batch)])


def associative_scan(f, elems, reverse=False, axis=0):
    """Inclusive scan of an associative ``f`` in log2(n) rounds (Hillis and Steele)."""
    if not callable(f):
        raise TypeError(f"associative_scan expects a callable `f`. Received: f={f!r}")
    flat = [convert_to_tensor(e) for e in tree.flatten(elems)]
    n = flat[0].shape[axis]
    if any(e.shape[axis] != n for e in flat[1:]):
        raise ValueError(
            "associative_scan expects every input to have the same size along `axis`. "
            f"Received shapes {[e.shape for e in flat]} with axis={axis}."
        )
    axis = axis % flat[0].ndim
    if reverse:
        flat = [ovnp.flip(e, axis) for e in flat]
    if n == 0:
        return elems

    def part(e, start, stop):
        return e[(slice(None),) * axis + (slice(start, stop),)]

    step = 1
    while step < n:
        earlier = tree.pack_sequence_as(elems, [part(e, 0, n - step) for e in flat])
        later = tree.pack_sequence_as(elems, [part(e, step, n) for e in flat])
        combined = [to_tensor(c) for c in tree.flatten(f(earlier, later))]
        flat = [
            ovnp.concatenate([part(e, 0, step), c], axis=axis)
            for e, c in zip(flat, combined, strict=True)
        ]
        step *= 2
    if reverse:
        flat = [ovnp.flip(r, axis) for r in flat]
    return tree.pack_sequence_as(elems, flat)
