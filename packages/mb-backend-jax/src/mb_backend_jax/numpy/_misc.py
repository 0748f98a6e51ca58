"""Selection, sorting, searching, counting and set ops."""

import builtins

import jax.numpy as jnp

from mb_backend_jax.core import convert_to_tensor


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


def nonzero(x):
    """The indices of the non-zero elements, one array per axis."""
    return jnp.nonzero(convert_to_tensor(x))


def sort(x, axis=-1):
    """``x`` sorted along ``axis``."""
    return jnp.sort(convert_to_tensor(x), axis=axis)


def argsort(x, axis=-1):
    """The indices that sort ``x`` along ``axis``."""
    x = convert_to_tensor(x)
    if x.ndim == 0:
        return jnp.argsort(x, axis=None)
    return jnp.argsort(x, axis=axis)


def argpartition(x, kth, axis=-1):
    """Indices that partition ``x`` around its ``kth`` element."""
    x = convert_to_tensor(x)
    if axis is None:
        return jnp.argpartition(jnp.reshape(x, (-1,)), kth, axis=0)
    return jnp.argpartition(x, kth, axis=axis)


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


def bincount(x, weights=None, minlength=0, sparse=False):
    """Occurrence counts of each non-negative int (row-wise for 2-D input).

    The output length depends on the values, so this op cannot be traced
    under ``jax.jit``.
    """
    if sparse:
        raise ValueError("bincount on the jax backend has no sparse output. Pass sparse=False.")
    x = convert_to_tensor(x)
    if weights is not None:
        weights = convert_to_tensor(weights)
    length = builtins.max(int(jnp.max(x)) + 1 if x.size else 0, minlength)
    if x.ndim == 2:
        if weights is None:
            rows = [jnp.bincount(row, length=length) for row in x]
        else:
            rows = [
                jnp.bincount(r, weights=w, length=length) for r, w in zip(x, weights, strict=True)
            ]
        return jnp.stack(rows)
    return jnp.bincount(x, weights=weights, length=length)


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


def diff(a, n=1, axis=-1):
    """The ``n``-th discrete difference along ``axis``."""
    return jnp.diff(convert_to_tensor(a), n=n, axis=axis)


def vectorize(pyfunc, *, excluded=None, signature=None):
    """``pyfunc`` vectorized over its arguments (``jnp.vectorize``)."""
    return jnp.vectorize(pyfunc, excluded=excluded or set(), signature=signature)
