"""Intersection over union: `IoU`, `BinaryIoU`, `MeanIoU`, `OneHotIoU`, `OneHotMeanIoU`.

The state is a ``(num_classes, num_classes)`` confusion matrix (rows: labels,
columns: predictions), accumulated with a segment sum so it runs compiled.
"""

import warnings

import mb_ops
from mb_ops import dtypes, ops
from mb_train._arguments import passed_arguments
from mb_train.metrics import _shapes
from mb_train.metrics._metric import Metric


def confusion_matrix(labels, predictions, num_classes, weights, dtype):
    """The weighted ``(num_classes, num_classes)`` counts of (label, prediction) pairs."""
    ids = ops.cast(labels, "int32") * num_classes + ops.cast(predictions, "int32")
    counts = ops.segment_sum(ops.cast(weights, dtype), ids, num_segments=num_classes**2)
    return ops.reshape(counts, (num_classes, num_classes))


class _OneHotLabels:
    """The one-hot variants' config: their base's without ``sparse_y_true``."""

    def get_config(self):
        config = super().get_config()
        del config["sparse_y_true"]
        return config


class _IoUBase(Metric):
    _direction = "up"

    def __init__(
        self,
        num_classes,
        name=None,
        dtype=None,
        ignore_class=None,
        sparse_y_true=True,
        sparse_y_pred=True,
        axis=-1,
    ):
        if not isinstance(num_classes, int) or num_classes < 1:
            raise ValueError(
                f"{type(self).__name__}: num_classes must be a positive int. "
                f"Received: num_classes={num_classes!r}."
            )
        super().__init__(name=name, dtype=dtype or "int")
        self.num_classes = num_classes
        self.ignore_class = ignore_class
        self.sparse_y_true = sparse_y_true
        self.sparse_y_pred = sparse_y_pred
        self.axis = axis
        self.total_cm = self.add_variable(
            (num_classes, num_classes), "zeros", dtype=self.dtype, name="total_confusion_matrix"
        )

    def update_state(self, y_true, y_pred, sample_weight=None):
        if not self.sparse_y_true:
            y_true = ops.argmax(ops.convert_to_tensor(y_true), axis=self.axis)
        if not self.sparse_y_pred:
            y_pred = ops.argmax(ops.convert_to_tensor(y_pred), axis=self.axis)
        y_true = ops.reshape(_shapes.as_tensor(y_true, self.dtype), (-1,))
        y_pred = ops.reshape(_shapes.as_tensor(y_pred, self.dtype), (-1,))
        if sample_weight is None:
            sample_weight = ops.ones_like(y_true)
        else:
            has_dtype = hasattr(sample_weight, "dtype")
            sample_weight = ops.convert_to_tensor(sample_weight)
            weight_dtype = dtypes.standardize_dtype(sample_weight.dtype)
            # As Keras: a tensor of float weights with an int matrix is worth a warning.
            if has_dtype and dtypes.is_float_dtype(weight_dtype) and "int" in self.dtype:
                warnings.warn(
                    f"{type(self).__name__} got float sample weights but accumulates in "
                    f"dtype {self.dtype}: the weights are truncated to integers. Pass integer "
                    "weights, or a float dtype (e.g. dtype='float32').",
                    stacklevel=2,
                )
            sample_weight = ops.cast(sample_weight, self.dtype)
            sample_weight = ops.broadcast_to(ops.reshape(sample_weight, (-1,)), ops.shape(y_true))
        n = self.num_classes
        in_range = ops.logical_and(
            ops.logical_and(ops.greater_equal(y_true, 0), ops.less(y_true, n)),
            ops.logical_and(ops.greater_equal(y_pred, 0), ops.less(y_pred, n)),
        )
        if self.ignore_class is not None:
            in_range = ops.logical_and(in_range, ops.not_equal(y_true, self.ignore_class))
        zero = ops.zeros_like(y_true)
        y_true = ops.where(in_range, y_true, zero)
        y_pred = ops.where(in_range, y_pred, zero)
        sample_weight = ops.where(in_range, sample_weight, ops.zeros_like(sample_weight))
        current = confusion_matrix(y_true, y_pred, n, sample_weight, self.dtype)
        self.total_cm.assign(self.total_cm.value + current)

    def reset_state(self):
        self.total_cm.assign(ops.zeros(self.total_cm.shape, dtype=self.total_cm.dtype))


