"""`Loss`, the base class of every loss (``keras.losses.Loss``)."""

import numbers

from mb_graph import naming, tree
from mb_layers import dtype_policies, get_keras_mask
from mb_ops import config, ops
from mb_train.losses._reduction import reduce_weighted_values, standardize_reduction


class Loss:
    """Base class of losses: subclasses implement ``call(y_true, y_pred)``.

    ``loss(y_true, y_pred, sample_weight=None)`` converts both to the loss's
    dtype, computes the per-sample values with `call`, weights them by
    `sample_weight` and by the mask carried by `y_pred` (or by the values
    `call` returns), and reduces them.

    Args:
        name: the loss's name; by default the snake_case class name, made unique.
        reduction: ``"sum_over_batch_size"`` (the default) and ``"mean"`` sum the
            weighted values and divide by their number; ``"sum"`` sums them;
            ``"mean_with_sample_weight"`` divides the sum by the sum of the
            sample weights; ``"none"`` or None returns the weighted values.
        dtype: the dtype of the computation, a dtype name or a `DTypePolicy`
            (its compute dtype is used); None means ``floatx()``.

    Example:

    >>> from mb_ops import ops
    >>> class MeanAbsolute(Loss):
    ...     def call(self, y_true, y_pred):
    ...         return ops.mean(ops.abs(y_true - y_pred), axis=-1)
    >>> loss = MeanAbsolute(reduction="sum")
    >>> float(loss([[0.0, 2.0], [1.0, 1.0]], [[1.0, 1.0], [1.0, 1.0]]))
    1.0
    """

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        self.name = name or naming.auto_name(type(self).__name__)
        self.reduction = standardize_reduction(reduction)
        self._dtype_policy = dtype_policies.get(dtype or config.floatx())
        self._dtype = self._dtype_policy.compute_dtype

    @property
    def dtype(self):
        """The dtype the loss computes in (a string such as ``"float32"``)."""
        return self._dtype

    def __call__(self, y_true, y_pred, sample_weight=None):
        in_mask = get_keras_mask(y_pred)
        y_pred = _to_tensors(y_pred, self.dtype)
        y_true = _to_tensors(y_true, self.dtype)
        values = self.call(y_true, y_pred)
        out_mask = get_keras_mask(values)
        if in_mask is not None and out_mask is not None:
            mask = ops.logical_and(ops.cast(in_mask, "bool"), ops.cast(out_mask, "bool"))
        else:
            mask = in_mask if in_mask is not None else out_mask
        return reduce_weighted_values(
            values,
            sample_weight=sample_weight,
            mask=mask,
            reduction=self.reduction,
            dtype=self.dtype,
        )

    def call(self, y_true, y_pred):
        """The unreduced loss values; subclasses implement it."""
        raise NotImplementedError(
            f"{type(self).__name__} must implement call(y_true, y_pred), returning the "
            "per-sample loss values."
        )

    def get_config(self):
        """The constructor arguments, as Keras 3 writes them (``name``, ``reduction``)."""
        return {"name": self.name, "reduction": self.reduction}

    @classmethod
    def from_config(cls, config):
        """The loss described by `get_config`'s dict."""
        return cls(**config)


def _is_number_list(x):
    if isinstance(x, list | tuple):
        return len(x) > 0 and all(_is_number_list(item) for item in x)
    return isinstance(x, numbers.Number)


def _to_tensors(x, dtype):
    """Tensors of `dtype`: a (nested) list of numbers becomes one tensor, as an
    array would; any other structure (dict, list of arrays) is converted leaf by leaf."""
    if _is_number_list(x):
        return ops.convert_to_tensor(x, dtype=dtype)
    return tree.map_structure(lambda leaf: ops.convert_to_tensor(leaf, dtype=dtype), x)
