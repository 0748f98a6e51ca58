"""The accuracy family: per-sample functions and the mean metrics over them."""

import mb_ops
from mb_ops import ops
from mb_train.metrics import _shapes
from mb_train.metrics._reduction import BuiltinMeanMetricWrapper, MeanMetricWrapper


def _floatx():
    return mb_ops.config.floatx()


def accuracy(y_true, y_pred):
    """1.0 where `y_pred` equals `y_true`, else 0.0 (per element)."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = _shapes.as_tensor(y_true, y_pred.dtype)
    y_true, y_pred = _shapes.same_rank(y_true, y_pred)
    return ops.cast(ops.equal(y_true, y_pred), _floatx())


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """1.0 where ``y_pred > threshold`` matches the binary label, else 0.0.

    Example:

    >>> ops.convert_to_numpy(binary_accuracy([[1], [0]], [[0.8], [0.6]])).tolist()
    [[1.0], [0.0]]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true)
    y_true, y_pred = _shapes.same_rank(y_true, y_pred)
    predicted = ops.cast(ops.greater(y_pred, threshold), y_true.dtype)
    return ops.cast(ops.equal(y_true, predicted), _floatx())


def categorical_accuracy(y_true, y_pred):
    """1.0 where the arg-max of `y_pred` is the arg-max of the one-hot `y_true`.

    Example:

    >>> scores = [[0.1, 0.9, 0.8], [0.05, 0.95, 0.0]]
    >>> ops.convert_to_numpy(categorical_accuracy([[0, 0, 1], [0, 1, 0]], scores)).tolist()
    [0.0, 1.0]
    """
    y_true = ops.argmax(ops.convert_to_tensor(y_true), axis=-1)
    return sparse_categorical_accuracy(y_true, y_pred)


