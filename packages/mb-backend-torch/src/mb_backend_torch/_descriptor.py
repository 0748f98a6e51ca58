"""The entry point of this backend: read by mb_ops without importing the engine."""

from mb_ops.backends import BackendDescriptor

DESCRIPTOR = BackendDescriptor(
    name="torch",
    module="mb_backend_torch",
    engine="torch",
    engine_distribution="torch",
    trainable=True,
    engine_distributions=("torch",),
)
