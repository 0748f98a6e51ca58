"""Random numbers on torch: each call seeds a ``torch.Generator`` from ``draw_seed``.

The same seed gives the same numbers; a ``SeedGenerator`` (or the global one,
with ``seed=None``) gives new numbers at each call. torch's global RNG is never
touched, so user code that seeds torch itself is not disturbed.
"""

import torch

from mb_backend_torch import _device
from mb_backend_torch._dtypes import to_torch_dtype
from mb_backend_torch.numpy._helpers import floatx, t
from mb_ops.random import draw_seed

# Every keras.random function runs on torch.
UNSUPPORTED = {}

_MASK = (1 << 63) - 1


def _generator(seed):
    key = draw_seed(seed)
    if isinstance(key, torch.Tensor):
        a, b = (int(v) for v in key.reshape(-1).tolist())
    else:
        a, b = (int(v) for v in key)
    device = _device.get_device()
    if device == "meta":
        device = "cpu"
    generator = torch.Generator(device=device)
    # Mix both words of the key into one 63-bit seed.
    generator.manual_seed(((a & 0xFFFFFFFF) * 0x9E3779B97F4A7C15 + (b & 0xFFFFFFFF)) & _MASK)
    return generator, device


def _shape(shape):
    return tuple(int(d) for d in shape)


def _dtype(dtype):
    return to_torch_dtype(dtype) if dtype is not None else floatx()


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    generator, device = _generator(seed)
    dtype = _dtype(dtype)
    values = torch.randn(_shape(shape), generator=generator, device=device, dtype=dtype)
    return values * stddev + mean


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    generator, device = _generator(seed)
    dtype = _dtype(dtype)
    values = torch.rand(_shape(shape), generator=generator, device=device, dtype=dtype)
    return minval + values * (maxval - minval)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal values redrawn until they lie within two standard deviations of the mean."""
    generator, device = _generator(seed)
    dtype = _dtype(dtype)
    shape = _shape(shape)
    values = torch.empty(shape, device=device, dtype=torch.float32)
    torch.nn.init.trunc_normal_(values, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=generator)
    return (values * stddev + mean).to(dtype)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    generator, device = _generator(seed)
    return torch.randint(
        int(minval),
        int(maxval),
        _shape(shape),
        generator=generator,
        device=device,
        dtype=to_torch_dtype(dtype),
    )


def categorical(logits, num_samples, dtype="int32", seed=None):
    generator, _ = _generator(seed)
    logits = t(logits)
    probs = torch.softmax(logits.float(), dim=-1)
    samples = torch.multinomial(
        probs.to(generator.device), num_samples, replacement=True, generator=generator
    )
    return samples.to(device=logits.device, dtype=to_torch_dtype(dtype))


def dropout(inputs, rate, noise_shape=None, seed=None):
    inputs = t(inputs)
    if rate <= 0:
        return inputs
    if rate >= 1:
        return torch.zeros_like(inputs)
    generator, device = _generator(seed)
    shape = (
        tuple(inputs.shape)
        if noise_shape is None
        else tuple(inputs.shape[i] if d is None else int(d) for i, d in enumerate(noise_shape))
    )
    keep = torch.rand(shape, generator=generator, device=device) >= rate
    keep = keep.to(inputs.device)
    return torch.where(keep, inputs / (1.0 - rate), torch.zeros_like(inputs))


def shuffle(x, axis=0, seed=None):
    generator, device = _generator(seed)
    x = t(x)
    perm = torch.randperm(x.shape[axis], generator=generator, device=device).to(x.device)
    return torch.index_select(x, axis, perm)


def gamma(shape, alpha, dtype=None, seed=None):
    generator, device = _generator(seed)
    dtype = _dtype(dtype)
    concentration = torch.full(_shape(shape), float(alpha), dtype=torch.float64, device=device)
    return torch._standard_gamma(concentration, generator=generator).to(dtype)


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    generator, device = _generator(seed)
    dtype = _dtype(dtype)
    shape = _shape(shape)
    counts = torch.broadcast_to(t(counts).to(device=device, dtype=torch.float64), shape)
    probs = torch.broadcast_to(t(probabilities).to(device=device, dtype=torch.float64), shape)
    return torch.binomial(counts.contiguous(), probs.contiguous(), generator=generator).to(dtype)


def beta(shape, alpha, beta, dtype=None, seed=None):
    generator, device = _generator(seed)
    dtype = _dtype(dtype)
    shape = _shape(shape)
    a = torch.broadcast_to(t(alpha).to(device=device, dtype=torch.float64), shape).contiguous()
    b = torch.broadcast_to(t(beta).to(device=device, dtype=torch.float64), shape).contiguous()
    x = torch._standard_gamma(a, generator=generator)
    y = torch._standard_gamma(b, generator=generator)
    return (x / (x + y)).to(dtype)
