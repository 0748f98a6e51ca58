"""Control flow on the OpenVINO backend: Python loops and branches over eager ops.

Each op inside a loop body runs as its own cached OpenVINO model. While a
function is traced (symbolic tensors), ``cond`` with a symbolic predicate runs
both branches and selects between them; loops need concrete trip counts.
"""

from mb_backend_openvino import numpy as ovnp
from mb_backend_openvino._convert import to_tensor
from mb_backend_openvino._tensor import OpenVINOTensor
from mb_ops import numpy_shaped, tree


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
    return numpy_shaped.while_loop(to_tensor, cond, body, loop_vars, maximum_iterations)


def fori_loop(lower, upper, body_fun, init_val):
    return numpy_shaped.fori_loop(lower, upper, body_fun, init_val)


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    return numpy_shaped.scan(ovnp, to_tensor, f, init, xs, length, reverse, unroll)


def map(f, xs):
    return numpy_shaped.map(ovnp, to_tensor, f, xs)


def vectorized_map(function, elements):
    return numpy_shaped.vectorized_map(ovnp, to_tensor, function, elements)


def associative_scan(f, elems, reverse=False, axis=0):
    """Inclusive scan of an associative ``f``, in log2(n) rounds (Hillis and Steele)."""
    return numpy_shaped.associative_scan(ovnp, to_tensor, f, elems, reverse, axis, log_steps=True)
