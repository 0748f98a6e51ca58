"""Recognising arrays and engine tensors by duck typing, without importing any engine.

An engine tensor is recognised by the top-level module of its type
(``type(x).__module__``), so looking at data never loads jax, torch or
TensorFlow: if such a tensor exists, its engine is already imported by whoever
made it. Every helper here works through the tensor's own methods.
"""

from __future__ import annotations

import contextlib
from typing import Any

import numpy as np

# Top-level module of a tensor's type -> engine name.
_ENGINE_ROOTS = {
    "numpy": "numpy",
    "jax": "jax",
    "jaxlib": "jax",
    "torch": "torch",
    "tensorflow": "tensorflow",
}
ENGINES = ("jax", "torch", "tensorflow")


def _root(x: Any) -> str:
    return type(x).__module__.split(".", 1)[0]


def engine_of(x: Any) -> str | None:
    """``"numpy"``, ``"jax"``, ``"torch"``, ``"tensorflow"`` or None for anything else."""
    if isinstance(x, np.ndarray):
        return "numpy"
    engine = _ENGINE_ROOTS.get(_root(x))
    if engine is None or engine == "numpy" or not hasattr(x, "shape"):
        return None
    return engine


def is_pandas(x: Any) -> bool:
    return _root(x) == "pandas" and type(x).__name__ in ("DataFrame", "Series")


def is_array_like(x: Any) -> bool:
    """True for what the array adapter can slice along its first axis."""
    if isinstance(x, np.ndarray) or engine_of(x) is not None or is_pandas(x):
        return True
    shape = getattr(x, "shape", None)
    return hasattr(x, "__array__") and isinstance(shape, tuple) and len(shape) >= 1


def to_numpy(x: Any) -> np.ndarray:
    """A NumPy array with ``x``'s values (a copy only where the engine needs one)."""
    if isinstance(x, np.ndarray):
        return x
    if is_pandas(x):
        return x.to_numpy()
    engine = engine_of(x)
    if engine == "torch":
        return x.detach().cpu().numpy()
    if engine == "tensorflow":
        return x.numpy()
    return np.asarray(x)


_DLPACK_CPU = 1  # DLPack's kDLCPU


def host_view_function(x: Any) -> Any:
    """For another engine's tensor: a function giving a NumPy view of such a tensor of
    numbers in host memory, without a copy, or None for one it cannot view (on an
    accelerator, a dtype NumPy lacks, a torch tensor that requires grad); None when
    ``x`` is no engine tensor."""
    engine = engine_of(x)
    if engine == "torch":
        return _torch_host_view  # Tensor.numpy: a fraction of DLPack's cost in torch
    if engine == "tensorflow" and isinstance(getattr(x, "device", None), str):
        return _tensorflow_host_view  # __array__: the tensor's own buffer, no DLPack
    if engine in ("tensorflow", "jax") and hasattr(x, "__dlpack__"):
        return _dlpack_host_view
    return None


def _tensorflow_host_view(x: Any) -> np.ndarray | None:
    if ":CPU:" not in x.device:
        return None  # __array__ would copy it to the host
    try:
        view = np.asarray(x)  # an eager tensor's __array__ shares its buffer (read-only)
    except Exception:  # a symbolic tensor, a dtype NumPy lacks...
        return None
    return view if view.dtype.kind in "biufc" else None


def _torch_host_view(x: Any) -> np.ndarray | None:
    try:
        # Shares memory; refuses tensors on accelerators, that require grad, or with
        # a dtype NumPy lacks (bfloat16) or a pending conjugation.
        view = x.numpy()
    except (TypeError, RuntimeError):
        return None
    return view if view.dtype.kind in "biufc" else None


def _dlpack_host_view(x: Any) -> np.ndarray | None:
    try:
        if int(x.__dlpack_device__()[0]) != _DLPACK_CPU:
            return None  # on an accelerator: no copy to the host
        view = np.from_dlpack(x)
    except Exception:  # BufferError, RuntimeError... or a dtype NumPy lacks
        return None
    return view if view.dtype.kind in "biufc" else None


def num_rows(x: Any) -> int:
    """The size of the first axis."""
    shape = x.shape
    if len(shape) == 0:
        raise ValueError(
            f"Expected arrays with a batch axis, received a scalar of type "
            f"{type(x).__name__}. Give every input at least one dimension (samples first)."
        )
    return int(shape[0])


def dtype_name(x: Any) -> str:
    """The dtype of ``x`` as a string (``"float32"``), whatever its engine."""
    dtype = x.dtype
    try:
        return _DTYPE_NAMES[dtype]
    except (KeyError, TypeError):  # a new dtype, or one that cannot be a key
        pass
    name = getattr(dtype, "name", None)
    if not isinstance(name, str):
        name = str(dtype).rsplit(".", 1)[-1]
    with contextlib.suppress(TypeError):  # a dtype that cannot be a key
        _DTYPE_NAMES[dtype] = name
    return name


# dtype -> name: NumPy computes `dtype.name` in Python (~5 us), once per adapter column.
_DTYPE_NAMES: dict[Any, str] = {}
