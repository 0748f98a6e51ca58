"""Pearson and concordance correlation, per sample along an axis, averaged."""

import mb_ops
from mb_ops import ops
from mb_train.metrics import _shapes
from mb_train.metrics._reduction import BuiltinMeanMetricWrapper


def _pair(y_true, y_pred):
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = _shapes.as_tensor(y_true, y_pred.dtype)
    return _shapes.same_rank(y_true, y_pred)


def pearson_correlation(y_true, y_pred, axis=-1):
    """Pearson's correlation coefficient of each sample's values along `axis`.

    Example:

    >>> round(float(pearson_correlation([[1.0, 2.0, 3.0]], [[1.0, 2.0, 4.0]])[0]), 4)
    0.982
    """
    y_true, y_pred = _pair(y_true, y_pred)
    t = y_true - ops.mean(y_true, axis=axis, keepdims=True)
    p = y_pred - ops.mean(y_pred, axis=axis, keepdims=True)
    t = t / ops.std(t, axis=axis, keepdims=True)
    p = p / ops.std(p, axis=axis, keepdims=True)
    return ops.mean(t * p, axis=axis)


def concordance_correlation(y_true, y_pred, axis=-1):
    """Lin's concordance correlation coefficient of each sample's values along `axis`.

    ``2 cov(t, p) / (var(t) + var(p) + (mean(t) - mean(p))^2)``.

    Example:

    >>> round(float(concordance_correlation([[1.0, 2.0, 3.0]], [[1.0, 2.0, 4.0]])[0]), 4)
    0.8571
    """
    y_true, y_pred = _pair(y_true, y_pred)
    mean_t = ops.mean(y_true, axis=axis, keepdims=True)
    mean_p = ops.mean(y_pred, axis=axis, keepdims=True)
    var_t = ops.var(y_true, axis=axis, keepdims=True)
    var_p = ops.var(y_pred, axis=axis, keepdims=True)
    covariance = ops.mean((y_true - mean_t) * (y_pred - mean_p), axis=axis, keepdims=True)
    norm = var_t + var_p + ops.square(mean_t - mean_p)
    return ops.squeeze(2.0 * covariance / (norm + mb_ops.config.epsilon()), axis)


class PearsonCorrelation(BuiltinMeanMetricWrapper):
    """The mean of `pearson_correlation` over samples (``keras.metrics.PearsonCorrelation``).

    Args:
        name: the metric's name.
        dtype: the dtype of the result.
        axis: the axis along which each correlation is computed (default -1).

    Example:

    >>> m = PearsonCorrelation()
    >>> m.update_state([[1.0, 2.0, 3.0]], [[1.0, 2.0, 4.0]])
    >>> round(float(m.result()), 4)
    0.982
    """

    _direction = "up"

    def __init__(self, name="pearson_correlation", dtype=None, axis=-1):
        super().__init__(pearson_correlation, name=name, dtype=dtype, axis=axis)


class ConcordanceCorrelation(BuiltinMeanMetricWrapper):
    """The mean of `concordance_correlation` over samples.

    Args:
        name: the metric's name.
        dtype: the dtype of the result.
        axis: the axis along which each coefficient is computed (default -1).

    Example:

    >>> m = ConcordanceCorrelation()
    >>> m.update_state([[1.0, 2.0, 3.0]], [[1.0, 2.0, 4.0]])
    >>> round(float(m.result()), 4)
    0.8571
    """

    _direction = "up"

    def __init__(self, name="concordance_correlation", dtype=None, axis=-1):
        super().__init__(concordance_correlation, name=name, dtype=dtype, axis=axis)
