"""Learning rate schedules (``keras.optimizers.schedules``) and their (de)serialization."""

from mb_layers import _serialization
from mb_train.optimizers.schedules._base import LearningRateSchedule as LearningRateSchedule
from mb_train.optimizers.schedules._cosine import CosineDecay as CosineDecay
from mb_train.optimizers.schedules._cosine import CosineDecayRestarts as CosineDecayRestarts
from mb_train.optimizers.schedules._decay import ExponentialDecay as ExponentialDecay
from mb_train.optimizers.schedules._decay import InverseTimeDecay as InverseTimeDecay
from mb_train.optimizers.schedules._decay import PiecewiseConstantDecay as PiecewiseConstantDecay
from mb_train.optimizers.schedules._decay import PolynomialDecay as PolynomialDecay

_CLASSES = {
    cls.__name__: cls
    for cls in (
        LearningRateSchedule,
        ExponentialDecay,
        PiecewiseConstantDecay,
        PolynomialDecay,
        InverseTimeDecay,
        CosineDecay,
        CosineDecayRestarts,
    )
}


def serialize(learning_rate_schedule):
    """The Keras-format dict of a schedule (module ``"keras.optimizers.schedules"``).

    Example:
        >>> serialize(ExponentialDecay(0.1, 10, 0.9))["class_name"]
        'ExponentialDecay'
    """
    if not isinstance(learning_rate_schedule, LearningRateSchedule):
        raise TypeError(
            "schedules.serialize expects a LearningRateSchedule. Received: "
            f"{learning_rate_schedule!r} (of type {type(learning_rate_schedule).__name__})."
        )
    return _serialization.serialize_object(
        learning_rate_schedule, _CLASSES, "keras.optimizers.schedules"
    )


def deserialize(config, custom_objects=None):
    """The schedule described by a Keras-format dict (or a class name, with defaults)."""
    schedule = _serialization.deserialize_object(
        config, _CLASSES, "learning rate schedule", custom_objects=custom_objects
    )
    if not isinstance(schedule, LearningRateSchedule) and not callable(schedule):
        raise ValueError(f"{config!r} does not describe a learning rate schedule.")
    return schedule


__all__ = [
    "CosineDecay",
    "CosineDecayRestarts",
    "ExponentialDecay",
    "InverseTimeDecay",
    "LearningRateSchedule",
    "PiecewiseConstantDecay",
    "PolynomialDecay",
    "deserialize",
    "serialize",
]
