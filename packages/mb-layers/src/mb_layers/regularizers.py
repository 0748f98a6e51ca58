"""Regularizers (``keras.regularizers``): penalties on weights or activations.

`get` accepts a name (``"l2"``), a serialized dict, a callable or an instance.
"""

import math

from mb_layers import _serialization
from mb_layers._ops import ops
from mb_ops import config


def _penalty(value, name):
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value < 0
    ):
        raise ValueError(
            f"Invalid value for argument {name}: expected a non-negative finite float. "
            f"Received: {name}={value!r}."
        )
    return float(value)


class Regularizer:
    """Base of regularizers: ``regularizer(x)`` returns a scalar penalty."""

    def __call__(self, x):
        return 0.0

    def get_config(self):
        raise NotImplementedError(f"{type(self).__name__} must implement get_config().")

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class L1(Regularizer):
    """``l1 * sum(abs(x))``."""

    def __init__(self, l1=0.01):
        self.l1 = _penalty(l1, "l1")

    def __call__(self, x):
        return ops.multiply(self.l1, ops.sum(ops.absolute(x)))

    def get_config(self):
        return {"l1": self.l1}


class L2(Regularizer):
    """``l2 * sum(square(x))``."""

    def __init__(self, l2=0.01):
        self.l2 = _penalty(l2, "l2")

    def __call__(self, x):
        return ops.multiply(self.l2, ops.sum(ops.square(x)))

    def get_config(self):
        return {"l2": self.l2}


class L1L2(Regularizer):
    """``l1 * sum(abs(x)) + l2 * sum(square(x))``."""

    def __init__(self, l1=0.0, l2=0.0):
        self.l1 = _penalty(0.0 if l1 is None else l1, "l1")
        self.l2 = _penalty(0.0 if l2 is None else l2, "l2")

    def __call__(self, x):
        total = ops.convert_to_tensor(0.0, dtype=_dtype(x))
        if self.l1:
            total = ops.add(total, ops.multiply(self.l1, ops.sum(ops.absolute(x))))
        if self.l2:
            total = ops.add(total, ops.multiply(self.l2, ops.sum(ops.square(x))))
        return total

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


def _dtype(x):
    return getattr(x, "dtype", None) or config.floatx()


class OrthogonalRegularizer(Regularizer):
    """Pushes the rows (or columns) of a 2D weight towards orthogonality.

    Args:
        factor: the penalty's weight.
        mode: ``"rows"`` or ``"columns"``.
    """

    def __init__(self, factor=0.01, mode="rows"):
        if mode not in ("rows", "columns"):
            raise ValueError(
                f"OrthogonalRegularizer mode must be 'rows' or 'columns'. Received: mode={mode!r}."
            )
        self.factor = _penalty(factor, "factor")
        self.mode = mode

    def __call__(self, x):
        if len(x.shape) != 2:
            raise ValueError(
                f"OrthogonalRegularizer needs a rank 2 input. Received: shape={tuple(x.shape)}."
            )
        if self.mode == "rows":
            x = ops.normalize(x, axis=1)
            product = ops.matmul(x, ops.transpose(x))
            size = x.shape[0]
        else:
            x = ops.normalize(x, axis=0)
            product = ops.matmul(ops.transpose(x), x)
            size = x.shape[1]
        off_diagonal = ops.multiply(product, ops.subtract(1.0, ops.eye(size, dtype=x.dtype)))
        pairs = size * (size - 1.0) / 2.0
        return ops.divide(
            ops.multiply(self.factor * 0.5, ops.sum(ops.absolute(off_diagonal))), pairs
        )

    def get_config(self):
        return {"factor": self.factor, "mode": self.mode}


l1 = L1
l2 = L2
l1_l2 = L1L2
orthogonal_regularizer = OrthogonalRegularizer

_CLASSES = {c.__name__: c for c in (Regularizer, L1, L2, L1L2, OrthogonalRegularizer)}
ALL_OBJECTS = {
    **_CLASSES,
    "l1": L1,
    "l2": L2,
    "l1_l2": L1L2,
    "orthogonal_regularizer": OrthogonalRegularizer,
}


def serialize(regularizer):
    """The serialized dict (module ``"keras.regularizers"`` for built-ins)."""
    return _serialization.serialize_object(regularizer, _CLASSES, "keras.regularizers")


deserialize, get = _serialization.registry_functions(__name__, ALL_OBJECTS, "regularizer", "'l2'")
