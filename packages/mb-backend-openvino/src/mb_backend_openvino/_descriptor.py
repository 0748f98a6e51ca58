"""The entry point of this backend: read by mb_ops without importing the engine."""

from mb_ops.backends import BackendDescriptor

DESCRIPTOR = BackendDescriptor(
    name="openvino",
    module="mb_backend_openvino",
    engine="openvino",
    engine_distribution="openvino",
    trainable=False,
    engine_distributions=("openvino",),
)
