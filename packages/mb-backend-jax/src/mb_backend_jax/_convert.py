"""Tensors of the JAX backend: conversion, dtypes and shapes.

A tensor of this backend is a ``jax.Array`` (or a tracer inside a JAX
transformation). Conversion accepts NumPy arrays, Python scalars and nested
lists, ``mb_ops.Variable`` objects (unwrapped through their current value), and
tensors of other engines (torch, TensorFlow, CuPy, ...) through DLPack, which
shares the buffer instead of copying it where the engine and device allow.
"""

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np

from mb_backend_jax import _compat
from mb_ops import Variable as BaseVariable
from mb_ops import config, dtypes


def is_tensor(x):
    """Whether ``x`` is a tensor of this backend (a ``jax.Array`` or a tracer)."""
    return isinstance(x, jax.Array)


def _is_foreign_tensor(x):
    # Another engine's tensor (torch, TensorFlow, CuPy...): it speaks DLPack but
    # is neither a NumPy array nor already ours.
    return (
        hasattr(x, "__dlpack__")
        and hasattr(x, "__dlpack_device__")
        and not isinstance(x, np.ndarray | np.generic)
    )


def _from_foreign(x):
    """Import another engine's tensor, zero-copy through DLPack where possible."""
    detach = getattr(x, "detach", None)
    if callable(detach):  # torch refuses to export tensors that require grad
        x = detach()
    if not jax.config.jax_enable_x64 and _narrowed_dtype(x) is not None:
        # A 64-bit tensor becomes 32-bit here: it must be copied anyway, so a CPU one
        # is read through NumPy's DLPack view and narrowed in one pass.
        try:
            host = np.from_dlpack(x)
        except (TypeError, ValueError, RuntimeError, BufferError, AttributeError):
            host = None
        if host is not None:
            fast = _host_to_device(host)
            if fast is not None:
                return fast
    try:
        return jax.dlpack.from_dlpack(x)
    except (TypeError, ValueError, RuntimeError, BufferError):
        # A device JAX cannot see, a layout DLPack cannot express, or an old
        # producer: fall back to a copy through host memory.
        cpu = getattr(x, "cpu", None)
        host = cpu() if callable(cpu) else x
        numpy = getattr(host, "numpy", None)
        return jnp.asarray(numpy() if callable(numpy) else np.asarray(host))


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """Convert ``x`` to a ``jax.Array``, optionally casting it to ``dtype``.

    Args:
        x: a ``jax.Array``, NumPy array, Python scalar or nested list, an
            ``mb_ops.Variable``, or another engine's tensor (via DLPack).
        dtype: the target dtype (any spelling ``mb_ops.dtypes`` accepts), or
            None to keep the input's (Python floats become weakly typed).
        sparse: only ``None``/``False`` are accepted: this backend has no
            sparse tensors.
        ragged: only ``None``/``False`` are accepted.

    Returns:
        A ``jax.Array``.
    """
    if ragged:
        raise ValueError(
            "The jax backend has no ragged tensors. Received ragged=True; "
            "pad the sequences to a common length instead."
        )
    if sparse:
        raise ValueError(
            "The jax backend of mb has no sparse tensors. Received sparse=True; "
            "pass sparse=False or a dense array."
        )
    if dtype is not None:
        dtype = dtypes.standardize_dtype(dtype)
        if dtype in _NARROWED and not jax.config.jax_enable_x64:
            # What JAX does without x64 anyway, minus its warning per call.
            dtype = _NARROWED[dtype]
    if isinstance(x, jax.Array):
        if dtype is None or x.dtype == dtype:
            return x
        return x.astype(dtype)
    if isinstance(x, BaseVariable):
        value = x.value
        if dtype is not None and value.dtype != dtype:
            return value.astype(dtype)
        return value
    if _is_foreign_tensor(x):
        out = _from_foreign(x)
        return out if dtype is None else out.astype(dtype)
    if type(x) is np.ndarray:
        fast = _host_to_device(x, dtype)
        if fast is not None:
            return fast
    if dtype == "bfloat16" and not isinstance(x, np.ndarray):
        # NumPy has no bfloat16 literal path: convert as stored, then cast.
        return jnp.asarray(x).astype(dtype)
    return jnp.asarray(x, dtype=dtype)


