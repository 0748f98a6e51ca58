"""Control flow on the NumPy backend: plain Python loops and branches, run eagerly."""

import numpy as np

from mb_backend_numpy._convert import convert_to_tensor, to_tensor
from mb_ops import tree


def cond(pred, true_fn, false_fn):
    if pred:
        return true_fn()
    return false_fn()


def switch(index, branches, *operands):
    index = int(np.clip(to_tensor(index), 0, len(branches) - 1))
    return branches[index](*operands)


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    is_sequence = isinstance(loop_vars, list | tuple)
    loop_vars = tuple(loop_vars) if is_sequence else (loop_vars,)
    loop_vars = tree.map_structure(convert_to_tensor, loop_vars)
    step = 0
    while (maximum_iterations is None or step < maximum_iterations) and cond(*loop_vars):
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
    placeholder = [np.zeros_like(v) for v in init_flat]
    order = range(n - 1, -1, -1) if reverse else range(n)
    ys = []
    for i in order:
        if xs_flat:
            step_xs = [x[i] for x in xs_flat]
            step_in = tree.pack_sequence_as(xs, step_xs) if xs_nested else step_xs[0]
        else:
            step_in = None
        carry, y = f(carry, step_in)
        ys.append(placeholder if y is None else y)
    if reverse:
        ys.reverse()
    if not ys:
        return carry, None
    stacked = tree.map_structure(lambda *items: np.stack(items), *ys)
    return carry, stacked


def map(f, xs):
    def step(_, x):
        return (), f(x)

    _, ys = scan(step, (), xs)
    return ys


def vectorized_map(function, elements):
    if not isinstance(elements, list | tuple):
        return np.stack([function(x) for x in to_tensor(elements)])
    batch = len(elements[0])
    return np.stack([function([x[i] for x in elements]) for i in range(batch)])


def associative_scan(f, elems, reverse=False, axis=0):
    """Inclusive scan of an associative ``f``, done sequentially (exact, O(n) calls)."""
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
        flat = [np.flip(e, axis) for e in flat]
    if n == 0:
        return elems

    def take(e, i):
        return e[(slice(None),) * axis + (slice(i, i + 1),)]

    acc = [take(e, 0) for e in flat]
    outs = [acc]
    for i in range(1, n):
        current = [take(e, i) for e in flat]
        combined = f(tree.pack_sequence_as(elems, acc), tree.pack_sequence_as(elems, current))
        acc = [np.asarray(c) for c in tree.flatten(combined)]
        outs.append(acc)
    results = [np.concatenate([o[j] for o in outs], axis=axis) for j in range(len(flat))]
    if reverse:
        results = [np.flip(r, axis) for r in results]
    return tree.pack_sequence_as(elems, results)
