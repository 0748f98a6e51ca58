"""`Sum`, `Mean` and `MeanMetricWrapper`: weighted running sums and means."""

from mb_ops import ops
from mb_train import losses
from mb_train.metrics import _serialize, _shapes
from mb_train.metrics._metric import Metric


def _reduce_axes(x, start):
    return tuple(range(start, len(x.shape)))


def samplewise_values(values, sample_weight, reduce_fn, dtype):
    """Per-sample values (reduced over the axes the weights do not cover) and weights.

    Returns ``(values, sample_weight)``: `values` of rank 1 (or 0) already
    multiplied by the weights, the weights reduced to the same rank (None
    when no weights were given).
    """
    # A mask on the values (e.g. a loss's ignore_class) takes those entries out of the
    # mean. Keras applies it only when weights are given; mb applies it always.
    mask = _shapes.mask_of(values)
    values = _shapes.as_tensor(values, dtype)
    if sample_weight is not None or mask is not None:
        if sample_weight is not None:
            sample_weight = _shapes.as_tensor(sample_weight, dtype)
        sample_weight = _shapes.apply_mask(sample_weight, mask, dtype)
        values, sample_weight = _shapes.same_rank(values, sample_weight)
        weight_rank = len(sample_weight.shape)
        if len(values.shape) > weight_rank:
            values = reduce_fn(values, axis=_reduce_axes(values, weight_rank))
        sample_weight = ops.broadcast_to(sample_weight, ops.shape(values))
        values = values * sample_weight
        if weight_rank > 1:
            sample_weight = reduce_fn(sample_weight, axis=_reduce_axes(sample_weight, 1))
    if len(values.shape) > 1:
        values = reduce_fn(values, axis=_reduce_axes(values, 1))
    return values, sample_weight


class Sum(Metric):
    """The (weighted) sum of the values seen (``keras.metrics.Sum``).

    Args:
        name: the metric's name.
        dtype: the dtype of the result.

    Example:

    >>> m = Sum()
    >>> m.update_state([1, 3, 5, 7], sample_weight=[1, 1, 0, 0])
    >>> float(m.result())
    4.0
    """

    def __init__(self, name="sum", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(
            shape=(), initializer="zeros", dtype=self.dtype, name="total"
        )

    def update_state(self, values, sample_weight=None):
        values, _ = samplewise_values(values, sample_weight, ops.sum, self.dtype)
        self.total.assign(self.total.value + ops.sum(values))

    def result(self):
        return ops.cast(self.total.value, self.dtype)


class Mean(Metric):
    """The (weighted) mean of the values seen (``keras.metrics.Mean``).

    Two variables, ``total`` and ``count``; the result is ``total / count``
    (0 before any update).

    Args:
        name: the metric's name.
        dtype: the dtype of the result.

    Example:

    >>> m = Mean()
    >>> m.update_state([1, 3, 5, 7], sample_weight=[1, 1, 0, 0])
    >>> float(m.result())
    2.0
    """

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(
            shape=(), initializer="zeros", dtype=self.dtype, name="total"
        )
        self.count = self.add_variable(
            shape=(), initializer="zeros", dtype=self.dtype, name="count"
        )

    def update_state(self, values, sample_weight=None):
        values, sample_weight = samplewise_values(values, sample_weight, ops.mean, self.dtype)
        self.total.assign(self.total.value + ops.sum(values))
        if sample_weight is not None:
            count = ops.sum(sample_weight)
        elif len(values.shape) >= 1:
            count = ops.shape(values)[0]
        else:
            count = 1
        self.count.assign(self.count.value + ops.cast(count, self.dtype))

    def result(self):
        return ops.divide_no_nan(self.total.value, ops.cast(self.count.value, self.dtype))


class MeanMetricWrapper(Mean):
    """The running mean of a function ``fn(y_true, y_pred, **kwargs)`` of per-sample values.

    Args:
        fn: the function, returning one value per sample (or per element).
        name: the metric's name (default ``mean_metric_wrapper``, made unique).
        dtype: the dtype of the result.
        **kwargs: keyword arguments passed on to `fn` at every update.

    Example:

    >>> def absolute(y_true, y_pred):
    ...     return ops.abs(ops.convert_to_tensor(y_true) - y_pred)
    >>> m = MeanMetricWrapper(absolute, name="abs")
    >>> m.update_state([1.0, 2.0], ops.convert_to_tensor([2.0, 2.0]))
    >>> float(m.result())
    0.5
    """

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        if not callable(fn):
            raise TypeError(
                "MeanMetricWrapper needs a function fn(y_true, y_pred) returning per-sample "
                f"values. Received: fn={fn!r} (of type {type(fn).__name__})."
            )
        super().__init__(name=name, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs
        # A loss function is minimized (read by callbacks with mode="auto", as in Keras).
        name = getattr(fn, "__name__", None)
        if name is not None and getattr(losses, name, None) is fn:
            self._direction = "down"

    def update_state(self, y_true, y_pred, sample_weight=None):
        mask = _shapes.mask_of(y_pred)
        values = self._fn(y_true, y_pred, **self._fn_kwargs)
        sample_weight = _shapes.apply_mask(sample_weight, mask, self.dtype)
        return super().update_state(values, sample_weight=sample_weight)

    def get_config(self):
        config = {
            "name": self.name,
            "dtype": self.dtype,
            "fn": _serialize.serialize_function(self._fn),
        }
        config.update(self._fn_kwargs)
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if "fn" in config:  # a user's function is found in the custom-object scope
            config["fn"] = _serialize.deserialize_function(config["fn"])
        return cls(**config)


class BuiltinMeanMetricWrapper(MeanMetricWrapper):
    """The base of mb's built-in metric classes that average a function
    (`BinaryCrossentropy`, `TopKCategoricalAccuracy`, ...).

    The arguments a class passes its function (``from_logits=...``) become its public
    attributes, and its config is ``name``, ``dtype`` and those arguments, in the order
    passed (no ``fn``: the class names it).
    """

    def __init__(self, fn, name, dtype, **arguments):
        super().__init__(fn, name=name, dtype=dtype, **arguments)
        for key, value in arguments.items():
            setattr(self, key, value)

    def get_config(self):
        arguments = {key: getattr(self, key) for key in self._fn_kwargs}
        return {"name": self.name, "dtype": self.dtype, **arguments}
