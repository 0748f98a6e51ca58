"""Turning anything array-like into a ``torch.Tensor`` and back, copying only when needed.

NumPy arrays become tensors with ``torch.from_numpy`` (shared memory); jax,
TensorFlow, CuPy and other DLPack producers go through ``torch.from_dlpack``
(shared memory, same device). A copy happens only for a dtype change, a
read-only or negatively strided NumPy array, or a move to another device.
"""

import ml_dtypes
import numpy as np
import torch

from mb_backend_torch import _device
from mb_backend_torch._dtypes import NUMPY_BFLOAT16, NUMPY_WIDEN, TORCH_DTYPES, to_torch_dtype
from mb_ops import Variable as _BaseVariable
from mb_ops import config

_Tensor = torch.Tensor
_INT32_MIN, _INT32_MAX = -(2**31), 2**31 - 1


def _python_scalar_dtype(x):
    if isinstance(x, bool):
        return torch.bool
    if isinstance(x, int):
        return torch.int32 if _INT32_MIN <= x <= _INT32_MAX else torch.int64
    if isinstance(x, float):
        return TORCH_DTYPES[config.floatx()]
    return torch.complex64


def _place(t):
    device = _device.get_device()
    if device != "cpu":
        if device == "meta":
            return torch.empty_like(t, device="meta")
        return t.to(device)
    return t


_NUMPY_FLOAT8 = {
    np.dtype(ml_dtypes.float8_e4m3fn): torch.float8_e4m3fn,
    np.dtype(ml_dtypes.float8_e5m2): torch.float8_e5m2,
}


def from_numpy(a, dtype=None):
    """A tensor sharing ``a``'s memory when possible (``dtype`` is a torch dtype or None)."""
    np_dtype = a.dtype
    if np_dtype == NUMPY_BFLOAT16:
        a = np.ascontiguousarray(a) if not a.flags.writeable else a
        t = torch.from_numpy(a.view(np.uint16)).view(torch.bfloat16)
    elif np_dtype in _NUMPY_FLOAT8:
        # ml_dtypes float8 arrays: the same bytes, reinterpreted by torch.
        t = torch.from_numpy(np.array(a).view(np.uint8)).view(_NUMPY_FLOAT8[np_dtype])
    else:
        widen = NUMPY_WIDEN.get(np_dtype)
        if widen is not None:
            a = a.astype(widen)
        elif not a.flags.writeable or (a.ndim and min(a.strides) < 0):
            # torch.from_numpy warns on read-only arrays and refuses negative
            # strides: take a private copy instead.
            a = np.array(a)
        if a.dtype.kind in "OUS":
            raise TypeError(
                f"The torch backend cannot convert a NumPy array of dtype {a.dtype} to a "
                "tensor: expected numbers or booleans."
            )
        t = torch.from_numpy(a)
    if dtype is not None and t.dtype is not dtype:
        t = t.to(dtype)
    return _place(t)


_DLPACK_CPU = 1  # DLPack's kDLCPU


def _from_foreign(x):
    # jax.Array, tf.Tensor, cupy arrays... implement the DLPack protocol.
    try:
        if int(x.__dlpack_device__()[0]) == _DLPACK_CPU:
            # In host memory no stream needs agreeing: the producer's capsule is taken
            # as it is (half the cost of torch.from_dlpack(x), which first offers
            # arguments older producers such as TensorFlow refuse, then retries).
            return torch.utils.dlpack.from_dlpack(x.__dlpack__())
        return torch.from_dlpack(x)
    except (RuntimeError, TypeError, BufferError):
        # e.g. a dtype DLPack cannot carry: go through NumPy.
        return from_numpy(np.asarray(x))


