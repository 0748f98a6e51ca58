"""``compute_output_spec``: the outputs a function would return, without running it for real."""

import numpy as np

import mb_ops
from mb_backend_numpy._dtypes import standardize_dtype, to_numpy_dtype
from mb_ops import tree

# Two different stand-ins for unknown dimensions: an output dimension that
# changes between the two runs depends on an unknown input dimension.
_FILL_A, _FILL_B = 83, 89


def _placeholders(structure, fill):
    def make(x):
        if isinstance(x, mb_ops.KerasTensor):
            shape = tuple(fill if d is None else d for d in x.shape)
            return np.zeros(shape, dtype=to_numpy_dtype(x.dtype))
        return x

    return tree.map_structure(make, structure)


def compute_output_spec(fn, *args, **kwargs):
    """The KerasTensor(s) ``fn`` returns for symbolic ``args``/``kwargs``, found by running it."""
    with mb_ops.StatelessScope(), mb_ops.SymbolicScope():
        leaves = tree.flatten((args, kwargs))
        unknown = any(isinstance(x, mb_ops.KerasTensor) and None in x.shape for x in leaves)
        a_args, a_kwargs = _placeholders((args, kwargs), _FILL_A)
        outputs = fn(*a_args, **a_kwargs)
        flat = tree.flatten(outputs)
        shapes = [np.shape(x) if _is_array(x) else None for x in flat]
        if unknown:
            b_args, b_kwargs = _placeholders((args, kwargs), _FILL_B)
            other = tree.flatten(fn(*b_args, **b_kwargs))
            shapes = [
                _merge(s, np.shape(o)) if s is not None else None
                for s, o in zip(shapes, other, strict=True)
            ]
        specs = [
            mb_ops.KerasTensor(shape, dtype=standardize_dtype(x.dtype)) if shape is not None else x
            for x, shape in zip(flat, shapes, strict=True)
        ]
    return tree.pack_sequence_as(outputs, specs)


def _is_array(x):
    return isinstance(x, np.ndarray | np.generic)


def _merge(first, second):
    if len(first) != len(second):
        return None
    return tuple(a if a == b else None for a, b in zip(first, second, strict=True))
