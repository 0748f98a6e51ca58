"""Hinge losses: maximum-margin losses for -1/+1 (or 0/1) and one-hot targets."""

from mb_ops import ops
from mb_train.losses._serialization import builtin
from mb_train.losses._wrapper import BuiltinLossWrapper

_DEFAULT = "sum_over_batch_size"


def _signed_labels(y_true):
    """0/1 targets become -1/+1; targets with any other value are kept as given."""
    is_binary = ops.all(ops.logical_or(ops.equal(y_true, 0.0), ops.equal(y_true, 1.0)))
    return ops.where(is_binary, 2.0 * y_true - 1.0, y_true)


def _prepare(y_true, y_pred):
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, ops.dtype(y_pred))
    return _signed_labels(y_true), y_pred


@builtin
def hinge(y_true, y_pred):
    """``mean(maximum(1 - y_true * y_pred, 0), axis=-1)``.

    Targets are -1/+1; all-0/1 targets are mapped to -1/+1 first.

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(hinge([[1.0, 0.0]], [[0.5, -2.0]])).tolist()
    [0.25]
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    return ops.mean(ops.maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


@builtin
def squared_hinge(y_true, y_pred):
    """``mean(square(maximum(1 - y_true * y_pred, 0)), axis=-1)``; targets as in `hinge`."""
    y_true, y_pred = _prepare(y_true, y_pred)
    return ops.mean(ops.square(ops.maximum(1.0 - y_true * y_pred, 0.0)), axis=-1)


@builtin
def categorical_hinge(y_true, y_pred):
    """``maximum(neg - pos + 1, 0)`` for one-hot targets.

    ``pos = sum(y_true * y_pred)`` is the true class's score and
    ``neg = max((1 - y_true) * y_pred)`` the best other score.
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, ops.dtype(y_pred))
    pos = ops.sum(y_true * y_pred, axis=-1)
    neg = ops.max((1.0 - y_true) * y_pred, axis=-1)
    return ops.maximum(neg - pos + 1.0, 0.0)


@builtin
class Hinge(BuiltinLossWrapper):
    """The hinge loss (`hinge`); targets -1/+1 or 0/1."""

    def __init__(self, reduction=_DEFAULT, name="hinge", dtype=None):
        super().__init__(hinge, name=name, reduction=reduction, dtype=dtype)


@builtin
class SquaredHinge(BuiltinLossWrapper):
    """The squared hinge loss (`squared_hinge`); targets -1/+1 or 0/1."""

    def __init__(self, reduction=_DEFAULT, name="squared_hinge", dtype=None):
        super().__init__(squared_hinge, name=name, reduction=reduction, dtype=dtype)


@builtin
class CategoricalHinge(BuiltinLossWrapper):
    """The categorical hinge loss (`categorical_hinge`) for one-hot targets."""

    def __init__(self, reduction=_DEFAULT, name="categorical_hinge", dtype=None):
        super().__init__(categorical_hinge, name=name, reduction=reduction, dtype=dtype)
