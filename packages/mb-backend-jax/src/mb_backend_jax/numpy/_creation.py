"""Tensor creation: constants, ranges, grids and window functions."""

import jax.numpy as jnp
from jax import export as jax_export

from mb_backend_jax.core import cast, convert_to_tensor
from mb_ops import config, dtypes


def _dtype_or_floatx(dtype):
    return dtypes.standardize_dtype(dtype or config.floatx())


def _optional_dtype(dtype):
    return None if dtype is None else dtypes.standardize_dtype(dtype)


def zeros(shape, dtype=None):
    """A tensor of zeros (floatx by default)."""
    return jnp.zeros(shape, dtype=_dtype_or_floatx(dtype))


def ones(shape, dtype=None):
    """A tensor of ones (floatx by default)."""
    return jnp.ones(shape, dtype=_dtype_or_floatx(dtype))


def empty(shape, dtype=None):
    """An uninitialized tensor (zeros on JAX)."""
    return jnp.empty(shape, dtype=_dtype_or_floatx(dtype))


def full(shape, fill_value, dtype=None):
    """A tensor filled with ``fill_value`` (floatx by default)."""
    return jnp.full(shape, fill_value, dtype=_dtype_or_floatx(dtype))


def zeros_like(x, dtype=None):
    """Zeros of the shape (and dtype unless given) of ``x``."""
    return jnp.zeros_like(convert_to_tensor(x), dtype=_optional_dtype(dtype))


def ones_like(x, dtype=None):
    """Ones of the shape (and dtype unless given) of ``x``."""
    return jnp.ones_like(convert_to_tensor(x), dtype=_optional_dtype(dtype))


def empty_like(x, dtype=None):
    """An uninitialized tensor like ``x``."""
    return jnp.empty_like(convert_to_tensor(x), dtype=_optional_dtype(dtype))


def full_like(x, fill_value, dtype=None):
    """``fill_value`` in the shape (and dtype unless given) of ``x``."""
    return jnp.full_like(convert_to_tensor(x), fill_value, dtype=_optional_dtype(dtype))


def array(x, dtype=None):
    """A new tensor holding ``x``."""
    return jnp.array(convert_to_tensor(x), dtype=_optional_dtype(dtype))


def identity(n, dtype=None):
    """The ``n`` x ``n`` identity matrix."""
    return jnp.identity(n, dtype=_dtype_or_floatx(dtype))


def eye(N, M=None, k=0, dtype=None):
    """An ``N`` x ``M`` matrix with ones on diagonal ``k``."""
    return jnp.eye(N, M=M, k=k, dtype=_dtype_or_floatx(dtype))


def tri(N, M=None, k=0, dtype=None):
    """Ones at and below diagonal ``k``."""
    return jnp.tri(N, M=M, k=k, dtype=_dtype_or_floatx(dtype))


def _dtype_of(value):
    if hasattr(value, "dtype"):
        return value.dtype
    if jax_export.is_symbolic_dim(value):
        return int
    return type(value)


def arange(start, stop=None, step=None, dtype=None):
    """Evenly spaced values in ``[start, stop)``; the dtype follows the arguments."""
    if dtype is None:
        resolve = [_dtype_of(v) for v in (start, stop, step) if v is not None]
        dtype = dtypes.result_type(*resolve)
    return jnp.arange(start, stop, step=step, dtype=dtypes.standardize_dtype(dtype))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """``num`` evenly spaced values from ``start`` to ``stop``."""
    if dtype is None:
        dtype = dtypes.result_type(_dtype_of(start), _dtype_of(stop), float)
    return jnp.linspace(
        start,
        stop,
        num=num,
        endpoint=endpoint,
        retstep=retstep,
        dtype=dtypes.standardize_dtype(dtype),
        axis=axis,
    )


def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    """``base ** linspace(start, stop, num)``."""
    if dtype is None:
        dtype = dtypes.result_type(_dtype_of(start), _dtype_of(stop), float)
    return jnp.logspace(
        start,
        stop,
        num=num,
        endpoint=endpoint,
        base=base,
        dtype=dtypes.standardize_dtype(dtype),
        axis=axis,
    )


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """``num`` values spaced evenly on a log scale from ``start`` to ``stop``."""
    if dtype is None:
        dtype = dtypes.result_type(_dtype_of(start), _dtype_of(stop), float)
    return jnp.geomspace(
        start,
        stop,
        num=num,
        endpoint=endpoint,
        dtype=dtypes.standardize_dtype(dtype),
        axis=axis,
    )


def meshgrid(*x, indexing="xy"):
    """Coordinate matrices from 1-D coordinate vectors."""
    return jnp.meshgrid(*[convert_to_tensor(v) for v in x], indexing=indexing)


def _window(jnp_fn, name):
    def op(x):
        return cast(jnp_fn(int(x)), config.floatx())

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"The {name} window of length ``x`` (floatx)."
    return op


bartlett = _window(jnp.bartlett, "bartlett")
blackman = _window(jnp.blackman, "blackman")
hamming = _window(jnp.hamming, "hamming")
hanning = _window(jnp.hanning, "hanning")


def kaiser(x, beta):
    """The Kaiser window of length ``x`` with shape ``beta`` (floatx)."""
    return cast(jnp.kaiser(int(x), beta), config.floatx())
