"""Turning anything array-like into a NumPy array of the right mb dtype."""

import numpy as np

import mb_ops
from mb_backend_numpy import _dtypes
from mb_ops import tree
from mb_ops.numpy_shaped import check_dense, empty_shape, from_python

_SCALARS = (bool, int, float, complex)


def _is_variable(x):
    return isinstance(x, mb_ops.Variable)


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """``x`` as a ``numpy.ndarray`` (a Variable gives its current value).

    Without ``dtype``, Python scalars and lists follow mb's promotion rules
    (Python ints give int32, floats give floatx); NumPy inputs keep theirs.
    """
    check_dense("numpy", sparse, ragged)
    if _is_variable(x):
        x = x.value
    if dtype is not None:
        target = _dtypes.to_numpy_dtype(dtype)
        if isinstance(x, np.ndarray):
            return x if x.dtype == target else x.astype(target)
        if isinstance(x, np.generic):
            return np.asarray(x).astype(target)
        return from_python(x, target)
    if isinstance(x, np.ndarray):
        return x
    if isinstance(x, np.generic):
        return np.asarray(x)
    if isinstance(x, _SCALARS):
        return np.asarray(x, dtype=_dtypes.to_numpy_dtype(_dtypes.result_type(type(x))))
    if isinstance(x, list | tuple):
        leaves = tree.flatten(x)
        if not leaves:
            return np.zeros(empty_shape(x), dtype=_dtypes.to_numpy_dtype(None))
        if any(_is_variable(leaf) for leaf in leaves):
            x = tree.map_structure(lambda v: v.value if _is_variable(v) else v, x)
            leaves = tree.flatten(x)
        target = _dtypes.result_type(*[_dtypes.dtype_of(leaf) for leaf in leaves])
        return from_python(x, _dtypes.to_numpy_dtype(target))
    array = np.asarray(x)
    return array


def to_tensor(x):
    """Fast path of ``convert_to_tensor(x)`` for op inputs."""
    if type(x) is np.ndarray:
        return x
    return convert_to_tensor(x)


def convert_to_numpy(x):
    """A NumPy copy of ``x``."""
    if _is_variable(x):
        x = x.value
    return np.array(x)


def is_tensor(x):
    return isinstance(x, np.ndarray | np.generic)


def standardize_axis(axis):
    """NumPy wants a tuple where users may pass a list."""
    if isinstance(axis, list):
        return tuple(axis)
    return axis


def canonicalize_axis(axis, ndim):
    if not -ndim <= axis < ndim:
        raise ValueError(
            f"axis {axis} is out of bounds for an array of rank {ndim}. "
            f"Expected an axis in [{-ndim}, {ndim})."
        )
    return axis % ndim if ndim else 0


def shape(x):
    """The shape of ``x`` as a tuple of ints."""
    return tuple(np.shape(to_tensor(x)))


def cast(x, dtype):
    """``x`` converted to ``dtype``."""
    return convert_to_tensor(x, dtype=dtype)