def sparse_categorical_accuracy(y_true, y_pred):
    """1.0 where the arg-max of `y_pred` equals the integer label `y_true`.

    Example:

    >>> scores = [[0.1, 0.6, 0.3], [0.05, 0.95, 0.0]]
    >>> ops.convert_to_numpy(sparse_categorical_accuracy([[2], [1]], scores)).tolist()
    [0.0, 1.0]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true)
    if len(y_true.shape) == len(y_pred.shape) and y_true.shape[-1] == 1:
        y_true = ops.squeeze(y_true, -1)
    predicted = ops.argmax(y_pred, axis=-1)
    matches = ops.equal(ops.cast(y_true, "int32"), ops.cast(predicted, "int32"))
    return ops.cast(matches, _floatx())


def _flatten_for_top_k(y_true, y_pred):
    shape = tuple(y_true.shape)
    if len(y_pred.shape) > 2:
        y_pred = ops.reshape(y_pred, (-1, y_pred.shape[-1]))
    if len(shape) > 1:
        y_true = ops.reshape(y_true, (-1,))
    return y_true, y_pred, shape


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1.0 where the one-hot label's class is among the k highest scores."""
    y_true = ops.argmax(ops.convert_to_tensor(y_true), axis=-1)
    return sparse_top_k_categorical_accuracy(y_true, y_pred, k=k)


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5, from_sorted_ids=False):
    """1.0 where the integer label is among the k highest scores.

    Args:
        y_true: integer labels, shape ``(batch,)``.
        y_pred: scores ``(batch, num_classes)``; with `from_sorted_ids`, the
            ids of the top classes, best first, ``(batch, N)`` with N >= k.
        k: how many top entries count.
        from_sorted_ids: whether `y_pred` holds sorted class ids.

    Example:

    >>> scores = [[0.1, 0.9, 0.8], [0.05, 0.95, 0.0]]
    >>> ops.convert_to_numpy(sparse_top_k_categorical_accuracy([2, 1], scores, k=1)).tolist()
    [0.0, 1.0]
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = _shapes.as_tensor(y_true, y_pred.dtype if from_sorted_ids else "int32")
    if len(y_true.shape) == len(y_pred.shape) and y_true.shape[-1] == 1:
        y_true = ops.squeeze(y_true, -1)
    y_true, y_pred, shape = _flatten_for_top_k(y_true, y_pred)
    if from_sorted_ids:
        matches = ops.any(ops.equal(ops.expand_dims(y_true, 1), y_pred[:, :k]), axis=1)
    else:
        # k >= the number of classes: every label is in the top k (not every engine's
        # top-k accepts a k that large).
        num_classes = y_pred.shape[-1]
        matches = ops.in_top_k(y_true, y_pred, min(k, num_classes) if num_classes else k)
    matches = ops.cast(matches, _floatx())
    return ops.reshape(matches, shape) if len(shape) > 1 else matches


class Accuracy(BuiltinMeanMetricWrapper):
    """How often predictions equal labels (``keras.metrics.Accuracy``).

    Example:

    >>> m = Accuracy()
    >>> m.update_state([[1], [2], [3], [4]], [[0], [2], [3], [4]])
    >>> float(m.result())
    0.75
    """

    _direction = "up"

    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name=name, dtype=dtype)


class BinaryAccuracy(BuiltinMeanMetricWrapper):
    """How often ``y_pred > threshold`` matches binary labels.

    Args:
        name: the metric's name.
        dtype: the dtype of the result.
        threshold: the score above which a prediction is 1 (default 0.5).

    Example:

    >>> m = BinaryAccuracy()
    >>> m.update_state([[1], [1], [0], [0]], [[0.98], [1], [0], [0.6]])
    >>> float(m.result())
    0.75
    """

    _direction = "up"

    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name=name, dtype=dtype, threshold=threshold)


class CategoricalAccuracy(BuiltinMeanMetricWrapper):
    """How often the arg-max of the scores matches one-hot labels.

    Example:

    >>> m = CategoricalAccuracy()
    >>> m.update_state([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    >>> float(m.result())
    0.5
    """

    _direction = "up"

    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name=name, dtype=dtype)


class SparseCategoricalAccuracy(BuiltinMeanMetricWrapper):
    """How often the arg-max of the scores matches integer labels.

    Example:

    >>> m = SparseCategoricalAccuracy()
    >>> m.update_state([[2], [1]], [[0.1, 0.6, 0.3], [0.05, 0.95, 0]], sample_weight=[0.7, 0.3])
    >>> round(float(m.result()), 4)
    0.3
    """

    _direction = "up"

    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name=name, dtype=dtype)


class TopKCategoricalAccuracy(BuiltinMeanMetricWrapper):
    """How often the one-hot label's class is among the `k` highest scores.

    Args:
        k: how many top scores count (default 5).
        name: the metric's name.
        dtype: the dtype of the result.

    Example:

    >>> m = TopKCategoricalAccuracy(k=1)
    >>> m.update_state([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    >>> float(m.result())
    0.5
    """

    _direction = "up"

    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name=name, dtype=dtype, k=k)


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    """How often the integer label is among the `k` highest scores.

    Args:
        k: how many top scores count (default 5).
        name: the metric's name.
        dtype: the dtype of the result.
        from_sorted_ids: `y_pred` holds the ids of the top classes, best first.

    Example:

    >>> m = SparseTopKCategoricalAccuracy(k=1)
    >>> m.update_state([2, 1], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]])
    >>> float(m.result())
    0.5
    """

    _direction = "up"

    def __init__(
        self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None, from_sorted_ids=False
    ):
        super().__init__(
            sparse_top_k_categorical_accuracy,
            name=name,
            dtype=dtype,
            k=k,
            from_sorted_ids=from_sorted_ids,
        )
        self.k = k
        self.from_sorted_ids = from_sorted_ids

    def get_config(self):
        config = {"name": self.name, "dtype": self.dtype, "k": self.k}
        if self.from_sorted_ids:
            config["from_sorted_ids"] = True
        return config
