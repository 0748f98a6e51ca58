"""Counter-based random bits computed with tensor ops from a seed tensor.

``bits(key, n)`` hashes the counters ``0..n-1`` together with the two words of the
key through SplitMix64's finalizer, in int64 arithmetic on the key's device. Nothing
leaves the device and no value is read into Python, so a step that draws random
numbers this way can be recorded and replayed (`GraphReplay`), and the same key gives
the same numbers on the CPU and on CUDA.
"""

import math

import torch


def _signed(value):
    """A 64-bit constant as the int64 with the same bits."""
    return value - (1 << 64) if value >= 1 << 63 else value


_GOLDEN = _signed(0x9E3779B97F4A7C15)
_MIX_1 = _signed(0xBF58476D1CE4E5B9)
_MIX_2 = _signed(0x94D049BB133111EB)
_KEY_MIX = _signed(0xD6E8FEB86659FD93)


def _shift_right(x, shift):
    # A logical shift: torch's >> on int64 repeats the sign bit.
    return (x >> shift) & ((1 << (64 - shift)) - 1)


def key_tensor(key, device):
    """The seed (a tensor of two values, or two ints) as an int64 tensor on `device`."""
    if isinstance(key, torch.Tensor):
        return key.reshape(-1).to(device=device, dtype=torch.int64)
    return torch.tensor([int(v) for v in key], dtype=torch.int64, device=device)


def bits(key, n, device):
    """``n`` pseudo-random int64 words (all 64 bits used) for `key`."""
    key = key_tensor(key, device)
    offset = key[0] * _KEY_MIX + key[1]
    z = torch.arange(n, dtype=torch.int64, device=device) * _GOLDEN + offset + _GOLDEN
    z = (z ^ _shift_right(z, 30)) * _MIX_1
    z = (z ^ _shift_right(z, 27)) * _MIX_2
    return z ^ _shift_right(z, 31)


def uniform01(key, shape, device, dtype=torch.float32):
    """Uniform values in ``[0, 1)`` of `shape`: 24 random bits for float32 and
    narrower, 53 for float64 (the float's whole mantissa)."""
    n = math.prod(shape)
    words = bits(key, n, device)
    if dtype == torch.float64:
        values = _shift_right(words, 11).to(torch.float64) * 2.0**-53
    else:
        values = _shift_right(words, 40).to(torch.float32) * 2.0**-24
    return values.reshape(shape).to(dtype)


def open_uniform01(key, shape, device):
    """Uniform float32 values in ``(0, 1)``: logs and inverse CDFs stay finite."""
    n = math.prod(shape)
    words = _shift_right(bits(key, n, device), 40).to(torch.float32)
    return ((words + 0.5) * 2.0**-24).reshape(shape)


def standard_normal(key, shape, device):
    """Standard normal float32 values (Box-Muller on two halves of the counters)."""
    n = math.prod(shape)
    u = open_uniform01(key, (2, n), device)
    radius = torch.sqrt(-2.0 * torch.log(u[0]))
    return (radius * torch.cos(2.0 * math.pi * u[1])).reshape(shape)


_LOW = 0.5 * math.erfc(2.0 / math.sqrt(2.0))  # P(Z < -2) for a standard normal


def truncated_standard_normal(key, shape, device):
    """Standard normal values conditioned on ``|z| < 2``, by the inverse CDF."""
    u = open_uniform01(key, shape, device).to(torch.float64)
    p = _LOW + u * (1.0 - 2.0 * _LOW)
    z = math.sqrt(2.0) * torch.erfinv(2.0 * p - 1.0)
    return z.clamp(-2.0, 2.0).to(torch.float32)
