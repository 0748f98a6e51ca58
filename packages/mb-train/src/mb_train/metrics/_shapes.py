"""Small shape and weight helpers shared by the metrics (static shapes only)."""

from mb_layers import get_keras_mask
from mb_ops import ops


def same_rank(x1, x2, expand_rank_1=True):
    """Squeezes or expands a trailing axis of size 1 when the ranks differ by one.

    As Keras does for ``(batch, 1)`` targets against ``(batch,)`` predictions:
    with `expand_rank_1`, a rank-1 tensor is expanded to ``(batch, 1)``;
    otherwise the other one is squeezed.
    """
    r1, r2 = len(x1.shape), len(x2.shape)
    if r1 == r2 + 1 and x1.shape[-1] == 1:
        if r2 == 1 and expand_rank_1:
            x2 = ops.expand_dims(x2, -1)
        else:
            x1 = ops.squeeze(x1, -1)
    elif r2 == r1 + 1 and x2.shape[-1] == 1:
        if r1 == 1 and expand_rank_1:
            x1 = ops.expand_dims(x1, -1)
        else:
            x2 = ops.squeeze(x2, -1)
    return x1, x2


def apply_mask(sample_weight, mask, dtype):
    """Multiplies the sample weights by a Keras mask (the mask alone when None)."""
    if mask is None:
        return sample_weight
    mask = ops.cast(mask, dtype)
    if sample_weight is None:
        return mask
    sample_weight = ops.cast(sample_weight, dtype)
    mask, sample_weight = same_rank(mask, sample_weight)
    return sample_weight * mask


def mask_of(x):
    """The Keras mask attached to `x`, or None."""
    return get_keras_mask(x) if hasattr(x, "shape") else None


def as_tensor(x, dtype=None):
    """`x` as a tensor of the active backend (in `dtype` when given)."""
    x = ops.convert_to_tensor(x)
    return ops.cast(x, dtype) if dtype is not None else x
