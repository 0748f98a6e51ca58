"""Training primitives: none, the OpenVINO backend is inference-only (as in Keras 3)."""

from mb_ops import numpy_shaped

_REASON = (
    "the openvino backend is inference-only (OpenVINO computes no gradients); "
    "use jax, torch or tensorflow to train"
)

UNSUPPORTED = dict.fromkeys(("value_and_grad", "jit", "multi_step", "fused_update"), _REASON)

_REFUSE = numpy_shaped.refusals("openvino", _REASON, UNSUPPORTED)
value_and_grad = _REFUSE["value_and_grad"]
jit = _REFUSE["jit"]
multi_step = _REFUSE["multi_step"]
fused_update = _REFUSE["fused_update"]
