"""Random numbers on torch, from the key ``draw_seed`` gives.

``normal``, ``uniform``, ``truncated_normal``, ``randint``, ``categorical``,
``dropout`` and ``shuffle`` hash counters with the key in tensor ops
(`_random_bits`): no value is read into Python, so training steps with dropout can
be recorded and replayed, and a key gives the same numbers on every device.
``gamma``, ``binomial`` and ``beta`` seed a ``torch.Generator`` from the key (torch's
samplers for them take one). The same seed gives the same numbers; a
``SeedGenerator`` (or the global one, with ``seed=None``) gives new numbers at each
call. torch's global RNG is never touched.
"""

import torch

from mb_backend_torch import _compat, _device, _random_bits
from mb_backend_torch._dtypes import to_torch_dtype
from mb_backend_torch.numpy._common import floatx, t
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


def _key(seed):
    device = _device.get_device()
    if device == "meta":
        device = "cpu"
    return draw_seed(seed), device


def _shape(shape):
    return tuple(int(d) for d in shape)


def _dtype(dtype):
    return to_torch_dtype(dtype) if dtype is not None else floatx()


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    key, device = _key(seed)
    values = _random_bits.standard_normal(key, _shape(shape), device)
    return (values * stddev + mean).to(_dtype(dtype))


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    key, device = _key(seed)
    dtype = _dtype(dtype)
    values = _random_bits.uniform01(key, _shape(shape), device, dtype=dtype)
    return minval + values * (maxval - minval)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal values conditioned on lying within two standard deviations of the mean."""
    key, device = _key(seed)
    values = _random_bits.truncated_standard_normal(key, _shape(shape), device)
    return (values * stddev + mean).to(_dtype(dtype))


def randint(shape, minval, maxval, dtype="int32", seed=None):
    key, device = _key(seed)
    low, high = t(minval).to(device), t(maxval).to(device)
    u = _random_bits.uniform01(key, _shape(shape), device, dtype=torch.float64)
    span = (high - low).to(torch.float64)
    values = low + torch.minimum(torch.floor(u * span), span - 1).to(torch.int64)
    return values.to(to_torch_dtype(dtype))


def categorical(logits, num_samples, dtype="int32", seed=None):
    """Samples by the Gumbel-max trick: argmax of logits plus Gumbel noise."""
    key, _ = _key(seed)
    logits = t(logits).float()
    batch, classes = logits.shape
    u = _random_bits.open_uniform01(key, (batch, int(num_samples), classes), logits.device)
    gumbel = -torch.log(-torch.log(u))
    samples = torch.argmax(logits[:, None, :] + gumbel, dim=-1)
    return samples.to(dtype=to_torch_dtype(dtype))


def dropout(inputs, rate, noise_shape=None, seed=None):
    inputs = t(inputs)
    if rate <= 0:
        return inputs
    if rate >= 1:
        return torch.zeros_like(inputs)
    key, _ = _key(seed)
    shape = (
        tuple(inputs.shape)
        if noise_shape is None
        else tuple(inputs.shape[i] if d is None else int(d) for i, d in enumerate(noise_shape))
    )
    keep = _random_bits.uniform01(key, shape, inputs.device) >= rate
    return torch.where(keep, inputs / (1.0 - rate), torch.zeros_like(inputs))


def shuffle(x, axis=0, seed=None):
    key, _ = _key(seed)
    x = t(x)
    words = _random_bits.bits(key, x.shape[axis], x.device)
    return torch.index_select(x, axis, torch.argsort(words))


def gamma(shape, alpha, dtype=None, seed=None):
    generator, device = _generator(seed)
    dtype = _dtype(dtype)
    concentration = torch.full(_shape(shape), float(alpha), dtype=torch.float64, device=device)
    return _compat.standard_gamma(concentration, generator=generator).to(dtype)


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
    x = _compat.standard_gamma(a, generator=generator)
    y = _compat.standard_gamma(b, generator=generator)
    return (x / (x + y)).to(dtype)
