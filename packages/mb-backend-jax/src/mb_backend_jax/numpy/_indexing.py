"""Selecting and searching: where, select, take, pad, unique, searchsorted, digitize, isin."""

import jax.numpy as jnp

from mb_backend_jax.core import convert_to_tensor
from mb_ops import numpy_shaped


def where(condition, x1=None, x2=None):
    """``x1`` where ``condition`` else ``x2``; indices of true entries when both omitted."""
    condition = convert_to_tensor(condition)
    if x1 is None and x2 is None:
        return jnp.nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError(
            "where expects both x1 and x2, or neither. "
            f"Received x1={'None' if x1 is None else 'a value'}, "
            f"x2={'None' if x2 is None else 'a value'}."
        )
    return jnp.where(condition, convert_to_tensor(x1), convert_to_tensor(x2))


def select(condlist, choicelist, default=0):
    """The first choice whose condition holds, element-wise."""
    condlist = [convert_to_tensor(c) for c in condlist]
    choicelist = [convert_to_tensor(c) for c in choicelist]
    return jnp.select(condlist, choicelist, default=default)


def searchsorted(sorted_sequence, values, side="left"):
    """Insertion indices of ``values`` into a 1-D ``sorted_sequence``."""
    sorted_sequence = convert_to_tensor(sorted_sequence)
    if sorted_sequence.ndim != 1:
        raise ValueError(
            "searchsorted expects a 1-D sorted_sequence. Received shape "
            f"{sorted_sequence.shape}; use vectorized_map for batches."
        )
    return jnp.searchsorted(sorted_sequence, convert_to_tensor(values), side=side)


def digitize(x, bins):
    """The index of the bin each element of ``x`` falls in."""
    return jnp.digitize(convert_to_tensor(x), convert_to_tensor(bins))


def unique(
    x,
    sorted=True,
    return_index=False,
    return_inverse=False,
    return_counts=False,
    axis=None,
    size=None,
    fill_value=None,
):
    """The unique elements of ``x`` (with ``size`` to make it jit-friendly)."""
    return jnp.unique(
        convert_to_tensor(x),
        return_index=return_index,
        return_inverse=return_inverse,
        return_counts=return_counts,
        axis=axis,
        equal_nan=False,
        size=size,
        sorted=sorted,
        fill_value=fill_value,
    )


def isin(x1, x2, assume_unique=False, invert=False):
    """Whether each element of ``x1`` appears in ``x2``."""
    x1 = convert_to_tensor(x1)
    x2 = convert_to_tensor(x2)
    return jnp.isin(x1, x2, assume_unique=assume_unique, invert=invert)


def vectorize(pyfunc, *, excluded=None, signature=None):
    """``pyfunc`` vectorized over its arguments (``jnp.vectorize``)."""
    return jnp.vectorize(pyfunc, excluded=excluded or set(), signature=signature)


def pad(x, pad_width, mode="constant", constant_values=None):
    """``x`` padded by ``pad_width`` with the given ``mode``."""
    x = convert_to_tensor(x)
    kwargs = numpy_shaped.pad_keywords(mode, constant_values)
    return jnp.pad(x, pad_width, mode=mode, **kwargs)


def take(x, indices, axis=None):
    """Elements of ``x`` at ``indices`` along ``axis`` (flat when None)."""
    return jnp.take(convert_to_tensor(x), convert_to_tensor(indices), axis=axis)


def take_along_axis(x, indices, axis=None):
    """Elements of ``x`` picked by matching ``indices`` along ``axis``."""
    return jnp.take_along_axis(convert_to_tensor(x), convert_to_tensor(indices), axis=axis)
