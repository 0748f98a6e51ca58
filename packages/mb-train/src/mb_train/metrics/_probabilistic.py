"""Probabilistic metrics: running means of the cross-entropy, KL and Poisson losses."""

from mb_train.losses import (
    binary_crossentropy,
    categorical_crossentropy,
    kl_divergence,
    poisson,
    sparse_categorical_crossentropy,
)
from mb_train.metrics._reduction import BuiltinMeanMetricWrapper


class KLDivergence(BuiltinMeanMetricWrapper):
    """The mean of `kl_divergence` over samples (``keras.metrics.KLDivergence``).

    Example:

    >>> m = KLDivergence()
    >>> m.update_state([[0.5, 0.5]], [[0.5, 0.5]])
    >>> float(m.result())
    0.0
    """

    def __init__(self, name="kl_divergence", dtype=None):
        super().__init__(kl_divergence, name=name, dtype=dtype)


class Poisson(BuiltinMeanMetricWrapper):
    """The mean of `poisson` (``y_pred - y_true * log(y_pred)``) over samples.

    Example:

    >>> m = Poisson()
    >>> m.update_state([[0.0, 0.0]], [[1.0, 1.0]])
    >>> float(m.result())
    1.0
    """

    def __init__(self, name="poisson", dtype=None):
        super().__init__(poisson, name=name, dtype=dtype)


class BinaryCrossentropy(BuiltinMeanMetricWrapper):
    """The mean binary cross-entropy (``keras.metrics.BinaryCrossentropy``).

    Args:
        name: the metric's name.
        dtype: the dtype of the result.
        from_logits: `y_pred` holds logits rather than probabilities.
        label_smoothing: in [0, 1]; squeezes the labels toward 0.5.

    Example:

    >>> m = BinaryCrossentropy()
    >>> m.update_state([[0.0, 1.0]], [[0.5, 0.5]])
    >>> round(float(m.result()), 4)
    0.6931
    """

    def __init__(
        self, name="binary_crossentropy", dtype=None, from_logits=False, label_smoothing=0
    ):
        super().__init__(
            binary_crossentropy,
            name=name,
            dtype=dtype,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
        )


class CategoricalCrossentropy(BuiltinMeanMetricWrapper):
    """The mean categorical cross-entropy of one-hot labels.

    Args:
        name: the metric's name.
        dtype: the dtype of the result.
        from_logits: `y_pred` holds logits rather than probabilities.
        label_smoothing: in [0, 1]; mixes the labels with the uniform distribution.
        axis: the class axis (default -1).

    Example:

    >>> m = CategoricalCrossentropy()
    >>> m.update_state([[0.0, 1.0]], [[0.5, 0.5]])
    >>> round(float(m.result()), 4)
    0.6931
    """

    def __init__(
        self,
        name="categorical_crossentropy",
        dtype=None,
        from_logits=False,
        label_smoothing=0,
        axis=-1,
    ):
        super().__init__(
            categorical_crossentropy,
            name=name,
            dtype=dtype,
            from_logits=from_logits,
            label_smoothing=label_smoothing,
            axis=axis,
        )


class SparseCategoricalCrossentropy(BuiltinMeanMetricWrapper):
    """The mean categorical cross-entropy of integer labels.

    Args:
        name: the metric's name.
        dtype: the dtype of the result.
        from_logits: `y_pred` holds logits rather than probabilities.
        ignore_class: a label value whose samples count with weight 0.
        axis: the class axis (default -1).

    Example:

    >>> m = SparseCategoricalCrossentropy()
    >>> m.update_state([1], [[0.5, 0.5]])
    >>> round(float(m.result()), 4)
    0.6931
    """

    def __init__(
        self,
        name="sparse_categorical_crossentropy",
        dtype=None,
        from_logits=False,
        ignore_class=None,
        axis=-1,
    ):
        super().__init__(
            sparse_categorical_crossentropy,
            name=name,
            dtype=dtype,
            from_logits=from_logits,
            ignore_class=ignore_class,
            axis=axis,
        )
