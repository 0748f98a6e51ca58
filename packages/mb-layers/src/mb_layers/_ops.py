"""The op namespaces layers are written over: ``ops`` is ``keras.ops`` (mb_ops.ops),
``random`` is ``keras.random`` (mb_ops.random). Each op runs eagerly on the active
backend and infers shapes and dtypes statically on KerasTensors."""

from mb_ops import ops as ops
from mb_ops import random as random

__all__ = ["ops", "random"]
