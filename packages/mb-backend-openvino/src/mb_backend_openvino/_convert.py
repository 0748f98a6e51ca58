"""Turning anything array-like into an ``OpenVINOTensor`` of the right mb dtype, and back."""

import numpy as np
import openvino as ov
import openvino.opset16 as ov_opset

import mb_ops
from mb_backend_openvino import _dtypes, _engine
from mb_backend_openvino._tensor import OpenVINOTensor
from mb_ops.numpy_shaped import check_dense, empty_shape, from_python

_SCALARS = (bool, int, float)
_BAD_KINDS = {"c": "complex", "U": "string", "S": "bytes", "O": "object", "V": "void"}
_ML_DTYPES = frozenset(
    _dtypes.to_numpy_dtype(d) for d in ("bfloat16", "float8_e4m3fn", "float8_e5m2")
)


def _is_variable(x):
    return isinstance(x, mb_ops.Variable)


def _checked(array):
    kind = array.dtype.kind
    if kind in _BAD_KINDS and array.dtype not in _ML_DTYPES:
        _refuse(array.dtype)
    if not array.flags.c_contiguous:
        array = np.ascontiguousarray(array)
    return array


def _refuse(dtype):
    name = _BAD_KINDS.get(dtype.kind, str(dtype))
    raise TypeError(
        f"The openvino backend cannot hold {name} arrays (received dtype {dtype}): "
        "OpenVINO tensors are real numbers or booleans. Convert the data to a real "
        "dtype first, or use the numpy, jax, torch or tensorflow backend for it."
    )


def cast_tensor(x, dtype):
    """``x`` (an OpenVINOTensor) as ``dtype``, converted by OpenVINO."""
    target = _dtypes.ov_type(dtype)
    return _engine.run(("convert", dtype), lambda a: _convert_node(a, target), x)


def _convert_node(node, target):
    if target == ov.Type.boolean and node.get_element_type() != ov.Type.boolean:
        zero = ov_opset.constant(0, node.get_element_type())
        return ov_opset.not_equal(node, zero)
    return ov_opset.convert(node, target)


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """``x`` as an ``OpenVINOTensor`` (a Variable gives its current value).

    Without ``dtype``, Python scalars and lists follow mb's promotion rules
    (Python ints give int32, floats give floatx); NumPy inputs keep their dtype.
    """
    check_dense("openvino", sparse, ragged)
    if _is_variable(x):
        x = x.value
    if isinstance(x, OpenVINOTensor):
        if dtype is None:
            return x
        dtype = _dtypes.standardize_dtype(dtype)
        return x if x.dtype == dtype else cast_tensor(x, dtype)
    if dtype is not None:
        target = _dtypes.to_numpy_dtype(dtype)
        if isinstance(x, np.ndarray | np.generic):
            array = np.asarray(x)
            return OpenVINOTensor(
                _checked(array if array.dtype == target else array.astype(target))
            )
        if isinstance(x, list | tuple):
            x = _unwrap_leaves(x)
        return OpenVINOTensor(_checked(from_python(x, target)))
    if isinstance(x, np.ndarray):
        return OpenVINOTensor(_checked(x))
    if isinstance(x, np.generic):
        return OpenVINOTensor(_checked(np.asarray(x)))
    if isinstance(x, _SCALARS):
        return OpenVINOTensor(np.asarray(x, dtype=_scalar_dtype(x)))
    if isinstance(x, list | tuple):
        x = _unwrap_leaves(x)
        leaves = _flatten(x)
        if not leaves:
            return OpenVINOTensor(np.zeros(empty_shape(x), dtype=_dtypes.to_numpy_dtype(None)))
        target = _dtypes.result_type(*[_leaf_dtype(leaf) for leaf in leaves])
        return OpenVINOTensor(_checked(from_python(x, _dtypes.to_numpy_dtype(target))))
    return OpenVINOTensor(_checked(np.asarray(x)))


def _scalar_dtype(x):
    return _dtypes.to_numpy_dtype(_dtypes.result_type(type(x)))


def _leaf_dtype(x):
    if isinstance(x, OpenVINOTensor):
        return x.dtype
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, int):
        return int
    if isinstance(x, float):
        return float
    dtype = getattr(x, "dtype", None)
    if dtype is not None:
        return _dtypes.standardize_dtype(dtype)
    return _dtypes.standardize_dtype(np.asarray(x).dtype)


def _unwrap_leaves(x):
    if isinstance(x, list | tuple):
        return [_unwrap_leaves(v) for v in x]
    if _is_variable(x):
        x = x.value
    if isinstance(x, OpenVINOTensor):
        return x._value()
    return x


def _flatten(x):
    if isinstance(x, list | tuple):
        out = []
        for v in x:
            out.extend(_flatten(v))
        return out
    return [x]


def to_tensor(x):
    """Fast path of ``convert_to_tensor(x)`` for op inputs."""
    if type(x) is OpenVINOTensor:
        return x
    return convert_to_tensor(x)


def convert_to_numpy(x):
    """A NumPy copy of ``x`` (a tensor, Variable, or anything NumPy converts)."""
    if _is_variable(x):
        x = x.value
    if isinstance(x, OpenVINOTensor):
        return x.numpy()
    if isinstance(x, list | tuple):
        return np.array(_unwrap_leaves(x))
    return np.array(x)


def is_tensor(x):
    """Whether ``x`` is a tensor of this backend."""
    return isinstance(x, OpenVINOTensor)


def shape(x):
    """The shape of ``x`` as a tuple (None for dynamic dims of a traced tensor)."""
    return tuple(to_tensor(x).shape)


def cast(x, dtype):
    """``x`` converted to ``dtype`` by OpenVINO."""
    dtype = _dtypes.standardize_dtype(dtype)
    x = convert_to_tensor(x)
    return x if x.dtype == dtype else cast_tensor(x, dtype)
