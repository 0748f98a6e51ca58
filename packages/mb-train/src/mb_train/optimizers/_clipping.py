"""Gradient clipping by norm, by value and by global norm (Keras 3's formulas)."""

from mb_ops import ops


def clip_by_norm(gradient, clip_norm):
    """Scales `gradient` so that its L2 norm is at most `clip_norm` (NaN-safe at zero)."""
    l2sum = ops.sum(ops.square(gradient), keepdims=True)
    positive = l2sum > 0
    # The double `where` keeps the square root (and its gradient) away from 0.
    safe = ops.where(positive, l2sum, ops.ones_like(l2sum))
    l2norm = ops.where(positive, ops.sqrt(safe), l2sum)
    return ops.multiply(gradient, clip_norm) / ops.maximum(l2norm, clip_norm)


def global_norm(gradients):
    """The L2 norm of all tensors together."""
    squares = [ops.sum(ops.square(g)) for g in gradients if g is not None]
    return ops.sqrt(ops.sum(ops.stack(squares)))


def clip_by_global_norm(gradients, clip_norm):
    """Scales all tensors by one factor so that their global norm is at most `clip_norm`.

    A non-finite global norm makes every result NaN (as in Keras), so that a
    loss-scale optimizer sees the overflow.
    """
    norm = global_norm(gradients)
    scale = clip_norm * ops.minimum(1.0 / norm, 1.0 / clip_norm)
    scale = scale + (norm - norm)
    return [g * ops.cast(scale, ops.dtype(g)) if g is not None else g for g in gradients]


def clip_gradients(optimizer, gradients):
    """Applies the optimizer's `clipnorm`, `global_clipnorm` or `clipvalue` (at most one)."""
    if optimizer.clipnorm and optimizer.clipnorm > 0:
        return [clip_by_norm(g, optimizer.clipnorm) if g is not None else g for g in gradients]
    if optimizer.global_clipnorm and optimizer.global_clipnorm > 0:
        return clip_by_global_norm(gradients, optimizer.global_clipnorm)
    if optimizer.clipvalue and optimizer.clipvalue > 0:
        v = optimizer.clipvalue
        return [ops.clip(g, -v, v) if g is not None else g for g in gradients]
    return gradients
