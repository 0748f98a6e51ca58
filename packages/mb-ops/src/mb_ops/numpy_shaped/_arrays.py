"""NumPy dtypes and host-array conversion, written once for the engines that keep
NumPy arrays on the host (numpy, openvino); ``parse_gufunc_signature`` serves every
``vectorize`` that maps a generalized-ufunc signature itself (tensorflow, torch)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from mb_ops import config
from mb_ops.dtypes import result_type, standardize_dtype


class NumpyDtypes:
    """mb dtype names <-> ``numpy.dtype`` objects, memoized (they sit on every op's path).

    ``special`` maps the names NumPy does not know by itself (bfloat16 and float8
    from ml-dtypes, ...) to their dtypes.

    >>> dtypes = NumpyDtypes({})
    >>> dtypes.to_numpy_dtype("int8"), dtypes.name_of(np.dtype("float32"))
    (dtype('int8'), 'float32')
    """

    def __init__(self, special: dict[str, np.dtype]) -> None:
        self._special = special
        self._by_key: dict[Any, np.dtype] = {}  # mb name or numpy dtype -> numpy dtype
        self._names: dict[Any, str] = {}  # numpy dtype -> mb name
        self._results: dict[Any, str] = {}  # (floatx, dtypes) -> promoted name

    def to_numpy_dtype(self, dtype: Any) -> np.dtype:
        """The ``numpy.dtype`` of an mb dtype (None: floatx)."""
        try:
            return self._by_key[dtype]
        except (KeyError, TypeError):
            pass
        name = standardize_dtype(dtype)
        found = self._special.get(name)
        found = found if found is not None else np.dtype(name)
        if isinstance(dtype, str | np.dtype):
            self._by_key[dtype] = found
        return found

    def name_of(self, np_dtype: Any) -> str:
        """The mb name of a ``numpy.dtype``."""
        try:
            return self._names[np_dtype]
        except KeyError:
            name = self._names[np_dtype] = standardize_dtype(np_dtype)
            return name

    def result_type(self, *dtypes: Any) -> str:
        """``mb_ops.dtypes.result_type``, memoized on its arguments and the current floatx."""
        key = (config.floatx(), dtypes)
        try:
            return self._results[key]
        except KeyError:
            out = self._results[key] = result_type(*dtypes)
            return out
        except TypeError:  # an unhashable dtype object
            return result_type(*dtypes)


def check_dense(backend: str, sparse: Any, ragged: Any) -> None:
    """``convert_to_tensor``'s refusal of ``sparse=True``/``ragged=True``."""
    if sparse:
        raise ValueError(
            f"sparse=True is not supported on the {backend} backend: it has no sparse "
            "tensors. Pass sparse=None or False, or densify the input."
        )
    if ragged:
        raise ValueError(
            f"ragged=True is not supported on the {backend} backend: it has no ragged "
            "tensors. Pad the input to a rectangular array instead."
        )


def as_shape(shape: Any) -> tuple[int, ...]:
    """An int or a sequence of ints (NumPy integers too) as a shape tuple.

    >>> as_shape(3), as_shape([2, np.int64(4)])
    ((3,), (2, 4))
    """
    if isinstance(shape, int | np.integer):
        return (int(shape),)
    return tuple(int(d) for d in shape)


def empty_shape(x: Any) -> tuple[int, ...]:
    """The shape of a nested list holding no numbers (``[[], []]`` -> ``(2, 0)``)."""
    shape = []
    while isinstance(x, list | tuple):
        shape.append(len(x))
        if not x:
            break
        x = x[0]
    return tuple(shape)


def from_python(x: Any, target: np.dtype) -> np.ndarray:
    """Python numbers or nested lists as an array of ``target``."""
    try:
        return np.asarray(x, dtype=target)
    except (TypeError, ValueError):
        # ml-dtypes (bfloat16) and some sources convert only from an array.
        return np.asarray(x).astype(target)


_CORE_DIMS = re.compile(r"\(([^()]*)\)")


def parse_gufunc_signature(
    signature: str,
) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """The core dimension names of each input and output of a NumPy generalized-ufunc
    ``signature`` (``vectorize``'s).

    >>> parse_gufunc_signature("(m,n),(n)->(m)")
    ([('m', 'n'), ('n',)], [('m',)])
    """
    inputs, outputs = signature.replace(" ", "").split("->")

    def parse(part: str) -> list[tuple[str, ...]]:
        return [tuple(d for d in group.split(",") if d) for group in _CORE_DIMS.findall(part)]

    return parse(inputs), parse(outputs)


def pad_keywords(mode: str, constant_values: Any) -> dict[str, Any]:
    """The keywords of a NumPy-style ``pad`` for ``constant_values`` (none for None);
    refuses ``constant_values`` with a ``mode`` other than ``"constant"``.

    >>> pad_keywords("constant", 1.5), pad_keywords("reflect", None)
    ({'constant_values': 1.5}, {})
    """
    if constant_values is None:
        return {}
    if mode != "constant":
        raise ValueError(
            f"pad accepts `constant_values` only with mode='constant'. Received: mode={mode!r}."
        )
    return {"constant_values": constant_values}


def axis_splits(split: Any, to_tensor: Any, backend: str) -> tuple[Any, Any, Any]:
    """A backend's ``hsplit``, ``vsplit`` and ``dsplit`` over its own
    ``split(x, indices_or_sections, axis)``: along axis 1 (0 for a 1-D tensor), 0 and 2.

    >>> import numpy as np
    >>> hsplit, vsplit, dsplit = axis_splits(np.split, np.asarray, "numpy")
    >>> [p.tolist() for p in hsplit(np.arange(4), 2)]
    [[0, 1], [2, 3]]
    """

    def hsplit(x, indices_or_sections):
        x = to_tensor(x)
        return split(x, indices_or_sections, axis=1 if len(x.shape) > 1 else 0)

    def vsplit(x, indices_or_sections):
        return split(x, indices_or_sections, axis=0)

    def dsplit(x, indices_or_sections):
        return split(x, indices_or_sections, axis=2)

    functions = (hsplit, vsplit, dsplit)
    for function in functions:
        function.__module__ = f"mb_backend_{backend}.numpy"
        function.__qualname__ = function.__name__
    return functions
