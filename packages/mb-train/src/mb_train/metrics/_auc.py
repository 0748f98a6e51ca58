"""`AUC`: the area under the ROC or precision-recall curve, from threshold counts."""

import numpy as np

import mb_ops
from mb_ops import ops
from mb_train.metrics import _thresholds as th
from mb_train.metrics._metric import Metric, check_lazy_build

_CURVES = {"roc": "ROC", "pr": "PR", "prgain": "PRGAIN"}
_SUMMATIONS = ("interpolation", "majoring", "minoring")


def _curve_name(curve):
    name = getattr(curve, "value", curve)
    if not isinstance(name, str) or name.lower() not in _CURVES:
        raise ValueError(
            f'Invalid AUC curve value: "{curve}". Expected values are ["PR", "ROC", "PRGAIN"].'
        )
    return _CURVES[name.lower()]


def _summation_name(method):
    name = getattr(method, "value", method)
    if not isinstance(name, str) or name.lower() not in _SUMMATIONS:
        raise ValueError(
            f'Invalid AUC summation method value: "{method}". Expected values are '
            '["interpolation", "majoring", "minoring"].'
        )
    return name.lower()


def _label_weights_list(label_weights):
    if label_weights is None:
        return None
    if isinstance(label_weights, dict) and label_weights.get("class_name") == "__tensor__":
        label_weights = label_weights["config"]["value"]
    values = np.asarray(label_weights, dtype="float64").reshape(-1)
    if (values < 0).any():
        raise ValueError(
            f"AUC label_weights must be non-negative. Received: label_weights={label_weights!r}."
        )
    return [float(v) for v in values]


