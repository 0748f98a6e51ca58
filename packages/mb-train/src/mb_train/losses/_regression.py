"""Regression losses: squared, absolute, percentage, logarithmic and Huber errors,
log-cosh and cosine similarity."""

import math

from mb_ops import config, ops
from mb_train.losses._reduction import squeeze_or_expand_to_same_rank
from mb_train.losses._serialization import builtin
from mb_train.losses._wrapper import BuiltinLossWrapper

_DEFAULT = "sum_over_batch_size"


def _prepare(y_true, y_pred):
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=ops.dtype(y_pred))
    return squeeze_or_expand_to_same_rank(y_true, y_pred)


@builtin(aliases=("mse", "MSE"))
def mean_squared_error(y_true, y_pred):
    """``mean(square(y_true - y_pred), axis=-1)``.

    >>> from mb_ops import ops
    >>> ops.convert_to_numpy(mean_squared_error([[0.0, 1.0]], [[1.0, 1.0]])).tolist()
    [0.5]
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    return ops.mean(ops.square(y_true - y_pred), axis=-1)


@builtin(aliases=("mae", "MAE"))
def mean_absolute_error(y_true, y_pred):
    """``mean(abs(y_true - y_pred), axis=-1)``."""
    y_true, y_pred = _prepare(y_true, y_pred)
    return ops.mean(ops.abs(y_true - y_pred), axis=-1)


@builtin(aliases=("mape", "MAPE"))
def mean_absolute_percentage_error(y_true, y_pred):
    """``100 * mean(abs((y_true - y_pred) / max(abs(y_true), epsilon)), axis=-1)``."""
    y_true, y_pred = _prepare(y_true, y_pred)
    eps = config.epsilon()
    ratio = ops.abs((y_true - y_pred) / ops.maximum(ops.abs(y_true), eps))
    return 100.0 * ops.mean(ratio, axis=-1)


@builtin(aliases=("msle", "MSLE"))
def mean_squared_logarithmic_error(y_true, y_pred):
    """``mean(square(log(max(y_pred, eps) + 1) - log(max(y_true, eps) + 1)), axis=-1)``."""
    y_true, y_pred = _prepare(y_true, y_pred)
    eps = config.epsilon()
    first = ops.log(ops.maximum(y_pred, eps) + 1.0)
    second = ops.log(ops.maximum(y_true, eps) + 1.0)
    return ops.mean(ops.square(first - second), axis=-1)


@builtin
def cosine_similarity(y_true, y_pred, axis=-1):
    """Minus the cosine of the angle between `y_true` and `y_pred` along `axis`.

    The vectors are L2-normalized (by ``max(norm, epsilon)``), so the result
    lies in [-1, 1]; -1 means the same direction.
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    y_pred = ops.normalize(y_pred, axis=axis)
    y_true = ops.normalize(y_true, axis=axis)
    return -ops.sum(y_true * y_pred, axis=axis)


@builtin
def huber(y_true, y_pred, delta=1.0):
    """Quadratic for errors up to `delta`, linear beyond, averaged over the last axis.

    Per entry ``0.5 * e**2`` where ``|e| <= delta``, else ``delta * |e| - 0.5 * delta**2``.
    """
    y_true, y_pred = _prepare(y_true, y_pred)
    delta = ops.convert_to_tensor(delta, dtype=ops.dtype(y_pred))
    error = y_pred - y_true
    abs_error = ops.abs(error)
    quadratic = 0.5 * ops.square(error)
    linear = delta * abs_error - 0.5 * ops.square(delta)
    return ops.mean(ops.where(abs_error <= delta, quadratic, linear), axis=-1)


@builtin(aliases=("logcosh",))
def log_cosh(y_true, y_pred):
    """``mean(log(cosh(y_pred - y_true)), axis=-1)``, computed without overflow."""
    y_true, y_pred = _prepare(y_true, y_pred)
    x = y_pred - y_true
    return ops.mean(x + ops.softplus(-2.0 * x) - math.log(2.0), axis=-1)


@builtin
class MeanSquaredError(BuiltinLossWrapper):
    """Mean of the squared errors (`mean_squared_error`); see `Loss` for the arguments.

    >>> float(MeanSquaredError()([[0.0, 1.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 0.0]]))
    0.5
    """

    def __init__(self, reduction=_DEFAULT, name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, name=name, reduction=reduction, dtype=dtype)


@builtin
class MeanAbsoluteError(BuiltinLossWrapper):
    """Mean of the absolute errors (`mean_absolute_error`)."""

    def __init__(self, reduction=_DEFAULT, name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, name=name, reduction=reduction, dtype=dtype)


@builtin
class MeanAbsolutePercentageError(BuiltinLossWrapper):
    """Mean absolute percentage error (`mean_absolute_percentage_error`)."""

    def __init__(self, reduction=_DEFAULT, name="mean_absolute_percentage_error", dtype=None):
        super().__init__(
            mean_absolute_percentage_error, name=name, reduction=reduction, dtype=dtype
        )


@builtin
class MeanSquaredLogarithmicError(BuiltinLossWrapper):
    """Mean squared logarithmic error (`mean_squared_logarithmic_error`)."""

    def __init__(self, reduction=_DEFAULT, name="mean_squared_logarithmic_error", dtype=None):
        super().__init__(
            mean_squared_logarithmic_error, name=name, reduction=reduction, dtype=dtype
        )


@builtin
class CosineSimilarity(BuiltinLossWrapper):
    """Minus the cosine similarity along `axis` (`cosine_similarity`).

    Args:
        axis: the axis the vectors lie along.
        reduction, name, dtype: see `Loss`.
    """

    def __init__(self, axis=-1, reduction=_DEFAULT, name="cosine_similarity", dtype=None):
        super().__init__(cosine_similarity, name=name, reduction=reduction, dtype=dtype, axis=axis)


@builtin
class Huber(BuiltinLossWrapper):
    """The Huber loss (`huber`): squared below `delta`, absolute above.

    Args:
        delta: where the loss turns from quadratic to linear.
        reduction, name, dtype: see `Loss`.

    >>> float(Huber(delta=1.0)([[0.0], [0.0]], [[0.5], [3.0]]))
    1.3125
    """

    def __init__(self, delta=1.0, reduction=_DEFAULT, name="huber_loss", dtype=None):
        super().__init__(huber, name=name, reduction=reduction, dtype=dtype, delta=delta)


@builtin
class LogCosh(BuiltinLossWrapper):
    """Mean of ``log(cosh(error))`` (`log_cosh`)."""

    def __init__(self, reduction=_DEFAULT, name="log_cosh", dtype=None):
        super().__init__(log_cosh, name=name, reduction=reduction, dtype=dtype)
