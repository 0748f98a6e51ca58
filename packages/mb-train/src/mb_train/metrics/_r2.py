"""`R2Score`: the coefficient of determination, accumulated over batches."""

from mb_ops import ops
from mb_train.metrics import _shapes
from mb_train.metrics._metric import Metric, check_lazy_build

_AGGREGATIONS = (None, "uniform_average", "variance_weighted_average")


class R2Score(Metric):
    """The R² score, ``1 - SS_res / SS_tot`` per output (``keras.metrics.R2Score``).

    Args:
        class_aggregation: how to combine the outputs' scores: None (one per
            output), ``"uniform_average"`` (default) or
            ``"variance_weighted_average"``.
        num_regressors: the number of independent regressors, for the adjusted
            R² (0: the plain score). As in Keras, the count of data points used
            for the adjustment is the number of target elements seen; when
            ``num_regressors >= points - 1`` the plain score is returned.
        name: the metric's name.
        dtype: the dtype of the result.

    Example:

    >>> m = R2Score()
    >>> m.update_state([[1.0], [4.0], [3.0]], [[2.0], [4.0], [4.0]])
    >>> round(float(m.result()), 4)
    0.5714
    """

    _direction = "up"

    def __init__(
        self, class_aggregation="uniform_average", num_regressors=0, name="r2_score", dtype=None
    ):
        super().__init__(name=name, dtype=dtype)
        if class_aggregation not in _AGGREGATIONS:
            raise ValueError(
                "Invalid value for argument `class_aggregation`. Expected one of "
                f"{_AGGREGATIONS}. Received: class_aggregation={class_aggregation!r}."
            )
        if not isinstance(num_regressors, int) or num_regressors < 0:
            raise ValueError(
                "Invalid value for argument `num_regressors`. Expected an int >= 0. "
                f"Received: num_regressors={num_regressors!r}."
            )
        self.class_aggregation = class_aggregation
        self.num_regressors = num_regressors
        self.num_samples = self.add_variable((), "zeros", name="num_samples")
        self._built = False

    def _build(self, true_shape, pred_shape):
        if len(pred_shape) != 2 or len(true_shape) != 2:
            raise ValueError(
                "R2Score expects 2D inputs with shape (batch_size, output_dim). Received "
                f"input shapes: y_pred.shape={tuple(pred_shape)} and "
                f"y_true.shape={tuple(true_shape)}."
            )
        if pred_shape[-1] is None or true_shape[-1] is None:
            raise ValueError(
                "R2Score expects 2D inputs with shape (batch_size, output_dim), with "
                "output_dim fully defined (not None). Received input shapes: "
                f"y_pred.shape={tuple(pred_shape)} and y_true.shape={tuple(true_shape)}."
            )
        shape = (int(pred_shape[-1]),)
        self.squared_sum = self.add_variable(shape, "zeros", name="squared_sum")
        self.sum = self.add_variable(shape, "zeros", name="sum")
        self.total_mse = self.add_variable(shape, "zeros", name="residual")
        self.count = self.add_variable(shape, "zeros", name="count")
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = _shapes.as_tensor(y_true, self.dtype)
        y_pred = _shapes.as_tensor(y_pred, self.dtype)
        y_true, y_pred = _shapes.same_rank(y_true, y_pred)
        if not self._built:
            check_lazy_build(self)
            self._build(tuple(y_true.shape), tuple(y_pred.shape))
        if sample_weight is None:
            weights = ops.ones_like(y_true)
        else:
            weights = _shapes.as_tensor(sample_weight, self.dtype)
            if len(weights.shape) == 1:
                weights = ops.expand_dims(weights, 1)
            weights = ops.broadcast_to(weights, ops.shape(y_true))
        weighted = y_true * weights
        self.sum.assign(self.sum.value + ops.sum(weighted, axis=0))
        self.squared_sum.assign(self.squared_sum.value + ops.sum(y_true * weighted, axis=0))
        residual = ops.sum(ops.square(y_true - y_pred) * weights, axis=0)
        self.total_mse.assign(self.total_mse.value + residual)
        self.count.assign(self.count.value + ops.sum(weights, axis=0))
        size = ops.cast(ops.size(y_true), self.num_samples.dtype)
        self.num_samples.assign(self.num_samples.value + size)

    def result(self):
        if not self._built:
            return ops.convert_to_tensor(0.0, self.dtype)
        total_sum = self.sum.value
        mean = total_sum / self.count.value
        total = self.squared_sum.value - total_sum * mean
        raw = 1.0 - self.total_mse.value / total
        raw = ops.where(ops.isinf(raw), ops.zeros_like(raw), raw)
        if self.class_aggregation == "uniform_average":
            score = ops.mean(raw)
        elif self.class_aggregation == "variance_weighted_average":
            score = ops.sum(total * raw) / ops.sum(total)
        else:
            score = raw
        if self.num_regressors:
            n = ops.cast(self.num_samples.value, "float32")
            p = float(self.num_regressors)
            adjusted = 1.0 - (1.0 - score) * (n - 1.0) / (n - p - 1.0)
            # Too few points for the adjustment: the plain score, as Keras falls back.
            score = ops.where(ops.greater(n - 1.0, p), adjusted, score)
        return score

    def reset_state(self):
        for variable in self.variables:
            variable.assign(ops.zeros(variable.shape, dtype=variable.dtype))

    def get_config(self):
        return {
            **super().get_config(),
            "class_aggregation": self.class_aggregation,
            "num_regressors": self.num_regressors,
        }
