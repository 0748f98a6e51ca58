"""Dtype names and Keras 3's type-promotion rule (JAX's lattice with weak types).

Every dtype in mb is a string (``"float32"``, ``"int64"``, ``"bfloat16"``, …).
``result_type`` decides the dtype of an op on mixed inputs the same way on
every backend. Python ``int``/``float`` (the types, as ops pass
``type(python_scalar)``) are *weak*: they adopt the other operand's dtype when
it is of the same kind, and alone they resolve to the configured precision
(``float`` alone gives ``floatx()``).

Unlike Keras 3 (which maps results to 32 bits on every backend but TensorFlow),
mb keeps ``int64``/``float64``/``complex128`` results when the inputs ask for
them, so results do not depend on the backend.
"""

from __future__ import annotations

import functools
from typing import Any

import ml_dtypes
import numpy as np

from mb_ops import _config

BOOL_TYPES = ("bool",)
INT_TYPES = ("uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64")
FLOAT_TYPES = ("bfloat16", "float16", "float32", "float64")
WEAK_TYPES = ("int", "float")
COMPLEX_TYPES = ("complex64", "complex128")
FLOAT8_TYPES = ("float8_e4m3fn", "float8_e5m2")

ALLOWED_DTYPES = (
    "float16",
    "float32",
    "float64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "int8",
    "int16",
    "int32",
    "int64",
    "bfloat16",
    "bool",
    "string",
    "float8_e4m3fn",
    "float8_e5m2",
    "complex64",
    "complex128",
)

# Python types and names that are not dtype names themselves.
_PYTHON_DTYPES = {
    bool: "bool",
    int: "int32",
    float: "float32",
    complex: "complex64",
    str: "string",
    "int": "int32",
    "float": "float32",
    "complex": "complex64",
    "str": "string",
    "bytes": "string",
    "object": "string",
    "bool_": "bool",
    "double": "float64",
    "half": "float16",
    "cfloat": "complex64",
    "cdouble": "complex128",
    "long": "int64",
}

_ALLOWED = frozenset(ALLOWED_DTYPES)


@functools.lru_cache(maxsize=256)
def _standardize_hashable(dtype: Any) -> str:
    # Some engine dtypes compare equal to Python types (tf.float64 == float),
    # so the Python-type table is consulted by identity only.
    if isinstance(dtype, type) and dtype in (bool, int, float, complex, str):
        return _PYTHON_DTYPES[dtype]
    if isinstance(dtype, str):
        name = dtype
    elif isinstance(dtype, np.dtype):
        name = dtype.name
    elif isinstance(dtype, type) and issubclass(dtype, np.generic):
        name = np.dtype(dtype).name
    elif hasattr(dtype, "name") and isinstance(dtype.name, str):
        name = dtype.name
    elif hasattr(dtype, "__name__"):
        name = dtype.__name__
    else:
        # torch.float32 -> "torch.float32", jax.numpy.float32 -> "...float32"
        name = str(dtype).split(".")[-1]
    name = name.split(".")[-1]
    name = _PYTHON_DTYPES.get(name, name)
    if name.startswith("<u") or name.startswith("<U") or name.startswith("str"):
        name = "string"
    if name not in _ALLOWED:
        raise ValueError(
            f"Invalid dtype: {dtype!r}. Expected one of {', '.join(ALLOWED_DTYPES)} "
            "(or a NumPy/engine dtype or Python type that names one)."
        )
    return name


def standardize_dtype(dtype: Any) -> str:
    """Return the mb name of ``dtype``.

    Args:
        dtype: None (gives ``floatx()``), a string, a NumPy dtype or scalar
            type, a Python type (``int``, ``float``, ``bool``), ml_dtypes'
            ``bfloat16``, or an engine dtype object (its ``.name`` or ``str``).

    Returns:
        A string from ``ALLOWED_DTYPES``.

    Example:
        >>> standardize_dtype("float32"), standardize_dtype(int)
        ('float32', 'int32')
    """
    if dtype is None:
        return _config.floatx()
    if isinstance(dtype, str) and dtype in _ALLOWED:
        return dtype
    try:
        return _standardize_hashable(dtype)
    except TypeError:  # unhashable engine dtype object
        return _standardize_hashable.__wrapped__(dtype)


