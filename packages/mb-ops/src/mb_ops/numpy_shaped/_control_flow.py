"""Loops of the control-flow contract, written once for eager NumPy-shaped engines.

Each function takes ``xp`` (the backend's NumPy-like namespace: ``zeros_like``,
``stack``, ``flip``, ``concatenate``) and ``to_tensor`` (the backend's
conversion) before the contract's own arguments.
"""

from __future__ import annotations

from typing import Any

from mb_graph import tree


def while_loop(
    to_tensor: Any, cond: Any, body: Any, loop_vars: Any, maximum_iterations: Any = None
) -> Any:
    """The contract's ``while_loop`` as a Python loop (a lone tensor stays one)."""
    is_sequence = isinstance(loop_vars, list | tuple)
    loop_vars = tuple(loop_vars) if is_sequence else (loop_vars,)
    loop_vars = tree.map_structure(to_tensor, loop_vars)
    step = 0
    while (maximum_iterations is None or step < maximum_iterations) and bool(cond(*loop_vars)):
        loop_vars = body(*loop_vars)
        if not isinstance(loop_vars, list | tuple):
            loop_vars = (loop_vars,)
        loop_vars = tuple(loop_vars)
        step += 1
    return loop_vars if is_sequence else loop_vars[0]


def fori_loop(lower: Any, upper: Any, body_fun: Any, init_val: Any) -> Any:
    """``body_fun(i, value)`` for ``i`` in ``range(lower, upper)``."""
    value = init_val
    for i in range(int(lower), int(upper)):
        value = body_fun(i, value)
    return value


def scan(
    xp: Any,
    to_tensor: Any,
    f: Any,
    init: Any,
    xs: Any = None,
    length: Any = None,
    reverse: bool = False,
    unroll: Any = 1,
) -> tuple[Any, Any]:
    """The contract's ``scan``: ``carry, y = f(carry, x)`` over the leading axis of ``xs``.

    Steps whose ``y`` is None stack zeros shaped as the carry's leaves.

    Example (a running sum on NumPy):

    >>> import numpy as np
    >>> carry, ys = scan(np, np.asarray, lambda c, x: (c + x, c + x), np.float32(0), np.ones(3))
    >>> float(carry), ys.tolist()
    (3.0, [1.0, 2.0, 3.0])
    """
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
        xs_flat = [to_tensor(x) for x in tree.flatten(xs)]
        n = int(length) if length is not None else xs_flat[0].shape[0]
    init_flat = [to_tensor(v) for v in tree.flatten(init)]
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
        ys.append([xp.zeros_like(v) for v in init_flat] if y is None else y)
    if reverse:
        ys.reverse()
    if not ys:
        return carry, None
    return carry, tree.map_structure(lambda *items: xp.stack(items), *ys)


def map(xp: Any, to_tensor: Any, f: Any, xs: Any) -> Any:
    """``f`` over the leading axis of ``xs``, the results stacked."""

    def step(_: Any, x: Any) -> tuple[Any, Any]:
        return (), f(x)

    _, ys = scan(xp, to_tensor, step, (), xs)
    return ys


def vectorized_map(xp: Any, to_tensor: Any, function: Any, elements: Any) -> Any:
    """``function`` per batch entry of ``elements`` (a tensor or a list of them), stacked."""
    if not isinstance(elements, list | tuple):
        return xp.stack([function(x) for x in to_tensor(elements)])
    batch = len(elements[0])
    return xp.stack([function([x[i] for x in elements]) for i in range(batch)])


