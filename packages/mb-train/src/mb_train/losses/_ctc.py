"""Connectionist Temporal Classification: sequence targets without an alignment."""

from mb_ops import ops
from mb_train.losses._loss import Loss
from mb_train.losses._serialization import builtin
from mb_train.losses._wrapper import LossFunctionWrapper


@builtin
def ctc(y_true, y_pred):
    """The CTC loss per sequence; class 0 is both the blank and the padding of targets.

    Args:
        y_true: integer labels, shape ``(batch, max_label_length)``; zeros pad
            the end of shorter label sequences.
        y_pred: logits, shape ``(batch, time, num_classes)``; every sequence
            uses all ``time`` steps.

    Returns:
        The negative log-likelihood of each label sequence, shape ``(batch,)``.
    """
    if len(ops.shape(y_true)) != 2:
        raise ValueError(
            "CTC targets `y_true` must be integer labels of shape (batch_size, "
            f"max_label_length). Received: y_true.shape={tuple(ops.shape(y_true))}."
        )
    if len(ops.shape(y_pred)) != 3:
        raise ValueError(
            "CTC predictions `y_pred` must be logits of shape (batch_size, time, "
            f"num_classes). Received: y_pred.shape={tuple(ops.shape(y_pred))}."
        )
    mask_index = 0
    label_length = ops.sum(ops.cast(ops.not_equal(y_true, mask_index), "int32"), axis=-1)
    # Every sequence uses all time steps: (batch,) copies of the time length, built
    # from the tensor itself so that unknown batch and time sizes work when traced.
    output_length = ops.sum(ops.ones_like(y_pred[:, :, 0], dtype="int32"), axis=-1)
    return ops.ctc_loss(y_true, y_pred, label_length, output_length, mask_index=mask_index)


@builtin
class CTC(LossFunctionWrapper):
    """The CTC loss (`ctc`) for sequence targets of unknown alignment.

    Args:
        reduction, name, dtype: see `Loss`.
    """

    def __init__(self, reduction="sum_over_batch_size", name="ctc", dtype=None):
        super().__init__(ctc, name=name, reduction=reduction, dtype=dtype)

    def get_config(self):
        return Loss.get_config(self)
