"""Constraints (``keras.constraints``): projections applied to weights after updates.

`get` accepts a name (``"non_neg"``), a serialized dict, a callable or an instance.
"""

from mb_layers import _serialization
from mb_layers._ops import ops
from mb_ops import config


class Constraint:
    """Base of constraints: ``constraint(w)`` returns the projected weight."""

    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _norms(w, axis):
    return ops.sqrt(ops.sum(ops.square(w), axis=axis, keepdims=True))


class MaxNorm(Constraint):
    """Caps the norm of the weights along `axis` at `max_value`."""

    def __init__(self, max_value=2, axis=0):
        self.max_value = max_value
        self.axis = axis

    def __call__(self, w):
        w = ops.convert_to_tensor(w)
        norms = _norms(w, self.axis)
        desired = ops.clip(norms, 0, self.max_value)
        return ops.multiply(
            ops.cast(w, norms.dtype), ops.divide(desired, ops.add(config.epsilon(), norms))
        )

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg(Constraint):
    """Clips the weights at zero from below."""

    def __call__(self, w):
        return ops.maximum(ops.convert_to_tensor(w), 0)


class UnitNorm(Constraint):
    """Scales the weights to unit norm along `axis`."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        w = ops.convert_to_tensor(w)
        norms = _norms(w, self.axis)
        return ops.divide(ops.cast(w, norms.dtype), ops.add(config.epsilon(), norms))

    def get_config(self):
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    """Keeps the norm along `axis` in [`min_value`, `max_value`], moving by `rate`."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value = min_value
        self.max_value = max_value
        self.rate = rate
        self.axis = axis

    def __call__(self, w):
        w = ops.convert_to_tensor(w)
        norms = _norms(w, self.axis)
        desired = ops.add(
            ops.multiply(self.rate, ops.clip(norms, self.min_value, self.max_value)),
            ops.multiply(1 - self.rate, norms),
        )
        return ops.multiply(
            ops.cast(w, norms.dtype), ops.divide(desired, ops.add(config.epsilon(), norms))
        )

    def get_config(self):
        return {
            "min_value": self.min_value,
            "max_value": self.max_value,
            "rate": self.rate,
            "axis": self.axis,
        }


max_norm = MaxNorm
non_neg = NonNeg
unit_norm = UnitNorm
min_max_norm = MinMaxNorm

_CLASSES = {c.__name__: c for c in (Constraint, MaxNorm, NonNeg, UnitNorm, MinMaxNorm)}
ALL_OBJECTS = {
    **_CLASSES,
    "max_norm": MaxNorm,
    "non_neg": NonNeg,
    "unit_norm": UnitNorm,
    "min_max_norm": MinMaxNorm,
}


def serialize(constraint):
    """The serialized dict (module ``"keras.constraints"`` for built-ins)."""
    return _serialization.serialize_object(constraint, _CLASSES, "keras.constraints")


deserialize, get = _serialization.registry_functions(
    __name__, ALL_OBJECTS, "constraint", "'non_neg'"
)
