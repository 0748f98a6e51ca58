"""The loops of the contract's ``core`` module for the NumPy-shaped backends, written once.

The numpy and openvino backends run loops eagerly in Python over their own ops;
`eager_loop_functions` gives each its ``while_loop``, ``fori_loop``, ``scan``,
``map``, ``vectorized_map`` and ``associative_scan`` with the contract's
signatures, over the loops of `mb_ops.numpy_shaped._control_flow`.
"""

from __future__ import annotations

from typing import Any

from mb_ops.numpy_shaped import _control_flow as loops


def eager_loop_functions(xp: Any, to_tensor: Any, log_steps: bool) -> tuple[Any, ...]:
    """``(while_loop, fori_loop, scan, map, vectorized_map, associative_scan)``.

    Args:
        xp: the backend's NumPy-like namespace (see `mb_ops.numpy_shaped`).
        to_tensor: the backend's conversion of an input to its tensor.
        log_steps: ``associative_scan`` in log2(n) rounds (Hillis and Steele)
            rather than sequentially (exact, n - 1 calls of ``f``).
    """

    def while_loop(cond, body, loop_vars, maximum_iterations=None):
        return loops.while_loop(to_tensor, cond, body, loop_vars, maximum_iterations)

    def fori_loop(lower, upper, body_fun, init_val):
        return loops.fori_loop(lower, upper, body_fun, init_val)

    def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
        return loops.scan(xp, to_tensor, f, init, xs, length, reverse, unroll)

    def map(f, xs):
        return loops.map(xp, to_tensor, f, xs)

    def vectorized_map(function, elements):
        return loops.vectorized_map(xp, to_tensor, function, elements)

    def associative_scan(f, elems, reverse=False, axis=0):
        return loops.associative_scan(xp, to_tensor, f, elems, reverse, axis, log_steps=log_steps)

    associative_scan.__doc__ = "Inclusive scan of an associative ``f``, " + (
        "in log2(n) rounds (Hillis and Steele)."
        if log_steps
        else "done sequentially (exact, n - 1 calls)."
    )
    functions = (while_loop, fori_loop, scan, map, vectorized_map, associative_scan)
    for function in functions:
        function.__qualname__ = function.__name__
    return functions