class AUC(Metric):
    """Approximates the area under the ROC or PR curve (``keras.metrics.AUC``).

    True/false positives/negatives are counted at `num_thresholds` thresholds
    (evenly spaced in [0, 1] unless `thresholds` is given) and the curve they
    trace is summed as a Riemann sum (or, for PR with interpolation, with the
    Davis & Goadrich interpolation).

    Args:
        num_thresholds: number of thresholds, > 1 (default 200).
        curve: ``"ROC"`` (default), ``"PR"`` or ``"PRGAIN"``.
        summation_method: ``"interpolation"`` (default), ``"majoring"`` or
            ``"minoring"``.
        name: the metric's name.
        dtype: the dtype of the result.
        thresholds: explicit thresholds in [0, 1] (then `num_thresholds` is
            ``len(thresholds) + 2``, 0 and 1 being added).
        multi_label: one curve per label (last axis), averaged; otherwise all
            labels are pooled.
        num_labels: the number of labels with `multi_label` (else found from
            the first batch).
        label_weights: non-negative per-label weights (pooled weights, or the
            weights of the per-label average with `multi_label`).
        from_logits: apply a sigmoid to the predictions first.

    Example:

    >>> m = AUC(num_thresholds=3)
    >>> m.update_state([0, 0, 1, 1], [0.0, 0.5, 0.3, 0.9])
    >>> float(m.result())
    0.75
    """

    _direction = "up"

    def __init__(
        self,
        num_thresholds=200,
        curve="ROC",
        summation_method="interpolation",
        name=None,
        dtype=None,
        thresholds=None,
        multi_label=False,
        num_labels=None,
        label_weights=None,
        from_logits=False,
    ):
        self.curve = _curve_name(curve)
        self.summation_method = _summation_name(summation_method)
        self._init_from_thresholds = thresholds is not None
        if thresholds is not None:
            inner = sorted(th.parse_thresholds(thresholds, default=0.5))
            self.num_thresholds = len(inner) + 2
            self._evenly = th.evenly_spaced([0.0, *inner, 1.0])
        else:
            if not isinstance(num_thresholds, int) or num_thresholds <= 1:
                raise ValueError(
                    "Argument `num_thresholds` must be an integer > 1. Received: "
                    f"num_thresholds={num_thresholds!r}."
                )
            self.num_thresholds = num_thresholds
            inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self._evenly = True
        eps = mb_ops.config.epsilon()
        self._thresholds = [0.0 - eps, *inner, 1.0 + eps]
        if num_labels is not None and not multi_label:
            raise ValueError("`num_labels` is needed only when `multi_label` is True.")
        super().__init__(name=name, dtype=dtype)
        self.multi_label = bool(multi_label)
        self.num_labels = num_labels
        self._label_weights = _label_weights_list(label_weights)
        self._from_logits = from_logits
        self._built = False
        if not self.multi_label:
            self._build(None)
        elif num_labels:
            self._build((None, num_labels))

    @property
    def thresholds(self):
        """The thresholds used, 0 - epsilon and 1 + epsilon included."""
        return list(self._thresholds)

    @property
    def label_weights(self):
        if self._label_weights is None:
            return None
        return ops.convert_to_tensor(np.asarray(self._label_weights, dtype=self.dtype))

    def _build(self, shape):
        if self.multi_label:
            if len(shape) != 2 or shape[-1] is None:
                raise ValueError(
                    "AUC(multi_label=True) needs y_pred of shape (batch, num_labels) with "
                    f"num_labels known. Received y_pred of shape {tuple(shape)}."
                )
            self._num_labels = int(shape[-1])
            variable_shape = (self.num_thresholds, self._num_labels)
        else:
            variable_shape = (self.num_thresholds,)
        self._build_input_shape = shape
        for name in (th.TP, th.FP, th.TN, th.FN):
            setattr(self, name, self.add_variable(variable_shape, "zeros", name=name))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = ops.convert_to_tensor(y_pred)
        if not self._built:
            check_lazy_build(self, hint=", or pass num_labels")
            self._build(tuple(y_pred.shape))
        if self._from_logits:
            y_pred = ops.sigmoid(y_pred)
        th.update_confusion_variables(
            th.confusion_variables(self),
            y_true,
            y_pred,
            self._thresholds,
            evenly_spaced=self._evenly,
            sample_weight=sample_weight,
            multi_label=self.multi_label,
            label_weights=None if self.multi_label else self.label_weights,
        )

    def _average(self, per_threshold_terms):
        if not self.multi_label:
            return ops.sum(per_threshold_terms)
        by_label = ops.sum(per_threshold_terms, axis=0)
        weights = self.label_weights
        if weights is None:
            return ops.mean(by_label)
        return ops.divide_no_nan(ops.sum(by_label * weights), ops.sum(weights))

    def interpolate_pr_auc(self):
        """The area under the precision-recall curve of the counts so far, with precision
        interpolated between thresholds (Davis & Goadrich, 2006): what `result()` gives
        for ``curve="PR"`` with ``summation_method="interpolation"``, whatever this
        metric's own `curve` is (Keras's public method)."""
        if not self._built:
            return ops.convert_to_tensor(0.0, self.dtype)
        tp, fp = self.true_positives.value, self.false_positives.value
        return self._interpolated_pr_auc(tp, fp, self.false_negatives.value)

    def _interpolated_pr_auc(self, tp, fp, fn):
        # Davis & Goadrich (2006): precision interpolated between thresholds.
        dtp = tp[:-1] - tp[1:]
        p = tp + fp
        dp = p[:-1] - p[1:]
        slope = ops.divide_no_nan(dtp, ops.maximum(dp, 0.0))
        intercept = tp[1:] - slope * p[1:]
        both = ops.logical_and(ops.greater(p[:-1], 0.0), ops.greater(p[1:], 0.0))
        ratio = ops.where(
            both, ops.divide_no_nan(p[:-1], ops.maximum(p[1:], 0.0)), ops.ones_like(p[1:])
        )
        terms = ops.divide_no_nan(
            slope * (dtp + intercept * ops.log(ratio)), ops.maximum(tp[1:] + fn[1:], 0.0)
        )
        return self._average(terms)

    def _curve(self, tp, fp, tn, fn):
        if self.curve == "ROC":
            return ops.divide_no_nan(fp, fp + tn), ops.divide_no_nan(tp, tp + fn)
        if self.curve == "PR":
            return ops.divide_no_nan(tp, tp + fn), ops.divide_no_nan(tp, tp + fp)
        # PR gain (Flach & Kull, 2015).
        scale = ops.divide_no_nan(tp + fn, tn + fp)
        no_tp = ops.equal(tp, 0.0)
        recall_gain = ops.where(no_tp, 0.0, 1.0 - scale * ops.divide_no_nan(fn, tp))
        precision_gain = ops.where(no_tp, 1.0, 1.0 - scale * ops.divide_no_nan(fp, tp))
        return ops.maximum(recall_gain, 0.0), precision_gain

    def result(self):
        if not self._built:
            return ops.convert_to_tensor(0.0, self.dtype)
        tp, fp = self.true_positives.value, self.false_positives.value
        tn, fn = self.true_negatives.value, self.false_negatives.value
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._interpolated_pr_auc(tp, fp, fn)
        x, y = self._curve(tp, fp, tn, fn)
        if self.summation_method == "interpolation":
            heights = (y[:-1] + y[1:]) / 2.0
        elif self.summation_method == "minoring":
            heights = ops.minimum(y[:-1], y[1:])
        else:
            heights = ops.maximum(y[:-1], y[1:])
        return self._average((x[:-1] - x[1:]) * heights)

    def reset_state(self):
        if self._built:
            super().reset_state()

    def get_config(self):
        config = {
            **super().get_config(),
            "num_thresholds": self.num_thresholds,
            "curve": self.curve,
            "summation_method": self.summation_method,
            "multi_label": self.multi_label,
            "num_labels": self.num_labels,
            "label_weights": self._label_weights,
            "from_logits": self._from_logits,
        }
        if self._init_from_thresholds:
            config["thresholds"] = self._thresholds[1:-1]
        return config
