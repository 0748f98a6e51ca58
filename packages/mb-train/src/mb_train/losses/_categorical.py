"""Cross-entropies over classes: one-hot targets (plain and focal), integer targets
(plain, with an ignored class) and the generalized cross-entropy."""

import warnings

from mb_layers import set_keras_mask
from mb_ops import config, ops
from mb_train._arguments import passed_arguments
from mb_train.losses._serialization import builtin
from mb_train.losses._wrapper import BuiltinLossWrapper

_DEFAULT = "sum_over_batch_size"

_ONE_CLASS = (
    "In loss {name}, expected y_pred.shape to be (batch_size, num_classes) with "
    "num_classes > 1. Received: y_pred.shape={shape}. Consider using "
    "'binary_crossentropy' if you only have 2 classes."
)


def _check_axis(axis):
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise ValueError(
            f"`axis` must be an int (the class axis). Received: axis={axis!r} of type "
            f"{type(axis).__name__}."
        )


def _prepare_one_hot(name, y_true, y_pred, label_smoothing, axis):
    _check_axis(axis)
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, ops.dtype(y_pred))
    if y_pred.shape[-1] == 1:
        warnings.warn(
            _ONE_CLASS.format(name=name, shape=tuple(y_pred.shape)), SyntaxWarning, stacklevel=3
        )
    if label_smoothing:
        # The number of classes is read on the class axis (Keras 3 reads the last
        # axis whatever `axis` is; both agree for the default axis=-1).
        num_classes = ops.cast(ops.shape(y_true)[axis], ops.dtype(y_pred))
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / num_classes
    return y_true, y_pred


@builtin
def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """Cross-entropy between one-hot (or soft) targets and predicted class scores.

    Args:
        y_true: one-hot (or probability) targets, same shape as `y_pred`.
        y_pred: probabilities over `axis` (rescaled to sum to 1), or logits.
        from_logits: whether `y_pred` holds logits.
        label_smoothing: in [0, 1]; targets become
            ``y * (1 - label_smoothing) + label_smoothing / num_classes``.
        axis: the class axis.

    >>> from mb_ops import ops
    >>> values = categorical_crossentropy([[0.0, 1.0]], [[0.5, 0.5]])
    >>> [round(v, 4) for v in ops.convert_to_numpy(values).tolist()]
    [0.6931]
    """
    y_true, y_pred = _prepare_one_hot(
        "categorical_crossentropy", y_true, y_pred, label_smoothing, axis
    )
    return ops.categorical_crossentropy(y_true, y_pred, from_logits=from_logits, axis=axis)


@builtin
def categorical_focal_crossentropy(
    y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1
):
    """Categorical cross-entropy with each class term scaled by ``alpha * (1 - p) ** gamma``.

    The other arguments are those of `categorical_crossentropy`.
    """
    y_true, y_pred = _prepare_one_hot(
        "categorical_focal_crossentropy", y_true, y_pred, label_smoothing, axis
    )
    if from_logits:
        y_pred = ops.softmax(y_pred, axis=axis)
    eps = config.epsilon()
    probs = y_pred / ops.sum(y_pred, axis=axis, keepdims=True)
    probs = ops.clip(probs, eps, 1.0 - eps)
    cross_entropy = -y_true * ops.log(probs)
    focal = alpha * ops.power(1.0 - probs, gamma) * cross_entropy
    return ops.sum(focal, axis=axis)


@builtin
def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, ignore_class=None, axis=-1):
    """Cross-entropy between integer class targets and predicted class scores.

    Args:
        y_true: class indices, the shape of `y_pred` without the class axis
            (or with it of size 1).
        y_pred: probabilities over `axis`, or logits.
        from_logits: whether `y_pred` holds logits.
        ignore_class: a class index whose entries give 0 and are masked out
            (the result carries the mask, so a `Loss` averages over the rest).
        axis: the class axis.

    >>> from mb_ops import ops
    >>> values = sparse_categorical_crossentropy([1, 0], [[0.5, 0.5], [1.0, 0.0]])
    >>> [round(v, 4) for v in ops.convert_to_numpy(values).tolist()]
    [0.6931, 0.0]
    """
    _check_axis(axis)
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true)
    if len(y_true.shape) == len(y_pred.shape) and y_true.shape[axis] == 1:
        y_true = ops.squeeze(y_true, axis=axis)
    if axis not in (-1, len(y_pred.shape) - 1):
        # Classes last: the backends' sparse cross-entropy ops all accept that layout.
        y_pred = ops.moveaxis(y_pred, axis, -1)
        axis = -1
    if ignore_class is None:
        return ops.sparse_categorical_crossentropy(
            y_true, y_pred, from_logits=from_logits, axis=axis
        )
    valid = ops.not_equal(y_true, ignore_class)
    y_true = ops.where(valid, y_true, 0)
    # Ignored entries get uniform scores: their value is replaced by 0 below, and
    # uniform scores keep NaN out of the discarded branch (and its gradient).
    y_pred = ops.where(ops.expand_dims(valid, axis), y_pred, 1.0)
    values = ops.sparse_categorical_crossentropy(y_true, y_pred, from_logits=from_logits, axis=axis)
    if tuple(valid.shape) != tuple(values.shape):
        valid = ops.reshape(valid, ops.shape(values))
    values = ops.where(valid, values, 0.0)
    set_keras_mask(values, valid)
    return values


