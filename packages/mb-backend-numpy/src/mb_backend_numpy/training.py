"""Training primitives: none, the NumPy backend is inference-only."""

from mb_ops import numpy_shaped

_REASON = "the numpy backend is inference-only; use jax, torch or tensorflow to train"

UNSUPPORTED = dict.fromkeys(numpy_shaped.TRAINING_FUNCTIONS, _REASON)
value_and_grad, jit, multi_step, fused_update = numpy_shaped.refusals(
    "numpy", _REASON, UNSUPPORTED
).values()