def associative_scan(
    xp: Any,
    to_tensor: Any,
    f: Any,
    elems: Any,
    reverse: bool = False,
    axis: int = 0,
    log_steps: bool = False,
) -> Any:
    """Inclusive scan of an associative ``f`` along ``axis``.

    ``log_steps=False`` combines one element at a time (n - 1 calls of ``f``, the
    same rounding as a plain loop); ``log_steps=True`` runs log2(n) rounds over
    whole slices (Hillis and Steele), fewer calls for engines with a cost per op.

    Example (a cumulative sum on NumPy):

    >>> import numpy as np
    >>> associative_scan(np, np.asarray, np.add, np.arange(5.0)).tolist()
    [0.0, 1.0, 3.0, 6.0, 10.0]
    """
    if not callable(f):
        raise TypeError(f"associative_scan expects a callable `f`. Received: f={f!r}")
    flat = [to_tensor(e) for e in tree.flatten(elems)]
    n = flat[0].shape[axis]
    if any(e.shape[axis] != n for e in flat[1:]):
        raise ValueError(
            "associative_scan expects every input to have the same size along `axis`. "
            f"Received shapes {[e.shape for e in flat]} with axis={axis}."
        )
    axis = axis % flat[0].ndim
    if reverse:
        flat = [xp.flip(e, axis) for e in flat]
    if n == 0:
        return elems

    def part(e: Any, start: int, stop: int) -> Any:
        return e[(slice(None),) * axis + (slice(start, stop),)]

    if log_steps:
        step = 1
        while step < n:
            earlier = tree.pack_sequence_as(elems, [part(e, 0, n - step) for e in flat])
            later = tree.pack_sequence_as(elems, [part(e, step, n) for e in flat])
            combined = [to_tensor(c) for c in tree.flatten(f(earlier, later))]
            flat = [
                xp.concatenate([part(e, 0, step), c], axis=axis)
                for e, c in zip(flat, combined, strict=True)
            ]
            step *= 2
    else:
        acc = [part(e, 0, 1) for e in flat]
        outs = [acc]
        for i in range(1, n):
            current = [part(e, i, i + 1) for e in flat]
            combined = f(tree.pack_sequence_as(elems, acc), tree.pack_sequence_as(elems, current))
            acc = [to_tensor(c) for c in tree.flatten(combined)]
            outs.append(acc)
        flat = [xp.concatenate([o[j] for o in outs], axis=axis) for j in range(len(flat))]
    if reverse:
        flat = [xp.flip(r, axis) for r in flat]
    return tree.pack_sequence_as(elems, flat)


def slice_along(x: Any, start: Any, stop: Any, step: Any, axis: int) -> Any:
    """``x[start:stop:step]`` along ``axis``, every other axis whole (any sliceable tensor).

    >>> import numpy as np
    >>> slice_along(np.arange(6).reshape(2, 3), 0, None, 2, 1).tolist()
    [[0, 2], [3, 5]]
    """
    index = [slice(None)] * len(x.shape)
    index[axis] = slice(start, stop, step)
    return x[tuple(index)]


def odd_even_scan(level: list[Any], axis: int, combine: Any, concat: Any, interleave: Any) -> Any:
    """The inclusive scan of the tensors ``level`` along ``axis`` by the classic odd/even
    recursion (log depth): neighbouring pairs are combined, the half-length result is
    scanned, then the even positions are filled in.

    ``combine(a, b)`` applies the scanned function to two lists of tensors;
    ``concat(tensors, axis)`` and ``interleave(even, odd, axis)`` (``even[0], odd[0],
    even[1], ...``, ``even`` as long as ``odd`` or one longer) are the engine's.

    >>> import numpy as np
    >>> def interleave(even, odd, axis):
    ...     out = np.empty(len(even) + len(odd), even.dtype)
    ...     out[0::2], out[1::2] = even, odd
    ...     return out
    >>> add = lambda a, b: [x + y for x, y in zip(a, b)]
    >>> odd_even_scan([np.arange(1, 6)], 0, add, np.concatenate, interleave)[0].tolist()
    [1, 3, 6, 10, 15]
    """
    n = level[0].shape[axis]
    if n < 2:
        return level
    pairs = combine(
        [slice_along(e, 0, n - 1, 2, axis) for e in level],
        [slice_along(e, 1, None, 2, axis) for e in level],
    )
    odd = odd_even_scan(pairs, axis, combine, concat, interleave)
    if n % 2 == 0:
        rest = combine(
            [slice_along(o, 0, -1, 1, axis) for o in odd],
            [slice_along(e, 2, None, 2, axis) for e in level],
        )
    else:
        rest = combine(odd, [slice_along(e, 2, None, 2, axis) for e in level])
    even = [
        concat([slice_along(e, 0, 1, 1, axis), r], axis) for e, r in zip(level, rest, strict=True)
    ]
    return [interleave(e, o, axis) for e, o in zip(even, odd, strict=True)]
