"""The entry point of this backend: read by mb_ops without importing the engine."""

from mb_ops.backends import BackendDescriptor

DESCRIPTOR = BackendDescriptor(
    name="numpy",
    module="mb_backend_numpy",
    engine=None,
    engine_distribution=None,
    trainable=False,
    engine_distributions=("numpy",),
)
