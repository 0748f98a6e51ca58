"""`LossFunctionWrapper`: a `Loss` around a plain ``fn(y_true, y_pred, **kwargs)``."""

from mb_graph import tree
from mb_train.losses import _serialization
from mb_train.losses._loss import Loss
from mb_train.losses._reduction import squeeze_or_expand_to_same_rank


class LossFunctionWrapper(Loss):
    """Turns a loss function returning per-sample values into a `Loss` object.

    Before calling `fn`, targets and predictions whose ranks differ by a trailing
    axis of size 1 are brought to the same rank (``(batch,)`` targets against
    ``(batch, 1)`` predictions). Every built-in loss class is one of these.

    Args:
        fn: ``fn(y_true, y_pred, **kwargs) -> values``.
        reduction: see `Loss`.
        name: see `Loss`.
        dtype: see `Loss`.
        **kwargs: passed to `fn` on every call (and saved in the config).

    Example:

    >>> from mb_train import losses
    >>> loss = LossFunctionWrapper(losses.huber, delta=0.5)
    >>> float(loss([[0.0], [0.0]], [[1.0], [0.25]]))
    0.203125
    """

    def __init__(self, fn, reduction="sum_over_batch_size", name=None, dtype=None, **kwargs):
        if not callable(fn):
            raise TypeError(
                f"LossFunctionWrapper needs a callable fn(y_true, y_pred). Received: fn={fn!r} "
                f"(of type {type(fn).__name__})."
            )
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true, y_pred):
        if not tree.is_nested(y_true) and not tree.is_nested(y_pred):
            y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
        else:
            pairs = tree.map_structure(squeeze_or_expand_to_same_rank, y_true, y_pred)
            y_true = tree.map_structure_up_to(y_true, lambda pair: pair[0], pairs)
            y_pred = tree.map_structure_up_to(y_pred, lambda pair: pair[1], pairs)
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        config = super().get_config()
        config["fn"] = _serialization.serialize(self.fn)
        config.update(self._fn_kwargs)
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if isinstance(config.get("fn"), str | dict):
            config["fn"] = _serialization.deserialize(config["fn"])
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__}({self.fn!r}, kwargs={self._fn_kwargs})>"


class BuiltinLossWrapper(LossFunctionWrapper):
    """The base of mb's built-in loss classes (`BinaryCrossentropy`, `Huber`, ...).

    The arguments a class passes its function (``from_logits=...``) become its public
    attributes, and its config is `Loss`'s plus those arguments, in the order passed
    (no ``fn``: the class names it). Where Keras 3 leaves one out of the config
    (``axis`` of `CosineSimilarity` and `SparseCategoricalCrossentropy`, ``delta`` of
    `Huber`) mb keeps it, and Keras reads it back (its constructors take it).
    """

    def __init__(self, fn, reduction, name, dtype, **arguments):
        super().__init__(fn, reduction=reduction, name=name, dtype=dtype, **arguments)
        for key, value in arguments.items():
            setattr(self, key, value)

    def get_config(self):
        return {**Loss.get_config(self), **{key: getattr(self, key) for key in self._fn_kwargs}}