# NumPy dtypes a host array keeps unchanged on the device (no x64 narrowing, no
# weak types): the ones the fast transfer below may take.
_AS_IS = frozenset(
    ["float32", "float16", "bfloat16", "int32", "int16", "int8", "uint32", "uint16",
     "uint8", "bool", "complex64"]
)  # fmt: skip
_FAST_PUT = []  # [put] once resolved; [None] where the private API is unavailable
# (resolved in _compat: the one module that reaches into jax._src)


def _narrowed_dtype(x):
    # The 32-bit dtype a foreign 64-bit tensor becomes (torch.int64, tf.int64), or None.
    dtype = getattr(x, "dtype", None)
    name = getattr(dtype, "name", None) or str(dtype).rsplit(".", 1)[-1]
    return _NARROWED.get(name)


def _fast_targets(x64):
    # NumPy dtype -> the dtype the fast transfer stores it as (dtype objects as keys:
    # `dtype.name` is a slow Python property).
    targets = {np.dtype(name): np.dtype(name) for name in _AS_IS if name != "bfloat16"}
    targets[np.dtype(ml_dtypes.bfloat16)] = np.dtype(ml_dtypes.bfloat16)
    if not x64:
        for wide, narrow in _NARROWED.items():
            targets[np.dtype(wide)] = np.dtype(narrow)
    return targets


_TARGETS = {}  # x64 flag -> _fast_targets(flag)


def _host_to_device(x, dtype=None):
    """``x`` (a NumPy array) on the default device as jax stores it (64-bit dtypes
    narrowed without x64, as jnp.asarray does), or None where the fast transfer does
    not apply (another target `dtype`, a default-device scope; then the caller takes
    jnp.asarray)."""
    x64 = jax.config.jax_enable_x64
    targets = _TARGETS.get(x64)
    if targets is None:
        targets = _TARGETS[x64] = _fast_targets(x64)
    target = targets.get(x.dtype)
    if target is None or jax.config.jax_default_device is not None:
        return None
    if dtype is not None and dtype != target.name:
        return None
    if not _FAST_PUT:
        _FAST_PUT.append(_compat.resolve_device_put())
    put = _FAST_PUT[0]
    if put is None:
        return None
    # The narrowing cast makes the private copy the transfer needs.
    return put(x.astype(target), copy=False) if target != x.dtype else put(x)


# 64-bit dtypes JAX holds in 32 bits unless `jax_enable_x64` is on.
_NARROWED = {"int64": "int32", "uint64": "uint32", "float64": "float32", "complex128": "complex64"}


def convert_to_numpy(x):
    """A NumPy copy of ``x`` (bfloat16 kept as ``ml_dtypes.bfloat16``)."""
    if isinstance(x, BaseVariable):
        x = x.value
    if is_tensor(x) and x.dtype == jnp.bfloat16:
        return np.array(x, dtype=ml_dtypes.bfloat16)
    return np.array(x)


def shape(x):
    """The shape of ``x`` as a tuple of ints."""
    return tuple(x.shape)


def cast(x, dtype):
    """``x`` converted to ``dtype``."""
    return convert_to_tensor(x, dtype=dtype)


def float_dtype_of(x_dtype):
    """The float dtype a float-valued op returns for an input of ``x_dtype``.

    Follows Keras 3's jax backend: ints and bools go to ``floatx`` (int64 too),
    floats keep their width.
    """
    x_dtype = dtypes.standardize_dtype(x_dtype)
    if x_dtype == "int64":
        return config.floatx()
    return dtypes.result_type(x_dtype, float)
