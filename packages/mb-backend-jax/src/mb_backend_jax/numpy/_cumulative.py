"""Scans along an axis: cumulative sums and products (and their NaN-ignoring forms) and
their inverse, ``diff``."""

import jax.numpy as jnp

from mb_backend_jax.core import convert_to_tensor


def cumsum(x, axis=None, dtype=None):
    """Cumulative sum along ``axis`` (of the flat array when None)."""
    return jnp.cumsum(convert_to_tensor(x), axis=axis, dtype=dtype)


def cumprod(x, axis=None, dtype=None):
    """Cumulative product along ``axis``."""
    return jnp.cumprod(convert_to_tensor(x), axis=axis, dtype=dtype)


def nancumsum(x, axis=None, dtype=None):
    """Cumulative sum treating NaN as 0."""
    return jnp.nancumsum(convert_to_tensor(x), axis=axis, dtype=dtype)


def nancumprod(x, axis=None, dtype=None):
    """Cumulative product treating NaN as 1."""
    return jnp.nancumprod(convert_to_tensor(x), axis=axis, dtype=dtype)


def diff(a, n=1, axis=-1):
    """The ``n``-th discrete difference along ``axis``."""
    return jnp.diff(convert_to_tensor(a), n=n, axis=axis)