def _from_sequence(x, dtype):
    if any(isinstance(item, _Tensor | _BaseVariable) for item in x):
        return torch.stack([convert_to_tensor(item, dtype) for item in x])
    a = np.asarray(x)
    if dtype is None:
        # Python numbers follow Keras: ints -> int32 (int64 when out of
        # range), floats -> floatx, complex -> complex64.
        kind = a.dtype.kind
        if kind == "i" and a.dtype == np.int64:
            if a.size == 0 or (a.min() >= _INT32_MIN and a.max() <= _INT32_MAX):
                dtype = torch.int32
        elif kind == "f" and a.dtype == np.float64:
            dtype = TORCH_DTYPES[config.floatx()]
        elif kind == "c" and a.dtype == np.complex128:
            dtype = torch.complex64
    return from_numpy(a, dtype)


def convert_to_tensor(x, dtype=None, sparse=None, ragged=None):
    """A ``torch.Tensor`` from a tensor, Variable, NumPy array, foreign array or Python value.

    Args:
        x: the value.
        dtype: the wanted dtype (any spelling), or None to keep/infer it.
        sparse: must be falsy (torch sparse tensors are not supported).
        ragged: must be falsy.
    """
    if sparse:
        raise ValueError("sparse=True is not supported on the torch backend. Pass sparse=None.")
    if ragged:
        raise ValueError("ragged=True is not supported on the torch backend. Pass ragged=None.")
    if dtype is not None:
        dtype = to_torch_dtype(dtype)
    if isinstance(x, _Tensor):
        scoped = _device.scoped_device()
        if scoped is not None and x.device.type != scoped.split(":")[0]:
            x = _place(x)
        if dtype is None or x.dtype is dtype:
            return x
        return x.to(dtype)
    if isinstance(x, _BaseVariable):
        return convert_to_tensor(x.value, dtype)
    if isinstance(x, bool | int | float | complex):
        return torch.tensor(x, dtype=dtype or _python_scalar_dtype(x), device=_device.get_device())
    if isinstance(x, np.ndarray):
        return from_numpy(x, dtype)
    if isinstance(x, np.generic):
        return from_numpy(np.asarray(x), dtype)
    if isinstance(x, list | tuple):
        return _from_sequence(x, dtype)
    if hasattr(x, "__dlpack__"):
        t = _place(_from_foreign(x))
        return t if dtype is None or t.dtype is dtype else t.to(dtype)
    if hasattr(x, "__array__"):
        return from_numpy(np.asarray(x), dtype)
    raise TypeError(
        f"Cannot convert a value of type {type(x).__name__} to a torch tensor. Expected a "
        "tensor, a NumPy array, a Python number or (nested) list, or an array with __dlpack__."
    )


def to_tensor(x):
    """The fast path of every op: tensors pass through untouched."""
    if isinstance(x, _Tensor):
        return x
    return convert_to_tensor(x)


def convert_to_numpy(x):
    """A NumPy array from a tensor (detached, on the CPU; bfloat16 via ml_dtypes)."""
    if isinstance(x, _BaseVariable):
        x = x.value
    if isinstance(x, _Tensor):
        # Each step is skipped when it has nothing to do: `predict` converts every
        # batch's outputs, and `detach()` alone costs as much as `numpy()`.
        if x.requires_grad:
            x = x.detach()
        if not x.is_cpu:
            x = x.cpu()
        if x.is_conj() or x.is_neg():
            x = x.resolve_conj().resolve_neg()
        if x.dtype is torch.bfloat16:
            return x.contiguous().view(torch.int16).numpy().view(ml_dtypes.bfloat16)
        return x.numpy()
    if isinstance(x, list | tuple):
        return np.array([convert_to_numpy(item) for item in x])
    return np.asarray(x)


def is_tensor(x):
    """True for a ``torch.Tensor`` (a Variable is not a tensor)."""
    return isinstance(x, _Tensor)


_Tensor = torch.Tensor


def shape(x):
    """The shape as a tuple of ints."""
    return tuple(x.shape)


def cast(x, dtype):
    """``x`` as ``dtype`` (no copy when it already has it)."""
    dtype = to_torch_dtype(dtype)
    if isinstance(x, _Tensor):
        return x if x.dtype is dtype else x.to(dtype)
    return convert_to_tensor(x, dtype)
