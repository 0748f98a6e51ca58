"""Regression metrics: running means of the regression losses, RMSE, cosine similarity."""

from mb_ops import ops
from mb_train.losses import (
    log_cosh,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    mean_squared_logarithmic_error,
)
from mb_train.metrics import _shapes
from mb_train.metrics._reduction import Mean, MeanMetricWrapper


class _NameDtypeConfig:
    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}


class MeanSquaredError(_NameDtypeConfig, MeanMetricWrapper):
    """The mean of `mean_squared_error` over samples (``keras.metrics.MeanSquaredError``).

    Example:

    >>> m = MeanSquaredError()
    >>> m.update_state([[0, 1], [0, 0]], [[1, 1], [0, 0]])
    >>> float(m.result())
    0.25
    """

    def __init__(self, name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, name=name, dtype=dtype)


class MeanAbsoluteError(_NameDtypeConfig, MeanMetricWrapper):
    """The mean of `mean_absolute_error` over samples.

    Example:

    >>> m = MeanAbsoluteError()
    >>> m.update_state([[0, 1], [0, 0]], [[1, 1], [0, 0]])
    >>> float(m.result())
    0.25
    """

    def __init__(self, name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, name=name, dtype=dtype)


class MeanAbsolutePercentageError(_NameDtypeConfig, MeanMetricWrapper):
    """The mean of `mean_absolute_percentage_error` over samples.

    Example:

    >>> m = MeanAbsolutePercentageError()
    >>> m.update_state([[1.0, 2.0]], [[1.5, 2.0]])
    >>> float(m.result())
    25.0
    """

    def __init__(self, name="mean_absolute_percentage_error", dtype=None):
        super().__init__(mean_absolute_percentage_error, name=name, dtype=dtype)


class MeanSquaredLogarithmicError(_NameDtypeConfig, MeanMetricWrapper):
    """The mean of `mean_squared_logarithmic_error` over samples.

    Example:

    >>> m = MeanSquaredLogarithmicError()
    >>> m.update_state([[0.0, 1.0]], [[0.0, 1.0]])
    >>> float(m.result())
    0.0
    """

    def __init__(self, name="mean_squared_logarithmic_error", dtype=None):
        super().__init__(mean_squared_logarithmic_error, name=name, dtype=dtype)


class LogCoshError(_NameDtypeConfig, MeanMetricWrapper):
    """The mean of `log_cosh` over samples (``keras.metrics.LogCoshError``, name ``logcosh``).

    Example:

    >>> m = LogCoshError()
    >>> m.update_state([[0.0, 0.0]], [[0.0, 0.0]])
    >>> float(m.result())
    0.0
    """

    def __init__(self, name="logcosh", dtype=None):
        super().__init__(log_cosh, name=name, dtype=dtype)


class RootMeanSquaredError(Mean):
    """The square root of the (weighted) mean squared error over every element.

    Example:

    >>> m = RootMeanSquaredError()
    >>> m.update_state([[0, 1], [0, 0]], [[1, 1], [0, 0]])
    >>> float(m.result())
    0.5
    """

    _direction = "down"

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = _shapes.as_tensor(y_true, self.dtype)
        y_pred = _shapes.as_tensor(y_pred, self.dtype)
        y_true, y_pred = _shapes.same_rank(y_true, y_pred)
        super().update_state(ops.square(y_pred - y_true), sample_weight=sample_weight)

    def result(self):
        return ops.sqrt(super().result())


def cosine_similarity(y_true, y_pred, axis=-1):
    """The cosine of the angle between each sample's target and prediction (in [-1, 1])."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = _shapes.as_tensor(y_true, y_pred.dtype)
    y_true, y_pred = _shapes.same_rank(y_true, y_pred)
    return ops.sum(ops.normalize(y_true, axis=axis) * ops.normalize(y_pred, axis=axis), axis=axis)


class CosineSimilarity(_NameDtypeConfig, MeanMetricWrapper):
    """The mean cosine similarity of targets and predictions (``keras.metrics.CosineSimilarity``).

    Unlike the loss of the same name, larger is better (no minus sign).

    Args:
        name: the metric's name.
        dtype: the dtype of the result.
        axis: the axis of the vectors (default -1).

    Example:

    >>> m = CosineSimilarity()
    >>> m.update_state([[0.0, 1.0], [1.0, 1.0]], [[1.0, 0.0], [1.0, 1.0]])
    >>> round(float(m.result()), 4)
    0.5
    """

    _direction = "up"

    def __init__(self, name="cosine_similarity", dtype=None, axis=-1):
        super().__init__(cosine_similarity, name=name, dtype=dtype, axis=axis)
