"""Control flow: eager Python loops over torch tensors (torch has no lazy graph to build)."""

import torch

from mb_backend_torch import _device
from mb_backend_torch._convert import convert_to_tensor, to_tensor
from mb_ops import numpy_shaped, tree


def cond(pred, true_fn, false_fn):
    """``true_fn()`` if ``pred`` else ``false_fn()`` (while inferring shapes: ``true_fn()``)."""
    if _device.get_device() == "meta":
        return true_fn()
    if pred:
        return true_fn()
    return false_fn()


def switch(index, branches, *operands):
    """Run ``branches[index](*operands)``; ``index`` is clamped to the valid range."""
    index = int(index)
    index = min(max(index, 0), len(branches) - 1)
    return branches[index](*operands)


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """Repeat ``loop_vars = body(*loop_vars)`` while ``cond(*loop_vars)``."""
    is_sequence = isinstance(loop_vars, list | tuple)
    loop_vars = tuple(loop_vars) if is_sequence else (loop_vars,)
    loop_vars = tree.map_structure(convert_to_tensor, loop_vars)
    iteration = 0
    while (maximum_iterations is None or iteration < maximum_iterations) and cond(*loop_vars):
        loop_vars = body(*loop_vars)
        if not isinstance(loop_vars, list | tuple):
            loop_vars = (loop_vars,)
        loop_vars = tuple(loop_vars)
        iteration += 1
    return loop_vars if is_sequence else loop_vars[0]


def fori_loop(lower, upper, body_fun, init_val):
    """``for i in range(lower, upper): val = body_fun(i, val)``."""
    val = init_val
    for i in range(int(lower), int(upper)):
        val = body_fun(i, val)
    return val


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """``jax.lax.scan``: carry a state through ``f(carry, x) -> (carry, y)``, stacking the ys."""
    if not callable(f):
        raise TypeError(f"scan expects a callable f. Received: {f!r}.")
    if not isinstance(unroll, bool) and (not isinstance(unroll, int) or unroll < 1):
        raise ValueError(f"scan's unroll must be a positive int or a bool. Received: {unroll!r}.")
    if xs is None and length is None:
        raise ValueError("scan needs xs to scan over, or a length when xs is None.")
    if xs is None:
        xs_flat = []
        n = int(length)
    else:
        xs_flat = [to_tensor(x) for x in tree.flatten(xs)]
        n = int(length) if length is not None else xs_flat[0].shape[0]
    xs_nested = tree.is_nested(xs)
    init_flat = [to_tensor(v) for v in tree.flatten(init)]
    carry = tree.pack_sequence_as(init, init_flat) if tree.is_nested(init) else init_flat[0]
    ys = []
    steps = range(n - 1, -1, -1) if reverse else range(n)
    for i in steps:
        if xs_flat:
            x_i = [x[i] for x in xs_flat]
            x = tree.pack_sequence_as(xs, x_i) if xs_nested else x_i[0]
        else:
            x = None
        carry, y = f(carry, x)
        ys.append(y)
    if reverse:
        ys.reverse()
    if not ys or ys[0] is None:
        stacked = [torch.zeros((n, *v.shape), dtype=v.dtype, device=v.device) for v in init_flat]
        return carry, tree.pack_sequence_as(init, stacked) if tree.is_nested(init) else (stacked[0])
    flat_ys = [tree.flatten(y) for y in ys]
    stacked = [torch.stack([to_tensor(v) for v in leaves]) for leaves in zip(*flat_ys, strict=True)]
    return carry, tree.pack_sequence_as(ys[0], stacked)


def map(f, xs):
    """``[f(x) for x in xs]`` along the first axis, stacked."""
    _, ys = scan(lambda carry, x: (carry, f(x)), (), xs)
    return ys


_slice_axis = numpy_shaped.slice_along


def _interleave(even, odd, axis):
    # even has as many or one more element than odd along axis.
    n_even = even.shape[axis]
    n_odd = odd.shape[axis]
    if n_even > n_odd:
        pad_shape = list(odd.shape)
        pad_shape[axis] = 1
        odd = torch.cat([odd, torch.zeros(pad_shape, dtype=odd.dtype, device=odd.device)], axis)
    merged = torch.stack([even, odd], dim=axis + 1)
    shape = list(even.shape)
    shape[axis] = 2 * n_even
    merged = merged.reshape(shape)
    return _slice_axis(merged, 0, n_even + n_odd, 1, axis)


def associative_scan(f, elems, reverse=False, axis=0):
    """``jax.lax.associative_scan``: inclusive scan with an associative ``f``, O(log n) depth."""
    if not callable(f):
        raise TypeError(f"associative_scan expects a callable f. Received: {f!r}.")
    flat = [to_tensor(e) for e in tree.flatten(elems)]
    if not flat:
        return elems
    axis = axis % flat[0].ndim
    n = flat[0].shape[axis]
    if any(e.shape[axis] != n for e in flat):
        raise ValueError(
            "associative_scan needs every input to have the same length along axis "
            f"{axis}. Received shapes: {[tuple(e.shape) for e in flat]}."
        )
    if reverse:
        flat = [torch.flip(e, (axis,)) for e in flat]

    def combine(a, b):
        out = f(tree.pack_sequence_as(elems, a), tree.pack_sequence_as(elems, b))
        return [to_tensor(v) for v in tree.flatten(out)]

    out = numpy_shaped.odd_even_scan(flat, axis, combine, torch.cat, _interleave)
    if reverse:
        out = [torch.flip(e, (axis,)) for e in out]
    return tree.pack_sequence_as(elems, out)


def vectorized_map(function, elements):
    """``function`` mapped over the first axis of ``elements`` with ``torch.vmap``."""
    # One (possibly nested) argument, mapped leafwise as jax.vmap does.
    return torch.vmap(function)(tree.map_structure(to_tensor, elements))
