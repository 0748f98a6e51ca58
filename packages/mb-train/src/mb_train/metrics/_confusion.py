"""Counts of true/false positives/negatives, `Precision` and `Recall`, at thresholds."""

from mb_ops import ops
from mb_train.metrics import _thresholds as th
from mb_train.metrics._metric import Metric


class _ConditionCount(Metric):
    """One confusion-matrix count per threshold, in variable ``accumulator``."""

    _condition = None

    def __init__(self, thresholds=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.thresholds = th.parse_thresholds(thresholds, default=0.5)
        self._evenly = th.evenly_spaced(self.thresholds)
        self.accumulator = self.add_variable(
            shape=(len(self.thresholds),), initializer="zeros", name="accumulator"
        )

    def update_state(self, y_true, y_pred, sample_weight=None):
        th.update_confusion_variables(
            {self._condition: self.accumulator},
            y_true,
            y_pred,
            self.thresholds,
            evenly_spaced=self._evenly,
            sample_weight=sample_weight,
        )

    def result(self):
        value = self.accumulator.value
        return value[0] if len(self.thresholds) == 1 else value

    def get_config(self):
        return {**super().get_config(), "thresholds": self.init_thresholds}


_COUNT_DOC = """The weighted number of {what} (``keras.metrics.{cls}``).

    A prediction is positive when its score is above the threshold; a label is
    positive when it is nonzero.

    Args:
        thresholds: a float or a list of floats in [0, 1]; default 0.5. With
            a list, the result has one count per threshold.
        name: the metric's name.
        dtype: the dtype of the result.

    Example:

    >>> m = {cls}()
    >>> m.update_state([0, 1, 1, 1], [0.0, 1.0, 0.0, 1.0], sample_weight=[1.0, 0.0, 2.0, 1.0])
    >>> float(m.result())
    {value}
    """


class TruePositives(_ConditionCount):
    __doc__ = _COUNT_DOC.format(what="true positives", cls="TruePositives", value="1.0")
    _condition = th.TP


class FalsePositives(_ConditionCount):
    __doc__ = _COUNT_DOC.format(what="false positives", cls="FalsePositives", value="0.0")
    _condition = th.FP


class TrueNegatives(_ConditionCount):
    __doc__ = _COUNT_DOC.format(what="true negatives", cls="TrueNegatives", value="1.0")
    _condition = th.TN


class FalseNegatives(_ConditionCount):
    __doc__ = _COUNT_DOC.format(what="false negatives", cls="FalseNegatives", value="2.0")
    _condition = th.FN


class _PrecisionRecall(Metric):
    _other = None  # FP for precision, FN for recall
    _direction = "up"

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        if top_k is not None and (not isinstance(top_k, int) or top_k < 1):
            raise ValueError(
                f"{type(self).__name__}: top_k must be a positive int or None. "
                f"Received: top_k={top_k!r}."
            )
        self.init_thresholds = thresholds
        self.top_k = top_k
        self.class_id = class_id
        default = 0.5 if top_k is None else th.NEG_INF
        self.thresholds = th.parse_thresholds(thresholds, default=default)
        self._evenly = th.evenly_spaced(self.thresholds)
        shape = (len(self.thresholds),)
        self.true_positives = self.add_variable(shape, "zeros", name="true_positives")
        setattr(self, self._other, self.add_variable(shape, "zeros", name=self._other))

    def update_state(self, y_true, y_pred, sample_weight=None):
        th.update_confusion_variables(
            {th.TP: self.true_positives, self._other: getattr(self, self._other)},
            y_true,
            y_pred,
            self.thresholds,
            evenly_spaced=self._evenly,
            top_k=self.top_k,
            class_id=self.class_id,
            sample_weight=sample_weight,
        )

    def result(self):
        tp = self.true_positives.value
        value = ops.divide_no_nan(tp, tp + getattr(self, self._other).value)
        return value[0] if len(self.thresholds) == 1 else value

    def get_config(self):
        return {
            **super().get_config(),
            "thresholds": self.init_thresholds,
            "top_k": self.top_k,
            "class_id": self.class_id,
        }


class Precision(_PrecisionRecall):
    """The fraction of positive predictions that are right: ``tp / (tp + fp)``.

    Args:
        thresholds: a float or list of floats in [0, 1] (default 0.5); a score
            above the threshold is a positive prediction. With a list, the
            result has one value per threshold.
        top_k: only the k highest scores of each sample count as positive
            (then the default threshold lets every one of them through).
        class_id: compute the metric for this class (last axis) only.
        name: the metric's name.
        dtype: the dtype of the result.

    Example:

    >>> m = Precision()
    >>> m.update_state([0, 1, 1, 1], [1.0, 0.0, 1.0, 1.0])
    >>> round(float(m.result()), 4)
    0.6667
    """

    _other = th.FP


class Recall(_PrecisionRecall):
    """The fraction of positive labels found: ``tp / (tp + fn)``.

    Args:
        thresholds: a float or list of floats in [0, 1] (default 0.5).
        top_k: only the k highest scores of each sample count as positive.
        class_id: compute the metric for this class (last axis) only.
        name: the metric's name.
        dtype: the dtype of the result.

    Example:

    >>> m = Recall()
    >>> m.update_state([0, 1, 1, 1], [1.0, 0.0, 1.0, 1.0])
    >>> round(float(m.result()), 4)
    0.6667
    """

    _other = th.FN