def is_float_dtype(dtype: Any) -> bool:
    """Whether ``dtype`` is a floating dtype (bfloat16, float16/32/64, float8).

    Args:
        dtype: a dtype name or object (NumPy, ml_dtypes or the backend's).

    Returns:
        A bool.

    Example:

    >>> from mb_ops import dtypes
    >>> dtypes.is_float_dtype("bfloat16"), dtypes.is_float_dtype("int32")
    (True, False)
    """
    name = standardize_dtype(dtype)
    return name.startswith("float") or name.startswith("bfloat")


def is_int_dtype(dtype: Any) -> bool:
    """Whether ``dtype`` is a signed or unsigned integer dtype.

    Args:
        dtype: a dtype name or object.

    Returns:
        A bool (False for ``bool``).

    Example:

    >>> from mb_ops import dtypes
    >>> dtypes.is_int_dtype("uint8"), dtypes.is_int_dtype("bool")
    (True, False)
    """
    name = standardize_dtype(dtype)
    return name.startswith("int") or name.startswith("uint")


def is_complex_dtype(dtype: Any) -> bool:
    """Whether ``dtype`` is complex64 or complex128.

    Args:
        dtype: a dtype name or object.

    Returns:
        A bool.

    Example:

    >>> from mb_ops import dtypes
    >>> dtypes.is_complex_dtype("complex64"), dtypes.is_complex_dtype("float32")
    (True, False)
    """
    return standardize_dtype(dtype).startswith("complex")


def _lattice() -> dict[str, list[str]]:
    """Each dtype mapped to the dtypes immediately above it (JAX's lattice)."""
    return {
        "bool": ["int"],
        "uint8": ["int16", "uint16"],
        "uint16": ["int32", "uint32"],
        "uint32": ["int64", "uint64"],
        "uint64": ["float"],
        "int": ["uint8", "int8", "complex64"],
        "int8": ["int16"],
        "int16": ["int32"],
        "int32": ["int64"],
        "int64": ["float"],
        "float": ["bfloat16", "float16"],
        "bfloat16": ["float32"],
        "float16": ["float32"],
        "float32": ["float64", "complex64"],
        "float64": ["complex128"],
        "complex64": ["complex128"],
        "complex128": [],
    }


def _upper_bounds() -> dict[str, frozenset[str]]:
    lattice = _lattice()
    bounds: dict[str, set[str]] = {}
    for node in lattice:
        seen = {node}
        frontier = [node]
        while frontier:
            for above in lattice[frontier.pop()]:
                if above not in seen:
                    seen.add(above)
                    frontier.append(above)
        bounds[node] = seen
    return {k: frozenset(v) for k, v in bounds.items()}


_UPPER_BOUNDS = _upper_bounds()


@functools.lru_cache(maxsize=1024)
def _least_upper_bound(*nodes: str) -> str:
    unknown = [n for n in nodes if n not in _UPPER_BOUNDS]
    if unknown:
        raise ValueError(
            f"dtype {unknown[0]!r} takes no part in type promotion. Cast it explicitly "
            f"to one of {', '.join(n for n in _UPPER_BOUNDS if n not in WEAK_TYPES)}."
        )
    common = frozenset.intersection(*(_UPPER_BOUNDS[n] for n in nodes))
    least = (common & set(nodes)) or {c for c in common if common <= _UPPER_BOUNDS[c]}
    if len(least) != 1:
        raise ValueError(
            f"Input dtypes {nodes} have no implicit promotion path. "
            "Cast the inputs to the dtype you want first."
        )
    return next(iter(least))


def _as_weak(dtype: str) -> str:
    if dtype == "bool":
        return dtype
    for kind in ("complex", "float", "int"):
        if kind in dtype:
            return "float" if kind == "complex" else kind
    raise ValueError(f"dtype {dtype!r} has no weak counterpart.")


def _resolve_weak(dtype: str) -> str:
    floatx = _config.floatx()
    if dtype == "float":
        return floatx
    if dtype == "int":
        return "int64" if floatx == "float64" else "int32"
    return dtype


