"""Products and linear-algebra flavoured ops: matmul, dot, einsum, diagonals, triangles."""

import torch

from mb_backend_torch._dtypes import FLOAT_TORCH, _result_many
from mb_backend_torch.numpy._common import (
    Tensor,
    config,
    floatx,
    promote,
    promote_many,
    sum_dtype,
    t,
    to_float,
)

_BOOL = torch.bool


def _compute_dtype(result, device):
    # Integer matmul has no CUDA kernel; bool has none anywhere.
    if result is _BOOL:
        return floatx()
    if device.type == "cuda" and not (result.is_floating_point or result.is_complex):
        return floatx()
    return result


def matmul(x1, x2):
    if (
        isinstance(x1, Tensor)
        and isinstance(x2, Tensor)
        and x1.dtype is x2.dtype
        and x1.dtype in FLOAT_TORCH
    ):
        return torch.matmul(x1, x2)
    x1 = t(x1)
    x2 = t(x2)
    if x1.dtype is torch.int8 and x2.dtype is torch.int8:
        result = torch.int32
    else:
        result = _result_many((x1.dtype, x2.dtype), config.floatx())
    compute = _compute_dtype(result, x1.device)
    if result is torch.int32 and x1.dtype is torch.int8 and compute is torch.int32:
        compute = torch.int32
    return torch.matmul(x1.to(compute), x2.to(compute)).to(result)


def _float_product(fn, x1, x2):
    x1, x2 = promote(x1, x2)
    result = x1.dtype
    compute = result if (result.is_floating_point or result.is_complex) else floatx()
    return fn(x1.to(compute), x2.to(compute)).to(result)


def dot(x1, x2):
    x1 = t(x1)
    x2 = t(x2)
    if x1.ndim == 0 or x2.ndim == 0:
        return _float_product(torch.multiply, x1, x2)
    return _float_product(torch.matmul, x1, x2)


def vdot(x1, x2):
    return _float_product(lambda a, b: torch.vdot(a.reshape(-1), b.reshape(-1)), x1, x2)


def inner(x1, x2):
    return _float_product(torch.inner, x1, x2)


def outer(x1, x2):
    x1, x2 = promote(x1, x2)
    return torch.outer(x1.reshape(-1), x2.reshape(-1))


def tensordot(x1, x2, axes=2):
    if isinstance(axes, list | tuple):
        first, second = axes
        first = (first,) if isinstance(first, int) else tuple(first)
        second = (second,) if isinstance(second, int) else tuple(second)
        axes = (first, second)
    return _float_product(lambda a, b: torch.tensordot(a, b, dims=axes), x1, x2)


def einsum(subscripts, *operands, **kwargs):
    operands = [t(o) for o in operands]
    dtypes = {o.dtype for o in operands}
    if dtypes == {torch.int8}:
        result = torch.int32
    else:
        operands = promote_many(*operands) if len(dtypes) > 1 else operands
        result = operands[0].dtype
    compute = _compute_dtype(result, operands[0].device)
    operands = [o.to(compute) for o in operands]
    return torch.einsum(subscripts, *operands).to(result)


def kron(x1, x2):
    return torch.kron(*promote(x1, x2))


def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    x1, x2 = promote(x1, x2)
    if axis is not None:
        axisa = axisb = axisc = axis
    x1 = torch.moveaxis(x1, axisa, -1)
    x2 = torch.moveaxis(x2, axisb, -1)
    if x1.shape[-1] == 2 or x2.shape[-1] == 2:
        if x1.shape[-1] == 2 and x2.shape[-1] == 2:
            return x1[..., 0] * x2[..., 1] - x1[..., 1] * x2[..., 0]
        x1 = torch.nn.functional.pad(x1, (0, 3 - x1.shape[-1]))
        x2 = torch.nn.functional.pad(x2, (0, 3 - x2.shape[-1]))
    x1, x2 = torch.broadcast_tensors(x1, x2)
    dtype = x1.dtype
    compute = torch.float32 if dtype in (torch.float16, torch.bfloat16) else dtype
    out = torch.linalg.cross(x1.to(compute), x2.to(compute), dim=-1).to(dtype)
    return torch.moveaxis(out, -1, axisc)


def correlate(x1, x2, mode="valid"):
    x1 = t(x1)
    x2 = t(x2)
    dtype = _result_many((x1.dtype, x2.dtype), config.floatx())
    if dtype is torch.int64:
        dtype = torch.float64
    elif dtype not in (torch.bfloat16, torch.float16, torch.float64):
        dtype = torch.float32
    x1 = x1.to(dtype)
    x2 = x2.to(dtype)
    n1, n2 = x1.shape[-1], x2.shape[-1]
    full = torch.nn.functional.conv1d(
        x1.reshape(1, 1, n1), x2.reshape(1, 1, n2), padding=n2 - 1
    ).reshape(-1)
    if mode == "full":
        return full
    if mode == "same":
        length = max(n1, n2)
        start = (full.shape[0] - length) // 2
        return full[start : start + length]
    if mode == "valid":
        length = max(n1, n2) - min(n1, n2) + 1
        start = (full.shape[0] - length) // 2
        return full[start : start + length]
    raise ValueError(f"correlate: mode must be 'valid', 'same' or 'full'. Received {mode!r}.")


def vander(x, N=None, increasing=False):
    x = t(x)
    return (
        torch.linalg.vander(x, N=N).to(x.dtype)
        if increasing
        else torch.flip(torch.linalg.vander(x, N=N), dims=(-1,)).to(x.dtype)
    )


def corrcoef(x):
    x = t(x)
    if x.dtype is torch.int64:
        x = x.to(torch.float64)
    else:
        x = to_float(x)
    return torch.corrcoef(x)


def slogdet(x):
    x = to_float(x)
    sign, logabsdet = torch.linalg.slogdet(x)
    return sign, logabsdet


def trace(x, offset=0, axis1=0, axis2=1):
    x = t(x)
    dtype = sum_dtype(x.dtype)
    return torch.sum(torch.diagonal(x, offset, axis1, axis2), dim=-1, dtype=dtype)


def tril(x, k=0):
    return torch.tril(t(x), diagonal=k)


def triu(x, k=0):
    return torch.triu(t(x), diagonal=k)


def diag(x, k=0):
    return torch.diag(t(x), diagonal=k)


def diagflat(x, k=0):
    return torch.diagflat(t(x), offset=k)


def diagonal(x, offset=0, axis1=0, axis2=1):
    return torch.diagonal(t(x), offset=offset, dim1=axis1, dim2=axis2)
