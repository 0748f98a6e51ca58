"""Training primitives: none, the NumPy backend is inference-only."""

from mb_ops import numpy_shaped

_REASON = "the numpy backend is inference-only; use jax, torch or tensorflow to train"

UNSUPPORTED = dict.fromkeys(("value_and_grad", "jit", "multi_step", "fused_update"), _REASON)

_REFUSE = numpy_shaped.refusals("numpy", _REASON, UNSUPPORTED)
value_and_grad = _REFUSE["value_and_grad"]
jit = _REFUSE["jit"]
multi_step = _REFUSE["multi_step"]
fused_update = _REFUSE["fused_update"]
