"""Overlap losses for segmentation: Dice and Tversky."""

from mb_ops import config, ops
from mb_train._arguments import passed_arguments
from mb_train.losses._serialization import builtin
from mb_train.losses._wrapper import BuiltinLossWrapper

_DEFAULT = "sum_over_batch_size"


def _axis(axis):
    # Configs read from JSON give lists; the ops take an int or a tuple.
    return tuple(axis) if isinstance(axis, list) else axis


@builtin
def dice(y_true, y_pred, axis=None):
    """``1 - 2 * sum(y_true * y_pred) / (sum(y_true) + sum(y_pred) + epsilon)``.

    Args:
        y_true: the target masks.
        y_pred: the predicted masks (probabilities).
        axis: the axes summed over; None sums over everything (one number for
            the batch), e.g. ``(1, 2)`` gives one value per image.

    >>> from mb_ops import ops
    >>> round(float(dice([[1.0, 1.0, 0.0, 0.0]], [[1.0, 0.0, 1.0, 0.0]])), 4)
    0.5
    """
    axis = _axis(axis)
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, ops.dtype(y_pred))
    intersection = ops.sum(y_true * y_pred, axis=axis)
    total = ops.sum(y_true, axis=axis) + ops.sum(y_pred, axis=axis)
    return 1.0 - 2.0 * intersection / (total + config.epsilon())


@builtin
def tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None):
    """``1 - TP / (TP + alpha * A + beta * B + epsilon)``, a Dice loss with weights.

    With ``TP = sum(y_true * y_pred)``, ``A = sum(y_true * (1 - y_pred))`` (missed
    target) and ``B = sum((1 - y_true) * y_pred)`` (predicted outside the
    target). ``alpha = beta = 0.5`` gives the Dice loss.

    Args:
        y_true, y_pred, axis: as for `dice`.
        alpha: the weight of the missed target.
        beta: the weight of the prediction outside the target.
    """
    axis = _axis(axis)
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, ops.dtype(y_pred))
    true_positive = ops.sum(y_true * y_pred, axis=axis)
    missed = ops.sum(y_true * (1.0 - y_pred), axis=axis)
    outside = ops.sum((1.0 - y_true) * y_pred, axis=axis)
    denominator = true_positive + alpha * missed + beta * outside + config.epsilon()
    return 1.0 - true_positive / denominator


@builtin
class Dice(BuiltinLossWrapper):
    """The Dice loss (`dice`).

    Args:
        reduction, name: see `Loss`.
        axis: the axes summed over (None: all of them).
        dtype: see `Loss`.
    """

    def __init__(self, reduction=_DEFAULT, name="dice", axis=None, dtype=None):
        axis = _axis(axis)
        super().__init__(dice, name=name, reduction=reduction, dtype=dtype, axis=axis)


@builtin
class Tversky(BuiltinLossWrapper):
    """The Tversky loss (`tversky`).

    Args:
        alpha: the weight of the missed target.
        beta: the weight of the prediction outside the target.
        reduction, name: see `Loss`.
        axis: the axes summed over (None: all of them).
        dtype: see `Loss`.
    """

    def __init__(
        self, alpha=0.5, beta=0.5, reduction=_DEFAULT, name="tversky", axis=None, dtype=None
    ):
        axis = _axis(axis)
        super().__init__(tversky, **passed_arguments(locals()))
