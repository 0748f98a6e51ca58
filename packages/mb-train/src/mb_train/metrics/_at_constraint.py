"""Metrics at a constraint: `SensitivityAtSpecificity`, `SpecificityAtSensitivity`,
`PrecisionAtRecall`, `RecallAtPrecision`.

Each keeps tp/fp/tn/fn at ``num_thresholds`` evenly spaced thresholds and
returns the best value of one rate among the thresholds where the other rate
meets the constraint (0 when none does).
"""

import numbers

from mb_ops import ops
from mb_train.metrics import _thresholds as th
from mb_train.metrics._metric import Metric


def _rates(tp, fp, tn, fn):
    return {
        "sensitivity": ops.divide_no_nan(tp, tp + fn),
        "specificity": ops.divide_no_nan(tn, tn + fp),
        "precision": ops.divide_no_nan(tp, tp + fp),
        "recall": ops.divide_no_nan(tp, tp + fn),
    }


class _AtConstraint(Metric):
    """Base: `_constrained` must reach `value`; `_maximized` is returned."""

    _constrained = None
    _maximized = None
    _direction = "up"

    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype=None):
        arg = self._constrained
        if not isinstance(value, numbers.Real) or not 0 <= value <= 1:
            raise ValueError(
                f"Argument `{arg}` of {type(self).__name__} must be in the range [0, 1]. "
                f"Received: {arg}={value!r}."
            )
        if not isinstance(num_thresholds, int) or num_thresholds <= 0:
            raise ValueError(
                "Argument `num_thresholds` must be an integer > 0. Received: "
                f"num_thresholds={num_thresholds!r}."
            )
        super().__init__(name=name, dtype=dtype)
        setattr(self, arg, value)
        self.value = value
        self.num_thresholds = num_thresholds
        self.class_id = class_id
        if num_thresholds == 1:
            self.thresholds, self._evenly = [0.5], False
        else:
            inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self.thresholds, self._evenly = [0.0, *inner, 1.0], True
        shape = (len(self.thresholds),)
        self.true_positives = self.add_variable(shape, "zeros", name="true_positives")
        self.false_positives = self.add_variable(shape, "zeros", name="false_positives")
        self.true_negatives = self.add_variable(shape, "zeros", name="true_negatives")
        self.false_negatives = self.add_variable(shape, "zeros", name="false_negatives")

    def update_state(self, y_true, y_pred, sample_weight=None):
        th.update_confusion_variables(
            th.confusion_variables(self),
            y_true,
            y_pred,
            self.thresholds,
            evenly_spaced=self._evenly,
            class_id=self.class_id,
            sample_weight=sample_weight,
        )

    def result(self):
        rates = _rates(
            self.true_positives.value,
            self.false_positives.value,
            self.true_negatives.value,
            self.false_negatives.value,
        )
        feasible = ops.greater_equal(rates[self._constrained], self.value)
        best = ops.where(feasible, rates[self._maximized], 0.0)
        return ops.max(best, initial=0.0)

    def get_config(self):
        return {
            **super().get_config(),
            "class_id": self.class_id,
            "num_thresholds": self.num_thresholds,
            self._constrained: self.value,
        }


_DOC = """The best {maximized} where {constrained} >= the given value
    (``keras.metrics.{cls}``).

    Args:
        {constrained}: the constraint, in [0, 1].
        num_thresholds: how many evenly spaced thresholds in [0, 1] to try
            (default 200).
        class_id: compute the metric for this class (last axis) only.
        name: the metric's name.
        dtype: the dtype of the result.

    Example:

    >>> m = {cls}(0.5)
    >>> m.update_state([0, 0, 0, 1, 1], [0.0, 0.3, 0.8, 0.3, 0.8])
    >>> round(float(m.result()), 4)
    {value}
    """


class SensitivityAtSpecificity(_AtConstraint):
    __doc__ = _DOC.format(
        cls="SensitivityAtSpecificity",
        constrained="specificity",
        maximized="sensitivity",
        value="0.5",
    )
    _constrained, _maximized = "specificity", "sensitivity"

    def __init__(self, specificity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(specificity, num_thresholds, class_id, name=name, dtype=dtype)


class SpecificityAtSensitivity(_AtConstraint):
    __doc__ = _DOC.format(
        cls="SpecificityAtSensitivity",
        constrained="sensitivity",
        maximized="specificity",
        value="0.6667",
    )
    _constrained, _maximized = "sensitivity", "specificity"

    def __init__(self, sensitivity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(sensitivity, num_thresholds, class_id, name=name, dtype=dtype)


class PrecisionAtRecall(_AtConstraint):
    __doc__ = _DOC.format(
        cls="PrecisionAtRecall", constrained="recall", maximized="precision", value="0.5"
    )
    _constrained, _maximized = "recall", "precision"

    def __init__(self, recall, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(recall, num_thresholds, class_id, name=name, dtype=dtype)


class RecallAtPrecision(_AtConstraint):
    __doc__ = _DOC.format(
        cls="RecallAtPrecision", constrained="precision", maximized="recall", value="1.0"
    )
    _constrained, _maximized = "precision", "recall"

    def __init__(self, precision, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(precision, num_thresholds, class_id, name=name, dtype=dtype)