@builtin
def categorical_generalized_cross_entropy(y_true, y_pred, q):
    """Generalized cross-entropy (Zhang & Sabuncu, 2018), robust to noisy labels.

    ``(1 - p ** q) / q`` with ``p`` the probability given to the true class;
    it tends to the cross-entropy as ``q -> 0`` and to the mean absolute error
    at ``q = 1``.

    Args:
        y_true: integer class indices, shape ``(batch,)`` (or ``(batch, 1)``).
        y_pred: class probabilities, shape ``(batch, num_classes)``.
        q: in (0, 1).
    """
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true)
    if len(y_true.shape) == len(y_pred.shape) and y_true.shape[-1] == 1:
        # (batch, 1) targets: Keras 3 broadcasts them into a (batch, batch) result.
        y_true = ops.squeeze(y_true, axis=-1)
    num_classes = y_pred.shape[-1]
    one_hot = ops.one_hot(ops.cast(y_true, "int32"), num_classes, dtype=ops.dtype(y_pred))
    p = ops.sum(y_pred * one_hot, axis=-1)
    return (1.0 - ops.power(p, q)) / q


@builtin
class CategoricalCrossentropy(BuiltinLossWrapper):
    """Cross-entropy for one-hot targets (`categorical_crossentropy`).

    Args:
        from_logits: whether predictions are logits (else probabilities).
        label_smoothing: in [0, 1], see `categorical_crossentropy`.
        axis: the class axis.
        reduction, name, dtype: see `Loss`.

    >>> loss = CategoricalCrossentropy(from_logits=True)
    >>> round(float(loss([[0.0, 1.0]], [[0.0, 0.0]])), 4)
    0.6931
    """

    def __init__(
        self,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction=_DEFAULT,
        name="categorical_crossentropy",
        dtype=None,
    ):
        super().__init__(categorical_crossentropy, **passed_arguments(locals()))


@builtin
class CategoricalFocalCrossentropy(BuiltinLossWrapper):
    """Focal cross-entropy for one-hot targets (`categorical_focal_crossentropy`).

    Args:
        alpha: the weight of every class term.
        gamma: the focusing exponent (0 gives ``alpha`` times the cross-entropy).
        from_logits, label_smoothing, axis: see `CategoricalCrossentropy`.
        reduction, name, dtype: see `Loss`.
    """

    def __init__(
        self,
        alpha=0.25,
        gamma=2.0,
        from_logits=False,
        label_smoothing=0.0,
        axis=-1,
        reduction=_DEFAULT,
        name="categorical_focal_crossentropy",
        dtype=None,
    ):
        super().__init__(categorical_focal_crossentropy, **passed_arguments(locals()))


@builtin
class SparseCategoricalCrossentropy(BuiltinLossWrapper):
    """Cross-entropy for integer class targets (`sparse_categorical_crossentropy`).

    Args:
        from_logits: whether predictions are logits (else probabilities).
        ignore_class: a class index left out of the loss (e.g. padding); the
            average runs over the other entries.
        reduction, name, dtype: see `Loss`.
        axis: the class axis.

    >>> loss = SparseCategoricalCrossentropy(ignore_class=0)
    >>> round(float(loss([0, 1], [[1.0, 0.0], [0.5, 0.5]])), 4)
    0.6931
    """

    def __init__(
        self,
        from_logits=False,
        ignore_class=None,
        reduction=_DEFAULT,
        axis=-1,
        name="sparse_categorical_crossentropy",
        dtype=None,
    ):
        super().__init__(sparse_categorical_crossentropy, **passed_arguments(locals()))


@builtin
class CategoricalGeneralizedCrossEntropy(BuiltinLossWrapper):
    """Generalized cross-entropy for integer targets (`categorical_generalized_cross_entropy`).

    Args:
        q: in (0, 1); small values behave like the cross-entropy, values near 1
            like the mean absolute error (more robust to wrong labels).
        reduction, name, dtype: see `Loss`.
    """

    def __init__(
        self, q=0.5, reduction=_DEFAULT, name="categorical_generalized_cross_entropy", dtype=None
    ):
        if isinstance(q, bool) or not isinstance(q, int | float) or not 0 < q < 1:
            raise ValueError(
                f"CategoricalGeneralizedCrossEntropy needs q in the open interval (0, 1). "
                f"Received: q={q!r}."
            )
        super().__init__(categorical_generalized_cross_entropy, **passed_arguments(locals()))
