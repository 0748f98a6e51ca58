"""Array creation: constants, ranges, identity-like matrices, windows, copies."""

import torch

from mb_backend_torch._convert import convert_to_tensor
from mb_backend_torch._dtypes import _result_many, to_torch_dtype, weak_type
from mb_backend_torch.numpy._common import config, device, floatx, t


def _shape(shape):
    if isinstance(shape, (int, torch.SymInt)):
        return (shape,)
    # A symbolic size (torch.export's dynamic axes) stays symbolic: int() would fix it.
    return tuple(s if isinstance(s, torch.SymInt) else int(s) for s in shape)


def _dtype_or_floatx(dtype):
    return to_torch_dtype(dtype) if dtype is not None else floatx()


def zeros(shape, dtype=None):
    return torch.zeros(_shape(shape), dtype=_dtype_or_floatx(dtype), device=device())


def ones(shape, dtype=None):
    return torch.ones(_shape(shape), dtype=_dtype_or_floatx(dtype), device=device())


def empty(shape, dtype=None):
    return torch.empty(_shape(shape), dtype=_dtype_or_floatx(dtype), device=device())


def full(shape, fill_value, dtype=None):
    if dtype is None:
        fill = t(fill_value)
        dtype = fill.dtype
    else:
        dtype = to_torch_dtype(dtype)
        fill = convert_to_tensor(fill_value, dtype)
    shape = _shape(shape)
    if fill.ndim == 0:
        return torch.full(shape, fill.item(), dtype=dtype, device=device())
    return torch.broadcast_to(fill.to(device()), shape).clone()


def _like(fn, x, dtype):
    x = t(x)
    return fn(x, dtype=to_torch_dtype(dtype) if dtype is not None else x.dtype)


def zeros_like(x, dtype=None):
    return _like(torch.zeros_like, x, dtype)


def ones_like(x, dtype=None):
    return _like(torch.ones_like, x, dtype)


def empty_like(x, dtype=None):
    return _like(torch.empty_like, x, dtype)


def full_like(x, fill_value, dtype=None):
    x = t(x)
    dtype = to_torch_dtype(dtype) if dtype is not None else x.dtype
    return full(tuple(x.shape), fill_value, dtype=dtype).to(x.device)


def array(x, dtype=None):
    return convert_to_tensor(x, dtype=dtype)


def arange(start, stop=None, step=None, dtype=None):
    if dtype is None:
        kinds = [weak_type(v) for v in (start, stop, step) if v is not None]
        dtype = _result_many(tuple(kinds), config.floatx())
    else:
        dtype = to_torch_dtype(dtype)
    if stop is None:
        start, stop = 0, start
    if step is None:
        step = 1
    start, stop, step = (
        v.item() if isinstance(v, torch.Tensor) else v for v in (start, stop, step)
    )
    return torch.arange(start, stop, step, dtype=dtype, device=device())


def _float_dtype_of(dtype, *values):
    if dtype is not None:
        return to_torch_dtype(dtype)
    kinds = (*tuple(weak_type(v) for v in values), float)
    return _result_many(kinds, config.floatx())


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    dtype = _float_dtype_of(dtype, start, stop)
    compute = torch.float64 if dtype in (torch.float16, torch.bfloat16, torch.float32) else dtype
    if not compute.is_floating_point and not compute.is_complex:
        compute = torch.float64
    start = convert_to_tensor(start, compute)
    stop = convert_to_tensor(stop, compute)
    div = (num - 1) if endpoint else num
    steps = torch.arange(num, dtype=compute, device=start.device)
    step = (stop - start) / div if div > 0 else torch.full_like(stop, float("nan"))
    shape = (num,) + (1,) * max(start.ndim, stop.ndim)
    out = (
        start[None] + steps.reshape(shape) * step[None]
        if num > 0
        else (torch.empty((0, *torch.broadcast_shapes(start.shape, stop.shape)), dtype=compute))
    )
    if endpoint and num > 1:
        out[-1] = stop
    if axis != 0:
        out = torch.moveaxis(out, 0, axis)
    out = out.to(dtype)
    if retstep:
        return out, step.to(dtype)
    return out


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    dtype = _float_dtype_of(dtype, start, stop)
    exponents = linspace(start, stop, num=num, endpoint=endpoint, dtype=torch.float64, axis=axis)
    return torch.pow(torch.tensor(float(base), dtype=torch.float64), exponents).to(dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    dtype = _float_dtype_of(dtype, start, stop)
    start = convert_to_tensor(start, torch.float64)
    stop = convert_to_tensor(stop, torch.float64)
    exponents = linspace(
        torch.log10(torch.abs(start)),
        torch.log10(torch.abs(stop)),
        num=num,
        endpoint=endpoint,
        dtype=torch.float64,
        axis=0,
    )
    out = torch.pow(10.0, exponents) * torch.sign(start)
    if num > 0:
        out[0] = start
        if endpoint and num > 1:
            out[-1] = stop
    if axis != 0:
        out = torch.moveaxis(out, 0, axis)
    return out.to(dtype)


def eye(N, M=None, k=0, dtype=None):
    dtype = _dtype_or_floatx(dtype)
    M = N if M is None else M
    k = 0 if k is None else int(k)
    out = torch.ones((int(N), int(M)), dtype=torch.bool, device=device())
    out = torch.triu(out, k) & torch.tril(out, k)
    return out.to(dtype)


def identity(n, dtype=None):
    return eye(n, dtype=dtype)


def tri(N, M=None, k=0, dtype=None):
    dtype = _dtype_or_floatx(dtype)
    M = N if M is None else M
    out = torch.ones((int(N), int(M)), dtype=torch.bool, device=device())
    return torch.tril(out, diagonal=k).to(dtype)


def meshgrid(*x, indexing="xy"):
    tensors = [t(v) for v in x]
    return list(torch.meshgrid(*tensors, indexing=indexing))


def _window(fn, x, **kwargs):
    n = int(x.item() if isinstance(x, torch.Tensor) else x)
    return fn(n, sym=True, dtype=floatx(), device=device(), **kwargs)


def bartlett(x):
    return _window(torch.signal.windows.bartlett, x)


def blackman(x):
    return _window(torch.signal.windows.blackman, x)


def hamming(x):
    return _window(torch.signal.windows.hamming, x)


def hanning(x):
    return _window(torch.signal.windows.hann, x)


def kaiser(x, beta):
    return _window(torch.signal.windows.kaiser, x, beta=float(beta))
