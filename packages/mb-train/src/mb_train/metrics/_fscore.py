"""`FBetaScore` and `F1Score`: per-class F-scores of thresholded multi-label predictions."""

import mb_ops
from mb_ops import ops
from mb_train.metrics import _shapes
from mb_train.metrics._metric import Metric, check_lazy_build

_AVERAGES = (None, "micro", "macro", "weighted")


class FBetaScore(Metric):
    """The F-beta score (``keras.metrics.FBetaScore``).

    ``(1 + beta^2) * precision * recall / (beta^2 * precision + recall)``, per
    class, or averaged.

    Args:
        average: None (one score per class), ``"micro"`` (pool every class),
            ``"macro"`` (mean of the class scores) or ``"weighted"`` (mean
            weighted by each class's number of true labels).
        beta: the weight of recall, a float > 0 (default 1.0).
        threshold: a float in (0, 1]; scores above it are positive. None: the
            highest score of each sample is positive.
        name: the metric's name.
        dtype: the dtype of the result.

    Example:

    >>> m = FBetaScore(beta=2.0, threshold=0.5)
    >>> m.update_state([[1, 1, 1], [1, 0, 0], [1, 1, 0]],
    ...                [[0.2, 0.6, 0.7], [0.2, 0.6, 0.6], [0.6, 0.8, 0.0]])
    >>> [round(v, 3) for v in ops.convert_to_numpy(m.result()).tolist()]
    [0.385, 0.909, 0.833]
    """

    _direction = "up"

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        if average not in _AVERAGES:
            raise ValueError(
                "Invalid `average` argument value. Expected one of: {None, 'micro', 'macro', "
                f"'weighted'}}. Received: average={average!r}."
            )
        if not isinstance(beta, float):
            raise ValueError(
                "Invalid `beta` argument value. It should be a Python float. Received: "
                f"beta={beta!r} of type {type(beta).__name__}."
            )
        if beta <= 0.0:
            raise ValueError(
                f"Invalid `beta` argument value. It should be > 0. Received: beta={beta}."
            )
        if threshold is not None:
            if not isinstance(threshold, float):
                raise ValueError(
                    "Invalid `threshold` argument value. It should be a Python float. Received: "
                    f"threshold={threshold!r} of type {type(threshold).__name__}."
                )
            if not 0.0 < threshold <= 1.0:
                raise ValueError(
                    "Invalid `threshold` argument value. It should verify 0 < threshold <= 1. "
                    f"Received: threshold={threshold}."
                )
        self.average = average
        self.beta = beta
        self.threshold = threshold
        self.axis = None if average == "micro" else 0
        self._built = False

    def _build(self, true_shape, pred_shape):
        if len(pred_shape) != 2 or len(true_shape) != 2:
            raise ValueError(
                f"{type(self).__name__} expects 2D inputs with shape (batch_size, output_dim). "
                f"Received input shapes: y_pred.shape={tuple(pred_shape)} and "
                f"y_true.shape={tuple(true_shape)}."
            )
        if pred_shape[-1] is None or true_shape[-1] is None:
            raise ValueError(
                f"{type(self).__name__} expects 2D inputs with shape (batch_size, output_dim), "
                "with output_dim fully defined (not None). Received input shapes: "
                f"y_pred.shape={tuple(pred_shape)} and y_true.shape={tuple(true_shape)}."
            )
        shape = () if self.average == "micro" else (int(pred_shape[-1]),)
        for name in ("true_positives", "false_positives", "false_negatives"):
            setattr(self, name, self.add_variable(shape, "zeros", dtype=self.dtype, name=name))
        self.intermediate_weights = self.add_variable(
            shape, "zeros", dtype=self.dtype, name="intermediate_weights"
        )
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = _shapes.as_tensor(y_true, self.dtype)
        y_pred = _shapes.as_tensor(y_pred, self.dtype)
        if not self._built:
            check_lazy_build(self)
            self._build(tuple(y_true.shape), tuple(y_pred.shape))
        if self.threshold is None:
            top = ops.max(y_pred, axis=-1, keepdims=True)
            positive = ops.logical_and(
                ops.greater_equal(y_pred, top), ops.greater(ops.abs(y_pred), 1e-9)
            )
        else:
            positive = ops.greater(y_pred, self.threshold)
        y_pred = ops.cast(positive, self.dtype)
        weights = None
        if sample_weight is not None:
            weights = ops.expand_dims(_shapes.as_tensor(sample_weight, self.dtype), 1)

        def weighted_sum(values):
            if weights is not None:
                values = values * weights
            return ops.sum(values, axis=self.axis)

        self.true_positives.assign(self.true_positives.value + weighted_sum(y_pred * y_true))
        self.false_positives.assign(
            self.false_positives.value + weighted_sum(y_pred * (1.0 - y_true))
        )
        self.false_negatives.assign(
            self.false_negatives.value + weighted_sum((1.0 - y_pred) * y_true)
        )
        self.intermediate_weights.assign(self.intermediate_weights.value + weighted_sum(y_true))

    def result(self):
        if not self._built:
            return ops.convert_to_tensor(0.0, self.dtype)
        eps = mb_ops.config.epsilon()
        tp, fp = self.true_positives.value, self.false_positives.value
        fn = self.false_negatives.value
        precision = tp / (tp + fp + eps)
        recall = tp / (tp + fn + eps)
        b2 = self.beta**2
        score = (1.0 + b2) * (precision * recall) / (b2 * precision + recall + eps)
        if self.average == "weighted":
            w = self.intermediate_weights.value
            return ops.sum(score * (w / (ops.sum(w) + eps)))
        if self.average is not None:
            return ops.mean(score)
        return score

    def reset_state(self):
        if self._built:
            super().reset_state()

    def get_config(self):
        return {
            **super().get_config(),
            "average": self.average,
            "beta": self.beta,
            "threshold": self.threshold,
        }


class F1Score(FBetaScore):
    """The F1 score: the harmonic mean of precision and recall (``keras.metrics.F1Score``).

    Args:
        average, threshold, name, dtype: as in `FBetaScore` (beta is 1).

    Example:

    >>> m = F1Score(threshold=0.5)
    >>> m.update_state([[1, 1, 1], [1, 0, 0], [1, 1, 0]],
    ...                [[0.2, 0.6, 0.7], [0.2, 0.6, 0.6], [0.6, 0.8, 0.0]])
    >>> [round(v, 3) for v in ops.convert_to_numpy(m.result()).tolist()]
    [0.5, 0.8, 0.667]
    """

    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name, dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["beta"]
        return config
