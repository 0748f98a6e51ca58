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


_loops = numpy_shaped.eager_loop_functions(ovnp, to_tensor, log_steps=True)
while_loop, fori_loop, scan, map, vectorized_map, associative_scan = _loops
