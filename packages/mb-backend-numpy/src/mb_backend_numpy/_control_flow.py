"""Control flow on the NumPy backend: plain Python loops and branches, run eagerly."""

import numpy as np

from mb_backend_numpy._convert import to_tensor
from mb_ops import numpy_shaped


def cond(pred, true_fn, false_fn):
    if pred:
        return true_fn()
    return false_fn()


def switch(index, branches, *operands):
    index = int(np.clip(to_tensor(index), 0, len(branches) - 1))
    return branches[index](*operands)


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    return numpy_shaped.while_loop(to_tensor, cond, body, loop_vars, maximum_iterations)


def fori_loop(lower, upper, body_fun, init_val):
    return numpy_shaped.fori_loop(lower, upper, body_fun, init_val)


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    return numpy_shaped.scan(np, to_tensor, f, init, xs, length, reverse, unroll)


def map(f, xs):
    return numpy_shaped.map(np, to_tensor, f, xs)


def vectorized_map(function, elements):
    return numpy_shaped.vectorized_map(np, to_tensor, function, elements)


def associative_scan(f, elems, reverse=False, axis=0):
    """Inclusive scan of an associative ``f``, done sequentially (exact, n - 1 calls)."""
    return numpy_shaped.associative_scan(np, to_tensor, f, elems, reverse, axis, log_steps=False)