@functools.lru_cache(maxsize=2048)
def _result_type_cached(entries: tuple[tuple[str, bool], ...]) -> str:
    names = tuple(n for n, _ in entries)
    weak = tuple(w for _, w in entries)
    if len(entries) == 1:
        out, out_weak = names[0], weak[0]
    elif len(set(names)) == 1 and not all(weak):
        out, out_weak = names[0], False
    elif all(weak):
        out, out_weak = _least_upper_bound(*sorted(set(names))), True
    else:
        nodes = {_as_weak(n) if w else n for n, w in entries}
        out = _least_upper_bound(*sorted(nodes))
        out_weak = out in WEAK_TYPES
    if out_weak and out != "bool":
        if out in WEAK_TYPES:
            return _resolve_weak(out)
        # All inputs weak: the strong bound of Python types resolves by kind.
        return _resolve_weak(_as_weak(out))
    return out


def result_type(*dtypes: Any) -> str:
    """The dtype of an op applied to inputs of the given dtypes (Keras 3's rule).

    Args:
        *dtypes: dtypes as accepted by ``standardize_dtype``; the Python types
            ``int`` and ``float`` count as weak (what a Python scalar operand
            contributes). ``None`` means ``floatx()``.

    Returns:
        The promoted dtype as a string; ``floatx()`` when no dtype is given.

    Example:
        >>> result_type("int8", "uint8"), result_type("float16", float), result_type("int32", float)
        ('int16', 'float16', 'float32')
    """
    if not dtypes:
        return _config.floatx()
    entries = []
    for dtype in dtypes:
        weak = dtype is int or dtype is float
        name = standardize_dtype(dtype)
        if name in FLOAT8_TYPES:
            raise ValueError(
                "float8 dtypes take no part in implicit promotion; cast them explicitly. "
                f"Received: dtypes={dtypes}"
            )
        entries.append((name, weak))
    return _result_type_cached(tuple(entries))


def dtype_of(x: Any) -> str:
    """The mb dtype of a value: a tensor's dtype, or the weak type of a Python scalar.

    Args:
        x: a tensor, an array, a Python scalar or a nested list.

    Returns:
        A dtype name; Python ints are ``"int32"``, floats ``floatx()``, bools ``"bool"``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import dtypes
    >>> dtypes.dtype_of(np.zeros(2, "int8")), dtypes.dtype_of(3), dtypes.dtype_of(2.5)
    ('int8', 'int32', 'float32')
    """
    if isinstance(x, bool):
        return "bool"
    dtype = getattr(x, "dtype", None)
    if dtype is not None:
        return standardize_dtype(dtype)
    if isinstance(x, int):
        return "int32"
    if isinstance(x, float):
        return _config.floatx()
    if isinstance(x, complex):
        return "complex64"
    return standardize_dtype(np.asarray(x).dtype)


def python_type_or_dtype(x: Any) -> Any:
    """What an op passes to ``result_type`` for one operand (``int`` for 3, …).

    Python scalars stay Python types, so they take part in promotion weakly (``x + 1``
    keeps ``x``'s dtype).

    Args:
        x: a tensor, an array, a Python scalar or a nested list.

    Returns:
        The operand's dtype, or ``bool``, ``int``, ``float`` or ``complex``.

    Example:

    >>> import numpy as np
    >>> from mb_ops import dtypes
    >>> dtypes.python_type_or_dtype(3), dtypes.python_type_or_dtype(np.zeros(2, "int8"))
    (<class 'int'>, dtype('int8'))
    """
    dtype = getattr(x, "dtype", None)
    if dtype is not None:
        return dtype
    return python_scalar_type(x) or np.asarray(x).dtype


def python_scalar_type(x: Any) -> type | None:
    """``bool``, ``int``, ``float`` or ``complex`` where ``x`` is a number of that
    Python type (a subclass counts: ``np.float64`` is a ``float``); None otherwise.

    The weak type a Python scalar takes part in promotion with, written once for
    mb_ops and the backends.

    Example:

    >>> from mb_ops.dtypes import python_scalar_type
    >>> python_scalar_type(True), python_scalar_type(2.5), python_scalar_type("a")
    (<class 'bool'>, <class 'float'>, None)
    """
    if isinstance(x, bool):
        return bool
    if isinstance(x, int):
        return int
    if isinstance(x, float):
        return float
    if isinstance(x, complex):
        return complex
    return None


BFLOAT16 = ml_dtypes.bfloat16
