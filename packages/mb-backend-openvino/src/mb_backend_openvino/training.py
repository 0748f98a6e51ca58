"""Training primitives: none, the OpenVINO backend is inference-only (as in Keras 3)."""

from mb_ops import numpy_shaped

_REASON = (
    "the openvino backend is inference-only (OpenVINO computes no gradients); "
    "use jax, torch or tensorflow to train"
)

UNSUPPORTED = dict.fromkeys(numpy_shaped.TRAINING_FUNCTIONS, _REASON)
value_and_grad, jit, multi_step, fused_update = numpy_shaped.refusals(
    "openvino", _REASON, UNSUPPORTED
).values()
