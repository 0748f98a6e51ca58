"""The entry point of this backend: read by mb_ops without importing the engine."""

from mb_ops.backends import BackendDescriptor

DESCRIPTOR = BackendDescriptor(
    name="tensorflow",
    module="mb_backend_tensorflow",
    engine="tensorflow",
    engine_distribution="tensorflow-cpu",
    trainable=True,
    engine_distributions=("tensorflow", "tensorflow-cpu"),
    engine_loader="_engine",
)
