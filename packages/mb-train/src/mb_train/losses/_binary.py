"""Binary cross-entropy and its focal variant: one independent yes/no per entry."""

from mb_ops import ops
from mb_train._arguments import passed_arguments
from mb_train.losses._serialization import builtin
from mb_train.losses._wrapper import BuiltinLossWrapper

_DEFAULT = "sum_over_batch_size"


def _smooth(y_true, label_smoothing):
    # Python-level check on a constructor argument, not on a tensor value.
    if label_smoothing:
        return y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    return y_true


@builtin(aliases=("bce", "BCE"))
def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Binary cross-entropy per entry, averaged over `axis`.

    Args:
        y_true: targets in [0, 1].
        y_pred: probabilities, or logits with `from_logits`.
        from_logits: whether `y_pred` holds logits.
        label_smoothing: in [0, 1]; targets move towards 0.5:
            ``y * (1 - label_smoothing) + 0.5 * label_smoothing``.
        axis: the axis averaged over.

    >>> from mb_ops import ops
    >>> values = binary_crossentropy([[1.0, 0.0]], [[0.5, 0.5]])
    >>> [round(v, 4) for v in ops.convert_to_numpy(values).tolist()]
    [0.6931]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, ops.dtype(y_pred))
    y_true = _smooth(y_true, label_smoothing)
    values = ops.binary_crossentropy(y_true, y_pred, from_logits=from_logits)
    return ops.mean(values, axis=axis)


@builtin
def binary_focal_crossentropy(
    y_true,
    y_pred,
    apply_class_balancing=False,
    alpha=0.25,
    gamma=2.0,
    from_logits=False,
    label_smoothing=0.0,
    axis=-1,
):
    """Binary cross-entropy scaled by ``(1 - p_t) ** gamma`` (Lin et al., 2017).

    ``p_t`` is the probability given to the true label, so well-classified
    entries count less. With `apply_class_balancing`, positives are weighted
    `alpha` and negatives ``1 - alpha``. The other arguments are those of
    `binary_crossentropy`.
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, ops.dtype(y_pred))
    y_true = _smooth(y_true, label_smoothing)
    if from_logits:
        y_pred = ops.sigmoid(y_pred)
    bce = ops.binary_crossentropy(y_true, y_pred, from_logits=False)
    p_t = y_true * y_pred + (1.0 - y_true) * (1.0 - y_pred)
    focal = ops.power(1.0 - p_t, gamma) * bce
    if apply_class_balancing:
        focal = (y_true * alpha + (1.0 - y_true) * (1.0 - alpha)) * focal
    return ops.mean(focal, axis=axis)


@builtin
class BinaryCrossentropy(BuiltinLossWrapper):
    """Binary cross-entropy (`binary_crossentropy`), for 0/1 targets.

    Args:
        from_logits: whether predictions are logits (else probabilities).
        label_smoothing: in [0, 1], see `binary_crossentropy`.
        axis: the axis averaged over.
        reduction, name, dtype: see `Loss`.

    >>> loss = BinaryCrossentropy(from_logits=True)
    >>> round(float(loss([[1.0], [0.0]], [[0.0], [0.0]])), 4)
    0.6931
    """

    def __init__(
        self,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction=_DEFAULT,
        name="binary_crossentropy",
        dtype=None,
    ):
        super().__init__(binary_crossentropy, **passed_arguments(locals()))


@builtin
class BinaryFocalCrossentropy(BuiltinLossWrapper):
    """Focal binary cross-entropy (`binary_focal_crossentropy`).

    Args:
        apply_class_balancing: weight positives by `alpha`, negatives by ``1 - alpha``.
        alpha: the positives' weight with `apply_class_balancing`.
        gamma: the focusing exponent (0 gives binary cross-entropy).
        from_logits, label_smoothing, axis: see `BinaryCrossentropy`.
        reduction, name, dtype: see `Loss`.
    """

    def __init__(
        self,
        apply_class_balancing=False,
        alpha=0.25,
        gamma=2.0,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction=_DEFAULT,
        name="binary_focal_crossentropy",
        dtype=None,
    ):
        super().__init__(binary_focal_crossentropy, **passed_arguments(locals()))
