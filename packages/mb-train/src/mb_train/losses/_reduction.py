"""How per-sample loss values become the number a loss returns: sample weights,
masks and the reductions of Keras 3.

Everything here is written over `mb_ops.ops` and decides only on static shapes,
so it runs unchanged inside a compiled step (jax.jit, tf.function) on every
backend.
"""

from mb_ops import ops

REDUCTIONS = ("sum_over_batch_size", "sum", "mean", "mean_with_sample_weight", "none", None)
_MEAN_LIKE = ("sum_over_batch_size", "mean")


def standardize_reduction(reduction):
    """Returns `reduction` when it is one Keras 3 accepts, else raises a ValueError."""
    if isinstance(reduction, str | None) and reduction in REDUCTIONS:
        return reduction
    raise ValueError(
        f"Invalid value for argument `reduction`: {reduction!r}. Expected one of "
        "'sum_over_batch_size' (the default: the sum divided by the number of values), "
        "'sum', 'mean' (same as 'sum_over_batch_size'), 'mean_with_sample_weight' (the "
        "sum divided by the sum of the sample weights), or 'none'/None (no reduction)."
    )


def _static_shape(x):
    return tuple(x.shape)


def squeeze_or_expand_to_same_rank(x1, x2, expand_rank_1=True):
    """Makes two tensors whose ranks differ by one, through a trailing 1, the same rank.

    The one with the extra trailing axis of size 1 loses it; except that when
    the other is rank 1 (and `expand_rank_1`), the rank 1 tensor gains an axis.
    Tensors whose ranks differ otherwise are returned unchanged.
    """
    rank1, rank2 = len(x1.shape), len(x2.shape)
    if rank1 == rank2 + 1 and x1.shape[-1] == 1:
        if rank2 == 1 and expand_rank_1:
            x2 = ops.expand_dims(x2, axis=-1)
        else:
            x1 = ops.squeeze(x1, axis=-1)
    elif rank2 == rank1 + 1 and x2.shape[-1] == 1:
        if rank1 == 1 and expand_rank_1:
            x1 = ops.expand_dims(x1, axis=-1)
        else:
            x2 = ops.squeeze(x2, axis=-1)
    return x1, x2


def _dims_fit(a, b):
    return a is None or b is None or a == 1 or b == 1 or a == b


def _align_weights(values, weights):
    """`weights` made to broadcast against `values`.

    As in Keras, ranks one apart through a trailing 1 are squeezed/expanded, and
    weights of lower rank broadcast NumPy-style (aligned on the last axis). Where
    that alignment cannot broadcast but the weights match the leading axes of
    the values (per-sample weights ``(batch,)`` for ``(batch, time)`` losses), the
    weights get trailing axes of size 1; Keras raises a broadcast error there.
    """
    values, weights = squeeze_or_expand_to_same_rank(values, weights)
    v_shape, w_shape = _static_shape(values), _static_shape(weights)
    if not w_shape or len(w_shape) >= len(v_shape):
        return values, weights
    if all(_dims_fit(a, b) for a, b in zip(reversed(v_shape), reversed(w_shape), strict=False)):
        return values, weights
    if all(_dims_fit(a, b) for a, b in zip(v_shape, w_shape, strict=False)):
        for _ in range(len(v_shape) - len(w_shape)):
            weights = ops.expand_dims(weights, axis=-1)
        return values, weights
    raise ValueError(
        f"The sample weights of shape {w_shape} cannot be broadcast to the loss values of "
        f"shape {v_shape}. Give one weight per sample (shape {v_shape[:1]}), one per value "
        f"(shape {v_shape}), or a shape that broadcasts to it."
    )


def apply_mask(sample_weight, mask, dtype, reduction):
    """Folds a boolean `mask` into the sample weights.

    For the averaging reductions the kept entries are weighted ``total / kept``,
    so that dividing by the number of values afterwards averages over the kept
    entries only.
    """
    if mask is None:
        return sample_weight
    if reduction in _MEAN_LIKE:
        total = ops.cast(ops.size(mask), dtype)
        kept = ops.sum(ops.cast(mask, dtype))
        float_mask = ops.where(ops.cast(mask, "bool"), ops.divide_no_nan(total, kept), 0.0)
        float_mask = ops.cast(float_mask, dtype)
    else:
        float_mask = ops.cast(mask, dtype)
    if sample_weight is None:
        return float_mask
    float_mask, sample_weight = _align_weights(float_mask, ops.cast(sample_weight, dtype))
    return sample_weight * float_mask


def reduce_values(values, sample_weight=None, reduction="sum_over_batch_size"):
    """Reduces (already weighted) loss values; scalars and empty vectors pass through."""
    if reduction is None or reduction == "none" or _static_shape(values) in ((), (0,)):
        return values
    loss = ops.sum(values)
    if reduction == "sum":
        return loss
    if reduction == "mean_with_sample_weight" and sample_weight is not None:
        divisor = ops.cast(ops.sum(sample_weight), ops.dtype(loss))
    else:
        divisor = ops.cast(ops.size(values), ops.dtype(loss))
    return ops.divide_no_nan(loss, divisor)


def reduce_weighted_values(
    values, sample_weight=None, mask=None, reduction="sum_over_batch_size", dtype=None
):
    """Weights `values` by `sample_weight` and `mask`, then applies `reduction`.

    Args:
        values: the per-sample (or per-entry) loss values.
        sample_weight: optional weights, broadcast against `values`.
        mask: optional boolean tensor; False entries do not count.
        reduction: one of `REDUCTIONS`.
        dtype: the dtype of the computation (the values are cast to it).

    Returns:
        A scalar, or the weighted values for ``reduction="none"``/None.
    """
    reduction = standardize_reduction(reduction)
    values = ops.convert_to_tensor(values, dtype=dtype)
    if sample_weight is not None:
        sample_weight = ops.convert_to_tensor(sample_weight, dtype=dtype)
    dtype = ops.dtype(values)
    sample_weight = apply_mask(sample_weight, mask, dtype, reduction)
    if sample_weight is not None:
        values, sample_weight = _align_weights(values, ops.cast(sample_weight, dtype))
        values = values * sample_weight
    return reduce_values(values, sample_weight, reduction)
