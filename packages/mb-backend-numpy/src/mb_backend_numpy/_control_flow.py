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


_loops = numpy_shaped.eager_loop_functions(np, to_tensor, log_steps=False)
while_loop, fori_loop, scan, map, vectorized_map, associative_scan = _loops