class IoU(_IoUBase):
    """Intersection over union of chosen classes, averaged (``keras.metrics.IoU``).

    For each class, ``iou = tp / (tp + fp + fn)``; the result is the mean over
    `target_class_ids` of the classes that occur (labels or predictions).

    Args:
        num_classes: the number of classes.
        target_class_ids: the classes to average over.
        name: the metric's name.
        dtype: the dtype of the confusion matrix (default ``"int32"``).
        ignore_class: a label value to leave out (e.g. a void class).
        sparse_y_true: labels are class ids (else one-hot/scores, arg-maxed).
        sparse_y_pred: predictions are class ids (else scores, arg-maxed).
        axis: the class axis of non-sparse inputs.

    Example:

    >>> m = IoU(num_classes=2, target_class_ids=[0])
    >>> m.update_state([0, 0, 1, 1], [0, 1, 0, 1])
    >>> round(float(m.result()), 4)
    0.3333
    """

    def __init__(
        self,
        num_classes,
        target_class_ids,
        name=None,
        dtype=None,
        ignore_class=None,
        sparse_y_true=True,
        sparse_y_pred=True,
        axis=-1,
    ):
        super().__init__(
            num_classes,
            name=name,
            dtype=dtype,
            ignore_class=ignore_class,
            sparse_y_true=sparse_y_true,
            sparse_y_pred=sparse_y_pred,
            axis=axis,
        )
        ids = list(target_class_ids)
        if not ids or max(ids) >= num_classes or min(ids) < 0:
            raise ValueError(
                f"target_class_ids must be class ids in [0, {num_classes}). "
                f"Received: target_class_ids={target_class_ids!r}."
            )
        self.target_class_ids = ids

    def result(self):
        cm = ops.cast(self.total_cm.value, "float32")
        predicted = ops.sum(cm, axis=0)
        actual = ops.sum(cm, axis=1)
        tp = ops.diagonal(cm)
        ids = ops.convert_to_tensor(self.target_class_ids, "int32")
        tp = ops.take(tp, ids, axis=0)
        union = ops.take(predicted + actual, ids, axis=0) - tp
        valid = ops.greater(union, 1e-9)
        eps = mb_ops.config.epsilon()
        iou = ops.where(valid, tp / (union + eps), ops.zeros_like(tp))
        return ops.sum(iou) / (ops.sum(ops.cast(valid, "float32")) + eps)

    def get_config(self):
        return {
            **super().get_config(),
            "num_classes": self.num_classes,
            "target_class_ids": self.target_class_ids,
            "ignore_class": self.ignore_class,
            "sparse_y_true": self.sparse_y_true,
            "sparse_y_pred": self.sparse_y_pred,
            "axis": self.axis,
        }


class BinaryIoU(IoU):
    """IoU of binary predictions thresholded at `threshold` (``keras.metrics.BinaryIoU``).

    Args:
        target_class_ids: which of the classes 0 and 1 to average (default both).
        threshold: scores at or above it are class 1 (default 0.5).
        name: the metric's name.
        dtype: the dtype of the confusion matrix.

    Example:

    >>> m = BinaryIoU(target_class_ids=[1])
    >>> m.update_state([0, 1, 1, 1], [0.2, 0.7, 0.4, 0.9])
    >>> round(float(m.result()), 4)
    0.6667
    """

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(num_classes=2, target_class_ids=target_class_ids, name=name, dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = _shapes.as_tensor(y_pred, "float32")
        y_pred = ops.cast(ops.greater_equal(y_pred, self.threshold), self.dtype)
        super().update_state(y_true, y_pred, sample_weight)

    def get_config(self):
        return {
            "target_class_ids": self.target_class_ids,
            "threshold": self.threshold,
            "name": self.name,
            "dtype": self.dtype,
        }


class MeanIoU(IoU):
    """IoU averaged over every class (``keras.metrics.MeanIoU``).

    Args:
        num_classes: the number of classes.
        name, dtype, ignore_class, sparse_y_true, sparse_y_pred, axis: as in `IoU`.

    Example:

    >>> m = MeanIoU(num_classes=2)
    >>> m.update_state([0, 0, 1, 1], [0, 1, 0, 1])
    >>> round(float(m.result()), 4)
    0.3333
    """

    def __init__(
        self,
        num_classes,
        name=None,
        dtype=None,
        ignore_class=None,
        sparse_y_true=True,
        sparse_y_pred=True,
        axis=-1,
    ):
        ids = list(range(num_classes)) if isinstance(num_classes, int) else [0]
        super().__init__(target_class_ids=ids, **passed_arguments(locals(), "ids"))

    def get_config(self):
        config = super().get_config()
        del config["target_class_ids"]
        return config


class OneHotIoU(_OneHotLabels, IoU):
    """`IoU` with one-hot labels (and scores as predictions unless `sparse_y_pred`).

    Example:

    >>> m = OneHotIoU(num_classes=3, target_class_ids=[0, 2])
    >>> m.update_state([[0, 0, 1], [1, 0, 0], [0, 1, 0]],
    ...                [[0.2, 0.3, 0.5], [0.1, 0.2, 0.7], [0.5, 0.3, 0.1]])
    >>> round(float(m.result()), 4)
    0.25
    """

    def __init__(
        self,
        num_classes,
        target_class_ids,
        name=None,
        dtype=None,
        ignore_class=None,
        sparse_y_pred=False,
        axis=-1,
    ):
        super().__init__(sparse_y_true=False, **passed_arguments(locals()))


class OneHotMeanIoU(_OneHotLabels, MeanIoU):
    """`MeanIoU` with one-hot labels (and scores as predictions unless `sparse_y_pred`).

    Example:

    >>> m = OneHotMeanIoU(num_classes=3)
    >>> m.update_state([[0, 0, 1], [1, 0, 0], [0, 1, 0]],
    ...                [[0.2, 0.3, 0.5], [0.1, 0.2, 0.7], [0.5, 0.3, 0.1]])
    >>> round(float(m.result()), 4)
    0.1667
    """

    def __init__(
        self, num_classes, name=None, dtype=None, ignore_class=None, sparse_y_pred=False, axis=-1
    ):
        super().__init__(sparse_y_true=False, **passed_arguments(locals()))
