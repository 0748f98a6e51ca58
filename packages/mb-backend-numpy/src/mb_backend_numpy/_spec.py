"""``compute_output_spec``: the outputs a function would return, without running it for real."""

import numpy as np

import mb_ops
from mb_backend_numpy._dtypes import to_numpy_dtype
from mb_ops import numpy_shaped


def _zeros(shape, dtype):
    return np.zeros(shape, dtype=to_numpy_dtype(dtype))


def _is_array(x):
    return isinstance(x, np.ndarray | np.generic)


def compute_output_spec(fn, *args, **kwargs):
    """The KerasTensor(s) ``fn`` returns for symbolic ``args``/``kwargs``, found by running it."""
    with mb_ops.StatelessScope(), mb_ops.SymbolicScope():
        return numpy_shaped.spec_by_running(fn, args, kwargs, _zeros, _is_array)
