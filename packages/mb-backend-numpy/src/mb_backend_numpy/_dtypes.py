"""Dtype names and promotion as the NumPy backend uses them.

The rules are mb's (``mb_ops.dtypes``): Keras 3's promotion lattice, taken
from JAX, with weak Python scalars. This module holds the few helpers the
backend needs on top: NumPy dtype objects for mb dtype names (bfloat16 comes
from ml-dtypes) and the "what dtype does this operand bring" question.
"""

import functools

import ml_dtypes
import numpy as np

from mb_ops import config

INT_TYPES = ("uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64")
FLOAT_TYPES = ("bfloat16", "float16", "float32", "float64")
COMPLEX_TYPES = ("complex64", "complex128")
FLOAT8_TYPES = ("float8_e4m3fn", "float8_e5m2")
ALLOWED_DTYPES = (
    "bool",
    *INT_TYPES,
    *FLOAT_TYPES,
    *COMPLEX_TYPES,
    *FLOAT8_TYPES,
    "string",
)
_PYTHON_TYPES = {bool: "bool", int: "int32", float: "float32", complex: "complex64", str: "string"}
_WEAK = ("int", "float", "complex")


def standardize_dtype(dtype):
    """The mb name of ``dtype`` (``None`` means floatx)."""
    if dtype is None:
        return config.floatx()
    if isinstance(dtype, str) and dtype in ALLOWED_DTYPES:
        return dtype
    if dtype in _PYTHON_TYPES:
        return _PYTHON_TYPES[dtype]
    if dtype == "int":
        return "int32"
    name = getattr(dtype, "name", None)
    if not isinstance(name, str):
        name = getattr(dtype, "__name__", None) or str(dtype).split(".")[-1]
    if name == "str":
        name = "string"
    if name not in ALLOWED_DTYPES:
        raise ValueError(
            f"Invalid dtype: {dtype!r}. Expected one of {', '.join(ALLOWED_DTYPES)}, "
            "a NumPy dtype, or a Python type (bool, int, float)."
        )
    return name


def _lattice():
    return {
        "bool": ["int"],
        "uint8": ["int16", "uint16"],
        "uint16": ["int32", "uint32"],
        "uint32": ["int64", "uint64"],
        "uint64": ["float"],
        "int": ["uint8", "int8", "complex"],
        "int8": ["int16"],
        "int16": ["int32"],
        "int32": ["int64"],
        "int64": ["float"],
        "float": ["bfloat16", "float16", "complex"],
        "bfloat16": ["float32"],
        "float16": ["float32"],
        "float32": ["float64", "complex64"],
        "float64": ["complex128"],
        "complex": ["complex64"],
        "complex64": ["complex128"],
        "complex128": [],
    }


def _upper_bounds():
    lattice = _lattice()
    bounds = {}
    for node in lattice:
        seen, todo = {node}, [node]
        while todo:
            for up in lattice[todo.pop()]:
                if up not in seen:
                    seen.add(up)
                    todo.append(up)
        bounds[node] = seen
    return bounds


_BOUNDS = _upper_bounds()


@functools.lru_cache(maxsize=1024)
def _least_upper_bound(nodes):
    common = set.intersection(*(_BOUNDS[n] for n in nodes))
    least = (common & set(nodes)) or {c for c in common if common <= _BOUNDS[c]}
    if len(least) != 1:
        raise ValueError(
            f"Input dtypes {nodes} have no implicit promotion path. Cast the inputs "
            "explicitly to the dtype you want."
        )
    return least.pop()


def _weak_name(dtype):
    if dtype == "bool":
        return "bool"
    for kind in _WEAK:
        if kind in dtype:
            return kind
    return dtype


@functools.lru_cache(maxsize=4096)
def _result_type_cached(args, floatx):
    names, weak = [], []
    for arg in args:
        names.append(standardize_dtype(arg))
        weak.append(arg is int or arg is float or arg is complex)
    if any(n in FLOAT8_TYPES for n in names) and len(set(names)) > 1:
        raise ValueError(
            f"There is no implicit conversion from float8 dtypes to others. Received: {args}. "
            "Cast the inputs explicitly."
        )
    if len(set(names)) == 1 and not all(weak):
        return names[0]
    if all(weak):
        out = _least_upper_bound(tuple(sorted(set(names))))
        out_weak = True
    else:
        nodes = tuple(
            sorted({_weak_name(n) if w else n for n, w in zip(names, weak, strict=False)})
        )
        out = _least_upper_bound(nodes)
        out_weak = out in _WEAK
    if out_weak and out != "bool":
        bits = floatx[-2:]
        if out.startswith("complex"):
            return "complex128" if bits == "64" else "complex64"
        if out.startswith("float") or out == "bfloat16":
            return f"float{bits}"
        if out.startswith("uint"):
            return f"uint{bits}"
        if out.startswith("int"):
            return f"int{bits}"
    return out


def result_type(*dtypes):
    """Keras 3's result dtype of ``dtypes`` (Python ``int``/``float`` are weak)."""
    if not dtypes:
        return config.floatx()
    args = tuple(config.floatx() if d is None else d for d in dtypes)
    try:
        return _result_type_cached(args, config.floatx())
    except TypeError:  # unhashable dtype objects
        return _result_type_cached(tuple(standardize_dtype(a) for a in args), config.floatx())


def is_float_dtype(dtype):
    return standardize_dtype(dtype) in FLOAT_TYPES or standardize_dtype(dtype) in FLOAT8_TYPES


def is_int_dtype(dtype):
    return standardize_dtype(dtype) in INT_TYPES


_NUMPY_DTYPES = {
    "bfloat16": np.dtype(ml_dtypes.bfloat16),
    "float8_e4m3fn": np.dtype(ml_dtypes.float8_e4m3fn),
    "float8_e5m2": np.dtype(ml_dtypes.float8_e5m2),
    "string": np.dtype("str"),
}


def to_numpy_dtype(dtype):
    """The ``numpy.dtype`` of an mb dtype (bfloat16 and float8 from ml-dtypes)."""
    name = standardize_dtype(dtype)
    found = _NUMPY_DTYPES.get(name)
    return found if found is not None else np.dtype(name)


def dtype_of(x):
    """What ``x`` contributes to promotion: its dtype, or a weak Python type."""
    if isinstance(x, bool):
        return bool
    if isinstance(x, int):
        return int
    if isinstance(x, float):
        return float
    if isinstance(x, complex):
        return complex
    dtype = getattr(x, "dtype", None)
    if dtype is not None:
        return standardize_dtype(dtype)
    return standardize_dtype(np.asarray(x).dtype)
